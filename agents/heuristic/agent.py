"""The heuristic agent: tile efficiency, value planning, calls, defence; always takes a win.

The decisions (docs/agents.md, *Decisions*): a legal win is always taken; a turn weighs each
distinct discard by its offence (``HeuristicAgent.offence``: distance, acceptance, points) less
the defence's penalty (``defence.Defence``), and declares a kan that keeps the distance
instead; a claim is taken only when it brings the hand strictly closer to a plan worth
``min_points``. Everything reads only the seat's ``PlayerView``; ties are drawn by the
agent's seeded generator (``options`` lists what it draws from).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import NamedTuple, Sequence

import numpy as np

from agents.base import BaseAgent, legal_in_mask
from agents.heuristic.defence import Option, best_of, defence_for, expected_points
from agents.heuristic.evaluator import Discard, Evaluator
from agents.heuristic.params import HeuristicParams, default
from agents.heuristic.tables import INF
from mjenv.game.actions import Action
from mjenv.game.view import PlayerView
from mjenv.tiles import Meld, counts34


@dataclass(frozen=True)
class Rated:
    """A discard and the utility a turn weighs it by (``HeuristicAgent.rate``)."""

    action: Action
    utility: float


class Weighing(NamedTuple):
    """A turn's discards weighed: ``options`` (utility, discard) in legal order, the loss
    (risk) of those the defence measured, and whether the defence decided alone
    (``final``: the least risky discard is played, ``Defence.folds``); the discarded kinds,
    their evaluations, and the hand they come from."""

    options: list[Option]
    loss: list[float | None] | None
    final: bool
    tiles: list[int]
    evals: dict[int, Discard]
    counts: list[int]
    melds: tuple[Meld, ...]


class HeuristicAgent(BaseAgent):
    """Rule-based player; see the module docstring for the decision outline."""

    name = "heuristic"
    needs_observation = False

    def __init__(self, params: HeuristicParams | None = None, seed: int | None = None) -> None:
        self.params = params or default()
        self.evaluator = Evaluator(self.params.evaluation())
        self.defence = defence_for(self.params)
        self._rng = np.random.default_rng(seed)

    def reseed(self, seed: int | None) -> None:
        """Restart the tie-break generator (the harness seeds every hand)."""
        self._rng = np.random.default_rng(seed)

    # --- protocol -----------------------------------------------------------------------

    def act(self, observation: np.ndarray | None, mask: np.ndarray, view: PlayerView) -> int:
        legal, ids = legal_in_mask(view, mask, "heuristic")
        # ``choose`` returns one of ``legal`` itself: ``index`` finds it by identity, where a
        # dictionary hashed every action
        return ids[legal.index(self.choose(view, legal))]

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The chosen engine action among ``legal`` (a subset of ``view.legal``): one of its
        ``options``, drawn by the agent's seeded generator where there are several."""
        options = self.options(view, legal)
        return options[int(self._rng.integers(len(options)))] if len(options) > 1 else options[0]

    def options(self, view: PlayerView, legal: Sequence[Action]) -> list[Action]:
        """What the agent may play among ``legal``, each entry equally likely: the actions it
        rates equally best, which ``choose`` draws from — one entry where it is sure. An entry
        may repeat (two tied discards after each of which it would declare the same kan), so
        the list, not its set, is the agent's policy: behaviour cloning's soft targets."""
        for a in legal:
            if a.kind in ("tsumo", "ron"):
                return [a]
        if view.phase == "turn":
            return self._turn(view, legal)
        if view.phase == "claim":
            return [self._claim(view, legal)]
        return [next(a for a in legal if a.kind == "pass")]

    # --- own turn -----------------------------------------------------------------------

    def rate(self, view: PlayerView, legal: Sequence[Action] | None = None) -> list[Rated]:
        """The discards of a turn with the utility the agent weighs them by, best first (what
        a search takes its candidates from). Where the defence measured a discard's risk, its
        utility is after the penalty; a discard it left unmeasured keeps its utility before
        the penalty, which lies more than ``safe_margin`` below the best
        (``defence.penalized_best_first``). Where the defence decides alone (the final
        discard, a hopeless hand) the utility is minus the risk."""
        w = self._weigh(view, view.legal if legal is None else legal)
        return sorted((Rated(a, u) for u, a in w.options), key=lambda r: -r.utility)

    def _turn(self, view: PlayerView, legal: Sequence[Action]) -> list[Action]:
        w = self._weigh(view, legal)
        tied = best_of(w.options)
        if w.final:
            return tied
        tied = self.defence.safest(view, w.options, w.tiles, tied, w.loss)
        kans = [a for a in legal if a.kind in ("ankan", "kakan")] if self.params.kans else []
        if not kans:
            return tied
        # a kan that keeps the distance of the discard it would replace is declared instead
        return [next((k for k in kans if self.evaluator.kan_keeps(
                    view, k, w.counts, w.melds, w.evals[d.tile].dist)), d) for d in tied]

    def _weigh(self, view: PlayerView, legal: Sequence[Action]) -> Weighing:
        counts = counts34(view.hand)
        melds = tuple(view.melds[view.seat])
        discards = [a for a in legal if a.kind == "discard"]     # a turn always has some
        tiles = [a.tile for a in discards]
        evals = self.evaluator.discards(counts, melds, view, tiles,
                                        ukeire=self.params.acceptance)
        if self.defence.folds(view, evals, len(melds)):
            loss = self.defence.loss(view, tiles)
            return Weighing([(-x, a) for x, a in zip(loss, discards)], loss, True, tiles,
                            evals, counts, melds)
        least = max(1, view.rules.min_points)
        options = [(self.offence(evals[a.tile], least), a) for a in discards]
        options, loss = self.defence.penalize(view, tiles, evals, len(melds), options)
        return Weighing(options, loss, False, tiles, evals, counts, melds)

    def offence(self, e: Discard, least: int) -> float:
        """A discard's utility before the defence: minus its distance, plus the weighed log
        acceptance and log points (over ``least``, the least points a win needs)."""
        p = self.params
        u = -e.dist + p.ukeire_weight * math.log1p(e.weight)
        if p.value_weight and e.dist < INF:
            u += p.value_weight * math.log(max(expected_points(e, p.gain), least) / least)
        return u

    # --- claims -------------------------------------------------------------------------

    def _claim(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The call that brings the hand strictly closer (an open kan: no further, in a hand
        already open), the closest first; else pass. None that leaves the hand short of
        tenpai while the defence restrains calls."""
        p = self.params
        pass_action = next(a for a in legal if a.kind == "pass")
        calls = [a for a in legal if a.kind in ("pon", "chi", "minkan")
                 and (p.kans or a.kind != "minkan")]
        if not p.calls or not calls or view.target_tile is None:
            return pass_action
        counts = counts34(view.hand)
        melds = tuple(view.melds[view.seat])
        now, _ = self.evaluator.hand(counts, melds, view)
        # asked once, and only where a call depends on it
        restrains = functools.cache(lambda: self.defence.restrains_calls(view))

        # a chi or pon gains one tile, then a discard: at best one tile closer, and a hand
        # that has discarded is never complete, so none can help a ready hand, nor bring a
        # restrained hand to tenpai from 3 or more
        if now <= 1.0 or (now >= 3.0 and restrains()):
            calls = [a for a in calls if a.kind == "minkan"]
        closer: list[tuple[float, Action]] = []
        for a in calls:
            d = self.evaluator.after_call(view, a, counts)
            ok = d <= now and any(m.is_open for m in melds) if a.kind == "minkan" else d < now
            if ok and not (d > 1.0 and restrains()):
                closer.append((d, a))
        return min(closer, key=lambda c: c[0])[1] if closer else pass_action
