"""SingleAgentEnv: one learner against three agents; the registered id; opponent specs;
vector environments; re-deals; determinism."""

import functools
import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env

from mjenv.env import SINGLE_ENV_ID, IllegalActionWarning, SingleAgentEnv
from mjenv.env.actions import NUM_ACTIONS
from mjenv.env.observation import NUM_PLANES
from mjenv.game import IllegalActionError
from mjenv.rules import RuleConfig
from tests.env.helpers import RandomAgent, pick, tenhou_wall
from tests.scale import n

ROOT = Path(__file__).resolve().parents[2]


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
            assert info["action_mask"].any() and info["view"].seat == info["seat"]
            assert env.observation_space.contains(obs)
            assert (env.action_masks() == info["action_mask"].astype(bool)).all()
            obs, reward, terminated, truncated, info = env.step(pick(rng, info["action_mask"]))
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
    assert info["redeals"] == 1 and len(calls) == 2 and info["action_mask"].any()
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
        obs, reward, terminated, _, info = env.step(pick(rng, info["action_mask"]))
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
            masks = info["action_mask"]
            assert masks.shape == (2, NUM_ACTIONS) and obs.shape == (2, NUM_PLANES, 34)
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


# --------------------------------------------------------------------------- the registered id


def test_registered_single_id_passes_check_env_with_rgb_array():
    env = gymnasium.make(SINGLE_ENV_ID, render_mode="rgb_array", opponents="random")
    assert env.observation_space == gymnasium.spaces.Box(env.observation_space.low,
                                                        env.observation_space.high,
                                                        (NUM_PLANES, 34), np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IllegalActionWarning)   # check_env sends unmasked ids
        check_env(env.unwrapped)
    obs, info = env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (720, 1280, 3) and frame.dtype == np.uint8


def test_make_takes_specs_seat_and_rule_keywords():
    env = gymnasium.make(SINGLE_ENV_ID, opponents="heuristic", learner_seat=2, min_points=8)
    obs, info = env.reset(seed=5)
    inner = env.unwrapped
    assert info["seat"] == 2 and inner.rules == RuleConfig(min_points=8)
    assert [o.name for o in inner.opponents] == ["heuristic"] * 3
    assert len({id(o) for o in inner.opponents}) == 3       # three agents, not one shared
    assert obs.shape == (NUM_PLANES, 34) and env.observation_space.contains(obs)
    assert env.unwrapped.action_masks().dtype == bool
    assert (inner.action_masks() == info["action_mask"].astype(bool)).all()


def test_opponents_may_mix_specs_and_agents():
    mine = RandomAgent(4)
    env = SingleAgentEnv(opponents=["random", mine, "heuristic:efficiency"])
    assert env.opponents[1] is mine
    assert type(env.opponents[0]).__name__ == "RandomAgent" and env.opponents[0] is not mine
    assert SingleAgentEnv(opponents=["heuristic"] * 3).opponents[2].name == "heuristic"
    assert SingleAgentEnv().opponents[0].name == "heuristic"               # the default
    with pytest.raises(ValueError, match="unknown agent spec 'nobody'"):
        SingleAgentEnv(opponents="nobody")
    with pytest.raises(ValueError, match="one agent spec or three"):
        SingleAgentEnv(opponents=["random", "random"])
    with pytest.raises(ValueError, match="neither an agent spec nor an agent"):
        SingleAgentEnv(opponents=["random", 3, "random"])


def test_dict_observation_keeps_the_mask_in_the_observation():
    env = make_env(observation="dict", learner_seat=0)
    obs, info = env.reset(seed=2)
    assert set(obs) == {"observation", "action_mask"} and env.observation_space.contains(obs)
    assert (obs["action_mask"] == info["action_mask"]).all()
    with pytest.raises(ValueError, match="observation must be one of 'planes', 'dict'"):
        make_env(observation="box")


def test_nothing_before_reset_is_a_traceback():
    env = SingleAgentEnv(opponents="random", render_mode="ansi")
    for call in (env.action_masks, env.render, lambda: env.step(0)):
        with pytest.raises(ResetNeeded, match="call reset"):
            call()


def test_same_seed_same_episodes_with_spec_opponents():
    """Opponents built from specs are reseeded from the env's seed at every reset."""
    def trace(seed):
        env = SingleAgentEnv(opponents="random")
        rng = np.random.default_rng(0)
        obs, info = env.reset(seed=seed)
        out = []
        for _ in range(3):                      # three hands: the reseeding is per reset
            while True:
                obs, reward, term, _, info = env.step(pick(rng, info["action_mask"]))
                out.append((obs.copy(), reward))
                if term:
                    break
            obs, info = env.reset()
        return out
    a, b, c = trace(7), trace(7), trace(8)
    assert len(a) == len(b) and all((x[0] == y[0]).all() and x[1] == y[1] for x, y in zip(a, b))
    assert len(a) != len(c) or not all((x[0] == y[0]).all() for x, y in zip(a, c))


def test_the_env_layer_imports_agents_only_when_a_spec_is_given():
    code = ("import sys, mjenv.env; assert 'agents' not in sys.modules; "
            "mjenv.env.SingleAgentEnv(opponents='random'); assert 'agents' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
