"""字牌型 honors (RULES.md §8): dragon and wind pungs."""

from __future__ import annotations

from mjenv.scoring.reading import Reading
from mjenv.scoring.yaku.base import DRAGONS, GROUPS, WINDS, S, yaku


def _winds(r: Reading) -> int:
    return (r.pung_bits >> 27 & 0xF).bit_count()


def _dragons(r: Reading) -> int:
    return (r.pung_bits >> 31).bit_count()


@yaku("sanyuanpai", "三元牌", "Dragon Pung", 1, S, scope=GROUPS, pungs=1, dragon_pungs=1)
def sanyuanpai(r: Reading) -> int:
    """Counts once per dragon pung/kong."""
    return _dragons(r)


@yaku("menfeng", "门风牌", "Seat Wind", 1, S, scope=GROUPS, pungs=1, wind_pungs=1)
def menfeng(r: Reading) -> bool:
    return 27 + r.ctx.seat_wind in r.pungs


@yaku("quanfeng", "圈风牌", "Round Wind", 1, S, scope=GROUPS, pungs=1, wind_pungs=1)
def quanfeng(r: Reading) -> bool:
    return 27 + r.ctx.round_wind in r.pungs


@yaku("xiao_sanfeng", "小三风", "Little Three Winds", 6, S, scope=GROUPS, pungs=2, wind_pungs=2,
      pairs=WINDS)
def xiao_sanfeng(r: Reading) -> bool:
    return _winds(r) >= 2 and 27 <= r.pair <= 30


@yaku("da_sanfeng", "大三风", "Big Three Winds", 10, S, scope=GROUPS, pungs=3, wind_pungs=3)
def da_sanfeng(r: Reading) -> bool:
    return _winds(r) >= 3


@yaku("xiao_sanyuan", "小三元", "Little Three Dragons", 10, S, excludes=("sanyuanpai",),
      scope=GROUPS, pungs=2, dragon_pungs=2, pairs=DRAGONS)
def xiao_sanyuan(r: Reading) -> bool:
    return _dragons(r) == 2 and r.pair >= 31


@yaku("da_sanyuan", "大三元", "Big Three Dragons", 20, S, excludes=("sanyuanpai",),
      scope=GROUPS, pungs=3, dragon_pungs=3)
def da_sanyuan(r: Reading) -> bool:
    return _dragons(r) == 3


@yaku("xiao_sixi", "小四喜", "Little Four Winds", 30, S, excludes=("da_sanfeng", "xiao_sanfeng"),
      scope=GROUPS, pungs=3, wind_pungs=3, pairs=WINDS)
def xiao_sixi(r: Reading) -> bool:
    return _winds(r) == 3 and 27 <= r.pair <= 30


@yaku("da_sixi", "大四喜", "Big Four Winds", 60, S,
      excludes=("da_sanfeng", "duiduihu", "menfeng", "quanfeng", "liang_xushu", "san_xushu"),
      scope=GROUPS, pungs=4, wind_pungs=4)
def da_sixi(r: Reading) -> bool:
    return _winds(r) == 4


YAKU = (sanyuanpai, menfeng, quanfeng, xiao_sanfeng, da_sanfeng, xiao_sanyuan, da_sanyuan,
        xiao_sixi, da_sixi)
