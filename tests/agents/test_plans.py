"""Planning tables: tiles-needed distances per target family, their bits, and the plan list."""

from functools import lru_cache
from itertools import combinations_with_replacement

import numpy as np
import pytest

from agents.heuristic.plans import STD, Plan, PlanList, candidate_plans, meld_key, plan_points
from agents.heuristic.tables import (FAMILIES, INF, _family_groups, seven_pairs_distance,
                                     slot_bits, suit_rows)
from mjenv.scoring import YAKU
from mjenv.tiles import counts34, parse_melds, parse_tiles
from tests.scale import n

ALL = ("all",) * 4


def key(hand: str) -> bytes:
    return bytes(counts34(parse_tiles(hand)))


def standard_distance(key34: bytes, groups: int, families) -> int:
    """Tiles needed for ``groups`` groups + pair, suit ``i`` restricted to ``families[i]``."""
    plist = PlanList([Plan("target", STD, (), 0, tuple(families), plain=True)], groups)
    return plist.evaluate(key34, ()).dist[0]


@pytest.mark.parametrize("hand, families, expected", [
    ("123m456p789s11122z", ALL, 0),                      # complete
    ("123m456p789s1122z", ALL, 1),                       # one tile from a pung
    ("123m456p789s11z22z", ALL, 1),                      # 13 tiles, ready
    ("123m456p789s11z2z5z", ALL, 2),
    ("123456789m11122z", ("all", "none", "none", "all"), 0),
    ("123456789m111z22p", ("all", "none", "none", "all"), 2),   # the 2p pair is off-plan
    ("234567m345p66s678s", ("tanyao_chow",) * 3 + ("none",), 0),
    ("123567m345p66s678s", ("tanyao_chow",) * 3 + ("none",), 1),  # 1m is off-plan: 23m + 4m
    ("234567m345p66s888s", ("tanyao_chow",) * 3 + ("none",), 1),  # no pung: 88s + 678s
    ("111m222p999s11z555z", ("pung",) * 4, 0),
    ("123m222p999s11z555z", ("pung",) * 4, 2),
])
def test_standard_distance(hand, families, expected):
    assert standard_distance(key(hand), 4, families) == expected


def test_distance_shrinks_with_declared_groups():
    # pon 555z declared: 10 concealed tiles need three groups and the pair
    assert standard_distance(key("123m456p789s11z"), 3, ALL) == 0
    assert standard_distance(key("123m456p789s1z"), 3, ALL) == 1


def test_loose_tables_let_a_target_with_a_pair_hold_five_of_a_kind():
    """v1's tables (``/loose``) capped four copies a rank only on targets without a pair:
    for four pungs and a pair of m from 1122223999m the loose table takes 111 222 222 999
    + 33 (six 2m: a 1m, two 2m and a 3m to draw), the strict one 111 222 333 999 + 44."""
    hand = key("1122223999m")
    strict = standard_distance(hand, 4, ("pung", "none", "none", "none"))
    loose = standard_distance(hand, 4, ("pung/loose", "none", "none", "none"))
    assert (loose, strict) == (4, 5)


def test_seven_pairs_distance():
    assert seven_pairs_distance(key("1199m2288p3377s44z")) == 0
    assert seven_pairs_distance(key("1199m2288p3377s14z")) == 1
    assert seven_pairs_distance(key("1111m2288p3377s4z")) == 3   # four of a kind is one pair


@lru_cache(maxsize=None)
def _all_targets(family: str, honors: bool, loose: bool) -> tuple[np.ndarray, np.ndarray]:
    """Every target of a whole suit, enumerated: (counts (M, ranks), slot of each)."""
    groups, pairs = _family_groups(family, honors)
    rows, slots = [], []
    for k in range(5):
        for combo in combinations_with_replacement(groups, k):
            c = [0] * (7 if honors else 9)
            for g in combo:
                for r in g:
                    c[r] += 1
            capped = max(c, default=0) <= 4
            if capped:
                rows.append(c)
                slots.append(2 * k)
            if not (capped or loose):
                continue
            for p in pairs:
                if c[p] <= 2:
                    rows.append(c[:p] + [c[p] + 2] + c[p + 1:])
                    slots.append(2 * k + 1)
    return np.array(rows), np.array(slots)


def _brute(family: str, suit_key: bytes, loose: bool) -> tuple[int, ...]:
    """The minimum over every target of each slot: the definition the tables must match."""
    targets, slots = _all_targets(family, len(suit_key) == 7, loose)
    cost = np.maximum(targets - np.frombuffer(suit_key, np.uint8), 0).sum(axis=1)
    return tuple(int(cost[slots == s].min()) if (slots == s).any() else INF
                 for s in range(10))


