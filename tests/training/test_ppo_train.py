"""End-to-end: a tiny PPO run trains, logs finite losses, checkpoints, and resumes exactly."""

import csv
import math

import numpy as np
import pytest
import torch

from agents.checkpoint_file import read_checkpoint_file
from agents.ppo import PPOAgent
from tests.scale import n
from training.ppo import Args, train


def tiny_args(out, **kw) -> Args:
    base = dict(out=str(out), seed=3, total_steps=n(2048, 8192), num_steps=512, num_envs=8,
                channels=8, blocks=1, num_minibatches=2, update_epochs=2, threads=1,
                device="cpu", fixed_opponents="random:1", snapshot_every=1, pool_size=2,
                eval_every=0)
    base.update(kw)
    return Args(**base)


def test_tiny_run_trains_and_writes_a_checkpoint(tmp_path):
    args = tiny_args(tmp_path / "run", eval_every=1000, eval_deals=1)   # at start and end only
    path = train(args, progress=False)
    payload = read_checkpoint_file(path)
    updates = payload["update"]
    assert payload["global_step"] >= args.total_steps
    assert len(payload["pool"]["updates"]) == 2          # bounded pool
    with open(tmp_path / "run" / "progress.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["update"]) for r in rows] == list(range(0, updates + 1))
    # it stopped at the first update that reached total_steps
    assert int(rows[-2]["global_step"]) < args.total_steps <= int(rows[-1]["global_step"])
    for r in (rows[0], rows[-1]):
        for key in ("eval/vs_heuristic_v1", "eval/vs_heuristic_v1_ci95", "eval/best_update"):
            assert math.isfinite(float(r[key])), (key, r[key])
    # The first evaluation's weights are the first best; later ones are played against it.
    assert rows[0]["eval/vs_best"] == "" and float(rows[0]["eval/best_update"]) == 0
    vs_best = float(rows[-1]["eval/vs_best"])
    assert float(rows[-1]["eval/best_update"]) == (updates if vs_best > 0 else 0)
    assert read_checkpoint_file(tmp_path / "run" / "best.pt")["meta"]["update"] == \
        float(rows[-1]["eval/best_update"])
    rows = rows[1:]                                   # row 0: the evaluation before training
    for r in rows:
        for key in ("losses/policy_loss", "losses/value_loss", "losses/entropy",
                    "losses/approx_kl", "charts/SPS"):
            assert math.isfinite(float(r[key])), (key, r[key])
    assert float(rows[-1]["charts/learning_rate"]) < args.learning_rate
    # The checkpoint plays as an agent and the curves draw.
    assert (tmp_path / "run" / "tb").is_dir()
    agent = PPOAgent.load(path)
    assert agent.rules == args.rules()
    from mjenv.cli.plot import plot_run
    png = plot_run(tmp_path / "run")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("overlap, kl, oracle", [(True, False, False), (False, False, False),
                                                (True, True, False), (True, False, True),
                                                (True, True, True)])
def test_resume_gives_the_same_next_update(tmp_path, overlap, kl, oracle):
    # (overlapped, a rollout is in flight at the stop: resuming plays it again; with the KL to
    # the starting policy, the resumed run takes that policy from its checkpoint)
    extra = {"overlap": overlap, "oracle_critic": oracle}
    if kl:
        from agents.checkpoint_file import save_policy_file
        from agents.network import NetConfig, build_net
        from mjenv.env.observation import NUM_PLANES
        from mjenv.rules import RuleConfig
        torch.manual_seed(9)
        start = tmp_path / "start.pt"
        save_policy_file(start, build_net(NetConfig(NUM_PLANES, channels=8, blocks=1)),
                         RuleConfig())
        extra.update(init_from=str(start), kl_ref_coef=0.5, kl_ref_fraction=0.0)
    full = tiny_args(tmp_path / "full", total_steps=10**6, num_steps=256, **extra)
    train(full, progress=False, stop_after=3)
    part = tiny_args(tmp_path / "part", total_steps=10**6, num_steps=256, **extra)
    train(part, progress=False, stop_after=2)
    assert read_checkpoint_file(tmp_path / "part" / "latest.pt")["update"] == 2
    if kl:
        start.unlink()                       # the checkpoint must be enough
    resumed = tiny_args(tmp_path / "part", resume=True, num_steps=256)
    train(resumed, given={"out", "resume"}, progress=False, stop_after=1)
    a = read_checkpoint_file(tmp_path / "full" / "latest.pt")
    b = read_checkpoint_file(tmp_path / "part" / "latest.pt")
    assert a["update"] == b["update"] == 3
    assert bool(a["net_config"]["oracle"]) == b["args"]["oracle_critic"] == oracle
    assert a["global_step"] == b["global_step"]
    for key, value in a["model"].items():
        assert torch.equal(value, b["model"][key]), key
    with open(tmp_path / "full" / "progress.csv") as f:
        ra = list(csv.DictReader(f))
    with open(tmp_path / "part" / "progress.csv") as f:
        rb = list(csv.DictReader(f))
    assert [r["losses/policy_loss"] for r in ra] == [r["losses/policy_loss"] for r in rb]
    assert ("losses/kl_ref" in ra[0]) == kl
    if kl:
        assert [r["losses/kl_ref"] for r in ra] == [r["losses/kl_ref"] for r in rb]
        assert all(float(r["losses/kl_ref"]) > 0 for r in ra)
        assert all(float(r["charts/kl_ref_coef"]) == 0.5 for r in ra)
    assert [r["losses/value_loss"] for r in ra] == [r["losses/value_loss"] for r in rb]
    assert all(math.isfinite(float(r["losses/value_loss"])) for r in ra)


def test_a_run_carried_in_its_checkpoint_alone_gets_its_curve_and_best_back(tmp_path):
    # a new machine holds only the run's latest.pt: progress.csv and best.pt come back from it
    args = tiny_args(tmp_path / "run", total_steps=10**6, num_steps=256, eval_every=1,
                     eval_deals=1)
    train(args, progress=False, stop_after=2)
    run = tmp_path / "run"
    with open(run / "progress.csv") as f:
        before = list(csv.DictReader(f))
    best = read_checkpoint_file(run / "best.pt")
    carried = tmp_path / "carried"
    carried.mkdir()
    (run / "latest.pt").rename(carried / "latest.pt")
    resumed = tiny_args(carried, resume=True, total_steps=10**6, num_steps=256)
    train(resumed, given={"out", "resume"}, progress=False, stop_after=1)
    with open(carried / "progress.csv") as f:
        after = list(csv.DictReader(f))
    assert [int(r["update"]) for r in after] == [0, 1, 2, 3]
    assert after[:3] == before
    # the best came back (float16 weights) and was played against at update 3
    restored = read_checkpoint_file(carried / "best.pt")
    assert restored["meta"]["update"] == best["meta"]["update"]
    for key, value in best["model"].items():
        assert torch.equal(restored["model"][key], value.to(torch.float16).to(value.dtype)), key
    assert after[3]["eval/vs_best"] != ""


def test_oracle_critic_starts_from_plain_weights_and_keeps_its_network(tmp_path):
    from agents.checkpoint_file import save_policy_file
    from agents.network import NetConfig, build_net
    from mjenv.env.observation import NUM_PLANES
    from mjenv.env.oracle import NUM_ORACLE_PLANES
    from mjenv.rules import RuleConfig

    start = tmp_path / "plain.pt"
    save_policy_file(start, build_net(NetConfig(NUM_PLANES, channels=8, blocks=1)), RuleConfig())
    run = tiny_args(tmp_path / "run", total_steps=256, num_steps=256, init_from=str(start),
                    oracle_critic=True)
    payload = read_checkpoint_file(train(run, given={"out", "init_from", "oracle_critic"},
                                         progress=False))
    assert payload["net_config"]["oracle"] == NUM_ORACLE_PLANES
    assert payload["net_config"]["channels"] == 8
    # the oracle stays: it cannot be dropped from a run's network, nor added when resuming
    with pytest.raises(ValueError, match="--oracle-critic False differs from --init-from"):
        train(tiny_args(tmp_path / "again", init_from=str(tmp_path / "run" / "latest.pt"),
                        oracle_critic=False), given={"out", "init_from", "oracle_critic"},
              progress=False)
    train(tiny_args(tmp_path / "plain"), progress=False, stop_after=1)
    with pytest.raises(ValueError, match="--oracle-critic True differs"):
        train(tiny_args(tmp_path / "plain", resume=True, oracle_critic=True),
              given={"out", "resume", "oracle_critic"}, progress=False)


def test_workers_processes_collect_the_requested_steps(tmp_path):
    from agents.network import NetConfig, build_net
    from mjenv.env.observation import NUM_PLANES
    from training.selfplay import OpponentPool, RolloutSettings
    from training.workers import RolloutWorkers

    settings = RolloutSettings(num_envs=4, fixed_opponents=(("random", 1.0),))
    net = build_net(NetConfig(NUM_PLANES, channels=8, blocks=1))
    pool = OpponentPool(2)
    pool.add(0, net.state_dict())
    with RolloutWorkers(2, settings, net.config) as workers:
        r1 = workers.collect(net.state_dict(), pool, seed=5, update=1, target_steps=200)
        r2 = workers.collect(net.state_dict(), pool, seed=5, update=1, target_steps=200)
    assert len(r1) >= 200
    assert np.array_equal(r1.actions, r2.actions)           # seeded per (seed, update, worker)
    assert r1.dones[-1] == 1.0
    assert bool(r1.masks[np.arange(len(r1)), r1.actions].all())


def test_cli_flags_come_from_the_args_dataclass():
    import argparse

    from training.args import add_args_flags, args_from_namespace, field_docs

    parser = argparse.ArgumentParser()
    add_args_flags(parser, Args)
    args, given = args_from_namespace(
        parser.parse_args(["--total-steps", "10", "--no-anneal-lr", "--fixed-opponents", "random:1"]),
        Args)
    assert (args.total_steps, args.anneal_lr, args.fixed_opponents) == (10, False, "random:1")
    assert given == {"total_steps", "anneal_lr", "fixed_opponents"}
    assert args.num_steps == Args().num_steps
    docs = field_docs(Args)
    assert set(docs) == {f for f in Args.__dataclass_fields__}     # every field documented
    assert docs["total_steps"] in " ".join(parser.format_help().split())   # flag help = docstring
