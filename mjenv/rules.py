"""RuleConfig: every configurable decision of RULES.md, in one frozen dataclass.

The defaults are the rulebook's (decided) values. A RuleConfig travels with every game log and
training checkpoint so that results are always tied to the rules they were produced under.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Mapping


#: The bounds of each option (``low`` <= value <= ``high``), for the checks here and for the
#: command line's (``mjenv.cli.options.check_bounds``).
BOUNDS: dict[str, dict[str, int]] = {"min_points": {"low": 0}, "rounds": {"low": 1, "high": 4}}


@dataclass(frozen=True)
class RuleConfig:
    """Rule options.

    min_points: smallest P (dealer bonus excluded) for a legal win (RULES.md §6, default 6).
    rounds: wind rounds in a match, 1–4 (RULES.md §5, default 2: 东南战).
    """

    min_points: int = 6
    rounds: int = 2

    def __post_init__(self) -> None:
        for name, bound in BOUNDS.items():
            value, low, high = getattr(self, name), bound["low"], bound.get("high")
            if not isinstance(value, int) or value < low or high is not None and value > high:
                within = f">= {low}" if high is None else f"{low}–{high}"
                raise ValueError(f"{name} must be an int {within}, got {value!r}")

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "RuleConfig":
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown RuleConfig option(s): {', '.join(sorted(unknown))}")
        return cls(**data)


def rule_config(rules: RuleConfig | Mapping[str, Any] | None = None, **options: Any) -> RuleConfig:
    """The RuleConfig an environment is made with: ``rules`` (a RuleConfig, a dict of its
    fields, or ``None`` for the rulebook's defaults) with ``options`` (plain keyword rule
    arguments, ``min_points=8``) on top. This is what lets ``gymnasium.make("mjenv/Mahjong-v0",
    min_points=8)`` and ``rules={"min_points": 8}`` work the same as a RuleConfig.

    Unknown names raise ``TypeError`` (as for any unexpected keyword argument), naming the
    rule options there are; a bad value raises RuleConfig's ``ValueError``.
    """
    known = [f.name for f in fields(RuleConfig)]
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise TypeError(f"unexpected keyword argument(s) {', '.join(map(repr, unknown))}: "
                        f"neither an option of the environment nor a rule option "
                        f"({', '.join(known)})")
    if rules is None:
        base = RuleConfig()
    elif isinstance(rules, RuleConfig):
        base = rules
    elif isinstance(rules, Mapping):
        base = RuleConfig.from_dict(dict(rules))
    else:
        raise TypeError(f"rules must be a RuleConfig, a dict of its options or None, got "
                        f"{type(rules).__name__}")
    return replace(base, **options) if options else base
