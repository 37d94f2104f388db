"""特殊胡牌型 special shapes (RULES.md §8): seven pairs, knitted, thirteen orphans."""

from __future__ import annotations

from mjenv.scoring.reading import NUMBER_SUITS, Reading
from mjenv.scoring.yaku.base import HAND, HONORS_ONLY, K, O, P7, SUITS, TILES, yaku

_RANKS_1_TO_9 = 0b1111111110


@yaku("qiduizi", "七对子", "Seven Pairs", 10, P7, excludes=("menqing",), scope=SUITS)
def qiduizi(r: Reading) -> bool:
    return True


@yaku("shisan_buda", "十三不搭", "Knitted", 6, K, excludes=("menqing",), scope=SUITS)
def shisan_buda(r: Reading) -> bool:
    return True


@yaku("qixing_bukao", "七星不靠", "Knitted with Seven Honors", 10, K,
      excludes=("shisan_buda", "menqing"), scope=HAND)
def qixing_bukao(r: Reading) -> bool:
    return all(r.counts[27:34])


@yaku("buda_long", "不搭龙", "Knitted Dragon", 10, K,
      excludes=("shisan_buda", "menqing"), scope=TILES)
def buda_long(r: Reading) -> bool:
    """The number tiles cover ranks 1–9."""
    return r.ranks == _RANKS_1_TO_9


@yaku("buda_sanxiangfeng", "不搭三相逢", "Knitted Mixed Triple", 10, K,
      excludes=("shisan_buda", "menqing"), scope=HAND)
def buda_sanxiangfeng(r: Reading) -> bool:
    """Each suit holds exactly three tiles, the same three ranks in every suit."""
    if r.suits & NUMBER_SUITS != NUMBER_SUITS:
        return False
    c = r.counts
    m = c[0:9]
    return sum(m) == 3 and m == c[9:18] == c[18:27]


@yaku("shisanyao", "十三幺", "Thirteen Orphans", 60, O, excludes=("menqing",), scope=SUITS)
def shisanyao(r: Reading) -> bool:
    return True


@yaku("da_qixing", "大七星", "Seven Honor Pairs", 80, P7,
      excludes=("qiduizi", "ziyise", "menqing", "liang_xushu", "san_xushu"), scope=SUITS,
      within_suits=HONORS_ONLY)
def da_qixing(r: Reading) -> bool:
    return r.suits & NUMBER_SUITS == 0


YAKU = (qiduizi, shisan_buda, qixing_bukao, buda_long, buda_sanxiangfeng, shisanyao, da_qixing)
