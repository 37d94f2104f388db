"""Scoring a winning hand: every reading × every yaku → exclusions → the best total.

RULES.md §6: when the tiles can be read several ways (shapes, decompositions, which group the
winning tile completes), the reading with the highest P counts. §9: for one reading, collect
every yaku that holds, then drop each yaku that another holding yaku excludes.

Speed (the engine scores on every ron check): each predicate runs at its declared scope
(``Yaku.scope``) — tile-content yaku once per (shape, suits, ranks), memoised; other hand-wide
yaku once per shape; decomposition yaku once per decomposition; placement yaku once per
reading — and is skipped when the reading lacks the chows/pungs/honor pungs/quads it declares
as a minimum. ``tests/scoring/test_properties.py`` checks all of this against the plain
definition. The wait search (for 独听/假独) is skipped when a placement already proves a
second wait.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable, Sequence

from mjenv.analysis import (decompose_standard, is_knitted, is_seven_pairs,
                            is_thirteen_orphans, wait_kinds)
from mjenv.scoring.reading import (KNITTED, LIANGMIAN, SEVEN_PAIRS, SHAPES, SHUANGPENG, STANDARD,
                                   THIRTEEN_ORPHANS, Group, HandFacts, Reading, WinContext,
                                   placements)
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


def _by_minimum(scope: str) -> dict[tuple[int, int, int], Predicates]:
    """Standard-shape yaku of ``scope`` per (chows, honor pungs, quads) of a reading (it has
    4 − chows pungs), leaving out those whose declared minimum the reading misses."""
    return {(c, h, q): _predicates(
        y for y in YAKU.values()
        if y.scope == scope and y.chows <= c and y.pungs <= 4 - c
        and y.honor_pungs <= h and y.quads <= q)
        for c in range(5) for h in range(5 - c) for q in range(4)}


_GROUP_YAKU = _by_minimum(GROUPS)
_PLACEMENT_YAKU = _by_minimum(PLACEMENT)


def clear_caches() -> None:
    """Forget memoised results (for cold-start benchmarks; results never depend on them)."""
    _tiles_yaku.cache_clear()
    _situation_yaku.cache_clear()
    _context.cache_clear()
    _meld.cache_clear()
    _tile.cache_clear()
    _tiles.cache_clear()


def _holding(predicates: Predicates, r: Reading) -> dict[str, int]:
    """The yaku among ``predicates`` that hold for ``r``, with their multiplicity."""
    out = {}
    for yid, pred in predicates:
        v = pred(r)
        if v:
            out[yid] = int(v)
    return out


# TILES and SITUATION yaku are memoised on all they may read, evaluated on a probe reading
# that carries nothing else (so a predicate reading more would see blanks, and tests fail).

@lru_cache(maxsize=None)
def _tiles_yaku(shape: str, suits: int, ranks: int) -> dict[str, int]:
    """At most 4 × 32 × 1024 keys."""
    probe = Reading(shape, (), None, None, None, (), (), (), 0, -1, False, (0,) * 34, (),
                    suits, ranks, (), (), 0, WinContext())
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
    dropped = _dropped(holding)
    return sum(_POINTS[i] * v for i, v in holding.items() if i not in dropped)


def holding_yaku(r: Reading) -> dict[str, int]:
    """Every yaku that holds for one reading, before exclusions (id -> multiplicity)."""
    return {y.id: n for y in YAKU.values() if (n := y(r))}


# --- validation ---------------------------------------------------------------------------

def _check(hand: Sequence[int], win_tile: int, melds: tuple[Meld, ...],
           ctx: WinContext) -> tuple[list[int], list[int]]:
    """Validate a query; return (13-tile concealed counts, counts of every tile)."""
    if len(melds) > 4:
        raise ValueError(f"{len(melds)} melds: a hand has at most 4")
    need = 13 - 3 * len(melds)
    if len(hand) != need:
        raise ValueError(f"the concealed hand has {len(hand)} tiles before the win; with "
                         f"{len(melds)} meld(s) it must have {need}")
    c13 = [0] * 34
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
    return c13, total


# --- scoring ------------------------------------------------------------------------------

Decomposition = tuple[int, tuple[tuple[str, int], ...], list[tuple[str, "int | None"]]]


def readings(hand: Sequence[int], win_tile: int, melds: Sequence[Meld],
             ctx: WinContext) -> list[Reading]:
    """Every reading of the hand (RULES.md §6–§7), validated like ``score``; empty when the
    tiles form no winning shape."""
    facts, specials, decompositions = _analyse(hand, win_tile, tuple(melds), ctx)
    out = [facts.special(shape) for shape in specials]
    for pair, hand_melds, places in decompositions:
        for placement, index in places:
            out.append(facts.standard(pair, hand_melds, placement, index))
    return out


def _analyse(hand: Sequence[int], win_tile: int, melds: tuple[Meld, ...], ctx: WinContext
             ) -> tuple[HandFacts, list[str], list[Decomposition]]:
    """Validate; find the special shapes and the standard decompositions (each with the
    placements of the winning tile); gather the hand-wide facts."""
    c13, total = _check(hand, win_tile, melds, ctx)
    c14 = c13.copy()
    c14[win_tile] += 1
    specials = [] if melds else _special_shapes(c14)
    decompositions = [(pair, hand_melds, placements(pair, hand_melds, win_tile))
                      for pair, hand_melds in decompose_standard(c14)]
    single = (not _second_wait(decompositions, win_tile, total)
              and len(wait_kinds(c13, melds)) == 1)
    return HandFacts.build(total, win_tile, single, melds, ctx, hand), specials, decompositions


def _second_wait(decompositions: list[Decomposition], win_tile: int, total: list[int]) -> bool:
    """A cheap proof that the hand had another wait besides the winning tile: a two-sided
    placement (the chow's other end) or a dual-pung one (the other pair), unless all four of
    that kind are held. Saves the full wait search for most hands."""
    for pair, hand_melds, places in decompositions:
        for placement, index in places:
            if placement == LIANGMIAN:
                first = hand_melds[index][1]
                other = first + 3 if win_tile == first else first - 1
            elif placement == SHUANGPENG:
                other = pair
            else:
                continue
            if total[other] < 4:
                return True
    return False


def _special_shapes(c14: list[int]) -> list[str]:
    """Seven pairs, knitted, thirteen orphans (a concealed hand), tried only when the number
    of distinct kinds fits (7, 14, 13)."""
    kinds = 34 - c14.count(0)
    if kinds == 7:
        return [SEVEN_PAIRS] if is_seven_pairs(c14) else []
    if kinds == 14:
        return [KNITTED] if is_knitted(c14) else []
    if kinds == 13:
        return [THIRTEEN_ORPHANS] if is_thirteen_orphans(c14) else []
    return []


def score(hand: Sequence[int], win_tile: int, melds: Sequence[Meld],
          ctx: WinContext) -> ScoreResult:
    """Score a win (tile ints; ``hand`` = the concealed tiles before the win).

    Raises ``NotWinningHand`` when the tiles form no winning shape and ``ValueError`` for an
    inconsistent query (tile counts, hand size, flags that contradict the tiles).
    """
    melds = tuple(melds)
    facts, specials, decompositions = _analyse(hand, win_tile, melds, ctx)
    best_p = -1
    best: tuple[dict[str, int], Reading] | None = None
    for shape in specials:
        r = facts.special(shape)
        h = _shape_yaku(r)
        p = _total(h)
        if p > best_p:
            best_p, best = p, (h, r)
    hand_yaku = None
    n_quads = min(len(facts.quads), 3)
    for pair, hand_melds, places in decompositions:
        group_yaku = key = None
        for placement, index in places:
            r = facts.standard(pair, hand_melds, placement, index)
            if hand_yaku is None:
                hand_yaku = _shape_yaku(r)
            if group_yaku is None:
                honor_pungs = len(r.pungs) - bisect_left(r.pungs, 27)   # pungs are sorted
                key = (len(r.chows), honor_pungs, n_quads)
                group_yaku = {**hand_yaku, **_holding(_GROUP_YAKU[key], r)}
            h = _holding(_PLACEMENT_YAKU[key], r)
            h = {**group_yaku, **h} if h else group_yaku
            p = _total(h)
            if p > best_p:
                best_p, best = p, (h, r)
    if best is None:
        raise NotWinningHand(f"{_describe(hand, win_tile, melds)} forms no winning shape")
    h, r = best
    return ScoreResult(best_p, counted(h), r.shape, r)


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
    args = (bool(tsumo), seat_wind, round_wind, bool(lingshang), bool(haidi), bool(hedi),
            bool(qianggang), bool(juezhang), bool(tianhu), bool(dihu), bool(renhu))
    try:
        ctx = _context(*args)
    except TypeError:                       # an unhashable wind: let parse_wind name it
        ctx = _context.__wrapped__(*args)
    if melds:
        melds = tuple([_meld(m) if isinstance(m, str) else parse_meld(m) for m in melds])
    return score(tiles, win, melds, ctx)


@lru_cache(maxsize=4096)
def _context(tsumo: bool, seat_wind: str | int, round_wind: str | int, *flags: bool
             ) -> WinContext:
    """WinContext for score_hand's arguments (few distinct ones: memoised)."""
    names = ("lingshang", "haidi", "hedi", "qianggang", "juezhang", "tianhu", "dihu", "renhu")
    return WinContext(tsumo, parse_wind(seat_wind), parse_wind(round_wind),
                      **dict(zip(names, flags)))


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
