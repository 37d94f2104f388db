"""The heuristic's parameters, its presets and parameter files.

``heuristic:v1`` is the player as it stood when the heuristic was first measured (the frozen
yardstick of every later comparison: ``tests/agents/test_v1.py``); ``heuristic`` is the tuned
default, read from ``tuned.json`` beside this module (written by ``mjenv tune heuristic``);
``heuristic:PATH`` reads any such file.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from agents.heuristic.defence import DefenceParams
from agents.heuristic.evaluator import EvalParams
from agents.heuristic.models import (OPPONENT_FEATURES, TILE_FEATURES, WIN_FEATURES,
                                     RiskModel)
from agents.param_file import known_fields, read_params, write_params

TUNED = Path(__file__).with_name("tuned.json")


@dataclass(frozen=True)
class HeuristicParams:
    """Switches and weights of the heuristic: docs/agents.md, *Parameters*, gives each one's
    meaning and its value in v1 and in the default (one table, not restated here)."""

    value_planning: bool = True
    defence: bool = True
    calls: bool = True
    kans: bool = True
    soft_margin: int = 3
    soft_penalty: float = 1.0
    ron_share: float = 0.75
    loose_tables: bool = True
    knitted: bool = False
    acceptance: str = "ties"
    ukeire_weight: float = 0.15
    value_weight: float = 0.0
    defence_model: str = "v1"
    defence_weight: float = 0.9
    danger: DefenceParams = field(default_factory=DefenceParams)
    risk: RiskModel | None = None
    win: tuple[float, ...] = ()
    gain: tuple[float, float] = (0.0, 1.0)
    risk_weight: float = 1.0
    late_risk_weight: float = 1.0
    stake_floor: float = 1.0
    ready_floor: float = 0.02
    safe_margin: float = 0.0
    fold_below: float = 0.0
    call_threat: float = 0.6

    def __post_init__(self) -> None:
        if self.acceptance not in ("ties", "all"):
            raise ValueError(f"acceptance must be 'ties' or 'all', got {self.acceptance!r}")
        if self.defence_model not in ("v1", "risk"):
            raise ValueError(f"defence_model must be 'v1' or 'risk', got "
                             f"{self.defence_model!r}")
        if self.defence_model == "risk" and (not self.win or self.risk is None):
            raise ValueError("defence_model 'risk' needs the fitted win and risk models")
        sizes = {"win": (self.win, WIN_FEATURES)}
        if self.risk is not None:
            sizes.update({"risk.ready": (self.risk.ready, OPPONENT_FEATURES),
                          "risk.tile": (self.risk.tile, TILE_FEATURES),
                          "risk.value": (self.risk.value, OPPONENT_FEATURES)})
        for name, (coef, features) in sizes.items():
            if coef and len(coef) != len(features):
                raise ValueError(f"{name} has {len(coef)} coefficients; this version's model "
                                 f"reads {len(features)} features (refit with mjenv tune "
                                 f"heuristic)")

    def evaluation(self) -> EvalParams:
        return EvalParams(self.value_planning, self.soft_margin, self.soft_penalty,
                          self.ron_share, self.loose_tables, self.knitted)

    @classmethod
    def efficiency_only(cls) -> "HeuristicParams":
        """``heuristic:efficiency``: tile efficiency only (no value plans, no defence)."""
        return cls(value_planning=False, defence=False)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "HeuristicParams":
        """The parameters of a parameter file's ``params`` (unknown keys are an error)."""
        values = dict(known_fields(cls, data))
        if "danger" in values:
            values["danger"] = DefenceParams(**values["danger"])
        if values.get("risk") is not None:
            values["risk"] = RiskModel(**{k: tuple(v) for k, v in values["risk"].items()})
        for name in ("win", "gain"):
            if name in values:
                values[name] = tuple(values[name])
        return cls(**values)


def save_params(path: str | Path, params: HeuristicParams, note: dict | None = None) -> None:
    """Write a parameter file (``agents.param_file``), as ``mjenv tune heuristic`` does."""
    write_params(path, params, note)


def load_params(path: str | Path) -> HeuristicParams:
    """Read a parameter file written by ``save_params``."""
    return read_params(path, "heuristic", HeuristicParams.from_dict)


V1 = HeuristicParams()


def default() -> HeuristicParams:
    """The tuned default (``tuned.json``); v1 until a tuning has been shipped."""
    return load_params(TUNED) if TUNED.exists() else V1


def params_for(variant: str) -> HeuristicParams:
    """The preset behind ``heuristic[:variant]`` (a variant naming a file loads it)."""
    if variant == "":
        return default()
    if variant == "v1":
        return V1
    if variant == "efficiency":
        return HeuristicParams.efficiency_only()
    if variant == "nodefence":
        return replace(default(), defence=False)
    if variant.endswith(".json") or "/" in variant or Path(variant).exists():
        return load_params(variant)
    raise ValueError(f"unknown heuristic variant {variant!r}: use heuristic, heuristic:v1, "
                     f"heuristic:efficiency, heuristic:nodefence or heuristic:PATH (a "
                     f"parameter file from mjenv tune heuristic)")
