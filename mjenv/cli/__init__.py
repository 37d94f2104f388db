"""``mjenv`` command line: the application layer on top of every other layer.

Each subcommand lives in its own module of this package with ``add_arguments(parser)`` and
``run(args) -> int``; modules are imported only when their subcommand runs, so ``mjenv score``
never pays for torch and a missing optional dependency only affects its own subcommand.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# name -> (module under mjenv.cli, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "score": ("score", "score a winning hand and show the reading, yaku and payments"),
    "audit": ("audit", "run the yaku exclusion audit of RULES.md §9"),
    "demo": ("demo", "four baseline agents play a match, then a short evaluation"),
    "play": ("play", "play one seat against three agents in the terminal"),
    "replay": ("replay", "verify a logged game and play it back in the terminal"),
    "view": ("view", "write a logged game as an HTML page to step through in a browser"),
    "eval": ("eval", "duplicate evaluation of an agent against three opponents"),
    "arena": ("arena", "a league of agents (built-in, checkpoints, external programs) with a "
                       "leaderboard, or one agent's standard card"),
    "train": ("train", "train a policy: ppo or bc on this machine, rllib on a Ray cluster"),
    "tune": ("tune", "tune the heuristic's weights by duplicate evaluation"),
    "plot": ("plot", "draw a training run's learning curves to a PNG"),
}


def _load(name: str):
    return importlib.import_module(f"mjenv.cli.{COMMANDS[name][0]}")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    from mjenv import __version__

    parser = argparse.ArgumentParser(prog="mjenv", description="海森林 competitive mahjong: "
                                     "rule engine, RL environments, agents and training")
    parser.add_argument("--version", action="version", version=f"mjenv {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_, help_text) in COMMANDS.items():
        sub.add_parser(name, help=help_text, add_help=False)
    if not argv or argv[0] not in COMMANDS:
        args = parser.parse_args(argv)  # prints usage / errors for unknown commands
        parser.print_help()
        return 2
    name = argv[0]
    try:
        module = _load(name)
        cmd_parser = argparse.ArgumentParser(prog=f"mjenv {name}", description=COMMANDS[name][1])
        module.add_arguments(cmd_parser)
        args = cmd_parser.parse_args(argv[1:])
        return int(module.run(args) or 0)
    except KeyboardInterrupt:       # a command that keeps partial work reports it itself
        print(f"\nmjenv {name}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
