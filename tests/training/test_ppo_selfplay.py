"""The opponent pool and self-play rollouts."""

import dataclasses
from collections import Counter

import numpy as np
import pytest
import torch

from agents.ppo import NetConfig, build_net
from mjenv.env.observation import NUM_PLANES
from training.selfplay import (LATEST, FixedAgents, OpponentPool, RolloutSettings,
                               collect_rollout, opponent_seed, parse_fixed_opponents,
                               sample_opponent)


def test_parse_fixed_opponents():
    assert parse_fixed_opponents("heuristic:3,random:1") == (("heuristic", 3.0), ("random", 1.0))
    assert parse_fixed_opponents("heuristic:efficiency, ppo:pretrained:2") == (
        ("heuristic:efficiency", 1.0), ("ppo:pretrained", 2.0))
    with pytest.raises(ValueError, match="weight"):
        parse_fixed_opponents("random:0")


def test_pool_is_bounded_and_round_trips():
    net = build_net(NetConfig(NUM_PLANES, channels=4, blocks=1))
    pool = OpponentPool(2)
    for u in (10, 20, 30):
        pool.add(u, net.state_dict())
    assert [u for u, _ in pool.snapshots] == [20, 30]
    again = OpponentPool.from_state(pool.state())
    assert [u for u, _ in again.snapshots] == [20, 30] and again.size == 2
    # kept in float16 (half the checkpoint), played in float32 within float16's rounding
    weights = pool.snapshots[-1][1]
    floats = [k for k, v in net.state_dict().items() if v.is_floating_point()]
    assert floats and all(weights[k].dtype == torch.float16 for k in floats)
    copy = build_net(net.config, weights)
    for k, v in net.state_dict().items():
        got = copy.state_dict()[k]
        assert got.dtype == v.dtype
        torch.testing.assert_close(got.float(), v.float(), rtol=1e-3, atol=1e-4)


def test_controller_shares():
    settings = RolloutSettings(fixed_opponents=(("heuristic", 3.0), ("random", 1.0)))
    rng = np.random.default_rng(0)
    draws = [sample_opponent(rng, settings, n_snapshots=4) for _ in range(20000)]
    share = lambda pred: sum(map(pred, draws)) / len(draws)  # noqa: E731
    assert share(lambda c: c == LATEST) == pytest.approx(0.5, abs=0.02)
    assert share(lambda c: isinstance(c, int) and c >= 0) == pytest.approx(0.3, abs=0.02)
    assert share(lambda c: c == "heuristic") == pytest.approx(0.15, abs=0.02)
    assert share(lambda c: c == "random") == pytest.approx(0.05, abs=0.01)
    # An empty pool: past seats fall back to the other kinds.
    assert all(not isinstance(c, int) or c == LATEST
               for c in (sample_opponent(rng, settings, 0) for _ in range(200)))


def test_rollout_of_the_learner_alone_records_its_decisions_in_whole_deals():
    torch.manual_seed(0)
    net = build_net(NetConfig(NUM_PLANES, channels=8, blocks=1)).eval()
    settings = RolloutSettings(num_envs=3, fixed_opponents=(("random", 1.0),), reward_scale=0.5,
                               train_latest_seats=False)
    r = collect_rollout(net, [net], settings, seed=[1, 2], target_steps=60)
    assert len(r) >= 60
    assert bool(r.masks[np.arange(len(r)), r.actions].all())
    assert r.dones[-1] == 1.0
    assert r.primary.all()                       # one episode per deal: the learner's
    episodes = int(r.dones.sum())
    assert episodes <= len(r.scores)
    # Unshaped: the only non-zero reward of an episode is its last one, the scaled score.
    assert bool((r.rewards[r.dones == 0] == 0).all())
    # (a deal where the learner never decided — 天胡 — has a score but no episode)
    terminal = Counter((r.rewards[r.dones == 1] / 0.5).tolist())
    assert not terminal - Counter(r.scores.tolist())
    # Learner decisions are about a quarter of all decisions (one seat of four; claims vary).
    assert 0.1 < len(r) / r.decisions < 0.6


def test_rollout_trains_every_seat_of_the_latest_weights():
    """Pure self-play: all four seats are trained, four episodes per deal, whose scores sum
    to zero (one deal's settlement); every decision of the rollout is recorded."""
    torch.manual_seed(0)
    net = build_net(NetConfig(NUM_PLANES, channels=8, blocks=1)).eval()
    settings = RolloutSettings(num_envs=3, latest_share=1.0, past_share=0.0, fixed_share=0.0,
                               reward_scale=0.5)
    r = collect_rollout(net, [], settings, seed=[1, 2], target_steps=200)
    assert len(r) == r.decisions
    assert len(r.scores) % 4 == 0 and r.primary.sum() == len(r.scores) // 4
    assert not r.scores.reshape(-1, 4).sum(1).any()
    terminal = Counter((r.rewards[r.dones == 1] / 0.5).tolist())
    assert not terminal - Counter(r.scores.tolist())
    assert bool(r.masks[np.arange(len(r)), r.actions].all())


