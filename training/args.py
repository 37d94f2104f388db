"""The trainers' command-line arguments: each a dataclass field, declared once with its help text
and its bounds; the trainers share the groups of fields they have in common by inheriting them.

``arg(default, help, low=…, high=…, above=…)`` makes such a field: the help is what ``mjenv
train … --help`` shows, the bounds what ``validate`` enforces (every trainer's arguments are
checked when they are made, before any work starts: a bad value is a ``ValueError`` naming the
flag). Every arguments class derives from ``Arguments`` (the trainers' groups here, and other
commands' such as ``training.tune.TuneConfig``). Checks that involve several fields live in the
``validate`` of the group that holds them; each group's ``validate`` calls ``super().validate()``
first, so a trainer runs the bounds and then the checks of every group it inherits.
``add_args_flags`` turns a class into ``--flags`` and ``args_from_namespace`` back into the
class, telling which flags the user typed (``--resume`` keeps the stored values of the others).
No torch at import: the flags build where only the CLI is imported (the device check imports it
when it runs).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any

from mjenv.rules import RuleConfig, rules_from_flags


def arg(default: Any, help: str, *, low: float | None = None, high: float | None = None,
        above: float | None = None) -> Any:
    """A dataclass field with its ``--flag`` help and the bounds of its value: ``low`` <= value
    <= ``high``, and value > ``above`` (a rate or a coefficient that must be positive)."""
    return field(default=default, metadata={"help": help, "low": low, "high": high,
                                            "above": above})


def flag(name: str) -> str:
    """The ``--flag`` of a field name."""
    return "--" + name.replace("_", "-")


def field_docs(cls: type) -> dict[str, str]:
    """The help text of each field of an arguments class."""
    return {f.name: f.metadata.get("help", "") for f in dataclasses.fields(cls)}


class Arguments:
    """Base of every command's arguments dataclass: made from ``arg`` fields, validated when
    made. Its ``validate`` checks every field's bounds and ends the chain of the groups'
    ``validate`` (each calls ``super().validate()`` first, then checks its own fields
    together), so the bounds are checked before any cross-field check."""

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Raise ``ValueError`` naming the flag of a value that cannot be used."""
        for f in dataclasses.fields(self):
            check_bounds(f, getattr(self, f.name))


def check_bounds(f: dataclasses.Field, value: Any) -> None:
    """``ValueError`` naming the flag when ``value`` is outside the bounds of field ``f``."""
    check_value(flag(f.name), value, **{k: f.metadata.get(k) for k in ("low", "high", "above")})


def check_value(name: str, value: Any, *, low: float | None = None, high: float | None = None,
                above: float | None = None) -> None:
    """``ValueError`` in the one wording of every command's bounds, ``--deals must be >= 1, got
    0``, when ``value`` of option ``name`` is outside them (a NaN is outside any bounds)."""
    if low is None and high is None and above is None:
        return
    if isinstance(value, float) and math.isnan(value):
        raise ValueError(f"{name} must be a number, got {value}")
    if low is not None and value < low:
        raise ValueError(f"{name} must be >= {low}, got {value}")
    if high is not None and value > high:
        raise ValueError(f"{name} must be <= {high}, got {value}")
    if above is not None and value <= above:
        raise ValueError(f"{name} must be > {above}, got {value}")


def check_rules(args: Any) -> None:
    """A command's rule flags make a valid ``RuleConfig`` (one line naming the flag if not)."""
    try:
        rules_from_flags(args)
    except ValueError as exc:
        raise ValueError(f"--min-points: {exc}") from None


@dataclass
class TrainerArgs(Arguments):
    """What every trainer has: where it writes, its seed, threads and rules, its network and the
    scale of its value targets."""

    out: str = arg("", "run folder (default: a new numbered folder under runs/)")
    force: bool = arg(False, "start a new run even if out/ holds one: the old run is moved "
                             "aside to OUT.old-TIME first (never deleted)")
    seed: int = arg(1, "seed of the games, the network initialisation and the minibatch order")
    threads: int = arg(1, "torch threads (0: one per core; 1 is fastest on a shared machine)",
                       low=0)
    min_points: int = arg(RuleConfig.min_points, "RuleConfig.min_points of the games trained on")
    channels: int = arg(64, "network width (conv channels)", low=1)
    blocks: int = arg(4, "residual blocks", low=1)
    reward_scale: float = arg(0.025, "reward = the seat's deal score delta times this (1/40)",
                              above=0)
    gamma: float = arg(0.997, "discount per decision", low=0, high=1)

    def validate(self) -> None:
        super().validate()
        check_rules(self)

    def rules(self) -> RuleConfig:
        return rules_from_flags(self)


