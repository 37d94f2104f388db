"""Scoring a winning hand: every reading × every yaku → exclusions → the best total.

RULES.md §6: when the tiles can be read several ways (shapes, decompositions, which group the
winning tile completes), the reading with the highest P counts. §9: for one reading, collect
every yaku that holds, then drop each yaku that another holding yaku excludes.

Speed (the engine scores on every ron check; the benchmark scores every hand cold): the
decompositions come from the import-time per-suit tables (``mjenv.analysis.tables``, and the
per-suit readings with their groups and chow/pung bits of ``mjenv.scoring.reading``), one
look-up per suit. Each predicate runs at its declared scope (``Yaku.scope``) — suit-content
yaku once per (shape, suits) at import, into a table; tile-content yaku once per (shape, suits,
ranks) and situation yaku once per (shape, flags, single wait, open melds), both memoised since
those keys recur across hands; other hand-wide yaku once per shape; decomposition yaku once per
decomposition; placement yaku once per reading — and is skipped when the reading misses a
minimum it declares (chows, pungs, wind and dragon pungs, kongs, quads, number suits, ranks,
pair kinds, twin chows, adjacent pungs, 暗刻, suits with a chow, chows in one suit), exceeds a
maximum (ranks, rank span, suits, number suits) or is placed where it cannot hold (对碰, 假独, 平胡;
假独 also needs two waits): one AND of per-value bit masks gives the candidates. A yaku whose
declarations are its whole definition (``exact``) is counted from the candidates without
calling its predicate. A reading's holding yaku are one int (bit i: the i-th yaku in rulebook
order), so exclusions are ORs of masks and the counted yaku come out in order. Masks recur
across hands, so the predicates a mask selects and the counted yaku of a holding mask are
memoised per mask (a new holding mask is put together from memoised parts); nothing is memoised
per hand (on distinct hands such memos cost more to keep than they save). An mpsz digit group
is one table look-up per four digits. ``tests/scoring/test_properties.py`` checks all of this
against the plain definition. The single-wait test (for 独听/假独) stops at a placement that proves
a second wait; else, for a hand that reads standard, another wait can only complete the winning
tile's suit or the pair's suit, so it is one look-up per such suit in the import-time wait
tables (``mjenv.analysis.tables.NUMBER_WAITS``; plus the special shapes' waits of a concealed
hand of 7, 12 or 13 kinds); a knitted or thirteen-orphans hand waits on special shapes only,
and only seven-pairs hands run the full wait search. Tile counts travel packed in one int (byte
t: kind t), so adding the winning tile and the melds is a few additions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable, Sequence, TypeVar

from mjenv.analysis import is_knitted, is_seven_pairs, is_thirteen_orphans
from mjenv.analysis.tables import HONOR_TABLE, HONOR_WAITS, NUMBER_TABLE, NUMBER_WAITS
from mjenv.analysis.waits import special_wait_kinds, structural_wait_kinds
from mjenv.scoring.arguments import check_flags, hand_argument, tile_argument
from mjenv.scoring.reading import (KNITTED, LIANGMIAN, NUMBER_SUITS, SEVEN_PAIRS, SHAPES,
                                   SHUANGPENG, STANDARD, THIRTEEN_ORPHANS, Decomposition, Group,
                                   HandFacts, Reading, WinContext, decompositions)
from mjenv.scoring.yaku import GROUPS, HAND, PLACEMENT, SITUATION, SUITS, TILES, YAKU, Yaku
from mjenv.scoring.yaku.base import PLACEMENTS
from mjenv.scoring.yaku.numbers import HONOR_NUMBERS
from mjenv.tiles import (TILE_NAMES, Meld, parse_meld, parse_tile, parse_tiles, parse_wind,
                         tile_name, tiles_to_str)


class NotWinningHand(ValueError):
    """The tiles form no winning shape (RULES.md §7)."""


@dataclass(frozen=True)
class ScoreResult:
    """The best reading's score.

    ``points`` is P (no dealer bonus); ``yaku`` maps each counted yaku id to its points, in
    rulebook order; ``reading`` is the chosen reading. ``groups``, ``pair``, ``placement`` and
    ``win_group`` (index into ``groups``, ``None`` for the pair) describe it for display; they
    are empty / ``None`` outside the standard shape.
    """

    points: int
    yaku: dict[str, int]
    shape: str
    reading: Reading

    @property
    def groups(self) -> tuple[Group, ...]:
        return self.reading.groups

    @property
    def pair(self) -> int | None:
        return self.reading.pair

    @property
    def placement(self) -> str | None:
        return self.reading.placement

    @property
    def win_group(self) -> int | None:
        return self.reading.win_group

    @property
    def win_tile(self) -> int:
        return self.reading.win_tile


# --- the yaku table, split by scope (built once) ------------------------------------------

# A set of holding yaku is an int: bit i is the i-th yaku in rulebook order (``YAKU``), so
# exclusions are ORs of masks and the counted yaku come out in order. Multiplicities above 1
# (三元牌, once per dragon pung) ride alongside as ``(bit, n)`` pairs, usually none.
_IDS = tuple(YAKU)
_BIT = {y: i for i, y in enumerate(_IDS)}
_POINTS_AT = tuple(y.points for y in YAKU.values())
_EXCLUDED_BY = tuple(sum(1 << _BIT[e] for e in y.excludes) for y in YAKU.values())
_POINTS = {y.id: y.points for y in YAKU.values()}
_EXCLUDES = {y.id: y.excludes for y in YAKU.values() if y.excludes}
Multi = tuple[tuple[int, int], ...]
_V = TypeVar("_V")
Entries = tuple[tuple[int, int, Callable[[Reading], int]], ...]   # (flag, bit, predicate)


def _predicates(yakus: Iterable[Yaku]) -> Entries:
    return tuple((1 << _BIT[y.id], _BIT[y.id], y.predicate) for y in yakus)


def _per_shape(scope: str) -> dict[str, Entries]:
    return {shape: _predicates(y for y in YAKU.values() if y.scope == scope and shape in y.shapes)
            for shape in SHAPES}


_SITUATION_YAKU = _per_shape(SITUATION)


def _mask_per_shape(scope: str) -> dict[str, int]:
    return {shape: sum(1 << _BIT[y.id] for y in YAKU.values()
                       if y.scope == scope and shape in y.shapes) for shape in SHAPES}


# TILES and HAND yaku per shape as masks over the YAKU bits, filtered by the declared maxima:
# ``_WITHIN_RANKS[ranks | suits >> 3 << 10]``/``_WITHIN_SUITS[suits]`` have the bits of the
# yaku whose ``within_ranks`` and ``most_numbers``/``within_suits`` and ``most_suits`` allow
# them.
_TILES_MASK = _mask_per_shape(TILES)
_HAND_MASK = _mask_per_shape(HAND)
# Number suits present, per Reading.suits & NUMBER_SUITS.
_SUIT_COUNT = tuple(bin(m).count("1") for m in range(8))


def _grouped(yakus: Sequence[Yaku], maxima: Callable[[Yaku], tuple[int, ...]],
             allowed: Callable[..., Iterable[int]], size: int) -> tuple[int, ...]:
    """Entry v: the bits (indices into ``yakus``) of the yaku whose maxima allow the value v
    (``allowed(*maxima)``: the values they allow); the few distinct tuples of maxima are
    grouped first."""
    groups: dict[tuple[int, ...], int] = {}
    for i, y in enumerate(yakus):
        groups[maxima(y)] = groups.get(maxima(y), 0) | 1 << i
    out = [0] * size
    for most, bits in groups.items():
        for v in allowed(*most):
            out[v] |= bits
    return tuple(out)


def _rank_span(ranks: int) -> int:
    """How many ranks, lowest to highest, the ``Reading.ranks`` bits span (0: none)."""
    return ranks.bit_length() - (ranks & -ranks).bit_length() + 1 if ranks else 0


# Per ``ranks | suits >> 3 << 10`` (the number ranks and the honor suits present): the
# numbers (序数) used and the ranks spanned.
_NUMBERS_USED = tuple((v & 1023).bit_count() + HONOR_NUMBERS[v >> 10] for v in range(1 << 12))
_SPANS = tuple(_rank_span(v & 1023) for v in range(1 << 12))


def _within_ranks(yakus: Sequence[Yaku]) -> tuple[int, ...]:
    """Per ``ranks | suits >> 3 << 10`` (the number ranks and the honor suits present)."""
    return _grouped(yakus, lambda y: (y.within_ranks, y.most_numbers, y.rank_span),
                    lambda most, n, span: [v for v in range(1 << 12)
                                           if v & 1023 & ~most == 0 and _NUMBERS_USED[v] <= n
                                           and _SPANS[v] <= span], 1 << 12)


def _within_suits(yakus: Sequence[Yaku]) -> tuple[int, ...]:
    """Per ``Reading.suits``."""
    return _grouped(yakus, lambda y: (y.within_suits, y.most_suits),
                    lambda most, n: [v for v in range(32)
                                     if v & ~most == 0 and _SUIT_COUNT[v & NUMBER_SUITS] <= n],
                    32)


_WITHIN_RANKS = _within_ranks(tuple(YAKU.values()))
_WITHIN_SUITS = _within_suits(tuple(YAKU.values()))
_ENTRY = {1 << i: (1 << i, i, y.predicate) for i, y in enumerate(YAKU.values())}


def _flags(mask: int) -> list[int]:
    """The set bits of ``mask`` as one-bit ints, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def _entries(bits: int) -> Entries:
    """The ``(flag, bit, predicate)`` (``_ENTRY``) of every set bit of the YAKU mask ``bits``,
    lowest first: memoised per mask, since few masks recur and taking an int of ~100 bits
    apart costs more than the predicates it selects."""
    found = _ENTRIES_MEMO.get(bits)
    if found is None:
        found = _remember(_ENTRIES_MEMO, bits, tuple(map(_ENTRY.__getitem__, _flags(bits))))
    return found


