"""Scoring (RULES.md §6–§9): readings of a winning hand, every yaku, exclusions, the best P.

``score`` is the engine's int-level entry point, ``score_hand`` the string-level public API.
Settlement (the §6 payments) lives in ``mjenv.scoring.settle``.
"""

from mjenv.scoring.context import WinContext
from mjenv.scoring.reading import Group, Reading
from mjenv.scoring.score import (NotWinningHand, ScoreResult, clear_caches, counted,
                                 holding_yaku, readings, score, score_hand)
from mjenv.scoring.yaku import YAKU, Yaku

__all__ = ["Group", "NotWinningHand", "Reading", "ScoreResult", "WinContext", "YAKU", "Yaku",
           "clear_caches", "counted", "holding_yaku", "readings", "score", "score_hand"]
