"""Action ids: one fixed ``Discrete(110)`` space for every decision of the game.

The id layout is part of the environment's versioned interface (``mjenv/Mahjong-v0``): a
policy trained against it stays valid as long as the version does not change.

======  =========================  ==================================================
id      name                       engine action (``mjenv.game.Action``)
======  =========================  ==================================================
0–33    ``DISCARD + t``            ``discard t`` — own turn
34–67   ``ANKAN + t``              ``ankan t`` (concealed kan of kind t) — own turn
68–101  ``KAKAN + t``              ``kakan t`` (add t to an exposed pung) — own turn
102     ``TSUMO``                  ``tsumo`` (self-drawn win) — own turn
103     ``RON``                    ``ron`` — claim window or robbing a kan
104     ``CHI_LOW``                ``chi`` with the claimed tile lowest (c, c+1, c+2)
105     ``CHI_MID``                ``chi`` with the claimed tile in the middle (c−1, c, c+1)
106     ``CHI_HIGH``               ``chi`` with the claimed tile highest (c−2, c−1, c)
107     ``PON``                    ``pon``
108     ``MINKAN``                 ``minkan`` (open kan on the discard)
109     ``PASS``                   ``pass`` — claim window or robbing a kan
======  =========================  ==================================================

``t`` is the tile index 0–33 of ``mjenv.tiles`` (1m…9m, 1p…9p, 1s…9s, 1z…7z). The three chi
ids are relative to the claimed tile so that the space stays small and the same id means the
same shape for every discard; decoding a chi id therefore needs the claimed tile, which the
``PlayerView`` carries as ``target_tile``.

One function, :func:`legal_mask`, turns a view's legal actions into the mask; the
environments validate every step with that same mask, so a mask bit is set exactly when the
step is accepted.
"""

from __future__ import annotations

import numpy as np

from mjenv.game.actions import Action
from mjenv.game.view import PlayerView
from mjenv.tiles import NUM_KINDS, TILE_NAMES

NUM_ACTIONS = 110

DISCARD = 0
ANKAN = 34
KAKAN = 68
TSUMO = 102
RON = 103
CHI_LOW = 104
CHI_MID = 105
CHI_HIGH = 106
PON = 107
MINKAN = 108
PASS = 109

#: Named id ranges (``range`` objects) for code that slices the mask or the policy logits.
ACTION_RANGES: dict[str, range] = {
    "discard": range(DISCARD, DISCARD + NUM_KINDS),
    "ankan": range(ANKAN, ANKAN + NUM_KINDS),
    "kakan": range(KAKAN, KAKAN + NUM_KINDS),
    "tsumo": range(TSUMO, TSUMO + 1),
    "ron": range(RON, RON + 1),
    "chi": range(CHI_LOW, CHI_HIGH + 1),
    "pon": range(PON, PON + 1),
    "minkan": range(MINKAN, MINKAN + 1),
    "pass": range(PASS, PASS + 1),
}

_TILE_BASE = {"discard": DISCARD, "ankan": ANKAN, "kakan": KAKAN}
_PLAIN_ID = {"tsumo": TSUMO, "ron": RON, "pon": PON, "minkan": MINKAN, "pass": PASS}
_ID_PLAIN = {v: k for k, v in _PLAIN_ID.items()}

# Pre-built Action objects for the ids that need no context (hot path of decode).
_FIXED: dict[int, Action] = {}
for _kind, _base in _TILE_BASE.items():
    for _t in range(NUM_KINDS):
        _FIXED[_base + _t] = Action(_kind, _t)
for _aid, _kind in _ID_PLAIN.items():
    _FIXED[_aid] = Action(_kind)
del _kind, _base, _t, _aid


def _claimed_tile(view_or_claimed_tile: PlayerView | int | None) -> int | None:
    if isinstance(view_or_claimed_tile, PlayerView):
        return view_or_claimed_tile.target_tile
    return view_or_claimed_tile


def encode_action(action: Action, view_or_claimed_tile: PlayerView | int | None = None) -> int:
    """Engine action → id. ``chi`` needs the claimed tile (or the view that holds it).

    Raises ``ValueError`` for a chi whose chow does not contain the claimed tile.
    """
    base = _TILE_BASE.get(action.kind)
    if base is not None:
        return base + action.tile
    if action.kind == "chi":
        claimed = _claimed_tile(view_or_claimed_tile)
        if claimed is None:
            raise ValueError(f"cannot encode {action}: chi ids are relative to the claimed "
                             f"tile, pass the view or the claimed tile")
        offset = claimed - action.tile
        if offset not in (0, 1, 2):
            raise ValueError(f"cannot encode {action}: the chow does not contain the claimed "
                             f"tile {TILE_NAMES[claimed]}")
        return CHI_LOW + offset
    return _PLAIN_ID[action.kind]


def decode_action(aid: int, view: PlayerView | int | None = None) -> Action:
    """Id → engine action. Chi ids need the claimed tile (``view.target_tile`` or an int).

    Raises ``ValueError`` for an id outside 0–109 or a chi id with no valid chow (no claimed
    tile, an honor, or a position that leaves the suit). It does not check legality: that is
    :func:`legal_mask`'s job.
    """
    if not isinstance(aid, (int, np.integer)) or isinstance(aid, bool):
        raise ValueError(f"{aid!r} is not an action id (an int 0–{NUM_ACTIONS - 1})")
    action = _FIXED.get(aid)
    if action is not None:
        return action
    if CHI_LOW <= aid <= CHI_HIGH:
        claimed = _claimed_tile(view)
        if claimed is None:
            raise ValueError(f"action {aid} (chi) needs a claimed tile; the view has none")
        low = claimed - (aid - CHI_LOW)
        if claimed >= 27 or low < 0 or low // 9 != claimed // 9 or low % 9 > 6:
            raise ValueError(f"action {aid} ({action_name(aid)}) makes no chow with the "
                             f"claimed tile {TILE_NAMES[claimed]}")
        return Action("chi", low)
    raise ValueError(f"{aid!r} is not an action id (0–{NUM_ACTIONS - 1})")