# A candidate mask's yaku: the flags of its exact ones (``Yaku.exact``: they hold), and the
# entries of the others, to evaluate.
Candidates = tuple[int, Entries]


def _candidate_entries(bits: int) -> Candidates:
    """``Candidates`` of a candidate mask not seen yet, put together from its two 32-bit
    halves (a few hundred distinct each, against more than a thousand distinct masks)."""
    low = bits & _CHUNK_ALL
    high = bits ^ low
    a = _CANDIDATE_PARTS.get(low) or _candidate_part(low)
    b = _CANDIDATE_PARTS.get(high) or _candidate_part(high)
    return _remember(_CANDIDATES_MEMO, bits, (a[0] | b[0], a[1] + b[1]))


def _candidate_part(bits: int) -> Candidates:
    """``Candidates`` of one half of a candidate mask, remembered."""
    exact = 0
    entries = []
    for flag in _flags(bits):
        entry = _CANDIDATE[flag]
        if flag & _EXACT_BITS:
            exact |= entry[0]
        else:
            entries.append(entry)
    return _remember(_CANDIDATE_PARTS, bits, (exact, tuple(entries)))


def _hold_entries(entries: Entries, r: Reading) -> tuple[int, Multi]:
    """The yaku among ``entries`` that hold for ``r``: their mask (YAKU bits), and the
    multiplicities above 1."""
    mask = 0
    multi: Multi = ()
    for flag, bit, pred in entries:
        v = pred(r)
        if v:
            mask |= flag
            if v > 1:
                multi += ((bit, int(v)),)
    return mask, multi


