"""RuleConfig: every configurable decision of RULES.md, in one frozen dataclass.

The defaults are the rulebook's (decided) values. A RuleConfig travels with every game log and
training checkpoint so that results are always tied to the rules they were produced under.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields


@dataclass(frozen=True)
class RuleConfig:
    """Rule options.

    min_points: smallest P (dealer bonus excluded) for a legal win (RULES.md §6, default 6).
    rounds: wind rounds in a match, 1–4 (RULES.md §5, default 2: 东南战).
    """

    min_points: int = 6
    rounds: int = 2

    def __post_init__(self) -> None:
        if not isinstance(self.min_points, int) or self.min_points < 0:
            raise ValueError(f"min_points must be an int >= 0, got {self.min_points!r}")
        if not isinstance(self.rounds, int) or not 1 <= self.rounds <= 4:
            raise ValueError(f"rounds must be an int 1–4, got {self.rounds!r}")

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "RuleConfig":
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown RuleConfig option(s): {', '.join(sorted(unknown))}")
        return cls(**data)
