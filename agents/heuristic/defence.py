"""Defence: how much a discard risks, and how a turn weighs it — one interface, ``Defence``,
for no defence, ``RiskDefence`` (the tuned default's) and ``ThreatDefence`` (``heuristic:v1``'s
hand-set threat and danger model below); ``defence_for`` picks one from the parameters.

Threat of an opponent (0–1): declared melds are the strongest public sign of progress (each one
is a group done and, with ``min_points`` to reach, usually a plan committed to); the wall's
progress adds more late in the hand; a flush signal (two or more melds, all in one number suit
plus honors) adds a further step, and makes that suit the danger.

Danger of a tile for one opponent (0–1, relative): honors by how many copies could still be held
(a honor with no unseen copy cannot complete anything but 十三幺); terminals below middle tiles
(fewer waits contain them); a suji of a tile that seat discarded (t±3) and the seat's own
discards (现物) lower the danger. Genbutsu is *not* fully safe under these rules — there is no
permanent furiten (RULES.md §4) — so it only scales the danger down.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from agents.heuristic.evaluator import TIE, Discard
from agents.heuristic.models import (field, melded_suits, ready_probability, risk,
                                     wall_progress, win_probability)
from agents.heuristic.tables import INF
from mjenv.game.actions import Action
from mjenv.game.view import PlayerView

if TYPE_CHECKING:
    from agents.heuristic.params import HeuristicParams

Option = tuple[float, Action]
"""A discard and its utility."""

LATE_DRAWS = 10
"""The last draws of the live wall, where ``late_risk_weight`` applies."""


@dataclass(frozen=True)
class DefenceParams:
    """Weights of the threat and danger model (documented in docs/agents.md)."""

    base_threat: float = 0.05
    meld_threat: float = 0.2
    late_threat: float = 0.45
    flush_threat: float = 0.2
    genbutsu: float = 0.2
    suji: float = 0.6
    flush_in_suit: float = 1.5
    flush_off_suit: float = 0.25


def flush_suit(view: PlayerView, seat: int) -> int | None:
    """The number suit ``seat`` visibly collects (≥2 melds, all that suit or honors), if any."""
    if len(view.melds[seat]) < 2:
        return None
    suits = melded_suits(view, seat)
    return suits.pop() if len(suits) == 1 else None


def threats(view: PlayerView, p: DefenceParams) -> list[float]:
    """Threat 0–1 per seat (0 for the viewer itself)."""
    progress = wall_progress(view)
    out = []
    for seat in range(4):
        if seat == view.seat:
            out.append(0.0)
            continue
        t = p.base_threat + p.meld_threat * len(view.melds[seat]) + p.late_threat * progress ** 2
        if flush_suit(view, seat) is not None:
            t += p.flush_threat
        out.append(min(1.0, t))
    return out


def tile_dangers(view: PlayerView, threat: list[float], p: DefenceParams,
                 tiles: Iterable[int] = range(34)) -> list[float]:
    """Threat-weighted danger of discarding each kind (34 values; only ``tiles`` filled)."""
    danger = [0.0] * 34
    tiles = tuple(tiles)
    for seat in range(4):
        w = threat[seat]
        if w <= 0.0:
            continue
        pond = {pt.tile for pt in view.ponds[seat]}
        fs = flush_suit(view, seat)
        for t in tiles:
            if t >= 27:
                d = (0.0, 0.1, 0.3, 0.5, 0.6)[view.unseen[t]]
            else:
                r = t % 9
                d = 0.6 if r in (0, 8) else 0.8 if r in (1, 7) else 1.0
                if (r >= 3 and t - 3 in pond) or (r <= 5 and t + 3 in pond):
                    d *= p.suji
                if view.unseen[t] == 0:
                    d *= 0.5
            if t in pond:
                d *= p.genbutsu
            if fs is not None:
                d *= p.flush_in_suit if (t >= 27 or t // 9 == fs) else p.flush_off_suit
            danger[t] += w * d
    return danger


def expected_points(e: Discard, gain: tuple[float, float]) -> float:
    """The points a hand left by a discard may expect from a win: at tenpai its legal
    wins'; otherwise ``gain`` applied to its best plan's floor."""
    return e.points if e.ready else gain[0] + gain[1] * e.points


def within(options: Sequence[Option], margin: float) -> list[int]:
    """The indices of the options within ``margin`` of the best utility."""
    best = max(u for u, _ in options)
    return [j for j, (u, _) in enumerate(options) if u >= best - margin - TIE]


def best_of(options: Sequence[Option]) -> list[Action]:
    """The actions of the options of the best utility."""
    return [options[j][1] for j in within(options, 0.0)]


class Defence:
    """How a turn weighs what its discards risk, and whether calls hold back. This base is no
    defence at all (``defence=False``): nothing is penalised, nothing restrains."""

    def __init__(self, params: HeuristicParams) -> None:
        self.p = params

    def restrains_calls(self, view: PlayerView) -> bool:
        """Whether an opponent is threatening enough that no call may leave the hand short
        of tenpai."""
        return False

    def folds(self, view: PlayerView, evals: dict[int, Discard], melds: int) -> bool:
        """Whether the turn plays the least risky discard whatever its shape (``loss``)."""
        return False

    def loss(self, view: PlayerView, tiles: Sequence[int]) -> list[float]:
        """What discarding each of ``tiles`` risks (the lower, the safer)."""
        return [0.0] * len(tiles)

    def penalize(self, view: PlayerView, tiles: Sequence[int], evals: dict[int, Discard],
                 melds: int, options: list[Option]
                 ) -> tuple[list[Option], list[float | None] | None]:
        """``options`` (utility, discard of ``tiles``) less each discard's defence penalty,
        and the ``loss`` of the discards it measured (None where none)."""
        return options, None

    def safest(self, view: PlayerView, options: list[Option], tiles: Sequence[int],
               tied: list[Action], loss: list[float | None] | None) -> list[Action]:
        """Among ``tied`` (the best of ``options``), what the defence plays."""
        return tied


class ThreatDefence(Defence):
    """v1's defence: λ · Σ threat × danger, λ = ``defence_weight`` × the best distance
    (capped at 4), applied only once some threat exceeds the base threat; calls hold back
    once the highest threat reaches ``call_threat``."""

    def restrains_calls(self, view: PlayerView) -> bool:
        return max(threats(view, self.p.danger)) >= self.p.call_threat

    def penalize(self, view, tiles, evals, melds, options):
        p = self.p
        threat = threats(view, p.danger)
        if max(threat) <= p.danger.base_threat + TIE:
            return options, None
        danger = tile_dangers(view, threat, p.danger, tiles)
        lam = p.defence_weight * min(min(e.dist for e in evals.values()), 4.0)
        return [(u - lam * danger[t], a) for (u, a), t in zip(options, tiles)], None


class RiskDefence(Defence):
    """The risk model's defence: a discard's penalty is ``risk_weight`` (``weight``) × its
    risk (``models.risk``) over what the hand it leaves stands to win (``stake``, at least
    ``stake_floor``), so a far or cheap hand folds and a valuable ready one pushes; among the
    discards within ``safe_margin`` of the best the least risky is played; the final discard
    and a hopeless hand play the least risky tile; calls hold back once some opponent is at
    least ``call_threat`` likely to be ready."""

    def restrains_calls(self, view: PlayerView) -> bool:
        p = self.p
        return max(ready_probability(view, p.risk, o)
                   for o in range(4) if o != view.seat) >= p.call_threat

    def folds(self, view: PlayerView, evals: dict[int, Discard], melds: int) -> bool:
        """The final discard (no draw follows it), or a hand whose best discard leaves it at
        least three tiles away and less than ``fold_below`` likely to win: its shape is worth
        nothing, and the least risk decides."""
        p = self.p
        if view.live_wall_left == 0:
            return True
        best = min(evals.values(), key=lambda e: e.dist)
        if p.fold_below <= 0 or best.dist < 3:
            return False
        accept = max(e.weight for e in evals.values() if e.dist == best.dist)
        chance = win_probability(p.win, best.dist, accept, wall_progress(view), melds)
        return chance < p.fold_below

    def loss(self, view: PlayerView, tiles: Sequence[int]) -> list[float]:
        return risk(view, self.p.risk, tiles, self.p.ready_floor)

    def stake(self, e: Discard, wall: float, melds: int) -> float:
        """What the hand a discard leaves stands to win: 3 · its points · P(win)."""
        p = self.p
        return 3.0 * expected_points(e, p.gain) * win_probability(
            p.win, e.dist, e.weight, wall, melds) if e.dist < INF else 0.0

    def weight(self, view: PlayerView) -> float:
        """``risk_weight``, times ``late_risk_weight`` once ``LATE_DRAWS`` draws or fewer
        are left."""
        late = self.p.late_risk_weight if view.live_wall_left <= LATE_DRAWS else 1.0
        return self.p.risk_weight * late

    def penalty(self, loss: float, e: Discard, wall: float, melds: int, weight: float
                ) -> float:
        """The deal-in penalty, in tiles of distance, of a discard that risks ``loss``."""
        return weight * loss / max(self.stake(e, wall, melds), self.p.stake_floor)

    def penalize(self, view, tiles, evals, melds, options):
        p = self.p
        weight = self.weight(view)
        if weight == 0:
            return options, None
        opponents = field(view, p.risk, p.ready_floor)
        if not opponents:
            return options, [0.0] * len(tiles)
        wall = wall_progress(view)

        def measure(js: list[int]) -> list[tuple[float, float]]:
            loss = risk(view, p.risk, [tiles[j] for j in js], opponents=opponents)
            return [(x, self.penalty(x, evals[tiles[j]], wall, melds, weight))
                    for j, x in zip(js, loss)]

        return penalized_best_first(options, p.safe_margin, measure)

    def safest(self, view, options, tiles, tied, loss):
        """Among the discards within ``safe_margin`` of the best utility, the least risky,
        best utility first: safety bought at no more than that margin of offence. Where no
        discard in reach is riskier than another, ``tied`` unchanged."""
        near = within(options, self.p.safe_margin)
        if len(near) < 2:
            return tied
        loss = self.loss(view, [tiles[j] for j in near]) if loss is None \
            else [loss[j] for j in near]
        least = min(loss)
        if max(loss) <= least + TIE:
            return tied
        return best_of([options[j] for j, x in zip(near, loss) if x <= least + TIE])


def penalized_best_first(options: list[Option], margin: float,
                         measure: Callable[[list[int]], list[tuple[float, float]]]
                         ) -> tuple[list[Option], list[float | None]]:
    """``options`` less each one's penalty, and each one's loss, where ``measure`` gives the
    (loss, penalty) of the options at the given indices — measured only where it can matter.
    A penalty only lowers a utility, so an option whose utility *before* its penalty lies
    more than ``margin`` below the best utility measured *after* one can be neither the best
    nor within ``margin`` of it: it keeps its utility unpenalised, its loss None. Measuring
    goes best-first, in rounds, until no such option is left (most of a turn's discards are
    never measured); the choice is the one measuring every option gives (a test checks)."""
    out, loss = list(options), [None] * len(options)
    todo = within(options, margin)
    while todo:
        for j, (x, penalty) in zip(todo, measure(todo)):
            u, a = options[j]
            out[j], loss[j] = (u - penalty, a), x
        reach = max(u for (u, _), x in zip(out, loss) if x is not None)
        todo = [j for j, (u, _) in enumerate(options)
                if loss[j] is None and u >= reach - margin - TIE]
    return out, loss


def defence_for(params: HeuristicParams) -> Defence:
    """The defence the parameters name (``defence``, ``defence_model``)."""
    if not params.defence:
        return Defence(params)
    return RiskDefence(params) if params.defence_model == "risk" else ThreatDefence(params)
