"""花色型 suits (RULES.md §8), read from the suits the tiles show (``Reading.suits``)."""

from __future__ import annotations

from mjenv.scoring.reading import ALL_SUITS, HONOR_SUITS, NUMBER_SUITS
from mjenv.scoring.views import Suits
from mjenv.scoring.yaku.base import ANY, S, yaku
from mjenv.scoring.yaku.words import number_suits


@yaku("quemen", "缺门", "Missing One Suit", 1, ANY)
def quemen(r: Suits) -> bool:
    """Number tiles of exactly two suits, no honors."""
    return len(r.suits) == 2 and r.suits <= NUMBER_SUITS


@yaku("wumenqi", "五门齐", "All Types", 6, S)
def wumenqi(r: Suits) -> bool:
    """Holds m, p, s, a wind and a dragon."""
    return r.suits == ALL_SUITS


@yaku("hunyise", "混一色", "Half Flush", 6, ANY)
def hunyise(r: Suits) -> bool:
    """One suit plus honors (both present)."""
    return number_suits(r) == 1 and bool(r.suits & HONOR_SUITS)


@yaku("qingyise", "清一色", "Full Flush", 20, ANY)
def qingyise(r: Suits) -> bool:
    """One suit only."""
    return len(r.suits) == 1 and r.suits <= NUMBER_SUITS


@yaku("ziyise", "字一色", "All Honors", 40, ANY,
      excludes=("duiduihu", "hunlaotou", "hunquan", "liang_xushu", "san_xushu"))
def ziyise(r: Suits) -> bool:
    """Honors only."""
    return r.suits <= HONOR_SUITS


YAKU = (quemen, wumenqi, hunyise, qingyise, ziyise)
