"""Training throughput on this machine: learner steps/s of ``mjenv train ppo``.

Measures, in one run:
1. the peer: the bare engine (``Hand`` + observation encoding + mask) with random agents in
   all four seats — the cost of the game itself, in decisions/s;
2. PPO training (rollout with batched inference + update) with the default network, for each
   ``--workers`` value asked for, in learner steps/s (``charts/SPS``) and all-seat decisions/s
   during rollouts (``charts/decisions_per_s``).
Reports medians over the updates after the first (which pays for imports and process start)
and the ratio of rollout decisions/s to the bare engine's.

    python benchmarks/bench_train.py [--updates 4] [--num-steps 2048] [--workers 1 2]
                                     [--features analysis-v1]
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


def engine_decisions_per_s(seconds: float, seed: int = 0) -> float:
    import numpy as np

    from agents import make_agent
    from mjenv.env.play import play
    from mjenv.game import Hand

    agent = make_agent("random", seed=seed)
    agent.needs_observation = True          # pay for the planes, as a learning agent does
    rng = np.random.default_rng(seed)
    decisions: list = []
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        play(Hand(seed=int(rng.integers(2**62))), [agent] * 4, on_step=decisions.append)
    return len(decisions) / (time.perf_counter() - t0)


def ppo_rates(workers: int, updates: int, num_steps: int, fixed: str, features: str
              ) -> tuple[float, float]:
    from training.ppo import Args, train

    with tempfile.TemporaryDirectory() as tmp:
        args = Args(out=tmp, seed=1, total_steps=num_steps * 1000, num_steps=num_steps,
                    workers=workers, eval_every=0, fixed_opponents=fixed, device="cpu",
                    features=features)
        train(args, progress=False, stop_after=updates)
        with open(Path(tmp) / "progress.csv") as f:
            rows = list(csv.DictReader(f))[1:]
    return (statistics.median(float(r["charts/SPS"]) for r in rows),
            statistics.median(float(r["charts/decisions_per_s"]) for r in rows))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=4)
    parser.add_argument("--num-steps", type=int, default=2048)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--fixed-opponents", default="heuristic:3,random:1")
    parser.add_argument("--features", default="", help="network input: '' or 'analysis-v1'")
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.2f}")
    peer = engine_decisions_per_s(10.0)
    print(f"bare engine, 4 random agents: {peer:,.0f} decisions/s")
    for w in args.workers:
        sps, dps = ppo_rates(w, args.updates, args.num_steps, args.fixed_opponents,
                             args.features)
        print(f"ppo --workers {w} --features '{args.features}': {sps:,.0f} learner steps/s (median of {args.updates - 1} "
              f"updates of {args.num_steps}); rollout {dps:,.0f} decisions/s = "
              f"{dps / peer:.2f}x the bare engine")
    return 0


if __name__ == "__main__":
    sys.exit(main())
