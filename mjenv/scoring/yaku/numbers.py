"""数字型 numbers (RULES.md §8): rank ranges, 序数, 将眼, 一条龙 and 老少, 全带, pungs by rank.

"Number tiles of rank … only" means no honors at all. For 三序数/两序数 each rank 1–9 is one
number, all winds together one number, all dragons together one number.
"""

from __future__ import annotations

from collections import Counter

from mjenv.scoring.reading import HONOR_SUITS, Reading
from mjenv.scoring.views import Chows, Pungs, PungsAndPair, Tiles
from mjenv.scoring.yaku.base import ANY, S, yaku
from mjenv.scoring.yaku.words import (OF_RANKS, RANKS, in_one_suit, in_two_suits, kinds,
                                      only_ranks, rank, suits_with, within)
from mjenv.tiles import NUMBERS, SUIT_FIRSTS

# Per rank k: the chows holding a tile of rank k (as a set of first tiles).
_CHOWS_HOLDING = {k: kinds(t for t in NUMBERS if rank(t) <= k <= rank(t) + 2 <= 9)
                  for k in range(1, 10)}


def _numbers(r: Tiles) -> int:
    """How many numbers (序数) the hand uses: its ranks, plus one for winds, one for dragons."""
    return len(r.ranks) + len(r.suits & HONOR_SUITS)


def _old_young_chows(r: Chows) -> int:
    """老少顺: per suit, a 123 chow with a 789 chow (123 123 789 is one, 123 123 789 789 two)."""
    return sum(min(r.chows.count(one), r.chows.count(one + 6)) for one in SUIT_FIRSTS)


def _old_young_pungs(r: Pungs) -> int:
    """老少刻: per suit, pungs 111 and 999."""
    return suits_with(r.pung_bits, RANKS[1, 9])


@yaku("jiangyan", "将眼", "2-5-8 Pair", 1, S)
def jiangyan(r: PungsAndPair) -> bool:
    """The pair is a 2, 5 or 8."""
    return r.pair in NUMBERS and rank(r.pair) in (2, 5, 8)


@yaku("duanyao", "断幺九", "All Simples", 1, ANY)
def duanyao(r: Tiles) -> bool:
    """Number tiles of rank 2–8 only."""
    return only_ranks(r, range(2, 9))


@yaku("dayuwu", "大于五", "Upper Four", 6, ANY)
def dayuwu(r: Tiles) -> bool:
    """Number tiles of rank 6–9 only."""
    return only_ranks(r, range(6, 10))


@yaku("xiaoyuwu", "小于五", "Lower Four", 6, ANY)
def xiaoyuwu(r: Tiles) -> bool:
    """Number tiles of rank 1–4 only."""
    return only_ranks(r, range(1, 5))


@yaku("quanda", "全大", "Upper Tiles", 20, ANY, excludes=("dayuwu", "san_xushu"))
def quanda(r: Tiles) -> bool:
    """Number tiles of rank 7–9 only."""
    return only_ranks(r, range(7, 10))


@yaku("quanzhong", "全中", "Middle Tiles", 20, ANY, excludes=("duanyao", "san_xushu"))
def quanzhong(r: Tiles) -> bool:
    """Number tiles of rank 4–6 only."""
    return only_ranks(r, range(4, 7))


@yaku("quanxiao", "全小", "Lower Tiles", 20, ANY, excludes=("xiaoyuwu", "san_xushu"))
def quanxiao(r: Tiles) -> bool:
    """Number tiles of rank 1–3 only."""
    return only_ranks(r, range(1, 4))


@yaku("san_xushu", "三序数", "Three Numbers", 10, ANY)
def san_xushu(r: Tiles) -> bool:
    """The hand uses at most three numbers."""
    return _numbers(r) <= 3


@yaku("liang_xushu", "两序数", "Two Numbers", 20, ANY, excludes=("san_xushu", "duiduihu"))
def liang_xushu(r: Tiles) -> bool:
    """The hand uses at most two numbers."""
    return _numbers(r) <= 2


@yaku("yitiaolong", "一条龙", "Pure Straight", 6, S, excludes=("laoshao",))
def yitiaolong(r: Chows) -> bool:
    """Chows 123, 456, 789 of one suit."""
    return in_one_suit(r.chow_bits, RANKS[1, 4, 7])


