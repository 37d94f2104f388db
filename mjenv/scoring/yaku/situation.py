"""胡牌情况型 how the hand was won (RULES.md §8): concealment, waits, self-draw."""

from __future__ import annotations

from mjenv.scoring.reading import BIANZHANG, DANDIAO, KANZHANG, SHUANGPENG, Reading
from mjenv.scoring.yaku.base import ANY, PLACEMENT, S, SITUATION, yaku


def _concealed(r: Reading) -> bool:
    """No chi, pon, open or added kan (a concealed kan keeps the hand concealed)."""
    return r.open_melds == 0


def _all_called(r: Reading) -> bool:
    """All four melds were called (chi, pon, open or added kan)."""
    return r.open_melds == 4


@yaku("menqing", "门清", "Concealed Hand", 1, ANY, scope=SITUATION)
def menqing(r: Reading) -> bool:
    return _concealed(r)


@yaku("dutin", "独听", "Single Wait", 2, S, scope=SITUATION)
def dutin(r: Reading) -> bool:
    """The 13-tile hand had exactly one wait (every shape counted, RULES.md §7)."""
    return r.single_wait


@yaku("duipeng", "对碰", "Dual Pung Wait", 1, S, scope=PLACEMENT, placements=(SHUANGPENG,),
      exact=True)
def duipeng(r: Reading) -> bool:
    return r.placement == SHUANGPENG


@yaku("jiadu", "假独", "False Single Wait", 1, S, scope=PLACEMENT,
      placements=(BIANZHANG, KANZHANG, DANDIAO), several_waits=True, exact=True)
def jiadu(r: Reading) -> bool:
    """An edge, closed or pair placement although the hand had two or more waits."""
    return r.placement in (BIANZHANG, KANZHANG, DANDIAO) and not r.single_wait


@yaku("zimo", "自摸", "Self-Drawn", 1, ANY, scope=SITUATION)
def zimo(r: Reading) -> bool:
    return r.ctx.tsumo


@yaku("buqiuren", "不求人", "Fully Concealed Self-Drawn", 4, ANY,
      excludes=("menqing", "zimo"), scope=SITUATION)
def buqiuren(r: Reading) -> bool:
    return r.ctx.tsumo and _concealed(r)


@yaku("banqiuren", "半求人", "Melded Hand, Self-Drawn", 4, S,
      excludes=("zimo", "dutin"), scope=SITUATION)
def banqiuren(r: Reading) -> bool:
    return r.ctx.tsumo and _all_called(r)


@yaku("quanqiuren", "全求人", "Melded Hand", 6, S, excludes=("dutin",), scope=SITUATION)
def quanqiuren(r: Reading) -> bool:
    return not r.ctx.tsumo and _all_called(r)


YAKU = (menqing, dutin, duipeng, jiadu, zimo, buqiuren, banqiuren, quanqiuren)