def test_mixed_rollout_trains_the_latest_seats_and_not_the_others():
    torch.manual_seed(0)
    net = build_net(NetConfig(NUM_PLANES, channels=8, blocks=1)).eval()
    settings = RolloutSettings(num_envs=4, latest_share=0.5, past_share=0.0, fixed_share=0.5,
                               fixed_opponents=(("random", 1.0),))
    alone = collect_rollout(net, [], RolloutSettings(**{**settings.__dict__,
                                                        "train_latest_seats": False}),
                            seed=[3], target_steps=300)
    every = collect_rollout(net, [], settings, seed=[3], target_steps=300)
    # About 1 + 3 × 0.5 trained seats per deal instead of 1: more steps per engine decision.
    assert len(every) / every.decisions > 1.6 * len(alone) / alone.decisions
    assert 1.8 < len(every.scores) / every.primary.sum() < 3.2


def test_rollout_of_a_features_network_stores_its_full_input():
    from agents.features import FEATURES_VERSION, feature_version
    torch.manual_seed(0)
    net = build_net(NetConfig(NUM_PLANES, channels=8, blocks=1, features=FEATURES_VERSION)).eval()
    settings = RolloutSettings(num_envs=2, fixed_opponents=(("random", 1.0),))
    r = collect_rollout(net, [net], settings, seed=[3], target_steps=20)
    assert r.obs.shape[1:] == (NUM_PLANES + len(feature_version(FEATURES_VERSION).planes), 34)
    assert bool(r.masks[np.arange(len(r)), r.actions].all())
    assert r.obs[:, NUM_PLANES:].any()


def _rollout_pairs(net):
    # Opponents that play (greedy, and well enough to win): the shipped policy.
    settings = RolloutSettings(num_envs=4, latest_share=0.0, past_share=0.0, fixed_share=1.0,
                               fixed_opponents=(("ppo:pretrained", 1.0),), reward_scale=0.5,
                               paired_baseline=True)
    return collect_rollout(net, [], settings, seed=[5], target_steps=120)


def test_paired_baseline_rewards_the_score_minus_the_shadow_deal():
    torch.manual_seed(0)
    net = build_net(NetConfig(NUM_PLANES, channels=8, blocks=1)).eval()
    r = _rollout_pairs(net)
    assert bool((r.rewards[r.dones == 0] == 0).all())
    terminal = Counter((r.rewards[r.dones == 1] / 0.5).tolist())
    assert not terminal - Counter((r.scores - r.baselines).tolist())
    # An untrained net samples far from its greedy choice: the deals diverge.
    assert (r.scores != r.baselines).any() and r.baselines.any()


def test_paired_baseline_of_a_greedy_learner_is_its_own_score(monkeypatch):
    """Shadow and real deal share the wall and the opponents (network-played ones act
    greedily under pairing): when the learner's sampling is made greedy too, both deals are
    the same game and every reward is exactly 0."""
    import training.selfplay as selfplay
    from agents.ppo import PPOAgent
    monkeypatch.setattr(selfplay, "sample_masked", lambda logits, gen=None: logits.argmax(-1))
    net = PPOAgent.pretrained().net.eval()     # opponents on the latest weights: a real policy
    settings = RolloutSettings(num_envs=4, latest_share=1.0, past_share=0.0, fixed_share=0.0,
                               paired_baseline=True)
    r = collect_rollout(net, [], settings, seed=[6], target_steps=120)
    assert np.array_equal(r.scores, r.baselines)
    assert r.scores.any()        # ... although the deals themselves were not all draws
    assert not r.rewards.any()


def test_paired_deals_differ_only_where_the_learner_sampled_off_its_greedy_choice():
    from agents.ppo import PPOAgent, masked_logits
    net = PPOAgent.pretrained().net.eval()
    settings = RolloutSettings(num_envs=4, latest_share=0.5, past_share=0.0, fixed_share=0.5,
                               fixed_opponents=(("ppo:pretrained", 1.0),), paired_baseline=True,
                               train_latest_seats=False)     # one sampling seat per deal
    r = collect_rollout(net, [], settings, seed=[7], target_steps=300)
    with torch.no_grad():
        logits, _ = net.policy(torch.as_tensor(r.obs))
        greedy = masked_logits(logits, torch.as_tensor(r.masks)).argmax(-1).numpy()
    ends = np.flatnonzero(r.dones) + 1
    on_greedy = [bool((greedy[a:b] == r.actions[a:b]).all())
                 for a, b in zip(np.r_[0, ends[:-1]], ends)]
    assert len(on_greedy) == len(r.scores)          # (no deal here ended before the learner)
    same = r.scores == r.baselines
    assert all(same[i] for i, g in enumerate(on_greedy) if g)
    assert sum(on_greedy) >= 3 and (~same).any()     # both kinds of deal occur