@yaku("laoshao", "老少", "Old and Young", 1, S)
def laoshao(r: Reading) -> bool:
    """In one suit, chows 123 and 789 (老少顺) or pungs 111 and 999 (老少刻). A suit with 123
    123 789 has one 老少顺; 123 123 789 789 has two."""
    return in_one_suit(r.chow_bits, RANKS[1, 7]) or in_one_suit(r.pung_bits, RANKS[1, 9])


@yaku("fengyao", "逢幺", "Old and Young Mixed", 4, S, excludes=("laoshao",))
def fengyao(r: Reading) -> bool:
    """One 老少顺 and one 老少刻 (same or different suits)."""
    return in_one_suit(r.pung_bits, RANKS[1, 9]) and in_one_suit(r.chow_bits, RANKS[1, 7])


@yaku("laoshao_shuangshun", "老少双顺", "Two Old-and-Young Chows", 6, S, excludes=("laoshao",))
def laoshao_shuangshun(r: Chows) -> bool:
    """Two 老少顺 (same or different suits)."""
    return _old_young_chows(r) >= 2


@yaku("laoshao_shuangdui", "老少双对", "Two Old-and-Young Pungs", 10, S,
      excludes=("laoshao", "duiduihu", "san_xushu"))
def laoshao_shuangdui(r: Pungs) -> bool:
    """Two 老少刻."""
    return _old_young_pungs(r) >= 2


@yaku("quandai", "全带", "Rank in Every Set", 10, S)
def quandai(r: Reading) -> bool:
    """Every meld and the pair contains a tile of one same rank."""
    if r.pair not in NUMBERS:
        return False
    k = rank(r.pair)
    return within(r.pung_bits, OF_RANKS[k]) and within(r.chow_bits, _CHOWS_HOLDING[k])


def _all_pungs_of_ranks(r: PungsAndPair, ranks: tuple[int, ...]) -> bool:
    """Four pungs, and they and the pair (so every tile) are number tiles of ``ranks``."""
    return len(r.pungs) == 4 and within(r.pung_bits | 1 << r.pair, OF_RANKS[ranks])


@yaku("jishu_duidui", "奇数对对胡", "All Odd Pungs", 10, S, excludes=("duiduihu",))
def jishu_duidui(r: PungsAndPair) -> bool:
    """对对胡 with number tiles of odd rank only."""
    return _all_pungs_of_ranks(r, (1, 3, 5, 7, 9))


@yaku("oushu_duidui", "偶数对对胡", "All Even Pungs", 10, S, excludes=("duiduihu", "duanyao"))
def oushu_duidui(r: PungsAndPair) -> bool:
    """对对胡 with number tiles of even rank only."""
    return _all_pungs_of_ranks(r, (2, 4, 6, 8))


@yaku("jingtong", "镜同胡", "Mirrored Chows", 6, S)
def jingtong(r: Chows) -> bool:
    """Two chows of the same ranks in two different suits."""
    return bool(in_two_suits(r.chow_bits))


@yaku("ertongke", "二同刻", "Two Double Pungs", 20, S, excludes=("duiduihu", "san_xushu"))
def ertongke(r: Pungs) -> bool:
    """The four melds are pungs/kongs forming two couples, each couple the same rank in two
    different suits."""
    return (len(r.pungs) == 4 and r.pungs[-1] in NUMBERS
            and sorted(Counter(map(rank, r.pungs)).values()) == [2, 2])


@yaku("sanbuke", "三步刻", "Stepped Pungs", 20, S, excludes=("duiduihu", "san_xushu"))
def sanbuke(r: PungsAndPair) -> bool:
    """Four pungs/kongs and pair, all ranks within one of {1,4,7}, {2,5,8}, {3,6,9}; no
    honors."""
    return any(_all_pungs_of_ranks(r, (k, k + 3, k + 6)) for k in (1, 2, 3))


YAKU = (jiangyan, duanyao, dayuwu, xiaoyuwu, quanda, quanzhong, quanxiao, san_xushu,
        liang_xushu, yitiaolong, laoshao, fengyao, laoshao_shuangshun, laoshao_shuangdui,
        quandai, jishu_duidui, oushu_duidui, jingtong, ertongke, sanbuke)
