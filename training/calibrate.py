"""Fit the heuristic's probability models on self-play, where every hidden hand is known.

The heuristic weighs what a discard is worth against what it risks with probabilities a player
cannot compute from its own view alone — how likely an opponent is ready, which tiles it waits
on, how much its win would cost; how likely a hand of a given distance and acceptance is to win
before the wall runs out. A simulator answers all of them: play hands, and at every discard
decision record what the deciding seat could see (``agents.heuristic.risk``'s features, and its
own hand's distance and acceptance from the heuristic's evaluators) next to what was true (the
opponents' legal winning tiles and their points, read from the engine; whether the seat went on
to win, and for how much).

Models (all small and readable; coefficients land in ``HeuristicParams``):

- ``ready``: logistic, P(opponent can win by ron now) over its features;
- ``tile``: logistic, P(the tile is one of its winning tiles | ready);
- ``value``: least squares, the points of its win by ron;
- ``win``: logistic, P(the deciding seat wins the hand) over its distance after the discard
  (one-hot 1…5+), log(1 + acceptance), the wall's progress and their interactions;
- ``gain``: least squares, the points of the seat's win over the points of its best plan.

Fitting is iteratively reweighted least squares with a small ridge (``logistic``).
"""

from __future__ import annotations

import multiprocessing
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from mjenv.rules import RuleConfig

MODELS = ("ready", "tile", "value", "win", "gain")


@dataclass
class Samples:
    """Per model of ``MODELS``: its rows of features and their labels."""

    x: dict[str, list] = field(default_factory=lambda: {m: [] for m in MODELS})
    y: dict[str, list] = field(default_factory=lambda: {m: [] for m in MODELS})

    def add(self, model: str, x: Sequence[float], y: float) -> None:
        self.x[model].append(x)
        self.y[model].append(y)

    def extend(self, other: "Samples") -> None:
        for m in MODELS:
            self.x[m].extend(other.x[m])
            self.y[m].extend(other.y[m])


def ron_tiles(hand, seat: int) -> dict[int, int]:
    """The kinds ``seat`` could win on by ron right now, with the points of each win."""
    return {} if hand.furiten(seat) else winning_tiles(hand, seat)


def winning_tiles(hand, seat: int) -> dict[int, int]:
    """The kinds ``seat``'s 13 tiles win on by ron, reaching ``min_points``, with the points
    of each win; same-turn furiten, which lasts only until the seat's next turn, aside."""
    from mjenv.scoring import WinContext, score
    out = {}
    tiles, melds = hand.concealed(seat), hand.melds(seat)
    ctx = WinContext(tsumo=False, seat_wind=hand.seat_wind(seat), round_wind=hand.round_wind)
    for t in hand.waits(seat):
        try:
            points = score(tiles, t, melds, ctx).points
        except ValueError:
            continue
        if points >= hand.rules.min_points:
            out[t] = points
    return out


