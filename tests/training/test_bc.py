"""Behaviour cloning: teacher game records replay exactly, and cloning fits the teacher."""

import numpy as np
import pytest
import torch

from agents.ppo import NetConfig, build_net, masked_logits
from mjenv.env.observation import NUM_PLANES
from mjenv.rules import RuleConfig
from tests.scale import n
from training.bc import (load_records, play_teacher_games, records_to_data, save_records,
                         train_bc)


@pytest.fixture(autouse=True)
def one_thread():
    """Small networks on a shared machine: one thread is several times faster."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="module")
def records():
    # the frozen reference: what cloning can fit must not move with the tuned default
    return play_teacher_games(n(4, 20), seed=5, rules=RuleConfig(), teacher="heuristic:v1")


def test_records_round_trip_and_replay_to_legal_labelled_data(records, tmp_path):
    path = tmp_path / "games.jsonl"
    save_records(path, records, RuleConfig(), "heuristic")
    assert load_records([path], RuleConfig()) == records
    with pytest.raises(ValueError, match="min_points"):
        load_records([path], RuleConfig(min_points=8))
    data = records_to_data(records, RuleConfig(), reward_scale=0.5, gamma=1.0)
    assert data.obs.shape == (len(data), NUM_PLANES, 34) and data.obs.dtype == np.float16
    assert bool(data.masks[np.arange(len(data)), data.actions].all())   # the teacher's move is legal
    assert bool((data.masks.sum(1) > 1).all())                          # forced moves are dropped
    # gamma = 1: each decision's value target is its seat's deal score delta times the scale.
    from mjenv.game import Action, Hand
    rec = records[0]
    hand = Hand(RuleConfig(), seed=rec["seed"], round_wind=rec["round_wind"])
    for seat, text in rec["decisions"]:
        hand.step(seat, Action.parse(text))
    one = records_to_data([rec], RuleConfig(), reward_scale=0.5, gamma=1.0)
    assert set(one.returns.tolist()) <= {0.5 * d for d in hand.result.deltas}
    assert len(set(one.returns.tolist())) == len({d for d in hand.result.deltas})


def test_replaying_a_tampered_record_fails(records):
    bad = dict(records[0], decisions=records[0]["decisions"][:-1])
    with pytest.raises(ValueError, match="ends before the deal does"):
        records_to_data([bad], RuleConfig())


def test_cloning_fits_the_teacher(records):
    data = records_to_data(records, RuleConfig())
    torch.manual_seed(0)
    net = build_net(NetConfig(NUM_PLANES, channels=16, blocks=1))

    def agreement() -> float:
        with torch.no_grad():
            logits, _ = net(torch.as_tensor(data.obs).float())
        pred = masked_logits(logits, torch.as_tensor(data.masks)).argmax(-1).numpy()
        return float((pred == data.actions).mean())

    before = agreement()
    stats = train_bc(net, data, epochs=n(6, 10), lr=3e-3, batch_size=64, log=lambda _: None)
    assert np.isfinite(stats["train_ce"])
    assert agreement() > max(before + 0.2, 0.5)


def test_analysis_features_are_appended_and_replay_splits_over_workers(records):
    from agents.features import FEATURES_VERSION, NUM_FEATURE_PLANES, Analyst
    from training.bc import replay_records
    config = NetConfig(NUM_PLANES, channels=8, blocks=1, features=FEATURES_VERSION)
    part = records[:2]
    data = records_to_data(part, RuleConfig(), config=config)
    plain = records_to_data(part, RuleConfig())
    assert data.obs.shape == (len(plain), NUM_PLANES + NUM_FEATURE_PLANES, 34)
    assert np.array_equal(data.obs[:, :NUM_PLANES], plain.obs)
    assert np.array_equal(data.actions, plain.actions)
    # the appended planes are the analyst's planes of the same decision
    from mjenv.env.actions import legal_mask
    from mjenv.game import Action, Hand
    rec = part[0]
    hand = Hand(RuleConfig(), seed=rec["seed"], round_wind=rec["round_wind"])
    for seat, text in rec["decisions"]:
        view = hand.view(seat)
        if int(legal_mask(view).sum()) > 1:
            assert np.array_equal(data.obs[0, NUM_PLANES:],
                                  Analyst().planes(view).astype(np.float16))
            break
        hand.step(seat, Action.parse(text))
    two = replay_records(part, RuleConfig(), 0.025, 0.997, config, workers=2)
    assert np.array_equal(two.obs, data.obs) and np.array_equal(two.returns, data.returns)