if any(y.shapes != {STANDARD} for y in YAKU.values() if y.scope in (GROUPS, PLACEMENT)):
    raise RuntimeError("decomposition and placement yaku must be standard-shape only")


# Standard-shape GROUPS and PLACEMENT yaku, each one bit of a candidate mask. For each
# minimum a yaku may declare, ``_MEETS_*[value]`` has the bits of the yaku whose minimum that
# value meets; the AND of a reading's nine look-ups is its candidate mask (RULES.md order
# kept).
_STANDARD_ONLY = tuple(y for y in YAKU.values() if y.scope in (GROUPS, PLACEMENT))


def _meeting(ok: Callable[[Yaku], bool]) -> int:
    return sum(1 << i for i, y in enumerate(_STANDARD_ONLY) if ok(y))


_MEETS_CHOWS = tuple(_meeting(lambda y: y.chows <= c and y.pungs <= 4 - c) for c in range(5))
# Per honor pung pattern (``pung_bits >> 27``: bits 0–3 the winds, 4–6 the dragons).
_MEETS_HONOR_PUNGS = tuple(_meeting(lambda y: y.wind_pungs <= (h & 15).bit_count()
                                    and y.dragon_pungs <= (h >> 4).bit_count())
                           for h in range(1 << 7))
_MEETS_QUADS = tuple(_meeting(lambda y: y.quads <= q) for q in range(4))  # at most 3 (14 tiles)
_MEETS_KONGS = tuple(_meeting(lambda y: y.kongs <= k) for k in range(5))
_MEETS_PAIR = tuple(_meeting(lambda y: y.pairs >> t & 1 == 1) for t in range(34))
_MEETS_TWIN_CHOWS = tuple(_meeting(lambda y: y.twin_chows <= n) for n in range(4))
_MEETS_ADJACENT_PUNGS = tuple(_meeting(lambda y: y.adjacent_pungs <= n) for n in range(4))
_MEETS_CONCEALED = tuple(_meeting(lambda y: y.concealed_pungs <= n) for n in range(5))
# Per number suit's chow starts (``chow_bits`` of the suit, 7 bits): 1 if any, + 4 if three or
# more, + 16 if four or more; the sum over the three suits ("spread": number suits with a chow,
# suits with three, with four) indexes the chow_suits and suit_chows minima met (suit_chows is
# told apart from 3 up only: a minimum of 1 or 2 never filters).
_CHOW_SUIT = tuple((x != 0) + 4 * (x.bit_count() >= 3) + 16 * (x.bit_count() >= 4)
                   for x in range(1 << 7))
_MEETS_SPREAD = tuple(_meeting(lambda y: y.chow_suits <= v & 3
                               and y.suit_chows <= (4 if v >> 4 else 3 if v >> 2 & 3 else 2))
                      for v in range(1 << 6))
# Per ``Reading.single_wait``.
_MEETS_WAITS = (_meeting(lambda y: True), _meeting(lambda y: not y.several_waits))
# Number pungs t whose t+1 may be a pung of the same suit.
_ADJACENT_START = sum(1 << t for t in range(27) if t % 9 < 8)
_MEETS_WITHIN_RANKS = _within_ranks(_STANDARD_ONLY)
# Per ``Reading.suits``: the minimum number suits and the maxima (``_within_suits``).
_MEETS_SUITS = tuple(_meeting(lambda y: y.suits <= _SUIT_COUNT[suits & NUMBER_SUITS]) & within
                     for suits, within in enumerate(_within_suits(_STANDARD_ONLY)))
_MEETS_PLACEMENT = {p: _meeting(lambda y: p in y.placements) for p in PLACEMENTS}
_RANK_MINIMUM_BITS = {m: _meeting(lambda y: y.ranks == m)
                      for m in {y.ranks for y in _STANDARD_ONLY}}
_MEETS_RANKS = tuple(sum(bits for m, bits in _RANK_MINIMUM_BITS.items() if ranks & m == m)
                     & _MEETS_WITHIN_RANKS[ranks] for ranks in range(1 << 10))


# The GROUPS and the PLACEMENT bits among the candidate bits.
_GROUP_BITS = _meeting(lambda y: y.scope == GROUPS)
_PLACEMENT_BITS = _meeting(lambda y: y.scope == PLACEMENT)
_EXACT_BITS = _meeting(lambda y: y.exact)
# Per candidate flag (one set bit): the yaku's flag and bit in YAKU order, its predicate.
_CANDIDATE = {1 << i: (1 << _BIT[y.id], _BIT[y.id], y.predicate)
              for i, y in enumerate(_STANDARD_ONLY)}


# Memos per (shape, everything they may read), packed into one int, of the SUITS and TILES
# yaku with the HAND yaku's entries (suits and ranks), and of the SITUATION yaku (the flags,
# single wait and open melds); few distinct keys recur across hands. Each memo here is
# emptied when full (memory stays bounded) and by ``clear_caches``.
_TILES_MEMO: dict[int, tuple[int, Multi, Entries]] = {}
_SITUATION_MEMO: dict[int, tuple[int, Multi]] = {}
_SHAPE_CODE = {shape: i for i, shape in enumerate(SHAPES)}
_MEMO_SIZE = 1 << 14
# Per-mask memos: the entries of a YAKU mask (``_ENTRY``) and of a candidate mask
# (``_CANDIDATE``), and the counted yaku of a holding mask.
_ENTRIES_MEMO: dict[int, Entries] = {}
_CANDIDATES_MEMO: dict[int, Candidates] = {}
_CANDIDATE_PARTS: dict[int, Candidates] = {}   # per 32-bit half of a candidate mask
_COUNTED_MEMO: dict[int, tuple[int, tuple[tuple[str, int], ...]]] = {}
# Parts of a new counted mask: what a set of excluders drops; the yaku of each of its three
# 32-bit chunks.
_DROP_MEMO: dict[int, int] = {}
_CHUNK_BITS = 32
_CHUNK_ALL = (1 << _CHUNK_BITS) - 1
if len(_IDS) > 3 * _CHUNK_BITS:
    raise RuntimeError("a counted mask is read as three chunks: widen _CHUNK_BITS")
