"""特殊胡牌型 special shapes (RULES.md §8): seven pairs, knitted, thirteen orphans."""

from __future__ import annotations

from mjenv.scoring.reading import NUMBER_SUITS, Reading
from mjenv.scoring.views import Suits, Tiles
from mjenv.scoring.yaku.base import K, O, P7, yaku
from mjenv.tiles import HONORS, SUIT_FIRSTS


@yaku("qiduizi", "七对子", "Seven Pairs", 10, P7, excludes=("menqing",))
def qiduizi(r: Suits) -> bool:
    """Seven pairs (no four of a kind): the shape itself."""
    return True


@yaku("shisan_buda", "十三不搭", "Knitted", 6, K, excludes=("menqing",))
def shisan_buda(r: Suits) -> bool:
    """The knitted shape itself."""
    return True


@yaku("qixing_bukao", "七星不靠", "Knitted with Seven Honors", 10, K,
      excludes=("shisan_buda", "menqing"))
def qixing_bukao(r: Reading) -> bool:
    """Knitted, holding all seven honors."""
    return all(r.counts[t] for t in HONORS)


@yaku("buda_long", "不搭龙", "Knitted Dragon", 10, K, excludes=("shisan_buda", "menqing"))
def buda_long(r: Tiles) -> bool:
    """Knitted; the number tiles cover ranks 1–9."""
    return r.ranks == frozenset(range(1, 10))


@yaku("buda_sanxiangfeng", "不搭三相逢", "Knitted Mixed Triple", 10, K,
      excludes=("shisan_buda", "menqing"))
def buda_sanxiangfeng(r: Reading) -> bool:
    """Knitted; each suit has exactly three tiles, with the same three ranks in every suit."""
    m, p, s = (r.counts[first:first + 9] for first in SUIT_FIRSTS)
    return sum(m) == 3 and m == p == s


@yaku("shisanyao", "十三幺", "Thirteen Orphans", 60, O, excludes=("menqing",))
def shisanyao(r: Suits) -> bool:
    """The thirteen-orphans shape itself."""
    return True


@yaku("da_qixing", "大七星", "Seven Honor Pairs", 80, P7,
      excludes=("qiduizi", "ziyise", "menqing", "liang_xushu", "san_xushu"))
def da_qixing(r: Suits) -> bool:
    """Seven pairs, all honors."""
    return not r.suits & NUMBER_SUITS


YAKU = (qiduizi, shisan_buda, qixing_bukao, buda_long, buda_sanxiangfeng, shisanyao, da_qixing)
