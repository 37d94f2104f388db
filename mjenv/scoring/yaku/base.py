"""The ``Yaku`` record and the ``yaku`` decorator every category module uses.

A yaku is data plus one check: its predicate takes a ``Reading`` and returns how many times
the yaku holds (0 = not at all; only 三元牌 ever returns more than 1, once per dragon pung).

``scope`` declares what of the reading the predicate reads, so the scorer can evaluate it as
rarely as possible: ``SUITS`` reads only ``shape`` and ``suits`` (a table built at import),
``TILES`` only ``shape``, ``suits`` and ``ranks``, ``SITUATION`` only ``shape``, the ``ctx``
flags (not the winds), ``single_wait`` and ``open_melds`` (both memoised on those);
``HAND`` anything hand-wide: tile counts, declared melds, flags, winds, waits (once per hand
and shape); ``GROUPS`` also the groups and the pair (once per decomposition);
``PLACEMENT`` also the winning tile's placement and the 暗刻 status that depends on it (once
per reading).

``chows``, ``pungs`` (kongs included), ``wind_pungs``, ``dragon_pungs``, ``kongs`` and
``quads`` (``Reading.quads``) are the least a standard reading must have for the yaku to hold,
``suits`` the least number of number suits and ``ranks`` the number ranks (1–9) its tiles must
show; ``pairs`` the kinds its pair may be (a 34-bit mask; every kind unless declared);
``twin_chows`` the least number of chows equal to an earlier one (chows minus distinct chows: 1
for two identical chows), ``adjacent_pungs`` the least number of number pungs t whose t+1 (same
suit) is a pung too, ``concealed_pungs`` the least 暗刻, ``chow_suits`` the least number suits
holding a chow and ``suit_chows`` the least distinct chows in one suit; ``several_waits`` marks
a yaku that holds only when the 13-tile hand had two or more waits (假独). ``within_ranks`` and
``within_suits`` are maxima, for any shape: the number ranks (1–9) and the ``Reading.suits``
bits the tiles may show at most; ``most_suits`` the most number suits they may show;
``most_numbers`` the most "numbers" (序数: distinct number ranks, plus one for winds and one for
dragons) they may use; ``rank_span`` the most ranks, lowest to highest, the number tiles may
span (全带: every set holds one rank, so 5). ``placements`` are the placements of the winning
tile (``Reading.placement``) a ``PLACEMENT`` yaku may hold for. The scorer skips a predicate
whose minimum or maximum the reading misses, so most predicates never run on a given hand.
``exact`` says the declarations are the whole definition (对碰: placed 双碰): the yaku holds
whenever a reading meets them, and the scorer counts it without calling the predicate.
Tests check every declaration against full evaluation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from mjenv.scoring.reading import (BIANZHANG, DANDIAO, DRAGON, KANZHANG, KNITTED, LIANGMIAN,
                                   NUMBER_SUITS, SEVEN_PAIRS, SHAPES, SHUANGPENG, STANDARD,
                                   THIRTEEN_ORPHANS, WIND, Reading)

SUITS, TILES, SITUATION, HAND = "suits", "tiles", "situation", "hand"
GROUPS, PLACEMENT = "groups", "placement"

# RULES.md §8 shape column: S, 7, K, O, any.
S = frozenset({STANDARD})

# Pair kinds, for ``pairs``: number tiles, terminals, terminals and honors, winds, dragons,
# number tiles of the ranks given.
NUMBERS = range(27)
TERMINALS = tuple(t for t in NUMBERS if t % 9 in (0, 8))
OUTSIDE = TERMINALS + tuple(range(27, 34))
WINDS = range(27, 31)
DRAGONS = range(31, 34)


# ``within_ranks``/``within_suits`` defaults (every rank 1–9, every suit bit) and the usual
# suit maxima.
ALL_RANKS = sum(1 << r for r in range(1, 10))
ALL_SUITS = NUMBER_SUITS | WIND | DRAGON
NUMBERS_ONLY = NUMBER_SUITS
HONORS_ONLY = WIND | DRAGON
PLACEMENTS = frozenset({LIANGMIAN, BIANZHANG, KANZHANG, DANDIAO, SHUANGPENG})


def of_ranks(*ranks: int) -> tuple[int, ...]:
    """The number tiles of ``ranks`` (1–9) in every suit."""
    return tuple(t for t in NUMBERS if t % 9 + 1 in ranks)

P7 = frozenset({SEVEN_PAIRS})
K = frozenset({KNITTED})
O = frozenset({THIRTEEN_ORPHANS})
ANY = frozenset(SHAPES)


@dataclass(frozen=True)
class Yaku:
    """One row of RULES.md §8."""

    id: str
    name_zh: str
    name_en: str
    points: int
    shapes: frozenset[str]
    excludes: frozenset[str]
    predicate: Callable[[Reading], int]
    scope: str
    chows: int = 0
    pungs: int = 0
    wind_pungs: int = 0
    dragon_pungs: int = 0
    quads: int = 0
    suits: int = 0
    ranks: int = 0      # ``Reading.ranks`` bits that must all be set
    pairs: int = (1 << 34) - 1      # bit t: the pair may be tile t
    kongs: int = 0
    twin_chows: int = 0
    adjacent_pungs: int = 0
    concealed_pungs: int = 0        # 暗刻 (``Reading.concealed_pungs``)
    chow_suits: int = 0             # number suits holding a chow
    suit_chows: int = 0             # distinct chows in one suit
    several_waits: bool = False     # holds only if the 13-tile hand had two or more waits
    within_ranks: int = ALL_RANKS   # ``Reading.ranks`` bits that may be set
    within_suits: int = ALL_SUITS   # ``Reading.suits`` bits that may be set
    most_suits: int = 3             # number suits that may be present
    most_numbers: int = 11          # 序数 that may be used (ranks, winds, dragons)
    rank_span: int = 9              # ranks, lowest to highest, the number tiles may span
    placements: frozenset[str] = PLACEMENTS     # ``Reading.placement``s it may hold for
    exact: bool = False             # the declarations are the whole definition

    def __call__(self, reading: Reading) -> int:
        """Times the yaku holds for ``reading`` (0 when the shape does not qualify)."""
        return int(self.predicate(reading)) if reading.shape in self.shapes else 0


def yaku(id: str, name_zh: str, name_en: str, points: int, shapes: frozenset[str], *,
         excludes: Iterable[str] = (), scope: str = GROUPS, chows: int = 0, pungs: int = 0,
         wind_pungs: int = 0, dragon_pungs: int = 0, quads: int = 0, suits: int = 0,
         ranks: Iterable[int] = (), pairs: Iterable[int] = range(34), kongs: int = 0,
         twin_chows: int = 0, adjacent_pungs: int = 0, concealed_pungs: int = 0,
         chow_suits: int = 0, suit_chows: int = 0, several_waits: bool = False,
         within_ranks: Iterable[int] = range(1, 10), within_suits: int = ALL_SUITS,
         most_suits: int = 3, most_numbers: int = 11, rank_span: int = 9,
         placements: Iterable[str] = PLACEMENTS, exact: bool = False
         ) -> Callable[[Callable[[Reading], int]], Yaku]:
    """Decorator turning a predicate into its ``Yaku`` record (``ranks`` and ``within_ranks``
    as numbers 1–9, ``pairs`` as tiles, ``within_suits`` as ``Reading.suits`` bits)."""
    if scope not in (SUITS, TILES, SITUATION, HAND, GROUPS, PLACEMENT):
        raise ValueError(f"unknown yaku scope {scope!r}")
    if not set(placements) <= PLACEMENTS or (set(placements) != PLACEMENTS and scope != PLACEMENT):
        raise ValueError(f"{id}: placements {sorted(placements)} (only a PLACEMENT yaku may "
                         f"name some of {sorted(PLACEMENTS)})")
    if exact and (scope not in (GROUPS, PLACEMENT) or most_numbers != 11 or suit_chows in (1, 2)):
        raise ValueError(f"{id}: only a GROUPS or PLACEMENT yaku without most_numbers (or "
                         f"suit_chows 1–2, which the candidate masks do not tell apart) can be "
                         f"exact (its declarations decide it in the candidate masks)")
    rank_bits = sum(1 << r for r in set(ranks))
    pair_bits = sum(1 << t for t in set(pairs))
    within_rank_bits = sum(1 << r for r in set(within_ranks))

    def wrap(fn: Callable[[Reading], int]) -> Yaku:
        return Yaku(id, name_zh, name_en, points, shapes, frozenset(excludes), fn, scope,
                    chows, pungs, wind_pungs, dragon_pungs, quads, suits, rank_bits, pair_bits,
                    kongs, twin_chows, adjacent_pungs, concealed_pungs, chow_suits,
                    suit_chows, several_waits,
                    within_rank_bits, within_suits,
                    most_suits, most_numbers, rank_span, frozenset(placements), exact)

    return wrap

