"""Soak test: many random hands with the engine's invariant checks after every event.

Each hand uses seed ``base + i`` for the wall and the agents, so any failure is reproduced
with ``--start I --hands 1``. Agents pick random legal actions, biased towards wins and
shanten-reducing discards so that every ending (ron, several rons, robbing, tsumo, draw)
occurs. Every ``--replay-every``-th hand is also replayed from its JSON log and re-played
from its seed (same log expected).

    nice python benchmarks/soak_engine.py --hands 100000
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import traceback
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from mjenv.game import Hand, replay  # noqa: E402
from tests.game.test_fuzz import choose  # noqa: E402  (the fuzz test's biased random player)


def play(seed: int, check: bool) -> Hand:
    rng = random.Random(seed)
    hand = Hand(seed=seed, dealer=seed % 4, round_wind=seed % 4, repeat=seed % 3)
    if check:
        hand.check_invariants()
    while not hand.over:
        seat = rng.choice(hand.to_act)
        hand.step(seat, choose(hand, seat, rng))
        if check:
            hand.check_invariants()
            for s in hand.to_act:
                if hand.view(s).legal != hand.legal_actions(s):
                    raise RuntimeError(f"view of seat {s} disagrees with legal_actions")
    return hand


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--start", type=int, default=0, help="first hand seed")
    ap.add_argument("--replay-every", type=int, default=10)
    ap.add_argument("--progress", type=int, default=5000, help="print a line every N hands")
    args = ap.parse_args()

    outcomes: Counter[str] = Counter()
    yaku: Counter[str] = Counter()
    events: Counter[str] = Counter()
    failures: list[tuple[int, str]] = []
    t0 = time.perf_counter()
    for i in range(args.start, args.start + args.hands):
        try:
            hand = play(i, check=True)
            r = hand.result
            outcomes[r.kind] += 1
            outcomes[f"{len(r.winners)} winner(s)"] += 1
            outcomes["robbed kan"] += r.robbed
            for s in r.scores.values():
                yaku.update(s.yaku.keys())
            for e in hand.log:
                events[e["type"]] += 1
            if (i - args.start) % args.replay_every == 0:
                log = json.loads(json.dumps(hand.log))
                if replay(log).log != log or play(i, check=False).log != hand.log:
                    raise RuntimeError("replay or re-play differs")
        except Exception:                      # record, keep soaking
            failures.append((i, traceback.format_exc()))
        done = i - args.start + 1
        if args.progress and done % args.progress == 0:
            print(f"{done} hands, {time.perf_counter() - t0:.0f} s, {len(failures)} failures",
                  flush=True)
    elapsed = time.perf_counter() - t0
    print(f"hands: {args.hands} (seeds {args.start}..{args.start + args.hands - 1}) in "
          f"{elapsed:.0f} s, failures: {len(failures)}")
    print("outcomes:", dict(sorted(outcomes.items())))
    print("events:", dict(sorted(events.items())))
    print(f"yaku seen: {len(yaku)} kinds:", dict(sorted(yaku.items())))
    for seed, tb in failures[:5]:
        print(f"--- failure at seed {seed} (rerun: --start {seed} --hands 1)\n{tb}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
