"""胡牌情况型 how the hand was won (RULES.md §8): concealment, waits, self-draw."""

from __future__ import annotations

from mjenv.scoring.reading import BIANZHANG, DANDIAO, KANZHANG, SHUANGPENG, Reading
from mjenv.scoring.views import Situation
from mjenv.scoring.yaku.base import ANY, S, yaku


@yaku("menqing", "门清", "Concealed Hand", 1, ANY)
def menqing(r: Situation) -> bool:
    """No chi, pon or open kan (added kan is open; concealed kan is fine)."""
    return r.open_melds == 0


@yaku("dutin", "独听", "Single Wait", 2, S)
def dutin(r: Situation) -> bool:
    """The hand had exactly one wait (every shape counted, RULES.md §7)."""
    return r.single_wait


@yaku("duipeng", "对碰", "Dual Pung Wait", 1, S)
def duipeng(r: Reading) -> bool:
    """Placement 双碰."""
    return r.placement == SHUANGPENG


@yaku("jiadu", "假独", "False Single Wait", 1, S)
def jiadu(r: Reading) -> bool:
    """Placement 边张, 坎张 or 单吊, but the hand had two or more waits."""
    return r.placement in (BIANZHANG, KANZHANG, DANDIAO) and not r.single_wait


@yaku("zimo", "自摸", "Self-Drawn", 1, ANY)
def zimo(r: Situation) -> bool:
    """Won by self-draw (replacement draws included)."""
    return r.ctx.tsumo


@yaku("buqiuren", "不求人", "Fully Concealed Self-Drawn", 4, ANY, excludes=("menqing", "zimo"))
def buqiuren(r: Situation) -> bool:
    """门清 and 自摸."""
    return r.open_melds == 0 and r.ctx.tsumo


@yaku("banqiuren", "半求人", "Melded Hand, Self-Drawn", 4, S, excludes=("zimo", "dutin"))
def banqiuren(r: Situation) -> bool:
    """All four melds called (chi/pon/open kan), won by self-draw."""
    return r.open_melds == 4 and r.ctx.tsumo


@yaku("quanqiuren", "全求人", "Melded Hand", 6, S, excludes=("dutin",))
def quanqiuren(r: Situation) -> bool:
    """All four melds called, won by ron."""
    return r.open_melds == 4 and not r.ctx.tsumo


YAKU = (menqing, dutin, duipeng, jiadu, zimo, buqiuren, banqiuren, quanqiuren)
