"""MahjongEnv (Gymnasium): API checker, registration, random play, rewards, options, illegal
actions."""

import re
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env

from mjenv.env import ENV_ID, IllegalActionWarning, MahjongEnv, register_envs
from mjenv.env.actions import NUM_ACTIONS, PASS
from mjenv.env.observation import NUM_PLANES
from mjenv.game import IllegalActionError, shuffled_wall
from mjenv.rules import RuleConfig
from tests.env.helpers import pick
from tests.scale import n


def play_hands(env, hands, seed):
    """Random mask-driven play of ``hands`` hands; returns each hand's deltas and the steps."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    done_hands, steps = 0, 0
    totals = []
    while done_hands < hands:
        assert env.observation_space.contains(obs)
        assert obs["action_mask"].any()
        seat = info["current_player"]
        assert info["view"].seat == seat
        obs, reward, terminated, truncated, info = env.step(pick(rng, obs["action_mask"]))
        steps += 1
        assert not truncated and sum(info["rewards"]) == 0
        assert reward == pytest.approx(info["rewards"][seat] * env.table.reward_scale)
        if terminated:
            assert not obs["action_mask"].any()
            totals.append(info["result"].deltas)
            assert list(info["result"].deltas) == info["rewards"]
            done_hands += 1
            obs, info = env.reset()
    return totals, steps


def test_check_env():
    register_envs()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IllegalActionWarning)   # check_env sends unmasked ids
        check_env(gymnasium.make(ENV_ID, render_mode="ansi").unwrapped)


def test_check_env_rgb_array():
    register_envs()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IllegalActionWarning)
        check_env(gymnasium.make(ENV_ID, render_mode="rgb_array").unwrapped)


def test_rule_options_as_keywords_dicts_or_config():
    rules = gymnasium.make(ENV_ID, min_points=8).unwrapped.rules
    assert rules == RuleConfig(min_points=8)
    assert gymnasium.make(ENV_ID, rules={"min_points": 8, "rounds": 1}).unwrapped.rules \
        == RuleConfig(min_points=8, rounds=1)
    assert MahjongEnv(RuleConfig(rounds=1), min_points=3).rules == RuleConfig(3, 1)
    with pytest.raises(TypeError, match="'min_pints'.*min_points, rounds"):
        gymnasium.make(ENV_ID, min_pints=8)
    with pytest.raises(TypeError, match="rules must be a RuleConfig, a dict"):
        MahjongEnv(rules=8)
    with pytest.raises(ValueError, match="unknown RuleConfig option"):
        MahjongEnv(rules={"minpoints": 8})
    with pytest.raises(ValueError, match="min_points"):
        MahjongEnv(min_points=-1)
    with pytest.raises(ValueError, match="render_mode must be None or one of 'ansi', 'human', "
                       "'rgb_array'"):
        MahjongEnv(render_mode="video")


def test_every_documented_argument_is_accepted_by_make():
    import mjenv.env.gym_env as gym_env
    section = gym_env.__doc__.split("Arguments\n---------")[1].split("``reset(")[0]
    names = set(re.findall(r"``([a-z_]+)``(?::| \()", section))      # "``name``:", "``name`` ("
    assert {"rules", "episode", "hand_context", "illegal_action", "reward_scale",
            "illegal_penalty", "render_mode", "tile_style"} <= names
    values = {"rules": {"rounds": 1}, "episode": "match", "hand_context": "fixed",
              "illegal_action": "raise", "reward_scale": 1.0, "illegal_penalty": -2.0,
              "render_mode": "rgb_array", "tile_style": "ascii", "min_points": 7, "rounds": 1}
    env = gymnasium.make(ENV_ID, **{k: values[k] for k in names | {"min_points"}}).unwrapped
    assert env.rules == RuleConfig(7, 1) and env.table.episode == "match"
    assert env.table.reward_scale == 1.0 and env.render_mode == "rgb_array"


def test_nothing_before_reset_is_a_traceback():
    env = MahjongEnv(render_mode="rgb_array")
    for call in (env.action_masks, env.render, lambda: env.step(0)):
        with pytest.raises(ResetNeeded, match="call reset"):
            call()


def test_registered_and_make():
    register_envs()
    register_envs()                       # idempotent
    env = gymnasium.make(ENV_ID, hand_context="random")
    obs, info = env.reset(seed=1)
    assert obs["observation"].shape == (NUM_PLANES, 34)
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (NUM_ACTIONS,)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IllegalActionWarning)
        check_env(env.unwrapped)


def test_random_agents_play_hands():
    totals, steps = play_hands(MahjongEnv(hand_context="random"), n(100, 1000), seed=5)
    assert len(totals) == n(100, 1000) and steps > len(totals)


def test_same_seed_same_episode():
    def trace(seed):
        env = MahjongEnv()
        rng = np.random.default_rng(0)
        obs, _ = env.reset(seed=seed)
        out = [obs["observation"].copy()]
        for _ in range(60):
            obs, r, term, _, _ = env.step(pick(rng, obs["action_mask"]))
            out.append(obs["observation"].copy())
            if term:
                break
        return out
    a, b, c = trace(11), trace(11), trace(12)
    assert all((x == y).all() for x, y in zip(a, b)) and len(a) == len(b)
    assert not all((x == y).all() for x, y in zip(a, c))


def test_reset_options():
    wall = shuffled_wall(3)
    env = MahjongEnv()
    obs, info = env.reset(options={"wall": list(wall), "dealer": 2, "round_wind": "S",
                                   "repeat": 4, "scores": (10, 20, -30, 0)})
    view = info["view"]
    assert info["current_player"] == 2 and view.dealer == 2 and view.round_wind == 1
    assert view.repeat == 4 and view.scores == (10, 20, -30, 0)
    assert sorted(view.hand) == sorted(wall[0:13] + (wall[52],))   # the dealer gets wall[0:13]
    with pytest.raises(ValueError, match="unknown reset option"):
        env.reset(options={"dealr": 1})
    with pytest.raises(ValueError):
        env.reset(options={"dealer": 7})


def test_random_context_covers_winds_and_dealers():
    env = MahjongEnv(hand_context="random")
    seen = set()
    for seed in range(60):
        _, info = env.reset(seed=seed)
        v = info["view"]
        assert sum(v.scores) == 0
        seen.add((v.dealer, v.round_wind))
    assert len(seen) >= 12
    with pytest.raises(ValueError, match="hand_context"):
        MahjongEnv(episode="match", hand_context="random")


def test_illegal_action_penalized_by_default():
    env = MahjongEnv()
    obs, info = env.reset(seed=0)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.warns(IllegalActionWarning, match=r"not legal.*legal: "):
        obs, reward, terminated, _, info = env.step(bad)
    assert terminated and reward == -1.0 and info["rewards"] == [0, 0, 0, 0]
    with pytest.warns(IllegalActionWarning):
        env.reset(seed=0)
        env.step(PASS)                    # not an own-turn action
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_illegal_action_raise():
    env = MahjongEnv(illegal_action="raise")
    obs, info = env.reset(seed=0)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="legal: "):
        env.step(bad)
    with pytest.raises(IllegalActionError):
        env.step(NUM_ACTIONS)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    env.step(legal)                        # the refused ids changed nothing
    assert env.action_masks().dtype == bool


def test_match_episode():
    env = MahjongEnv(RuleConfig(rounds=1), episode="match")
    rng = np.random.default_rng(2)
    obs, info = env.reset(seed=2)
    hands, totals = 0, np.zeros(4, dtype=int)
    while True:
        obs, reward, terminated, _, info = env.step(pick(rng, obs["action_mask"]))
        if "result" in info:
            hands += 1
            totals += info["rewards"]
        if terminated:
            break
    assert hands >= 4 and tuple(totals) == env.table.match.scores and totals.sum() == 0
    with pytest.raises(ValueError, match="episode='hand'"):
        env.reset(options={"dealer": 1})


def test_render_ansi():
    env = MahjongEnv(render_mode="ansi", tile_style="ascii")
    env.reset(seed=4)
    text = env.render()
    assert "seat 0 East (dealer)" in text and "live wall 69" in text
    with pytest.warns(UserWarning, match="render_mode"):
        assert MahjongEnv().render() is None
