"""Flags that several commands share, each written once: ``--log DIR`` (game logs through
``mjenv.game.LogFolder``) and ``--ascii`` (tile style); and the check of numeric options, so
that every command words a value out of bounds the same way (``check_bounds``)."""

from __future__ import annotations

import argparse


def add_log_flag(parser: argparse.ArgumentParser, names: str) -> None:
    """``--log DIR``; ``names`` says which files the command writes there."""
    parser.add_argument("--log", metavar="DIR", default=None,
                        help=f"write game logs into DIR ({names}; DIR is made if needed; "
                             f"mjenv replay verifies them, mjenv view opens them)")


def log_folder(args: argparse.Namespace):
    """The ``LogFolder`` of ``--log`` (None without it), made now, before any game is played; a
    folder that cannot be made is a ``ValueError`` naming ``--log`` and why."""
    from mjenv.game import LogFolder

    try:
        return LogFolder(args.log) if args.log else None
    except OSError as exc:
        raise ValueError(f"--log {args.log}: {exc.strerror or exc}") from None


def add_ascii_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ascii", action="store_true",
                        help="tiles as 1m/5z text instead of Unicode glyphs")


def tile_style(args: argparse.Namespace) -> str:
    return "ascii" if args.ascii else "unicode"


def check_bounds(args: argparse.Namespace, **bounds: dict) -> None:
    """``ValueError`` for the first option of ``args`` outside its bounds (``deals={"low":
    1}``; the keys of ``training.args.check_value``), worded as the trainers' flags are:
    ``--deals must be >= 1, got 0``. An option left at None (not given) is not checked; the
    rule options (``--min-points``, ``--rounds``) are checked against ``mjenv.rules.BOUNDS``."""
    from mjenv.rules import BOUNDS
    from training.args import check_value

    bounds = {**{k: v for k, v in BOUNDS.items() if hasattr(args, k)}, **bounds}
    for name, bound in bounds.items():
        value = getattr(args, name)
        if value is not None:
            check_value("--" + name.replace("_", "-"), value, **bound)
