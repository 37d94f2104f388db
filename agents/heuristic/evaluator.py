"""The heuristic's evaluators (``Evaluator``): what a hand is worth before and after each
possible action — its discards, the hand as it stands, a call, a kan — read by the agent and by
the analysis planes of the PPO network (``agents.features``).

Everything comes from one evaluation of the whole plan list on the hand (``plans.PlanEval``):
each plan's distance, and the masks of the kinds surplus to it and wanted once each surplus
kind is gone — no loop over tiles asks the tables again. The evaluations, the plan lists and
the scored waits are plain functions of immutable inputs, cached on the whole input
(``functools.lru_cache``): agents with different parameters share them safely.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple, Sequence

from agents.heuristic.plans import (ALL34, PlanEval, PlanList, candidate_plans, full_bits,
                                    held_bits, less_one, meld_key)
from agents.heuristic.tables import INF, ranks_of
from mjenv.analysis import wait_kinds
from mjenv.game.actions import Action
from mjenv.game.view import PlayerView
from mjenv.scoring import WinContext, score
from mjenv.tiles import Meld

TIE = 1e-9
"""Two utilities, distances or risks closer than this are equal: they are float sums of
penalties, logarithms and products, where one order of adding gives another last bit."""


@dataclass(frozen=True)
class EvalParams:
    """The parameters the evaluators read (a view of ``HeuristicParams``)."""

    value_planning: bool
    soft_margin: int
    soft_penalty: float
    ron_share: float
    loose_tables: bool
    knitted: bool = False


class Discard(NamedTuple):
    """One discard's evaluation: value distance after it, its weight (ukeire, or the
    legal-wait weight at tenpai; 0 where not computed), whether it leaves a ready hand with a
    legal wait, and the points the hand is aiming at (the best plan's floor, or at tenpai the
    legal wins' points, ron-weighted; 0 where not computed)."""

    dist: float
    weight: float
    ready: bool
    points: float = 0.0


class Admitted(NamedTuple):
    """Which plans of a list the value rule admits, with their penalties (in tiles)."""

    plans: tuple[int, ...]
    penalty: tuple[float, ...]


class Wait(NamedTuple):
    """A wait of a ready hand and the points of a win on it by ron and by tsumo (-1 where it
    is no win)."""

    tile: int
    ron: int
    tsumo: int


class Standing(NamedTuple):
    """A 14-tile hand's plans before its discard: the best value (distance plus penalty),
    ``top`` the (value, plan) at it and ``near`` those up to a tile behind, ``kept`` the kinds
    surplus to a plan at the best value (their discard keeps it), ``ready`` the kinds whose
    discard may leave a plain shape one tile from complete (the scorer decides those)."""

    best: float
    top: list[tuple[float, int]]
    near: list[tuple[float, int]]
    kept: int
    ready: int


@lru_cache(maxsize=1 << 12)
def plan_list(melds: tuple[tuple[str, tuple[int, ...]], ...], value_planning: bool, loose: bool,
              knitted: bool) -> PlanList:
    """The compiled plans open to the melds ``(kind, tiles)``."""
    return _compiled(candidate_plans(melds, value_planning, loose, knitted), 4 - len(melds))


@lru_cache(maxsize=1 << 10)
def _compiled(plans: tuple, groups: int) -> PlanList:
    """One compiled list per distinct plan list: meld sets that leave the same plans open
    (a pung of 2m or of 7m) share it."""
    return PlanList(plans, groups)


@lru_cache(maxsize=256)
def evaluate(plans: PlanList, counts: bytes, melds: tuple[Meld, ...]) -> PlanEval:
    """``plans`` on concealed ``counts`` with ``melds`` declared."""
    return PlanEval(plans, counts, melds)


@lru_cache(maxsize=1 << 12)
def admitted(plans: PlanList, min_points: int, hard_only: bool, value_planning: bool,
             soft_margin: int, soft_penalty: float) -> Admitted:
    """The value rule: plans whose points reach ``min_points``, and unless ``hard_only``
    those within ``soft_margin`` points, as if ``soft_penalty`` tiles further away; without
    value planning, every plan."""
    chosen, penalty = [], []
    for i, plan in enumerate(plans.plans):
        if not value_planning or plan.points >= min_points:
            chosen.append(i)
            penalty.append(0.0)
        elif not hard_only and plan.points + soft_margin >= min_points:
            chosen.append(i)
            penalty.append(soft_penalty)
    return Admitted(tuple(chosen), tuple(penalty))


@lru_cache(maxsize=1 << 16)
def legal_waits(counts: bytes, melds: tuple[Meld, ...], seat_wind: int, round_wind: int
                ) -> tuple[Wait, ...]:
    """The waits of a ready 13-tile-equivalent hand, each scored by the rule engine as a ron
    and as a tsumo in these winds."""
    hand = [t for t in range(34) for _ in range(counts[t])]
    out = []
    for w in wait_kinds(list(counts), melds):
        points = []
        for tsumo in (False, True):
            try:
                points.append(score(hand, w, melds, WinContext(
                    tsumo=tsumo, seat_wind=seat_wind, round_wind=round_wind)).points)
            except ValueError:
                points.append(-1)
        out.append(Wait(w, *points))
    return tuple(out)


def _values(dist: Sequence[int], adm: Admitted) -> list[tuple[float, int]]:
    """(distance plus penalty, plan) of each admitted plan within reach."""
    return [(dist[i] + pen, i) for i, pen in zip(adm.plans, adm.penalty) if dist[i] < INF]


class Evaluator:
    """The evaluators of one parameter set (see the module docstring)."""

    def __init__(self, params: EvalParams) -> None:
        self.params = params

    def evaluated(self, counts: Sequence[int], melds: Sequence[Meld], view: PlayerView,
                  hard_only: bool = False) -> tuple[PlanEval, Admitted]:
        """The plans open to ``melds`` on concealed ``counts``, and those the value rule
        admits (``admitted``)."""
        p = self.params
        plist = plan_list(meld_key(melds), p.value_planning, p.loose_tables, p.knitted)
        return evaluate(plist, bytes(counts), tuple(melds)), admitted(
            plist, view.rules.min_points, hard_only, p.value_planning, p.soft_margin,
            p.soft_penalty)

    # --- waits ----------------------------------------------------------------------------

    def wait_value(self, counts: Sequence[int], melds: Sequence[Meld], view: PlayerView
                   ) -> tuple[float, float]:
        """(weight, points) of a ready hand: the unseen copies of its legal winning tiles,
        ron-weighted (``ron_share`` for a legal ron, the rest for a legal tsumo), and the
        points of its wins averaged with the same weights."""
        share = self.params.ron_share
        least = view.rules.min_points
        weight = points = 0.0
        for w in legal_waits(bytes(counts), tuple(melds), view.seat_wind, view.round_wind):
            for part, pts in ((share, w.ron), (1 - share, w.tsumo)):
                if pts >= least:
                    weight += view.unseen[w.tile] * part
                    points += view.unseen[w.tile] * part * pts
        return weight, (points / weight if weight > 0 else 0.0)

    # --- a hand as it stands --------------------------------------------------------------

    def hand(self, counts: Sequence[int], melds: Sequence[Meld], view: PlayerView,
             hard_only: bool = False) -> tuple[float, float]:
        """(distance, legal-wait weight) of a 13-tile-equivalent hand: the value distance
        over the admitted plans; at tenpai 1 with the wait weight, or at least 2 when no wait
        is a legal win."""
        best, ready = self._best_value(*self.evaluated(counts, melds, view, hard_only))
        if ready:
            weight = self.wait_value(counts, melds, view)[0]
            if weight > 0:
                return 1.0, weight
            best = max(best, 2.0)
        return best, 0.0

    def _best_value(self, ev: PlanEval, adm: Admitted) -> tuple[float, bool]:
        """The best value of an evaluated hand over the admitted plans (``INF``: none within
        reach), and whether a plain shape is within a tile of complete (the scorer decides)."""
        best = float(min(min((v for v, _ in _values(ev.dist, adm)), default=INF), INF))
        ready = self.params.value_planning and min((ev.dist[i] for i in ev.plist.plain),
                                                   default=INF) <= 1
        return best, ready

    def acceptance(self, counts: Sequence[int], melds: Sequence[Meld], view: PlayerView
                   ) -> tuple[float, float]:
        """(distance, acceptance) of a 13-tile-equivalent hand: as :meth:`hand`, with the
        unseen tiles that would bring one of the best plans a tile closer (kinds near the
        hand) where it is not ready."""
        dist, weight = self.hand(counts, melds, view)
        if weight > 0 or dist >= INF:
            return dist, weight
        ev, adm = self.evaluated(counts, melds, view)
        chosen = [i for _, i in self._standing(ev, adm, hard_only=False).top]
        need = 0
        for i in chosen:
            need |= ev.bits(i).need
        need &= _near(held_bits(counts), [ev.plist.plans[i] for i in chosen]) \
            & ~full_bits(counts)
        return dist, float(_weigh(need, view.unseen))

    # --- discards -------------------------------------------------------------------------

    def discards(self, counts: Sequence[int], melds: Sequence[Meld], view: PlayerView,
                 tiles: Sequence[int], hard_only: bool = False, ukeire: str | None = "ties"
                 ) -> dict[int, Discard]:
        """Each discard of ``tiles`` from a hand holding one tile more than 13-equivalent.

        The distance after discarding ``t`` is, per plan, the plan's value now (distance plus
        penalty), plus one unless ``t`` is surplus to it; the best admitted plan decides (with
        no admitted plan reachable, plain efficiency). Where the plain shape is one tile from
        complete the scorer decides instead: 1 with the legal-wait weight, else at least 2.
        Weights of the other discards (ukeire over the plans at the best value, ``_ukeire``)
        are computed, with ``ukeire="ties"``, only where several discards share the best
        distance (they break ties: ``heuristic:v1``); with ``"all"``, for every discard, with
        the plan points; with None, not at all."""
        ev, adm = self.evaluated(counts, melds, view, hard_only)
        standing = self._standing(ev, adm, hard_only)
        if standing is None:
            return {t: Discard(float(INF), 0.0, False) for t in tiles}
        out = {t: self._discard(ev, standing, t, view) for t in tiles}
        low = min(e.dist for e in out.values())
        if ukeire == "ties" and sum(e.dist == low for e in out.values()) > 1:
            todo = [t for t, e in out.items() if e.dist <= low and e.weight == 0.0
                    and 1.0 < e.dist < INF]
        elif ukeire == "all":
            todo = [t for t, e in out.items() if e.weight == 0.0 and e.dist < INF]
        else:
            return out
        held, full = held_bits(ev.counts), full_bits(ev.counts)
        for t in todo:
            weight, points = self._ukeire(ev, standing, t, held, full, ukeire == "all", view)
            out[t] = Discard(out[t].dist, weight, False, points)
        return out

    def _discard(self, ev: PlanEval, standing: Standing, t: int, view: PlayerView) -> Discard:
        """A discard of ``t`` before its ukeire: its value, or where it may leave a plain shape
        one tile from complete, the scorer's answer (1 with the legal-wait weight, else at
        least 2)."""
        d = self._value_after(ev, standing, t)
        if not standing.ready >> t & 1:
            return Discard(d, 0.0, False)
        w, pts = self.wait_value(less_one(ev.counts, t), ev.melds, view)
        return Discard(1.0, w, True, pts) if w > 0 else Discard(max(d, 2.0), w, False, pts)

    def _standing(self, ev: PlanEval, adm: Admitted, hard_only: bool) -> Standing | None:
        """The ``Standing`` of the evaluated hand; None where no admitted plan is within
        reach and ``hard_only`` (else plain efficiency: the plain standard shape alone)."""
        values = _values(ev.dist, adm)
        if not values:
            if hard_only:
                return None
            values = [(ev.dist[ev.plist.free], ev.plist.free)]
        best = min(v for v, _ in values)
        top = [(v, i) for v, i in values if v <= best + TIE]
        near = [(v, i) for v, i in values if best + TIE < v <= best + 1.0]
        kept = 0
        for _, i in top:
            kept |= ev.bits(i).surplus
        ready = 0
        if self.params.value_planning:
            for i in ev.plist.plain:
                if ev.dist[i] < 1:            # complete: any discard may leave it ready
                    ready = ALL34
                    break
                if ev.dist[i] == 1:
                    ready |= ev.bits(i).surplus
        return Standing(best, top, near, kept, ready)

    @staticmethod
    def _value_after(ev: PlanEval, standing: Standing, t: int) -> float:
        """The best value once a ``t`` is discarded, before the scorer: a plan keeps its value
        where ``t`` is surplus to it, else is a tile further — so the best value itself where
        ``t`` is surplus to a plan there, else one more, unless a plan less than a tile behind
        keeps its own value (only fractional penalties put one there)."""
        if standing.kept >> t & 1:
            return float(standing.best)
        step = standing.best + 1.0
        if not any(v < step - TIE for v, _ in standing.near):
            return float(step)
        return float(min([step] + [v for v, i in standing.near if ev.bits(i).surplus >> t & 1]))

    def _ukeire(self, ev: PlanEval, standing: Standing, t: int, held: int, full: int,
                every: bool, view: PlayerView) -> tuple[float, float]:
        """(weight, points) of discarding ``t``: the unseen tiles that would bring one of the
        plans that decide its distance a tile closer, among the kinds near the hand (held,
        within two ranks of a held number tile, or what a plan asks for wherever the hand
        stands; ``held`` and ``full``: the kinds held, held four times, before the discard).
        ``every`` (``ukeire="all"``): a plan ``t`` is not surplus to gives its need
        on the hand as it is, a close stand-in for evaluating the hand less the ``t``; and
        the points are those of the best chosen plan."""
        value = self._value_after(ev, standing, t)
        chosen = [i for v, i in standing.top + standing.near
                  if v <= value + TIE and v + (1 - (ev.bits(i).surplus >> t & 1)) <= value + TIE]
        improving = 0
        plans = ev.plist.plans
        for i in chosen:
            want = ev.want(i, t) if ev.bits(i).surplus >> t & 1 else None
            if want is not None:
                improving |= want
            elif every:
                improving |= ev.bits(i).need
            elif i in ev.plist.five:
                improving |= ev.five_need_without(i, t)
            else:       # a plan ``t`` is not surplus to: the hand less the ``t`` evaluated
                improving |= evaluate(ev.plist, less_one(ev.counts, t),
                                      ev.melds).bits(i).need
        if ev.counts[t] == 1:
            held &= ~(1 << t)
        improving &= _near(held, [plans[i] for i in chosen]) & ~(full & ~(1 << t))
        points = max(plans[i].points for i in chosen) if every else 0.0
        return float(_weigh(improving, view.unseen)), points

    # --- calls and kans -------------------------------------------------------------------

    @staticmethod
    def _called(view: PlayerView, call: Action, counts: Sequence[int]
                ) -> tuple[list[int], tuple[Meld, ...]]:
        """The concealed counts and melds after the legal ``call`` of the target tile."""
        x = view.target_tile
        if call.kind == "chi":
            tiles = (call.tile, call.tile + 1, call.tile + 2)
        else:
            tiles = (x,) * (3 if call.kind == "pon" else 4)
        after = list(counts)
        for t in tiles:
            after[t] -= 1
        after[x] += 1                   # the claimed tile comes from the discarder
        meld = Meld(call.kind, tiles, x, view.target_from)
        return after, tuple(view.melds[view.seat]) + (meld,)

    def after_call(self, view: PlayerView, call: Action, counts: Sequence[int]) -> float:
        """Value distance after the legal ``call`` (chi/pon/open kan) of the target tile,
        counting only plans worth ``min_points``: after chi/pon, the best discard's distance;
        after an open kan, the hand's.

        No discard brings a plan closer (it keeps its value or goes a tile further), so the
        best value of the hand before its discard bounds the best discard from below; and a
        discard reaches it, where the hand is not complete: a hand holding as many tiles as a
        target and d ≥ 1 tiles from it holds d tiles the target does not use, each surplus to
        the plan. So the discards are weighed only where the scorer may decide (a plain shape
        within a tile of complete) or the hand is complete — and only up to the first at 1,
        the least a discard leaves (a 13-tile hand is never complete)."""
        after, melds = self._called(view, call, counts)
        if call.kind == "minkan":
            return self.hand(after, melds, view, hard_only=True)[0]
        ev, adm = self.evaluated(after, melds, view, hard_only=True)
        best, ready = self._best_value(ev, adm)
        if best >= 1 and not ready:
            return best
        standing = self._standing(ev, adm, hard_only=True)
        if standing is None:
            return float(INF)
        low = float(INF)
        for t in range(34):
            if after[t]:
                low = min(low, self._discard(ev, standing, t, view).dist)
                if low <= 1.0:
                    break
        return low

    def kan_keeps(self, view: PlayerView, kan: Action, counts: Sequence[int],
                  melds: tuple[Meld, ...], discard_dist: float) -> bool:
        """Whether the concealed/added ``kan`` leaves the hand no further than
        ``discard_dist`` (the best discard's distance)."""
        after = list(counts)
        if kan.kind == "ankan":
            after[kan.tile] -= 4
            new_melds = melds + (Meld("ankan", (kan.tile,) * 4),)
        else:
            after[kan.tile] -= 1
            new_melds = tuple(Meld("kakan", (kan.tile,) * 4)
                              if m.kind == "pon" and m.tiles[0] == kan.tile else m
                              for m in melds)
        return self.hand(after, new_melds, view)[0] <= discard_dist


_NUMBERS = (1 << 27) - 1
# per shift (+1, +2, −1, −2), the kinds a held number tile may reach in its own suit
_REACH = tuple(sum(1 << t for t in range(27) if 0 <= t % 9 - d < 9)
               for d in (1, 2, -1, -2))


def _near(held: int, plans) -> int:
    """Kinds near a hand: held, within two ranks of a held number tile, and what ``plans``
    reach for whatever the hand holds (``Plan.reach``: forced tiles, 五门齐's honors)."""
    h = held & _NUMBERS
    near = held | (h << 1 & _REACH[0]) | (h << 2 & _REACH[1]) | (h >> 1 & _REACH[2]) \
        | (h >> 2 & _REACH[3])
    for plan in plans:
        near |= plan.reach
    return near


def _weigh(mask: int, unseen: Sequence[int]) -> int:
    """Σ unseen over the kinds of ``mask``."""
    return sum(unseen[t] for t in ranks_of(mask))
