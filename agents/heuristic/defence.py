"""Defence: how close each opponent looks to winning, and how dangerous each discard is.

Everything here reads only the ``PlayerView`` (melds, ponds, unseen counts, the wall).

Threat of an opponent (0–1): declared melds are the strongest public sign of progress (each one
is a group done and, with ``min_points`` to reach, usually a plan committed to); the wall's
progress adds more late in the hand; a flush signal (two or more melds, all in one number suit
plus honors) adds a further step, and makes that suit the danger.

Danger of a tile for one opponent (0–1, relative): honors by how many copies could still be held
(a honor with no unseen copy cannot complete anything but 十三幺); terminals below middle tiles
(fewer waits contain them); a suji of a tile that seat discarded (t±3) and the seat's own
discards (现物) lower the danger. Genbutsu is *not* fully safe under these rules — there is no
permanent furiten (RULES.md §4) — so it only scales the danger down.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from mjenv.game.view import PlayerView

LIVE_WALL = 70


@dataclass(frozen=True)
class DefenceParams:
    """Weights of the threat and danger model (documented in docs/agents.md)."""

    base_threat: float = 0.05
    meld_threat: float = 0.2
    late_threat: float = 0.45
    flush_threat: float = 0.2
    genbutsu: float = 0.2
    suji: float = 0.6
    flush_in_suit: float = 1.5
    flush_off_suit: float = 0.25


def flush_suit(view: PlayerView, seat: int) -> int | None:
    """The number suit ``seat`` visibly collects (≥2 melds, all that suit or honors), if any."""
    melds = view.melds[seat]
    if len(melds) < 2:
        return None
    suits = {m.tiles[0] // 9 for m in melds if m.tiles[0] < 27}
    return suits.pop() if len(suits) == 1 else None


def threats(view: PlayerView, p: DefenceParams) -> list[float]:
    """Threat 0–1 per seat (0 for the viewer itself)."""
    progress = 1.0 - view.live_wall_left / LIVE_WALL
    out = []
    for seat in range(4):
        if seat == view.seat:
            out.append(0.0)
            continue
        t = p.base_threat + p.meld_threat * len(view.melds[seat]) + p.late_threat * progress ** 2
        if flush_suit(view, seat) is not None:
            t += p.flush_threat
        out.append(min(1.0, t))
    return out


def tile_dangers(view: PlayerView, threat: list[float], p: DefenceParams,
                 tiles: Iterable[int] = range(34)) -> list[float]:
    """Threat-weighted danger of discarding each kind (34 values; only ``tiles`` filled)."""
    danger = [0.0] * 34
    tiles = tuple(tiles)
    for seat in range(4):
        w = threat[seat]
        if w <= 0.0:
            continue
        pond = {pt.tile for pt in view.ponds[seat]}
        fs = flush_suit(view, seat)
        for t in tiles:
            if t >= 27:
                d = (0.0, 0.1, 0.3, 0.5, 0.6)[view.unseen[t]]
            else:
                r = t % 9
                d = 0.6 if r in (0, 8) else 0.8 if r in (1, 7) else 1.0
                if (r >= 3 and t - 3 in pond) or (r <= 5 and t + 3 in pond):
                    d *= p.suji
                if view.unseen[t] == 0:
                    d *= 0.5
            if t in pond:
                d *= p.genbutsu
            if fs is not None:
                d *= p.flush_in_suit if (t >= 27 or t // 9 == fs) else p.flush_off_suit
            danger[t] += w * d
    return danger
