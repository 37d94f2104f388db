"""Properties over seeded random winning hands (every shape, melds, flags).

The scorer evaluates each predicate once per hand, per decomposition or per reading according
to its declared ``scope``, and skips it when the reading has fewer chows/pungs than its
declared minimum; these tests check those declarations and that the shortcut scorer equals the
plain definition: the best over all readings of (holding yaku − excluded yaku).
"""

from __future__ import annotations

import pytest

from mjenv.analysis import wait_kinds
from mjenv.scoring import YAKU, clear_caches, counted, holding_yaku, readings, score
from mjenv.scoring.reading import NUMBER_SUITS, Reading
from mjenv.scoring.yaku import GROUPS, HAND, SITUATION, SUITS, TILES, Yaku
from mjenv.scoring.yaku.numbers import HONOR_NUMBERS
from tests.scale import n
from tests.scoring.handgen import random_wins

WINS = random_wins(seed=2024, n=n(400, 4000))


@pytest.mark.parametrize("chunk", range(4))
def test_score_is_the_best_reading(chunk: int) -> None:
    for w in WINS[chunk::4]:
        r = score(w.hand, w.win_tile, w.melds, w.ctx)
        totals = [sum(counted(holding_yaku(x)).values())
                  for x in readings(w.hand, w.win_tile, w.melds, w.ctx)]
        assert r.points == max(totals), w
        assert r.yaku == counted(holding_yaku(r.reading))
        assert sum(r.yaku.values()) == r.points
        assert all(v == YAKU[k].points * holding_yaku(r.reading)[k] for k, v in r.yaku.items())


def test_scopes_and_minimums_are_honest() -> None:
    memo: dict[tuple, int] = {}        # SUITS, TILES, SITUATION, GROUPS: shared across hands
    for w in WINS:
        rs = readings(w.hand, w.win_tile, w.melds, w.ctx)
        by_shape: dict[str, dict[str, int]] = {}
        by_decomposition: dict[tuple, dict[str, int]] = {}
        for r in rs:
            for y in YAKU.values():
                if r.shape not in y.shapes:
                    continue
                v = y(r)
                if y.scope == SUITS:
                    assert memo.setdefault((y.id, r.shape, r.suits), v) == v, (y.id, w)
                elif y.scope == TILES:
                    assert memo.setdefault((y.id, r.shape, r.suits, r.ranks), v) == v, (y.id, w)
                elif y.scope == SITUATION:
                    key = (y.id, r.shape, r.ctx.flags, r.single_wait, r.open_melds)
                    assert memo.setdefault(key, v) == v, (y.id, w)
                elif y.scope == HAND:
                    assert by_shape.setdefault(r.shape, {}).setdefault(y.id, v) == v, (y.id, w)
                elif y.scope == GROUPS:
                    key = (r.pair, tuple(sorted((g.kind, g.first) for g in r.groups)))
                    assert by_decomposition.setdefault(key, {}).setdefault(y.id, v) == v, \
                        (y.id, w)
                    key = (y.id, r.pair, r.chows, r.pungs, r.kongs, r.quads, r.suits, r.ranks,
                           r.ctx.seat_wind, r.ctx.round_wind)     # all a GROUPS yaku reads
                    assert memo.setdefault(key, v) == v, (y.id, w)
                if v:
                    assert _meets_declarations(y, r), (y.id, w)
                if y.exact:     # the declarations decide it
                    assert bool(v) == _meets_declarations(y, r) and v <= 1, (y.id, w)


