"""Random-play throughput of the environments, side by side with RLCard's mahjong in one run.

Every decision of ours builds the observation planes and the action mask (what a learner
pays for); uniform random agents pick among the legal ids. RLCard's ``mahjong`` env is
played with its own ``RandomAgent`` through ``env.run``. Both run in this one process, pinned
to one core, alternating rounds so that machine noise hits both alike; the report gives
medians over the rounds and the ratio ours / RLCard.

    python benchmarks/bench_env.py                      # 5 rounds of 200 hands / 40 games
    python benchmarks/bench_env.py --rounds 3 --hands 100 --rlcard-games 20

Rates are per wall-clock second; on a shared machine the per-CPU-second rates printed beside
them (``time.process_time``) are the fairer one-core figure. The engines differ: ours scores
every win by the full yaku table and asks only seats with a legal claim; RLCard's ends at any
complete shape without scoring.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


Rates = tuple[float, float, float, float, float]


class _Clock:
    """Wall and process-CPU time since creation."""

    def __init__(self) -> None:
        self.wall = time.perf_counter()
        self.cpu = time.process_time()

    def rates(self, decisions: int, episodes: int) -> Rates:
        """(decisions/s, episodes/s, decisions/episode, decisions/CPU-s, episodes/CPU-s)."""
        wall = time.perf_counter() - self.wall
        cpu = time.process_time() - self.cpu
        return (decisions / wall, episodes / wall, decisions / episodes, decisions / cpu,
                episodes / cpu)


def bench_gym(hands: int, seed: int) -> Rates:
    """(decisions/s, hands/s, decisions/hand) of MahjongEnv under uniform random play."""
    from mjenv.env import MahjongEnv

    env = MahjongEnv()
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    decisions = done = 0
    clock = _Clock()
    while done < hands:
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, terminated, _, _ = env.step(int(legal[rng.integers(legal.size)]))
        decisions += 1
        if terminated:
            done += 1
            obs, _ = env.reset()
    return clock.rates(decisions, hands)


def bench_aec(hands: int, seed: int) -> Rates:
    """The same through the PettingZoo AEC API (``agent_iter``/``last``/``step``)."""
    import mjenv.pettingzoo

    env = mjenv.pettingzoo.env()
    rng = np.random.default_rng(seed)
    decisions = 0
    clock = _Clock()
    for h in range(hands):
        env.reset(seed=seed + h)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(legal.size)]))
            decisions += 1
    return clock.rates(decisions, hands)


def bench_rlcard(games: int, seed: int) -> Rates:
    """(decisions/s, games/s, decisions/game) of rlcard.make("mahjong") with RandomAgents."""
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("mahjong", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    decisions = 0
    clock = _Clock()
    for _ in range(games):
        trajectories, _ = env.run(is_training=False)
        decisions += sum((len(t) - 1) // 2 for t in trajectories)   # [s0, a0, s1, a1, …, sN]
    return clock.rates(decisions, games)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (median)")
    parser.add_argument("--hands", type=int, default=200, help="our hands per round")
    parser.add_argument("--rlcard-games", type=int, default=40, help="RLCard games per round")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-pin", action="store_true", help="do not pin to one CPU core")
    parser.add_argument("--no-aec", action="store_true", help="skip the PettingZoo run")
    args = parser.parse_args(argv)
    if not args.no_pin and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    runs: dict[str, list[Rates]] = {"gym": [], "aec": [], "rlcard": []}
    for r in range(args.rounds):
        seed = args.seed + 1000 * r
        runs["gym"].append(bench_gym(args.hands, seed))
        if not args.no_aec:
            runs["aec"].append(bench_aec(args.hands, seed))
        runs["rlcard"].append(bench_rlcard(args.rlcard_games, seed))

    def med(name: str, i: int) -> float:
        return statistics.median(x[i] for x in runs[name])

    print(f"rounds {args.rounds}, {args.hands} hands (ours) / {args.rlcard_games} games "
          f"(RLCard) per round, one core; medians")
    print(f"{'env':<26}{'decisions/s':>12}{'hands/s':>9}{'dec/hand':>9}"
          f"{'dec/CPU-s':>11}{'hands/CPU-s':>12}")
    rows = [("mjenv MahjongEnv (gym)", "gym"), ("mjenv AEC (pettingzoo)", "aec"),
            ("RLCard mahjong", "rlcard")]
    for label, name in rows:
        if runs[name]:
            print(f"{label:<26}{med(name, 0):>12,.0f}{med(name, 1):>9.1f}{med(name, 2):>9.1f}"
                  f"{med(name, 3):>11,.0f}{med(name, 4):>12.1f}")
    print(f"hands/s ratio MahjongEnv / RLCard: wall {med('gym', 1) / med('rlcard', 1):.2f}x, "
          f"CPU {med('gym', 4) / med('rlcard', 4):.2f}x  (targets: >= 3x, >= 5,000 decisions/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
