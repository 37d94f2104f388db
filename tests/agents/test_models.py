"""The expected-points heuristic's probability models: features from the view only, and the
shipped (fitted) models behave as the game says they must."""

from dataclasses import replace

import numpy as np

from agents.heuristic.models import (OPPONENT_FEATURES, TILE_FEATURES, field,
                                     opponent_features, passed_tiles, risk, tile_features,
                                     win_chances, win_probability)
from agents.heuristic.params import default
from tests.agents.helpers import view_of


def _flush_view(live=12):
    # seat 1 shows three melds in p late in the hand and has discarded 5m and 8m
    return view_of("456m3457p258s99s27z", melds=((), ("pon:111p", "chi:678p", "pon:999p"),
                                                 (), ()),
                   ponds=("", "5m8m", "", ""), live=live)


def test_feature_shapes_and_values():
    view = _flush_view()
    opp = opponent_features(view, 1)
    assert len(opp) == len(OPPONENT_FEATURES)
    assert opp[OPPONENT_FEATURES.index("melds")] == 3
    assert opp[OPPONENT_FEATURES.index("flush")] == 1.0
    tiles = sorted(set(view.hand))
    x = np.array(tile_features(view, [1, 2], tiles, [opp, opponent_features(view, 2)]))
    assert x.shape == (2, len(tiles), len(TILE_FEATURES))
    row = dict(zip(TILE_FEATURES, x[0, tiles.index(27 + 1)]))       # 2z: a wind
    assert row["honor"] == 1 and row["flush_in"] == 1               # honors join a flush
    row = dict(zip(TILE_FEATURES, x[0, tiles.index(4)]))            # 5m: seat 1 threw it
    assert row["genbutsu"] == 1 and row["flush_off"] == 1


def test_a_tile_that_passed_an_opponent_cannot_be_its_win():
    # seat 1 deals and throws 1m, then seats 2 and 3; now seat 0's turn
    view = view_of("456m3457p258s99s27z", ponds=("", "1m", "9p", "7s"), live=30, dealer=1)
    assert passed_tiles(view, 1) == {17, 24}           # 9p and 7s came after seat 1's 1m
    assert passed_tiles(view, 3) == set()              # nothing since seat 3's discard
    model = default().risk
    if model is None:
        return
    opponents = field(view, model)
    chances = {o.seat: row for o, row in zip(opponents,
                                             win_chances(view, model, [17, 24, 4], opponents))}
    assert chances[1][0] == 0 and chances[1][1] == 0 and chances[1][2] > 0 and 0 not in chances


def test_what_passed_a_hand_that_only_throws_what_it_draws_stays_passed():
    # seat 1 threw 1m from its hand, then drew and threw 9s and 5z: its hand has not changed
    # since 1m, so every discard after it passed (seat 1's own tsumogiri ones included)
    view = view_of("456m3457p258s99s27z", ponds=("2m3m", "1m9s5z", "9p2p", "7s6s"), live=30,
                   dealer=1)
    ponds = list(view.ponds)
    ponds[1] = tuple(replace(pt, tsumogiri=i > 0) for i, pt in enumerate(ponds[1]))
    view = replace(view, ponds=tuple(ponds))
    assert passed_tiles(view, 1) == {17, 24, 1, 26, 10, 23, 2, 31}  # all but its 1m
    assert passed_tiles(view, 2) == {23, 2, 31}                     # since its 2p


def test_the_shipped_models_make_sense():
    p = default()
    if p.risk is None:
        return
    # P(win) falls with the distance and rises with the acceptance
    by_distance = [win_probability(p.win, d, 12.0, 0.3, 0) for d in (1.0, 2, 3, 4, 6)]
    assert np.all(np.diff(by_distance) < 0)
    by_accept = [win_probability(p.win, 2.0, a, 0.3, 0) for a in (2.0, 10, 40)]
    assert np.all(np.diff(by_accept) > 0)
    # against a visible flush late in the hand, its suit is riskier than a tile it threw
    view = _flush_view()
    loss = risk(view, p.risk, [12, 4])                 # 4p (its suit) vs 5m (thrown by it)
    assert loss[0] > loss[1] > 0
