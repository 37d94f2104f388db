"""The probability models of the expected-points heuristic: how likely a hand is to win, how
likely a discard is another seat's winning tile, and what that costs (docs/agents.md, *Defence
as a calculated risk*). Everything here reads only the seat's ``PlayerView``; the coefficients
are fitted on self-play, where the hidden hands are known (``training.calibrate``), and carried
by ``HeuristicParams``: nothing here is tuned by hand.

Winning: a logistic model over ``WIN_FEATURES`` of the hand a discard leaves (its value
distance, 1 = ready with a legal wait; the unseen tiles that improve it; the wall's progress;
the declared melds).

Dealing in: ``P(o wins on t) = P(o is ready) · P(t is one of its winning tiles | ready)``, two
logistic models over what a player sees of the opponent (``OpponentFeatures``) and of the tile
(``TILE_FEATURES``), and the points of such a win by a linear model over the opponent's
features. A tile that passed ``o``'s hand while it stood unchanged (``passed_tiles``) cannot
win for ``o`` at all: a win is always taken. A ron costs the discarder ``3P − 12`` (RULES.md
§6) where a bystander pays 6, so a discard risks ``Σ_o P(o wins on t) · (3·E[P_o] − 18)``
points (``risk``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from operator import mul
from typing import NamedTuple, Sequence

from mjenv.game.view import PlayerView
from mjenv.game.wall import LIVE_DRAWS
from mjenv.scoring import YAKU
from mjenv.tiles import DRAGONS


def wall_progress(view: PlayerView) -> float:
    """How far the wall has gone: 0 at the first draw, 1 once the live wall is empty."""
    return 1.0 - view.live_wall_left / LIVE_DRAWS


WIN_FEATURES = ("bias", "d1", "d2", "d3", "dist", "log_accept", "progress", "d1_progress",
                "accept_progress", "melds")


def win_features(dist: float, accept: float, progress: float, melds: int) -> list[float]:
    """``WIN_FEATURES`` of a hand after a discard (``dist``: value distance, 1 = ready;
    counted up to 8)."""
    d = min(dist, 8.0)
    onehot = [float(d == k) for k in (1, 2, 3)]
    la = math.log1p(accept)
    return [1.0] + onehot + [d, la, progress, onehot[0] * progress, la * progress,
                             float(melds)]


def _logistic(coef: Sequence[float], x: Sequence[float]) -> float:
    """A logistic model ``coef`` on one feature row, in plain Python (a row at a time, where
    numpy's per-call cost outweighs the work)."""
    return 1.0 / (1.0 + math.exp(-sum(map(mul, coef, x))))


def win_probability(coef: Sequence[float], dist: float, accept: float, progress: float,
                    melds: int) -> float:
    """P(win) of the hand a discard leaves: the logistic model ``coef`` over
    ``win_features``."""
    return _logistic(coef, win_features(dist, accept, progress, melds))


class OpponentFeatures(NamedTuple):
    """What a seat sees of an opponent, read by the risk model (``opponent_features``)."""

    bias: float
    melds: float
    progress: float
    progress_sq: float
    melds_progress: float
    tsumogiri: float
    flush: float
    one_suit: float
    dealer: float
    value_melds: float
    discards: float
    tedashi: float


OPPONENT_FEATURES = OpponentFeatures._fields
TILE_FEATURES = ("bias", "honor", "terminal", "two_eight", "genbutsu", "suji", "unseen",
                 "honor_scarce", "flush_in", "flush_off", "suit_share", "near_discard",
                 "progress", "melds", "sides", "middle", "flush_number", "last_suit",
                 "matagi")


@dataclass(frozen=True)
class RiskModel:
    """Coefficients: ``ready`` (logistic, over ``OPPONENT_FEATURES``), ``tile`` (logistic,
    over ``TILE_FEATURES``, given ready), ``value`` (linear, points of a win by ron, over
    ``OPPONENT_FEATURES``)."""

    ready: tuple[float, ...]
    tile: tuple[float, ...]
    value: tuple[float, ...]


def melded_suits(view: PlayerView, seat: int) -> set[int]:
    """The number suits of ``seat``'s declared melds."""
    return {m.tiles[0] // 9 for m in view.melds[seat] if m.tiles[0] < 27}


def opponent_features(view: PlayerView, seat: int) -> OpponentFeatures:
    """The ``OpponentFeatures`` of ``seat`` as ``view``'s seat sees it."""
    melds = view.melds[seat]
    pond = view.ponds[seat]
    wall = wall_progress(view)
    drawn = [p.tsumogiri for p in pond[-6:]]
    recent = drawn[-3:]
    tsumogiri = sum(recent) / len(recent) if recent else 0.0
    # a hand still being built throws from the hand; a ready one mostly what it draws
    tedashi = (len(drawn) - sum(drawn)) / 6.0
    one_suit = flush = 0.0
    value = 0
    if melds:
        suits = melded_suits(view, seat)
        one_suit = float(len(suits) <= 1)
        flush = float(len(melds) >= 2 and len(suits) == 1)
        winds = (27 + view.round_wind, 27 + (seat - view.dealer) % 4)
        value = sum(1 for m in melds if m.kind != "chi" and (m.tiles[0] in DRAGONS
                                                             or m.tiles[0] in winds))
    return OpponentFeatures(1.0, len(melds), wall, wall * wall, len(melds) * wall, tsumogiri,
                            flush, one_suit, float(seat == view.dealer), value,
                            len(pond) / 18.0, tedashi)


def passed_tiles(view: PlayerView, seat: int) -> set[int]:
    """Kinds that passed ``seat``'s hand while it stood unchanged, so that ``seat`` cannot
    win on them now (a win is always taken): every discard since its last discard from the
    hand (not the tile just drawn) — the others', on which it did not win by ron, and the
    tiles it drew and threw, on which it did not win by tsumo (worth no less here). A ready
    hand that keeps throwing what it draws thus makes every tile thrown since safe against it."""
    return passed_by(view, (seat,))[0]


def passed_by(view: PlayerView, seats: Sequence[int]) -> list[set[int]]:
    """``passed_tiles`` of each of ``seats`` (distinct), from one walk back over the hand's
    discards in the order made (``PondTile.order``) that stops at the earliest of their last
    discards from the hand."""
    made = sorted(((s, pt) for s, pond in enumerate(view.ponds) for pt in pond),
                  key=lambda discard: discard[1].order)
    waiting = {seat: j for j, seat in enumerate(seats)}    # last discard from the hand ahead
    out: list[set[int]] = [set() for _ in seats]
    since: set[int] = set()                                # the tiles walked back over
    for s, pt in reversed(made):
        if not pt.tsumogiri and s in waiting:
            out[waiting.pop(s)] = set(since)
            if not waiting:
                return out
        since.add(pt.tile)
    for j in waiting.values():                             # never threw from the hand
        out[j] = set(since)
    return out


_HONOR = tuple(t >= 27 for t in range(34))
_SUIT = tuple(3 if t >= 27 else t // 9 for t in range(34))
# the features of a tile's kind alone: bias, honor, terminal, two_eight
_KIND_FEATURES = tuple((1.0, float(t >= 27), float(t < 27 and t % 9 in (0, 8)),
                        float(t < 27 and t % 9 in (1, 7))) for t in range(34))


def _shifted(t: int, dr: int) -> int:
    """The same-suit number tile ``dr`` ranks from ``t``, or 34 (a kind never held)."""
    return t + dr if t < 27 and 0 <= t % 9 + dr <= 8 else 34


# per kind t: its suji (t±3), the kinds within two ranks, the pairs of tiles a chow wait on t
# needs — t+1 t+2 (t waits below), t-2 t-1 (above), t-1 t+1 (closed)
_SUJI = tuple((_shifted(t, -3), _shifted(t, 3)) for t in range(34))
_NEAR = tuple(tuple(_shifted(t, dr) for dr in (-2, -1, 1, 2)) for t in range(34))
_CHOW_WAITS = tuple(tuple(_shifted(t, dr) for dr in (1, 2, -2, -1, -1, 1)) for t in range(34))
_FLAG = (0.0, 1.0)          # a flag feature: a bool read as an index


def tile_features(view: PlayerView, seats: Sequence[int], tiles: Sequence[int],
                  opps: Sequence[OpponentFeatures]) -> list[list[tuple[float, ...]]]:
    """``TILE_FEATURES`` for each opponent of ``seats`` (with its ``opponent_features`` in
    ``opps``) and each kind of ``tiles``, nested in that order. Plain Python: the agent asks
    about a handful of tiles per decision, where numpy's per-call cost outweighs the work."""
    free = list(view.unseen) + [0]                       # index 34: a kind never held
    out = []
    for seat, opp in zip(seats, opps):
        pond = view.ponds[seat]
        thrown = [False] * 35
        share = [0, 0, 0, 0]
        # the last tile thrown from the hand, and its suit: a ready hand's wait often sits
        # beside the tile it let go to reach it
        last = 34
        for p in pond:
            t = p.tile
            thrown[t] = True
            share[_SUIT[t]] += 1
            if not p.tsumogiri:
                last = t
        size = max(1, len(pond))
        flush = opp.flush > 0 or opp.one_suit > 0
        melded = melded_suits(view, seat) if flush else set()
        wall, melds = float(opp.progress), float(opp.melds)
        last_suit = _SUIT[last] if last < 27 else -1
        rows = []
        for t in tiles:
            honor, unseen = _HONOR[t], free[t]
            in_suit = flush and (honor or _SUIT[t] in melded)
            lo, hi = _SUJI[t]
            n1, n2, n3, n4 = _NEAR[t]
            a1, b1, a2, b2, a3, b3 = _CHOW_WAITS[t]
            # how many hidden pairs of neighbours could wait on t (a wall of seen copies cuts
            # them): unseen copies of the two-sided and edge pairs (sides), the closed pair
            rows.append(_KIND_FEATURES[t] + (
                _FLAG[thrown[t]], _FLAG[thrown[lo] or thrown[hi]], unseen / 4.0,
                _FLAG[honor and unseen <= 1], _FLAG[in_suit], _FLAG[flush and not in_suit],
                share[_SUIT[t]] / size,
                _FLAG[thrown[n1] or thrown[n2] or thrown[n3] or thrown[n4]], wall, melds,
                (free[a1] * free[b1] + free[a2] * free[b2]) / 32.0,
                free[a3] * free[b3] / 16.0, _FLAG[in_suit and not honor],
                _FLAG[_SUIT[t] == last_suit], _FLAG[last in _NEAR[t]]))
        out.append(rows)
    return out


def ready_probability(view: PlayerView, model: RiskModel, seat: int) -> float:
    """P(``seat`` can win by ron now), as ``view``'s seat sees it."""
    return _logistic(model.ready, opponent_features(view, seat))


class Opponent(NamedTuple):
    """An opponent as the risk of a discard reads it: its seat, features and P(ready), the
    kinds that passed its unchanged hand (``passed_tiles``), the points of its win."""

    seat: int
    features: OpponentFeatures
    ready: float
    passed: set[int]
    points: float


def field(view: PlayerView, model: RiskModel, least: float = 0.0) -> tuple[Opponent, ...]:
    """The opponents of ``view``'s seat at least ``least`` likely to be ready under
    ``model``, measured once per decision and then asked tile by tile."""
    opps = {o: opponent_features(view, o) for o in range(4) if o != view.seat}
    ready = {o: _logistic(model.ready, x) for o, x in opps.items()}
    seats = [o for o in opps if ready[o] >= least]
    if not seats:
        return ()
    passed = passed_by(view, seats)
    least_points = float(view.rules.min_points)
    return tuple(Opponent(o, opps[o], ready[o], kinds,
                          max(sum(map(mul, model.value, opps[o])), least_points))
                 for o, kinds in zip(seats, passed))


def win_chances(view: PlayerView, model: RiskModel, tiles: Sequence[int],
          opponents: Sequence[Opponent]) -> list[list[float]]:
    """P(it wins on t) per kind of ``tiles``, for each of ``opponents``: 0 for a tile that
    passed it, else P(ready) · P(t | ready)."""
    rows = tile_features(view, [o.seat for o in opponents], tiles,
                         [o.features for o in opponents])
    return [[0.0 if t in o.passed else o.ready * _logistic(model.tile, x)
             for t, x in zip(tiles, seat_rows)] for o, seat_rows in zip(opponents, rows)]


def deal_in_cost(view: PlayerView, points: float) -> float:
    """What the discarder pays beyond a bystander's 6 for a win worth ``points`` on its
    discard (``3P − 18``, at least 0); on the final discard (the live wall empty) the win
    adds 河底捞鱼."""
    extra = YAKU["hedi"].points if view.live_wall_left == 0 else 0
    return max(3 * (points + extra) - 18, 0.0)


def risk(view: PlayerView, model: RiskModel, tiles: Sequence[int], least: float = 0.0,
         opponents: Sequence[Opponent] | None = None) -> list[float]:
    """Expected extra loss, in points, of discarding each of ``tiles``: the chance it wins for
    some seat times what that costs (``deal_in_cost``); opponents less than ``least`` likely
    to be ready are left out (``opponents``: their ``field``, where already measured)."""
    if opponents is None:
        opponents = field(view, model, least)
    loss = [0.0] * len(tiles)
    for o, row in zip(opponents, win_chances(view, model, tiles, opponents)):
        cost = deal_in_cost(view, o.points)
        if cost:
            loss = [x + p * cost for x, p in zip(loss, row)]
    return loss
