"""花色型 suits (RULES.md §8), read from the bit mask of suits present (``Reading.suits``)."""

from __future__ import annotations

from mjenv.scoring.reading import DRAGON, NUMBER_SUITS, SUIT_M, SUIT_P, SUIT_S, WIND, Reading
from mjenv.scoring.yaku.base import ANY, HONORS_ONLY, NUMBERS_ONLY, S, SUITS, yaku

_HONORS = WIND | DRAGON
_ONE_SUIT = (SUIT_M, SUIT_P, SUIT_S)
_TWO_SUITS = (SUIT_M | SUIT_P, SUIT_M | SUIT_S, SUIT_P | SUIT_S)


@yaku("quemen", "缺门", "Missing One Suit", 1, ANY, scope=SUITS, within_suits=NUMBERS_ONLY,
      most_suits=2)
def quemen(r: Reading) -> bool:
    """Number tiles of exactly two suits, no honors."""
    return r.suits in _TWO_SUITS


@yaku("wumenqi", "五门齐", "All Types", 6, S, scope=SUITS)
def wumenqi(r: Reading) -> bool:
    return r.suits == NUMBER_SUITS | _HONORS


@yaku("hunyise", "混一色", "Half Flush", 6, ANY, scope=SUITS, most_suits=1)
def hunyise(r: Reading) -> bool:
    return r.suits & NUMBER_SUITS in _ONE_SUIT and r.suits & _HONORS != 0


@yaku("qingyise", "清一色", "Full Flush", 20, ANY, scope=SUITS, within_suits=NUMBERS_ONLY,
      most_suits=1)
def qingyise(r: Reading) -> bool:
    return r.suits in _ONE_SUIT


@yaku("ziyise", "字一色", "All Honors", 40, ANY,
      excludes=("duiduihu", "hunlaotou", "hunquan", "liang_xushu", "san_xushu"), scope=SUITS,
      within_suits=HONORS_ONLY)
def ziyise(r: Reading) -> bool:
    return r.suits & NUMBER_SUITS == 0


YAKU = (quemen, wumenqi, hunyise, qingyise, ziyise)
