"""三色型 three suits (RULES.md §8): the same or stepped melds across the three suits."""

from __future__ import annotations

from mjenv.scoring.reading import Reading
from mjenv.scoring.views import Chows, Pungs, PungsAndPair
from mjenv.scoring.yaku.base import S, yaku
from mjenv.scoring.yaku.words import (RANKS, across_suits, lanes, rank,
                                      same_rank_elsewhere, suit)
from mjenv.tiles import NUMBERS


@yaku("sanse_xiao_tongke", "三色小同刻", "Little Triple Pung", 6, S)
def sanse_xiao_tongke(r: PungsAndPair) -> bool:
    """Pungs of rank r in two suits, pair of rank r in the third."""
    if r.pair not in NUMBERS:
        return False
    others = same_rank_elsewhere(r.pair)
    return r.pung_bits & others == others


@yaku("sanse_tongke", "三色同刻", "Triple Pung", 10, S)
def sanse_tongke(r: Pungs) -> bool:
    """Pungs of rank r in all three suits."""
    return across_suits(r.pung_bits, 0)


@yaku("sanse_lianke", "三色连刻", "Mixed Shifted Pungs", 6, S)
def sanse_lianke(r: Pungs) -> bool:
    """Pungs of ranks r, r+1, r+2, one in each suit."""
    return across_suits(r.pung_bits, 1)


@yaku("sanxiangfeng", "三相逢", "Mixed Triple Chow", 6, S, excludes=("jingtong",))
def sanxiangfeng(r: Chows) -> bool:
    """The same chow in all three suits."""
    return across_suits(r.chow_bits, 0)


@yaku("sanse_sanbugao", "三色三步高", "Mixed Shifted Chows", 4, S)
def sanse_sanbugao(r: Chows) -> bool:
    """Chows starting r, r+k, r+2k (k = 1 or 2), one in each suit."""
    return across_suits(r.chow_bits, 1) or across_suits(r.chow_bits, 2)


@yaku("hualong", "花龙", "Mixed Straight", 4, S)
def hualong(r: Chows) -> bool:
    """Chows 123, 456, 789, one in each suit (ranks r, r+3, r+6: only r = 1 has chows)."""
    return across_suits(r.chow_bits, 3)


@yaku("sanse_shuanglong", "三色双龙会", "Three-Suit Terminal Chows", 10, S,
      excludes=("laoshao_shuangshun", "laoshao", "jingtong", "jiangyan"))
def sanse_shuanglong(r: Reading) -> bool:
    """123 and 789 chows in each of two suits, pair of 5 in the third."""
    if r.pair not in NUMBERS or rank(r.pair) != 5:
        return False
    others = [lane for s, lane in enumerate(lanes(r.chow_bits)) if s != suit(r.pair)]
    return all(lane & RANKS[1, 7] == RANKS[1, 7] for lane in others)


YAKU = (sanse_xiao_tongke, sanse_tongke, sanse_lianke, sanxiangfeng, sanse_sanbugao, hualong,
        sanse_shuanglong)
