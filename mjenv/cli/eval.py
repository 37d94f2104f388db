"""``mjenv eval``: duplicate evaluation of one agent against three copies of another.

    mjenv eval --agent heuristic --vs random --deals 2000 --seed 0 --json

prints one JSON object (``training.evaluate``); without ``--json`` a table. A progress bar goes
to stderr unless ``--no-progress``. Ctrl-C stops the run: what was played is reported (and
saved with ``--save``) as a partial report, ``deals_done`` < ``deals``, exit code 130.
"""

from __future__ import annotations

import argparse
import json
import os
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--agent", default="heuristic",
                        help="candidate agent spec: random, heuristic, heuristic:efficiency, "
                             "heuristic:nodefence, ppo:PATH, ppo:pretrained, \"cmd:PROGRAM "
                             "ARGS\" (docs/protocol.md) (default heuristic)")
    parser.add_argument("--vs", default="random",
                        help="spec of the three opponents (default random)")
    parser.add_argument("--deals", type=int, default=200,
                        help="deals (or matches with --match), each played in 4 seat "
                             "rotations (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="evaluation seed (default 0)")
    parser.add_argument("--match", action="store_true",
                        help="play whole matches instead of single hands; adds mean rank")
    parser.add_argument("--paired", action="store_true",
                        help="quick comparison: each deal once, the candidate in seat deal %% 4, "
                             "against the same deal with a --vs agent in that seat (gain)")
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
    parser.add_argument("--log", metavar="DIR", default=None,
                        help="write every game's event log to DIR (created): one JSON-lines "
                             "file per hand (per match with --match), e.g. "
                             "deal00012-seat2.jsonl, for mjenv replay and mjenv view")
    add_program_arguments(parser)
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def add_program_arguments(parser: argparse.ArgumentParser) -> None:
    """``--timeout`` and ``--bot-logs`` for ``cmd:`` programs (shared with ``mjenv arena``)."""
    from agents.external import DEFAULT_STDERR_DIR, DEFAULT_TIMEOUT
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"cmd: programs: seconds per decision before the fallback takes "
                             f"the seat for the rest of the hand (default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--bot-logs", metavar="DIR", default=None,
                        help=f"cmd: programs: directory of their stderr logs (default "
                             f"{DEFAULT_STDERR_DIR})")


def check_program_arguments(args: argparse.Namespace) -> None:
    """``ValueError`` for a timeout that is not a positive, finite number of seconds."""
    from mjenv.cli.options import check_bounds

    check_bounds(args, timeout={"above": 0, "high": 1e9})


def run(args: argparse.Namespace) -> int:
    from mjenv.cli.options import check_bounds
    from mjenv.rules import RuleConfig
    from training.duplicate import check_output_file
    from training.evaluate import Interrupted, evaluate, format_table

    options = {k: v for k, v in (("min_points", args.min_points), ("rounds", args.rounds))
               if v is not None}

    def save(report: dict) -> None:
        tmp = f"{args.save}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(report, f)
        os.replace(tmp, args.save)

    status = 0
    try:
        check_bounds(args, deals={"low": 1}, seed={"low": 0}, workers={"low": 1})
        rules = RuleConfig(**options)
        check_program_arguments(args)
        check_output_file(args.save, "--save")
        report = evaluate(args.agent, args.vs, args.deals, args.seed, rules, match=args.match,
                          paired=args.paired, workers=args.workers, progress=not args.no_progress,
                          snapshot=save if args.save else None, log_dir=args.log,
                          timeout=args.timeout, stderr_dir=args.bot_logs)
    except ValueError as e:
        print(f"mjenv eval: {e}", file=sys.stderr)
        return 2
    except Interrupted as stop:
        report, status = stop.report, 130
        print(f"\nmjenv eval: interrupted after {report['deals_done']} of {report['deals']} "
              f"{'matches' if args.match else 'deals'}; the report covers those",
              file=sys.stderr)
    except KeyboardInterrupt:
        print("\nmjenv eval: interrupted before any deal was played", file=sys.stderr)
        return 130
    if args.save:
        save(report)
    if args.json:
        print(json.dumps(report))
    else:
        print(format_table(report))
    return status
