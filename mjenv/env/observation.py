"""Observation encoder: one seat's ``PlayerView`` → float32 planes of shape (NUM_PLANES, 34).

Each plane is a row of 34 values, one per tile kind (1m…9m, 1p…9p, 1s…9s, 1z…7z), so
convolutions along the tile axis see suits and ranks; a scalar (a score, the wall count) is a
*constant plane* holding the same value in all 34 columns. A few *sequence planes* use the
column as a position in time instead (column j = the seat's j-th discard).

Seats are relative to the observer: ``self``, ``right`` (next in turn order, 下家),
``across`` (对家), ``left`` (previous, 上家: the only seat whose discards ``self`` may chi).

The encoder reads only the ``PlayerView``, which holds only what the seat may see, so nothing
hidden can reach the planes; in a claim window the view does not say which other seats are
being asked, so neither do the planes. :data:`PLANES` lists every plane with its meaning and
value range; ``docs/observation.md`` is generated from it (:func:`markdown`) and a test keeps
the two identical.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mjenv.game.view import PlayerView, PondTile
from mjenv.tiles import NUM_KINDS


class Plane(NamedTuple):
    name: str
    description: str
    low: float
    high: float


RELATIVE = ("self", "right", "across", "left")
POND_ORDER = 24          # ordered discard planes per seat; the last one also takes the overflow
LIVE_WALL_FULL = 70      # live draws in a fresh hand (RULES.md §2)
REPEAT_CAP = 8           # the repeat plane saturates here
SCORE_SCALE = 100.0      # score planes are score / SCORE_SCALE …
SCORE_CLIP = 10.0        # … clipped to ±SCORE_CLIP (±1000 points: beyond any usual match)

_planes: list[Plane] = []
_WHERE = {"right": "to the right of", "across": "across from", "left": "to the left of"}


def _add(name: str, description: str, low: float = 0.0, high: float = 1.0) -> int:
    _planes.append(Plane(name, description, low, high))
    return len(_planes) - 1


# --- the acting seat -------------------------------------------------------------------------
HAND = _add("hand_ge1", "own concealed hand holds at least 1 of the kind")
for _k in (2, 3, 4):
    _add(f"hand_ge{_k}", f"own concealed hand holds at least {_k} of the kind")
TARGET = _add("target", "the tile being decided on: on own turn the tile just drawn (all zero "
              "after chi/pon), in a claim window the discard, when robbing the tile being added")

# --- melds of every seat, relative order self, right, across, left ---------------------------
MELD_BLOCK: list[int] = []
for _who in RELATIVE:
    MELD_BLOCK.append(_add(f"{_who}_chi", f"{_who}: number of its chows (chi melds) holding "
                           f"the kind", 0.0, 4.0))
    _add(f"{_who}_pon", f"{_who}: 1 at the kind of each of its pungs (pon)")
    _add(f"{_who}_minkan", f"{_who}: 1 at the kind of each of its open kans")
    _add(f"{_who}_kakan", f"{_who}: 1 at the kind of each of its added kans")
    _add(f"{_who}_ankan", f"{_who}: 1 at the kind of each of its concealed kans (public)")
    for _src in RELATIVE[1:]:
        _add(f"{_who}_called_from_{_src}",
             f"{_who}: count of its chi/pon/open-kan melds that claimed this kind from the seat "
             f"{_WHERE[_src]} {_who}", 0.0, 4.0)
MELD_PLANES = MELD_BLOCK[1] - MELD_BLOCK[0]

# --- ponds of every seat, same order ----------------------------------------------------------
POND_BLOCK: list[int] = []
for _who in RELATIVE:
    POND_BLOCK.append(_add(f"{_who}_discard_1", f"{_who}: 1 at the kind of its discard number 1"))
    for _j in range(1, POND_ORDER - 1):
        _add(f"{_who}_discard_{_j + 1}", f"{_who}: 1 at the kind of its discard number {_j + 1}")
    _add(f"{_who}_discard_{POND_ORDER}+", f"{_who}: count of its discards number "
         f"{POND_ORDER} and later, per kind", 0.0, 4.0)
    _add(f"{_who}_discarded", f"{_who}: 1 at every kind it has discarded (claimed ones included)")
    _add(f"{_who}_tsumogiri_seq", f"{_who}: sequence plane, column j = 1 when its discard "
         f"number j+1 was the kind it had just drawn (tsumogiri)")
    _add(f"{_who}_called_seq", f"{_who}: sequence plane, column j = 1 when its discard number "
         f"j+1 was claimed by another seat")
POND_PLANES = POND_BLOCK[1] - POND_BLOCK[0]

# --- table state ------------------------------------------------------------------------------
UNSEEN = _add("unseen_ge1", "at least 1 copy of the kind is unseen by this seat (4 minus own "
              "hand, all melds, all ponds)")
for _k in (2, 3, 4):
    _add(f"unseen_ge{_k}", f"at least {_k} copies of the kind are unseen by this seat")
SEAT_WIND = _add("seat_wind", "1 at the seat's own wind tile (1z East … 4z North)")
ROUND_WIND = _add("round_wind", "1 at the round wind tile (1z East … 4z North)")

# --- constant planes --------------------------------------------------------------------------
PHASE = _add("phase_turn", "constant 1 on a turn: the seat to act discards, kans or tsumos "
             "(its own turn when it is to act)")
_add("phase_claim", "constant 1 when deciding on another seat's discard")
_add("phase_rob", "constant 1 when deciding whether to rob another seat's added kan")
TARGET_FROM = _add("target_from_right", "constant 1 when the target was offered by right "
                   "(claim/rob), or it is right's turn")
_add("target_from_across", "constant 1 when the target was offered by across, or it is "
     "across's turn")
_add("target_from_left", "constant 1 when the target was offered by left, or it is left's turn")
DEALER = _add("dealer_self", "constant 1 when this seat is the dealer")
for _who in RELATIVE[1:]:
    _add(f"dealer_{_who}", f"constant 1 when {_who} is the dealer")
REPEAT = _add("repeat", f"constant min(repeat counter n, {REPEAT_CAP}) / {REPEAT_CAP}; the "
              f"dealer bonus is D = 1 + n")
LIVE_WALL = _add("live_wall", f"constant live-wall tiles left / {LIVE_WALL_FULL}")
SCORE = _add("score_self", f"constant own game score / {SCORE_SCALE:g}, clipped to "
             f"±{SCORE_CLIP:g}", -SCORE_CLIP, SCORE_CLIP)
for _who in RELATIVE[1:]:
    _add(f"score_{_who}", f"constant {_who}'s game score / {SCORE_SCALE:g}, clipped to "
         f"±{SCORE_CLIP:g}", -SCORE_CLIP, SCORE_CLIP)
FURITEN = _add("furiten", "constant 1 when this seat may not ron now (same-turn furiten, "
               "RULES.md §4)")

PLANES: tuple[Plane, ...] = tuple(_planes)
NUM_PLANES = len(PLANES)
PLANE_INDEX: dict[str, int] = {p.name: i for i, p in enumerate(PLANES)}
LOW = np.repeat(np.array([p.low for p in PLANES], dtype=np.float32)[:, None], NUM_KINDS, axis=1)
HIGH = np.repeat(np.array([p.high for p in PLANES], dtype=np.float32)[:, None], NUM_KINDS, axis=1)
del _k, _who, _src, _j

# Offsets inside one meld block (relative to MELD_BLOCK[r]) and one pond block (POND_BLOCK[r]).
_CHI, _PON, _MINKAN, _KAKAN, _ANKAN = range(5)
_MELD_ROW = {"pon": _PON, "minkan": _MINKAN, "kakan": _KAKAN, "ankan": _ANKAN}
_CALLED_FROM = 5                     # + (source relative to the owner) − 1
_DISCARDED = POND_ORDER
_TSUMOGIRI_SEQ = POND_ORDER + 1
_CALLED_SEQ = POND_ORDER + 2

_PHASE_ROW = {"turn": PHASE, "claim": PHASE + 1, "rob": PHASE + 2}
_SIZE = NUM_PLANES * NUM_KINDS
_PONDS = slice(POND_BLOCK[0], POND_BLOCK[0] + 4 * POND_PLANES)
# _GE[:, u] = the column of the planes "at least 1 … 4" for a count u (0–4).
_GE = (np.arange(5)[None, :] >= np.arange(1, 5)[:, None]).astype(np.float32)

# Flat-index tables, built once, so that the encoder collects the positions of its ones in
# plain Python lists and writes them with a single numpy call (numpy calls, not arithmetic,
# are what costs in a per-step encoder).
_HAND_AT = [[(HAND + k) * NUM_KINDS + t for t in range(NUM_KINDS)] for k in range(4)]
_MELD_AT = [{kind: (MELD_BLOCK[r] + row) * NUM_KINDS for kind, row in _MELD_ROW.items()}
            for r in range(4)]
_CHI_AT = [(MELD_BLOCK[r] + _CHI) * NUM_KINDS for r in range(4)]
_CALLED_AT = [(MELD_BLOCK[r] + _CALLED_FROM - 1) * NUM_KINDS for r in range(4)]

# Pond blocks (the POND_PLANES rows of one seat) cached by pond. A pond only grows, and only its
# last tile's ``called`` flag ever changes, so a new pond is almost always a cached one plus one
# discard: the encoder then copies that block and adds one tile instead of re-encoding 20+
# discards per seat per step. Entries are keyed by (length, id of the last PondTile) and keep a
# reference to their pond, which is compared (identity first, so cheaply) before any use.
_POND_CACHE_MAX = 2048
_pond_cache: dict[tuple[int, int], tuple[tuple[PondTile, ...], np.ndarray]] = {}
_EMPTY_POND = np.zeros((POND_PLANES, NUM_KINDS), dtype=np.float32)


def _add_discard(block: np.ndarray, j: int, p: PondTile) -> None:
    block[min(j, POND_ORDER - 1), p.tile] += 1.0
    block[_DISCARDED, p.tile] = 1.0
    if j < NUM_KINDS:
        if p.tsumogiri:
            block[_TSUMOGIRI_SEQ, j] = 1.0
        if p.called:
            block[_CALLED_SEQ, j] = 1.0


def _pond_block(pond: tuple[PondTile, ...]) -> np.ndarray:
    n = len(pond)
    if not n:
        return _EMPTY_POND
    hit = _pond_cache.get((n, id(pond[-1])))
    if hit is not None and hit[0] == pond:
        return hit[1]
    prev = _pond_cache.get((n - 1, id(pond[-2]))) if n > 1 else None
    if prev is not None and prev[0] == pond[:-1]:
        block = prev[1].copy()
        _add_discard(block, n - 1, pond[-1])
    else:
        block = np.zeros((POND_PLANES, NUM_KINDS), dtype=np.float32)
        for j, p in enumerate(pond):
            _add_discard(block, j, p)
    if len(_pond_cache) >= _POND_CACHE_MAX:
        _pond_cache.clear()
    _pond_cache[(n, id(pond[-1]))] = (pond, block)
    return block


def encode(view: PlayerView, out: np.ndarray | None = None) -> np.ndarray:
    """The planes of ``view`` as float32 (NUM_PLANES, 34); writes into ``out`` if given."""
    # A numpy call costs far more than a Python list operation at this size, so the encoder
    # gathers positions in lists and writes them with few calls: one for all ponds, one for the
    # ones, one for counts, one for unseen, and a row write per non-zero constant plane.
    obs = np.zeros((NUM_PLANES, NUM_KINDS), dtype=np.float32) if out is None else out
    if out is not None:
        obs.fill(0.0)
    seat = view.seat
    ponds = view.ponds
    np.concatenate([_pond_block(ponds[(seat + r) % 4]) for r in range(4)], out=obs[_PONDS])

    ones: list[int] = []                 # flat positions set to 1
    counted: dict[int, float] = {}       # flat positions holding a count
    held = [0] * NUM_KINDS
    for t in view.hand:
        ones.append(_HAND_AT[held[t]][t])
        held[t] += 1
    if view.target_tile is not None:
        ones.append(TARGET * NUM_KINDS + view.target_tile)
    ones.append(SEAT_WIND * NUM_KINDS + 27 + view.seat_wind)
    ones.append(ROUND_WIND * NUM_KINDS + 27 + view.round_wind)
    for r in range(4):
        owner = (seat + r) % 4
        for meld in view.melds[owner]:
            if meld.kind == "chi":
                for t in meld.tiles:
                    i = _CHI_AT[r] + t
                    counted[i] = counted.get(i, 0.0) + 1.0
            else:
                ones.append(_MELD_AT[r][meld.kind] + meld.tiles[0])
            if meld.from_seat is not None and meld.called is not None:
                i = _CALLED_AT[r] + ((meld.from_seat - owner) % 4) * NUM_KINDS + meld.called
                counted[i] = counted.get(i, 0.0) + 1.0
    flat = obs.reshape(_SIZE)
    flat[ones] = 1.0
    if counted:
        flat[list(counted)] = list(counted.values())
    # bytes() turns the 34 small ints into a buffer in C: no per-int Python conversion
    _GE.take(np.frombuffer(bytes(view.unseen), dtype=np.uint8), axis=1,
             out=obs[UNSEEN:UNSEEN + 4])

    # Constant planes: one row write per non-zero value (most are zero).
    phase_row = _PHASE_ROW.get(view.phase)
    if phase_row is not None:
        obs[phase_row] = 1.0
    if view.target_from is not None and view.target_from != seat:
        obs[TARGET_FROM + (view.target_from - seat) % 4 - 1] = 1.0
    obs[DEALER + (view.dealer - seat) % 4] = 1.0
    if view.repeat:
        obs[REPEAT] = min(view.repeat, REPEAT_CAP) / REPEAT_CAP
    obs[LIVE_WALL] = view.live_wall_left / LIVE_WALL_FULL
    scores = view.scores
    for r in range(4):
        score = scores[(seat + r) % 4]
        if score:
            obs[SCORE + r] = min(max(score / SCORE_SCALE, -SCORE_CLIP), SCORE_CLIP)
    if view.furiten:
        obs[FURITEN] = 1.0
    return obs


def _range_text(p: Plane) -> str:
    if (p.low, p.high) == (0.0, 1.0):
        return "0–1"
    return f"{p.low:g}–{p.high:g}"


def markdown() -> str:
    """The text of ``docs/observation.md``, generated from :data:`PLANES`."""
    lines = [
        "# Observation planes",
        "",
        "<!-- Generated by mjenv.env.observation.markdown(); tests/env/test_docs.py fails when "
        "this file drifts. -->",
        "",
        f"`observation` is float32 of shape ({NUM_PLANES}, 34): {NUM_PLANES} planes, each a row "
        "of 34 values, one per tile kind in index order 1m…9m, 1p…9p, 1s…9s, 1z…7z "
        "(1z–4z East, South, West, North; 5z–7z White, Green, Red).",
        "",
        "- A *constant plane* holds the same value in all 34 columns (scalars).",
        "- A *sequence plane* uses column j for the seat's discard number j+1 instead of a tile "
        "kind (discards after the 34th are not in sequence planes).",
        "- Seats are relative to the observer: `self`; `right` = the next seat in turn order "
        "(下家); `across` (对家); `left` = the previous seat (上家), whose discards `self` may "
        "chi. In `*_called_from_*` the source is relative to the meld's owner.",
        f"- Discards are in order: plane `<seat>_discard_j` is the seat's j-th discard "
        f"(claimed ones included, flagged in `<seat>_called_seq`); "
        f"`<seat>_discard_{POND_ORDER}+` counts the {POND_ORDER}th and later.",
        "- Only what the acting seat may see is encoded: other seats' concealed tiles, the wall "
        "order and which other seats are being asked in a claim window are not.",
        "",
        "| index | name | range | meaning |",
        "|---|---|---|---|",
    ]
    i = 0
    while i < NUM_PLANES:
        p = PLANES[i]
        # Collapse the runs of ordered discard planes into one row per seat.
        if p.name.endswith("_discard_1"):
            who = p.name[: -len("_discard_1")]
            last = i + POND_ORDER - 2
            lines.append(f"| {i}–{last} | `{who}_discard_1` … `{who}_discard_{POND_ORDER - 1}` "
                         f"| 0–1 | {who}: 1 at the kind of its j-th discard (one plane per j) |")
            i = last + 1
            continue
        lines.append(f"| {i} | `{p.name}` | {_range_text(p)} | {p.description} |")
        i += 1
    return "\n".join(lines) + "\n"
