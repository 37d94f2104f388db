"""The RLlib adapter (``mjenv.integrations.rllib``) and the optional-extra plumbing.

The extra-plumbing tests run everywhere. The adapter tests need ``pip install "mjenv[ray]"``
and are skipped without it; they never start Ray (the env and the module are plain objects),
so they stay quick. ``.ci/rllib_check.sh`` runs real training iterations on a Ray cluster.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import numpy as np
import pytest

from mjenv.integrations import MissingExtraError, install_hint, require_extra
from tests.scale import n

HAVE_RAY = (importlib.util.find_spec("ray") is not None
            and importlib.util.find_spec("torch") is not None)
needs_ray = pytest.mark.skipif(not HAVE_RAY, reason='the ray extra is not installed '
                               '(pip install "mjenv[ray]"); .ci/rllib_check.sh installs it')


# --------------------------------------------------------------------------- extras


def test_missing_extra_names_the_install_command(monkeypatch):
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "ray" else object())
    with pytest.raises(MissingExtraError) as err:
        require_extra("ray", "mjenv train rllib")
    assert 'pip install "mjenv[ray]"' in str(err.value)
    assert "ray" in str(err.value) and isinstance(err.value, ImportError)


def test_unknown_extra_is_a_value_error():
    with pytest.raises(ValueError, match="unknown extra"):
        require_extra("nosuchextra", "x")


def test_ray_stays_out_of_the_core_import_paths():
    code = ("import sys, mjenv, mjenv.integrations, mjenv.env, mjenv.cli.train_rllib, "
            "mjenv.integrations.rllib_train; mjenv.MahjongEnv; "
            "print(sorted(m for m in sys.modules if m == 'ray' or m.startswith('ray.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_trainer_args_are_validated_without_ray():
    from mjenv.integrations.rllib_train import RLlibArgs

    args = RLlibArgs(fixed_opponents="heuristic:3,random:1", min_points=8)
    assert args.settings().rules.min_points == 8
    assert args.settings().fixed_opponents == (("heuristic", 3.0), ("random", 1.0))
    with pytest.raises(ValueError, match="minibatch-size"):
        RLlibArgs(steps_per_iter=256, minibatch_size=512)
    with pytest.raises(ValueError, match="num-env-runners"):
        RLlibArgs(num_env_runners=-1)
    with pytest.raises(ValueError, match="opponent shares"):
        RLlibArgs(latest_share=0.0, past_share=0.0, fixed_share=0.0)


@pytest.mark.skipif(HAVE_RAY, reason="checks the behaviour without the ray extra")
def test_cli_without_ray_prints_the_hint(capsys):
    import argparse

    from mjenv.cli import train_rllib

    parser = argparse.ArgumentParser()
    train_rllib.add_arguments(parser)
    assert train_rllib.run(parser.parse_args(["--total-steps", "10"])) == 2
    assert install_hint("ray") in capsys.readouterr().err


# --------------------------------------------------------------------------- adapter


@pytest.fixture(scope="module")
def rl():
    if not HAVE_RAY:
        pytest.skip('the ray extra is not installed (pip install "mjenv[ray]")')
    from mjenv.integrations import rllib

    return rllib


def _settings(fixed_share: float = 0.2):
    from training.selfplay import RolloutSettings

    return RolloutSettings(fixed_share=fixed_share)


def _play(env, seed: int, rng: np.random.Generator):
    """One episode with random legal actions; checks the turn-based protocol on every step.
    Returns the trajectory (agent ids, actions) for determinism checks."""
    from mjenv.env.actions import legal_mask
    from mjenv.integrations.rllib import seat_of

    obs, _ = env.reset(seed=seed)
    trace = []
    while True:
        assert obs, "a running deal must ask someone"
        # Observations only for the seats that must decide, each with the engine's mask.
        assert {seat_of(a) for a in obs} == set(env.hand.to_act)
        for agent, o in obs.items():
            seat = seat_of(agent)
            np.testing.assert_array_equal(o["action_mask"], legal_mask(env.hand.view(seat)))
            assert o["observation"].shape == env.observation_spaces[agent]["observation"].shape
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}
        trace.append(sorted(actions.items()))
        obs, rewards, term, trunc, infos = env.step(actions)
        if term["__all__"]:
            return trace, obs, rewards, infos
        assert set(actions) | set(obs) == set(rewards)
        assert all(r == 0.0 for r in rewards.values())


@needs_ray
@pytest.mark.parametrize("fixed_share", [0.0, 0.5])
def test_episodes_follow_the_turn_based_protocol(rl, fixed_share):
    env = rl.MahjongMultiAgentEnv({"settings": _settings(fixed_share), "num_past": 2})
    rng = np.random.default_rng(0)
    for seed in range(n(4, 40)):
        _, obs, rewards, infos = _play(env, seed, rng)
        result = env.hand.result
        # Every RLlib seat gets its last observation and its share of the deal's deltas.
        assert set(obs) == set(rewards) == set(env.agents)
        for agent in env.agents:
            seat = rl.seat_of(agent)
            assert rewards[agent] == pytest.approx(result.deltas[seat] * env.settings.reward_scale)
            assert infos[agent]["score_delta"] == result.deltas[seat]
            assert not obs[agent]["action_mask"].any()
        # The learner seat is always on the trained module; fixed agents never appear.
        learner = [a for a in env.agents if infos[a]["learner"]]
        assert len(learner) == 1 and rl.agent_to_module(learner[0]) == rl.MAIN
        assert all(rl.agent_to_module(a) in rl.module_ids(2) for a in env.agents)


@needs_ray
def test_same_seed_same_episode(rl):
    def run():
        env = rl.MahjongMultiAgentEnv({"settings": _settings(), "num_past": 1})
        return _play(env, 7, np.random.default_rng(1))[0]

    assert run() == run()


@needs_ray
def test_masked_action_is_refused_and_state_untouched(rl):
    env = rl.MahjongMultiAgentEnv({"settings": _settings(0.0)})
    obs, _ = env.reset(seed=3)
    (agent, o), = obs.items()
    bad = int(np.flatnonzero(o["action_mask"] == 0)[0])
    events = len(env.hand.log)
    with pytest.raises(rl.MaskedActionError, match="masked"):
        env.step({agent: bad})
    assert len(env.hand.log) == events
    with pytest.raises(ValueError, match="seats to act"):
        env.step({})


@needs_ray
def test_config_errors_are_value_errors(rl):
    with pytest.raises(ValueError, match="unknown config keys"):
        rl.MahjongMultiAgentEnv({"setings": _settings()})


@needs_ray
def test_shaping_adds_the_potential_differences_of_training_selfplay(rl):
    """The same deals with and without shaping (the same seeds, the same random actions):
    every reward differs by γ·Φ(s') − Φ(s) between a seat's consecutive decisions, and by −Φ(s)
    of its last one at the end (``training.selfplay.potential``: −coef · shanten)."""
    from training.selfplay import RolloutSettings, potential

    coef = 0.1
    shaped = rl.MahjongMultiAgentEnv({"settings": RolloutSettings(fixed_share=0.5,
                                                                  shaping_coef=coef)})
    plain = rl.MahjongMultiAgentEnv({"settings": RolloutSettings(fixed_share=0.5)})
    gamma = shaped.settings.gamma
    rng = np.random.default_rng(5)
    nonzero = 0
    for seed in range(n(3, 20)):
        obs, _ = shaped.reset(seed=seed)
        assert plain.reset(seed=seed)[0].keys() == obs.keys()
        phi = {a: potential(shaped.hand.view(rl.seat_of(a)), coef) for a in obs}
        while True:
            actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"])))
                       for a, o in obs.items()}
            obs, rewards, term, _, _ = shaped.step(actions)
            plain_obs, plain_rewards, _, _, _ = plain.step(actions)
            assert plain_obs.keys() == obs.keys() and plain_rewards.keys() == rewards.keys()
            for agent, r in rewards.items():
                extra = 0.0
                if term["__all__"]:
                    extra = -phi[agent] if agent in phi else 0.0
                elif agent in obs:
                    now = potential(shaped.hand.view(rl.seat_of(agent)), coef)
                    extra = gamma * now - phi[agent] if agent in phi else 0.0
                    phi[agent] = now
                assert r == pytest.approx(plain_rewards[agent] + extra)
                nonzero += extra != 0.0
            if term["__all__"]:
                break
    assert nonzero > 0


@pytest.fixture(scope="module")
def module(rl):
    from agents.network import NetConfig
    from mjenv.env.observation import NUM_PLANES
    from mjenv.rules import RuleConfig

    spec = rl.module_spec(NetConfig(num_planes=NUM_PLANES, channels=16, blocks=1, hidden=32),
                          RuleConfig(min_points=8))
    return spec.build()


def _batch(rl, count: int, seed: int = 0):
    """Observations and masks of real decision points (random legal play)."""
    import torch

    env = rl.MahjongMultiAgentEnv({"settings": _settings(0.0)})
    rng = np.random.default_rng(seed)
    obs_list = []
    obs, _ = env.reset(seed=seed)
    while len(obs_list) < count:
        obs_list.extend(obs.values())
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}
        obs, _, term, _, _ = env.step(actions)
        if term["__all__"]:
            obs, _ = env.reset()
    obs_list = obs_list[:count]
    return {"obs": {k: torch.as_tensor(np.stack([o[k] for o in obs_list])) for k in obs_list[0]}}


@needs_ray
def test_module_never_samples_a_masked_action(rl, module):
    import torch

    batch = _batch(rl, 64)
    mask = batch["obs"]["action_mask"].bool()
    out = module.forward_exploration(batch)
    logits = out["action_dist_inputs"]
    assert torch.all(logits[~mask] == -1e8)
    dist = module.get_exploration_action_dist_cls().from_logits(logits)
    torch.manual_seed(0)
    for _ in range(n(20, 200)):
        actions = dist.sample()
        assert mask[torch.arange(len(actions)), actions].all()
    train_out = module.forward_train(batch)
    values = module.compute_values(batch, train_out["embeddings"])
    assert values.shape == (64,)
    torch.testing.assert_close(values, module.compute_values(batch))


@needs_ray
def test_policy_file_round_trip(rl, module, tmp_path):
    import torch

    from agents.network import masked_logits
    from agents.ppo import PPOAgent

    path = rl.save_policy(module, tmp_path / "policy.pt", {"note": "test"})
    agent = PPOAgent.load(path)
    assert agent.rules == module.rules
    batch = _batch(rl, 16, seed=1)
    with torch.no_grad():
        expected = module.forward_inference(batch)["action_dist_inputs"]
        logits, _ = agent.net(batch["obs"]["observation"])
    torch.testing.assert_close(masked_logits(logits, batch["obs"]["action_mask"]), expected)


@needs_ray
def test_cli_converts_an_rllib_checkpoint(rl, module, tmp_path, capsys, monkeypatch):
    import argparse

    import torch

    from agents.ppo import PPOAgent
    from mjenv.cli import train_rllib

    # The layout Algorithm.save_to_path writes for the "main" module.
    checkpoint = tmp_path / "rllib"
    module.save_to_path(str(checkpoint / "learner_group" / "learner" / "rl_module" / "main"))
    parser = argparse.ArgumentParser()
    train_rllib.add_arguments(parser)
    out = tmp_path / "converted.pt"
    argv = ["--convert", str(checkpoint), "--out", str(out)]
    assert train_rllib.run(parser.parse_args(argv)) == 0
    assert str(out) in capsys.readouterr().out
    agent = PPOAgent.load(out)
    expected = module.net.state_dict()
    assert all(torch.equal(v, expected[k]) for k, v in agent.net.state_dict().items())
    assert agent.rules == module.rules
    assert train_rllib.run(parser.parse_args(["--convert", str(checkpoint)])) == 2
    # a path relative to the working directory, as typed (RLlib reads paths as URIs)
    monkeypatch.chdir(tmp_path)
    argv = ["--convert", "rllib", "--out", "relative.pt"]
    assert train_rllib.run(parser.parse_args(argv)) == 0
    assert PPOAgent.load(tmp_path / "relative.pt").rules == module.rules


@needs_ray
def test_convert_checkpoint_rejects_other_folders(rl, tmp_path):
    with pytest.raises(ValueError, match="not an RLlib algorithm checkpoint"):
        rl.convert_checkpoint(tmp_path, tmp_path / "x.pt")


class _FakeAgentEpisode:
    def __init__(self, masks, actions, info):
        self._obs = [{"observation": np.zeros(1), "action_mask": m} for m in masks]
        self._actions, self._info = actions, info

    def get_actions(self):
        return list(self._actions)

    def get_observations(self, indices):
        return self._obs[indices]

    def get_infos(self, index):
        return self._info


class _FakeLogger:
    def __init__(self):
        self.logged = []

    def log_value(self, key, value, **kwargs):
        self.logged.append((key, value))


@needs_ray
def test_callback_counts_masked_actions_and_learner_results(rl):
    legal = np.array([1, 1, 0], dtype=np.int8)
    episode = type("Ep", (), {})()
    episode.agent_episodes = {
        "seat0-main": _FakeAgentEpisode([legal, legal, legal], [0, 2, 1],
                                        {"learner": True, "score_delta": 12, "won": True}),
        "seat1-past0": _FakeAgentEpisode([legal, legal], [2, 2],
                                         {"learner": False, "score_delta": -12, "won": False}),
        "seat2-main": _FakeAgentEpisode([], [], {}),      # never decided
    }
    logger = _FakeLogger()
    rl.MahjongCallbacks().on_episode_end(episode=episode, metrics_logger=logger)
    assert dict(logger.logged) == {"masked_actions_sampled": 3, "learner_score": 12.0,
                                   "learner_win_rate": 1.0}
