"""The search agent's parameters and parameter files (``search:PATH``).

A file is JSON: ``{"params": {"worlds": 16, ...}}`` with any of ``SearchParams``' fields;
the fields left out keep their defaults (``search`` is the defaults).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from agents.param_file import known_fields, read_params


@dataclass(frozen=True)
class SearchParams:
    """What the search looks at and how much it trusts what it sees (docs/search.md).

    blueprint: the heuristic spec that plays every seat in the rollouts, and the search's own
        seat wherever it does not search or finds nothing better.
    worlds: K, at most this many sampled worlds each candidate is played out on (the same for
        every candidate, with the same seeds: common random numbers).
    min_worlds: the search stops early, after at least this many worlds (and every four after),
        once no alternative can still clear ``min_gain``: its mean gain plus ``threshold``
        standard errors is below it (most searches of tied discards end there, every world
        the same game).
    candidates: k, at most this many actions are compared on a turn (the blueprint's own and
        its next best discards); a claim compares every answer it may give.
    margin: a turn is searched when a second discard rates within this much utility of the
        best (``HeuristicAgent.rate``); negative: never for that reason.
    threat: ... or when an opponent is at least this likely to be ready (the blueprint's
        model); 1 or more: never for that reason.
    claims: search every chi, pon, open-kan or pass choice.
    rons: search a ron or pass (the blueprint always wins; passing is rarely right and a
        noisy search finds it right too often: off by default).
    threshold: play an alternative only when its mean gain over the blueprint's action is
        above this many standard errors of the paired differences (SPARTA's rule), and
    min_gain: above this many points a hand.
    sampler: how worlds are drawn: ``"uniform"`` (every deal of the unseen tiles alike) or
        ``"reading"`` (opponents ready as often, and on the tiles, the reading model says).

    The defaults are a measured variant (docs/search.md, *What each variant measured*):
    discards searched while an opponent looks ready, on 8 worlds. No variant beat the
    blueprint; this one measured closest to it (the narrowest interval), at the least cost.
    """

    blueprint: str = "heuristic"
    worlds: int = 8
    min_worlds: int = 4
    candidates: int = 2
    margin: float = -1.0
    threat: float = 0.5
    claims: bool = False
    rons: bool = False
    threshold: float = 2.0
    min_gain: float = 0.25
    sampler: str = "uniform"

    def __post_init__(self) -> None:
        if not self.blueprint.startswith("heuristic"):
            raise ValueError(f"blueprint must be a heuristic spec, got {self.blueprint!r}")
        if not 2 <= self.min_worlds <= self.worlds or self.candidates < 1:
            raise ValueError(f"worlds must be ≥ min_worlds ≥ 2 and candidates ≥ 1, got "
                             f"{self.worlds}, {self.min_worlds} and {self.candidates}")
        if self.sampler not in ("uniform", "reading"):
            raise ValueError(f"sampler must be 'uniform' or 'reading', got {self.sampler!r}")

    def to_dict(self) -> dict:
        return asdict(self)


def load_search_params(path: str | Path) -> SearchParams:
    """Read a parameter file (``agents.param_file``); ``ValueError`` naming the file and
    what is wrong."""
    return read_params(path, "search",
                       lambda params: SearchParams(**known_fields(SearchParams, params)))
