"""偶然胡牌型 chance (RULES.md §8): read straight from the WinContext flags.

The flags' consistency (e.g. 岭上开花 needs tsumo and a kan) is checked before scoring, so each
predicate here is just its flag.
"""

from __future__ import annotations

from mjenv.scoring.reading import Reading
from mjenv.scoring.yaku.base import ANY, SITUATION, yaku


@yaku("lingshang", "岭上开花", "After a Kong", 6, ANY, excludes=("zimo",), scope=SITUATION)
def lingshang(r: Reading) -> bool:
    return r.ctx.lingshang


@yaku("haidi", "海底捞月", "Last Tile Draw", 6, ANY, excludes=("zimo",), scope=SITUATION)
def haidi(r: Reading) -> bool:
    return r.ctx.haidi


@yaku("hedi", "河底捞鱼", "Last Tile Claim", 6, ANY, scope=SITUATION)
def hedi(r: Reading) -> bool:
    return r.ctx.hedi


@yaku("qianggang", "抢杠", "Robbing the Kong", 6, ANY, excludes=("juezhang",), scope=SITUATION)
def qianggang(r: Reading) -> bool:
    return r.ctx.qianggang


@yaku("juezhang", "绝张", "Last Tile", 2, ANY, scope=SITUATION)
def juezhang(r: Reading) -> bool:
    return r.ctx.juezhang


@yaku("renhu", "人胡", "Blessing of Man", 20, ANY, excludes=("menqing",), scope=SITUATION)
def renhu(r: Reading) -> bool:
    return r.ctx.renhu


@yaku("dihu", "地胡", "Blessing of Earth", 40, ANY,
      excludes=("buqiuren", "menqing", "zimo"), scope=SITUATION)
def dihu(r: Reading) -> bool:
    return r.ctx.dihu


@yaku("tianhu", "天胡", "Blessing of Heaven", 40, ANY,
      excludes=("buqiuren", "menqing", "zimo"), scope=SITUATION)
def tianhu(r: Reading) -> bool:
    return r.ctx.tianhu


YAKU = (lingshang, haidi, hedi, qianggang, juezhang, renhu, dihu, tianhu)