_LOW_CHUNKS: dict[int, tuple[int, tuple[tuple[str, int], ...]]] = {}
_MID_CHUNKS: dict[int, tuple[int, tuple[tuple[str, int], ...]]] = {}
_HIGH_CHUNKS: dict[int, tuple[int, tuple[tuple[str, int], ...]]] = {}


def _remember(memo: dict, key: object, value: _V) -> _V:
    """Store ``value`` in ``memo`` (emptied first when full) and return it."""
    if len(memo) >= _MEMO_SIZE:
        memo.clear()
    memo[key] = value
    return value


def clear_caches() -> None:
    """Forget memoised results (for cold-start benchmarks; results never depend on them)."""
    for memo in (_TILES_MEMO, _SITUATION_MEMO, _ENTRIES_MEMO, _CANDIDATES_MEMO, _COUNTED_MEMO,
                 _CANDIDATE_PARTS, _DROP_MEMO, _LOW_CHUNKS, _MID_CHUNKS, _HIGH_CHUNKS):
        memo.clear()
    _context.cache_clear()


def _suits_table() -> tuple[tuple[int, Multi], ...]:
    """Entry ``suits << 2 | shape code``: the SUITS-scope yaku that hold (mask, multiplicities),
    evaluated at import on readings that have nothing but a shape and suits (so a predicate
    that reads more fails here, at import)."""
    blank = Reading._make([None] * len(Reading._fields))
    return tuple(_hold_entries(_SUITS_YAKU[shape], blank._replace(shape=shape, suits=suits))
                 for suits in range(32) for shape in SHAPES)


_SUITS_YAKU = _per_shape(SUITS)
_SUITS_HOLD = _suits_table()
_NONE: tuple[int, Multi] = (0, ())


def _shape_yaku(r: Reading) -> tuple[int, Multi]:
    """SUITS-, TILES-, SITUATION- and HAND-scope yaku of ``r``'s shape: the same for every
    reading of that shape. SUITS yaku come from an import-time table; SUITS and TILES yaku
    and the HAND yaku to try are memoised on (shape, suits, ranks), SITUATION yaku on all
    they may read (the scopes are checked by ``tests/scoring/test_properties.py``); TILES and
    HAND yaku run only past their maxima."""
    code = _SHAPE_CODE[r.shape]
    key = (r.ranks << 5 | r.suits) << 2 | code          # ints: cheap to hash
    tiles = _TILES_MEMO.get(key)
    if tiles is None:
        tiles = _remember(_TILES_MEMO, key, _tile_yaku(r, code))
    key = ((r.ctx.flags << 1 | r.single_wait) << 3 | r.open_melds) << 2 | code
    situation = _SITUATION_MEMO.get(key)
    if situation is None:
        situation = _remember(_SITUATION_MEMO, key, _hold_entries(_SITUATION_YAKU[r.shape], r))
    mask, multi, hand = tiles
    if hand:
        hand_mask, hand_multi = _hold_entries(hand, r)
        return mask | situation[0] | hand_mask, multi + situation[1] + hand_multi
    return mask | situation[0], multi + situation[1]


def _tile_yaku(r: Reading, code: int) -> tuple[int, Multi, Entries]:
    """The SUITS and TILES yaku that hold for ``r``'s shape, suits and ranks (mask,
    multiplicities) and the entries of the HAND yaku its maxima allow."""
    shape = r.shape
    suits = r.suits
    within = _WITHIN_RANKS[r.ranks | suits >> 3 << 10] & _WITHIN_SUITS[suits]
    suit_mask, suit_multi = _SUITS_HOLD[suits << 2 | code]
    bits = _TILES_MASK[shape] & within
    mask, multi = _hold_entries(_entries(bits), r) if bits else _NONE
    return mask | suit_mask, multi + suit_multi, _entries(_HAND_MASK[shape] & within)


# The flags of the yaku that exclude anything, and per yaku flag (one set bit) the flags it
# excludes.
_EXCLUDERS = sum(1 << i for i, ex in enumerate(_EXCLUDED_BY) if ex)
_EXCLUDED_BY_FLAG = {1 << i: ex for i, ex in enumerate(_EXCLUDED_BY)}


def _dropped(excluders: int) -> int:
    """The flags that the holding yaku ``excluders`` (flags) exclude."""
    out = 0
    for flag in _flags(excluders):
        out |= _EXCLUDED_BY_FLAG[flag]
    return out


def _chunk_items(memo: dict[int, tuple[int, tuple[tuple[str, int], ...]]], k: int, bits: int
                 ) -> tuple[int, tuple[tuple[str, int], ...]]:
    """The points and ``(id, points)`` of the yaku set in chunk ``k`` of a counted mask,
    remembered in ``memo``."""
    at = [k * _CHUNK_BITS + flag.bit_length() - 1 for flag in _flags(bits)]
    return _remember(memo, bits, (sum(_POINTS_AT[i] for i in at),
                                  tuple((_IDS[i], _POINTS_AT[i]) for i in at)))


