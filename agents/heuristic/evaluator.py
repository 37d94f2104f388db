"""The heuristic's evaluators: what a hand is worth before and after each possible action.

One public API, read by the agent (``agents.heuristic.agent``) and by the analysis planes of the
PPO network (``agents.features``):

- :meth:`Evaluator.discards` — for a hand about to discard, every discard's *value distance*
  (tiles needed to reach a plan worth ``min_points``), and for the best ones a tie-break weight:
  the unseen tiles that would improve the hand (ukeire) or, at tenpai, the unseen legal winning
  tiles found with the real scorer;
- :meth:`Evaluator.hand` — the same for a 13-tile hand as it stands (claims, kans);
- :meth:`Evaluator.after_call` — the distance after a chi/pon (and its best discard) or an
  open kan;
- :meth:`Evaluator.calls_fall_short` — whether no chi/pon can beat the hand's distance, read
  from the evaluation of the hand before the seat's last discard (no call weighed);
- :meth:`Evaluator.kan_keeps` — whether a concealed/added kan keeps the distance.

Everything comes from one evaluation of the whole plan list on the hand (``plans.PlanList``):
each plan's distance, and the masks of the kinds surplus to it and wanted once each surplus
kind is gone — no loop over tiles asks the tables again. Results are memoised in process-wide
tables keyed on everything they depend on (the hand, the melds, the plan list, the parameters
that shape them), so agents with different parameters share them safely.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple, Sequence

from agents.heuristic.plans import (ALL34, KNIT, PAIRS_SHAPE, Plan, PlanEval, PlanList,
                                    candidate_plans, full_bits, held_bits, meld_key)
from agents.heuristic.tables import INF, STORE
from mjenv.analysis import wait_kinds
from mjenv.game.actions import Action
from mjenv.game.view import PlayerView
from mjenv.scoring import WinContext, score
from mjenv.tiles import Meld

_MEMO_LIMIT = 200_000


class _Memo(dict):
    def put(self, key, value):
        if len(self) >= _MEMO_LIMIT:
            self.clear()
        self[key] = value
        return value


# Process-wide memo tables; every entry a pure function of its key. Plan lists carry a
# serial number (never reused) that names them in the other tables' keys: one per meld set,
# since an evaluation reads the melds (五门齐's doors), though meld sets that leave the same
# plans open share one compiled list.
_PLAN_LISTS: dict[tuple, tuple[int, PlanList]] = {}
_COMPILED: dict[tuple[tuple[Plan, ...], int], PlanList] = {}
_EVALS = _Memo()
_WAITS = _Memo()
_serial = iter(range(1 << 62))


def plan_list(melds: Sequence[Meld], value_planning: bool, loose: bool, knitted: bool = False
              ) -> tuple[int, PlanList]:
    """(serial, compiled plans) open to ``melds``."""
    key = (meld_key(melds), value_planning, loose, knitted)
    hit = _PLAN_LISTS.get(key)
    if hit is None:
        if len(_PLAN_LISTS) >= 20_000:
            _PLAN_LISTS.clear()
            _COMPILED.clear()
        compiled = (candidate_plans(key[0], value_planning, loose, knitted), 4 - len(melds))
        plist = _COMPILED.get(compiled)
        if plist is None:
            plist = _COMPILED[compiled] = PlanList(*compiled)
        hit = _PLAN_LISTS[key] = (next(_serial), plist)
    return hit


def plan_eval(serial: int, plist: PlanList, counts: Sequence[int], melds: Sequence[Meld]
              ) -> PlanEval:
    """``PlanList.evaluate``, memoised (its ``state``: see ``PlanEval``)."""
    key = (serial, bytes(counts))
    state = _EVALS.get(key)
    if state is None:
        ev = plist.evaluate(counts, melds)
        _EVALS.put(key, ev.state)
        return ev
    return PlanEval(plist, counts, melds, state)


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


class _Weighed(NamedTuple):
    """What ``Evaluator.discards`` found of the last hand it weighed (``Evaluator._recall``,
    ``Evaluator.calls_fall_short``): its plan list and ``min_points``, its counts read as one
    base-256 number, its best value, the kinds surplus to a plan at that value, the kinds
    whose discard leaves a plain shape one tile from complete, its plans' evaluation and the
    suit store's generation it reads (its masks are asked of the store on demand)."""

    serial: int
    min_points: int
    key: int
    best: float
    kept: int
    ready: int
    ev: PlanEval
    generation: int


