"""连刻型 consecutive pungs of one suit (RULES.md §8)."""

from __future__ import annotations

from mjenv.scoring.reading import Reading
from mjenv.scoring.yaku.base import GROUPS, NUMBERS, S, yaku


def _run_start_bits(length: int) -> int:
    """Bits t of the number tiles where a run t … t+length-1 fits inside one suit."""
    return sum(1 << t for t in range(27) if t % 9 + length <= 9)


_RUN_STARTS = {n: _run_start_bits(n) for n in (2, 3, 4)}


def _runs(r: Reading, length: int) -> int:
    """Bits t of every run of pungs t, t+1, …, t+length-1 in one number suit."""
    bits = r.pung_bits & _RUN_STARTS[length]
    for k in range(1, length):
        bits &= r.pung_bits >> k
    return bits


def _pair_extends(r: Reading, runs: int, length: int) -> bool:
    """The pair is the rank just below or just above one of the runs (bits t of runs
    t … t+length-1, same suit)."""
    p = r.pair
    if p >= 27:
        return False
    return bool((p % 9 < 8 and runs >> (p + 1) & 1)             # run starts just above
                or (p % 9 >= length and runs >> (p - length) & 1))  # run ends just below


@yaku("xiao_sanlianke", "小三连刻", "Little Shifted Pungs", 6, S, scope=GROUPS, pungs=2,
      pairs=NUMBERS, adjacent_pungs=1)
def xiao_sanlianke(r: Reading) -> bool:
    """Pungs of r, r+1 and the pair r−1 or r+2."""
    return _pair_extends(r, _runs(r, 2), 2)


@yaku("sanlianke", "三连刻", "Pure Shifted Pungs", 10, S, scope=GROUPS, pungs=3, adjacent_pungs=2)
def sanlianke(r: Reading) -> bool:
    return _runs(r, 3) != 0


@yaku("xiao_silianke", "小四连刻", "Little Four Shifted Pungs", 20, S,
      excludes=("sanlianke", "xiao_sanlianke"), scope=GROUPS, pungs=3, pairs=NUMBERS,
      adjacent_pungs=2)
def xiao_silianke(r: Reading) -> bool:
    """Pungs of r, r+1, r+2 and the pair r−1 or r+3."""
    return _pair_extends(r, _runs(r, 3), 3)


@yaku("silianke", "四连刻", "Four Shifted Pungs", 30, S, excludes=("sanlianke", "duiduihu"),
      scope=GROUPS, pungs=4, adjacent_pungs=3)
def silianke(r: Reading) -> bool:
    return _runs(r, 4) != 0


YAKU = (xiao_sanlianke, sanlianke, xiao_silianke, silianke)
