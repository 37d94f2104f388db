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

Ties are broken by the agent's seeded generator, so play is deterministic given the seed.
Per-hand work is memoised (suit tables, wait scoring) and the observation planes are never
needed (``needs_observation = False``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Sequence

import numpy as np

from agents.base import BaseAgent
from agents.heuristic.defence import DefenceParams, threats, tile_dangers
from agents.heuristic.plans import (FREE, PAIRS, Plan, PlanState, candidate_plans,
                                   plan_distance)
from agents.heuristic.tables import INF
from mjenv.game.actions import Action
from mjenv.game.view import PlayerView
from mjenv.tiles import Meld


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
    danger: DefenceParams = field(default_factory=DefenceParams)

    @classmethod
    def efficiency_only(cls) -> "HeuristicParams":
        """``heuristic:efficiency``: tile efficiency only (no value plans, no defence)."""
        return cls(value_planning=False, defence=False)


# One evaluated hand state: (distance, ukeire-or-wait weight).
Eval = tuple[float, float]

# Memo tables shared by every heuristic agent of the process. Entries are pure functions of
# their keys (no randomness, no parameters), so sharing them changes no decision; it lets the
# four rotations of a duplicate deal, which replay many of the same hands, reuse the work.
# Plan objects are kept for the life of the process, so their ids are stable memo keys.
_PLANS: dict[tuple, list[Plan]] = {}
_DIST: dict[tuple[int, bytes, int], int] = {}
_WAITS: dict[tuple, tuple[tuple[int, bool, bool], ...]] = {}
_UKEIRE: dict[tuple, tuple[int, ...]] = {}
_MEMO_LIMIT = 300_000


def _remember(table: dict, key, value):
    if len(table) >= _MEMO_LIMIT:
        table.clear()
    table[key] = value
    return value


class HeuristicAgent(BaseAgent):
    """Rule-based player; see the module docstring for the decision outline."""

    name = "heuristic"
    needs_observation = False

    def __init__(self, params: HeuristicParams | None = None, seed: int | None = None) -> None:
        self.params = params or HeuristicParams()
        self._rng = np.random.default_rng(seed)

    def reseed(self, seed: int | None) -> None:
        """Restart the tie-break generator (the harness seeds every hand)."""
        self._rng = np.random.default_rng(seed)

    # --- protocol -----------------------------------------------------------------------

    def act(self, observation: np.ndarray | None, mask: np.ndarray, view: PlayerView) -> int:
        from mjenv.env.actions import encode_action
        ids = {}
        for a in view.legal:
            aid = encode_action(a, view)
            if mask[aid]:
                ids[a] = aid
        if not ids:
            raise ValueError(f"heuristic agent: no legal action in the mask (seat {view.seat}, "
                             f"phase {view.phase})")
        return ids[self.choose(view, tuple(ids))]

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The chosen engine action among ``legal`` (a subset of ``view.legal``)."""
        for a in legal:
            if a.kind in ("tsumo", "ron"):
                return a
        if view.phase == "turn":
            return self._turn(view, legal)
        if view.phase == "claim":
            return self._claim(view, legal)
        return next(a for a in legal if a.kind == "pass")

    # --- evaluation ---------------------------------------------------------------------

    def _plan_list(self, melds: tuple[Meld, ...]) -> list[Plan]:
        key = (tuple((m.kind, m.tiles) for m in melds), self.params.value_planning)
        plans = _PLANS.get(key)
        if plans is None:
            plans = _PLANS[key] = candidate_plans(melds, self.params.value_planning)
        return plans

    @staticmethod
    def _dist(plan: Plan, counts: list[int], key: bytes, groups: int,
              melds: tuple[Meld, ...], bound: int = INF) -> int:
        """``plan_distance``, memoised (a result cut short by ``bound`` is not)."""
        memo_key = (id(plan), key, groups)
        d = _DIST.get(memo_key)
        if d is None:
            d = plan_distance(plan, counts, key, groups, melds, bound=bound)
            if d < INF or bound >= INF:
                _remember(_DIST, memo_key, d)
        return d

    def _penalty(self, plan: Plan, min_points: int) -> float | None:
        if not self.params.value_planning or plan.points >= min_points:
            return 0.0
        if plan.points + self.params.soft_margin >= min_points:
            return self.params.soft_penalty
        return None

    def _scored_plans(self, melds: tuple[Meld, ...], min_points: int, hard_only: bool = False
                      ) -> list[tuple[Plan, float]]:
        """(plan, penalty) for every plan the melds leave open and the value rule admits
        (``hard_only``: only plans whose points reach ``min_points``)."""
        out = []
        for plan in self._plan_list(melds):
            pen = self._penalty(plan, min_points)
            if pen is not None and not (hard_only and pen > 0):
                out.append((plan, pen))
        return out

    def _shortlist(self, counts: list[int], melds: tuple[Meld, ...], min_points: int,
                   hard_only: bool = False) -> list[tuple[Plan, float]]:
        """Plans worth evaluating for a hand about to lose one tile (a 14-tile-equivalent hand,
        or one about to call): a plan ``d`` tiles away now is ``d`` or ``d + 1`` away after the
        discard, so plans more than one tile behind the best cannot win and are dropped."""
        key = bytes(counts)
        groups = 4 - len(melds)
        scored = []
        best = float(INF)
        for plan, pen in self._scored_plans(melds, min_points, hard_only):
            d = self._dist(plan, counts, key, groups, melds, bound=int(best + 1.0 - pen))
            if d < INF:
                scored.append((d + pen, plan, pen))
                best = min(best, d + pen)
        if not scored:
            return []
        best = min(v for v, _, _ in scored)
        return [(plan, pen) for v, plan, pen in scored if v <= best + 1.0]

    def _distances(self, counts: list[int], melds: tuple[Meld, ...],
                   plans: list[tuple[Plan, float]]) -> tuple[float, int]:
        """(value distance over ``plans``, plain distance: standard shape or seven pairs)."""
        key = bytes(counts)
        groups = 4 - len(melds)
        best = float(INF)
        for plan, pen in plans:
            best = min(best, self._dist(plan, counts, key, groups, melds) + pen)
        plain = self._dist(FREE, counts, key, groups, melds)
        if not melds:
            plain = min(plain, self._dist(PAIRS, counts, key, groups, melds))
        return min(best, float(INF)), plain

    def _legal_waits(self, counts: list[int], melds: tuple[Meld, ...], view: PlayerView
                     ) -> tuple[tuple[int, bool, bool], ...]:
        """Waits of a ready 13-tile-equivalent hand with (ron legal, tsumo legal) each."""
        key = (bytes(counts), tuple((m.kind, m.tiles) for m in melds), view.seat_wind,
               view.round_wind, view.rules.min_points)
        hit = _WAITS.get(key)
        if hit is not None:
            return hit
        from mjenv.analysis import wait_kinds
        from mjenv.scoring import WinContext, score
        hand = [t for t in range(34) for _ in range(counts[t])]
        out = []
        for w in wait_kinds(counts, melds):
            ok = []
            for tsumo in (False, True):
                ctx = WinContext(tsumo=tsumo, seat_wind=view.seat_wind,
                                 round_wind=view.round_wind)
                try:
                    pts = score(hand, w, melds, ctx).points
                except ValueError:
                    pts = -1
                ok.append(pts >= view.rules.min_points)
            out.append((w, ok[0], ok[1]))
        return _remember(_WAITS, key, tuple(out))

    def _evaluate(self, counts: list[int], melds: tuple[Meld, ...], view: PlayerView,
                  plans: list[tuple[Plan, float]] | None) -> Eval:
        """(distance, legal-wait weight) of a 13-tile-equivalent concealed hand; lower distance
        is better, then higher weight. ``plans``: the plans to consider (``None``: all)."""
        p = self.params
        if plans is None:
            plans = self._scored_plans(melds, view.rules.min_points)
        dist, plain = self._distances(counts, melds, plans)
        if p.value_planning and plain <= 1:
            weight = self._wait_weight(counts, melds, view)
            if weight > 0:
                return 1.0, weight
            dist = max(dist, 2.0)
        return dist, 0.0

    def _wait_weight(self, counts: list[int], melds: tuple[Meld, ...], view: PlayerView
                     ) -> float:
        """Unseen copies of the legal winning tiles of a ready hand (ron-weighted)."""
        share = self.params.ron_share
        return sum(view.unseen[w] * (share * r + (1 - share) * s)
                   for w, r, s in self._legal_waits(counts, melds, view))

    def _ukeire(self, counts: list[int], melds: tuple[Meld, ...],
                at_best: list[tuple[Plan, float]], view: PlayerView) -> float:
        """Unseen tiles that bring some best plan one tile closer."""
        key = (tuple(id(plan) for plan, _ in at_best), bytes(counts), len(melds))
        tiles = _UKEIRE.get(key)
        if tiles is None:
            tiles = _remember(_UKEIRE, key, self._improving(counts, melds, at_best))
        return float(sum(view.unseen[t] for t in tiles))

    @staticmethod
    def _improving(counts: list[int], melds: tuple[Meld, ...],
                   at_best: list[tuple[Plan, float]]) -> tuple[int, ...]:
        """Kinds (near the hand, not held four times) whose draw shortens some best plan."""
        groups = 4 - len(melds)
        states = [PlanState(plan, counts, groups, melds) for plan, _ in at_best]
        near = set()
        for t in range(34):
            if counts[t]:
                near.add(t)
                if t < 27:
                    r = t % 9
                    near.update(t + dr for dr in (-2, -1, 1, 2) if 0 <= r + dr <= 8)
        for plan, _ in at_best:
            near.update(plan.forced)
            if plan.shape == "five":
                near.update(range(27, 34))
        return tuple(t for t in sorted(near)
                     if counts[t] < 4 and any(st.changed(t, 1) < st.base for st in states))

    def _pick(self, options: list[tuple[float, Action]]) -> Action:
        best = max(u for u, _ in options)
        tied = [a for u, a in options if u >= best - 1e-9]
        return tied[int(self._rng.integers(len(tied)))] if len(tied) > 1 else tied[0]

    def _discard_evals(self, counts: list[int], melds: tuple[Meld, ...], view: PlayerView,
                       tiles: Sequence[int], plans: list[tuple[Plan, float]],
                       ukeire: bool = True) -> dict[int, Eval]:
        """(distance, weight) after discarding each kind in ``tiles`` from a hand holding one
        tile more than 13-equivalent. Weights (ukeire, or the legal-wait weight at tenpai) are
        computed only where several discards share the best distance: they break ties."""
        p = self.params
        groups = 4 - len(melds)
        states = [(PlanState(plan, counts, groups, melds), pen) for plan, pen in plans]
        plain_states = [PlanState(FREE, counts, groups, melds)]
        if not melds:
            plain_states.append(PlanState(PAIRS, counts, groups, melds))
        evals: dict[int, Eval] = {}
        best_plans: dict[int, list[tuple[Plan, float]]] = {}
        for t in tiles:
            best = float(INF)
            at_best: list[tuple[Plan, float]] = []
            for st, pen in states:
                v = st.changed(t, -1) + pen
                if v < best - 1e-9:
                    best, at_best = v, [(st.plan, pen)]
                elif v <= best + 1e-9:
                    at_best.append((st.plan, pen))
            weight = 0.0
            if p.value_planning and min(st.changed(t, -1) for st in plain_states) <= 1:
                counts[t] -= 1
                weight = self._wait_weight(counts, melds, view)
                counts[t] += 1
                best = 1.0 if weight > 0 else max(best, 2.0)
            evals[t] = (best, weight)
            best_plans[t] = at_best
        best_dist = min(d for d, _ in evals.values())
        tied = [t for t in tiles if evals[t][0] <= best_dist and evals[t][1] == 0.0
                and 1.0 < evals[t][0] < INF]
        if ukeire and len([t for t in tiles if evals[t][0] <= best_dist]) > 1:
            for t in tied:
                counts[t] -= 1
                evals[t] = (evals[t][0], self._ukeire(counts, melds, best_plans[t], view))
                counts[t] += 1
        return evals

    # --- own turn -----------------------------------------------------------------------

    def _turn(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        p = self.params
        counts = [0] * 34
        for t in view.hand:
            counts[t] += 1
        melds = tuple(view.melds[view.seat])
        discards = [a for a in legal if a.kind == "discard"]     # a turn always has some
        # no plan worth min_points left (rare: melds spread over every door): play efficiency
        plans = self._shortlist(counts, melds, view.rules.min_points) or [(FREE, 0.0)]
        evals = self._discard_evals(counts, melds, view, [a.tile for a in discards], plans)
        best_dist = min(d for d, _ in evals.values())
        danger = None
        if p.defence:
            threat = threats(view, p.danger)
            if max(threat) > p.danger.base_threat + 1e-9:
                danger = tile_dangers(view, threat, p.danger)
        lam = p.defence_weight * min(best_dist, 4.0) if danger is not None else 0.0
        options = []
        for a in discards:
            d, w = evals[a.tile]
            u = -d + p.ukeire_weight * math.log1p(w)
            if danger is not None:
                u -= lam * danger[a.tile]
            options.append((u, a))
        choice = self._pick(options)
        if p.kans:
            kan = self._turn_kan(view, legal, counts, melds, evals[choice.tile][0])
            if kan is not None:
                return kan
        return choice

    def _turn_kan(self, view: PlayerView, legal: Sequence[Action], counts: list[int],
                  melds: tuple[Meld, ...], discard_dist: float) -> Action | None:
        """A concealed/added kan that keeps the hand at least as close as the best discard."""
        for a in legal:
            if a.kind == "ankan":
                after = list(counts)
                after[a.tile] -= 4
                new_melds = melds + (Meld("ankan", (a.tile,) * 4),)
            elif a.kind == "kakan":
                after = list(counts)
                after[a.tile] -= 1
                new_melds = tuple(Meld("kakan", (a.tile,) * 4)
                                  if m.kind == "pon" and m.tiles[0] == a.tile else m
                                  for m in melds)
            else:
                continue
            d, _ = self._evaluate(after, new_melds, view, None)
            if d <= discard_dist:
                return a
        return None

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
        now, _ = self._evaluate(counts, melds, view, None)
        threatened = p.defence and max(threats(view, p.danger)) >= p.call_threat
        best: tuple[float, Action] | None = None
        for a in calls:
            if a.kind == "minkan" and not p.kans:
                continue
            d = self.call_distance(view, a, counts, melds)
            if a.kind == "minkan":
                ok = d <= now and any(m.is_open for m in melds)
            else:
                ok = d < now
            if ok and threatened and d > 1.0:
                ok = False
            if ok and (best is None or d < best[0]):
                best = (d, a)
        return best[1] if best is not None else pass_action

    def call_distance(self, view: PlayerView, call: Action, counts: list[int],
                      melds: tuple[Meld, ...]) -> float:
        """Value distance after the legal ``call`` (chi/pon/open kan) of the target tile, counting
        only plans worth ``min_points``: after chi/pon, the best discard's distance; after an
        open kan, the hand's. Also read by ``agents.features`` (the call-gain planes)."""
        x = view.target_tile
        after = list(counts)
        if call.kind == "chi":
            used = [t for t in (call.tile, call.tile + 1, call.tile + 2) if t != x]
            meld = Meld("chi", (call.tile, call.tile + 1, call.tile + 2), x, view.target_from)
        elif call.kind == "pon":
            used = [x, x]
            meld = Meld("pon", (x,) * 3, x, view.target_from)
        else:
            used = [x, x, x]
            meld = Meld("minkan", (x,) * 4, x, view.target_from)
        for t in used:
            after[t] -= 1
        new_melds = melds + (meld,)
        if call.kind == "minkan":
            hard = self._scored_plans(new_melds, view.rules.min_points, hard_only=True)
            return self._evaluate(after, new_melds, view, hard)[0]
        return self._best_discard_distance(after, new_melds, view)

    def _best_discard_distance(self, counts: list[int], melds: tuple[Meld, ...],
                               view: PlayerView) -> float:
        """Value distance after the best discard of a hand that just called, counting only
        plans worth ``min_points`` (a call must keep a full-value plan, not a hopeful one)."""
        shortlist = self._shortlist(counts, melds, view.rules.min_points, hard_only=True)
        if not shortlist:
            return float(INF)
        tiles = [t for t in range(34) if counts[t]]
        evals = self._discard_evals(counts, melds, view, tiles, shortlist, ukeire=False)
        return min(d for d, _ in evals.values())


def params_for(variant: str) -> HeuristicParams:
    """The preset behind ``heuristic[:variant]``."""
    if variant == "":
        return HeuristicParams()
    if variant == "efficiency":
        return HeuristicParams.efficiency_only()
    if variant == "nodefence":
        return replace(HeuristicParams(), defence=False)
    raise ValueError(f"unknown heuristic variant {variant!r}: use heuristic, "
                     f"heuristic:efficiency or heuristic:nodefence")
