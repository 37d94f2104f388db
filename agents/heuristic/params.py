"""The heuristic's parameters, its presets and parameter files.

``heuristic:v1`` is the player as it stood when the heuristic was first measured (the frozen
yardstick of every later comparison); ``heuristic`` is the tuned default.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from agents.heuristic.defence import DefenceParams
from agents.heuristic.evaluator import EvalParams


@dataclass(frozen=True)
class HeuristicParams:
    """Switches and weights of the heuristic (docs/agents.md explains each).

    value_planning: aim at plans worth ``min_points`` and check waits with the scorer; off =
        plain tile efficiency (shanten + effective tiles over standard shape and 七对子).
    defence: weigh discards by opponent threat × tile danger.
    calls: allow chi/pon/open kan at all.
    kans: allow concealed/added/open kans.
    soft_margin, soft_penalty: a plan up to ``soft_margin`` points short of ``min_points``
        still counts, as if ``soft_penalty`` tiles further away.
    ukeire_weight: weight of log(1 + effective unseen tiles) against one tile of distance.
    ron_share: weight of a wait that is a legal ron (vs legal only by tsumo) at tenpai.
    defence_weight: λ per tile of distance; λ = defence_weight × best distance.
    call_threat: no call that leaves the hand short of tenpai once some opponent's threat
        reaches this.
    loose_tables: v1's distance tables (a target with a pair may hold five or more copies of
        a rank); off for every later version.
    """

    value_planning: bool = True
    defence: bool = True
    calls: bool = True
    kans: bool = True
    soft_margin: int = 3
    soft_penalty: float = 1.0
    ukeire_weight: float = 0.15
    ron_share: float = 0.75
    defence_weight: float = 0.9
    call_threat: float = 0.6
    loose_tables: bool = True
    danger: DefenceParams = field(default_factory=DefenceParams)

    def evaluation(self) -> EvalParams:
        return EvalParams(self.value_planning, self.soft_margin, self.soft_penalty,
                          self.ron_share, self.loose_tables)

    @classmethod
    def efficiency_only(cls) -> "HeuristicParams":
        """``heuristic:efficiency``: tile efficiency only (no value plans, no defence)."""
        return cls(value_planning=False, defence=False)


V1 = HeuristicParams()


def params_for(variant: str) -> HeuristicParams:
    """The preset behind ``heuristic[:variant]``."""
    if variant in ("", "v1"):
        return V1
    if variant == "efficiency":
        return HeuristicParams.efficiency_only()
    if variant == "nodefence":
        return replace(HeuristicParams(), defence=False)
    raise ValueError(f"unknown heuristic variant {variant!r}: use heuristic, heuristic:v1, "
                     f"heuristic:efficiency or heuristic:nodefence")
