"""``mjenv train rllib``: self-play PPO on a Ray cluster (RLlib), the optional ``ray`` extra.

``mjenv train rllib --num-env-runners N [--address auto|HOST:PORT] --total-steps N --out
runs/NAME`` trains (``mjenv.integrations.rllib_train``; every ``RLlibArgs`` field is a flag)
and writes ``runs/NAME/policy.pt``, which ``mjenv eval --agent ppo:runs/NAME/policy.pt`` reads.
``mjenv train rllib --convert runs/NAME/rllib --out FILE.pt`` converts an RLlib checkpoint
without training. Without ``--address`` a local Ray instance is started and stopped.
``docs/scaling.md`` covers clusters.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # Needs torch (like `mjenv train ppo`) but not Ray: the flags must build, and --help
    # must work, where only the train extra is installed.
    from mjenv.integrations.rllib_train import RLlibArgs
    from training.args import add_args_flags

    add_args_flags(parser, RLlibArgs)
    parser.add_argument("--convert", metavar="CHECKPOINT", default=None,
                        help="only convert this RLlib checkpoint folder (runs/NAME/rllib) to "
                             "a policy file at --out (FILE.pt, or OUT/policy.pt)")


def _policy_path(out: str) -> Path:
    path = Path(out)
    return path if path.suffix == ".pt" else path / "policy.pt"


def run(args: argparse.Namespace) -> int:
    from mjenv.integrations import MissingExtraError, require_extra

    try:
        require_extra("ray", "mjenv train rllib")
        if args.convert is not None:
            if not hasattr(args, "out"):
                raise ValueError("--convert needs --out FILE.pt (or a folder for policy.pt)")
            from mjenv.integrations.rllib import convert_checkpoint

            print(f"wrote {convert_checkpoint(args.convert, _policy_path(args.out))}")
            return 0
        from mjenv.integrations.rllib_train import RLlibArgs, train
        from training.args import args_from_namespace

        rl_args, _ = args_from_namespace(args, RLlibArgs)
        summary = train(rl_args)
    except MissingExtraError as exc:
        print(f"mjenv train rllib: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"mjenv train rllib: {exc}", file=sys.stderr)
        return 2
    except RuntimeError as exc:      # e.g. a masked action was sampled
        print(f"mjenv train rllib: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nmjenv train rllib: interrupted", file=sys.stderr)
        return 130
    print(f"{summary.iterations} iterations, {summary.env_steps} env steps, "
          f"{summary.masked_actions_sampled} masked actions sampled")
    print(f"wrote {summary.policy_path} (RLlib checkpoint: {summary.checkpoint_path})")
    return 0