def _counted(mask: int, multi: Multi) -> tuple[int, tuple[tuple[str, int], ...]]:
    """P and the counted yaku of a holding mask (plus multiplicities) as ``(id, points)``
    pairs in rulebook order (RULES.md §9: drop every yaku a holding yaku excludes; an
    excluded one still excludes), for a mask its callers did not find in ``_COUNTED_MEMO``.
    Remembered there when there are no multiplicities (pairs of atoms: the garbage collector
    soon stops tracking them); put together from memos of what its excluders drop (a few
    hundred distinct sets) and of its chunks (a few hundred each), since thousands of distinct
    masks occur but few distinct parts."""
    holding = mask
    excluders = mask & _EXCLUDERS
    if excluders:
        drop = _DROP_MEMO.get(excluders)
        if drop is None:
            drop = _remember(_DROP_MEMO, excluders, _dropped(excluders))
        mask &= ~drop
    low = mask & _CHUNK_ALL
    mid = mask >> _CHUNK_BITS & _CHUNK_ALL
    high = mask >> 2 * _CHUNK_BITS
    a = _LOW_CHUNKS.get(low) or _chunk_items(_LOW_CHUNKS, 0, low)
    b = _MID_CHUNKS.get(mid) or _chunk_items(_MID_CHUNKS, 1, mid)
    c = _HIGH_CHUNKS.get(high) or _chunk_items(_HIGH_CHUNKS, 2, high)
    items = a[1] + b[1] + c[1]
    if multi:
        out = dict(items)
        for bit, n in multi:
            if mask >> bit & 1:
                out[_IDS[bit]] = _POINTS_AT[bit] * n
        return sum(out.values()), tuple(out.items())
    return _remember(_COUNTED_MEMO, holding, (a[0] + b[0] + c[0], items))


def counted(holding: dict[str, int]) -> dict[str, int]:
    """The counted yaku of one reading: ids -> points, in rulebook order (RULES.md §9)."""
    dropped: set[str] = set()
    for i in holding:
        dropped |= _EXCLUDES.get(i, frozenset())
    return {i: _POINTS[i] * holding[i] for i in sorted(holding, key=_BIT.get)
            if i not in dropped}


def holding_yaku(r: Reading) -> dict[str, int]:
    """Every yaku that holds for one reading, before exclusions (id -> multiplicity)."""
    return {y.id: n for y in YAKU.values() if (n := y(r))}


# --- validation ---------------------------------------------------------------------------

def _check_sizes(n_tiles: int, melds: tuple[Meld, ...]) -> None:
    """At most four melds, and 13 − 3 per meld concealed tiles before the win."""
    if len(melds) > 4:
        raise ValueError(f"{len(melds)} melds: a hand has at most 4")
    need = 13 - 3 * len(melds)
    if n_tiles != need:
        raise ValueError(f"the concealed hand has {n_tiles} tiles before the win; with "
                         f"{len(melds)} meld(s) it must have {need}")


# Tile counts packed into one int, byte t holding the count of kind t (at most 14 a kind here,
# so no byte overflows): adding a tile or a meld is one addition, and ``to_bytes(34, "little")``
# gives the counts as ``bytes``.
_UNIT = tuple(1 << 8 * t for t in range(34))
_PLUS_123 = sum(123 << 8 * t for t in range(34))
_HIGH_BITS = sum(128 << 8 * t for t in range(34))
_MELD_UNIT = {tiles: sum(_UNIT[t] for t in tiles) for tiles in (
    [(t, t + 1, t + 2) for t in range(27) if t % 9 <= 6]
    + [(t,) * n for n in (3, 4) for t in range(34)])}


def _hand_counts(hand: Sequence[int]) -> bytearray:
    """Counts of the concealed tile ints (before the win), each checked to be a tile."""
    c13 = bytearray(34)
    try:
        for t in hand:
            c13[t] += 1
        ok = min(hand, default=0) >= 0
    except (IndexError, TypeError, ValueError):
        ok = False
    if not ok:
        bad = [t for t in hand if type(t) is not int or not 0 <= t < 34]
        if not bad:                     # a count past 255 overflowed its byte
            raise ValueError(f"{len(hand)} tiles are far too many for a hand")
        raise ValueError(f"{bad[0]!r} is not a tile index (0–33)")
    return c13


def _tile_index(t: object) -> int:
    """``t`` when it is a tile index (0–33); else a ``ValueError`` naming it."""
    if type(t) is not int or not 0 <= t < 34:
        raise ValueError(f"{t!r} is not a tile index (0–33)")
    return t


def _check(n13: int, win_tile: int, melds: tuple[Meld, ...], ctx: WinContext) -> bytes:
    """Validate the rest of a query given the concealed counts (``n13``: packed, see
    ``_UNIT``; sizes checked) and the winning tile (a tile index); return the counts of every
    tile (hand, winning tile, melds)."""
    n = n13 + _UNIT[win_tile]
    for m in melds:
        if not isinstance(m, Meld):
            raise ValueError(f"{m!r} is not a Meld")
        unit = _MELD_UNIT.get(m.tiles)
        if unit is None:
            raise ValueError(f"{m!r} has a tile outside 0–33")
        n += unit
    total = n.to_bytes(34, "little")
    if n + _PLUS_123 & _HIGH_BITS:     # some byte above 4 (123 + 5 sets its high bit)
        over = [tile_name(k) for k in range(34) if total[k] > 4]
        raise ValueError(f"more than four of {', '.join(over)} in hand, winning tile and "
                         f"melds")
    if ctx.flags <= 1:                  # no flag but tsumo: nothing more to contradict
        return total
    if ctx.lingshang and not any(m.is_kong for m in melds):
        raise ValueError("lingshang needs a kan meld: the winning tile is a kan replacement")
    if melds and (ctx.tianhu or ctx.dihu or ctx.renhu):
        which = "tianhu" if ctx.tianhu else "dihu" if ctx.dihu else "renhu"
        raise ValueError(f"{which} conflicts with melds: no call can precede it")
    if ctx.juezhang and n13 >> 8 * win_tile & 255:
        raise ValueError(f"juezhang conflicts with the hand: it holds {tile_name(win_tile)}, "
                         f"so the winning tile is not the last of its kind")
    if ctx.qianggang and total[win_tile] > 1:
        raise ValueError(f"qianggang conflicts with the tiles: the hand or melds hold "
                         f"{tile_name(win_tile)}, but the robbed kan needs the other three")
    return total


