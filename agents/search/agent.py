"""The search agent: the blueprint heuristic, corrected where playing the options out says so.

At a decision the gate picks (``SearchAgent.candidates``) — a turn whose best discards rate
close, or with an opponent likely ready, or with a kan to declare; every chi, pon, open kan or
pass; a ron or pass if asked to — the agent plays the blueprint's action and its alternatives out on the
same K sampled worlds (``mjenv.game.world``, their live walls dealt as seat streams so that a
call does not shift every later draw), every seat played by the blueprint to the end of the deal
with the same seeds for every candidate (common random numbers: the luck the options share
cancels in their difference). It deviates from the blueprint only when an alternative's
mean gain over the blueprint's action is above ``threshold`` standard errors of the paired
differences and above ``min_gain`` points (SPARTA's rule, Lerer et al. 2020: it never trusts
noise). Elsewhere it plays the blueprint, drawing the blueprint's tie-breaks from the seat's
seed exactly as the blueprint would, so the searching seat plays the very game of the
blueprint until it deviates.

The worlds are drawn from the agent's own generator and the view alone: nothing hidden reaches
the search except through its sampling. docs/search.md has the method and the measurements.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from agents.base import BaseAgent, legal_in_mask
from agents.heuristic.models import ready_probability
from agents.search.params import SearchParams
from agents.search.worlds import sample_read
from mjenv.game.actions import Action
from mjenv.game.view import PlayerView
from mjenv.game.world import Hidden, sample_hidden, world

CALLS = ("chi", "pon", "minkan")


@dataclass
class SearchStats:
    """What the agent has done since it was made: decisions, searched decisions, deviations
    from the blueprint, rollouts played and CPU seconds spent searching (process time: what
    other work on the machine does not inflate)."""

    decisions: int = 0
    searched: int = 0
    deviations: int = 0
    rollouts: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class Outcome:
    """One searched decision: the candidates (the blueprint's first), each one's mean score
    over the worlds, the paired gains over the blueprint's action with their standard errors,
    and the action played."""

    candidates: tuple[Action, ...]
    means: tuple[float, ...]
    gains: tuple[float, ...]
    errors: tuple[float, ...]
    chosen: Action


def sparta(values: np.ndarray, threshold: float, min_gain: float
           ) -> tuple[int, np.ndarray, np.ndarray]:
    """SPARTA's rule on ``values`` (worlds × candidates, the blueprint's column first): the
    column to play — the best alternative whose mean gain over column 0, paired world by world,
    is above ``min_gain`` and above ``threshold`` standard errors; else 0 — with every
    alternative's mean gain and standard error."""
    gains = values[:, 1:] - values[:, :1]
    mean = gains.mean(axis=0)
    error = gains.std(axis=0, ddof=1) / math.sqrt(len(values))
    trusted = (mean > min_gain) & (mean > threshold * error)
    best = 1 + int(np.argmax(np.where(trusted, mean, -np.inf))) if trusted.any() else 0
    return best, mean, error


