"""步步高型 stepped chows of one suit (RULES.md §8)."""

from __future__ import annotations

from mjenv.scoring.views import Chows
from mjenv.scoring.yaku.base import S, yaku
from mjenv.scoring.yaku.words import stepped


@yaku("yise_sanbugao", "一色三步高", "Pure Shifted Chows", 6, S)
def yise_sanbugao(r: Chows) -> bool:
    """Chows starting r, r+k, r+2k (k = 1 or 2)."""
    return stepped(r.chow_bits, 3, 1) or stepped(r.chow_bits, 3, 2)


@yaku("yise_sibugao", "一色四步高", "Four Pure Shifted Chows", 20, S,
      excludes=("yise_sanbugao",))
def yise_sibugao(r: Chows) -> bool:
    """Chows starting r, r+k, r+2k, r+3k (k = 1 or 2)."""
    return stepped(r.chow_bits, 4, 1) or stepped(r.chow_bits, 4, 2)


YAKU = (yise_sanbugao, yise_sibugao)
