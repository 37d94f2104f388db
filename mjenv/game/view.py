"""PlayerView: exactly what one seat may see, as plain data.

The engine builds it (``Hand.view(seat)``); the observation encoder and rule-based agents read
only this, so nothing hidden can leak into either: other seats' concealed tiles and the wall
order are simply not in it.
"""

from __future__ import annotations

from dataclasses import dataclass

from mjenv.game.actions import Action
from mjenv.rules import RuleConfig
from mjenv.tiles import Meld


@dataclass(frozen=True)
class PondTile:
    """One discard: ``tsumogiri`` when it was the kind just drawn; ``called`` when another
    seat claimed it (chi/pon/open kan — it then shows in that seat's meld, not here)."""

    tile: int
    tsumogiri: bool
    called: bool


@dataclass(frozen=True)
class PlayerView:
    """The seat's view at a decision point (absolute seats 0–3 throughout).

    phase: ``"turn"`` (own turn: discard/tsumo/kan), ``"claim"`` (a discard to claim or pass),
    ``"rob"`` (an added kan that may be robbed).
    target_tile / target_from: the tile being decided on and who offered it — on ``"turn"``
    the tile just drawn (``None`` after chi/pon) and the seat itself.
    unseen: per kind, 4 minus every copy this seat can see (own hand, all melds, all ponds;
    concealed kans are public, RULES.md §3).
    """

    seat: int
    hand: tuple[int, ...]
    melds: tuple[tuple[Meld, ...], ...]
    ponds: tuple[tuple[PondTile, ...], ...]
    unseen: tuple[int, ...]
    dealer: int
    round_wind: int
    seat_wind: int
    repeat: int
    live_wall_left: int
    scores: tuple[int, ...]
    furiten: bool
    phase: str
    target_tile: int | None
    target_from: int | None
    legal: tuple[Action, ...]
    rules: RuleConfig
