"""数字型 numbers (RULES.md §8): rank ranges, 序数, 将眼, 一条龙 and 老少, 全带, pungs by rank.

"Number tiles of rank … only" means no honors at all. For 三序数/两序数 each rank 1–9 is one
number, all winds together one number, all dragons together one number.
"""

from __future__ import annotations

from mjenv.scoring.reading import DRAGON, WIND, Reading
from mjenv.scoring.yaku.base import ANY, GROUPS, NUMBERS, NUMBERS_ONLY, S, TILES, of_ranks, yaku

_HONORS = WIND | DRAGON


def _rank_mask(*ranks: int) -> int:
    """The ``Reading.ranks`` bits of ``ranks``."""
    return sum(1 << r for r in ranks)


_SIMPLES = _rank_mask(*range(2, 9))
_ABOVE_FIVE = _rank_mask(6, 7, 8, 9)
_BELOW_FIVE = _rank_mask(1, 2, 3, 4)
_UPPER = _rank_mask(7, 8, 9)
_MIDDLE = _rank_mask(4, 5, 6)
_LOWER = _rank_mask(1, 2, 3)
_ODD = _rank_mask(1, 3, 5, 7, 9)
_EVEN = _rank_mask(2, 4, 6, 8)
_STEP_RANKS = (_rank_mask(1, 4, 7), _rank_mask(2, 5, 8), _rank_mask(3, 6, 9))


def _only_ranks(r: Reading, mask: int) -> bool:
    """No honors, and every number tile's rank is in ``mask``."""
    return r.suits & _HONORS == 0 and r.ranks & ~mask == 0


# Per ``Reading.suits >> 3`` (the WIND and DRAGON bits): the numbers its honors count for.
HONOR_NUMBERS = (0, 1, 1, 2)


def _numbers_used(r: Reading) -> int:
    return r.ranks.bit_count() + HONOR_NUMBERS[r.suits >> 3]


_SUIT_STARTS = 1 | 1 << 9 | 1 << 18     # rank 1 of each number suit, as tile bits


def _laoshao_counts(r: Reading) -> tuple[int, int]:
    """(老少顺 count, 老少刻 count): per suit, pairs of 123+789 chows and 111+999 pungs."""
    shun = 0
    both = r.chow_bits & r.chow_bits >> 6 & _SUIT_STARTS
    if both:
        c = r.chows
        for base in (0, 9, 18):
            if both >> base & 1:
                shun += min(c.count(base), c.count(base + 6))
    return shun, (r.pung_bits & r.pung_bits >> 8 & _SUIT_STARTS).bit_count()


@yaku("jiangyan", "将眼", "2-5-8 Pair", 1, S, scope=GROUPS, pairs=of_ranks(2, 5, 8), exact=True)
def jiangyan(r: Reading) -> bool:
    return r.pair < 27 and r.pair % 9 in (1, 4, 7)


@yaku("duanyao", "断幺九", "All Simples", 1, ANY, scope=TILES, within_ranks=range(2, 9),
      within_suits=NUMBERS_ONLY)
def duanyao(r: Reading) -> bool:
    return _only_ranks(r, _SIMPLES)


@yaku("dayuwu", "大于五", "Upper Four", 6, ANY, scope=TILES, within_ranks=(6, 7, 8, 9),
      within_suits=NUMBERS_ONLY)
def dayuwu(r: Reading) -> bool:
    return _only_ranks(r, _ABOVE_FIVE)


@yaku("xiaoyuwu", "小于五", "Lower Four", 6, ANY, scope=TILES, within_ranks=(1, 2, 3, 4),
      within_suits=NUMBERS_ONLY)
def xiaoyuwu(r: Reading) -> bool:
    return _only_ranks(r, _BELOW_FIVE)


@yaku("quanda", "全大", "Upper Tiles", 20, ANY, excludes=("dayuwu", "san_xushu"), scope=TILES,
      within_ranks=(7, 8, 9), within_suits=NUMBERS_ONLY)
def quanda(r: Reading) -> bool:
    return _only_ranks(r, _UPPER)


@yaku("quanzhong", "全中", "Middle Tiles", 20, ANY, excludes=("duanyao", "san_xushu"),
      scope=TILES, within_ranks=(4, 5, 6), within_suits=NUMBERS_ONLY)
def quanzhong(r: Reading) -> bool:
    return _only_ranks(r, _MIDDLE)


@yaku("quanxiao", "全小", "Lower Tiles", 20, ANY, excludes=("xiaoyuwu", "san_xushu"),
      scope=TILES, within_ranks=(1, 2, 3), within_suits=NUMBERS_ONLY)
def quanxiao(r: Reading) -> bool:
    return _only_ranks(r, _LOWER)


@yaku("san_xushu", "三序数", "Three Numbers", 10, ANY, scope=TILES, most_numbers=3)
def san_xushu(r: Reading) -> bool:
    return _numbers_used(r) <= 3


@yaku("liang_xushu", "两序数", "Two Numbers", 20, ANY, excludes=("san_xushu", "duiduihu"),
      scope=TILES, most_numbers=2)
def liang_xushu(r: Reading) -> bool:
    return _numbers_used(r) <= 2


