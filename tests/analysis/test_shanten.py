"""Shanten for every shape, cross-checked against the ``mahjong`` package and brute force."""

import itertools

import numpy as np
import pytest
from mahjong.shanten import Shanten

from mjenv import shanten as top_level_shanten
from mjenv.analysis import (
    clear_caches,
    decompose_standard,
    is_knitted,
    is_seven_pairs,
    is_thirteen_orphans,
    knitted_cover,
    knitted_masks,
    knitted_need,
    shanten,
    shanten_counts,
    shanten_knitted,
    shanten_orphans,
    shanten_seven_pairs,
    shanten_standard,
    structural_waits,
)
from mjenv.analysis.tables import KNIT_VALID
from mjenv.tiles import counts34, parse_tiles
from tests.analysis.helpers import near_ready, random_counts, random_knitted, random_win
from tests.scale import n


def c(text: str) -> list[int]:
    return counts34(parse_tiles(text))


def test_top_level_export():
    assert top_level_shanten is shanten


@pytest.mark.parametrize("hand, melds, expected", [
    ("123m456m789m123p55s", (), -1),
    ("123m456m789m123p5s", (), 0),
    ("19m19p19s1234567z", (), 0),                 # orphans (and knitted) ready
    ("19m19p19s12345677z", (), -1),
    ("1122334455667p", (), 0),
    ("147m258p369s1234z", (), 0),                 # knitted ready
    ("147m258p369s12345z", (), -1),
    ("37m37p37s1234567z", (), 1),                 # 37 can't grow to three ranks: not ready
    ("1111m234p567p789p", (), 0),                 # structural: waits on a fifth 1m
    ("1111z123m456m789m", (), 0),
    ("5s", ["chi:123m", "pon:777z", "minkan:1111p", "ankan:9999s"], 0),
    ("55s", "chi:123m,pon:777z,minkan:1111p,ankan:9999s", -1),
    ("11335577m13p", ["pon:222z"], 2),             # no seven pairs with a meld
    ("13579m2468p1357s", (), 4),
])
def test_examples(hand, melds, expected):
    assert shanten(hand, melds) == expected


def test_per_shape_values():
    h = c("1133557799m1357p")           # five pairs, 14 tiles
    assert shanten_seven_pairs(h) == 1
    assert shanten_orphans(c("19m19p19s1234567z")) == 0
    assert shanten_orphans(c("19m19p19s12345677z")) == -1
    assert shanten_orphans(c("2345678m2345678p")) == 13
    assert shanten_knitted(c("147m258p369s12345z")) == -1
    assert shanten_knitted(c("147m258p369s1234z")) == 0
    assert shanten_knitted(c("37m37p37s1234567z")) == 1
    assert shanten_knitted(c("1111222233334m")) == 13 - 2
    assert shanten_seven_pairs(c("1111222233334m")) == 6 - 3 + 3    # four 1m is one pair
    assert shanten_standard(c("55s")) == -1
    assert shanten_standard(c("5s")) == 0
    assert shanten_standard(c("123m456m789m123p5s")) == 0


def test_knitted_cover_and_masks():
    """The cover is what the knitted shanten is made of; the masks are the kinds that change
    it, checked one copy more or less at a time on random hands of 13 and 14 tiles (and a
    near-knitted one); ``knitted_need`` is the need mask alone."""
    rng = np.random.default_rng(5)
    hands = [random_counts(rng, size) for size in (13, 14) for _ in range(n(40, 400))]
    hands.append(c("147m258p36s11234z5m"))
    for h in hands:
        cover, need, surplus = knitted_masks(h)
        assert cover == knitted_cover(h) == 13 - shanten_knitted(h)
        assert knitted_need(h) == need
        for t in range(34):
            other = list(h)
            if h[t] < 4:
                other[t] += 1
                assert bool(need >> t & 1) == (knitted_cover(other) > cover), (h, t)
                other[t] -= 1
            if h[t]:
                other[t] -= 1
                assert bool(surplus >> t & 1) == (knitted_cover(other) == cover), (h, t)
            else:
                assert not surplus >> t & 1


def test_fewer_than_seven_kinds():
    assert shanten_seven_pairs(c("11112222333344m")) == 6 - 4 + 3
    assert shanten_counts(c("11112222333344m")) == -1          # 111 222 333 444... standard


@pytest.mark.parametrize("call, msg", [
    (lambda: shanten("123m456m789m123p"), "13 or 14 concealed tiles with 0 meld"),
    (lambda: shanten("123m456m789m", "pon:777z"), "10 or 11 concealed tiles with 1 meld"),
    (lambda: shanten("11111m456m789m123p"), "1m is held 5"),
    (lambda: shanten("1m", ["pon:111m", "ankan:1111m", "chi:123s", "chi:123s"]), "1m is held 8"),
    (lambda: shanten_counts(c("123m456m789m123p5s"), 1), "10 or 11 concealed tiles with 1"),
    (lambda: shanten_counts([0] * 33), "34 entries"),
    (lambda: shanten_counts([5] + [0] * 33), "1m .*has 5"),
    (lambda: shanten_counts([-1] + [1] * 33), "1m .*has -1"),
    (lambda: shanten_standard(c("123m")), "3k\\+1 or 3k\\+2"),
    (lambda: shanten_seven_pairs(c("123m")), "13 or 14"),
    (lambda: shanten_knitted(c("123m456m789m12p")), "13 or 14"),
    (lambda: shanten_orphans(c("1m")), "13 or 14"),
])
def test_bad_input(call, msg):
    with pytest.raises(ValueError, match=msg):
        call()