def test_paired_baseline_holds_against_seeded_fixed_agents(monkeypatch):
    """Fixed agents that break ties at random (the heuristic, the random agent) are seeded per
    (deal, seat): with the learner greedy too, the shadow deal is the same game, whatever other
    deals the rollout interleaves with it."""
    import training.selfplay as selfplay
    from agents.ppo import PPOAgent
    monkeypatch.setattr(selfplay, "sample_masked", lambda logits, gen=None: logits.argmax(-1))
    net = PPOAgent.pretrained().net.eval()
    settings = RolloutSettings(num_envs=3, latest_share=0.0, past_share=0.0, fixed_share=1.0,
                               fixed_opponents=(("heuristic", 1.0), ("random", 1.0)),
                               paired_baseline=True)
    r = collect_rollout(net, [], settings, seed=[8], target_steps=150)
    assert np.array_equal(r.scores, r.baselines) and r.scores.any()


def test_fixed_agents_are_per_deal_unless_they_need_no_seed():
    fixed = FixedAgents()
    a = fixed.get("random", slot=0, copy=0, seat=1, seed=5)
    assert fixed.get("random", slot=0, copy=0, seat=1, seed=6) is a
    assert fixed.get("random", slot=1, copy=0, seat=1, seed=5) is not a
    assert fixed.get("random", slot=0, copy=1, seat=1, seed=5) is not a
    greedy = fixed.get("ppo:pretrained", slot=0, copy=0, seat=1, seed=5)
    assert fixed.get("ppo:pretrained", slot=3, copy=1, seat=2, seed=9) is greedy
    assert opponent_seed(1, 2) == opponent_seed(1, 2) != opponent_seed(1, 3)


def test_rollouts_without_pairing_report_zero_baselines():
    torch.manual_seed(0)
    net = build_net(NetConfig(NUM_PLANES, channels=8, blocks=1)).eval()
    settings = RolloutSettings(num_envs=2, fixed_opponents=(("random", 1.0),))
    r = collect_rollout(net, [net], settings, seed=[4], target_steps=20)
    assert len(r.baselines) == len(r.scores) and not r.baselines.any()


def test_an_oracle_critic_records_its_planes_and_values_of_the_recorded_decisions():
    from mjenv.env import observation
    from mjenv.env.oracle import CONCEALED, NUM_ORACLE_PLANES
    from training.selfplay import Rollout

    torch.manual_seed(0)
    net = build_net(NetConfig(NUM_PLANES, channels=8, blocks=1, oracle=NUM_ORACLE_PLANES)).eval()
    settings = RolloutSettings(num_envs=3, fixed_opponents=(("random", 1.0),))
    r = collect_rollout(net, [net], settings, seed=4, target_steps=60)
    assert r.oracle.shape == (len(r), NUM_ORACLE_PLANES, 34)
    # each row's planes are its own decision's: the seat's own concealed tiles as observed
    hand = r.obs[:, observation.HAND:observation.HAND + 4].sum(1)
    np.testing.assert_array_equal(r.oracle[:, CONCEALED], hand)
    assert (r.oracle[:, CONCEALED + 1:CONCEALED + 4].sum(2) >= 1).all()
    with torch.no_grad():
        _, value = net(torch.as_tensor(r.obs), torch.as_tensor(r.oracle))
    np.testing.assert_allclose(r.values, value.numpy(), atol=1e-5)
    both = Rollout.concat([r, r])
    assert both.oracle.shape == (2 * len(r), NUM_ORACLE_PLANES, 34)
    plain = collect_rollout(build_net(NetConfig(NUM_PLANES, channels=8, blocks=1)).eval(), [],
                            settings, seed=4, target_steps=20)
    assert plain.oracle.shape == (len(plain), 0, 34)


def test_a_worker_whose_learner_is_gone_exits_quietly(monkeypatch, capsys):
    # the learner stopped (SIGTERM, Ctrl-C) while the worker played: its answer finds a
    # closed pipe, and the worker ends without a traceback
    from training import selfplay

    class Gone:
        def __init__(self):
            self.jobs = [("job",)]

        def recv(self):
            if not self.jobs:
                raise EOFError
            return self.jobs.pop()

        def send(self, _):
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(selfplay, "_collect", lambda *a: "rollout")
    net_config = dataclasses.asdict(NetConfig(NUM_PLANES, channels=4, blocks=1))
    selfplay._worker_main(Gone(), RolloutSettings(), net_config)
    assert capsys.readouterr().err == ""
