"""Worlds drawn by a reading of the opponents (``agents.search.worlds``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agents import make_agent
from agents.search.worlds import sample_read
from mjenv.env.play import decide
from mjenv.game import Hand
from mjenv.game.world import world
from mjenv.rules import RuleConfig


@dataclass(frozen=True)
class _Read:
    seat: int
    ready: float
    tiles: np.ndarray


def _views(seed: int, every: int = 6):
    hand = Hand(RuleConfig(), seed=seed)
    players = [make_agent("heuristic", seed=s) for s in range(4)]
    k = 0
    while not hand.over:
        seat = hand.to_act[0]
        view = hand.view(seat)
        if view.phase == "turn" and k % every == 0:
            yield view
        k += 1
        hand.step(seat, decide(players[seat], view).action)


def test_an_opponent_read_as_ready_on_a_kind_can_win_on_it_in_the_world():
    rng = np.random.default_rng(0)
    built = tried = 0
    for seed in range(3):
        for view in _views(seed):
            target = (view.seat + 1) % 4
            kind = int(np.argmax(view.unseen))
            tiles = np.zeros(34)
            tiles[kind] = 1.0
            reads = [_Read(s, 1.0 if s == target else 0.0, tiles) for s in range(4)
                     if s != view.seat]
            hidden = sample_read(view, reads, rng)
            w = world(view, hidden)
            assert w.view(view.seat) == view
            w.check_invariants()
            tried += 1
            if kind in w.waits(target):
                assert w._ron_result(target, kind) is not None     # a legal win on it
                built += 1
    assert tried >= 10 and built >= tried // 2


def test_an_opponent_read_as_never_ready_is_dealt_uniformly():
    view = next(_views(1))
    uniform = np.full(34, 1 / 34)
    reads = [_Read(s, 0.0, uniform) for s in range(4) if s != view.seat]
    a = sample_read(view, reads, np.random.default_rng(5))
    b = sample_read(view, reads, np.random.default_rng(5))
    assert a == b
    world(view, a).check_invariants()
