"""The PettingZoo AEC environment: PettingZoo's own API and seed tests, and random play."""

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import mjenv.pettingzoo
from mjenv.env import IllegalActionWarning
from mjenv.game import IllegalActionError
from mjenv.env.actions import TSUMO
from tests.env.helpers import pick, tenhou_wall
from tests.scale import n


def test_api_test():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # api_test passes an unknown reset option
        api_test(mjenv.pettingzoo.env(), num_cycles=n(300, 1000))


def test_seed_test():
    seed_test(mjenv.pettingzoo.env, num_cycles=n(200, 1000))


def test_random_agents_play_hands():
    env = mjenv.pettingzoo.env(hand_context="random")
    rng = np.random.default_rng(3)
    for hand in range(n(100, 1000)):
        env.reset(seed=hand)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            totals[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            assert info["view"].seat == env.possible_agents.index(agent)
            env.step(pick(rng, obs["action_mask"]))
        assert sum(totals.values()) == pytest.approx(0.0, abs=1e-9)
        assert env.unwrapped.table.hand.over


def test_rewards_are_every_seats_score_change():
    env = mjenv.pettingzoo.env()
    env.reset(options={"wall": tenhou_wall()})
    assert env.agent_selection == "player_0"
    obs = env.observe("player_0")
    assert obs["action_mask"][TSUMO]
    env.step(TSUMO)
    deltas = env.unwrapped.table.hand.result.deltas
    assert deltas[0] > 0 and sum(deltas) == 0
    assert all(env.terminations.values())
    for i, agent in enumerate(env.possible_agents):
        assert env.rewards[agent] == pytest.approx(deltas[i] * 0.01)


def test_illegal_action():
    env = mjenv.pettingzoo.env()
    env.reset(seed=1)
    agent = env.agent_selection
    obs = env.observe(agent)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.warns(IllegalActionWarning, match="legal: "):
        env.step(bad)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1.0
    assert sum(v for a, v in env.rewards.items() if a != agent) == 0
    strict = mjenv.pettingzoo.env(illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step(bad)


def test_only_the_acting_agent_has_a_mask():
    env = mjenv.pettingzoo.env()
    env.reset(seed=2)
    for agent in env.possible_agents:
        assert env.observe(agent)["action_mask"].any() == (agent == env.agent_selection)


def test_render_ansi():
    env = mjenv.pettingzoo.env(render_mode="ansi", tile_style="ascii")
    env.reset(seed=0)
    assert "> seat 0 East (dealer)" in env.render()
