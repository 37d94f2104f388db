"""Shared helpers for the game tests: explicit walls from seat hands, scripted play."""

from __future__ import annotations

import json
import os
from typing import Mapping

from mjenv.game import Action, Hand
from mjenv.rules import RuleConfig
from mjenv.tiles import TILE_NAMES, parse_tiles

DATA = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data")

# Kinds in a spread-out order (stride 7 over 34): filler tiles rarely form pairs or chows.
_FILL_ORDER = tuple((k * 7) % 34 for k in range(34))


def scenarios() -> list[dict]:
    with open(os.path.join(DATA, "game_scenarios.json"), encoding="utf-8") as f:
        return json.load(f)


def scenario(name: str) -> dict:
    return next(s for s in scenarios() if s["name"] == name)


def scenario_hand(name: str, **overrides) -> tuple[Hand, list[str]]:
    """A conformance scenario's wall and config (``overrides`` replace config keys), plus its
    steps as ``"seat action"`` strings."""
    sc = scenario(name)
    cfg = {**sc["config"], **overrides}
    hand = Hand(RuleConfig(min_points=cfg["min_points"]), wall=sc["wall"], dealer=cfg["dealer"],
                round_wind=cfg["round_wind"], repeat=cfg["repeat"])
    return hand, [f"{s} {a}" for s, a in sc["steps"]]


def build_wall(hands: Mapping[int, str], draws: str = "", dead: str = "",
               dealer: int = 0) -> list[str]:
    """A RULES.md §2 wall: ``hands`` (seat → 13 tiles, mpsz), live ``draws`` from wall[52]
    on (in order), the dead wall's front ``dead``; every other position is filler."""
    pool = [4] * 34
    fixed = {s: parse_tiles(h) for s, h in hands.items()}
    draw_tiles, dead_tiles = parse_tiles(draws) if draws else [], parse_tiles(dead) if dead else []
    for tiles in [*fixed.values(), draw_tiles, dead_tiles]:
        for t in tiles:
            pool[t] -= 1
            if pool[t] < 0:
                raise ValueError(f"more than four {TILE_NAMES[t]} requested")
    for s, tiles in fixed.items():
        if len(tiles) != 13:
            raise ValueError(f"seat {s} hand has {len(tiles)} tiles")

    def filler():
        for _ in range(4):
            for k in _FILL_ORDER:
                if pool[k]:
                    pool[k] -= 1
                    yield k

    fill = filler()
    wall: list[int] = []
    for off in range(4):
        seat = (dealer + off) % 4
        wall += fixed[seat] if seat in fixed else [next(fill) for _ in range(13)]
    wall += draw_tiles
    wall += [next(fill) for _ in range(122 - len(wall))]
    wall += dead_tiles
    wall += list(fill)
    assert len(wall) == 136
    return [TILE_NAMES[t] for t in wall]


def play(hand: Hand, *steps: str) -> None:
    """Apply ``"seat action"`` steps, e.g. ``play(h, "0 discard 5m", "1 chi 345m")``."""
    for step in steps:
        seat, _, act = step.partition(" ")
        hand.step(int(seat), Action.parse(act))


def legal(hand: Hand, seat: int) -> set[str]:
    return {str(a) for a in hand.legal_actions(seat)}


def autoplay(hand: Hand, limit: int = 1000) -> None:
    """Finish the hand passively: pass every claim and win, discard the drawn tile."""
    for _ in range(limit):
        if hand.over:
            return
        seat = hand.to_act[0]
        acts = hand.legal_actions(seat)
        if Action("pass") in acts:
            hand.step(seat, Action("pass"))
            continue
        drawn = hand.view(seat).target_tile
        choice = Action("discard", drawn) if drawn is not None else next(
            a for a in acts if a.kind == "discard")
        hand.step(seat, choice)
    raise RuntimeError("hand did not end")
