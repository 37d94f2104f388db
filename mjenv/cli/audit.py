"""``mjenv audit``: the yaku exclusion audit of RULES.md §9 (see ``mjenv.scoring.audit``).

    mjenv audit [--hands 100000] [--seed 0] [--workers 1] [--write | --out PATH]

Generates the hands, evaluates every reading and prints a summary. The markdown report is
written only when asked: ``--write`` updates the committed ``docs/exclusions.md``, ``--out
PATH`` writes it to PATH (``-`` prints it). Exit status 0 when every yaku was reached at least
30 times (the audit is then complete; any candidate it finds is reported, not fixed: the
rulebook stays normative), 1 otherwise — the last line says so and why — and 2 for bad
arguments.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

DEFAULT_HANDS = 100_000
DEFAULT_SEED = 0
DEFAULT_OUT = "docs/exclusions.md"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=int, default=DEFAULT_HANDS, metavar="N",
                        help=f"generated winning hands (default {DEFAULT_HANDS:,})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, metavar="S",
                        help=f"generator seed (default {DEFAULT_SEED})")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--write", action="store_true",
                       help=f"write the report to {DEFAULT_OUT} (the committed docs)")
    where.add_argument("--out", default=None, metavar="PATH",
                       help="write the report to PATH instead ('-' prints it)")
    parser.add_argument("--workers", type=int, default=1, metavar="W",
                        help="worker processes (default 1; the report does not depend on it)")


def run(args: argparse.Namespace) -> int:
    from mjenv.cli.options import check_bounds
    from mjenv.scoring.audit import (MIN_REACH, candidates, exclusion_rows, render_report,
                                     run_audit, unreached)

    try:
        check_bounds(args, hands={"low": 1}, seed={"low": 0}, workers={"low": 1})
    except ValueError as exc:
        print(f"mjenv audit: {exc}", file=sys.stderr)
        return 2
    out = DEFAULT_OUT if args.write else args.out
    t0 = time.perf_counter()
    stats = run_audit(args.hands, args.seed, workers=args.workers)
    elapsed = time.perf_counter() - t0
    command = f"mjenv audit --hands {args.hands} --seed {args.seed}"
    command += " --write" if args.write else f" --out {out}" if out not in (None, "-") else ""
    report = render_report(stats, command, args.seed)
    if out == "-":
        print(report, end="")
    elif out is not None:
        try:
            os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
            with open(out, "w", encoding="utf-8") as f:
                f.write(report)
        except OSError as exc:
            print(f"mjenv audit: cannot write the report to {out}: {exc.strerror or exc}",
                  file=sys.stderr)
            return 2
    cands = [c for c in candidates(stats) if not c.covered_by]
    unexpected = [r for r in exclusion_rows(stats) if r.unexpected]
    missing = unreached(stats)
    written = {None: f"; report not written (--write updates {DEFAULT_OUT}, --out PATH "
                     f"writes it elsewhere)", "-": ""}
    print(f"audited {stats.hands:,} hands, {stats.readings:,} readings in {elapsed:.1f} s"
          + written.get(out, f"; report written to {out}"))
    print(f"(b) candidates for a missing exclusion: {len(cands)}"
          + "".join(f"\n    {c.a} -> {c.b} ({c.with_a} readings)" for c in cands))
    print(f"(a) listed exclusions with A but not B where B applies: {len(unexpected)}"
          + "".join(f"\n    {r.a} -> {r.b} ({r.unexpected})" for r in unexpected))
    if missing:
        print(f"coverage: {len(missing)} yaku reached fewer than {MIN_REACH} times: "
              f"{', '.join(missing)}")
        print(f"mjenv audit: exit status 1: the audit is incomplete ({len(missing)} yaku seen "
              f"fewer than {MIN_REACH} times in {stats.hands:,} hands); raise --hands (the "
              f"default {DEFAULT_HANDS:,} reaches every yaku)", file=sys.stderr)
        return 1
    print(f"coverage: every yaku reached at least {MIN_REACH} times")
    return 0
