"""Planning tables: tiles-needed distances per target family and the plan list."""

import pytest

from agents.heuristic.plans import candidate_plans, plan_distance
from agents.heuristic.tables import INF, seven_pairs_distance, standard_distance
from mjenv.tiles import counts34, parse_melds, parse_tiles

ALL = ("all",) * 4


def key(hand: str) -> bytes:
    return bytes(counts34(parse_tiles(hand)))


@pytest.mark.parametrize("hand, families, expected", [
    ("123m456p789s11122z", ALL, 0),                      # complete
    ("123m456p789s1122z", ALL, 1),                       # one tile from a pung
    ("123m456p789s11z22z", ALL, 1),                      # 13 tiles, ready
    ("123m456p789s11z2z5z", ALL, 2),
    ("123456789m11122z", ("all", "none", "none", "all"), 0),
    ("123456789m111z22p", ("all", "none", "none", "all"), 2),   # the 2p pair is off-plan
    ("234567m345p66s888s", ("tanyao",) * 3 + ("none",), 0),
    ("123567m345p66s888s", ("tanyao",) * 3 + ("none",), 1),     # 1m is off-plan: 23m + 4m
    ("111m222p999s11z555z", ("pung",) * 4, 0),
    ("123m222p999s11z555z", ("pung",) * 4, 2),
])
def test_standard_distance(hand, families, expected):
    assert standard_distance(key(hand), 4, families) == expected


def test_distance_shrinks_with_declared_groups():
    # pon 555z declared: 10 concealed tiles need three groups and the pair
    assert standard_distance(key("123m456p789s11z"), 3, ALL) == 0
    assert standard_distance(key("123m456p789s1z"), 3, ALL) == 1


def test_seven_pairs_distance():
    assert seven_pairs_distance(key("1199m2288p3377s44z")) == 0
    assert seven_pairs_distance(key("1199m2288p3377s14z")) == 1
    assert seven_pairs_distance(key("1111m2288p3377s4z")) == 3   # four of a kind is one pair


def test_plans_follow_the_declared_melds():
    names = lambda melds: {p.name for p in candidate_plans(parse_melds(melds), True)}  # noqa
    free = names(None)
    assert {"qiduizi", "duiduihu", "hunyise_m", "qingyise_s", "yitiaolong_p", "wumenqi",
            "pinghu_duanyao", "jingtong_1mp"} <= free
    after_chi = names("chi:345p")
    assert "duiduihu" not in after_chi and "qiduizi" not in after_chi
    assert "hunyise_p" in after_chi and "hunyise_m" not in after_chi
    after_pon = names("pon:777z")
    assert "duiduihu" in after_pon and "pinghu_duanyao" not in after_pon
    assert not any(n.startswith("qingyise") for n in after_pon)
    # efficiency only: no values, just the two plain shapes
    assert [p.name for p in candidate_plans((), False)] == ["free", "qiduizi_shape"]


def _plan(name, melds=""):
    plans = candidate_plans(parse_melds(melds), True)
    return next(p for p in plans if p.name == name)


@pytest.mark.parametrize("name, hand, melds, expected", [
    ("yitiaolong_m", "123456789m234p55s", "", 0),
    ("yitiaolong_m", "12345678m234p55s1z", "", 1),
    ("yitiaolong_m", "456789m234p55s", "chi:123m", 0),
    ("jingtong_2mp", "234m234p567s111z99s", "", 0),
    ("jingtong_2mp", "234m23p567s111z99s5z", "", 1),
    ("wumenqi", "123m456p789s111z55z", "", 0),
    ("wumenqi", "123m456p789s111z56z", "", 1),
    ("wumenqi", "123m456p789s555z", "pon:222m", 2),        # 123m unused: a wind pair is due
    ("wumenqi", "456p789s555z11z", "pon:222m,chi:345m", INF),  # two groups in the m door
])
def test_forced_and_special_plans(name, hand, melds, expected):
    counts = counts34(parse_tiles(hand))
    m = parse_melds(melds)
    assert plan_distance(_plan(name, melds), counts, bytes(counts), 4 - len(m), m) == expected


def test_plan_state_matches_a_full_recomputation():
    """``PlanState.changed`` (one suit recomputed) agrees with ``plan_distance`` from scratch
    for every plan, every tile removed and every tile added, on varied hands."""
    from agents.heuristic.plans import PlanState
    hands = [("123456789m234p55s1z", ""), ("234m23p567s111z99s5z", ""),
             ("1199m2288p3377s14z", ""), ("456p789s555z11z", "pon:222m"),
             ("13m46p79s12345z6z", ""), ("2345678m11z", "chi:123m")]
    checked = 0
    for hand, melds in hands:
        m = parse_melds(melds)
        counts = counts34(parse_tiles(hand))
        groups = 4 - len(m)
        for plan in candidate_plans(m, True):
            state = PlanState(plan, counts, groups, m)
            assert state.base == plan_distance(plan, counts, bytes(counts), groups, m)
            for t in range(34):
                for delta in (-1, 1):
                    if not 0 <= counts[t] + delta <= 4:
                        continue
                    after = list(counts)
                    after[t] += delta
                    expected = plan_distance(plan, after, bytes(after), groups, m)
                    assert state.changed(t, delta) == expected, (hand, plan.name, t, delta)
                    checked += 1
    assert checked > 5000
