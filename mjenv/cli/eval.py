"""``mjenv eval``: duplicate evaluation of one agent against three copies of another.

    mjenv eval --agent heuristic --vs random --deals 2000 --seed 0 --json

prints one JSON object (``training.evaluate``); without ``--json`` a table. A progress bar goes
to stderr unless ``--no-progress``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--agent", default="heuristic",
                        help="candidate agent spec: random, heuristic, heuristic:efficiency, "
                             "heuristic:nodefence, ppo:PATH, ppo:pretrained (default heuristic)")
    parser.add_argument("--vs", default="random",
                        help="spec of the three opponents (default random)")
    parser.add_argument("--deals", type=int, default=200,
                        help="deals (or matches with --match), each played in 4 seat "
                             "rotations (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="evaluation seed (default 0)")
    parser.add_argument("--match", action="store_true",
                        help="play whole matches instead of single hands; adds mean rank")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes (results are identical for any count; default 1)")
    parser.add_argument("--min-points", type=int, default=None,
                        help="RuleConfig.min_points (default: the rulebook's 6)")
    parser.add_argument("--rounds", type=int, default=None,
                        help="RuleConfig.rounds for --match (default: the rulebook's 2)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--save", metavar="PATH", default=None,
                        help="also write the JSON report to PATH, rewritten every 50 deals "
                             "while the run goes (a partial report has deals_done < deals)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def run(args: argparse.Namespace) -> int:
    from mjenv.rules import RuleConfig
    from training.evaluate import evaluate, format_table

    options = {k: v for k, v in (("min_points", args.min_points), ("rounds", args.rounds))
               if v is not None}
    def save(report: dict) -> None:
        tmp = f"{args.save}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(report, f)
        os.replace(tmp, args.save)

    try:
        rules = RuleConfig(**options)
        report = evaluate(args.agent, args.vs, args.deals, args.seed, rules, match=args.match,
                          workers=args.workers, progress=not args.no_progress,
                          snapshot=save if args.save else None)
    except ValueError as e:
        print(f"mjenv eval: {e}", file=sys.stderr)
        return 2
    if args.save:
        save(report)
    if args.json:
        print(json.dumps(report))
    else:
        print(format_table(report))
    return 0
