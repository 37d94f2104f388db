"""步步高型 stepped chows of one suit (RULES.md §8)."""

from __future__ import annotations

from mjenv.scoring.reading import Reading
from mjenv.scoring.yaku.base import GROUPS, S, yaku


def _stepped(r: Reading, n: int) -> bool:
    """Chows starting t, t+k, …, t+(n−1)k in one suit, k = 1 or 2 (n = 3 or 4)."""
    c = set(r.chows)
    for t in c:
        for k in (1, 2):
            if t + k in c and t + 2 * k in c and (n == 3 or t + 3 * k in c) \
                    and t % 9 + (n - 1) * k <= 6:
                return True
    return False


@yaku("yise_sanbugao", "一色三步高", "Pure Shifted Chows", 6, S, scope=GROUPS, chows=3)
def yise_sanbugao(r: Reading) -> bool:
    return _stepped(r, 3)


@yaku("yise_sibugao", "一色四步高", "Four Pure Shifted Chows", 20, S,
      excludes=("yise_sanbugao",), scope=GROUPS, chows=4)
def yise_sibugao(r: Reading) -> bool:
    return _stepped(r, 4)


YAKU = (yise_sanbugao, yise_sibugao)
