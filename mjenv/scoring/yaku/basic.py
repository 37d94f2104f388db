"""基本胡牌型 basic shapes (RULES.md §8)."""

from __future__ import annotations

from mjenv.scoring.reading import LIANGMIAN, Reading
from mjenv.scoring.yaku.base import GROUPS, HAND, NUMBERS_ONLY, P7, PLACEMENT, S, yaku

_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


@yaku("pinghu", "平胡", "All Chows", 2, S, scope=PLACEMENT, chows=4,
      pairs=range(31), placements=(LIANGMIAN,))      # no dragon pair
def pinghu(r: Reading) -> bool:
    """Four chows, a number or guest-wind pair, won on a two-sided wait."""
    if len(r.chows) != 4 or r.placement != LIANGMIAN:
        return False
    p = r.pair
    return p < 27 or (p < 31 and p - 27 not in (r.ctx.seat_wind, r.ctx.round_wind))


@yaku("duiduihu", "对对胡", "All Pungs", 6, S, scope=GROUPS, pungs=4, exact=True)
def duiduihu(r: Reading) -> bool:
    return len(r.pungs) == 4


@yaku("jiuzi_lianhuan", "九子连环", "Nine Gates", 80, S,
      excludes=("qingyise", "menqing"), scope=HAND, within_suits=NUMBERS_ONLY, most_suits=1)
def jiuzi_lianhuan(r: Reading) -> bool:
    """Concealed, no kan: 1112345678999 of one suit plus any tile of that suit."""
    kinds = r.kinds
    if r.melds or kinds[0] >= 27 or kinds[0] // 9 != kinds[-1] // 9:
        return False
    base = kinds[0] // 9 * 9
    return all(r.counts[base + i] >= need for i, need in enumerate(_NINE_GATES))


@yaku("lian_qidui", "连七对", "Seven Shifted Pairs", 60, P7,
      excludes=("qiduizi", "qingyise", "menqing"), scope=HAND, within_suits=NUMBERS_ONLY,
      most_suits=1)
def lian_qidui(r: Reading) -> bool:
    """Seven pairs of seven consecutive ranks of one suit."""
    lo, hi = r.kinds[0], r.kinds[-1]
    return hi < 27 and hi - lo == 6 and lo // 9 == hi // 9


YAKU = (pinghu, duiduihu, jiuzi_lianhuan, lian_qidui)