@dataclass
class LocalArgs(Arguments):
    """Trainers that run on this machine: processes, device, the network's extra input and the
    checkpoint it may start from."""

    workers: int = arg(1, "processes playing games (1: in this process)", low=1)
    device: str = arg("auto", "auto (CUDA when available), cpu, cuda, cuda:N")
    features: str = arg("", "extra network input: '' (the observation planes only, the "
                            "default), 'analysis-v2' (the tuned heuristic's look-ahead) or "
                            "'analysis-v1' (heuristic:v1's; agents/features.py)")
    init_from: str = arg("", "start from this checkpoint's weights: a file (e.g. a BC run's "
                             "bc.pt), ppo:PATH or ppo:pretrained; the network's shape and input "
                             "come from it unless --channels/--blocks/--features say otherwise")

    def validate(self) -> None:
        super().validate()
        from agents.network import pick_device     # imports torch: only when arguments are made

        try:
            pick_device(self.device)
        except ValueError as exc:
            raise ValueError(f"--device {self.device}: {exc}") from None


@dataclass
class PPOArgs(Arguments):
    """The PPO update, and the opponents of self-play (``training.selfplay``)."""

    learning_rate: float = arg(2.5e-4, "Adam learning rate", above=0)
    gae_lambda: float = arg(0.95, "GAE lambda", low=0, high=1)
    update_epochs: int = arg(4, "passes over each batch", low=1)
    clip_coef: float = arg(0.2, "PPO ratio clip", above=0)
    ent_coef: float = arg(0.01, "entropy bonus (entropy over legal actions)", low=0)
    vf_coef: float = arg(0.5, "value loss weight", low=0)
    max_grad_norm: float = arg(0.5, "gradient norm clip", above=0)
    latest_share: float = arg(0.5, "share of opponent seats played by the latest weights",
                              low=0, high=1)
    past_share: float = arg(0.3, "share of opponent seats played by frozen past snapshots",
                            low=0, high=1)
    fixed_share: float = arg(0.2, "share of opponent seats played by fixed agents "
                                  "(fixed_opponents)", low=0, high=1)
    fixed_opponents: str = arg("heuristic:3,random:1", "fixed agent specs with relative weights")
    snapshot_every: int = arg(10, "updates between snapshots into the pool", low=1)
    save_every: int = arg(1, "updates between checkpoints", low=1)
    resume: bool = arg(False, "continue the run in out/ from its last checkpoint")
    shaping_coef: float = arg(0.0, "potential-based shaping weight, potential = -coef * "
                                   "shanten (0: off)", low=0)

    def validate(self) -> None:
        super().validate()
        shares = (self.latest_share, self.past_share, self.fixed_share)
        if abs(sum(shares) - 1) > 1e-6:
            raise ValueError(f"the opponent shares --latest-share, --past-share and "
                             f"--fixed-share must sum to 1, got {' + '.join(map(str, shares))} "
                             f"= {sum(shares):g}")
        if self.fixed_share > 0 and not self.fixed_opponents.strip():
            raise ValueError("--fixed-share > 0 needs at least one --fixed-opponents spec")

    def settings(self, **extra: Any) -> Any:
        """The ``training.selfplay.RolloutSettings`` of these arguments (``extra``: the fields
        of a trainer's own); imported here, when asked for (it needs torch). A group mixed into
        ``TrainerArgs``, whose rules, reward scale and discount it reads."""
        from training.selfplay import RolloutSettings, parse_fixed_opponents

        return RolloutSettings(rules=self.rules(), reward_scale=self.reward_scale,
                               gamma=self.gamma, latest_share=self.latest_share,
                               past_share=self.past_share, fixed_share=self.fixed_share,
                               fixed_opponents=parse_fixed_opponents(self.fixed_opponents),
                               shaping_coef=self.shaping_coef, **extra)


def add_args_flags(parser: argparse.ArgumentParser, cls: type) -> None:
    """One ``--flag`` per field; defaults are SUPPRESSed so ``args_from_namespace`` can tell
    what the user typed (``--resume`` keeps the stored values of everything else)."""
    for f in dataclasses.fields(cls):
        name = flag(f.name)
        # an empty default means "not given": the help says what happens then
        default = f" (default: {f.default})" if f.default != "" else ""
        help_text = f"{f.metadata.get('help', '')}{default}"
        if f.type in (bool, "bool"):
            parser.add_argument(name, action=argparse.BooleanOptionalAction,
                                default=argparse.SUPPRESS, help=help_text)
        else:
            typ = {"int": int, "float": float, "str": str}.get(f.type, f.type)
            parser.add_argument(name, type=typ, default=argparse.SUPPRESS, help=help_text,
                                metavar=f.name.upper())


def args_from_namespace(ns: argparse.Namespace, cls: type) -> tuple[Any, set[str]]:
    """The ``cls`` of the flags in ``ns``, and the names of the flags given."""
    given = {f.name: getattr(ns, f.name) for f in dataclasses.fields(cls) if hasattr(ns, f.name)}
    return cls(**given), set(given)


def explicit_fields(args: Any, given: set[str] | None) -> set[str]:
    """The fields the user set: ``given`` where the caller knows it (the CLI), otherwise those
    whose value differs from the field's default (a Python caller's keyword arguments)."""
    if given is not None:
        return set(given)
    return {f.name for f in dataclasses.fields(args) if getattr(args, f.name) != f.default}
