"""Scoring a winning hand: every reading × every yaku → exclusions → the best total.

§7: the hand is read every way it can be — each winning shape (standard, seven pairs, knitted,
thirteen orphans) and, in the standard shape, each decomposition with each group the winning
tile can complete (``mjenv.analysis`` finds them; ``mjenv.scoring.reading`` assembles them).
Whether the 13-tile hand had a single wait is its wait set (``mjenv.analysis.wait_kinds``).

§9: for one reading, every yaku that holds is collected (``holding_yaku``), then each yaku that
another holding yaku excludes is dropped (``counted``).

§6: the reading with the highest total P counts (the first such reading on a tie).

``score`` is the int-level entry point (the game engine's), ``score_hand`` the string-level
public API. Evaluating the predicates is ``mjenv.scoring.tiers``' job, which memoises them
without changing any result.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from mjenv.scoring import tiers
from mjenv.scoring.arguments import check_flags, hand_argument, tile_argument
from mjenv.scoring.check import check_query
from mjenv.scoring.context import WinContext
from mjenv.scoring.reading import Group, Reading, readings_of
from mjenv.scoring.yaku import YAKU
from mjenv.tiles import Meld, parse_meld, parse_tile, parse_tiles, parse_wind, tiles_to_str


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


# --- §9: exclusions -------------------------------------------------------------------------

_IDS = tuple(YAKU)
_POINTS = tuple(y.points for y in YAKU.values())
# Per yaku (bit i): the bits of the yaku it excludes.
_EXCLUDED_BY = tuple(sum(1 << _IDS.index(e) for e in y.excludes) for y in YAKU.values())
_COUNTED: dict[int, tuple[int, dict[str, int]]] = {}       # memo per holding mask


def _counted(mask: int, multi: tiers.Multi) -> tuple[int, dict[str, int]]:
    """P and the counted yaku (id → points, rulebook order) of the holding yaku ``mask``
    (with multiplicities ``multi``): drop every yaku a holding yaku excludes (RULES.md §9)."""
    found = None if multi else _COUNTED.get(mask)
    if found is None:
        holding = _bits(mask)
        dropped = 0
        for i in holding:
            dropped |= _EXCLUDED_BY[i]
        yaku = {_IDS[i]: _POINTS[i] for i in holding if not dropped >> i & 1}
        for i, n in multi:
            if i in holding and not dropped >> i & 1:
                yaku[_IDS[i]] = _POINTS[i] * n
        found = sum(yaku.values()), yaku
        if not multi:
            if len(_COUNTED) >= 1 << 14:
                _COUNTED.clear()
            _COUNTED[mask] = found
    return found


def _bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def holding_yaku(r: Reading) -> dict[str, int]:
    """Every yaku that holds for one reading, before exclusions (id → times it holds), each
    predicate called on ``r`` itself: the plain definition the scorer's memos are held to."""
    return {y.id: n for y in YAKU.values() if (n := y(r))}


def counted(holding: dict[str, int]) -> dict[str, int]:
    """The counted yaku of one reading (``holding``: id → times it holds): ids → points, in
    rulebook order (RULES.md §9)."""
    mask = sum(1 << _IDS.index(i) for i in holding)
    return dict(_counted(mask, tuple((_IDS.index(i), n) for i, n in holding.items() if n > 1))[1])


def clear_caches() -> None:
    """Forget memoised results (for cold-start benchmarks; results never depend on them)."""
    _COUNTED.clear()
    _context.cache_clear()
    tiers.clear_caches()


# --- §7 and §6: the readings and the best of them -----------------------------------------

def readings(hand: Sequence[int], win_tile: int, melds: Sequence[Meld],
             ctx: WinContext) -> list[Reading]:
    """Every reading of the hand (RULES.md §6–§7), checked like ``score``; empty when the tiles
    form no winning shape."""
    melds = tuple(melds)
    return readings_of(*check_query(hand, win_tile, melds, ctx), win_tile, melds, ctx)


def score(hand: Sequence[int], win_tile: int, melds: Sequence[Meld],
          ctx: WinContext) -> ScoreResult:
    """Score a win (tile ints; ``hand`` = the concealed tiles before the win).

    Raises ``NotWinningHand`` when the tiles form no winning shape and ``ValueError`` for an
    inconsistent query (tile counts, hand size, flags that contradict the tiles).
    """
    best, best_points = None, -1
    for r in readings(hand, win_tile, melds, ctx):
        points, yaku = _counted(*tiers.holding(r))
        if points > best_points:
            best, best_points, best_yaku = r, points, yaku
    if best is None:
        text = f"{tiles_to_str(hand)} + {tiles_to_str([win_tile])}"
        raise NotWinningHand(f"{text}{' with ' if melds else ''}{', '.join(map(str, melds))} "
                             f"forms no winning shape")
    return ScoreResult(best_points, dict(best_yaku), best.shape, best)


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
    tiles = parse_tiles(hand) if isinstance(hand, str) else list(hand)
    win = parse_tile(win_tile) if isinstance(win_tile, str) else win_tile
    if isinstance(melds, str):
        melds = [m for m in melds.split(",") if m.strip()]
    declared = tuple(map(parse_meld, melds or ()))
    try:
        ctx = _context(tsumo, seat_wind, round_wind, lingshang, haidi, hedi, qianggang,
                       juezhang, tianhu, dihu, renhu)
    except TypeError:           # an unhashable argument: parse_wind names the bad wind
        ctx = _context.__wrapped__(tsumo, seat_wind, round_wind, lingshang, haidi, hedi,
                                   qianggang, juezhang, tianhu, dihu, renhu)
    return score(tiles, win, declared, ctx)


@lru_cache(maxsize=1024)
def _context(tsumo: bool, seat_wind: str | int, round_wind: str | int,
             *flags: bool) -> WinContext:
    """The WinContext of score_hand's arguments, made once per distinct arguments (they are
    immutable, and few distinct ones occur; arguments equal as keys, like 1 and True, give
    equal contexts since the flags are made bools here)."""
    return WinContext(bool(tsumo), parse_wind(seat_wind), parse_wind(round_wind),
                      *map(bool, flags))
