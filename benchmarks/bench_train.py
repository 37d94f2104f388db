"""Training throughput: learner steps/s of ``mjenv train ppo`` as a ratio to random play's
decisions/s, measured in the same run.

    python benchmarks/bench_train.py [--updates 5] [--init-from ppo:pretrained]
                                     [--num-envs 32] [--workers 1] [-- EXTRA TRAIN FLAGS]

The metric of the self-play issue: the median ``charts/SPS`` (learner steps over the wall time
of the update's rollout and PPO update, as progress.csv has it) of updates 2 onward of
``mjenv train ppo --init-from <shipped policy> --num-envs 32 --workers 1``, divided by the
decisions/s of four random agents on the same engine without observation encoding (process
CPU time) — the floor every agent pays. The reference is measured before and after the
training, and the mean of the two is used, so the machine's drift (±25 % here from minute to
minute) weighs on both sides alike.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def random_decisions_per_s(seconds: float, seed: int) -> float:
    """Four random agents (no observation), process CPU time."""
    from agents import make_agent
    from mjenv.env.play import play
    from mjenv.game import Hand

    agents = [make_agent("random", seed=seed + s) for s in range(4)]
    decisions = 0

    def count(*_) -> None:
        nonlocal decisions
        decisions += 1

    t0 = time.process_time()
    deal = 0
    while time.process_time() - t0 < seconds:
        play(Hand(seed=seed * 100_000 + deal), agents, on_step=count)
        deal += 1
    return decisions / (time.process_time() - t0)


def learner_sps(updates: int, init_from: str, num_envs: int, workers: int,
                extra: list[str]) -> list[float]:
    """``charts/SPS`` of updates 2 … ``updates`` of a fresh run."""
    from training.args import add_args_flags, args_from_namespace
    from training.ppo import Args, train

    parser = argparse.ArgumentParser()
    add_args_flags(parser, Args)
    with tempfile.TemporaryDirectory() as tmp:
        ns = parser.parse_args(["--out", f"{tmp}/run", "--init-from", init_from,
                                "--num-envs", str(num_envs), "--workers", str(workers),
                                "--eval-every", "0", "--seed", "1", *extra])
        args, given = args_from_namespace(ns, Args)
        train(args, given, progress=False, stop_after=updates)
        with open(Path(tmp) / "run" / "progress.csv") as f:
            rows = [r for r in csv.DictReader(f) if int(r["update"]) >= 2]
    return [float(r["charts/SPS"]) for r in rows]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=5)
    parser.add_argument("--init-from", default="ppo:pretrained")
    parser.add_argument("--num-envs", type=int, default=32)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--reference-seconds", type=float, default=10.0)
    parser.add_argument("extra", nargs="*", help="more `mjenv train ppo` flags (after --)")
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.2f}")
    before = random_decisions_per_s(args.reference_seconds, 1)
    sps = learner_sps(args.updates, args.init_from, args.num_envs, args.workers, args.extra)
    after = random_decisions_per_s(args.reference_seconds, 2)
    reference = (before + after) / 2
    median = statistics.median(sps)
    print(f"random play, 4 agents, no encoding: {before:,.0f} / {after:,.0f} decisions/s "
          f"(before / after)")
    print(f"mjenv train ppo --init-from {args.init_from} --num-envs {args.num_envs} "
          f"--workers {args.workers} {' '.join(args.extra)}".rstrip())
    print(f"  charts/SPS of updates 2-{args.updates}: "
          + ", ".join(f"{s:,.0f}" for s in sps))
    print(f"learner steps/s vs random play's decisions/s: {median / reference:.4f} "
          f"(median {median:,.0f} / {reference:,.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