# --- scoring ------------------------------------------------------------------------------

def readings(hand: Sequence[int], win_tile: int, melds: Sequence[Meld],
             ctx: WinContext) -> list[Reading]:
    """Every reading of the hand (RULES.md §6–§7), validated like ``score``; empty when the
    tiles form no winning shape."""
    melds = tuple(melds)
    _check_sizes(len(hand), melds)
    n13 = int.from_bytes(_hand_counts(hand), "little")
    total = _check(n13, _tile_index(win_tile), melds, ctx)
    facts, specials, decompositions = _analyse(n13, total, win_tile, melds, ctx)
    out = [facts.special(shape) for shape in specials]
    for d in decompositions:
        for placement, index in d.placements:
            out.append(facts.standard(d, placement, index))
    return out


def _analyse(n13: int, total: bytes, win_tile: int, melds: tuple[Meld, ...],
             ctx: WinContext
             ) -> tuple[HandFacts, tuple[str, ...], tuple[Decomposition, ...]]:
    """Find the special shapes and the standard decompositions (each with the placements of
    the winning tile) of checked counts (``n13``: concealed, before the win, packed; ``total``:
    every tile); gather the hand-wide facts.

    Not memoised: from the import-time tables this costs less than a memo's upkeep does.
    """
    key14 = (n13 + _UNIT[win_tile]).to_bytes(34, "little") if melds else total
    specials = () if melds else _special_shapes(key14)
    found = decompositions(key14, win_tile)
    if found:
        single = not (_second_wait(found, win_tile, total)
                      or _other_standard_wait(n13, total, win_tile, found[0].pair)
                      or not melds and _other_special_wait(n13, total, win_tile))
    elif specials:
        # A knitted or thirteen-orphans hand is 13 kinds none of which makes a chow with
        # another, with at most one pair: no standard or seven-pairs wait, so the special
        # waits are all. A seven-pairs hand may also have waited in the standard shape.
        key13 = n13.to_bytes(34, "little")
        kinds = (structural_wait_kinds(key13, 0) if specials[0] == SEVEN_PAIRS
                 else special_wait_kinds(key13))
        single = sum(1 for t in kinds if total[t] - (t == win_tile) < 4) == 1
    else:
        single = False
    return HandFacts.build(total, win_tile, single, melds, ctx), specials, found


