"""The heuristic agent: tile efficiency, value planning, calls, defence; always takes a win.

Decision outline (every part reads only the seat's ``PlayerView``):

1. A legal ``tsumo`` or ``ron`` in the mask is always taken: the engine only offers wins that
   reach ``min_points``.
2. Own turn: every distinct discard is scored by
   ``utility = -value_distance + ukeire_weight·log(1 + ukeire) - λ·danger``.
   *value_distance* is the tiles-needed distance to the nearest plan worth ``min_points``
   (``plans``); at tenpai it is replaced by the exact answer — each wait is scored with the real
   scorer (ron and tsumo) and only waits that are legal wins count. *ukeire* counts the unseen
   tiles that shorten that distance (at tenpai: the unseen legal winning tiles). *danger* is the
   threat-weighted danger of the tile (``defence``); λ grows with the hand's distance, so a far
   hand folds against a threatening table and a ready hand pushes. Concealed/added kans are
   declared when they do not lengthen the distance.
3. Claims (chi/pon/open kan): taken only when the best hand after the call is strictly closer
   to a plan worth ``min_points`` than the hand now (open hands lose 门清 and 七对子), and not
   when the table is threatening and the call leaves the hand short of tenpai.

Ties are broken by the agent's seeded generator (``options`` lists what it draws from), so play is
deterministic given the seed.
The evaluators (``evaluator``) memoise per-hand work process-wide and the observation planes
are never needed (``needs_observation = False``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple, Sequence

import numpy as np

from agents.base import BaseAgent, legal_in_mask
from agents.heuristic.defence import threats, tile_dangers
from agents.heuristic.evaluator import Discard, Evaluator
from agents.heuristic.params import HeuristicParams, default
from agents.heuristic.models import (LIVE_WALL, Field, field, ready_probability, risk,
                                     risk_bound, win_probability, with_passed)
from agents.heuristic.tables import INF
from mjenv.game.actions import Action
from mjenv.game.view import PlayerView


@dataclass(frozen=True)
class Rated:
    """A discard and the utility a turn weighs it by (``HeuristicAgent.rate``)."""

    action: Action
    utility: float


class _Weighing(NamedTuple):
    """A turn's discards weighed: ``options`` (utility, discard) in legal order, the risk of
    those the defence measured (``loss``), and whether risk alone decided (``final``)."""

    options: list[tuple[float, Action]]
    loss: list[float | None] | None
    final: bool
    tiles: list[int]
    evals: dict[int, Discard]
    counts: list[int]
    melds: tuple


class HeuristicAgent(BaseAgent):
    """Rule-based player; see the module docstring for the decision outline."""

    name = "heuristic"
    needs_observation = False

    def __init__(self, params: HeuristicParams | None = None, seed: int | None = None) -> None:
        self.params = params or default()
        self.evaluator = Evaluator(self.params.evaluation())
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
        self.evaluator.begin()
        for a in legal:
            if a.kind in ("tsumo", "ron"):
                return [a]
        if view.phase == "turn":
            return self._turn(view, legal)
        if view.phase == "claim":
            return [self._claim(view, legal)]
        return [next(a for a in legal if a.kind == "pass")]

    @staticmethod
    def _best(options: list[tuple[float, Action]]) -> list[Action]:
        best = max(u for u, _ in options)
        return [a for u, a in options if u >= best - 1e-9]

    # --- own turn -----------------------------------------------------------------------

    def _turn(self, view: PlayerView, legal: Sequence[Action]) -> list[Action]:
        p = self.params
        w = self._weigh(view, legal)
        tied = self._best(w.options)
        if w.final:
            return tied
        if p.defence and p.defence_model == "risk" and len(w.options) > 1:
            tied = self._safest(view, w.options, w.tiles, tied, w.loss)
        kans = [a for a in legal if a.kind in ("ankan", "kakan")] if p.kans else []
        if not kans:
            return tied
        # a kan that keeps the distance of the discard it would replace is declared instead
        return [next((k for k in kans if self.evaluator.kan_keeps(
                    view, k, w.counts, w.melds, w.evals[d.tile].dist)), d) for d in tied]

    def rate(self, view: PlayerView, legal: Sequence[Action] | None = None) -> list[Rated]:
        """The discards of a turn with the utility the agent weighs them by, best first (what
        a search takes its candidates from). Where the defence measured a discard's risk, its
        utility is after the penalty; a discard it left unmeasured keeps its utility before
        the penalty, which lies more than ``safe_margin`` below the best. On the final discard
        and in a hopeless hand the utility is minus the risk."""
        self.evaluator.begin()
        w = self._weigh(view, view.legal if legal is None else legal)
        return sorted((Rated(a, u) for u, a in w.options), key=lambda r: -r.utility)

    def _weigh(self, view: PlayerView, legal: Sequence[Action]) -> _Weighing:
        p = self.params
        counts = [0] * 34
        for t in view.hand:
            counts[t] += 1
        melds = tuple(view.melds[view.seat])
        discards = [a for a in legal if a.kind == "discard"]     # a turn always has some
        tiles = [a.tile for a in discards]
        evals = self.evaluator.discards(counts, melds, view, tiles, ukeire=p.acceptance)
        least = max(1, view.rules.min_points)
        if p.defence and p.defence_model == "risk" and (
                view.live_wall_left == 0 or self._hopeless(view, evals, len(melds))):
            # the final discard (no draw follows it) or a hand that will not win: its shape is
            # worth nothing, and the least risk decides
            loss = risk(view, p.risk, tiles, p.ready_floor)
            return _Weighing([(-x, a) for x, a in zip(loss, discards)], loss, True, tiles,
                             evals, counts, melds)
        options = []
        ukeire_weight, value_weight = p.ukeire_weight, p.value_weight
        for a in discards:
            e = evals[a.tile]
            u = -e.dist + ukeire_weight * math.log1p(e.weight)
            if value_weight and e.dist < INF:
                u += value_weight * math.log(max(self._points(e), least) / least)
            options.append((u, a))
        loss = None
        if p.defence:
            options, loss = self._defence(view, tiles, evals, len(melds), options)
        return _Weighing(options, loss, False, tiles, evals, counts, melds)

    def _hopeless(self, view: PlayerView, evals: dict[int, Discard], melds: int) -> bool:
        """Whether even the best discard leaves a hand less than ``fold_below`` likely to
        win (the win model), so that offence has nothing left to lose."""
        p = self.params
        if p.fold_below <= 0:
            return False
        best = min(evals.values(), key=lambda e: e.dist)
        if best.dist < 3:
            return False
        accept = max(e.weight for e in evals.values() if e.dist == best.dist)
        progress = 1.0 - view.live_wall_left / LIVE_WALL
        return win_probability(p.win, best.dist, accept, progress, melds) < p.fold_below

    def _safest(self, view: PlayerView, options: list[tuple[float, Action]],
                tiles: Sequence[int], tied: list[Action], loss: list[float | None] | None
                ) -> list[Action]:
        """Among the discards within ``safe_margin`` of the best utility, the least risky
        (``models.risk``; ``loss``, where the defence penalty already measured it: of every
        discard within reach), best utility first: safety bought at no more than that margin
        of offence. Where no discard in reach is riskier than another, ``tied`` unchanged."""
        p = self.params
        best = max(u for u, _ in options)
        near = [j for j, (u, _) in enumerate(options) if u >= best - p.safe_margin - 1e-9]
        if len(near) < 2:
            return tied
        loss = risk(view, p.risk, [tiles[j] for j in near], p.ready_floor) if loss is None \
            else [loss[j] for j in near]
        least = min(loss)
        if max(loss) <= least + 1e-9:
            return tied
        return self._best([options[j] for j, x in zip(near, loss) if x <= least + 1e-9])

    def _points(self, e: Discard) -> float:
        """The points a hand left by a discard may expect from a win: at tenpai its legal
        wins'; otherwise ``gain`` applied to its best plan's floor."""
        return e.points if e.ready else self.params.gain[0] + self.params.gain[1] * e.points

    def _defence(self, view: PlayerView, tiles: Sequence[int], evals: dict[int, Discard],
                 melds: int, options: list[tuple[float, Action]]
                 ) -> tuple[list[tuple[float, Action]], list[float | None] | None]:
        """``options`` (utility, discard) less each discard's defence penalty, in tiles of
        distance, and the risk (``models.risk``) of the discards where it was measured (for
        ``_safest``; None elsewhere).

        v1: λ · Σ threat × danger (``defence.py``), λ = ``defence_weight`` × the best
        distance (capped at 4), applied only once some threat exceeds the base threat.
        ``"risk"``: ``risk_weight`` × the expected extra loss of dealing in (``models.risk``,
        points) over what the hand left by the discard stands to win — P(win) · 3 · points,
        at least ``stake_floor`` — so a far or cheap hand folds and a valuable ready one
        pushes. A penalty only lowers a utility, so it is measured best-first: once the
        discards measured include one of utility ``u`` after its penalty, a discard whose
        utility before any penalty is below ``u − safe_margin`` can be neither the best nor
        within the safe band, and keeps its utility unmeasured (most of a turn's discards).
        Where one discard alone is in reach and stays clear of the rest whatever the risks
        (``_clear``), none is measured, and the walk along the discard order that finds the
        tiles safe against each seat is not made."""
        p = self.params
        if p.defence_model == "v1":
            threat = threats(view, p.danger)
            if max(threat) <= p.danger.base_threat + 1e-9:
                return options, None
            danger = tile_dangers(view, threat, p.danger, tiles)
            lam = p.defence_weight * min(min(e.dist for e in evals.values()), 4.0)
            return [(u - lam * danger[t], a) for (u, a), t in zip(options, tiles)], None
        if p.risk_weight == 0:
            return options, None
        known = field(view, p.risk, p.ready_floor, passed=False)
        if not known.seats:
            return options, [0.0] * len(tiles)
        progress = 1.0 - view.live_wall_left / LIVE_WALL
        out = list(options)
        loss: list[float | None] = [None] * len(tiles)
        reach = max(u for u, _ in options)
        todo = [j for j, (u, _) in enumerate(options) if u >= reach - p.safe_margin - 1e-9]
        if len(todo) == 1 and self._clear(view, known, options, todo[0], evals[tiles[todo[0]]],
                                          progress, melds):
            return options, None
        known = with_passed(view, known)            # once, for every round of the loop
        while todo:
            for j, x in zip(todo, risk(view, p.risk, [tiles[j] for j in todo], p.ready_floor,
                                       known)):
                u, a = options[j]
                out[j] = (u - p.risk_weight * x / max(
                    self._stake(evals[tiles[j]], progress, melds), p.stake_floor), a)
                loss[j] = x
            reach = max(u for (u, _), x in zip(out, loss) if x is not None)
            todo = [j for j, (u, _) in enumerate(options)
                    if loss[j] is None and u >= reach - p.safe_margin - 1e-9]
        return out, loss

    def _stake(self, e: Discard, progress: float, melds: int) -> float:
        """What the hand a discard leaves stands to win: 3 · its points · P(win)."""
        return 3.0 * self._points(e) * win_probability(
            self.params.win, e.dist, e.weight, progress, melds) if e.dist < INF else 0.0

    def _clear(self, view: PlayerView, known: Field, options: list[tuple[float, Action]],
               best: int, e: Discard, progress: float, melds: int) -> bool:
        """Whether discard ``best`` (``e``), alone within the safe margin of the best utility,
        stays the one choice whatever the risks: even the most it could lose (``risk_bound``:
        every ready opponent winning on it) leaves it more than the margin clear of every
        other discard's utility before its own penalty, which can only lower it. Then no tile
        need be measured: ``_best`` and ``_safest`` pick it alone either way."""
        p = self.params
        floor = options[best][0] - p.risk_weight * risk_bound(view, known) / max(
            self._stake(e, progress, melds), p.stake_floor)
        return all(u + p.safe_margin + 1e-6 < floor
                   for j, (u, _) in enumerate(options) if j != best)

    def _threat(self, view: PlayerView) -> float:
        """The most threatening opponent's threat: v1's 0–1 score, or P(ready) from the
        risk model."""
        p = self.params
        if p.defence_model == "v1":
            return max(threats(view, p.danger))
        return max(ready_probability(view, p.risk, o) for o in range(4) if o != view.seat)

    # --- claims -------------------------------------------------------------------------

    def _claim(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        p = self.params
        pass_action = next(a for a in legal if a.kind == "pass")
        calls = [a for a in legal if a.kind in ("pon", "chi", "minkan")]
        if not p.calls or not calls or view.target_tile is None:
            return pass_action
        counts = [0] * 34
        for t in view.hand:
            counts[t] += 1
        melds = tuple(view.melds[view.seat])
        now, _ = self.evaluator.hand(counts, melds, view)
        asked: list[bool] = []

        def threatened() -> bool:
            """Whether some opponent's threat reaches ``call_threat`` (measured once, and
            only where a call's fate depends on it)."""
            if not asked:
                asked.append(p.defence and self._threat(view) >= p.call_threat)
            return asked[0]

        # a chi or pon gains one tile, then a discard: at best one tile closer, never below 1;
        # so none can help a ready hand, nor bring a threatened hand to tenpai from 3 or more
        hopeless = now <= 1.0 or (now >= 3.0 and threatened())
        # nor any, often, where the last hand weighed shows the tile brings no plan closer
        short = hopeless or self.evaluator.calls_fall_short(
            view, [a for a in calls if a.kind != "minkan"], counts, now)
        best: tuple[float, Action] | None = None
        for a in calls:
            if a.kind == "minkan" and not p.kans or a.kind != "minkan" and short:
                continue
            d = self.evaluator.after_call(view, a, counts)
            if a.kind == "minkan":
                ok = d <= now and any(m.is_open for m in melds)
            else:
                ok = d < now
            if ok and d > 1.0 and threatened():
                ok = False
            if ok and (best is None or d < best[0]):
                best = (d, a)
        return best[1] if best is not None else pass_action
