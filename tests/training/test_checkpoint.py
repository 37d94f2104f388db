"""Checkpoint files: round trip, atomic writes, and clear refusals of bad files."""

import numpy as np
import pytest
import torch

from agents.checkpoint_file import (CheckpointError, read_checkpoint_file, save_policy_file,
                                    write_checkpoint_file)
from agents.network import NetConfig, build_net
from agents.ppo import PPOAgent
from mjenv.env.observation import NUM_PLANES
from mjenv.rules import RuleConfig
from training.checkpoint import (PACKED, History, Snapshot, _map_state, load_training_checkpoint,
                                 pack, save_training_checkpoint, unpack)
from training.selfplay import OpponentPool, half_weights


def small_net(seed=0):
    torch.manual_seed(seed)
    return build_net(NetConfig(NUM_PLANES, channels=8, blocks=1))


def write_training(path, rules=RuleConfig()):
    net = small_net()
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    net(torch.zeros(2, NUM_PLANES, 34))[1].sum().backward()
    opt.step()
    rng = np.random.default_rng(7)
    rng.random(3)
    pool = OpponentPool(3)
    pool.add(4, net.state_dict())
    save_training_checkpoint(path, net=net, optimizer=opt, rules=rules, args={"seed": 1},
                             update=4, global_step=1234, rng=rng, pool=pool)
    return net, opt, rng


def test_round_trip_restores_weights_optimizer_and_rng(tmp_path):
    path = tmp_path / "latest.pt"
    net, opt, rng = write_training(path)
    state = load_training_checkpoint(path, expect_rules=RuleConfig())
    assert state.update == 4 and state.global_step == 1234
    for k, v in net.state_dict().items():
        assert torch.equal(v, state.policy.model[k])
    opt2 = torch.optim.Adam(small_net(1).parameters(), lr=1e-3)
    opt2.load_state_dict(state.optimizer)
    assert opt2.state_dict()["state"][0]["exp_avg"].equal(opt.state_dict()["state"][0]["exp_avg"])
    rng2 = np.random.default_rng()
    rng2.bit_generator.state = state.rng["numpy"]
    assert rng2.random() == rng.random()
    pool = state.pool
    assert [u for u, _ in pool.snapshots] == [4]
    for k, v in half_weights(net.state_dict()).items():
        assert v.dtype == pool.snapshots[0][1][k].dtype and torch.equal(v, pool.snapshots[0][1][k])
    assert not [p for p in tmp_path.iterdir() if p.name != "latest.pt"]   # no temp file left


