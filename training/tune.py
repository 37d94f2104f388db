"""Tune the heuristic's parameters by duplicate evaluation with common random numbers.

    mjenv tune heuristic --out runs/tune --rounds 6 --candidates 16 --deals 40 --workers 2

Start. The probability models of the expected-points heuristic (``HeuristicParams.win``,
``gain``, ``risk``) are fitted on self-play first (``training.calibrate``: ``--calibrate-hands``
hands of ``heuristic:v1``), or read from ``--init FILE``. The search then moves the few weights
that turn those probabilities into decisions (``SPACE``).

Objective. A candidate plays each deal of a round in four rotations (the same wall with the
candidate in every seat) at three tables — against three ``heuristic:v1``, against three copies
of itself without defence, and against one of each of v1, itself and itself without defence —
and scores its mean points per hand over the twelve hands. Every candidate of a round plays the
same deals (common random numbers), so differences between candidates are measured on the same
luck; a new round draws new deals, so no deal set is learned by heart.

Search. Each round is a successive halving over ``--candidates`` candidates: the incumbent and
perturbations of it (Gaussian in each dimension's unit range, ``--sigma`` shrinking by
``--decay`` a round). All play ``--deals`` deals; the better half plays twice as many, and so on
until one is left; it is the next incumbent. The curve (per round: the incumbent's score on the
round's deals and its values) goes to ``curve.csv``.

Confirmation. The final incumbent plays ``--confirm-deals`` fresh deals (a seed no round used)
against three ``heuristic:v1`` and against three of itself without defence (``mjenv eval``'s
harness); the reports go to ``confirm.json`` and into the parameter file's note.

Files (all in ``--out``): ``state.json`` (everything done so far: resume with ``--resume`` after
Ctrl-C or a crash, bit for bit), ``curve.csv``, ``params.json`` (the incumbent, rewritten each
round; load it as ``heuristic:PATH``), ``confirm.json``.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from agents.heuristic.params import HeuristicParams, load_params, save_params
from mjenv.rules import RuleConfig
from training.args import Arguments, arg


@dataclass(frozen=True)
class Dimension:
    """One tuned value: a ``HeuristicParams`` field (``gain.0``: the first of a tuple), its
    range, and whether it is an integer."""

    name: str
    low: float
    high: float
    integer: bool = False


SPACE = (
    Dimension("risk_weight", 0.0, 20.0),
    Dimension("stake_floor", 0.3, 6.0),
    Dimension("ukeire_weight", 0.0, 0.6),
    Dimension("value_weight", 0.0, 1.0),
    Dimension("call_threat", 0.1, 1.0),
    Dimension("soft_penalty", 0.0, 2.5),
    Dimension("soft_margin", 0, 5, integer=True),
    Dimension("ron_share", 0.3, 1.0),
)


def values_of(params: HeuristicParams) -> dict[str, float]:
    out = {}
    for dim in SPACE:
        name, _, index = dim.name.partition(".")
        v = getattr(params, name)
        out[dim.name] = float(v[int(index)] if index else v)
    return out


def with_values(params: HeuristicParams, values: dict[str, float]) -> HeuristicParams:
    """``params`` with the tuned ``values`` (one per ``SPACE`` dimension) set."""
    changes: dict = {}
    for dim in SPACE:
        v = values[dim.name]
        v = int(round(v)) if dim.integer else float(v)
        name, _, index = dim.name.partition(".")
        if index:
            seq = list(changes.get(name, getattr(params, name)))
            seq[int(index)] = v
            changes[name] = tuple(seq)
        else:
            changes[name] = v
    return replace(params, **changes)


def perturb(values: dict[str, float], sigma: float, rng: np.random.Generator
            ) -> dict[str, float]:
    out = {}
    for dim in SPACE:
        span = dim.high - dim.low
        v = values[dim.name] + rng.normal(0.0, sigma) * span
        v = min(dim.high, max(dim.low, v))
        out[dim.name] = float(round(v)) if dim.integer else round(v, 4)
    return out


# --- one deal at the three tables ---------------------------------------------------------

_PARAMS: dict[str, HeuristicParams] = {}


def _agent(params: dict, defence: bool = True):
    from agents.heuristic import HeuristicAgent
    key = json.dumps(params, sort_keys=True) + str(defence)
    p = _PARAMS.get(key)
    if p is None:
        p = HeuristicParams.from_dict(params)
        _PARAMS[key] = p = p if defence else replace(p, defence=False)
    return HeuristicAgent(p)


def field_score(params: dict, deal: int, seed: int, rules: RuleConfig) -> float:
    """The candidate's mean score per hand on one deal: four rotations at each of the three
    tables (vs 3× v1, vs 3× itself without defence, vs v1 + itself + itself without
    defence)."""
    from agents import make_agent
    from mjenv.game import Hand
    from training.evaluate import agent_seed, deal_seed, play_hand

    tables = (lambda: [make_agent("heuristic:v1") for _ in range(3)],
              lambda: [_agent(params, defence=False) for _ in range(3)],
              lambda: [make_agent("heuristic:v1"), _agent(params),
                       _agent(params, defence=False)])
    total, hands = 0.0, 0
    for t, table in enumerate(tables):
        for rotation in range(4):
            it = iter(table())
            agents = [_agent(params) if s == rotation else next(it) for s in range(4)]
            for s, a in enumerate(agents):
                a.reseed(agent_seed(seed, deal, s))
            hand = Hand(rules, seed=deal_seed(seed, deal))
            total += play_hand(hand, agents, rotation).delta
            hands += 1
    return total / hands


def _task(args) -> tuple[int, int, float]:
    cand, params, deal, seed, rules = args
    return cand, deal, field_score(params, deal, seed, rules)


# --- the search ---------------------------------------------------------------------------


@dataclass
class TuneConfig(Arguments):
    """The search budget and files (``mjenv tune heuristic --help`` shows each field's help)."""

    out: str = arg("", "run folder: state.json, curve.csv, params.json, confirm.json")
    rounds: int = arg(6, "successive-halving rounds", low=1)
    candidates: int = arg(16, "candidates per round, the incumbent among them", low=2)
    deals: int = arg(40, "deals per candidate at a round's first rung; doubled at each halving",
                     low=1)
    sigma: float = arg(0.15, "perturbation, as a share of each dimension's range", low=1e-6,
                       high=1.0)
    decay: float = arg(0.75, "sigma's factor per round", low=1e-6, high=1.0)
    seed: int = arg(0, "search seed", low=0)
    workers: int = arg(1, "processes", low=1)
    init: str = arg("", "start from this parameter file instead of calibrating")
    calibrate_hands: int = arg(3000, "self-play hands the probability models are fitted on",
                               low=100)
    confirm_deals: int = arg(1000, "fresh deals of the final confirmation", low=1)
    min_points: int = arg(6, "RuleConfig.min_points of the games tuned on", low=0)
    resume: bool = arg(False, "continue the run in --out from its state.json")

    @property
    def rules(self) -> RuleConfig:
        return RuleConfig(min_points=self.min_points)

    @property
    def folder(self) -> Path:
        return Path(self.out)


def round_seed(seed: int, r: int) -> int:
    return int(np.random.SeedSequence([seed, r, 7]).generate_state(1, np.uint64)[0] >> 1)


class Tuner:
    """The search of the module docstring, its state kept in ``out/state.json``."""

    def __init__(self, config: TuneConfig, log: Callable[[str], None] = print) -> None:
        self.config = config
        self.log = log
        self.path = config.folder / "state.json"
        self.state: dict = {}

    # state ---------------------------------------------------------------------------------

    def save(self) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.state))
        os.replace(tmp, self.path)

    def load(self) -> None:
        self.state = json.loads(self.path.read_text())

    def start(self) -> None:
        """Calibrate (or read ``--init``) and write the first state."""
        c = self.config
        if c.init:
            base = load_params(c.init)
        else:
            base = self.calibrate()
        if base.defence_model != "risk":
            raise ValueError("the starting parameters must use defence_model 'risk' (fitted "
                             "win and risk models)")
        self.state = {"config": vars(c),
                      "base": base.to_dict(), "incumbent": values_of(base), "round": 0,
                      "candidates": None, "scores": {}, "curve": []}
        self.save()

    def calibrate(self) -> HeuristicParams:
        from agents.heuristic.models import RiskModel
        from training.calibrate import collect, fit
        c = self.config
        self.log(f"calibrating on {c.calibrate_hands} hands of heuristic:v1 self-play")
        models = fit(collect("heuristic:v1", c.calibrate_hands, seed=c.seed, rules=c.rules,
                             workers=c.workers))
        return HeuristicParams(loose_tables=False, knitted=True, defence_model="risk",
                               risk_weight=6.0,
                               win=models.win, gain=models.gain,
                               risk=RiskModel(models.ready, models.tile, models.value))

    # rounds ----------------------------------------------------------------------------------

    def run(self, progress: bool = True) -> HeuristicParams:
        c = self.config
        with _Pool(c.workers) as pool:
            while self.state["round"] < c.rounds:
                self.round(pool, progress)
        return self.incumbent()

    def incumbent(self) -> HeuristicParams:
        return with_values(HeuristicParams.from_dict(self.state["base"]),
                           self.state["incumbent"])

    def round(self, pool: "_Pool", progress: bool) -> None:
        c, st = self.config, self.state
        r = st["round"]
        if st["candidates"] is None:
            rng = np.random.default_rng([c.seed, r])
            sigma = c.sigma * c.decay ** r
            st["candidates"] = [st["incumbent"]] + [perturb(st["incumbent"], sigma, rng)
                                                    for _ in range(c.candidates - 1)]
            st["scores"] = {}
            self.save()
        cands = st["candidates"]
        seed = round_seed(c.seed, r)
        base = HeuristicParams.from_dict(st["base"])
        params = [with_values(base, v).to_dict() for v in cands]
        alive = list(range(len(cands)))
        deals = c.deals
        while True:
            todo = [(i, d) for i in alive for d in range(deals)
                    if str(d) not in st["scores"].get(str(i), {})]
            bar = _bar(len(todo), f"round {r + 1}/{c.rounds}: {len(alive)} candidates × "
                       f"{deals} deals") if progress and todo else None
            done = 0
            for i, d, score in pool.map(_task, [(i, params[i], d, seed, c.rules)
                                                for i, d in todo]):
                st["scores"].setdefault(str(i), {})[str(d)] = score
                done += 1
                if bar is not None:
                    bar.update(done)
                if done % 25 == 0:
                    self.save()
            self.save()
            means = {i: float(np.mean([st["scores"][str(i)][str(d)] for d in range(deals)]))
                     for i in alive}
            alive = sorted(alive, key=lambda i: (-means[i], i))[:math.ceil(len(alive) / 2)]
            if len(alive) == 1:
                break
            deals *= 2
        winner = alive[0]
        incumbent_score = float(np.mean([st["scores"]["0"][str(d)]
                                         for d in range(c.deals)]))
        st["curve"].append({"round": r + 1, "winner": winner, "winner_score": means[winner],
                            "deals": deals, "incumbent_score_first_rung": incumbent_score,
                            "values": cands[winner]})
        st["incumbent"] = cands[winner]
        st["round"] = r + 1
        st["candidates"] = None
        self.save()
        self.write_outputs()
        self.log(f"round {r + 1}: {'incumbent kept' if winner == 0 else f'candidate {winner}'}"
                 f", {means[winner]:+.3f} per hand over {deals} deals; "
                 + ", ".join(f"{k}={v:g}" for k, v in cands[winner].items()))

    def write_outputs(self) -> None:
        st = self.state
        lines = ["round,winner,winner_score,deals," + ",".join(d.name for d in SPACE)]
        for row in st["curve"]:
            lines.append(f"{row['round']},{row['winner']},{row['winner_score']:.4f},"
                         f"{row['deals']}," + ",".join(f"{row['values'][d.name]:g}"
                                                       for d in SPACE))
        (self.config.folder / "curve.csv").write_text("\n".join(lines) + "\n")
        save_params(self.config.folder / "params.json", self.incumbent(),
                    {"tuned_by": "mjenv tune heuristic", "rounds_done": st["round"],
                     "config": st["config"], "curve": st["curve"]})

    # confirmation ----------------------------------------------------------------------------

    def confirm(self, progress: bool = True) -> dict:
        from training.evaluate import evaluate
        c = self.config
        spec = f"heuristic:{(c.folder / 'params.json').resolve()}"
        nodefence = c.folder / "params_nodefence.json"
        save_params(nodefence, replace(self.incumbent(), defence=False),
                    {"note": "the tuned parameters with defence off, for the confirmation"})
        seed = round_seed(c.seed, 10_000)
        reports = {}
        for name, vs in (("vs_v1", "heuristic:v1"),
                         ("vs_nodefence", f"heuristic:{nodefence.resolve()}")):
            self.log(f"confirmation: {c.confirm_deals} fresh deals {name}")
            reports[name] = evaluate(spec, vs, c.confirm_deals, seed, c.rules,
                                     workers=c.workers, progress=progress)
        (c.folder / "confirm.json").write_text(json.dumps(reports, indent=1) + "\n")
        save_params(c.folder / "params.json", self.incumbent(),
                    {"tuned_by": "mjenv tune heuristic", "rounds_done": self.state["round"],
                     "config": self.state["config"], "curve": self.state["curve"],
                     "confirm": {k: {f: v[f] for f in ("mean_score", "ci95", "win_rate",
                                                        "deal_in_rate", "deals", "seed")}
                                 for k, v in reports.items()}})
        return reports


class _Pool:
    """``map`` in this process (workers = 1) or over spawned processes, in order."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool = None

    def __enter__(self) -> "_Pool":
        if self.workers > 1:
            self.pool = multiprocessing.get_context("spawn").Pool(self.workers)
        return self

    def __exit__(self, *exc) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()

    def map(self, fn, items: Sequence):
        if self.pool is None:
            return map(fn, items)
        return self.pool.imap(fn, items, chunksize=1)


def _bar(total: int, label: str):
    from training.evaluate import Progress
    sys.stderr.write(label + "\n")
    return Progress(total, label="deals")
