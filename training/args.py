"""The trainers' command-line arguments: each a dataclass field, declared once with its help text
and its bounds; the trainers share the groups of fields they have in common by inheriting them.

``arg(default, help, low=…, high=…)`` makes such a field: the help is what ``mjenv train … --help``
shows, the bounds what ``TrainerArgs.validate`` enforces (every trainer's arguments are checked
when they are made). ``add_args_flags`` turns a class into ``--flags`` and ``args_from_namespace``
back into the class, telling which flags the user typed (``--resume`` keeps the stored values of
the others). No torch here: the flags build where only the CLI is imported.
"""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass, field
from typing import Any

from mjenv.rules import RuleConfig


def arg(default: Any, help: str, *, low: float | None = None,
        high: float | None = None) -> Any:
    """A dataclass field with its ``--flag`` help and the bounds of its value."""
    return field(default=default, metadata={"help": help, "low": low, "high": high})


def field_docs(cls: type) -> dict[str, str]:
    """The help text of each field of an arguments class."""
    return {f.name: f.metadata.get("help", "") for f in dataclasses.fields(cls)}


class Arguments:
    """Base of every command's arguments dataclass: made from ``arg`` fields, validated when
    made (bounds from the fields; a subclass adds its cross-field checks to ``validate``)."""

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Raise ``ValueError`` naming the flag whose value is out of its bounds."""
        for f in dataclasses.fields(self):
            low, high, value = f.metadata.get("low"), f.metadata.get("high"), getattr(self, f.name)
            if low is not None and value < low:
                raise ValueError(f"--{f.name.replace('_', '-')} must be >= {low}, got {value}")
            if high is not None and value > high:
                raise ValueError(f"--{f.name.replace('_', '-')} must be <= {high}, got {value}")


@dataclass
class TrainerArgs(Arguments):
    """What every trainer has: where it writes, its seed, threads and rules, its network and the
    scale of its value targets."""

    out: str = arg("runs/run", "run folder")
    seed: int = arg(1, "seed of the games, the network initialisation and the minibatch order")
    threads: int = arg(1, "torch threads (0: one per core; 1 is fastest on a shared machine)",
                       low=0)
    min_points: int = arg(6, "RuleConfig.min_points of the games trained on")
    channels: int = arg(64, "network width (conv channels)", low=1)
    blocks: int = arg(4, "residual blocks", low=1)
    reward_scale: float = arg(0.025, "reward = the seat's deal score delta times this (1/40)")
    gamma: float = arg(0.997, "discount per decision")

    def rules(self) -> RuleConfig:
        return RuleConfig(min_points=self.min_points)


@dataclass
class LocalArgs:
    """Trainers that run on this machine: processes, device and the network's extra input."""

    workers: int = arg(1, "processes playing games (1: in this process)", low=1)
    device: str = arg("auto", "auto (CUDA when available), cpu, cuda, cuda:N")
    features: str = arg("", "extra network input: '' (observation planes only) or "
                            "'analysis-v1' (agents/features.py)")


@dataclass
class PPOArgs:
    """The PPO update, and the opponents of self-play (``training.selfplay``)."""

    learning_rate: float = arg(2.5e-4, "Adam learning rate")
    gae_lambda: float = arg(0.95, "GAE lambda")
    update_epochs: int = arg(4, "passes over each batch", low=1)
    clip_coef: float = arg(0.2, "PPO ratio clip")
    ent_coef: float = arg(0.01, "entropy bonus (entropy over legal actions)")
    vf_coef: float = arg(0.5, "value loss weight")
    max_grad_norm: float = arg(0.5, "gradient norm clip")
    latest_share: float = arg(0.5, "share of opponent seats played by the latest weights")
    past_share: float = arg(0.3, "share of opponent seats played by frozen past snapshots")
    fixed_share: float = arg(0.2, "share of opponent seats played by fixed agents "
                                  "(fixed_opponents)")
    fixed_opponents: str = arg("heuristic:3,random:1", "fixed agent specs with relative weights")
    snapshot_every: int = arg(10, "updates between snapshots into the pool", low=1)
    save_every: int = arg(1, "updates between checkpoints", low=1)
    resume: bool = arg(False, "continue the run in out/ from its last checkpoint")


def add_args_flags(parser: argparse.ArgumentParser, cls: type) -> None:
    """One ``--flag`` per field; defaults are SUPPRESSed so ``args_from_namespace`` can tell
    what the user typed (``--resume`` keeps the stored values of everything else)."""
    for f in dataclasses.fields(cls):
        flag = "--" + f.name.replace("_", "-")
        help_text = f"{f.metadata.get('help', '')} (default: {f.default})"
        if f.type in (bool, "bool"):
            parser.add_argument(flag, action=argparse.BooleanOptionalAction,
                                default=argparse.SUPPRESS, help=help_text)
        else:
            typ = {"int": int, "float": float, "str": str}.get(f.type, f.type)
            parser.add_argument(flag, type=typ, default=argparse.SUPPRESS, help=help_text,
                                metavar=f.name.upper())


def args_from_namespace(ns: argparse.Namespace, cls: type) -> tuple[Any, set[str]]:
    """The ``cls`` of the flags in ``ns``, and the names of the flags given."""
    given = {f.name: getattr(ns, f.name) for f in dataclasses.fields(cls) if hasattr(ns, f.name)}
    return cls(**given), set(given)
