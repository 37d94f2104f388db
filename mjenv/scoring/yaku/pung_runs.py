"""连刻型 consecutive pungs of one suit (RULES.md §8)."""

from __future__ import annotations

from mjenv.scoring.reading import Reading
from mjenv.scoring.yaku.base import GROUPS, NUMBERS, S, yaku


def _runs(r: Reading, length: int) -> list[int]:
    """First tiles t of every run of pungs t, t+1, …, t+length-1 in one number suit
    (``Reading.pungs`` is sorted and holds each kind at most once)."""
    p = r.pungs
    return [p[j] for j in range(len(p) - length + 1)
            if p[j + length - 1] - p[j] == length - 1 and p[j + length - 1] < 27
            and p[j] // 9 == p[j + length - 1] // 9]


def _pair_extends(r: Reading, t: int, length: int) -> bool:
    """The pair is the rank just below or just above the run t … t+length-1 (same suit)."""
    return (t % 9 > 0 and r.pair == t - 1) or (t % 9 + length < 9 and r.pair == t + length)


@yaku("xiao_sanlianke", "小三连刻", "Little Shifted Pungs", 6, S, scope=GROUPS, pungs=2,
      pairs=NUMBERS)
def xiao_sanlianke(r: Reading) -> bool:
    """Pungs of r, r+1 and the pair r−1 or r+2."""
    return any(_pair_extends(r, t, 2) for t in _runs(r, 2))


@yaku("sanlianke", "三连刻", "Pure Shifted Pungs", 10, S, scope=GROUPS, pungs=3)
def sanlianke(r: Reading) -> bool:
    return bool(_runs(r, 3))


@yaku("xiao_silianke", "小四连刻", "Little Four Shifted Pungs", 20, S,
      excludes=("sanlianke", "xiao_sanlianke"), scope=GROUPS, pungs=3, pairs=NUMBERS)
def xiao_silianke(r: Reading) -> bool:
    """Pungs of r, r+1, r+2 and the pair r−1 or r+3."""
    return any(_pair_extends(r, t, 3) for t in _runs(r, 3))


@yaku("silianke", "四连刻", "Four Shifted Pungs", 30, S, excludes=("sanlianke", "duiduihu"),
      scope=GROUPS, pungs=4)
def silianke(r: Reading) -> bool:
    return bool(_runs(r, 4))


YAKU = (xiao_sanlianke, sanlianke, xiao_silianke, silianke)
