"""Logs for the viewer tests, written with the engine's own log API (``Hand.log`` /
``Match.log`` and ``dump_log``), played by the baseline agents so that calls, kans and wins
occur."""

from __future__ import annotations

from pathlib import Path

from mjenv.env.actions import decode_action, legal_mask
from mjenv.game import Hand, Match, dump_log
from mjenv.rules import RuleConfig

SPECS = ("heuristic", "heuristic:nodefence", "heuristic:efficiency", "random")


def _agents(seed: int) -> list:
    from agents import make_agent
    return [make_agent(spec, seed=seed * 4 + i) for i, spec in enumerate(SPECS)]


def _play(hand: Hand, agents: list) -> None:
    while not hand.over:
        seat = hand.to_act[0]
        view = hand.view(seat)
        hand.step(seat, decode_action(int(agents[seat].act(None, legal_mask(view), view)), view))


def played_hand(seed: int) -> Hand:
    hand = Hand(seed=seed)
    _play(hand, _agents(seed))
    return hand


def played_match(seed: int, rounds: int = 1) -> Match:
    match = Match(RuleConfig(rounds=rounds), seed=seed)
    agents = _agents(seed)
    while True:
        _play(match.hand, agents)
        if match.over:
            return match
        match.next_hand()


def write_log(events: list[dict], path: Path) -> Path:
    with open(path, "w", encoding="utf-8") as fp:
        dump_log(events, fp)
    return path
