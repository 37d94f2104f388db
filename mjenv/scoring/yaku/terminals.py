"""幺九型 terminals (RULES.md §8): 混全带幺, 纯全带幺, 混老头, 清老头.

A chow holds a terminal when it is a 123 or a 789; a pung or the pair when it is of one.
"""

from __future__ import annotations

from mjenv.scoring.reading import Reading
from mjenv.scoring.views import PungsAndPair
from mjenv.scoring.yaku.base import S, yaku
from mjenv.scoring.yaku.words import kinds, rank, within
from mjenv.tiles import NUMBERS, ORPHANS, TERMINALS

_ORPHANS, _TERMINALS = kinds(ORPHANS), kinds(TERMINALS)
_OUTSIDE_CHOWS = kinds(t for t in NUMBERS if rank(t) in (1, 7))     # 123 and 789 chows


@yaku("hunquan", "混全带幺", "Outside Hand", 4, S)
def hunquan(r: Reading) -> bool:
    """Every meld and the pair contains a terminal or an honor (honors not required)."""
    return (r.pair in ORPHANS and within(r.pung_bits, _ORPHANS)
            and within(r.chow_bits, _OUTSIDE_CHOWS))


@yaku("chunquan", "纯全带幺", "Terminals in All Sets", 6, S, excludes=("hunquan",))
def chunquan(r: Reading) -> bool:
    """Every meld and the pair contains a terminal; no honors."""
    return (r.pair in TERMINALS and within(r.pung_bits, _TERMINALS)
            and within(r.chow_bits, _OUTSIDE_CHOWS))


@yaku("hunlaotou", "混老头", "All Terminals and Honors", 20, S, excludes=("hunquan", "duiduihu"))
def hunlaotou(r: PungsAndPair) -> bool:
    """混全带幺 and 对对胡: every pung and the pair are terminals or honors."""
    return len(r.pungs) == 4 and all(t in ORPHANS for t in (*r.pungs, r.pair))


@yaku("qinglaotou", "清老头", "All Terminals", 40, S,
      excludes=("chunquan", "hunquan", "hunlaotou", "duiduihu", "liang_xushu", "san_xushu",
                "jishu_duidui", "laoshao"))
def qinglaotou(r: PungsAndPair) -> bool:
    """Every pung and the pair are terminals; no honors."""
    return len(r.pungs) == 4 and all(t in TERMINALS for t in (*r.pungs, r.pair))


YAKU = (hunquan, chunquan, hunlaotou, qinglaotou)