@pytest.mark.parametrize("damage", ["flip", "truncate"])
def test_corrupt_file_is_refused_clearly(tmp_path, damage):
    path = tmp_path / "latest.pt"
    write_training(path)
    raw = bytearray(path.read_bytes())
    if damage == "flip":
        raw[len(raw) // 2] ^= 0xFF
    else:
        raw = raw[: len(raw) // 2]
    path.write_bytes(bytes(raw))
    with pytest.raises(CheckpointError, match="corrupt"):
        load_training_checkpoint(path)
    with pytest.raises(CheckpointError, match="corrupt"):
        PPOAgent.load(path)


def test_foreign_and_missing_files_are_refused(tmp_path):
    other = tmp_path / "model.pt"
    torch.save({"weights": torch.zeros(3)}, other)
    with pytest.raises(CheckpointError, match="not an mjenv checkpoint"):
        read_checkpoint_file(other)
    with pytest.raises(CheckpointError, match="no such checkpoint"):
        read_checkpoint_file(tmp_path / "missing.pt")


def test_encoding_mismatch_is_refused(tmp_path):
    path = tmp_path / "policy.pt"
    save_policy_file(path, small_net(), RuleConfig())
    payload = read_checkpoint_file(path)
    payload["encoding"] = dict(payload["encoding"], num_planes=payload["encoding"]["num_planes"] + 1)
    write_checkpoint_file(path, payload)
    with pytest.raises(CheckpointError, match="different observation/action encoding.*num_planes"):
        PPOAgent.load(path)


def test_rules_mismatch_and_policy_only_files_cannot_resume(tmp_path):
    path = tmp_path / "latest.pt"
    write_training(path, rules=RuleConfig(min_points=8))
    with pytest.raises(CheckpointError, match="min_points=8"):
        load_training_checkpoint(path, expect_rules=RuleConfig())
    policy = tmp_path / "policy.pt"
    save_policy_file(policy, small_net(), RuleConfig())
    with pytest.raises(CheckpointError, match="cannot be resumed"):
        load_training_checkpoint(policy)


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.view(-1).numpy().tobytes() == \
        b.view(-1).numpy().tobytes()


def test_packing_is_lossless_to_the_bit():
    torch.manual_seed(3)
    base = {"w": torch.randn(5, 7), "b": torch.randn(7), "n": torch.tensor(9)}
    odd = torch.tensor([float("nan"), -0.0, float("inf"), -float("inf"), 1e-42, 65504.0])
    weights = {
        "w": base["w"] + 1e-4 * torch.randn(5, 7),   # a copy a few updates on: packed as a delta
        "b": base["b"].half(),                       # float16 against the float32 base
        "odd": odd, "odd16": odd.half(),             # no base tensor of that name
        "n": torch.tensor(3),                        # integers are kept as they are
        "scalar": torch.tensor(2.5),                 # Adam's step
        "count": 7,                                  # not a tensor: kept as it is
    }
    mismatched = {"w": torch.randn(7, 5)}             # another shape: packed on its own
    for ref in (base, None, mismatched):
        back = unpack(pack(weights, ref), ref)
        assert set(back) == set(weights)
        assert back["count"] == 7
        assert all(same_bits(weights[k], back[k]) for k in weights if k != "count")
    assert pack(weights, base)["w"]["delta"] and not pack(weights, mismatched)["w"]["delta"]


def test_copies_of_the_weights_are_stored_as_small_deltas(tmp_path):
    """The pool, the rollout in flight, the reference and the best are copies of the model
    a few updates apart: packed against it they cost a fraction of their size (here equal
    to it, the limit), and the file loads back to the very same state."""
    net = small_net()
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    net(torch.zeros(2, NUM_PLANES, 34))[1].sum().backward()
    opt.step()
    pool = OpponentPool(4)
    for u in range(4):
        pool.add(u, net.state_dict())
    weights = {k: v.clone() for k, v in net.state_dict().items()}
    common = dict(net=net, optimizer=opt, rules=RuleConfig(), args={}, update=4,
                  global_step=10, rng=np.random.default_rng(1), pool=pool,
                  in_flight=Snapshot(3, weights), start=weights,
                  history=History([], Snapshot(2, half_weights(weights))))
    save_training_checkpoint(tmp_path / "latest.pt", **common)
    state = load_training_checkpoint(tmp_path / "latest.pt")
    for k, v in weights.items():
        assert same_bits(state.in_flight.model[k], v) and same_bits(state.start[k], v)
        assert same_bits(state.history.best.model[k], v.half())
    assert (state.in_flight.update, state.history.best.update) == (3, 2)
    stored = read_checkpoint_file(tmp_path / "latest.pt")      # the stored form, packed
    assert stored.pop(PACKED) == 1
    stored.update(_map_state(stored, stored["model"], unpack))
    write_checkpoint_file(tmp_path / "unpacked.pt", stored)    # the same state, as before packing
    assert load_training_checkpoint(tmp_path / "unpacked.pt").update == 4   # older files load
    packed_size = (tmp_path / "latest.pt").stat().st_size
    model_size = sum(v.numel() * v.element_size() for v in weights.values())
    # model + Adam's two moments + 4 float16 snapshots + behaviour + reference + best, unpacked
    assert (tmp_path / "unpacked.pt").stat().st_size > 7 * model_size
    assert packed_size < 2 * model_size
