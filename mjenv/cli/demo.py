"""``mjenv demo``: four baseline agents play a match in the terminal, then a short duplicate
evaluation (heuristic vs three random agents) — the project in under a minute.

    mjenv demo [--seed 0] [--deals 30] [--every-event] [--ascii] [--log DIR]

The match is drawn once per hand (the final table: every hand, the win's yaku and the
payments); ``--every-event`` draws the table after every decision instead. ``--log DIR`` keeps
the match as a log, ``DIR/demo-SEED.jsonl`` (``mjenv replay`` verifies it, ``mjenv view`` opens
it). The evaluation table is ``mjenv eval --agent heuristic --vs random --deals N`` in small.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

from mjenv.cli.options import (add_ascii_flag, add_log_flag, check_bounds, log_folder,
                               tile_style)

SEATS = ("heuristic", "heuristic:nodefence", "heuristic:efficiency", "random")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=0, help="match and evaluation seed")
    parser.add_argument("--deals", type=int, default=30,
                        help="deals of the closing evaluation (×4 seat rotations; default 30)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="wind rounds of the demo match (default 1: East only)")
    parser.add_argument("--every-event", action="store_true",
                        help="draw the table after every decision, not only at each hand's end")
    add_ascii_flag(parser)
    add_log_flag(parser, "demo-SEED.jsonl, the match")


def play_match(seed: int, rounds: int, style: str, every_event: bool,
               out: TextIO, logs=None) -> tuple[int, ...]:
    """Play and draw one match of the four ``SEATS`` agents; returns the final scores.
    ``logs``: a ``mjenv.game.LogFolder`` that keeps the match's log (``demo-SEED``), written
    after every hand."""
    from agents import make_agent
    from mjenv.env.play import play
    from mjenv.env.render import render_table
    from mjenv.game import Match
    from mjenv.rules import RuleConfig

    agents = [make_agent(spec, seed=seed * 4 + s) for s, spec in enumerate(SEATS)]
    out.write("Seats: " + ", ".join(f"{s} {spec}" for s, spec in enumerate(SEATS)) + "\n")
    match = Match(RuleConfig(rounds=rounds), seed=seed)
    number = 1
    while True:
        hand = match.hand

        def draw(step) -> None:
            if step.action.kind != "pass":
                out.write(f"\nseat {step.seat} ({SEATS[step.seat]}): {step.action}\n")
                out.write(render_table(hand, style=style, to_act=hand.to_act) + "\n")

        play(hand, agents, on_step=draw if every_event else None)
        out.write(f"\n=== hand {number} ===\n{render_table(hand, style=style)}\n")
        path = logs.save(f"demo-{seed}", match.log) if logs is not None else None
        if match.over:
            break
        match.next_hand()
        number += 1
    order = match.ranking()
    out.write("\nFinal: " + ", ".join(f"#{i + 1} seat {s} {SEATS[s]} {match.scores[s]:+d}"
                                      for i, s in enumerate(order)) + "\n")
    if path is not None:
        out.write(f"game log: {path} (mjenv view {path})\n")
    return match.scores


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from training.evaluate import evaluate, format_table
    out = out or sys.stdout
    try:
        check_bounds(args, deals={"low": 1}, seed={"low": 0})
        logs = log_folder(args)
        start = time.monotonic()
        play_match(args.seed, args.rounds, tile_style(args), args.every_event, out, logs)
        out.write("\nDuplicate evaluation (each deal replayed with the candidate in every "
                  "seat):\n")
        out.flush()
        report = evaluate("heuristic", "random", args.deals, args.seed, progress=True)
    except (ValueError, OSError) as e:       # OSError: a game log that cannot be written
        print(f"mjenv demo: {e}", file=sys.stderr)
        return 2
    out.write(format_table(report) + "\n")
    out.write(f"\n(demo took {time.monotonic() - start:.0f} s; a full run: mjenv eval "
              f"--agent heuristic --vs random --deals 2000 --workers 2)\n")
    return 0
