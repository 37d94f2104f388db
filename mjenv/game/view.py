"""PlayerView: exactly what one seat may see, as plain data.

The engine builds it (``Hand.view(seat)``); the observation encoder and rule-based agents read
only this, so nothing hidden can leak into either: other seats' concealed tiles and the wall
order are simply not in it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mjenv.game.actions import Action
from mjenv.rules import RuleConfig
from mjenv.tiles import TILE_NAMES, Meld, tile_name


@dataclass(frozen=True)
class PondTile:
    """One discard: ``tsumogiri`` when it was the kind just drawn; ``called`` when another
    seat claimed it (chi/pon/open kan — it then shows in that seat's meld, not here);
    ``order`` its place among all the hand's discards (0: the hand's first), the timeline
    that the four ponds alone do not keep."""

    tile: int
    tsumogiri: bool
    called: bool
    order: int


@dataclass(frozen=True)
class PlayerView:
    """The seat's view at a decision point (absolute seats 0–3 throughout).

    phase: ``"turn"`` (own turn: discard/tsumo/kan), ``"claim"`` (a discard to claim or pass),
    ``"rob"`` (an added kan that may be robbed).
    target_tile / target_from: the tile being decided on and who offered it — on ``"turn"``
    the tile just drawn (``None`` after chi/pon) and the seat itself.
    unseen: per kind, 4 minus every copy this seat can see (own hand, all melds, all ponds;
    concealed kans are public, RULES.md §3).
    kan_draw: on ``"turn"``, the tile just drawn is a kan's replacement from the dead wall
    (岭上开花 and 海底捞月 depend on it; everyone saw the kan).
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
    kan_draw: bool = False

    @classmethod
    def trusted(cls, fields: dict[str, Any]) -> "PlayerView":
        """The view of ``fields`` (every field, by name, in declaration order; the dict becomes
        the view's own), as ``PlayerView(**fields)`` makes it but without its frozen per-field
        ``__setattr__`` calls: for the engine, whose fields are complete and of the right
        types by construction (``tests/env/test_same_game.py`` checks the two are equal)."""
        view = object.__new__(cls)
        object.__setattr__(view, "__dict__", fields)
        return view

    def to_dict(self) -> dict:
        """The view as JSON-able data, field for field, in the notation of the logs: tiles as
        text (``"5m"``), melds as ``{"meld": "chi:345m", "called": "4m", "from": 2}``, pond
        tiles as ``{"tile", "tsumogiri", "called", "order"}``, ``unseen`` as a map from every
        kind to its count, ``legal`` as action texts. What external programs are sent
        (docs/protocol.md)."""
        return {
            "seat": self.seat,
            "hand": [tile_name(t) for t in self.hand],
            "melds": [[_meld_dict(m) for m in seat] for seat in self.melds],
            "ponds": [[{"tile": tile_name(p.tile), "tsumogiri": p.tsumogiri, "called": p.called,
                        "order": p.order} for p in pond] for pond in self.ponds],
            "unseen": dict(zip(TILE_NAMES, self.unseen)),
            "dealer": self.dealer,
            "round_wind": self.round_wind,
            "seat_wind": self.seat_wind,
            "repeat": self.repeat,
            "live_wall_left": self.live_wall_left,
            "scores": list(self.scores),
            "furiten": self.furiten,
            "phase": self.phase,
            "target_tile": None if self.target_tile is None else tile_name(self.target_tile),
            "target_from": self.target_from,
            "kan_draw": self.kan_draw,
            "legal": [str(a) for a in self.legal],
            "rules": self.rules.to_dict(),
        }


def _meld_dict(meld: Meld) -> dict:
    return {"meld": str(meld),
            "called": None if meld.called is None else tile_name(meld.called),
            "from": meld.from_seat}