def _collect(args: tuple[str, int, int, RuleConfig, float]) -> Samples:
    """Play ``hands`` hands of ``spec`` self-play from ``first``; sample ``share`` of the
    discard decisions."""
    from agents import make_agent
    from agents.heuristic.evaluator import Evaluator
    from agents.heuristic.params import V1
    from agents.heuristic.models import (opponent_features, passed_tiles, tile_features,
                                         win_features)
    from mjenv.env.actions import decode_action, legal_mask
    from mjenv.game import Hand

    spec, first, hands, rules, share = args
    rng = np.random.default_rng(first)
    ev = Evaluator(V1.evaluation())
    out = Samples()
    for index in range(first, first + hands):
        hand = Hand(rules, seed=index)
        agents = [make_agent(spec, seed=index * 4 + s) for s in range(4)]
        mine: dict[int, list[tuple[list[float], float]]] = {s: [] for s in range(4)}
        while not hand.over:
            seat = hand.to_act[0]
            view = hand.view(seat)
            action = decode_action(int(agents[seat].act(None, legal_mask(view), view)), view)
            if view.phase == "turn" and action.kind == "discard" and rng.random() < share:
                tiles = sorted(set(view.hand))
                for o in range(4):
                    if o == seat:
                        continue
                    opp = opponent_features(view, o)
                    rons = ron_tiles(hand, o)
                    passed = passed_tiles(view, o)
                    out.add("ready", opp, float(bool(rons)))
                    if rons:
                        out.add("value", opp, float(np.mean(list(rons.values()))))
                        for t, row in zip(tiles, tile_features(view, [o], tiles, [opp])[0]):
                            if t not in passed:
                                out.add("tile", row, float(t in rons))
                counts = [0] * 34
                for t in view.hand:
                    counts[t] += 1
                counts[action.tile] -= 1
                melds = tuple(view.melds[seat])
                dist, accept = ev.acceptance(counts, melds, view)
                if dist < 20:
                    progress = 1.0 - view.live_wall_left / 70
                    plan = _best_points(ev, counts, melds, view)
                    mine[seat].append((win_features(dist, accept, progress, len(melds)), plan))
            hand.step(seat, action)
        result = hand.result
        for s, rows in mine.items():
            won = s in result.winners
            for x, plan in rows:
                out.add("win", x, float(won))
            if won and rows:
                out.add("gain", [1.0, float(rows[-1][1])], float(result.scores[s].points))
    return out


def _best_points(ev, counts, melds, view) -> int:
    """Points of the best admitted plan of a 13-tile hand (the floor of its win's value)."""
    evaluated, adm = ev.evaluated(counts, melds, view)
    dist, plans = evaluated.dist, evaluated.plist.plans
    best = min(((dist[i] + pen, -plans[i].points) for i, pen in
                zip(adm.plans, adm.penalty) if dist[i] < 99), default=(0, 0))
    return max(-best[1], view.rules.min_points)


def collect(spec: str, hands: int, seed: int = 0, rules: RuleConfig | None = None,
            share: float = 0.5, workers: int = 1) -> Samples:
    """Samples from ``hands`` self-play hands of ``spec`` (hands ``seed·10⁶ …``)."""
    rules = rules or RuleConfig()
    chunk = max(1, hands // (4 * workers))
    jobs = [(spec, seed * 1_000_000 + i, min(chunk, hands - i), rules, share)
            for i in range(0, hands, chunk)]
    out = Samples()
    if workers <= 1:
        for job in jobs:
            out.extend(_collect(job))
        return out
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for part in pool.imap(_collect, jobs):
            out.extend(part)
    return out


def logistic(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3, iters: int = 25
             ) -> np.ndarray:
    """Coefficients of a logistic regression (IRLS / Newton, ridge on all but the bias)."""
    x = np.asarray(x, float)
    y = np.asarray(y, float)
    w = np.zeros(x.shape[1])
    penalty = ridge * len(y) * np.eye(x.shape[1])
    penalty[0, 0] = 0.0
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + penalty @ w
        hess = (x * (p * (1 - p))[:, None]).T @ x + penalty
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def least_squares(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    """Coefficients of a linear regression (ridge on all but the bias)."""
    x = np.asarray(x, float)
    y = np.asarray(y, float)
    penalty = ridge * len(y) * np.eye(x.shape[1])
    penalty[0, 0] = 0.0
    return np.linalg.solve(x.T @ x + penalty, x.T @ y)


@dataclass(frozen=True)
class Models:
    ready: tuple[float, ...]
    tile: tuple[float, ...]
    value: tuple[float, ...]
    win: tuple[float, ...]
    gain: tuple[float, ...]


def fit(samples: Samples) -> Models:
    def r(v: np.ndarray) -> tuple[float, ...]:
        return tuple(round(float(c), 4) for c in v)

    x, y = samples.x, samples.y
    return Models(ready=r(logistic(x["ready"], y["ready"])),
                  tile=r(logistic(x["tile"], y["tile"])),
                  value=r(least_squares(x["value"], y["value"])),
                  win=r(logistic(x["win"], y["win"])),
                  gain=r(least_squares(x["gain"], y["gain"])))

