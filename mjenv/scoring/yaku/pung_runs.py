"""连刻型 consecutive pungs of one suit (RULES.md §8)."""

from __future__ import annotations

from mjenv.scoring.reading import Reading
from mjenv.scoring.views import Pungs, PungsAndPair
from mjenv.scoring.yaku.base import S, yaku
from mjenv.scoring.yaku.words import beside, stepped
from mjenv.tiles import NUMBERS


def _pair_next_to_run(r: Reading, length: int) -> bool:
    """The pair is the rank just below or just above ``length`` pungs of consecutive ranks
    of its suit."""
    return r.pair in NUMBERS and any(r.pung_bits & run == run for run in beside(r.pair, length))


@yaku("xiao_sanlianke", "小三连刻", "Little Shifted Pungs", 6, S)
def xiao_sanlianke(r: PungsAndPair) -> bool:
    """Pungs of r, r+1 and the pair r−1 or r+2."""
    return _pair_next_to_run(r, 2)


@yaku("sanlianke", "三连刻", "Pure Shifted Pungs", 10, S)
def sanlianke(r: Pungs) -> bool:
    """Pungs of r, r+1, r+2."""
    return stepped(r.pung_bits, 3, 1)


@yaku("xiao_silianke", "小四连刻", "Little Four Shifted Pungs", 20, S,
      excludes=("sanlianke", "xiao_sanlianke"))
def xiao_silianke(r: PungsAndPair) -> bool:
    """Pungs of r, r+1, r+2 and the pair r−1 or r+3."""
    return _pair_next_to_run(r, 3)


@yaku("silianke", "四连刻", "Four Shifted Pungs", 30, S, excludes=("sanlianke", "duiduihu"))
def silianke(r: Pungs) -> bool:
    """Pungs of r … r+3."""
    return stepped(r.pung_bits, 4, 1)


YAKU = (xiao_sanlianke, sanlianke, xiao_silianke, silianke)
