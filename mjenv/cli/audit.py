"""``mjenv audit``: the yaku exclusion audit of RULES.md §9 (see ``mjenv.scoring.audit``).

    mjenv audit [--hands 100000] [--seed 0] [--out docs/exclusions.md] [--workers 1]

Generates the hands, evaluates every reading, writes the markdown report and prints a summary.
Exit status 0 when every yaku was reached at least 30 times (the audit is then complete; any
candidate it finds is reported, not fixed: the rulebook stays normative), 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import time

DEFAULT_HANDS = 100_000
DEFAULT_SEED = 0
DEFAULT_OUT = "docs/exclusions.md"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=int, default=DEFAULT_HANDS, metavar="N",
                        help=f"generated winning hands (default {DEFAULT_HANDS:,})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, metavar="S",
                        help=f"generator seed (default {DEFAULT_SEED})")
    parser.add_argument("--out", default=DEFAULT_OUT, metavar="PATH",
                        help=f"markdown report (default {DEFAULT_OUT}; '-' prints it instead)")
    parser.add_argument("--workers", type=int, default=1, metavar="W",
                        help="worker processes (default 1; the report does not depend on it)")


def run(args: argparse.Namespace) -> int:
    from mjenv.scoring.audit import (MIN_REACH, candidates, exclusion_rows, render_report,
                                     run_audit, unreached)

    if args.hands < 1 or args.workers < 1:
        print("mjenv audit: --hands and --workers must be >= 1")
        return 2
    t0 = time.perf_counter()
    stats = run_audit(args.hands, args.seed, workers=args.workers)
    elapsed = time.perf_counter() - t0
    command = f"mjenv audit --hands {args.hands} --seed {args.seed}"
    if args.out != DEFAULT_OUT:
        command += f" --out {args.out}"
    report = render_report(stats, command, args.seed)
    if args.out == "-":
        print(report, end="")
    else:
        os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(report)
    cands = [c for c in candidates(stats) if not c.covered_by]
    unexpected = [r for r in exclusion_rows(stats) if r.unexpected]
    missing = unreached(stats)
    print(f"audited {stats.hands:,} hands, {stats.readings:,} readings in {elapsed:.1f} s"
          + ("" if args.out == "-" else f"; report written to {args.out}"))
    print(f"(b) candidates for a missing exclusion: {len(cands)}"
          + "".join(f"\n    {c.a} -> {c.b} ({c.with_a} readings)" for c in cands))
    print(f"(a) listed exclusions with A but not B where B applies: {len(unexpected)}"
          + "".join(f"\n    {r.a} -> {r.b} ({r.unexpected})" for r in unexpected))
    if missing:
        print(f"coverage: {len(missing)} yaku reached fewer than {MIN_REACH} times: "
              f"{', '.join(missing)}")
        return 1
    print(f"coverage: every yaku reached at least {MIN_REACH} times")
    return 0
