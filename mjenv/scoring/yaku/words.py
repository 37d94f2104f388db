"""Words the predicates share, so that each predicate reads like its rulebook sentence.

Most are about melds across suits and ranks. A set of kinds is an int, bit t for kind t
(``Reading.chow_bits``: the kinds chows start on; ``Reading.pung_bits``: the kinds of the pungs
and kongs); so each number suit is a lane of 9 bits (m: bits 0–8, p: 9–17, s: 18–26, rank k at
bit k − 1 of its lane), and a set of ranks is a 9-bit mask (``RANKS[1, 4, 7]``). These words are
definitions of the vocabulary, not of any yaku; ``tests/scoring/test_words.py`` holds each to a
plain statement of it.
"""

from __future__ import annotations

from typing import Iterable

from mjenv.tiles import EAST, NUMBERS
from mjenv.scoring.reading import HONOR_SUITS, NUMBER_SUITS, Reading
from mjenv.scoring.views import Suits, Tiles

_LANE = 0x1FF                    # the nine ranks of one suit


class _RankMasks(dict):
    """``RANKS[1, 4, 7]``: the 9-bit mask of the given ranks (made once per tuple)."""

    def __missing__(self, ranks: int | tuple[int, ...]) -> int:
        mask = sum(1 << k - 1 for k in ((ranks,) if isinstance(ranks, int) else ranks))
        self[ranks] = mask
        return mask


RANKS = _RankMasks()


class _TilesOfRanks(dict):
    """``OF_RANKS[1, 3, 5]``: the set (bits) of the number tiles of the given ranks."""

    def __missing__(self, ranks: int | tuple[int, ...]) -> int:
        wanted = (ranks,) if isinstance(ranks, int) else ranks
        self[ranks] = tiles = sum(1 << t for t in NUMBERS if t % 9 + 1 in wanted)
        return tiles


OF_RANKS = _TilesOfRanks()


def suit(t: int) -> int:
    """The suit of number tile ``t``: 0 m, 1 p, 2 s."""
    return t // 9


def rank(t: int) -> int:
    """The rank 1–9 of number tile ``t``."""
    return t % 9 + 1


def kinds(tiles: Iterable[int]) -> int:
    """The set of ``tiles`` as bits."""
    return sum(1 << t for t in set(tiles))


def within(bits: int, allowed: int) -> bool:
    """Whether every kind of the set ``bits`` is in the set ``allowed``."""
    return not bits & ~allowed


def lanes(bits: int) -> tuple[int, int, int]:
    """The ranks (9-bit masks) that ``bits`` holds in m, p and s."""
    return bits & _LANE, bits >> 9 & _LANE, bits >> 18 & _LANE


def in_one_suit(bits: int, ranks: int) -> bool:
    """Whether one number suit holds every rank of ``ranks`` (a mask) in ``bits``."""
    return (bits & ranks == ranks or bits >> 9 & ranks == ranks
            or bits >> 18 & ranks == ranks)


def suits_with(bits: int, ranks: int) -> int:
    """How many number suits hold every rank of ``ranks`` (a mask) in ``bits``."""
    return ((bits & ranks == ranks) + (bits >> 9 & ranks == ranks)
            + (bits >> 18 & ranks == ranks))


def stepped(bits: int, n: int, k: int) -> bool:
    """Whether one number suit holds ranks r, r+k, …, r+(n−1)k in ``bits``."""
    run = bits
    for i in range(1, n):
        run &= bits >> i * k
    return bool(run & _RUN_STARTS[n, k])


# Per (n, k): the number tiles t whose t, t+k, …, t+(n−1)k stay in t's suit.
_RUN_STARTS = {(n, k): sum(1 << t for t in NUMBERS if rank(t) + (n - 1) * k <= 9)
               for n in (2, 3, 4) for k in (1, 2, 3)}


def across_suits(bits: int, k: int) -> bool:
    """Whether ``bits`` holds ranks r, r+k and r+2k one in each number suit, in any order of
    the suits (k = 0: the same rank in all three)."""
    m, p, s = lanes(bits)
    return bool(m & p >> k & s >> 2 * k or m & s >> k & p >> 2 * k
                or p & m >> k & s >> 2 * k or p & s >> k & m >> 2 * k
                or s & m >> k & p >> 2 * k or s & p >> k & m >> 2 * k)


def beside(t: int, n: int) -> tuple[int, ...]:
    """The sets of the ``n`` kinds just below and of the ``n`` just above number tile ``t`` in
    its suit (those that fit)."""
    return _BESIDE[t, n]


_BESIDE = {(t, n): tuple(sum(1 << u for u in run) for run in
                         (range(t - n, t), range(t + 1, t + 1 + n))
                         if all(suit(u) == suit(t) and u in NUMBERS for u in run))
           for t in NUMBERS for n in (2, 3)}


def same_rank_elsewhere(t: int) -> int:
    """The set of the kinds of number tile ``t``'s rank in the two other suits."""
    return _ELSEWHERE[t]


_ELSEWHERE = tuple(sum(1 << u for u in NUMBERS if rank(u) == rank(t) and u != t)
                   for t in NUMBERS)


def in_two_suits(bits: int) -> int:
    """The ranks (mask) that two or more number suits hold in ``bits``."""
    m, p, s = lanes(bits)
    return m & p | m & s | p & s


def seat_wind(r: Reading) -> int:
    """The winner's seat wind, as a tile (东 … 北)."""
    return EAST + r.ctx.seat_wind


def round_wind(r: Reading) -> int:
    """The round wind, as a tile."""
    return EAST + r.ctx.round_wind


def no_honors(r: Tiles | Reading) -> bool:
    return not r.suits & HONOR_SUITS


def number_suits(r: Suits | Reading) -> int:
    """How many of the three number suits the tiles show."""
    return len(r.suits & NUMBER_SUITS)


def only_ranks(r: Tiles | Reading, ranks: range | tuple[int, ...]) -> bool:
    """Number tiles of the given ranks only (RULES.md §8: "... only" means no honors)."""
    return no_honors(r) and r.ranks.issubset(ranks)
