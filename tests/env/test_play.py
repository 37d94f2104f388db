"""``mjenv.env.play``: the one loop that plays a deal with agents."""

from __future__ import annotations

import numpy as np
import pytest

from agents import make_agent
from mjenv.env import MaskedActionError, play
from mjenv.game import Hand


def test_a_deal_is_played_to_its_end_and_each_step_seen():
    hand = Hand(seed=3)
    steps = []
    play(hand, [make_agent("random", seed=s) for s in range(4)], on_step=steps.append)
    assert hand.over and steps
    decided = [e for e in hand.log if e["type"] == "decide"]
    assert [(s.seat, str(s.action)) for s in steps] == [(e["seat"], e["action"]) for e in decided]
    assert all(s.mask[s.action_id] for s in steps)


def test_seats_without_an_agent_are_left_to_decide():
    hand = Hand(seed=4)
    agents = [make_agent("random", seed=s) for s in range(4)]
    external = [None, agents[1], agents[2], agents[3]]
    while not hand.over:
        play(hand, external)
        if hand.over:
            break
        assert hand.to_act and all(s == 0 for s in hand.to_act)     # only seat 0 is waited for
        view = hand.view(0)
        hand.step(0, view.legal[0])
    assert hand.over


def test_observations_only_for_agents_that_need_them():
    seen = []

    class Reader:
        name = "reader"

        def __init__(self, needs: bool):
            self.needs_observation = needs

        def act(self, observation, mask, view):
            seen.append((self.needs_observation, observation is not None))
            return int(np.flatnonzero(mask)[0])

    play(Hand(seed=5), [Reader(True), Reader(False), Reader(True), Reader(False)])
    assert set(seen) == {(True, True), (False, False)}


def test_a_masked_action_is_refused_before_anything_changes():
    class Wrong:
        name = "wrong"
        needs_observation = False

        def act(self, observation, mask, view):
            return int(np.flatnonzero(mask == 0)[0])

    hand = Hand(seed=6)
    before = list(hand.log)
    with pytest.raises(MaskedActionError, match="wrong.*seat 0.*not legal"):
        play(hand, [Wrong()] * 4)
    assert hand.log == before
