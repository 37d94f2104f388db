"""RLlib sampling throughput with 0, 1 and 2 env runners, next to the single-machine trainer.

Needs the ray extra (``pip install "mjenv[ray]"``). Measures, in one run, on this machine:

1. the peer: ``training.selfplay.collect_rollout`` — the single-machine trainer's rollout
   (``mjenv train ppo --workers 1``: batched inference over ``--num-envs`` concurrent deals in
   this process), in decisions/s of all four seats;
2. ``mjenv train rllib`` for each ``--runners`` value, on a fresh local Ray instance with
   ``max(2, runners)`` CPUs: sampled decisions/s (agent steps of all seats / RLlib's sampling
   timer, which for remote runners includes shipping the episodes back), sampled env steps/s,
   and the whole iteration's rate (sampling + PPO update on the driver).

Both sides play the same deals: shared weights plus past snapshots, no fixed (heuristic/random)
agents (``fixed_share=0``), so every decision is a network decision and counted on both sides.
Medians over the iterations after the first (which pays for process start and warm-up).
Torch runs ``--threads`` threads in this process (default 1: on a shared 2-core machine more
threads only spin against each other), one per remote env runner.

    python benchmarks/bench_rllib.py [--iterations 4] [--steps-per-iter 1024] [--runners 0 1 2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def peer_decisions_per_s(steps: int, num_envs: int, repeats: int) -> float:
    """All-seat decisions/s of the single-machine trainer's rollout (learner ``steps``)."""
    from agents.network import NetConfig, build_net
    from mjenv.env.observation import NUM_PLANES
    from training.selfplay import RolloutSettings, collect_rollout

    settings = RolloutSettings(num_envs=num_envs, fixed_share=0.0)
    net = build_net(NetConfig(num_planes=NUM_PLANES)).eval()
    rates = []
    for r in range(repeats + 1):
        t0 = time.perf_counter()
        rollout = collect_rollout(net, [net], settings, [1, r], steps)
        if r:                                         # the first pays for warm-up
            rates.append(rollout.decisions / (time.perf_counter() - t0))
    return statistics.median(rates)


def rllib_rates(runners: int, iterations: int, steps: int, num_envs: int) -> dict[str, float]:
    import ray

    from mjenv.integrations.rllib_train import RLlibArgs, build_config

    with tempfile.TemporaryDirectory() as tmp:
        args = RLlibArgs(out=tmp, num_env_runners=runners, num_envs_per_env_runner=num_envs,
                         steps_per_iter=steps, minibatch_size=min(512, steps), update_epochs=1,
                         fixed_share=0.0, pool_size=1)
        ray.init(address="local", num_cpus=max(2, runners), include_dashboard=False,
                 logging_level="error")
        algo = build_config(args).build_algo()
        rows = []
        try:
            for _ in range(iterations):
                result = algo.train()
                env = result["env_runners"]
                timers = result["timers"]
                sample_s = timers["env_runner_sampling_timer"]
                rows.append({
                    "decisions": sum(env["num_agent_steps_sampled"].values()) / sample_s,
                    "env_steps": env["num_env_steps_sampled"] / sample_s,
                    "iteration": env["num_env_steps_sampled"] / timers["training_iteration"],
                })
        finally:
            algo.stop()
            ray.shutdown()
    rows = rows[1:]
    return {k: statistics.median(r[k] for r in rows) for k in rows[0]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=4)
    parser.add_argument("--steps-per-iter", type=int, default=1024)
    parser.add_argument("--num-envs", type=int, default=8,
                        help="concurrent deals per rollout worker / env runner")
    parser.add_argument("--runners", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--threads", type=int, default=1,
                        help="torch threads of this process (the peer's rollout, RLlib's "
                             "learner and its local sampling); remote runners use 1")
    args = parser.parse_args()
    if args.iterations < 2:
        parser.error("--iterations must be >= 2 (the first one is not counted)")
    import torch

    torch.set_num_threads(args.threads)
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.2f}, "
          f"torch threads: {torch.get_num_threads()}")
    peer = peer_decisions_per_s(args.steps_per_iter, args.num_envs, args.iterations - 1)
    print(f"single-machine rollout (train ppo --workers 1, {args.num_envs} deals): "
          f"{peer:,.0f} decisions/s")
    for runners in args.runners:
        r = rllib_rates(runners, args.iterations, args.steps_per_iter, args.num_envs)
        print(f"rllib --num-env-runners {runners}: sampling {r['decisions']:,.0f} decisions/s "
              f"({r['decisions'] / peer:.2f}x the single-machine rollout), "
              f"{r['env_steps']:,.0f} env steps/s; with the PPO update "
              f"{r['iteration']:,.0f} env steps/s (median of {args.iterations - 1} iterations "
              f"of {args.steps_per_iter} env steps)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
