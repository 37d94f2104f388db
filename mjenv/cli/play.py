"""``mjenv play``: a person plays one seat against three agents in the terminal.

    mjenv play [--seat 0] [--vs heuristic] [--seed N] [--hands N] [--ascii] [--log DIR]

After every event the table is drawn as the person's seat sees it (``mjenv.env.render``);
when the person must decide, the legal actions are listed as a numbered menu — answer with the
number or the action's text (``discard 5m``, ``pon``, ``pass``), or just the tile to discard it
(``5m``); anything else brings the menu back. Each hand ends with the winner's yaku, points and every seat's payment. ``q`` (or end of
input) leaves. The session runs a whole match (``RuleConfig.rounds`` wind rounds) unless
``--hands`` stops it earlier. ``--log DIR`` keeps the match as a log (``DIR/play-SEED.jsonl``,
rewritten after every hand, so it holds each finished hand even if the session is left or
killed; a hand left unfinished is not in it) that ``mjenv replay`` verifies and ``mjenv view``
opens.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from mjenv.cli.options import (add_ascii_flag, add_log_flag, check_bounds, log_folder,
                               tile_style)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seat", type=int, default=0, choices=range(4),
                        help="your seat 0–3 (seat 0 deals first; default 0)")
    parser.add_argument("--vs", default="heuristic",
                        help="agent spec of the three other seats (default heuristic)")
    parser.add_argument("--seed", type=int, default=None,
                        help="match seed (default: a fresh one, printed so the match can be "
                             "replayed)")
    parser.add_argument("--hands", type=int, default=None,
                        help="stop after this many hands (default: the whole match)")
    parser.add_argument("--min-points", type=int, default=None,
                        help="RuleConfig.min_points (default: the rulebook's 6)")
    parser.add_argument("--rounds", type=int, default=None,
                        help="RuleConfig.rounds (default: the rulebook's 2)")
    add_ascii_flag(parser)
    add_log_flag(parser, "play-SEED.jsonl, the match, rewritten after every hand")


class Quit(Exception):
    """The person asked to leave (``q`` or end of input)."""


class Person:
    """The person's seat, as an agent: the table as the seat sees it, the legal actions as a
    numbered menu, and the answer (a number, the action's text, or a tile to discard it),
    asked again until valid."""

    name = "you"
    needs_observation = False

    def __init__(self, out: TextIO, inp: TextIO, style: str) -> None:
        self.out, self.inp, self.style = out, inp, style

    def act(self, observation, mask, view) -> int:
        from mjenv.env.actions import encode_action
        from mjenv.env.render import render_view
        from mjenv.game import Action

        out, legal = self.out, list(view.legal)
        out.write("\n" + render_view(view, style=self.style) + "\n")
        while True:
            out.write("Your move:\n")
            for i, a in enumerate(legal, 1):
                out.write(f"  {i:2d}. {a}\n")
            out.write("> ")
            out.flush()
            line = self.inp.readline()
            if not line:
                raise Quit
            answer = line.strip()
            if answer.lower() in ("q", "quit", "exit"):
                raise Quit
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return encode_action(legal[int(answer) - 1], view)
            try:
                action = Action.parse(answer)
            except ValueError:
                action = _discard_of(answer)
            if action in legal:
                return encode_action(action, view)
            out.write(f"'{answer}' is not one of the choices: type a number 1–{len(legal)}, "
                      f"the action's text, or a tile to discard it.\n")


def _discard_of(answer: str) -> object:
    """``5z`` alone means ``discard 5z``; ``None`` when the answer is not one tile."""
    from mjenv.game import Action
    from mjenv.tiles import parse_tile
    try:
        return Action("discard", parse_tile(answer))
    except ValueError:
        return None


def _event(seat: int, action, human: int) -> str:
    return f"{'you' if seat == human else f'seat {seat}'}: {action}"


def _payments(hand) -> str:
    r = hand.result
    return "payments: " + ", ".join(f"seat {s} {d:+d}" for s, d in enumerate(r.deltas))


def play_session(*, seat: int = 0, vs: str = "heuristic", seed: int | None = None,
                 hands: int | None = None, rules=None, style: str = "unicode",
                 inp: TextIO = sys.stdin, out: TextIO = sys.stdout, logs=None) -> int:
    """Run the interactive session on the given streams; returns the hands completed.
    ``logs``: a ``mjenv.game.LogFolder`` that keeps the match's log (``play-SEED``)."""
    import secrets

    from agents import make_agent
    from mjenv.env.play import play
    from mjenv.env.render import render_table, render_view
    from mjenv.game import Match
    from mjenv.rules import RuleConfig

    rules = rules or RuleConfig()
    if seed is None:
        seed = secrets.randbits(32)
    seats = [Person(out, inp, style) if s == seat else make_agent(vs, seed=seed * 4 + s)
             for s in range(4)]
    match = Match(rules, seed=seed)
    out.write(f"mjenv play — you are seat {seat}, against 3× {vs}; match seed {seed}\n")
    done = 0
    log_path = None
    try:
        while True:
            hand = match.hand
            out.write(f"\n=== hand {done + 1} ===\n")

            def tell(step) -> None:
                if step.action.kind != "pass" or step.seat == seat:
                    out.write(_event(step.seat, step.action, seat) + "\n")
                    if not hand.over and seat not in hand.to_act:
                        out.write(render_view(hand.view(seat), style=style) + "\n")

            play(hand, seats, on_step=tell)
            out.write("\n" + render_table(hand, style=style) + "\n" + _payments(hand) + "\n")
            done += 1
            if logs is not None:
                log_path = logs.save(f"play-{seed}", match.log)
            if match.over or (hands is not None and done >= hands):
                break
            match.next_hand()
    except Quit:
        out.write("\nleaving the table.\n")
        _tell_log(out, log_path, done)
        return done
    _tell_log(out, log_path, done)
    if match.over:
        order = match.ranking()
        out.write("\nmatch over — final scores: "
                  + ", ".join(f"seat {s} {match.scores[s]:+d}" for s in order)
                  + f"; you finish #{order.index(seat) + 1}\n")
    return done


def _tell_log(out: TextIO, path, hands: int) -> None:
    if path is not None:
        out.write(f"game log: {path} ({hands} hand(s); mjenv view {path})\n")


def run(args: argparse.Namespace, inp: TextIO | None = None, out: TextIO | None = None) -> int:
    from mjenv.rules import RuleConfig
    options = {k: v for k, v in (("min_points", args.min_points), ("rounds", args.rounds))
               if v is not None}
    try:
        check_bounds(args, hands={"low": 1}, seed={"low": 0})
        rules = RuleConfig(**options)
        logs = log_folder(args)
        play_session(seat=args.seat, vs=args.vs, seed=args.seed, hands=args.hands, rules=rules,
                     style=tile_style(args), inp=inp or sys.stdin, out=out or sys.stdout,
                     logs=logs)
    except (ValueError, OSError) as e:       # OSError: a game log that cannot be written
        print(f"mjenv play: {e}", file=sys.stderr)
        return 2
    return 0