# ``Discard``'s fields as a tuple, made without the named tuple's ``__new__`` (a Python
# function): half the cost, on every discard of every turn
_discard = tuple.__new__


@dataclass(frozen=True)
class _Admitted:
    """Which plans of a list the value rule admits, with their penalties, and which are the
    plain shapes (standard, seven pairs or knitted, whatever their value)."""

    plans: tuple[int, ...]
    penalty: tuple[float, ...]
    plain: tuple[int, ...]


# Per parameter set, (plan list serial, min_points, hard_only) → its ``_Admitted``.
_ADMITTED: dict[EvalParams, _Memo] = {}


class Evaluator:
    """The evaluators of one parameter set (see the module docstring)."""

    def __init__(self, params: EvalParams) -> None:
        self.params = params
        # shared by the evaluators of equal parameters: a harness makes new agents for every
        # run of hands, and each made its own again for every plan list
        if params not in _ADMITTED and len(_ADMITTED) >= 64:
            _ADMITTED.clear()
        self._admitted = _ADMITTED.setdefault(params, _Memo())
        # the last hand weighed by ``discards``, for ``hand`` after its discard
        self._last: _Weighed | None = None

    @staticmethod
    def begin() -> None:
        """Call before each decision: empties the suit store and the evaluations that point
        into it once the store is full (never in the middle of a decision)."""
        if STORE.full():
            STORE.clear()
            _EVALS.clear()

    # --- plans ----------------------------------------------------------------------------

    def plans(self, melds: Sequence[Meld], min_points: int, hard_only: bool = False
              ) -> tuple[int, PlanList, _Admitted]:
        """(serial, plans, admitted) for ``melds``: the value rule admits plans whose points
        reach ``min_points``, and unless ``hard_only`` those within ``soft_margin`` points,
        as if ``soft_penalty`` tiles further away; without value planning, every plan."""
        p = self.params
        serial, plist = plan_list(melds, p.value_planning, p.loose_tables, p.knitted)
        key = (serial, min_points, hard_only)
        hit = self._admitted.get(key)
        if hit is None:
            plans, pens = [], []
            for i, pl in enumerate(plist.plans):
                if not p.value_planning or pl.points >= min_points:
                    plans.append(i)
                    pens.append(0.0)
                elif not hard_only and pl.points + p.soft_margin >= min_points:
                    plans.append(i)
                    pens.append(p.soft_penalty)
            plain = tuple(i for i, pl in enumerate(plist.plans)
                          if pl.name in ("free", "qiduizi", "qiduizi_shape", "shisan_buda"))
            hit = self._admitted.put(key, _Admitted(tuple(plans), tuple(pens), plain))
        return serial, plist, hit

    # --- waits ----------------------------------------------------------------------------

    def legal_waits(self, counts: Sequence[int], melds: Sequence[Meld], view: PlayerView
                    ) -> tuple[tuple[int, int, int], ...]:
        """Waits of a ready 13-tile-equivalent hand with the points of a win on each by ron
        and by tsumo (-1 where it is no win; below ``min_points`` it is no legal win)."""
        key = (bytes(counts), meld_key(melds), view.seat_wind, view.round_wind,
               view.rules.min_points)
        hit = _WAITS.get(key)
        if hit is not None:
            return hit
        hand = [t for t in range(34) for _ in range(counts[t])]
        contexts = _contexts(view.seat_wind, view.round_wind)
        out = []
        for w in wait_kinds(counts, melds):
            points = []
            for ctx in contexts:
                try:
                    points.append(score(hand, w, melds, ctx).points)
                except ValueError:
                    points.append(-1)
            out.append((w, points[0], points[1]))
        return _WAITS.put(key, tuple(out))

    def wait_weight(self, counts: Sequence[int], melds: Sequence[Meld], view: PlayerView
                    ) -> float:
        """Unseen copies of the legal winning tiles of a ready hand (ron-weighted)."""
        return self.wait_value(counts, melds, view)[0]

    def wait_value(self, counts: Sequence[int], melds: Sequence[Meld], view: PlayerView
                   ) -> tuple[float, float]:
        """(weight, points) of a ready hand: the unseen copies of its legal winning tiles,
        ron-weighted (``ron_share`` for a legal ron, the rest for a legal tsumo), and the
        points of its wins averaged with the same weights."""
        share = self.params.ron_share
        least = view.rules.min_points
        weight = points = 0.0
        for w, ron, tsumo in self.legal_waits(counts, melds, view):
            for part, pts in ((share, ron), (1 - share, tsumo)):
                if pts >= least:
                    weight += view.unseen[w] * part
                    points += view.unseen[w] * part * pts
        return weight, (points / weight if weight > 0 else 0.0)

    # --- a hand as it stands --------------------------------------------------------------

    def hand(self, counts: Sequence[int], melds: Sequence[Meld], view: PlayerView,
             hard_only: bool = False) -> tuple[float, float]:
        """(distance, legal-wait weight) of a 13-tile-equivalent hand: the value distance
        over the admitted plans; at tenpai 1 with the wait weight, or at least 2 when no wait
        is a legal win."""
        serial, plist, adm = self.plans(melds, view.rules.min_points, hard_only)
        known = None if hard_only else self._recall(serial, view.rules.min_points, counts)
        if known is not None:
            best, ready = known
        else:
            dist = plan_eval(serial, plist, counts, melds).dist
            best = float(min(min((v for v, _ in _values(dist, adm)), default=INF), INF))
            ready = self.params.value_planning and min((dist[i] for i in adm.plain),
                                                       default=INF) <= 1
        if ready:
            weight = self.wait_weight(counts, melds, view)
            if weight > 0:
                return 1.0, weight
            best = max(best, 2.0)
        return best, 0.0

    def acceptance(self, counts: Sequence[int], melds: Sequence[Meld], view: PlayerView
                   ) -> tuple[float, float]:
        """(distance, acceptance) of a 13-tile-equivalent hand: as :meth:`hand`, with the
        unseen tiles that would bring one of the best plans a tile closer (kinds near the
        hand) where it is not ready."""
        dist, weight = self.hand(counts, melds, view)
        if weight > 0 or dist >= INF:
            return dist, weight
        serial, plist, adm = self.plans(melds, view.rules.min_points)
        ev = plan_eval(serial, plist, counts, melds)
        values = _values(ev.dist, adm)
        if not values:
            return dist, 0.0
        best = min(v for v, _ in values)
        chosen = [i for v, i in values if v <= best + 1e-9]
        need = 0
        for i in chosen:
            need |= ev.bits(i)[0]
        need &= _near(held_bits(counts), [plist.plans[i] for i in chosen]) & ~full_bits(counts)
        return dist, float(_weigh(need, view.unseen))

    # --- the hand left by a discard ---------------------------------------------------------

    def _discarded(self, serial: int, min_points: int, counts: Sequence[int]) -> int | None:
        """The kind ``t`` where ``counts`` is the last hand ``discards`` weighed (with the same
        plan list and ``min_points``) less one ``t``; None elsewhere."""
        last = self._last
        if last is None or last.serial != serial or last.min_points != min_points:
            return None
        # counts are at most 4, so the difference of the counts read as base-256 numbers is
        # a power of 256 exactly where the last hand is ``counts`` and one tile more
        diff = last.key - int.from_bytes(bytes(counts), "little")
        if diff <= 0 or diff & (diff - 1) or (diff.bit_length() - 1) & 7:
            return None
        return (diff.bit_length() - 1) >> 3

    def _recall(self, serial: int, min_points: int, counts: Sequence[int]
                ) -> tuple[float, bool] | None:
        """(best value, whether a plain shape is one tile from complete) of ``counts`` where it
        is the last hand ``discards`` weighed less one tile ``t`` surplus to a plan at the best
        value: that plan keeps its value, no plan's gets lower, so the best value is the
        same number, and a plain shape's distance after the discard is what made ``t`` ready
        there (``_Weighed``). None elsewhere. The claims of the turns that follow a discard
        ask it, nearly always of a hand no evaluation has seen (84 % of them)."""
        t = self._discarded(serial, min_points, counts)
        if t is None or not self._last.kept >> t & 1:
            return None
        return self._last.best, bool(self._last.ready >> t & 1)

    # --- discards -------------------------------------------------------------------------

    def discards(self, counts: list[int], melds: Sequence[Meld], view: PlayerView,
                 tiles: Sequence[int], hard_only: bool = False, ukeire: str | None = "ties",
                 least: bool = False) -> dict[int, Discard]:
        """Each discard of ``tiles`` from a hand holding one tile more than 13-equivalent.

        The distance after discarding ``t`` is, per plan, the plan's value now (distance plus
        penalty), plus one unless ``t`` is surplus to it; the best admitted plan decides (with
        no admitted plan reachable, plain efficiency). Where the plain shape is one tile from
        complete the scorer decides instead: 1 with the legal-wait weight, else at least 2.
        Weights of the other discards (ukeire over the plans at the best value) are computed,
        with ``ukeire="ties"``, only where several discards share the best distance (they
        break ties: ``heuristic:v1``); with ``"all"``, for every discard, with the plan points:
        a kind no best plan can spare is then given the need of those plans on the hand as it
        is, a close stand-in for asking the tables again.

        Only the plans at the best value now need their surplus: a kind surplus to one keeps
        that value, any other kind costs one tile — unless a plan a fraction of a tile behind
        keeps it (fractional penalties), or ties must be broken among such kinds.

        ``least`` (with ``ukeire=None``): only the least distance is wanted (``after_call``).
        A discard the scorer decides is never below 1, so once some discard is at 1 or less
        the waits of the later ones are not scored, and they are left out."""
        p = self.params
        serial, plist, adm = self.plans(melds, view.rules.min_points, hard_only)
        ev = plan_eval(serial, plist, counts, melds)
        dist = ev.dist
        values = _values(dist, adm)
        admitted = bool(values)
        if not values:
            if hard_only:
                return {t: Discard(float(INF), 0.0, False) for t in tiles}
            # no plan worth min_points left: play efficiency
            values = [(dist[i], i) for i, pl in enumerate(plist.plans) if pl.name == "free"]
        best_now = min([v for v, _ in values])
        tie, step = best_now + 1e-9, best_now + 1.0
        top: list[tuple[float, int, int]] = []      # (value, plan, surplus) at the best value
        near: list[tuple[float, int]] = []           # (value, plan) up to a tile behind
        kept = 0
        for v, i in values:
            if v <= tie:
                sp = ev.bits(i)[1]
                top.append((v, i, sp))
                kept |= sp
            elif v <= step:
                near.append((v, i))
        behind = None                     # (value, plan, surplus) of the near plans, on demand
        if any(v < step - 1e-9 for v, _ in near):
            behind = [(v, i, ev.bits(i)[1]) for v, i in near]
        # the kinds whose discard may leave a plain shape ready (one tile from complete):
        # every kind where one is complete, the surplus of those one tile away
        ready = 0
        if p.value_planning:
            for i in adm.plain:
                if dist[i] < 1:
                    ready = ALL34
                    break
                if dist[i] == 1:
                    ready |= ev.bits(i)[1]
        if admitted and not hard_only:
            self._last = _Weighed(serial, view.rules.min_points,
                                  int.from_bytes(bytes(counts), "little"), best_now, kept, ready,
                                  ev, STORE.generation)
        out: dict[int, Discard] = {}
        low, ties = float(INF), 0         # the least distance so far, and how many have it
        for t in tiles:
            bit = 1 << t
            if least and ready & bit and low <= 1.0:
                continue
            d = best_now if kept & bit else step
            if behind is not None and not kept & bit:
                d = min([d] + [v for v, _, sp in behind if sp & bit])
            d, w = float(d), 0.0
            pts = 0.0
            if ready & bit:
                counts[t] -= 1
                w, pts = self.wait_value(counts, melds, view)
                counts[t] += 1
                d = 1.0 if w > 0 else max(d, 2.0)
            out[t] = _discard(Discard, (d, w, d == 1.0 and w > 0, pts))
            if d < low:
                low, ties = d, 1
            elif d == low:
                ties += 1
        if ukeire == "ties" and ties > 1:
            todo = [t for t in tiles if out[t].dist <= low and out[t].weight == 0.0
                    and 1.0 < out[t].dist < INF]
        elif ukeire == "all":
            todo = [t for t in tiles if out[t].weight == 0.0 and out[t].dist < INF]
        else:
            return out
        held = held_bits(counts)
        full = full_bits(counts)
        for t in todo:
            e = out[t]
            bit = 1 << t
            if kept & bit:
                chosen = [i for _, i, sp in top if sp & bit]
            else:
                if behind is None:
                    behind = [(v, i, ev.bits(i)[1]) for v, i in near]
                value = min([step] + [v for v, _, sp in behind if sp & bit])
                chosen = [i for v, i, _ in top if v + 1.0 <= value + 1e-9] + \
                    [i for v, i, sp in behind if v + (0 if sp & bit else 1) <= value + 1e-9]
                chosen.sort()
            improving = 0
            for i in chosen:
                # a plan's wants only where ``t`` is surplus to it (they are costly)
                if ev.bits(i)[1] & bit and (want := ev.want(i, t)) is not None:
                    improving |= want
                elif ukeire == "all":
                    improving |= ev.bits(i)[0]
                else:       # 五门齐, or a plan ``t`` is not surplus to: ask again
                    counts[t] -= 1
                    improving |= self._need_after(serial, plist, i, counts, melds)
                    counts[t] += 1
            h = held & ~bit if counts[t] == 1 else held
            improving &= _near(h, [plist.plans[i] for i in chosen])
            improving &= ~(full & ~bit)
            points = max(plist.plans[i].points for i in chosen) if ukeire == "all" else 0.0
            out[t] = _discard(Discard, (e.dist, float(_weigh(improving, view.unseen)), False,
                                        points))
        return out

    @staticmethod
    def _need_after(serial: int, plist: PlanList, plan: int, counts: Sequence[int],
                    melds: Sequence[Meld]) -> int:
        """The need mask of one plan of a list on ``counts``, memoised."""
        key = (serial, plan, bytes(counts))
        need = _EVALS.get(key)
        if need is None:
            need = _EVALS.put(key, plist.need(plan, counts, melds))
        return need

    # --- calls and kans -------------------------------------------------------------------

    @staticmethod
    def _called(view: PlayerView, call: Action, counts: Sequence[int]
                ) -> tuple[list[int], tuple[Meld, ...]]:
        """The concealed counts and melds after the legal ``call`` of the target tile."""
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
        return after, tuple(view.melds[view.seat]) + (meld,)

    def after_call(self, view: PlayerView, call: Action, counts: Sequence[int]) -> float:
        """Value distance after the legal ``call`` (chi/pon/open kan) of the target tile,
        counting only plans worth ``min_points``: after chi/pon, the best discard's distance;
        after an open kan, the hand's.

        After chi/pon that is the best plan's value on the hand before its discard, without
        weighing each discard, unless the plain shape is ready (the scorer may then make it
        1) or the hand is complete: no discard goes below that value, and one keeps it — the
        hand holds as many tiles as a target, so a hand short of the best plan's optimal
        target by ``d ≥ 1`` tiles holds ``d`` more of some kinds than it, which are surplus."""
        after, new_melds = self._called(view, call, counts)
        if call.kind == "minkan":
            return self.hand(after, new_melds, view, hard_only=True)[0]
        serial, plist, adm = self.plans(new_melds, view.rules.min_points, hard_only=True)
        dist = plan_eval(serial, plist, after, new_melds).dist
        least = float(min((v for v, _ in _values(dist, adm)), default=INF))
        ready = self.params.value_planning and min((dist[i] for i in adm.plain),
                                                   default=INF) <= 1
        if least >= 1 and not ready:
            return least
        tiles = [t for t in range(34) if after[t]]
        evals = self.discards(after, new_melds, view, tiles, hard_only=True, ukeire=None,
                              least=True)
        return min(e.dist for e in evals.values())

    def calls_fall_short(self, view: PlayerView, calls: Sequence[Action], counts: Sequence[int],
                         now: float) -> bool:
        """Whether none of ``calls`` (chi and pon of the target tile) can leave a distance
        (``after_call``) below ``now`` (the hand's, :meth:`hand`), known without weighing any;
        False where it cannot be told from the last hand weighed.

        A target of a plan after a call, its meld added, is a target of the same plan on the
        13 tiles and the target ``x`` (the plans open after a call are among those open now,
        worth no more), unless the meld's copies of a kind take it past four — the tables cap
        the concealed tiles alone — and such a target costs at least the copies of that kind
        it lacks: ``5 − (copies in the meld) − (copies left concealed)``, which must reach
        ``now`` (and two, for the plain shape below). And ``x`` shortens a plan by one tile
        exactly where it is in the plan's need mask. So where every plan worth ``min_points``
        stays at ``now`` or beyond, less one where it needs ``x``, and the plain shape stays
        two tiles or more from complete (no discard after the call can make it ready, where
        the scorer decides), every call falls short. The 13-tile hand is the last one weighed
        less its discard ``t`` (a claim comes after the seat's own discard): a plan ``t`` is
        surplus to keeps its distance and needs its ``want`` for ``t``; one it is not surplus
        to is a tile further, and decides only where that is still short of ``now + 1`` —
        then nothing is known. Seven pairs and the knitted shape are closed by any call. v1's
        tables, which cap fewer targets, are left to the evaluation."""
        p = self.params
        if p.loose_tables:
            return False
        floor = max(now, 2.0) if p.value_planning else now
        for call in calls:
            after, called = self._called(view, call, counts)
            meld = called[-1].tiles
            if any(5 - meld.count(k) - after[k] < floor for k in set(meld)):
                return False
        melds = view.melds[view.seat]
        serial, plist, adm = self.plans(melds, view.rules.min_points, hard_only=True)
        t = self._discarded(serial, view.rules.min_points, counts)
        if t is None or self._last.generation != STORE.generation:
            return False
        ev, dist, x = self._last.ev, self._last.ev.dist, view.target_tile
        # each plan worth min_points at least ``now``, and where a ready hand counts (value
        # planning) the plain standard shape at least two tiles from complete: a plan already
        # a tile beyond that, or out of reach, is so whatever ``t`` and ``x`` do
        bounds = [(i, now) for i in adm.plans if dist[i] - 1 < now]
        if p.value_planning:
            bounds += [(i, 2.0) for i in adm.plain if dist[i] < 3]
        for i, least in bounds:
            d = dist[i]
            if d >= INF or plist.plans[i].shape in (PAIRS_SHAPE, KNIT):
                continue
            if not ev.bits(i)[1] >> t & 1:             # a tile further after the discard
                if d >= least:
                    continue
                return False
            want = ev.want(i, t)
            if want is None or d - (want >> x & 1) < least:
                return False
        return True

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


