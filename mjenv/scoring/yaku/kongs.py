"""开杠型 kongs and 暗刻型 concealed pungs (RULES.md §8)."""

from __future__ import annotations

from mjenv.scoring.reading import Reading
from mjenv.scoring.views import Pungs
from mjenv.scoring.yaku.base import S, yaku


@yaku("liang_gangzi", "两杠子", "Two Kongs", 4, S)
def liang_gangzi(r: Pungs) -> bool:
    """Two kongs (any kind)."""
    return len(r.kongs) >= 2


@yaku("san_gangzi", "三杠子", "Three Kongs", 20, S, excludes=("liang_gangzi",))
def san_gangzi(r: Pungs) -> bool:
    """Three kongs."""
    return len(r.kongs) >= 3


@yaku("shiba_luohan", "十八罗汉", "Four Kongs", 80, S,
      excludes=("san_gangzi", "liang_gangzi", "duiduihu", "dutin"))
def shiba_luohan(r: Pungs) -> bool:
    """Four kongs."""
    return len(r.kongs) == 4


@yaku("san_anke", "三暗刻", "Three Concealed Pungs", 10, S)
def san_anke(r: Reading) -> bool:
    """Three concealed pungs; a pung completed by a ron tile is not one (RULES.md §7)."""
    return r.concealed_pungs >= 3


@yaku("si_anke", "四暗刻", "Four Concealed Pungs", 30, S,
      excludes=("san_anke", "duiduihu", "menqing"))
def si_anke(r: Reading) -> bool:
    """Four concealed pungs."""
    return r.concealed_pungs == 4


YAKU = (liang_gangzi, san_gangzi, shiba_luohan, san_anke, si_anke)
