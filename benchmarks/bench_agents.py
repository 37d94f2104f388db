"""Decisions per second of each agent, playing whole hands against copies of itself, as a
ratio to random play measured in the same run.

    python benchmarks/bench_agents.py [--hands 20] [--repeats 5] [--warm 150] [--specs heuristic …]

Each agent plays ``--hands`` seeded hands in all four seats, new walls for every repeat and for
every agent: agents that share caches (the heuristic's variants) would otherwise replay
hands an agent before them has already evaluated. Repeats alternate between the random agent and each spec, so the
machine's drift (±25 % here from minute to minute) hits both sides of a pair alike; the
reported ratio is the median over repeats of (the spec's decisions/s) / (random's decisions/s
in the same repeat), process CPU time. Random play passes no observation (``needs_observation
= False``), so it measures the engine and the mask alone — the floor every agent pays; agents
that need the planes are timed with the encoder, as an evaluation or a rollout pays it.

Each spec first plays ``--warm`` hands that are not counted: its imports, its lazily built
tables, and the heuristic's caches (suit rows, evaluations, legal waits), which carry over
between repeats as they do in any long run. The caches take a hundred hands or so to fill:
in one process the heuristic's suit joins fall from 0.44 a decision over its first 100 hands to
0.06 over hands 1,100–1,200, and after two warm-up hands (this benchmark's until 2026-12-02)
its ratio read 0.130 where 150 read 0.139 and 400 read 0.138 (same code, same walls).
An evaluation or a training run plays thousands of hands a process, nearly all of them warm.
Decisions are counted, not kept: a list of every ``Step`` (its view and mask) grew the
collector's work through the run, and random play, with more decisions a hand and less work
each, paid for it most — keeping them read the heuristic about a tenth faster against random
play than it is.
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

SPECS = ("heuristic:efficiency", "heuristic:v1", "heuristic:nodefence", "heuristic")


def run(spec: str, hands: int, first: int) -> tuple[float, float]:
    """Play hands ``first`` … ``first + hands - 1``; returns (decisions/s, hands/s)."""
    agents = [make_agent(spec, seed=s) for s in range(4)]
    decisions = 0

    def count(_step) -> None:
        nonlocal decisions
        decisions += 1

    start = time.process_time()
    for seed in range(first, first + hands):
        play(Hand(seed=seed), agents, on_step=count)
    elapsed = time.process_time() - start
    return decisions / elapsed, hands / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--warm", type=int, default=150, help="uncounted hands per spec first")
    parser.add_argument("--specs", nargs="*", default=list(SPECS))
    args = parser.parse_args()
    if args.hands < 1 or args.repeats < 1 or args.warm < 0:
        parser.error("--hands and --repeats must be at least 1, --warm at least 0")
    print(f"{'agent':24} {'decisions/s':>12} {'hands/s':>9} {'decisions/s vs random':>22}")
    base = [run("random", args.hands, 10_000 + r * args.hands) for r in range(args.repeats)]
    print(f"{'random':24} {statistics.median(b[0] for b in base):12.0f} "
          f"{statistics.median(b[1] for b in base):9.2f} {'1.000':>22}")
    for k, spec in enumerate(args.specs):
        if args.warm:
            run(spec, args.warm, 1_000_000 + 10_000 * k)     # imports, tables, caches
        pairs = []
        for r in range(args.repeats):
            first = 100_000 * (k + 1) + r * args.hands      # walls no other run has played
            rand = run("random", args.hands, first)
            mine = run(spec, args.hands, first)
            pairs.append((mine, rand))
        ratio = statistics.median(m[0] / b[0] for m, b in pairs)
        print(f"{spec:24} {statistics.median(m[0] for m, _ in pairs):12.0f} "
              f"{statistics.median(m[1] for m, _ in pairs):9.2f} {ratio:22.3f}")


if __name__ == "__main__":
    main()
