"""Properties over seeded random winning hands (every shape, melds, flags): readings are
consistent with the tiles, the single wait is the wait set's, and memoisation changes
nothing."""

from __future__ import annotations

import pytest

from mjenv.analysis import wait_kinds
from mjenv.scoring import clear_caches, counted, holding_yaku, readings, score, YAKU
from mjenv.scoring.generate import generate_hands
from mjenv.scoring.reading import Reading
from tests.scale import n

WINS = generate_hands(n(400, 4000), seed=2024)


@pytest.mark.parametrize("chunk", range(4))
def test_score_is_the_best_reading(chunk: int) -> None:
    for w in WINS[chunk::4]:
        r = score(w.hand, w.win_tile, w.melds, w.context())
        totals = [sum(counted(holding_yaku(x)).values())
                  for x in readings(w.hand, w.win_tile, w.melds, w.context())]
        assert r.points == max(totals), w
        assert r.yaku == counted(holding_yaku(r.reading))
        assert sum(r.yaku.values()) == r.points
        assert all(v == YAKU[k].points * holding_yaku(r.reading)[k] for k, v in r.yaku.items())


def test_readings_are_consistent() -> None:
    for w in WINS:
        for r in readings(w.hand, w.win_tile, w.melds, w.context()):
            assert len(r) == len(Reading._fields) and r.win_tile == w.win_tile
            assert r.ctx == w.context()
            assert r.kinds == tuple(k for k in range(34) if r.counts[k])
            assert r.chow_bits == sum(1 << t for t in set(r.chows))
            assert r.pung_bits == sum(1 << t for t in set(r.pungs))
            if r.shape != "standard":
                assert r.groups == () and r.placement is None
                continue
            assert len(r.groups) == 4 and len(r.chows) + len(r.pungs) == 4
            tiles = sorted([t for g in r.groups for t in g.tiles] + [r.pair, r.pair])
            assert tiles == sorted(t for t in range(34) for _ in range(r.counts[t]))
            group = r.groups[r.win_group] if r.win_group is not None else None
            assert w.win_tile in (group.tiles if group else (r.pair,))
            assert group is None or group.source == "hand"
            assert r.concealed_pungs == sum(1 for g in r.groups
                                            if g.kind != "chow" and g.concealed)


def test_single_wait_matches_the_wait_set() -> None:
    for w in WINS:
        counts = [0] * 34
        for t in w.hand:
            counts[t] += 1
        single = len(wait_kinds(counts, w.melds)) == 1
        assert all(r.single_wait == single
                   for r in readings(w.hand, w.win_tile, w.melds, w.context())), w


def test_memoisation_does_not_change_results() -> None:
    first = [score(w.hand, w.win_tile, w.melds, w.context()) for w in WINS[:200]]
    clear_caches()
    assert [score(w.hand, w.win_tile, w.melds, w.context()) for w in WINS[:200]] == first
