"""Engine throughput: random-play hands/s and decisions/s on one core.

Uniformly random legal actions for all four seats, no invariant checks, no observation
encoding — the raw cost of the rules (draws, claim windows, wait caching, scoring on wait
hits, settlement, logging). The peer measured in the same run is RLCard's mahjong game
(a simpler ruleset with no scoring) under the same uniform random policy.
Rates are per second of this process's CPU time (``time.process_time``), so a busy machine
does not skew them, and the two engines alternate repeat by repeat; each figure is the median
of ``--repeats`` runs of ``--seconds`` CPU seconds each.

    python benchmarks/bench_engine.py [--seconds 3] [--repeats 5] [--no-peer]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from mjenv.game import Hand  # noqa: E402


def run_mjenv(seconds: float, seed: int) -> tuple[float, float]:
    rng = random.Random(seed)
    hands = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        hand = Hand(seed=seed * 1_000_003 + hands)
        while not hand.over:
            seat = hand.to_act[0] if len(hand.to_act) == 1 else rng.choice(hand.to_act)
            hand.step(seat, rng.choice(hand.legal_actions(seat)))
            decisions += 1
        hands += 1
    elapsed = time.process_time() - start
    return hands / elapsed, decisions / elapsed


def run_rlcard(seconds: float, seed: int) -> tuple[float, float]:
    import numpy as np
    from rlcard.games.mahjong import Game

    game = Game()
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)
    hands = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state, _ = game.init_game()
        while not game.is_over():
            state, _ = game.step(rng.choice(game.get_legal_actions(state)))
            decisions += 1
        hands += 1
    elapsed = time.process_time() - start
    return hands / elapsed, decisions / elapsed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="length of one repeat")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--no-peer", action="store_true", help="skip the RLCard measurement")
    args = ap.parse_args()

    rows = {"mjenv": run_mjenv}
    if not args.no_peer:
        rows["rlcard"] = run_rlcard
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in rows}
    for seed in range(args.repeats):
        for name, fn in rows.items():
            runs[name].append(fn(args.seconds, seed))
    medians = {}
    for name in rows:
        medians[name] = (statistics.median(r[0] for r in runs[name]),
                         statistics.median(r[1] for r in runs[name]))
        print(f"{name:7s} hands/s {medians[name][0]:9.1f}   decisions/s {medians[name][1]:10.1f}"
              f"   (median of {args.repeats} × {args.seconds:g} CPU s, one core)")
    if "rlcard" in medians:
        h = medians["mjenv"][0] / medians["rlcard"][0]
        d = medians["mjenv"][1] / medians["rlcard"][1]
        print(f"ratio mjenv/rlcard: hands/s {h:.2f}, decisions/s {d:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
