"""The game engine: one hand (:class:`Hand`), a match (:class:`Match`), logs and replay.

No RL concepts live here; ``mjenv.env`` adapts the engine. See ``docs/game.md``.
"""

from mjenv.game.actions import Action
from mjenv.game.hand import Hand, HandResult, IllegalActionError
from mjenv.game.log import (LogFolder, ReplayError, dump_log, load_log, public_events,
                            read_log, replay)
from mjenv.game.match import Match, next_deal, ranking
from mjenv.game.view import PlayerView, PondTile
from mjenv.game.wall import WallError, parse_wall, shuffled_wall

__all__ = [
    "Action", "Hand", "HandResult", "IllegalActionError", "LogFolder", "Match", "PlayerView",
    "PondTile", "ReplayError", "WallError", "dump_log", "load_log", "next_deal", "parse_wall",
    "public_events", "ranking", "read_log", "replay", "shuffled_wall",
]
