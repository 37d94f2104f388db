"""SingleAgentEnv: one learner against three agents; vector environments; re-deals."""

import functools

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from mjenv.env import IllegalActionWarning, SingleAgentEnv
from mjenv.env.actions import NUM_ACTIONS
from mjenv.game import IllegalActionError
from mjenv.rules import RuleConfig
from tests.env.helpers import RandomAgent, pick, tenhou_wall
from tests.scale import n


def make_env(seed: int = 0, **kwargs) -> SingleAgentEnv:
    return SingleAgentEnv([RandomAgent(seed + k) for k in (1, 2, 3)], **kwargs)


class IllegalAgent(RandomAgent):
    def act(self, observation, mask, view):
        return int(np.flatnonzero(mask == 0)[0])


def test_check_env():
    with pytest.warns(IllegalActionWarning):
        check_env(make_env(), skip_render_check=True)


def test_random_learner_plays_hands():
    env = make_env(hand_context="random")
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=0)
    seats = set()
    for _ in range(n(100, 1000)):
        seats.add(info["seat"])
        ret = 0.0
        while True:
            assert obs["action_mask"].any() and info["view"].seat == info["seat"]
            obs, reward, terminated, truncated, info = env.step(pick(rng, obs["action_mask"]))
            ret += reward
            assert sum(info["rewards"]) == 0
            if terminated:
                break
            assert reward == 0.0
        deltas = env.table.hand.result.deltas
        assert ret == pytest.approx(deltas[info["seat"]] * 0.01)
        obs, info = env.reset()
    assert seats == {0, 1, 2, 3}


def test_fixed_seat_and_option():
    env = make_env(learner_seat=2)
    assert env.reset(seed=1)[1]["seat"] == 2
    assert env.reset(options={"learner_seat": 3})[1]["seat"] == 3
    with pytest.raises(ValueError, match="learner_seat"):
        env.reset(options={"learner_seat": 4})
    with pytest.raises(ValueError, match="opponents"):
        SingleAgentEnv([RandomAgent()])


def test_hand_over_before_learner_decides_is_redealt():
    env = make_env(learner_seat=1)
    table_reset = env.table.reset
    calls = []

    def first_hand_tenhou(rng, options):
        calls.append(1)
        table_reset(rng, {"wall": tenhou_wall()} if len(calls) == 1 else options)

    env.table.reset = first_hand_tenhou

    class Greedy(RandomAgent):             # the dealer takes its 天胡
        def act(self, observation, mask, view):
            return 102 if mask[102] else super().act(observation, mask, view)

    env.opponents[2] = Greedy(9)            # seat 0 = three places after the learner (seat 1)
    obs, info = env.reset(seed=0)
    assert info["redeals"] == 1 and len(calls) == 2 and obs["action_mask"].any()
    with pytest.raises(ValueError, match="wall"):
        env.reset(options={"wall": tenhou_wall()})


def test_illegal_opponent_raises():
    env = SingleAgentEnv([IllegalAgent(), IllegalAgent(), IllegalAgent()], learner_seat=1)
    with pytest.raises(IllegalActionError, match="opponent"):
        env.reset(seed=0)


def test_match_episode_return_is_final_score():
    env = make_env(rules=RuleConfig(rounds=1), episode="match", learner_seat=0)
    rng = np.random.default_rng(1)
    obs, info = env.reset(seed=1)
    ret = 0.0
    while True:
        obs, reward, terminated, _, info = env.step(pick(rng, obs["action_mask"]))
        ret += reward
        if terminated:
            break
    assert env.table.match.over
    assert ret == pytest.approx(env.table.match.scores[0] * 0.01)


@pytest.mark.parametrize("vector", ["sync", "async"])
def test_vector_envs(vector):
    fns = [functools.partial(make_env, seed=10 * i, hand_context="random") for i in range(2)]
    cls = gymnasium.vector.SyncVectorEnv if vector == "sync" else gymnasium.vector.AsyncVectorEnv
    envs = cls(fns)
    try:
        assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
        rng = np.random.default_rng(0)
        obs, info = envs.reset(seed=3)
        finished = 0
        while finished < n(4, 20):
            masks = obs["action_mask"]
            assert masks.shape == (2, NUM_ACTIONS)
            actions = np.array([pick(rng, m) for m in masks])
            obs, reward, terminated, truncated, info = envs.step(actions)
            finished += int(terminated.sum())
        masks = envs.call("action_masks")
        assert len(masks) == 2 and masks[0].dtype == bool
    finally:
        envs.close()


def test_render_ansi():
    env = make_env(render_mode="ansi", learner_seat=0)
    env.reset(seed=0)
    assert "> seat 0 East (dealer)" in env.render()
