"""``mjenv train``: train a policy on this machine.

``mjenv train ppo --total-steps N --out runs/NAME [--bc-warmstart] [--resume] …`` runs masked
PPO self-play (``training/ppo.py``; every ``Args`` field is a flag, see ``--help``).
``mjenv train bc --hands N --out runs/NAME`` only behaviour-clones the heuristic agent into
``runs/NAME/bc.pt`` (start PPO from it with ``--init-from``). ``mjenv train reading --hands N
--out runs/NAME`` fits the search's hand-reading model (``training/reading.py``) on self-play.
Needs the ``train`` extra (torch, tensorboard, matplotlib).

A folder that holds a run is never overwritten: ``--resume`` continues it, ``--force`` moves
it aside first (``training.rundir``). Every argument is checked before any work starts; a
mistake is one line and exit status 2.
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from mjenv.cli import train_rllib
    from training.args import add_args_flags
    from training.bc import BCArgs
    from training.ppo import Args
    from training.reading import ReadingArgs

    sub = parser.add_subparsers(dest="algo", metavar="ALGO", required=True)
    ppo = sub.add_parser("ppo", help="masked PPO with self-play (training/ppo.py)")
    add_args_flags(ppo, Args)
    ppo.add_argument("--no-progress", action="store_true", help="no progress bar")
    bc = sub.add_parser("bc", help="behaviour cloning of the heuristic agent (training/bc.py)")
    add_args_flags(bc, BCArgs)
    reading = sub.add_parser("reading", help="the search's hand-reading model, on self-play "
                                             "(training/reading.py)")
    add_args_flags(reading, ReadingArgs)
    train_rllib.add_arguments(sub.add_parser(
        "rllib", help="PPO self-play on a Ray cluster (RLlib; needs the ray extra)"))


def run(args: argparse.Namespace) -> int:
    if args.algo == "rllib":
        from mjenv.cli import train_rllib

        return train_rllib.run(args)
    from agents.checkpoint_file import CheckpointError
    from training.args import args_from_namespace
    from training.bc import BCArgs, run_bc
    from training.ppo import Args, train
    from training.reading import ReadingArgs, run_reading

    try:
        if args.algo == "bc":
            bc_args, given = args_from_namespace(args, BCArgs)
            print(f"wrote {run_bc(bc_args, given)}")
            return 0
        if args.algo == "reading":
            reading_args, given = args_from_namespace(args, ReadingArgs)
            print(f"wrote {run_reading(reading_args, given)}")
            return 0
        ppo_args, given = args_from_namespace(args, Args)
        path = train(ppo_args, given, progress=not args.no_progress)
    except (CheckpointError, ValueError) as exc:
        print(f"mjenv train {args.algo}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:                   # e.g. the run folder cannot be made or written
        where = f" {exc.filename}" if exc.filename else ""
        print(f"mjenv train {args.algo}:{where} {exc.strerror or exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"\nmjenv train {args.algo}: interrupted"
              + ("; continue with --resume (same --out and --workers)" if args.algo == "ppo"
                 else ""), file=sys.stderr)
        return 130
    print(f"wrote {path}")
    return 0