def test_suit_tables_match_every_target_enumerated():
    """The half-and-join tables give, for random suit keys of every family (strict and
    loose), exactly the minimum over all targets; the need/surplus bits of every slot agree
    with the neighbouring keys' distances (one tile more lowers it / one less keeps it)."""
    rng = np.random.default_rng(0)
    checked = 0
    for honors in (False, True):
        size = 7 if honors else 9
        for _ in range(n(6, 40)):
            k = bytes(int(x) for x in rng.choice(5, size, p=[.45, .25, .15, .1, .05]))
            for family in FAMILIES:
                for loose in (False, True):
                    fam = family + ("/loose" if loose else "")
                    ref = _brute(family, k, loose)
                    row = suit_rows(((fam, 0),), k).rows[0]
                    assert tuple(row.tolist()) == ref, (fam, list(k))
                    for slot in range(10):
                        if ref[slot] >= INF:
                            continue
                        need, surplus, _ = slot_bits(fam, k, slot)
                        for r in range(size):
                            if k[r] < 4:
                                up = bytearray(k)
                                up[r] += 1
                                lower = _brute(family, bytes(up), loose)[slot] < ref[slot]
                                assert bool(need >> r & 1) == lower, (fam, list(k), slot, r)
                            if k[r] > 0:
                                down = bytearray(k)
                                down[r] -= 1
                                same = _brute(family, bytes(down), loose)[slot] == ref[slot]
                                assert bool(surplus >> r & 1) == same, (fam, list(k), slot, r)
                        checked += 1
    assert checked > 100


def _plans(melds: str = "", loose: bool = False):
    """Every plan open to ``melds``, the knitted one included."""
    m = parse_melds(melds)
    return m, PlanList(candidate_plans(meld_key(m), True, loose, knitted=True), 4 - len(m))


def test_plans_follow_the_declared_melds():
    names = lambda melds: {p.name for p in candidate_plans(meld_key(parse_melds(melds)),  # noqa
                                                           True)}
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
    # the knitted shape: only when asked for (v1 had no such plan), and fully concealed
    assert "shisan_buda" not in free
    knitted = lambda melds: {p.name for p in candidate_plans(  # noqa: E731
        meld_key(parse_melds(melds)), True, knitted=True)}
    assert "shisan_buda" not in knitted("ankan:1111z")
    plan = next(p for p in candidate_plans((), True, knitted=True) if p.name == "shisan_buda")
    assert plan.points == YAKU["shisan_buda"].points                   # excludes 门清


def test_plan_points_come_from_the_yaku_rows():
    plans = {p.name: p for p in candidate_plans((), True)}
    menqing = YAKU["menqing"].points
    assert plans["qingyise_m"].points == YAKU["qingyise"].points + menqing
    assert plans["pinghu_duanyao"].points == (YAKU["pinghu"].points + YAKU["duanyao"].points
                                              + menqing)
    assert plans["qiduizi"].points == YAKU["qiduizi"].points          # excludes 门清
    assert plans["free"].points == 0                                   # not a value plan
    opened = {p.name: p for p in candidate_plans(meld_key(parse_melds("pon:777z")), True)}
    assert opened["hunyise_m"].points == YAKU["hunyise"].points       # open: no 门清
    assert plan_points(("duiduihu",), concealed=True) == YAKU["duiduihu"].points + menqing


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
    ("shisan_buda", "147m258p369s12345z", "", 0),
    ("shisan_buda", "147m258p369s1234z", "", 1),
    ("shisan_buda", "147m258p36s11234z5m", "", 2),       # 5m, a second 1z: no place
    ("shisan_buda", "14m47p2258s12345z", "", 2),         # a second 2s; 7m or 1p, an honor
])
def test_forced_and_special_plans(name, hand, melds, expected):
    m, plist = _plans(melds)
    i = next(i for i, p in enumerate(plist.plans) if p.name == name)
    assert plist.evaluate(counts34(parse_tiles(hand)), m).dist[i] == expected


@pytest.mark.parametrize("loose", [False, True])
def test_masks_match_a_full_recomputation(loose):
    """For every plan, on varied hands: ``surplus`` holds exactly the kinds whose removal
    keeps the distance, ``need`` exactly the kinds (held fewer than four times) whose
    addition shortens it, and ``want(i, t)`` (t surplus) exactly the kinds that shorten the
    hand once a ``t`` is gone — each checked against evaluating the changed hand from
    scratch."""
    hands = [("123456789m234p55s1z", ""), ("234m23p567s111z99s5z", ""),
             ("1199m2288p3377s14z", ""), ("456p789s555z11z", "pon:222m"),
             ("13m46p79s12345z6z", ""), ("2345678m11z", "chi:123m"),
             ("2223334445m67p", ""), ("11112345m678p1z", ""), ("147m258p36s11234z5m", "")]
    checked = 0
    for hand, melds in hands:
        m, plist = _plans(melds, loose)
        counts = counts34(parse_tiles(hand))
        ev = plist.evaluate(counts, m)

        def dist(c):
            return plist.evaluate(c, m).dist

        for i, plan in enumerate(plist.plans):
            if ev.dist[i] >= INF:
                continue
            need, surplus = ev.bits(i)
            for t in range(34):
                if counts[t]:
                    less = list(counts)
                    less[t] -= 1
                    after = dist(less)
                    assert bool(surplus >> t & 1) == (after[i] == ev.dist[i]), (hand, plan.name, t)
                    want = ev.want(i, t) if surplus >> t & 1 else None
                    if want is not None:
                        for u in range(34):
                            if less[u] < 4 and u != t:
                                more = list(less)
                                more[u] += 1
                                better = dist(more)[i] < after[i]
                                assert bool(want >> u & 1) == better, (hand, plan.name, t, u)
                                checked += 1
                if counts[t] < 4:
                    more = list(counts)
                    more[t] += 1
                    assert bool(need >> t & 1) == (dist(more)[i] < ev.dist[i]), (hand, plan.name, t)
    assert checked > 1000