def action_name(aid: int) -> str:
    """Short readable name of an id without context: ``"discard 5m"``, ``"chi-mid"``, ``"pass"``."""
    if not isinstance(aid, (int, np.integer)) or isinstance(aid, bool) \
            or not 0 <= aid < NUM_ACTIONS:
        raise ValueError(f"{aid!r} is not an action id (0–{NUM_ACTIONS - 1})")
    if aid in _FIXED:
        return str(_FIXED[aid])
    return ("chi-low", "chi-mid", "chi-high")[aid - CHI_LOW]


def legal_ids(view: PlayerView) -> list[int]:
    """The ids of ``view.legal``, in the view's (sorted) order."""
    ids = []
    for a in view.legal:               # encode_action inlined: this runs on every step
        kind, tile = a.kind, a.tile
        if tile is None:
            ids.append(_PLAIN_ID[kind])
        elif kind == "chi":
            ids.append(encode_action(a, view.target_tile))
        else:
            ids.append(_TILE_BASE[kind] + tile)
    return ids


def legal_mask(view: PlayerView) -> np.ndarray:
    """int8[110] with 1 exactly at the ids of ``view.legal`` (all zero when not to act)."""
    return mask_of(legal_ids(view))


def mask_of(ids: list[int]) -> np.ndarray:
    """int8[110] with 1 exactly at ``ids`` (``legal_mask`` of the view they are the ids of)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    if ids:
        mask.put(ids, 1)
    return mask


def describe(aid: int, view: PlayerView | None = None) -> str:
    """An id for messages: the engine's text form (``"chi 345m"``) when ``view`` decodes it,
    else the context-free :func:`action_name` (``"chi-mid"``)."""
    try:
        return str(decode_action(aid, view))
    except ValueError:
        return action_name(aid)


def markdown() -> str:
    """The text of ``docs/actions.md``, generated from this module's tables."""
    lines = [
        "# Action ids",
        "",
        "<!-- Generated by mjenv.env.actions.markdown(); tests/env/test_docs.py fails when this "
        "file drifts. -->",
        "",
        f"Every decision is one id of `Discrete({NUM_ACTIONS})`, the same space on the own turn, "
        "in a claim window and when an added kan may be robbed. `observation[\"action_mask\"]` "
        "(int8) has 1 exactly at the ids `step` accepts now; `mjenv.env.actions` converts both "
        "ways: `encode_action(action, view)` and `decode_action(id, view)`. Chi ids are "
        "relative to the claimed tile `c` (`view.target_tile`), so each id means the same "
        "shape for every discard.",
        "",
        "| ids | name | engine action |",
        "|---|---|---|",
    ]
    for name, ids in ACTION_RANGES.items():
        span = f"{ids.start}–{ids.stop - 1}" if len(ids) > 1 else f"{ids.start}"
        lines.append(f"| {span} | `{name}` | {_RANGE_TEXT[name]} |")
    lines += ["", "## Every id", "", id_table(), ""]
    return "\n".join(lines)


_RANGE_TEXT = {
    "discard": "`discard t`, t = id (own turn)",
    "ankan": "`ankan t`, t = id − 34 (own turn, four of t in hand)",
    "kakan": "`kakan t`, t = id − 68 (own turn, onto own pon of t; may be robbed)",
    "tsumo": "`tsumo` (own turn)",
    "ron": "`ron` (claim window, or robbing an added kan)",
    "chi": "`chi` with the claimed tile c lowest (104), middle (105), highest (106)",
    "pon": "`pon`",
    "minkan": "`minkan` (open kan)",
    "pass": "`pass` (claim window or robbing window)",
}


def id_table() -> str:
    """Markdown table of every id."""
    rows = ["| id | action | meaning |", "|---|---|---|"]
    meaning = {
        "discard": "discard one tile of this kind (own turn)",
        "ankan": "concealed kan of this kind (own turn; four in hand)",
        "kakan": "add this kind to own exposed pung (own turn; may be robbed)",
    }
    for kind, base in _TILE_BASE.items():
        for t in range(NUM_KINDS):
            rows.append(f"| {base + t} | `{kind} {TILE_NAMES[t]}` | {meaning[kind]} |")
    plain = {
        TSUMO: ("`tsumo`", "declare a self-drawn win (own turn)"),
        RON: ("`ron`", "win on the discard, or rob the kan being added"),
        CHI_LOW: ("`chi` (low)", "chow with the claimed tile lowest: c, c+1, c+2"),
        CHI_MID: ("`chi` (mid)", "chow with the claimed tile in the middle: c−1, c, c+1"),
        CHI_HIGH: ("`chi` (high)", "chow with the claimed tile highest: c−2, c−1, c"),
        PON: ("`pon`", "pung with two of the claimed tile from hand"),
        MINKAN: ("`minkan`", "open kan with three of the claimed tile from hand"),
        PASS: ("`pass`", "decline every claim (claim window or robbing window)"),
    }
    for aid, (name, text) in plain.items():
        rows.append(f"| {aid} | {name} | {text} |")
    return "\n".join(rows)
