"""幺九型 terminals (RULES.md §8): 混全带幺, 纯全带幺, 混老头, 清老头."""

from __future__ import annotations

from mjenv.scoring.reading import DRAGON, WIND, Reading
from mjenv.scoring.yaku.base import GROUPS, NUMBERS_ONLY, OUTSIDE, S, TERMINALS, TILES, yaku

_TERMINAL_RANKS = (1 << 1) | (1 << 9)


# Tile bits: the terminals and honors; the chow starts whose chow holds a terminal.
_OUTSIDE = sum(1 << t for t in range(34) if t >= 27 or t % 9 in (0, 8))
_OUTSIDE_CHOWS = sum(1 << t for t in range(27) if t % 9 in (0, 6))


def _all_groups_outside(r: Reading) -> bool:
    """Every meld and the pair holds a terminal or an honor."""
    return (_OUTSIDE >> r.pair & 1 == 1 and not r.chow_bits & ~_OUTSIDE_CHOWS
            and not r.pung_bits & ~_OUTSIDE)


@yaku("hunquan", "混全带幺", "Outside Hand", 4, S, scope=GROUPS, pairs=OUTSIDE,
      within_ranks=(1, 2, 3, 7, 8, 9))
def hunquan(r: Reading) -> bool:
    return _all_groups_outside(r)


@yaku("chunquan", "纯全带幺", "Terminals in All Sets", 6, S, excludes=("hunquan",), scope=GROUPS,
      pairs=TERMINALS, within_ranks=(1, 2, 3, 7, 8, 9), within_suits=NUMBERS_ONLY)
def chunquan(r: Reading) -> bool:
    return r.suits & (WIND | DRAGON) == 0 and _all_groups_outside(r)


@yaku("hunlaotou", "混老头", "All Terminals and Honors", 20, S,
      excludes=("hunquan", "duiduihu"), scope=TILES, within_ranks=(1, 9))
def hunlaotou(r: Reading) -> bool:
    """Only terminals and honors (a standard hand of those is necessarily all pungs)."""
    return r.ranks & ~_TERMINAL_RANKS == 0


@yaku("qinglaotou", "清老头", "All Terminals", 40, S,
      excludes=("chunquan", "hunquan", "hunlaotou", "duiduihu", "liang_xushu", "san_xushu",
                "jishu_duidui", "laoshao"), scope=TILES, within_ranks=(1, 9),
      within_suits=NUMBERS_ONLY)
def qinglaotou(r: Reading) -> bool:
    return r.suits & (WIND | DRAGON) == 0 and r.ranks & ~_TERMINAL_RANKS == 0


YAKU = (hunquan, chunquan, hunlaotou, qinglaotou)
