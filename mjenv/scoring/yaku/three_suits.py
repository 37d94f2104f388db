"""三色型 three suits (RULES.md §8): the same or stepped melds across the three suits.

Tiles are ints (suit*9 + rank-1): ``t // 9`` is the suit, ``t % 9`` the rank index.
"""

from __future__ import annotations

from mjenv.scoring.reading import Reading
from mjenv.scoring.yaku.base import GROUPS, NUMBERS, NUMBERS_ONLY, S, of_ranks, yaku


_RANKS = 0x1FF      # one bit per rank of one suit


def _one_in_each_suit(bits: int, steps: tuple[int, ...]) -> bool:
    """Three melds (given as ``Reading.chow_bits`` or ``pung_bits``), one in each suit, whose
    ranks are i, i+k, i+2k for a k in ``steps`` (0: the same rank), in any order of the suits:
    per suit a 9-bit rank mask, shifted so that the three ranks line up."""
    m, p, s = bits & _RANKS, bits >> 9 & _RANKS, bits >> 18 & _RANKS
    for k in steps:
        if k == 0:
            if m & p & s:
                return True
        elif (m & p >> k & s >> 2 * k or m & s >> k & p >> 2 * k or p & m >> k & s >> 2 * k
              or p & s >> k & m >> 2 * k or s & m >> k & p >> 2 * k or s & p >> k & m >> 2 * k):
            return True
    return False


@yaku("sanse_xiao_tongke", "三色小同刻", "Little Triple Pung", 6, S, scope=GROUPS, pungs=2,
      suits=3, pairs=NUMBERS)
def sanse_xiao_tongke(r: Reading) -> bool:
    """Pungs of rank r in two suits, the pair of rank r in the third."""
    if r.pair >= 27:
        return False
    rank, suit = r.pair % 9, r.pair - r.pair % 9
    return all(r.pung_bits >> (b + rank) & 1 for b in (0, 9, 18) if b != suit)


@yaku("sanse_tongke", "三色同刻", "Triple Pung", 10, S, scope=GROUPS, pungs=3, suits=3)
def sanse_tongke(r: Reading) -> bool:
    return _one_in_each_suit(r.pung_bits, (0,))


@yaku("sanse_lianke", "三色连刻", "Mixed Shifted Pungs", 6, S, scope=GROUPS, pungs=3,
      suits=3)
def sanse_lianke(r: Reading) -> bool:
    """Pungs of ranks r, r+1, r+2, one in each suit."""
    return _one_in_each_suit(r.pung_bits, (1,))


@yaku("sanxiangfeng", "三相逢", "Mixed Triple Chow", 6, S, excludes=("jingtong",),
      scope=GROUPS, chows=3, suits=3, chow_suits=3)
def sanxiangfeng(r: Reading) -> bool:
    return _one_in_each_suit(r.chow_bits, (0,))


@yaku("sanse_sanbugao", "三色三步高", "Mixed Shifted Chows", 4, S, scope=GROUPS, chows=3,
      suits=3, chow_suits=3)
def sanse_sanbugao(r: Reading) -> bool:
    """Chows starting r, r+k, r+2k (k = 1 or 2), one in each suit."""
    return _one_in_each_suit(r.chow_bits, (1, 2))


@yaku("hualong", "花龙", "Mixed Straight", 4, S, scope=GROUPS, chows=3, suits=3,
      ranks=range(1, 10), chow_suits=3)
def hualong(r: Reading) -> bool:
    """Chows 123, 456, 789, one in each suit (ranks 1, 4, 7: the only step of 3)."""
    return _one_in_each_suit(r.chow_bits, (3,))


@yaku("sanse_shuanglong", "三色双龙会", "Three-Suit Terminal Chows", 10, S,
      excludes=("laoshao_shuangshun", "laoshao", "jingtong", "jiangyan"), scope=GROUPS, chows=4,
      suits=3, ranks=(1, 2, 3, 5, 7, 8, 9), pairs=of_ranks(5), within_ranks=(1, 2, 3, 5, 7, 8, 9),
      within_suits=NUMBERS_ONLY)
def sanse_shuanglong(r: Reading) -> bool:
    """123 and 789 chows in each of two suits, a pair of 5 in the third."""
    if r.pair >= 27 or r.pair % 9 != 4:
        return False
    suit = r.pair - 4
    return all(b in r.chows and b + 6 in r.chows for b in (0, 9, 18) if b != suit)


YAKU = (sanse_xiao_tongke, sanse_tongke, sanse_lianke, sanxiangfeng, sanse_sanbugao, hualong,
        sanse_shuanglong)
