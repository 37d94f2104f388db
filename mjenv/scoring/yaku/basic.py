"""基本胡牌型 basic shapes (RULES.md §8)."""

from __future__ import annotations

from mjenv.scoring.reading import LIANGMIAN, NUMBER_SUITS, Reading
from mjenv.scoring.views import Pungs
from mjenv.scoring.yaku.base import P7, S, yaku
from mjenv.scoring.yaku.words import round_wind, seat_wind
from mjenv.tiles import NUMBERS, SUIT_FIRSTS, WINDS

_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)       # 1112345678999, per rank


@yaku("pinghu", "平胡", "All Chows", 2, S)
def pinghu(r: Reading) -> bool:
    """Four chows; the pair is a number tile or a guest wind (neither seat nor round wind);
    placement 两面. Called chows allowed."""
    return (len(r.chows) == 4 and r.placement == LIANGMIAN
            and (r.pair in NUMBERS or r.pair in WINDS and r.pair not in (seat_wind(r),
                                                                      round_wind(r))))


@yaku("duiduihu", "对对胡", "All Pungs", 6, S)
def duiduihu(r: Pungs) -> bool:
    """Four pungs/kongs."""
    return len(r.pungs) == 4


@yaku("jiuzi_lianhuan", "九子连环", "Nine Gates", 80, S, excludes=("qingyise", "menqing"))
def jiuzi_lianhuan(r: Reading) -> bool:
    """Concealed, no kan; the 14 tiles are 1112345678999 of one suit plus any tile of that
    suit."""
    if r.melds or len(r.suits) != 1 or not r.suits <= NUMBER_SUITS:
        return False
    (name,) = r.suits
    first = SUIT_FIRSTS["mps".index(name)]
    return all(held >= need for held, need in zip(r.counts[first:first + 9], _NINE_GATES))


@yaku("lian_qidui", "连七对", "Seven Shifted Pairs", 60, P7,
      excludes=("qiduizi", "qingyise", "menqing"))
def lian_qidui(r: Reading) -> bool:
    """Seven pairs of seven consecutive ranks of one suit."""
    low, high = r.kinds[0], r.kinds[-1]
    return high in NUMBERS and high - low == 6 and low // 9 == high // 9


YAKU = (pinghu, duiduihu, jiuzi_lianhuan, lian_qidui)
