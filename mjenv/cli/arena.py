"""``mjenv arena``: a league of agents with a leaderboard, or the standard card of one agent.

    mjenv arena random heuristic:efficiency heuristic ppo:pretrained \\
        "cmd:python3 -m agents.example_bot" --deals 200 --league league.jsonl --workers 2
    mjenv arena --card heuristic

Method, schedule and league file: ``training.arena`` and docs/agents.md; the protocol of
``cmd:`` programs: docs/protocol.md. Ctrl-C stops the league and prints the leaderboard of what
was played (kept in the league file; ``--resume`` continues it), exit code 130.
"""

from __future__ import annotations

import argparse
import json
import sys

from mjenv.cli.eval import add_program_arguments, check_program_arguments
from mjenv.cli.options import check_bounds


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("agents", nargs="*", metavar="SPEC",
                        help="agent specs (at least 4): random, heuristic, heuristic:v1, "
                             "heuristic:efficiency, heuristic:PATH, ppo:PATH, ppo:pretrained, "
                             "\"cmd:PROGRAM ARGS\" (an external program, docs/protocol.md)")
    parser.add_argument("--card", metavar="SPEC", default=None,
                        help="instead of a league: SPEC against 3× random, 3× heuristic:v1, "
                             "3× heuristic and 3× ppo:pretrained on the card's fixed deals")
    parser.add_argument("--deals", type=int, default=None,
                        help="deals per table, each in 4 rotations (default 100; a --card has "
                             "its own fixed count, 2000, and is not standard with another)")
    parser.add_argument("--seed", type=int, default=None,
                        help="league seed: walls and agent seeds (default 0; a --card has its "
                             "own fixed seed)")
    parser.add_argument("--league", metavar="FILE", default=None,
                        help="keep the league in FILE (JSON lines, appended deal by deal); "
                             "nothing is written without it")
    parser.add_argument("--resume", action="store_true",
                        help="continue the league in --league FILE: play only what is missing "
                             "(new agents: only their tables)")
    parser.add_argument("--min-points", type=int, default=None,
                        help="RuleConfig.min_points (default: the rulebook's 6)")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes (results are identical for any count; default 1)")
    parser.add_argument("--json", action="store_true",
                        help='print {"leaderboard": [...]} (with --card: {"card": {...}})')
    parser.add_argument("--markdown", metavar="FILE", default=None,
                        help="also write the leaderboard as a Markdown page")
    parser.add_argument("--html", metavar="FILE", default=None,
                        help="also write the leaderboard as a self-contained HTML page")
    parser.add_argument("--log", metavar="DIR", default=None,
                        help="write every game's event log to DIR (created), one JSON-lines "
                             "file per hand, and DIR/index.jsonl naming who sat where")
    add_program_arguments(parser)
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def run(args: argparse.Namespace) -> int:
    from training.arena import LeagueError

    try:
        _check(args)
        if args.card is not None:
            return _card(args)
        return _league(args)
    except (LeagueError, ValueError) as e:
        print(f"mjenv arena: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nmjenv arena: interrupted before anything was played", file=sys.stderr)
        return 130


def _check(args: argparse.Namespace) -> None:
    """Every argument, before any work (``ValueError`` with one line)."""
    from training.duplicate import check_output_file
    if args.card is not None and args.agents:
        raise ValueError("give either agents for a league or --card SPEC, not both")
    if args.card is None and not args.agents:
        raise ValueError("name the agents of the league (at least 4), or --card SPEC")
    if args.card is not None:
        for option in ("league", "resume", "html", "min_points"):
            if getattr(args, option):
                raise ValueError(f"--{option.replace('_', '-')} applies to a league, not to "
                                 f"--card")
    check_bounds(args, deals={"low": 1}, seed={"low": 0}, workers={"low": 1})
    check_program_arguments(args)
    check_output_file(args.markdown, "--markdown")
    check_output_file(args.html, "--html")


def _league(args: argparse.Namespace) -> int:
    from mjenv.rules import RuleConfig
    from training.arena import check_agents, open_league, run_league, summary
    from training.duplicate import check_output_dir
    from training.leaderboard import (format_leaderboard, html_leaderboard, leaderboard,
                                      markdown_leaderboard)

    rules = RuleConfig(**({} if args.min_points is None else {"min_points": args.min_points}))
    league, path, size = open_league(args.league, args.resume,
                                     0 if args.seed is None else args.seed,
                                     100 if args.deals is None else args.deals, rules)
    check_agents(args.agents, args.timeout, args.bot_logs)
    logs = check_output_dir(args.log, "--log")
    complete = run_league(league, args.agents, path=path, valid_bytes=size,
                          workers=args.workers, progress=not args.no_progress, log_dir=logs,
                          timeout=args.timeout, stderr_dir=args.bot_logs)
    board = leaderboard(league.records.values(), args.agents)
    facts = summary(league, args.agents, complete)
    if not complete:
        print(f"\nmjenv arena: interrupted after {facts['deals_played']} of "
              f"{facts['deals_total']} table-deals; the leaderboard covers those"
              + (f", kept in {args.league} (--resume continues it)" if args.league else ""),
              file=sys.stderr)
    if args.markdown:
        _write(args.markdown, markdown_leaderboard(board, facts))
    if args.html:
        _write(args.html, html_leaderboard(board, facts))
    if args.json:
        print(json.dumps({"leaderboard": board, "league": facts}))
    else:
        print(format_leaderboard(board, facts))
    return 0 if complete else 130


def _card(args: argparse.Namespace) -> int:
    from training.arena import CARD_DEALS, CARD_SEED, card, check_card
    from training.duplicate import Interrupted
    from training.leaderboard import format_card, markdown_card

    check_card(args.card, args.timeout, args.bot_logs)
    status = 0
    try:
        result = card(args.card, deals=CARD_DEALS if args.deals is None else args.deals,
                      seed=CARD_SEED if args.seed is None else args.seed,
                      workers=args.workers, progress=not args.no_progress, log_dir=args.log,
                      timeout=args.timeout, stderr_dir=args.bot_logs)
    except Interrupted as stop:
        result, status = stop.report, 130
        print("\nmjenv arena: interrupted; the card shows the fields played so far",
              file=sys.stderr)
    if args.markdown:
        _write(args.markdown, markdown_card(result))
    if args.json:
        print(json.dumps({"card": result}))
    else:
        print(format_card(result))
    return status


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