@lru_cache(maxsize=None)
def _contexts(seat_wind: int, round_wind: int) -> tuple[WinContext, WinContext]:
    """The win contexts of a ron and of a tsumo in these winds, made once each."""
    return tuple(WinContext(tsumo=tsumo, seat_wind=seat_wind, round_wind=round_wind)
                 for tsumo in (False, True))  # type: ignore[return-value]


def _values(dist: Sequence[int], adm: _Admitted) -> list[tuple[float, int]]:
    """(distance plus penalty, plan) of each admitted plan within reach."""
    return [(dist[i] + pen, i) for i, pen in zip(adm.plans, adm.penalty) if dist[i] < INF]


_NUMBERS = (1 << 27) - 1
# per shift (+1, +2, −1, −2), the kinds a held number tile may reach in its own suit
_REACH = tuple(sum(1 << t for t in range(27) if 0 <= t % 9 - d < 9)
               for d in (1, 2, -1, -2))


def _near(held: int, plans: Sequence[Plan]) -> int:
    """Kinds near a hand: held, within two ranks of a held number tile, and what ``plans``
    reach for whatever the hand holds (``Plan.reach``: forced tiles, 五门齐's honors)."""
    h = held & _NUMBERS
    near = held | (h << 1 & _REACH[0]) | (h << 2 & _REACH[1]) | (h >> 1 & _REACH[2]) \
        | (h >> 2 & _REACH[3])
    for pl in plans:
        near |= pl.reach
    return near


def _weigh(mask: int, unseen: Sequence[int]) -> int:
    """Σ unseen over the kinds of ``mask`` (a step per kind in it, not per bit)."""
    total = 0
    while mask:
        low = mask & -mask
        total += unseen[low.bit_length() - 1]
        mask ^= low
    return total