class SearchAgent(BaseAgent):
    """See the module docstring; ``params``: ``SearchParams``."""

    name = "search"
    needs_observation = False

    def __init__(self, params: SearchParams | None = None, seed: int | None = None) -> None:
        from agents.registry import make_agent
        self.params = params or SearchParams()
        self.blueprint = make_agent(self.params.blueprint)
        self.players = [make_agent(self.params.blueprint) for _ in range(4)]
        self.stats = SearchStats()
        self.last: Outcome | None = None
        self._reader = None                 # the reading model, loaded when first asked
        self.reseed(seed)

    def reseed(self, seed: int | None) -> None:
        """The blueprint's tie-breaks from ``seed`` itself (as the blueprint alone would draw
        them), the worlds and rollout seeds from a stream of their own."""
        self.blueprint.reseed(seed)
        self._rng = np.random.default_rng(None if seed is None else [seed, 0x5EA2C4])

    def act(self, observation: np.ndarray | None, mask: np.ndarray, view: PlayerView) -> int:
        legal, ids = legal_in_mask(view, mask, self.name)
        return ids[legal.index(self.choose(view, legal))]

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The blueprint's action among ``legal``, or the alternative the search found
        better."""
        self.stats.decisions += 1
        self.last = None
        blueprint = self.blueprint.choose(view, legal)
        candidates = self.candidates(view, legal, blueprint)
        if len(candidates) < 2:
            return blueprint
        start = time.process_time()
        self.last = outcome = self.search(view, candidates)
        self.stats.searched += 1
        self.stats.deviations += outcome.chosen != blueprint
        self.stats.seconds += time.process_time() - start
        return outcome.chosen

    # --- the gate ---------------------------------------------------------------------------

    def candidates(self, view: PlayerView, legal: Sequence[Action], blueprint: Action
                   ) -> list[Action]:
        """The actions compared at this decision, the blueprint's first; one where the gate
        does not open."""
        p = self.params
        kinds = {a.kind for a in legal}
        if view.phase != "turn":
            if "ron" in kinds and not p.rons or not (p.claims and kinds & set(CALLS)
                                                     or p.rons and "ron" in kinds):
                return [blueprint]
            return [blueprint] + [a for a in legal if a != blueprint]
        if "tsumo" in kinds:
            return [blueprint]
        rated = self.blueprint.rate(view, legal)
        kans = [a for a in legal if a.kind in ("ankan", "kakan")]
        close = len(rated) > 1 and rated[1].utility >= rated[0].utility - p.margin
        if not (close or kans or self._threatened(view)):
            return [blueprint]
        out = [blueprint]
        for r in rated:
            if len(out) >= p.candidates:
                break
            if r.action not in out:
                out.append(r.action)
        return out + [k for k in kans if k not in out]

    def _threatened(self, view: PlayerView) -> bool:
        p = self.params
        model = self.blueprint.params.risk
        if p.threat >= 1 or model is None:
            return False
        return any(ready_probability(view, model, o) >= p.threat
                   for o in range(4) if o != view.seat)

    # --- the search -------------------------------------------------------------------------

    def search(self, view: PlayerView, candidates: Sequence[Action]) -> Outcome:
        """Play every candidate out on the same worlds and pick by SPARTA's rule."""
        p = self.params
        values = np.empty((p.worlds, len(candidates)))
        sample = self._sampler(view)
        for w in range(p.worlds):
            hidden = sample(self._rng)
            seeds = [int(s) for s in self._rng.integers(2 ** 63, size=4)]
            for j, action in enumerate(candidates):
                values[w, j] = self.rollout(view, hidden, action, seeds)
            done = w + 1
            if done >= p.min_worlds and (done - p.min_worlds) % 4 == 0 and done < p.worlds:
                _, gains, errors = sparta(values[:done], p.threshold, p.min_gain)
                if np.all(gains + p.threshold * errors < p.min_gain):
                    break
        values = values[:done]
        self.stats.rollouts += values.size
        best, gains, errors = sparta(values, p.threshold, p.min_gain)
        return Outcome(tuple(candidates), tuple(values.mean(axis=0).tolist()),
                       tuple(gains.tolist()), tuple(errors.tolist()), candidates[best])

    def _sampler(self, view: PlayerView) -> Callable[[np.random.Generator], Hidden]:
        """How this decision's worlds are drawn: uniformly, or by the reading model's read of
        the view (made once per decision)."""
        if self.params.sampler == "uniform":
            return lambda rng: sample_hidden(view, rng)
        if self._reader is None:
            from agents.search.reading import ReadingModel
            self._reader = ReadingModel.shipped()
        reads = self._reader.read(view)
        return lambda rng: sample_read(view, reads, rng)

    def rollout(self, view: PlayerView, hidden: Hidden, action: Action,
                seeds: Sequence[int]) -> int:
        """The seat's score change when it plays ``action`` in the world of ``hidden`` and
        the blueprint, seeded with ``seeds`` seat by seat, plays every seat to the end."""
        hand = world(view, hidden, streams=True)
        hand.step(view.seat, action)
        for player, seed in zip(self.players, seeds):
            player.reseed(seed)
        while not hand.over:
            seat = hand.to_act[0]
            seen = hand.view(seat)
            hand.step(seat, self.players[seat].choose(seen, seen.legal))
        return hand.result.deltas[view.seat]
