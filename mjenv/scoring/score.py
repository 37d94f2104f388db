"""Scoring a winning hand: every reading × every yaku → exclusions → the best total.

RULES.md §6: when the tiles can be read several ways (shapes, decompositions, which group the
winning tile completes), the reading with the highest P counts. §9: for one reading, collect
every yaku that holds, then drop each yaku that another holding yaku excludes.

Speed (the engine scores on every ron check): each predicate runs at its declared scope
(``Yaku.scope``) — tile-content yaku once per (shape, suits, ranks), memoised; other hand-wide
yaku once per shape; decomposition yaku once per decomposition; placement yaku once per
reading — and is skipped when the reading misses a minimum it declares (chows, pungs, honor
pungs, kongs, quads, number suits, ranks, pair kinds): one AND of per-minimum bit masks gives
the candidates. Memos are kept only where keys recur across different hands (per-suit tables,
tile-content and situation yaku, candidate lists) plus the decompositions of a concealed hand
and its winning tile (the engine re-scores a ready hand on every discard that completes it);
the per-suit tables behind them are built at import, ``mjenv.analysis.tables``. Exclusions and
rulebook order are worked out for the chosen reading only, totals compared only when a hand
has several readings. ``tests/scoring/test_properties.py`` checks all of this against the
plain definition. The wait search (for 独听/假独) is skipped when a placement already proves a
second wait.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable, Sequence

from mjenv.analysis import is_knitted, is_seven_pairs, is_thirteen_orphans
from mjenv.analysis.decompose import decompose_key
from mjenv.analysis.waits import structural_wait_kinds
from mjenv.scoring.reading import (KNITTED, LIANGMIAN, NUMBER_SUITS, SEVEN_PAIRS, SHAPES,
                                   SHUANGPENG, STANDARD, THIRTEEN_ORPHANS, Decomposition, Group,
                                   HandFacts, Reading, WinContext)
from mjenv.scoring.yaku import GROUPS, HAND, PLACEMENT, SITUATION, TILES, YAKU, Yaku
from mjenv.tiles import (Meld, parse_meld, parse_tile, parse_tiles, parse_wind, tile_name,
                         tiles_to_str)


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

_ORDER = {y: i for i, y in enumerate(YAKU)}
_POINTS = {y.id: y.points for y in YAKU.values()}
_EXCLUDES = {y.id: y.excludes for y in YAKU.values() if y.excludes}
Predicates = tuple[tuple[str, Callable[[Reading], int]], ...]


def _predicates(yakus: Iterable[Yaku]) -> Predicates:
    return tuple((y.id, y.predicate) for y in yakus)


def _per_shape(scope: str) -> dict[str, Predicates]:
    return {shape: _predicates(y for y in YAKU.values() if y.scope == scope and shape in y.shapes)
            for shape in SHAPES}


_TILES_YAKU = _per_shape(TILES)
_SITUATION_YAKU = _per_shape(SITUATION)
_HAND_YAKU = _per_shape(HAND)
if any(y.shapes != {STANDARD} for y in YAKU.values() if y.scope in (GROUPS, PLACEMENT)):
    raise RuntimeError("decomposition and placement yaku must be standard-shape only")


# Standard-shape GROUPS and PLACEMENT yaku, each one bit of a candidate mask. For each
# minimum a yaku may declare, ``_MEETS_*[value]`` has the bits of the yaku whose minimum that
# value meets; the AND of a reading's seven look-ups is its candidate mask (RULES.md order
# kept).
_STANDARD_ONLY = tuple(y for y in YAKU.values() if y.scope in (GROUPS, PLACEMENT))


def _meeting(ok: Callable[[Yaku], bool]) -> int:
    return sum(1 << i for i, y in enumerate(_STANDARD_ONLY) if ok(y))


_MEETS_CHOWS = tuple(_meeting(lambda y: y.chows <= c and y.pungs <= 4 - c) for c in range(5))
_MEETS_HONOR_PUNGS = tuple(_meeting(lambda y: y.honor_pungs <= h) for h in range(5))
_MEETS_QUADS = tuple(_meeting(lambda y: y.quads <= q) for q in range(4))      # 3: 3 or more
_MEETS_SUITS = tuple(_meeting(lambda y: y.suits <= n) for n in range(4))
_MEETS_KONGS = tuple(_meeting(lambda y: y.kongs <= k) for k in range(5))
_MEETS_PAIR = tuple(_meeting(lambda y: y.pairs >> t & 1 == 1) for t in range(34))
_RANK_MINIMUM_BITS = {m: _meeting(lambda y: y.ranks == m)
                      for m in {y.ranks for y in _STANDARD_ONLY}}
_MEETS_RANKS = tuple(sum(bits for m, bits in _RANK_MINIMUM_BITS.items() if ranks & m == m)
                     for ranks in range(1 << 10))

# Number suits present, per Reading.suits & NUMBER_SUITS.
_SUIT_COUNT = tuple(bin(m).count("1") for m in range(8))

_CANDIDATES: dict[int, tuple[Predicates, Predicates]] = {}


def _candidates(mask: int) -> tuple[Predicates, Predicates]:
    """The GROUPS and PLACEMENT predicates of a candidate mask (few distinct masks occur:
    memoised)."""
    found = _CANDIDATES.get(mask)
    if found is None:
        chosen: list[Yaku] = []
        bits = mask
        while bits:                                 # the set bits, lowest first
            low = bits & -bits
            chosen.append(_STANDARD_ONLY[low.bit_length() - 1])
            bits ^= low
        found = _CANDIDATES[mask] = (_predicates(y for y in chosen if y.scope == GROUPS),
                                     _predicates(y for y in chosen if y.scope == PLACEMENT))
    return found


# The GROUPS yaku (and PLACEMENT candidates) of a decomposition, for a hand scored again (the
# engine re-scores a ready hand on every discard that completes it): a function of the
# decomposition, the declared melds' groups and the winds. The entry holds the decomposition
# itself, so its id stays its identity (a cheap key; ``_shapes`` hands back the same object for
# the same hand). Emptied when full: memory stays bounded.
_GROUP_MEMO: dict[tuple, tuple[Decomposition, dict[str, int], Predicates]] = {}
_GROUP_MEMO_SIZE = 1 << 14


def clear_caches() -> None:
    """Forget memoised results (for cold-start benchmarks; results never depend on them)."""
    _tiles_yaku.cache_clear()
    _situation_yaku.cache_clear()
    _CANDIDATES.clear()
    _GROUP_MEMO.clear()
    _shapes.cache_clear()
    _context.cache_clear()
    _meld.cache_clear()
    _tile.cache_clear()
    _tiles.cache_clear()


def _holding(predicates: Predicates, r: Reading, base: dict[str, int] | None = None
             ) -> dict[str, int]:
    """``base`` plus the yaku among ``predicates`` that hold for ``r``, with their
    multiplicity (``base`` itself, not a copy, when none holds: it is never modified)."""
    out = None
    for yid, pred in predicates:
        v = pred(r)
        if v:
            if out is None:
                out = dict(base) if base else {}
            out[yid] = int(v)
    if out is None:
        return base if base is not None else {}
    return out


# TILES and SITUATION yaku are memoised on all they may read, evaluated on a probe reading
# that carries nothing else (so a predicate reading more would see blanks, and tests fail).

_NO_CONTEXT = WinContext()


@lru_cache(maxsize=None)
def _tiles_yaku(shape: str, suits: int, ranks: int) -> dict[str, int]:
    """At most 4 × 32 × 1024 keys."""
    probe = Reading(shape, (), None, None, None, (), (), (), 0, -1, False, (0,) * 34, (),
                    suits, ranks, (), (), 0, _NO_CONTEXT)
    return _holding(_TILES_YAKU[shape], probe)


@lru_cache(maxsize=4096)
def _situation_yaku(shape: str, ctx: WinContext, single_wait: bool, open_melds: int
                    ) -> dict[str, int]:
    probe = Reading(shape, (), None, None, None, (), (), (), 0, -1, single_wait, (0,) * 34,
                    (), 0, 0, (), (), open_melds, ctx)
    return _holding(_SITUATION_YAKU[shape], probe)


def _shape_yaku(r: Reading) -> dict[str, int]:
    """TILES-, SITUATION- and HAND-scope yaku of ``r``'s shape: the same for every reading
    of that shape."""
    return {**_tiles_yaku(r.shape, r.suits, r.ranks),
            **_situation_yaku(r.shape, r.ctx, r.single_wait, r.open_melds),
            **_holding(_HAND_YAKU[r.shape], r)}


def _dropped(holding: dict[str, int]) -> set[str]:
    """RULES.md §9: every yaku that a holding yaku excludes (one pass: an excluded yaku
    still excludes)."""
    dropped: set[str] = set()
    for i in holding:
        ex = _EXCLUDES.get(i)
        if ex:
            dropped |= ex
    return dropped


def counted(holding: dict[str, int]) -> dict[str, int]:
    """The counted yaku of one reading: ids -> points, in rulebook order (RULES.md §9)."""
    dropped = _dropped(holding)
    return {i: _POINTS[i] * holding[i] for i in sorted(holding, key=_ORDER.get)
            if i not in dropped}


def _total(holding: dict[str, int]) -> int:
    """P of one reading's holding yaku: ``sum(counted(holding).values())`` without the
    ordering (the scorer compares readings with it; ``counted`` runs for the chosen one)."""
    excluded = [ex for i in holding if (ex := _EXCLUDES.get(i))]
    if not excluded:
        return sum([_POINTS[i] * v for i, v in holding.items()])
    dropped = frozenset().union(*excluded)
    return sum([_POINTS[i] * v for i, v in holding.items() if i not in dropped])


def holding_yaku(r: Reading) -> dict[str, int]:
    """Every yaku that holds for one reading, before exclusions (id -> multiplicity)."""
    return {y.id: n for y in YAKU.values() if (n := y(r))}


# --- validation ---------------------------------------------------------------------------

def _check(hand: Sequence[int], win_tile: int, melds: tuple[Meld, ...],
           ctx: WinContext) -> tuple[bytes, bytearray]:
    """Validate a query; return (13-tile concealed counts as bytes, counts of every tile)."""
    if len(melds) > 4:
        raise ValueError(f"{len(melds)} melds: a hand has at most 4")
    need = 13 - 3 * len(melds)
    if len(hand) != need:
        raise ValueError(f"the concealed hand has {len(hand)} tiles before the win; with "
                         f"{len(melds)} meld(s) it must have {need}")
    c13 = bytearray(34)
    try:
        for t in hand:
            c13[t] += 1
        ok = min(hand, default=0) >= 0 and 0 <= win_tile < 34
    except (IndexError, TypeError):
        ok = False
    if not ok or type(win_tile) is not int:
        bad = [t for t in (*hand, win_tile) if type(t) is not int or not 0 <= t < 34]
        raise ValueError(f"{bad[0]!r} is not a tile index (0–33)")
    total = c13.copy()
    total[win_tile] += 1
    for m in melds:
        if not isinstance(m, Meld):
            raise ValueError(f"{m!r} is not a Meld")
        for t in m.tiles:
            total[t] += 1
    if max(total) > 4:
        over = [tile_name(k) for k in range(34) if total[k] > 4]
        raise ValueError(f"more than four of {', '.join(over)} in hand, winning tile and "
                         f"melds")
    if ctx.lingshang and not any(m.is_kong for m in melds):
        raise ValueError("lingshang needs a kan meld: the winning tile is a kan replacement")
    if melds and (ctx.tianhu or ctx.dihu or ctx.renhu):
        which = "tianhu" if ctx.tianhu else "dihu" if ctx.dihu else "renhu"
        raise ValueError(f"{which} conflicts with melds: no call can precede it")
    if ctx.juezhang and c13[win_tile]:
        raise ValueError(f"juezhang conflicts with the hand: it holds {tile_name(win_tile)}, "
                         f"so the winning tile is not the last of its kind")
    if ctx.qianggang and total[win_tile] > 1:
        raise ValueError(f"qianggang conflicts with the tiles: the hand or melds hold "
                         f"{tile_name(win_tile)}, but the robbed kan needs the other three")
    return bytes(c13), total


# --- scoring ------------------------------------------------------------------------------

def readings(hand: Sequence[int], win_tile: int, melds: Sequence[Meld],
             ctx: WinContext) -> list[Reading]:
    """Every reading of the hand (RULES.md §6–§7), validated like ``score``; empty when the
    tiles form no winning shape."""
    facts, specials, decompositions = _analyse(hand, win_tile, tuple(melds), ctx)
    out = [facts.special(shape) for shape in specials]
    for d in decompositions:
        for p in d.placements:
            out.append(facts.standard(d, p))
    return out


def _analyse(hand: Sequence[int], win_tile: int, melds: tuple[Meld, ...], ctx: WinContext
             ) -> tuple[HandFacts, tuple[str, ...], tuple[Decomposition, ...]]:
    """Validate; find the special shapes and the standard decompositions (each with the
    placements of the winning tile); gather the hand-wide facts."""
    key, total = _check(hand, win_tile, melds, ctx)
    specials, decompositions = _shapes(key, win_tile)
    single = (bool(specials or decompositions)
              and not _second_wait(decompositions, win_tile, total)
              and _wait_count(key, len(melds), total, win_tile) == 1)
    return HandFacts.build(total, win_tile, single, melds, ctx), specials, decompositions


@lru_cache(maxsize=1 << 14)
def _shapes(key: bytes, win_tile: int) -> tuple[tuple[str, ...], tuple[Decomposition, ...]]:
    """The winning shapes of checked concealed counts (``key``, before the win) plus the
    winning tile: the special shapes and every standard decomposition with its placements.

    Memoised, as a pure function of the concealed tiles: the engine asks about the same
    hands again and again (a ron check on every discard that completes one).
    """
    c14 = bytearray(key)
    c14[win_tile] += 1
    key14 = bytes(c14)
    specials = _special_shapes(key14) if sum(key14) == 14 else ()
    return specials, tuple([Decomposition.build(pair, hand_melds, win_tile)
                            for pair, hand_melds in decompose_key(key14)])


def _wait_count(key: bytes, n_melds: int, total: bytearray, win_tile: int) -> int:
    """How many kinds the 13-tile hand waited on (RULES.md §7): its structural waits less the
    kinds held four times (``total`` counts the winning tile too)."""
    return sum(1 for t in structural_wait_kinds(key, n_melds)
               if total[t] - (t == win_tile) < 4)


def _second_wait(decompositions: tuple[Decomposition, ...], win_tile: int,
                 total: bytearray) -> bool:
    """A cheap proof that the hand had another wait besides the winning tile: a two-sided
    placement (the chow's other end) or a dual-pung one (the other pair), unless all four of
    that kind are held. Saves the full wait search for most hands."""
    for d in decompositions:
        for p in d.placements:
            if p.placement == LIANGMIAN:
                first = d.melds[p.index][1]
                other = first + 3 if win_tile == first else first - 1
            elif p.placement == SHUANGPENG:
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
    facts, specials, decompositions = _analyse(hand, win_tile, melds, ctx)
    found = [(_shape_yaku(r), r) for r in map(facts.special, specials)]
    shape_yaku = None
    meets = (_MEETS_QUADS[min(len(facts.quads), 3)] & _MEETS_KONGS[len(facts.kongs)]
             & _MEETS_SUITS[_SUIT_COUNT[facts.suits & NUMBER_SUITS]] & _MEETS_RANKS[facts.ranks])
    for d in decompositions:
        group_yaku = None
        for p in d.placements:
            r = facts.standard(d, p)
            if group_yaku is None:
                if shape_yaku is None:
                    shape_yaku = _shape_yaku(r)
                memo_key = (id(d), facts.meld_groups, ctx.seat_wind, ctx.round_wind)
                memo = _GROUP_MEMO.get(memo_key)
                if memo is None:
                    pungs = r.pungs
                    group_preds, placement_preds = _candidates(
                        meets & _MEETS_CHOWS[len(r.chows)] & _MEETS_PAIR[d.pair]
                        & _MEETS_HONOR_PUNGS[len(pungs) - bisect_left(pungs, 27)])
                    if len(_GROUP_MEMO) >= _GROUP_MEMO_SIZE:
                        _GROUP_MEMO.clear()
                    memo = _GROUP_MEMO[memo_key] = (d, _holding(group_preds, r),
                                                    placement_preds)
                _, group_only, placement_preds = memo
                group_yaku = {**shape_yaku, **group_only} if group_only else shape_yaku
            found.append((_holding(placement_preds, r, group_yaku), r))
    if not found:
        raise NotWinningHand(f"{_describe(hand, win_tile, melds)} forms no winning shape")
    h, r = found[0]
    if len(found) > 1:              # the first reading of the highest P (most hands have one)
        best_p = -1
        for holding, reading in found:
            p = _total(holding)
            if p > best_p:
                best_p, h, r = p, holding, reading
    yaku = counted(h)
    return ScoreResult(sum(yaku.values()), yaku, r.shape, r)


def _describe(hand: Sequence[int], win_tile: int, melds: tuple[Meld, ...]) -> str:
    text = f"{tiles_to_str(hand)} + {tile_name(win_tile)}"
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
    dealer bonus.
    """
    tiles = _tiles(hand) if isinstance(hand, str) else tuple(hand)
    win = _tile(win_tile) if isinstance(win_tile, str) else win_tile
    if not melds:
        melds = ()
    elif isinstance(melds, str):
        melds = [m for m in melds.split(",") if m.strip()]
    args = (tsumo, seat_wind, round_wind, lingshang, haidi, hedi, qianggang, juezhang, tianhu,
            dihu, renhu)
    try:
        ctx = _context(*args)
    except TypeError:                       # an unhashable argument (parse_wind names a bad wind)
        ctx = _context.__wrapped__(*args)
    if melds:
        melds = tuple([_meld(m) if isinstance(m, str) else parse_meld(m) for m in melds])
    return score(tiles, win, melds, ctx)


@lru_cache(maxsize=4096)
def _context(tsumo: bool, seat_wind: str | int, round_wind: str | int, *flags: bool
             ) -> WinContext:
    """WinContext for score_hand's arguments (few distinct ones: memoised; arguments equal
    as keys, like 1 and True, give equal contexts since the flags are made bools here)."""
    names = ("lingshang", "haidi", "hedi", "qianggang", "juezhang", "tianhu", "dihu", "renhu")
    return WinContext(bool(tsumo), parse_wind(seat_wind), parse_wind(round_wind),
                      **{name: bool(flag) for name, flag in zip(names, flags)})


@lru_cache(maxsize=1024)
def _meld(text: str) -> Meld:
    return parse_meld(text)


@lru_cache(maxsize=256)
def _tile(text: str) -> int:
    return parse_tile(text)


@lru_cache(maxsize=1 << 16)
def _tiles(text: str) -> tuple[int, ...]:
    """Hands recur (replays, tests, the CLI); parsing is a tenth of a cold score_hand."""
    return tuple(parse_tiles(text))