@yaku("yitiaolong", "一条龙", "Pure Straight", 6, S, excludes=("laoshao",), scope=GROUPS, chows=3,
      ranks=range(1, 10), suit_chows=3)
def yitiaolong(r: Reading) -> bool:
    c = r.chow_bits
    return c & c >> 3 & c >> 6 & _SUIT_STARTS != 0


@yaku("laoshao", "老少", "Old and Young", 1, S, scope=GROUPS, ranks=(1, 9))
def laoshao(r: Reading) -> bool:
    c, p = r.chow_bits, r.pung_bits
    return (c & c >> 6 | p & p >> 8) & _SUIT_STARTS != 0


@yaku("fengyao", "逢幺", "Old and Young Mixed", 4, S, excludes=("laoshao",),
      scope=GROUPS, chows=2, pungs=2, ranks=(1, 2, 3, 7, 8, 9))
def fengyao(r: Reading) -> bool:
    shun, ke = _laoshao_counts(r)
    return shun >= 1 and ke >= 1


@yaku("laoshao_shuangshun", "老少双顺", "Two Old-and-Young Chows", 6, S,
      excludes=("laoshao",), scope=GROUPS, chows=4, ranks=(1, 2, 3, 7, 8, 9))
def laoshao_shuangshun(r: Reading) -> bool:
    return _laoshao_counts(r)[0] >= 2


@yaku("laoshao_shuangdui", "老少双对", "Two Old-and-Young Pungs", 10, S,
      excludes=("laoshao", "duiduihu", "san_xushu"), scope=GROUPS, pungs=4,
      ranks=(1, 9))
def laoshao_shuangdui(r: Reading) -> bool:
    return _laoshao_counts(r)[1] >= 2


# Per rank index k: the chow starts (tile bits) whose chow holds rank k, the pungs of rank k.
_CHOWS_HOLDING = tuple(sum(1 << t for t in range(27) if t % 9 <= 6 and t % 9 <= k <= t % 9 + 2)
                       for k in range(9))
_PUNGS_OF = tuple(_SUIT_STARTS << k for k in range(9))


@yaku("quandai", "全带", "Rank in Every Set", 10, S, scope=GROUPS, pairs=NUMBERS,
      within_suits=NUMBERS_ONLY, rank_span=5)
def quandai(r: Reading) -> bool:
    """Every meld and the pair holds a number tile of one same rank."""
    if r.pair >= 27:
        return False
    rank = r.pair % 9
    return not (r.chow_bits & ~_CHOWS_HOLDING[rank] or r.pung_bits & ~_PUNGS_OF[rank])


@yaku("jishu_duidui", "奇数对对胡", "All Odd Pungs", 10, S, excludes=("duiduihu",),
      scope=GROUPS, pungs=4, within_ranks=(1, 3, 5, 7, 9), within_suits=NUMBERS_ONLY)
def jishu_duidui(r: Reading) -> bool:
    return len(r.pungs) == 4 and _only_ranks(r, _ODD)


@yaku("oushu_duidui", "偶数对对胡", "All Even Pungs", 10, S, excludes=("duiduihu", "duanyao"),
      scope=GROUPS, pungs=4, within_ranks=(2, 4, 6, 8), within_suits=NUMBERS_ONLY)
def oushu_duidui(r: Reading) -> bool:
    return len(r.pungs) == 4 and _only_ranks(r, _EVEN)


@yaku("jingtong", "镜同胡", "Mirrored Chows", 6, S, scope=GROUPS, chows=2, suits=2,
      chow_suits=2)
def jingtong(r: Reading) -> bool:
    """Two chows of the same ranks in two different suits."""
    c = r.chow_bits                 # per suit a 9-bit mask of chow starts: two suits share one
    m, p, s = c & 0x1FF, c >> 9 & 0x1FF, c >> 18 & 0x1FF
    return (m & p | m & s | p & s) != 0


@yaku("ertongke", "二同刻", "Two Double Pungs", 20, S, excludes=("duiduihu", "san_xushu"),
      scope=GROUPS, pungs=4, suits=2)
def ertongke(r: Reading) -> bool:
    """Four number pungs in two couples, each couple one rank in two suits."""
    p = r.pungs
    if len(p) != 4 or p[-1] >= 27:
        return False
    ranks = sorted([t % 9 for t in p])     # a, a, b, b (four of one rank need four suits)
    return ranks[0] == ranks[1] and ranks[2] == ranks[3]


@yaku("sanbuke", "三步刻", "Stepped Pungs", 20, S, excludes=("duiduihu", "san_xushu"),
      scope=GROUPS, pungs=4, within_suits=NUMBERS_ONLY)
def sanbuke(r: Reading) -> bool:
    """Four pungs and the pair, all ranks in one of {1,4,7}, {2,5,8}, {3,6,9}, no honors."""
    if len(r.pungs) != 4:
        return False
    return any(_only_ranks(r, m) for m in _STEP_RANKS)


YAKU = (jiangyan, duanyao, dayuwu, xiaoyuwu, quanda, quanzhong, quanxiao, san_xushu,
        liang_xushu, yitiaolong, laoshao, fengyao, laoshao_shuangshun, laoshao_shuangdui,
        quandai, jishu_duidui, oushu_duidui, jingtong, ertongke, sanbuke)