def _meets_declarations(y: Yaku, r: Reading) -> bool:
    """Whether reading ``r`` meets every maximum of ``y`` (any shape) and, in the standard
    shape, every minimum and its placements, straight from the definitions."""
    shown = [k for k in range(1, 10) if r.ranks >> k & 1]
    numbers = bin(r.ranks).count("1") + HONOR_NUMBERS[r.suits >> 3]
    if not (r.ranks & ~y.within_ranks == 0 and r.suits & ~y.within_suits == 0
            and bin(r.suits & NUMBER_SUITS).count("1") <= y.most_suits
            and numbers <= y.most_numbers
            and (not shown or shown[-1] - shown[0] < y.rank_span)):
        return False
    if r.shape != "standard":
        return True
    wind_pungs = sum(1 for t in r.pungs if 27 <= t < 31)
    dragon_pungs = sum(1 for t in r.pungs if t >= 31)
    suits = bin(r.suits & NUMBER_SUITS).count("1")
    twins = len(r.chows) - len(set(r.chows))
    adjacent = sum(1 for t in r.pungs if t < 27 and t % 9 < 8 and t + 1 in r.pungs)
    per_suit = [len({t for t in r.chows if t // 9 == s}) for s in range(3)]
    return (r.placement in y.placements and len(r.chows) >= y.chows
            and len(r.pungs) >= y.pungs and wind_pungs >= y.wind_pungs
            and dragon_pungs >= y.dragon_pungs and len(r.quads) >= y.quads
            and suits >= y.suits and r.ranks & y.ranks == y.ranks
            and y.pairs >> r.pair & 1 == 1 and len(r.kongs) >= y.kongs
            and twins >= y.twin_chows and adjacent >= y.adjacent_pungs
            and r.concealed_pungs >= y.concealed_pungs
            and sum(1 for k in per_suit if k) >= y.chow_suits and max(per_suit) >= y.suit_chows
            and not (y.several_waits and r.single_wait))


def test_readings_are_consistent() -> None:
    for w in WINS:
        for r in readings(w.hand, w.win_tile, w.melds, w.ctx):
            assert len(r) == len(Reading._fields) and r.win_tile == w.win_tile and r.ctx == w.ctx
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


def test_single_wait_matches_the_wait_set() -> None:
    """The scorer proves a second wait cheaply where it can; it must agree with the full set."""
    for w in WINS:
        counts = [0] * 34
        for t in w.hand:
            counts[t] += 1
        single = len(wait_kinds(counts, w.melds)) == 1
        assert all(r.single_wait == single
                   for r in readings(w.hand, w.win_tile, w.melds, w.ctx)), w


def test_declared_minimums_are_used() -> None:
    """The suit and rank minimums are declared where they hold (and reach the scorer)."""
    assert YAKU["sanse_tongke"].suits == 3 and YAKU["jingtong"].suits == 2
    assert YAKU["yitiaolong"].ranks == 0b1111111110 and YAKU["laoshao"].ranks == 0b1000000010
    assert YAKU["qingyise"].most_suits == 1 and YAKU["quemen"].most_suits == 2
    assert YAKU["duipeng"].placements == {"shuangpeng"} and YAKU["pinghu"].placements == {
        "liangmian"}


def test_a_placement_restriction_needs_the_placement_scope() -> None:
    from mjenv.scoring.yaku.base import GROUPS, PLACEMENT, S, yaku
    with pytest.raises(ValueError, match="only a PLACEMENT yaku"):
        yaku("x", "x", "x", 1, S, scope=GROUPS, placements=("dandiao",))(lambda r: 0)
    with pytest.raises(ValueError, match="only a PLACEMENT yaku"):
        yaku("x", "x", "x", 1, S, scope=PLACEMENT, placements=("dandiao", "nowhere"))(lambda r: 0)


def test_only_candidate_yaku_can_be_exact() -> None:
    from mjenv.scoring.yaku.base import GROUPS, TILES, S, yaku
    assert {y.id for y in YAKU.values() if y.exact} == {
        "duipeng", "jiadu", "san_anke", "si_anke", "duiduihu", "jiangyan", "yibangao"}
    for bad in ({"scope": TILES}, {"scope": GROUPS, "most_numbers": 3},
                {"scope": GROUPS, "suit_chows": 2}):
        with pytest.raises(ValueError, match="can be exact"):
            yaku("x", "x", "x", 1, S, exact=True, **bad)(lambda r: 0)


def test_memoisation_does_not_change_results() -> None:
    first = [score(w.hand, w.win_tile, w.melds, w.ctx) for w in WINS[:200]]
    clear_caches()
    assert [score(w.hand, w.win_tile, w.melds, w.ctx) for w in WINS[:200]] == first