def test_cache_does_not_hide_errors():
    h = c("123m456m789m123p5s")
    assert shanten_counts(h) == 0
    with pytest.raises(ValueError):
        shanten_counts(h, 1)
    assert shanten_counts(tuple(h)) == shanten_counts(np.array(h)) == 0


def _check_against_package(h):
    ours = shanten_standard(h), shanten_seven_pairs(h), shanten_orphans(h)
    theirs = (Shanten.calculate_shanten_for_regular_hand(h),
              Shanten.calculate_shanten_for_chiitoitsu_hand(h),
              Shanten.calculate_shanten_for_kokushi_hand(h))
    if max(h) < 4:
        assert ours == theirs, h
        # all shapes together: the package has no knitted shape
        assert shanten_counts(h) == min(Shanten.calculate_shanten(h), shanten_knitted(h)), h
    else:       # the package's four-copy corrections are not structural (see below)
        assert ours[1:] == theirs[1:] and ours[0] <= theirs[0], h


def test_against_mahjong_package():
    """Standard, seven pairs and orphans agree with ``mahjong`` on random 13/14-tile hands."""
    rng = np.random.default_rng(123456789)
    for i in range(10_000):
        _check_against_package(random_counts(rng, 13 + i % 2))


def test_against_mahjong_package_on_near_ready_hands():
    """Random hands are mostly far from ready; winning and nearly-ready ones cover the rest."""
    rng = np.random.default_rng(99)
    checked = 0
    while checked < n(3000, 10_000):
        h, melds = random_win(rng) if checked % 2 else near_ready(rng)
        if not melds:
            _check_against_package(h)
            checked += 1


def test_four_copies_are_structural():
    """The package adds a shanten for dead fourth copies; we deliberately do not (RULES.md §7:
    the four-held rule limits waits only)."""
    for hand in ("1111z123m456m789m", "1111m234p567p789p"):
        assert shanten_standard(c(hand)) == 0
        assert Shanten.calculate_shanten_for_regular_hand(c(hand)) == 1


def _is_win(h, n_melds=0):
    if decompose_standard(h):
        return True
    return n_melds == 0 and (is_seven_pairs(h) or is_knitted(h) or is_thirteen_orphans(h))


def test_complete_iff_winning_shape():
    rng = np.random.default_rng(5)
    for i in range(n(3000, 10_000)):
        if i % 2:
            h, melds = random_win(rng)
        else:
            h, melds = random_counts(rng, 14), ()
        assert (shanten_counts(h, len(melds)) == -1) == _is_win(h, len(melds)), (h, melds)


def test_ready_iff_structural_waits():
    rng = np.random.default_rng(6)
    ready = 0
    for i in range(n(3000, 10_000)):
        if i % 2:
            h, melds = near_ready(rng)
        else:
            h, melds = random_counts(rng, 13), ()
        s = shanten_counts(h, len(melds))
        assert s >= 0
        assert (s == 0) == bool(structural_waits(h, len(melds))), (h, melds)
        ready += s == 0
    assert ready > n(3000, 10_000) // 6


def test_shanten_is_exchange_distance():
    """13 tiles at shanten s: some draw reaches s−1 and none does better; 14 tiles at s: the
    best discard keeps s. Checked exhaustively (fifth copies excluded) on random hands."""
    rng = np.random.default_rng(11)
    for _ in range(n(40, 400)):
        h = random_counts(rng, 13)
        s = shanten_counts(h)
        after_draw = []
        for t in range(34):
            if h[t] == 4:
                continue
            h[t] += 1
            s14 = shanten_counts(h)
            after_draw.append(s14)
            best_discard = min(shanten_counts([x - (u == d) for u, x in enumerate(h)])
                               for d in range(34) if h[d])
            assert best_discard == max(s14, 0), h
            h[t] -= 1
        assert min(after_draw) == s - 1 or s == 0


_POP = np.array([bin(m).count("1") for m in range(512)])
# Every complete knitted hand's number part: three valid rank masks with 7–9 ranks in all.
_TRIPLES = np.array([t for t in itertools.product(sorted(KNIT_VALID), repeat=3)
                     if sum(bin(m).count("1") for m in t) >= 7])


def _knitted_brute(h):
    """13 − the most held tiles inside any complete knitted hand (every mask triple tried)."""
    masks = [sum(1 << r for r in range(9) if h[lo + r]) for lo in (0, 9, 18)]
    honors = sum(1 for t in range(27, 34) if h[t])
    size = _POP[_TRIPLES].sum(axis=1)
    held = sum(_POP[_TRIPLES[:, s] & masks[s]] for s in range(3))
    return 13 - int((held + np.minimum(honors, 14 - size)).max())


def test_knitted_against_brute_force():
    rng = np.random.default_rng(8)
    for i in range(n(400, 2000)):
        if i % 2:
            h = random_knitted(rng)
            # damage it a little: swap one tile for a random one
            h[h.index(1)] -= 1
            h[int(rng.integers(34))] += 1
        else:
            h = random_counts(rng, 13 + (i // 2) % 2)
        assert shanten_knitted(h) == _knitted_brute(h), h


def test_results_do_not_depend_on_cache_state():
    rng = np.random.default_rng(3)
    hands = [random_counts(rng, 13 + i % 2) for i in range(300)]
    warm = [shanten_counts(h) for h in hands]
    clear_caches()
    assert [shanten_counts(h) for h in reversed(hands)] == warm[::-1]
