"""Agents never choose a masked action (issue 5: ≥ 500 hands each in the full run)."""

import pytest

from agents import make_agent
from tests.agents.helpers import play
from tests.scale import n


@pytest.mark.parametrize("specs", [
    ("random",) * 4,
    ("heuristic", "heuristic:efficiency", "heuristic:nodefence", "random"),
])
def test_agents_only_choose_legal_actions(specs):
    agents = [make_agent(spec, seed=s) for s, spec in enumerate(specs)]
    decisions = {spec: 0 for spec in specs}

    def count(seat, view, aid):
        decisions[specs[seat]] += 1

    for seed in range(n(100, 500) if specs[0] == "random" else n(40, 500)):
        hand = play(agents, seed=seed, on_decision=count)     # asserts mask[aid] == 1
        hand.check_invariants()
    assert all(v > 0 for v in decisions.values())
