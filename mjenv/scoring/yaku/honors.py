"""字牌型 honors (RULES.md §8): dragon and wind pungs."""

from __future__ import annotations

from mjenv.scoring.reading import Reading
from mjenv.scoring.views import Pungs, PungsAndPair
from mjenv.scoring.yaku.base import S, yaku
from mjenv.scoring.yaku.words import round_wind, seat_wind
from mjenv.tiles import DRAGONS, WINDS


def _wind_pungs(r: Pungs | PungsAndPair) -> int:
    return len(_WINDS.intersection(r.pungs))


def _dragon_pungs(r: Pungs | PungsAndPair) -> int:
    return len(_DRAGONS.intersection(r.pungs))


_WINDS, _DRAGONS = frozenset(WINDS), frozenset(DRAGONS)


@yaku("sanyuanpai", "三元牌", "Dragon Pung", 1, S)
def sanyuanpai(r: Pungs) -> int:
    """A pung/kong of a dragon; counts once per dragon pung."""
    return _dragon_pungs(r)


@yaku("menfeng", "门风牌", "Seat Wind", 1, S)
def menfeng(r: Reading) -> bool:
    """A pung/kong of the seat wind."""
    return seat_wind(r) in r.pungs


@yaku("quanfeng", "圈风牌", "Round Wind", 1, S)
def quanfeng(r: Reading) -> bool:
    """A pung/kong of the round wind (counts beside 门风牌 when they are the same wind)."""
    return round_wind(r) in r.pungs


@yaku("xiao_sanfeng", "小三风", "Little Three Winds", 6, S)
def xiao_sanfeng(r: PungsAndPair) -> bool:
    """Pungs of two winds, pair of a third wind."""
    return r.pair in WINDS and _wind_pungs(r) >= 2


@yaku("da_sanfeng", "大三风", "Big Three Winds", 10, S)
def da_sanfeng(r: Pungs) -> bool:
    """Pungs of three winds."""
    return _wind_pungs(r) >= 3


@yaku("xiao_sanyuan", "小三元", "Little Three Dragons", 10, S, excludes=("sanyuanpai",))
def xiao_sanyuan(r: PungsAndPair) -> bool:
    """Pungs of two dragons, pair of the third."""
    return r.pair in DRAGONS and _dragon_pungs(r) == 2


@yaku("da_sanyuan", "大三元", "Big Three Dragons", 20, S, excludes=("sanyuanpai",))
def da_sanyuan(r: Pungs) -> bool:
    """Pungs of all three dragons."""
    return _dragon_pungs(r) == 3


@yaku("xiao_sixi", "小四喜", "Little Four Winds", 30, S, excludes=("da_sanfeng", "xiao_sanfeng"))
def xiao_sixi(r: PungsAndPair) -> bool:
    """Pungs of three winds, pair of the fourth."""
    return r.pair in WINDS and _wind_pungs(r) == 3


@yaku("da_sixi", "大四喜", "Big Four Winds", 60, S,
      excludes=("da_sanfeng", "duiduihu", "menfeng", "quanfeng", "liang_xushu", "san_xushu"))
def da_sixi(r: Pungs) -> bool:
    """Pungs of all four winds."""
    return _wind_pungs(r) == 4


YAKU = (sanyuanpai, menfeng, quanfeng, xiao_sanfeng, da_sanfeng, xiao_sanyuan, da_sanyuan,
        xiao_sixi, da_sixi)