# Per suit (m, p, s, honors): the reading table of its keys and their width, the wait ranks
# of a suit key (packed, see ``_UNIT``, suit-relative), the first kind and a mask of the
# suit's bytes.
_SUIT_TABLE = ((NUMBER_TABLE, 9),) * 3 + ((HONOR_TABLE, 7),)
_WAITS = (NUMBER_WAITS,) * 3 + (HONOR_WAITS,)
_SUIT_AT = tuple((t // 9 if t < 27 else 3) for t in range(34))
_SUIT_LO = (0, 9, 18, 27)
_SUIT_MASK = ((1 << 72) - 1,) * 3 + ((1 << 56) - 1,)


def _other_standard_wait(n13: int, total: bytes, win_tile: int, pair: int) -> bool:
    """Whether a 13-tile hand whose 14 tiles read standard (``pair``: that reading's pair)
    waited, in the standard shape, on a kind besides ``win_tile`` that it does not hold four
    of (RULES.md §7). Every suit but the winning tile's is complete, so another kind can only
    complete the winning tile's suit, or the pair's suit (as a pung) when the winning tile's
    suit is complete without it: per suit, a look-up in the import-time wait tables."""
    ws = _SUIT_AT[win_tile]
    lo = _SUIT_LO[ws]
    s13 = n13 >> 8 * lo & _SUIT_MASK[ws]
    if _held_below_four(_WAITS[ws].get(s13, 0) & ~(1 << win_tile - lo), lo, total):
        return True
    ps = _SUIT_AT[pair]
    if ps == ws:
        return False
    table, width = _SUIT_TABLE[ws]
    if s13.to_bytes(width, "little") not in table:
        return False
    lo = _SUIT_LO[ps]
    return _held_below_four(_WAITS[ps].get(n13 >> 8 * lo & _SUIT_MASK[ps], 0), lo, total)


def _held_below_four(ranks: int, lo: int, total: bytes) -> bool:
    """Whether any rank of the mask ``ranks`` (a suit starting at kind ``lo``) is a kind held
    fewer than four times."""
    return any(total[lo + flag.bit_length() - 1] < 4 for flag in _flags(ranks))


def _other_special_wait(n13: int, total: bytes, win_tile: int) -> bool:
    """Whether a concealed 13-tile hand waited on seven pairs, knitted or thirteen orphans
    on a kind besides ``win_tile`` that it does not hold four of. Those waits need 7 kinds
    (six pairs and a single), 13 (knitted or orphans) or 12 (orphans with a pair)."""
    key = n13.to_bytes(34, "little")
    if key.count(0) not in (21, 22, 27):
        return False
    return any(t != win_tile and total[t] < 4 for t in special_wait_kinds(key))


def _second_wait(decompositions: tuple[Decomposition, ...], win_tile: int,
                 total: bytes) -> bool:
    """A cheap proof that the hand had another wait besides the winning tile: a two-sided
    placement (the chow's other end) or a dual-pung one (the other pair), unless all four of
    that kind are held. Saves the full wait search for most hands."""
    for d in decompositions:
        for placement, index in d.placements:
            if placement == LIANGMIAN:
                first = d.groups[index].first
                other = first + 3 if win_tile == first else first - 1
            elif placement == SHUANGPENG:
                other = d.pair
            else:
                continue
            if total[other] < 4:
                return True
    return False


def _special_shapes(key: bytes) -> tuple[str, ...]:
    """Seven pairs, knitted, thirteen orphans (14 concealed tiles), tried only when the number
    of distinct kinds fits (7, 14, 13)."""
    kinds = 34 - key.count(0)
    if kinds == 7:
        return (SEVEN_PAIRS,) if is_seven_pairs(key) else ()
    if kinds == 14:
        return (KNITTED,) if is_knitted(key) else ()
    if kinds == 13:
        return (THIRTEEN_ORPHANS,) if is_thirteen_orphans(key) else ()
    return ()


def score(hand: Sequence[int], win_tile: int, melds: Sequence[Meld],
          ctx: WinContext) -> ScoreResult:
    """Score a win (tile ints; ``hand`` = the concealed tiles before the win).

    Raises ``NotWinningHand`` when the tiles form no winning shape and ``ValueError`` for an
    inconsistent query (tile counts, hand size, flags that contradict the tiles).
    """
    melds = tuple(melds)
    _check_sizes(len(hand), melds)
    n13 = int.from_bytes(_hand_counts(hand), "little")
    win_tile = _tile_index(win_tile)
    return _score(n13, _check(n13, win_tile, melds, ctx), win_tile, melds, ctx)


def _score(n13: int, total: bytes, win_tile: int, melds: tuple[Meld, ...],
           ctx: WinContext) -> ScoreResult:
    """``score`` on checked counts (``n13`` packed): every reading's yaku, the best total."""
    facts, specials, decompositions = _analyse(n13, total, win_tile, melds, ctx)
    found: list[tuple[int, Multi, Reading]] = []
    for shape in specials:
        r = facts.special(shape)
        found.append((*_shape_yaku(r), r))
    if decompositions:
        meets = (_MEETS_QUADS[len(facts.quads)] & _MEETS_KONGS[len(facts.kongs)]
                 & _MEETS_SUITS[facts.suits] & _MEETS_RANKS[facts.ranks]
                 & _MEETS_WAITS[facts.single_wait])
        shape_mask = -1
        shape_multi: Multi = ()
        for d in decompositions:
            pair, _, _, _, _, _, placements = d
            placement, index = placements[0]
            r = facts.standard(d, placement, index)
            if shape_mask < 0:
                shape_mask, shape_multi = _shape_yaku(r)
            n_chows = len(r.chows)
            chow_bits = r.chow_bits
            pung_bits = r.pung_bits
            candidates = (meets & _MEETS_CHOWS[n_chows] & _MEETS_PAIR[pair]
                          & _MEETS_HONOR_PUNGS[pung_bits >> 27]
                          & _MEETS_TWIN_CHOWS[n_chows - chow_bits.bit_count()]
                          & _MEETS_SPREAD[_CHOW_SUIT[chow_bits & 127]
                                          + _CHOW_SUIT[chow_bits >> 9 & 127]
                                          + _CHOW_SUIT[chow_bits >> 18 & 127]]
                          & _MEETS_ADJACENT_PUNGS[(pung_bits & pung_bits >> 1
                                                   & _ADJACENT_START).bit_count()])
            if len(placements) == 1:        # the usual case: GROUPS and PLACEMENT yaku at once
                candidates &= _MEETS_PLACEMENT[placement] & _MEETS_CONCEALED[r.concealed_pungs]
                exact, entries = (_CANDIDATES_MEMO.get(candidates)   # (the memo's hit inline)
                                  or _candidate_entries(candidates))
                mask, multi = _hold_entries(entries, r)
                found.append((mask | exact | shape_mask,
                              multi + shape_multi if multi else shape_multi, r))
                continue
            group_bits = candidates & _GROUP_BITS       # once per decomposition
            exact, entries = _CANDIDATES_MEMO.get(group_bits) or _candidate_entries(group_bits)
            group_mask, group_multi = _hold_entries(entries, r)
            group_mask |= exact | shape_mask
            group_multi += shape_multi
            candidates &= _PLACEMENT_BITS
            for k, (placement, index) in enumerate(placements):
                if k:                           # (the first reading is built above)
                    r = facts.standard(d, placement, index)
                here = (candidates & _MEETS_PLACEMENT[placement]
                        & _MEETS_CONCEALED[r.concealed_pungs])
                if here:
                    exact, entries = _CANDIDATES_MEMO.get(here) or _candidate_entries(here)
                    mask, multi = _hold_entries(entries, r)
                    found.append((mask | exact | group_mask, multi + group_multi, r))
                else:
                    found.append((group_mask, group_multi, r))
    if not found:
        raise NotWinningHand(f"{_describe(n13.to_bytes(34, 'little'), win_tile, melds)} "
                             f"forms no winning shape")
    best_p = -1                     # the first reading of the highest P
    for mask, multi, reading in found:
        p, counted_items = (not multi and _COUNTED_MEMO.get(mask)) or _counted(mask, multi)
        if p > best_p:
            best_p, items, r = p, counted_items, reading
    p = best_p
    res = _new_object(ScoreResult)      # ScoreResult(p, yaku, r.shape, r), less the
    res.__dict__.update(points=p, yaku=dict(items), shape=r.shape, reading=r)     # frozen init
    return res


_new_object = object.__new__


def _describe(c13: bytes, win_tile: int, melds: tuple[Meld, ...]) -> str:
    text = f"{tiles_to_str(t for t in range(34) for _ in range(c13[t]))} + {tile_name(win_tile)}"
    return text + (f" with {', '.join(map(str, melds))}" if melds else "")


def score_hand(hand: str | Sequence[int], win_tile: str | int,
               melds: str | Sequence[str | Meld] = (), tsumo: bool = False,
               seat_wind: str | int = "E", round_wind: str | int = "E",
               lingshang: bool = False, haidi: bool = False, hedi: bool = False,
               qianggang: bool = False, juezhang: bool = False, tianhu: bool = False,
               dihu: bool = False, renhu: bool = False) -> ScoreResult:
    """Score a win given in mpsz notation (the public API of issue 2).

    >>> score_hand("123m456m789m123p5s", "5s", seat_wind="S").points
    16

    ``hand`` is the concealed tiles before the win, ``win_tile`` the winning tile, ``melds``
    declared melds (``"pon:777z,chi:234s"`` or a sequence of such strings / ``Meld``s);
    winds as ``"E"``/``"S"``/``"W"``/``"N"`` (or 0–3). ``result.points`` is P without the
    dealer bonus. A wrong type (a hand that is neither text nor a sequence, a flag that is not
    a bool) is a ``TypeError``; NumPy integers and bools are taken like Python's.
    """
    if not isinstance(hand, (str, tuple, list)):
        hand = hand_argument(hand)
    if not isinstance(win_tile, (str, int)):
        win_tile = tile_argument(win_tile)
    if not bool is type(tsumo) is type(lingshang) is type(haidi) is type(hedi) \
            is type(qianggang) is type(juezhang) is type(tianhu) is type(dihu) is type(renhu):
        check_flags((tsumo, lingshang, haidi, hedi, qianggang, juezhang, tianhu, dihu, renhu))
    if isinstance(hand, str):
        n13, n_tiles = _parse_counts(hand)
    else:
        hand = tuple(hand)
        n13, n_tiles = -1, len(hand)
    if isinstance(win_tile, str):
        win = _TILE_OF.get(win_tile)
        if win is None:
            win = parse_tile(win_tile)
    else:
        win = _tile_index(win_tile)
    if not melds:
        melds = ()
    else:
        if isinstance(melds, str):
            melds = [m for m in melds.split(",") if m.strip()]
        melds = tuple([(_MELD_OF.get(m) or parse_meld(m)) if isinstance(m, str)
                       else parse_meld(m) for m in melds])
    args = (tsumo, seat_wind, round_wind, lingshang, haidi, hedi, qianggang, juezhang, tianhu,
            dihu, renhu)
    try:
        ctx = _context(*args)
    except TypeError:                       # an unhashable argument (parse_wind names a bad wind)
        ctx = _context.__wrapped__(*args)
    if n_tiles + 3 * len(melds) != 13:
        _check_sizes(n_tiles, melds)     # raises, naming the sizes
    if n13 < 0:
        n13 = int.from_bytes(_hand_counts(hand), "little")
    return _score(n13, _check(n13, win, melds, ctx), win, melds, ctx)


# Canonical tile and meld strings (``"5s"``, ``"pon:777z"``): import-time tables, so that
# the usual text needs no parsing; anything else goes through ``mjenv.tiles``' parsers.
_TILE_OF = {name: t for t, name in enumerate(TILE_NAMES)}
_MELD_OF = {str(m): m for m in (
    [Meld("chi", (t, t + 1, t + 2)) for t in range(27) if t % 9 <= 6]
    + [Meld(kind, (t,) * (3 if kind == "pon" else 4))
       for kind in ("pon", "minkan", "kakan", "ankan") for t in range(34)])}

# The digit groups of mpsz text (digits and a suit letter).
_MPSZ_GROUP = re.compile(r"([1-9]+)([mpsz])")


def _digit_counts(digits: str) -> dict[str, int]:
    """The packed counts (ranks of one suit) of every string of one to four ``digits``: a
    digit group of a hand is one look-up per four digits (7,380 strings of 1–9)."""
    out = {"": 0}
    for _ in range(4):
        out.update({d + rest: (1 << 8 * (ord(d) - 49)) + counts
                    for rest, counts in list(out.items()) for d in digits})
    del out[""]
    return out


# Per suit letter: the digit-group table of its ranks (honors: 1–7 only) and the shift of its
# first kind in the packed counts (see ``_UNIT``).
_NUMBER_DIGITS = _digit_counts("123456789")
_GROUP_OF = {"m": (_NUMBER_DIGITS, 0), "p": (_NUMBER_DIGITS, 8 * 9),
             "s": (_NUMBER_DIGITS, 8 * 18), "z": (_digit_counts("1234567"), 8 * 27)}


def _parse_counts(text: str) -> tuple[int, int]:
    """Counts (packed, see ``_UNIT``) and number of the tiles of an mpsz hand; malformed text
    goes to ``parse_tiles``, which names the bad part. (Past 255 copies of a kind its byte
    carries into the next one: the caller rejects a hand of that size before reading them.)"""
    s = text.replace(" ", "") if " " in text else text
    groups = _MPSZ_GROUP.findall(s)
    total = n = 0
    try:
        for digits, suit in groups:
            table, shift = _GROUP_OF[suit]
            k = len(digits)
            n += k
            if k <= 4:
                total += table[digits] << shift
            elif k <= 8:
                total += table[digits[:4]] + table[digits[4:]] << shift
            else:
                for i in range(0, k, 4):
                    total += table[digits[i:i + 4]] << shift
    except KeyError:                    # an honor 8 or 9: let parse_tiles name it
        n = -1
    if n + len(groups) != len(s):       # text outside the groups: not plain mpsz
        tiles = parse_tiles(text)
        return int.from_bytes(_hand_counts(tiles), "little"), len(tiles)
    return total, n


@lru_cache(maxsize=4096)
def _context(tsumo: bool, seat_wind: str | int, round_wind: str | int, *flags: bool
             ) -> WinContext:
    """WinContext for score_hand's arguments (few distinct ones: memoised; arguments equal
    as keys, like 1 and True, give equal contexts since the flags are made bools here)."""
    names = ("lingshang", "haidi", "hedi", "qianggang", "juezhang", "tianhu", "dihu", "renhu")
    return WinContext(bool(tsumo), parse_wind(seat_wind), parse_wind(round_wind),
                      **{name: bool(flag) for name, flag in zip(names, flags)})
