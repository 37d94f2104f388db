"""Analysis planes: what a careful player works out before acting, as extra network input.

The observation planes (``mjenv.env.observation``) hold only what the seat sees. Turning that
into "which discard keeps me closest to a hand worth ``min_points``" takes a search over
decompositions and value plans that a small convolutional network learns slowly and badly from
a few hours of CPU self-play: the cloned policy of ``training.bc`` agreed with its teacher on
75 % of decisions from raw planes. Strong mahjong programs feed such look-ahead to the network
(Suphx's look-ahead features; Mortal's per-discard shanten planes), and so does this one, when
a network is built with ``NetConfig(features=<version>)``. The numbers come from the
heuristic agent's evaluators (``agents.heuristic``), which already compute them exactly; the
network is free to weigh them differently from the heuristic, and PPO is what teaches it how.

Each plane is a row of 34 values like the observation's, appended after them; each version's
``planes`` list every plane with its meaning and ``docs/agents.md`` shows the tables
(drift-tested). Distances are in tiles ("value distance": tiles needed to reach a plan worth
``min_points``, see ``agents.heuristic.plans``), divided by :data:`DIST_SCALE` and clipped to 1.

A version is frozen once a network reads it: its planes and the evaluator settings they are
computed with never change. ``analysis-v1`` uses ``heuristic:v1``'s evaluators (the clone and
PPO runs before the knitted plan); ``analysis-v2`` the tuned evaluators as they stood when the
knitted plan (十三不搭) was added, plus a plane of the points a ready discard's waits win — what
the tuned heuristic weighs beside distance and acceptance — so a clone of it sees what it sees.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple, Sequence

import numpy as np

from agents.heuristic.defence import threats, tile_dangers
from agents.heuristic.evaluator import TIE, EvalParams, Evaluator
from agents.heuristic.params import V1
from agents.heuristic.tables import INF
from mjenv.game.view import PlayerView
from mjenv.tiles import Meld, counts34

DIST_SCALE = 8.0
WEIGHT_SCALE = 5.0        # log(1 + unseen useful tiles) / WEIGHT_SCALE: 1 at ~150 tiles
POINTS_SCALE = 3.0        # log(points / min_points) / POINTS_SCALE: 1 at 20× min_points


class FeaturePlane(NamedTuple):
    name: str
    description: str


PLANES_V1: tuple[FeaturePlane, ...] = (
    FeaturePlane("discard_distance", "own turn: value distance after discarding the kind / 8 "
                 "(held kinds only; 1 = no plan reachable)"),
    FeaturePlane("discard_best", "own turn: 1 at the held kinds whose discard keeps the best "
                 "value distance"),
    FeaturePlane("discard_weight", "own turn: log(1 + unseen tiles that improve the hand "
                 "after discarding the kind) / 5, for discards at the best distance; at "
                 "tenpai the unseen legal winning tiles (ron-weighted)"),
    FeaturePlane("discard_ready", "own turn: 1 where discarding the kind leaves a ready hand "
                 "with at least one wait worth min_points"),
    FeaturePlane("danger", "threat-weighted danger of discarding the kind (heuristic defence "
                 "model), / 4, clipped to 1"),
    FeaturePlane("threat_right", "constant: threat 0–1 of the seat to the right (melds, "
                 "wall progress, visible flush)"),
    FeaturePlane("threat_across", "constant: threat of the seat across"),
    FeaturePlane("threat_left", "constant: threat of the seat to the left"),
    FeaturePlane("best_distance", "constant: own turn, the best value distance after a "
                 "discard / 8; otherwise the hand's value distance now / 8"),
    FeaturePlane("kan_keeps", "own turn: 1 at a kind whose legal concealed or added kan "
                 "keeps the best value distance"),
    FeaturePlane("call_gain_chi_low", "claim window: constant (distance now − best distance "
                 "after chi with the claimed tile lowest and a discard) / 8, clipped ±1; 0 when "
                 "not legal"),
    FeaturePlane("call_gain_chi_mid", "claim window: the same for chi with the tile in the "
                 "middle"),
    FeaturePlane("call_gain_chi_high", "claim window: the same for chi with the tile highest"),
    FeaturePlane("call_gain_pon", "claim window: the same for pon"),
    FeaturePlane("call_gain_kan", "claim window: (distance now − distance after the open "
                 "kan) / 8, clipped ±1; 0 when not legal"),
    FeaturePlane("call_legal", "claim window: constant 1 when some chi/pon/open kan is legal"),
)
PLANES_V2 = PLANES_V1 + (
    FeaturePlane("discard_points", "own turn: where discarding the kind leaves a ready hand, "
                 "log(points / min_points) / 3 of its legal wins (ron-weighted), clipped to 1; "
                 "0 elsewhere"),
)


@dataclass(frozen=True)
class FeatureVersion:
    """One frozen network input: its planes, and the evaluator settings they come from."""

    name: str
    evaluation: EvalParams
    planes: tuple[FeaturePlane, ...]

    @property
    def index(self) -> dict[str, int]:
        return {p.name: i for i, p in enumerate(self.planes)}


VERSIONS = {v.name: v for v in (
    FeatureVersion("analysis-v1", V1.evaluation(), PLANES_V1),
    # tuned.json's evaluator settings on 2026-12-01 (the default heuristic then), written out:
    # later tunings must not move a version networks already read
    FeatureVersion("analysis-v2", EvalParams(value_planning=True, soft_margin=2,
                                             soft_penalty=1.5283, ron_share=0.9066,
                                             loose_tables=False, knitted=True), PLANES_V2),
)}
FEATURES_VERSION = "analysis-v2"
"""The latest version: what new networks should read."""


def feature_version(name: str) -> FeatureVersion:
    """The version called ``name``; a ValueError naming those known otherwise."""
    try:
        return VERSIONS[name]
    except KeyError:
        raise ValueError(f"unknown analysis planes {name!r} (known: "
                         f"{', '.join(VERSIONS)})") from None


def _dist(d: float) -> float:
    return 1.0 if d >= INF else min(d / DIST_SCALE, 1.0)


def _gain(now: float, after: float) -> float:
    if after >= INF:
        return -1.0
    if now >= INF:
        return 1.0
    return max(-1.0, min(1.0, (now - after) / DIST_SCALE))


class Analyst:
    """Computes the analysis planes of a view for one version (fixed: networks read them),
    with that version's evaluators; no randomness."""

    def __init__(self, version: str) -> None:
        self.version = feature_version(version)
        self.num_planes = len(self.version.planes)
        self._ev = Evaluator(self.version.evaluation)
        idx = self.version.index
        self._idx = idx
        self._call_row = {0: idx["call_gain_chi_low"], 1: idx["call_gain_chi_mid"],
                          2: idx["call_gain_chi_high"]}

    def planes(self, view: PlayerView) -> np.ndarray:
        """float32 (num_planes, 34) for the seat of ``view``."""
        out = np.zeros((self.num_planes, 34), dtype=np.float32)
        ev = self._ev
        idx = self._idx
        threat = threats(view, V1.danger)
        for r in range(1, 4):
            out[idx["threat_right"] + r - 1] = threat[(view.seat + r) % 4]
        danger = tile_dangers(view, threat, V1.danger)
        out[idx["danger"]] = np.minimum(np.asarray(danger, dtype=np.float32) / 4.0, 1.0)
        counts = counts34(view.hand)
        melds = tuple(view.melds[view.seat])
        legal = view.legal
        if view.phase == "turn" and any(a.kind == "discard" for a in legal):
            self._turn(out, view, counts, melds)
        elif view.phase == "claim" and view.target_tile is not None:
            self._claim(out, view, counts, melds)
        elif view.phase != "turn":
            out[idx["best_distance"]] = _dist(ev.hand(counts, melds, view)[0])
        return out

    def _turn(self, out: np.ndarray, view: PlayerView, counts: list[int],
              melds: tuple[Meld, ...]) -> None:
        ev, idx = self._ev, self._idx
        points = idx.get("discard_points")
        least = max(1, view.rules.min_points)
        tiles = [t for t in range(34) if counts[t]]
        evals = ev.discards(counts, melds, view, tiles)
        best = min(e.dist for e in evals.values())
        for t, e in evals.items():
            out[idx["discard_distance"], t] = _dist(e.dist)
            out[idx["discard_best"], t] = float(e.dist <= best + TIE)
            out[idx["discard_weight"], t] = min(math.log1p(e.weight) / WEIGHT_SCALE, 1.0)
            out[idx["discard_ready"], t] = float(e.ready)
            if points is not None and e.ready:
                out[points, t] = min(math.log(max(e.points, least) / least) / POINTS_SCALE, 1.0)
        out[idx["best_distance"]] = _dist(best)
        for a in view.legal:           # each kan on its own: the heuristic stops at the first
            if a.kind in ("ankan", "kakan") and ev.kan_keeps(view, a, counts, melds, best):
                out[idx["kan_keeps"], a.tile] = 1.0

    def _claim(self, out: np.ndarray, view: PlayerView, counts: list[int],
               melds: tuple[Meld, ...]) -> None:
        ev, idx = self._ev, self._idx
        x = view.target_tile
        now, _ = ev.hand(counts, melds, view)
        out[idx["best_distance"]] = _dist(now)
        for a in view.legal:
            if a.kind not in ("chi", "pon", "minkan"):
                continue
            out[idx["call_legal"]] = 1.0
            row = (self._call_row[x - a.tile] if a.kind == "chi" else
                   idx["call_gain_pon"] if a.kind == "pon" else idx["call_gain_kan"])
            out[row] = _gain(now, ev.after_call(view, a, counts))


def feature_planes(views: Sequence[PlayerView], analyst: Analyst) -> np.ndarray:
    """float32 (len(views), analyst.num_planes, 34)."""
    return np.stack([analyst.planes(v) for v in views]) if views else \
        np.zeros((0, analyst.num_planes, 34), np.float32)


def markdown_table(version: str = FEATURES_VERSION) -> str:
    """The plane table of docs/agents.md (the latest version's: earlier versions' planes are
    its first rows)."""
    lines = ["| index | name | meaning |", "|---|---|---|"]
    lines += [f"| {i} | `{p.name}` | {p.description} |"
              for i, p in enumerate(feature_version(version).planes)]
    return "\n".join(lines) + "\n"
