"""``mjenv tune heuristic``: search the heuristic's weights by duplicate evaluation.

    mjenv tune heuristic --out runs/tune --rounds 6 --candidates 16 --deals 40 --workers 2

Method, objective and files: ``training.tune``. ``--resume`` continues an interrupted run from
its ``state.json``; without it an existing ``--out`` folder is refused (nothing is overwritten).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("what", choices=["heuristic"], help="what to tune")
    parser.add_argument("--out", required=True, help="run folder (state, curve, parameters)")
    parser.add_argument("--resume", action="store_true",
                        help="continue the run in --out from its state.json")
    parser.add_argument("--rounds", type=int, default=6, help="successive-halving rounds")
    parser.add_argument("--candidates", type=int, default=16,
                        help="candidates per round, the incumbent among them (default 16)")
    parser.add_argument("--deals", type=int, default=40,
                        help="deals per candidate at a round's first rung; doubled at each "
                             "halving (default 40)")
    parser.add_argument("--sigma", type=float, default=0.15,
                        help="perturbation, as a share of each dimension's range (default 0.15)")
    parser.add_argument("--decay", type=float, default=0.75,
                        help="sigma's factor per round (default 0.75)")
    parser.add_argument("--seed", type=int, default=0, help="search seed (default 0)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--init", metavar="FILE", default=None,
                        help="start from this parameter file instead of calibrating")
    parser.add_argument("--calibrate-hands", type=int, default=3000,
                        help="self-play hands the probability models are fitted on "
                             "(default 3000)")
    parser.add_argument("--confirm-deals", type=int, default=1000,
                        help="fresh deals of the final confirmation (default 1000)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def run(args: argparse.Namespace) -> int:
    from training.tune import TuneConfig, Tuner

    out = Path(args.out)

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    config = TuneConfig(out=out, rounds=args.rounds, candidates=args.candidates,
                        deals=args.deals, sigma=args.sigma, decay=args.decay, seed=args.seed,
                        workers=args.workers, calibrate_hands=args.calibrate_hands,
                        confirm_deals=args.confirm_deals, init=args.init)
    try:
        config.check()
        if args.resume:
            if not (out / "state.json").exists():
                raise ValueError(f"--resume: no run in {out} (no state.json)")
        elif out.exists() and any(out.iterdir()):
            raise ValueError(f"{out} exists and is not empty: use --resume to continue it or "
                             f"another --out")
        tuner = Tuner(config, log)
        if args.resume:
            tuner.load()
            config.rounds = args.rounds
        else:
            out.mkdir(parents=True, exist_ok=True)
            tuner.start()
        tuner.run(progress=not args.no_progress)
        reports = tuner.confirm(progress=not args.no_progress)
    except ValueError as e:
        print(f"mjenv tune: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"mjenv tune: interrupted; continue with --resume --out {out}", file=sys.stderr)
        return 130
    for name, r in reports.items():
        print(f"{name}: {r['mean_score']:+.3f} per hand, CI95 [{r['ci95'][0]:+.3f}, "
              f"{r['ci95'][1]:+.3f}], win {100 * r['win_rate']:.1f} %, deal-in "
              f"{100 * r['deal_in_rate']:.1f} % ({r['deals']} deals)")
    print(f"parameters: {out / 'params.json'} (load as heuristic:{out / 'params.json'})")
    return 0
