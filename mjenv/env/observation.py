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

:func:`encode` writes a view's planes from scratch; an :class:`Encoder` keeps one seat's planes
and rewrites only what changed since the last view it encoded, which is what the environments
do (a seat's consecutive views differ by a few discards, a draw and the wall count). Both give
the planes of the encoder before issue 37 bit for bit (``tests/env/test_encoder_reference.py``).
"""

from __future__ import annotations

from array import array
from itertools import compress
from operator import ne
from typing import NamedTuple

import numpy as np

from mjenv.game.view import PlayerView, PondTile
from mjenv.tiles import NUM_KINDS, Meld


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

assert ROUND_WIND == SEAT_WIND + 1
# The constant planes are the last rows, from PHASE on: one column of values spans them.
CONSTANT = PHASE
assert FURITEN == NUM_PLANES - 1 and [p.name for p in PLANES[CONSTANT:]] == [
    "phase_turn", "phase_claim", "phase_rob", "target_from_right", "target_from_across",
    "target_from_left", "dealer_self", "dealer_right", "dealer_across", "dealer_left", "repeat",
    "live_wall", "score_self", "score_right", "score_across", "score_left", "furiten"]
_PHASE_ROW = {"turn": 0, "claim": 1, "rob": 2}
_AT_LEAST = np.arange(1, 5, dtype=np.uint8)[:, None]    # the rows "at least 1 … 4" of a count


def _discard_cells(base: int, j: int, p: PondTile, ones: list[int], added: list[int]) -> None:
    """The flat cells of a pond's discard number j + 1, the pond's block at flat offset
    ``base``: those set to 1 (``ones``) and the one counted (``added``: the overflow plane)."""
    if j < POND_ORDER - 1:
        ones.append(base + j * NUM_KINDS + p.tile)
    else:
        added.append(base + (POND_ORDER - 1) * NUM_KINDS + p.tile)
    ones.append(base + _DISCARDED * NUM_KINDS + p.tile)
    if j < NUM_KINDS:
        if p.tsumogiri:
            ones.append(base + _TSUMOGIRI_SEQ * NUM_KINDS + j)
        if p.called:
            ones.append(base + _CALLED_SEQ * NUM_KINDS + j)


# Cells are written through a flat float32 memoryview of the planes: a write costs a C store,
# where a numpy call costs microseconds whatever it writes.
def _cells(planes: np.ndarray) -> memoryview:
    """The cells of C-contiguous float32 ``planes`` as one flat, writable memoryview."""
    return memoryview(planes).cast("B").cast("f")


_ZERO_ROWS = memoryview(array("f", [0.0]) * (MELD_PLANES * NUM_KINDS))


def _zero_rows(cells: memoryview, row: int, n: int) -> None:
    cells[row * NUM_KINDS:(row + n) * NUM_KINDS] = _ZERO_ROWS[:n * NUM_KINDS]


def _write(cells: memoryview, ones: list[int], added: list[int], counted: dict[int, float]
           ) -> None:
    """Cells set to 1, cells incremented (the pond overflow), cells given a count."""
    for i in ones:
        cells[i] = 1.0
    for i in added:
        cells[i] += 1.0
    for i, v in counted.items():
        cells[i] = v


# Pond blocks (the POND_PLANES rows of one seat) cached by pond, for encoders that see ponds
# they have not followed discard by discard (a fresh encoder; another table's views). A pond
# only grows, and only its last tile's ``called`` flag ever changes, so a new pond is almost
# always a cached one plus one discard: the block is then copied and one discard added.
# Entries are keyed by (length, id of the last PondTile) and keep a reference to their pond,
# which is compared (identity first, so cheaply) before any use.
_POND_CACHE_MAX = 4096
_pond_cache: dict[tuple[int, int], tuple[tuple[PondTile, ...], np.ndarray]] = {}
_EMPTY_POND = np.zeros((POND_PLANES, NUM_KINDS), dtype=np.float32)


def _pond_block(pond: tuple[PondTile, ...]) -> np.ndarray:
    if not pond:
        return _EMPTY_POND
    n = len(pond)
    key = (n, id(pond[-1]))
    hit = _pond_cache.get(key)
    if hit is not None and hit[0] == pond:
        return hit[1]
    prev = _pond_cache.get((n - 1, id(pond[-2]))) if n > 1 else None
    if prev is not None and prev[0] == pond[:-1]:
        block, start = prev[1].copy(), n - 1
    else:
        block, start = np.zeros((POND_PLANES, NUM_KINDS), dtype=np.float32), 0
    ones: list[int] = []
    added: list[int] = []
    for j in range(start, n):
        _discard_cells(0, j, pond[j], ones, added)
    _write(_cells(block), ones, added, {})
    if len(_pond_cache) >= _POND_CACHE_MAX:
        _pond_cache.clear()
    _pond_cache[key] = (pond, block)
    return block


def _live_wall(left: int) -> float:
    return left / LIVE_WALL_FULL


# The live_wall plane for each count of tiles left, ready to copy into the planes' cells.
_LIVE_ROWS = [memoryview(array("f", [_live_wall(n)]) * NUM_KINDS)
              for n in range(LIVE_WALL_FULL + 1)]


def _constants(view: PlayerView) -> list[float]:
    """The values of the constant planes (rows CONSTANT …), in row order."""
    seat = view.seat
    values = [0.0] * (NUM_PLANES - CONSTANT)
    phase_row = _PHASE_ROW.get(view.phase)
    if phase_row is not None:
        values[phase_row] = 1.0
    if view.target_from is not None and view.target_from != seat:
        values[TARGET_FROM - CONSTANT + (view.target_from - seat) % 4 - 1] = 1.0
    values[DEALER - CONSTANT + (view.dealer - seat) % 4] = 1.0
    if view.repeat:
        values[REPEAT - CONSTANT] = min(view.repeat, REPEAT_CAP) / REPEAT_CAP
    values[LIVE_WALL - CONSTANT] = _live_wall(view.live_wall_left)
    scores = view.scores
    for r in range(4):
        score = scores[(seat + r) % 4]
        if score:
            values[SCORE - CONSTANT + r] = min(max(score / SCORE_SCALE, -SCORE_CLIP), SCORE_CLIP)
    if view.furiten:
        values[FURITEN - CONSTANT] = 1.0
    return values


def _meld_cells(r: int, owner: int, melds: tuple[Meld, ...], ones: list[int],
                counted: dict[int, float]) -> None:
    """The flat cells of the meld block of relative seat ``r`` (absolute ``owner``)."""
    base = MELD_BLOCK[r] * NUM_KINDS
    for meld in melds:
        if meld.kind == "chi":
            for t in meld.tiles:
                i = base + _CHI * NUM_KINDS + t
                counted[i] = counted.get(i, 0.0) + 1.0
        else:
            ones.append(base + _MELD_ROW[meld.kind] * NUM_KINDS + meld.tiles[0])
        if meld.from_seat is not None and meld.called is not None:
            src = (meld.from_seat - owner) % 4
            i = base + (_CALLED_FROM + src - 1) * NUM_KINDS + meld.called
            counted[i] = counted.get(i, 0.0) + 1.0


def _grown(r: int, old: tuple[PondTile, ...], pond: tuple[PondTile, ...], ones: list[int],
           added: list[int]) -> bool:
    """The cells of relative seat ``r``'s pond that changed, when it grew from ``old`` by a
    few discards (a claim may have flagged its last old one); False when it did not."""
    n = len(old)
    if not (0 < n <= len(pond) <= n + 4 and pond[:n - 1] == old[:-1]):
        return False
    was, now = old[-1], pond[n - 1]
    base = POND_BLOCK[r] * NUM_KINDS
    if was != now:
        if was.tile != now.tile or was.tsumogiri != now.tsumogiri or was.called \
                or not now.called:
            return False
        if n - 1 < NUM_KINDS:
            ones.append(base + _CALLED_SEQ * NUM_KINDS + n - 1)
    for j in range(n, len(pond)):
        _discard_cells(base, j, pond[j], ones, added)
    return True


# Flat cells of the "at least k" planes: _HAND_AT[k][t] and _UNSEEN_COLUMN[t][k] (k = 0: ≥ 1).
_HAND_AT = [[(HAND + k) * NUM_KINDS + t for t in range(NUM_KINDS)] for k in range(4)]
_UNSEEN_COLUMN = [[(UNSEEN + k) * NUM_KINDS + t for k in range(4)] for t in range(NUM_KINDS)]
_TILE_RANGE = range(NUM_KINDS)
_PONDS = slice(POND_BLOCK[0], POND_BLOCK[0] + 4 * POND_PLANES)


def _hand_cells(hand: tuple[int, ...], ones: list[int]) -> None:
    """The cells of the "own hand holds at least k" planes (``hand`` sorted, as in a view)."""
    prev = k = -1
    for t in hand:                       # the k-th copy of t is at row k
        k = k + 1 if t == prev else 0
        prev = t
        ones.append(_HAND_AT[k][t])


def _target_cell(view: PlayerView) -> int | None:
    return None if view.target_tile is None else TARGET * NUM_KINDS + view.target_tile


def _wind_cells(view: PlayerView) -> tuple[int, int]:
    return (SEAT_WIND * NUM_KINDS + 27 + view.seat_wind,
            ROUND_WIND * NUM_KINDS + 27 + view.round_wind)


def _encode_all(obs: np.ndarray, cells: memoryview, view: PlayerView) -> None:
    """Write every plane of ``view`` into ``obs`` (``cells``: its memoryview), all zero."""
    # The four pond blocks come from the shared cache in one copy, "at least k unseen" and the
    # constant planes in one numpy call each; the other cells one by one.
    seat = view.seat
    ones: list[int] = []
    counted: dict[int, float] = {}
    _hand_cells(view.hand, ones)
    target = _target_cell(view)
    if target is not None:
        ones.append(target)
    ones += _wind_cells(view)
    for r in range(4):
        _meld_cells(r, (seat + r) % 4, view.melds[(seat + r) % 4], ones, counted)
    np.concatenate([_pond_block(view.ponds[(seat + r) % 4]) for r in range(4)],
                   out=obs[_PONDS])
    np.greater_equal(np.frombuffer(bytes(view.unseen), dtype=np.uint8), _AT_LEAST,
                     out=obs[UNSEEN:UNSEEN + 4])
    obs[CONSTANT:] = np.array(_constants(view), dtype=np.float32)[:, None]
    _write(cells, ones, [], counted)


class Encoder:
    """The planes of one seat's views, kept between calls: after the first, a call rewrites
    only what differs from the last view encoded (the hand, the target, melds and ponds that
    changed, unseen counts that changed, the constant planes), so following one seat through
    a hand costs a few writes per decision instead of the whole tensor. Any view may follow
    any other (a new hand; another seat starts again); the planes are those of
    :func:`encode` (``tests/env/test_encoder_reference.py``).

    ``planes`` is the encoder's own array, overwritten by the next call: copy what you keep.
    """

    __slots__ = ("planes", "_cells", "_last")

    def __init__(self) -> None:
        self.planes = np.zeros((NUM_PLANES, NUM_KINDS), dtype=np.float32)
        self._cells = _cells(self.planes)
        self._last: PlayerView | None = None

    def encode(self, view: PlayerView) -> np.ndarray:
        """Bring ``planes`` to the planes of ``view`` and return them (the array itself)."""
        last = self._last
        self._last = view
        cells = self._cells
        if last is None or last.seat != view.seat:
            self.planes.fill(0.0)
            _encode_all(self.planes, cells, view)
            return self.planes
        seat = view.seat
        ones: list[int] = []
        zeros: list[int] = []
        added: list[int] = []
        counted: dict[int, float] = {}
        if view.hand != last.hand:
            _zero_rows(cells, HAND, 4)
            _hand_cells(view.hand, ones)
        if view.target_tile != last.target_tile:
            old, new = _target_cell(last), _target_cell(view)
            if old is not None:
                zeros.append(old)
            if new is not None:
                ones.append(new)
        if view.seat_wind != last.seat_wind or view.round_wind != last.round_wind:
            _zero_rows(cells, SEAT_WIND, 2)
            ones += _wind_cells(view)
        rewrite: list[int] = []                  # relative seats whose pond block is copied
        for r in range(4):
            owner = (seat + r) % 4
            melds = view.melds[owner]
            if melds != last.melds[owner]:
                _zero_rows(cells, MELD_BLOCK[r], MELD_PLANES)
                _meld_cells(r, owner, melds, ones, counted)
            pond, old_pond = view.ponds[owner], last.ponds[owner]
            if pond != old_pond:
                n = len(old_pond)
                if len(pond) == n + 1 and pond[:n] == old_pond:      # one discard more
                    _discard_cells(POND_BLOCK[r] * NUM_KINDS, n, pond[n], ones, added)
                elif not _grown(r, old_pond, pond, ones, added):
                    rewrite.append(r)
        for r in rewrite:
            self.planes[POND_BLOCK[r]:POND_BLOCK[r] + POND_PLANES] = _pond_block(
                view.ponds[(seat + r) % 4])
        if view.unseen != last.unseen:
            self._unseen(view.unseen, last.unseen, ones, zeros)
        if (view.phase, view.target_from, view.dealer, view.repeat, view.scores,
                view.furiten) != (last.phase, last.target_from, last.dealer, last.repeat,
                                  last.scores, last.furiten):
            self.planes[CONSTANT:] = np.array(_constants(view), dtype=np.float32)[:, None]
        elif view.live_wall_left != last.live_wall_left:      # at every draw
            cells[LIVE_WALL * NUM_KINDS:(LIVE_WALL + 1) * NUM_KINDS] = \
                _LIVE_ROWS[view.live_wall_left]
        for i in zeros:
            cells[i] = 0.0
        _write(cells, ones, added, counted)
        return self.planes

    def _unseen(self, unseen: tuple[int, ...], old: tuple[int, ...], ones: list[int],
                zeros: list[int]) -> None:
        """The "at least k unseen" cells of the kinds whose count changed (all four rows in
        one numpy call when many did: another hand's view)."""
        changed = list(compress(_TILE_RANGE, map(ne, unseen, old)))   # found in C
        if len(changed) > 8:
            np.greater_equal(np.frombuffer(bytes(unseen), dtype=np.uint8), _AT_LEAST,
                             out=self.planes[UNSEEN:UNSEEN + 4])
            return
        for t in changed:
            u, was = unseen[t], old[t]
            if u > was:
                ones += _UNSEEN_COLUMN[t][was:u]
            else:
                zeros += _UNSEEN_COLUMN[t][u:was]


def encode(view: PlayerView, out: np.ndarray | None = None) -> np.ndarray:
    """The planes of ``view`` as float32 (NUM_PLANES, 34); writes into ``out`` if given (a
    C-contiguous float32 array of that shape). An environment following a seat keeps an
    :class:`Encoder` for it instead."""
    if out is None:
        out = np.zeros((NUM_PLANES, NUM_KINDS), dtype=np.float32)
    elif out.shape != (NUM_PLANES, NUM_KINDS) or out.dtype != np.float32 \
            or not out.flags.c_contiguous:
        raise ValueError(f"out must be a C-contiguous float32 array of shape "
                         f"({NUM_PLANES}, {NUM_KINDS})")
    else:
        out.fill(0.0)
    _encode_all(out, _cells(out), view)
    return out


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
