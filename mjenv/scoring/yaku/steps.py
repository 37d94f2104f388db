"""步步高型 stepped chows of one suit (RULES.md §8)."""

from __future__ import annotations

from mjenv.scoring.reading import Reading
from mjenv.scoring.yaku.base import GROUPS, S, yaku


def _step_start_bits(n: int, k: int) -> int:
    """Bits t of the number tiles where chows t, t+k, …, t+(n−1)k all fit in t's suit."""
    return sum(1 << t for t in range(27) if t % 9 + (n - 1) * k <= 6)


_STEP_STARTS = {n: ((_step_start_bits(n, 1), 1), (_step_start_bits(n, 2), 2)) for n in (3, 4)}


def _stepped(r: Reading, n: int) -> bool:
    """Chows starting t, t+k, …, t+(n−1)k in one suit, k = 1 or 2 (n = 3 or 4)."""
    c = r.chow_bits
    if c.bit_count() < n:               # fewer distinct chows than steps
        return False
    for starts, k in _STEP_STARTS[n]:
        bits = c & starts & c >> k & c >> 2 * k
        if n == 4:
            bits &= c >> 3 * k
        if bits:
            return True
    return False


@yaku("yise_sanbugao", "一色三步高", "Pure Shifted Chows", 6, S, scope=GROUPS, chows=3,
      suit_chows=3)
def yise_sanbugao(r: Reading) -> bool:
    return _stepped(r, 3)


@yaku("yise_sibugao", "一色四步高", "Four Pure Shifted Chows", 20, S,
      excludes=("yise_sanbugao",), scope=GROUPS, chows=4, most_suits=2, suit_chows=4)
def yise_sibugao(r: Reading) -> bool:
    return _stepped(r, 4)


YAKU = (yise_sanbugao, yise_sibugao)
