"""``mjenv tune heuristic``: search the heuristic's weights by duplicate evaluation.

    mjenv tune heuristic --out runs/tune --rounds 6 --candidates 16 --deals 40 --workers 2

Method, objective and files: ``training.tune``; the flags are the fields of
``training.tune.TuneConfig``. ``--resume`` continues an interrupted run from its
``state.json``; without it an existing ``--out`` folder is refused (nothing is overwritten).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from training.args import add_args_flags
    from training.tune import TuneConfig
    parser.add_argument("what", choices=["heuristic"], help="what to tune")
    add_args_flags(parser, TuneConfig)
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def run(args: argparse.Namespace) -> int:
    from training.args import args_from_namespace
    from training.tune import TuneConfig, Tuner

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    try:
        config, _ = args_from_namespace(args, TuneConfig)
        out = Path(config.out)
        if not config.out:
            raise ValueError("--out is required: the run folder")
        if config.resume:
            if not (out / "state.json").exists():
                raise ValueError(f"--resume: no run in {out} (no state.json)")
        elif out.exists() and any(out.iterdir()):
            raise ValueError(f"{out} exists and is not empty: use --resume to continue it or "
                             f"another --out")
        tuner = Tuner(config, log)
        if config.resume:
            tuner.load()
        else:
            out.mkdir(parents=True, exist_ok=True)
            tuner.start()
        tuner.run(progress=not args.no_progress)
        reports = tuner.confirm(progress=not args.no_progress)
    except ValueError as e:
        print(f"mjenv tune: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"mjenv tune: interrupted; continue with --resume --out {args.out}",
              file=sys.stderr)
        return 130
    for name, r in reports.items():
        print(f"{name}: {r['mean_score']:+.3f} per hand, CI95 [{r['ci95'][0]:+.3f}, "
              f"{r['ci95'][1]:+.3f}], win {100 * r['win_rate']:.1f} %, deal-in "
              f"{100 * r['deal_in_rate']:.1f} % ({r['deals']} deals)")
    print(f"parameters: {out / 'params.json'} (load as heuristic:{out / 'params.json'})")
    return 0
