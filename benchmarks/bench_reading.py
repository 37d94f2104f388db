"""What a hand read costs (``agents.search.reading``), as a ratio to a heuristic decision on
the same views, measured in the same run.

    python benchmarks/bench_reading.py [--hands 6] [--repeats 5] [--model PATH]

The views are every turn and claim decision of ``--hands`` heuristic self-play deals. Each
repeat times, in process CPU time, the tuned heuristic deciding each view (its memo tables
warmed by a first pass, as in any long run), ``read`` of each view, and ``read_batch`` of all
of them at once; the ratios are the medians over repeats of (read time) / (heuristic time)
per view, so the machine's drift hits both sides alike. Reads run on one torch thread, as
``ReadingModel.load`` sets.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from agents import make_agent  # noqa: E402
from agents.search.reading import ReadingModel  # noqa: E402
from mjenv.env.actions import legal_mask  # noqa: E402
from mjenv.game import Hand  # noqa: E402
from training.reading import record  # noqa: E402


def per_view(fn, items) -> float:
    """Process CPU seconds of ``fn(item)`` per item."""
    start = time.process_time()
    for item in items:
        fn(item)
    return (time.process_time() - start) / len(items)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--model", default="", help="a model file (default: the shipped one)")
    args = parser.parse_args(argv)
    model = ReadingModel.load(args.model) if args.model else ReadingModel.shipped()
    agents = [make_agent("heuristic", seed=s) for s in range(4)]
    views = [row.view for seed in range(args.hands) for row in record(Hand(seed=seed), agents)]
    heuristic = make_agent("heuristic", seed=0)
    items = [(v, legal_mask(v)) for v in views]

    def decide(item) -> None:
        heuristic.act(None, item[1], item[0])

    per_view(decide, items)                       # warm the memo tables
    model.read_batch(views[:8])
    ratios, batched, reads = [], [], []
    for _ in range(args.repeats):
        base = per_view(decide, items)
        read = per_view(model.read, views)
        batch = per_view(lambda _: model.read_batch(views), [None]) / len(views)
        ratios.append(read / base)
        batched.append(batch / base)
        reads.append(read)
    print(f"{len(views)} views of {args.hands} deals, {args.repeats} repeats")
    print(f"read: {statistics.median(reads) * 1e3:.2f} ms a view, "
          f"{statistics.median(ratios):.2f}x a heuristic decision")
    print(f"read_batch: {statistics.median(batched):.2f}x a heuristic decision per view")


if __name__ == "__main__":
    main()
