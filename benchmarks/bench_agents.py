"""Decisions per second of each agent, playing whole hands against copies of itself.

    python benchmarks/bench_agents.py [--hands 20] [--repeats 3]

Each agent plays ``--hands`` seeded hands in all four seats (the same walls for every agent,
new walls for every repeat);
the script reports the median over ``--repeats`` runs of decisions/s and hands/s (process CPU
time, which stays meaningful on a shared machine), and each agent's hands/s as a ratio to the
random agent measured in the same run (the engine-only floor). Timing includes the engine, the mask and, for agents that
need it, the observation encoder — the cost an evaluation or a training rollout pays.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from agents import make_agent  # noqa: E402
from mjenv.env.play import play  # noqa: E402
from mjenv.game import Hand  # noqa: E402

SPECS = ("random", "heuristic:efficiency", "heuristic:nodefence", "heuristic")


def run(spec: str, hands: int, first: int) -> tuple[float, float]:
    """Play hands ``first`` … ``first + hands - 1``; returns (decisions/s, hands/s)."""
    agents = [make_agent(spec, seed=s) for s in range(4)]
    decisions = []
    start = time.process_time()
    for seed in range(first, first + hands):
        play(Hand(seed=seed), agents, on_step=decisions.append)
    elapsed = time.process_time() - start
    return len(decisions) / elapsed, hands / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--specs", nargs="*", default=list(SPECS))
    args = parser.parse_args()
    results = {}
    for spec in args.specs:
        run(spec, 2, 10_000)                          # imports and lazily built tables
        # fresh walls every repeat: the heuristic's memo tables would make repeated hands free
        runs = [run(spec, args.hands, r * args.hands) for r in range(args.repeats)]
        results[spec] = (statistics.median(r[0] for r in runs),
                         statistics.median(r[1] for r in runs))
    base = results.get("random", (None, None))[1]
    print(f"{'agent':24} {'decisions/s':>12} {'hands/s':>9} {'vs random':>10}")
    for spec, (dps, hps) in results.items():
        ratio = f"{hps / base:9.3f}x" if base else "      n/a"
        print(f"{spec:24} {dps:12.0f} {hps:9.2f} {ratio}")


if __name__ == "__main__":
    main()
