"""``mjenv replay LOG``: verify a logged hand or match, then play it back in the terminal.

The log is JSON lines (``mjenv.game.dump_log``) or one JSON array of events. Verification
re-runs every decision through the engine (``mjenv.game.replay``) and stops at the first
event the engine does not reproduce; a log cut in the middle of a hand fails too (a match log
may stop between hands). Only a verified log is played back, one frame per decision, with
``--delay`` seconds between frames on a terminal (none when the output is a file or a pipe:
nobody watches it) or ``--step`` to wait for Enter. Exit status 1 when the log does not replay
(the verification's answer), 2 when it cannot be read or an option is wrong; one line each,
naming why.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Iterator


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", help="game log: JSON lines (Hand.log / Match.log) or a JSON array")
    parser.add_argument("--delay", type=float, default=0.5, metavar="SECONDS",
                        help="pause between frames on a terminal (default 0.5; no pause when "
                             "the output is not a terminal)")
    parser.add_argument("--step", action="store_true", help="wait for Enter after each frame")
    parser.add_argument("--ascii", action="store_true",
                        help="tiles as 1m…7z instead of Unicode glyphs")
    parser.add_argument("--verify-only", action="store_true",
                        help="check the log against the engine, no playback")


def _frames(events: list[dict], style: str) -> Iterator[str]:
    """One rendered frame per decision (and one per deal) of every hand in ``events``."""
    from mjenv.env.render import render_table
    from mjenv.game import Action, Hand
    from mjenv.rules import RuleConfig

    hand = None
    number = 0
    for ev in events:
        kind = ev.get("type")
        if kind == "deal":
            number += 1
            hand = Hand(RuleConfig.from_dict(ev["rules"]), wall=ev["wall"], dealer=ev["dealer"],
                        round_wind=ev["round_wind"], repeat=ev["repeat"],
                        scores=tuple(ev["scores"]))
            yield f"hand {number}: dealt\n" + render_table(hand, style=style, to_act=hand.to_act)
        elif kind == "decide" and hand is not None:
            hand.step(ev["seat"], Action.parse(ev["action"]))
            yield (f"hand {number}: seat {ev['seat']} {ev['action']}\n"
                   + render_table(hand, style=style, to_act=hand.to_act))


def run(args: argparse.Namespace) -> int:
    from mjenv.cli.options import check_bounds
    from mjenv.game import Match, ReplayError, read_log, replay

    try:
        check_bounds(args, delay={"low": 0})
        events = read_log(args.log)
        result = replay(events, require_hand_end=True)
    except ReplayError as exc:
        print(f"mjenv replay: {args.log} does not replay: {exc}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as exc:
        kind = "" if str(exc).startswith("--") else f"{args.log} cannot be read: "
        print(f"mjenv replay: {kind}{exc}", file=sys.stderr)
        return 2
    hands = sum(1 for ev in events if ev.get("type") == "deal")
    scores = result.scores if isinstance(result, Match) else result.scores_after
    early = " (the match stops here, before its last round)" \
        if isinstance(result, Match) and not result.over else ""
    print(f"verified: {hands} hand(s), {len(events)} events; final scores "
          f"{' '.join(f'{s:+d}' for s in scores)}{early}")
    if args.verify_only:
        return 0
    terminal = sys.stdout.isatty()
    for frame in _frames(events, "ascii" if args.ascii else "unicode"):
        if terminal:
            sys.stdout.write("\x1b[2J\x1b[H")
        print(frame)
        print()
        if args.step:
            input("-- Enter for the next decision --")
        elif terminal and args.delay > 0:
            sys.stdout.flush()
            time.sleep(args.delay)
    return 0
