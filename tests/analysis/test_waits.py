"""Wait sets (RULES.md §7), including the four-held exclusion and called melds."""

import numpy as np
import pytest

from mjenv import waits as top_level_waits
from mjenv.analysis import (
    decompose_standard,
    is_knitted,
    is_seven_pairs,
    is_thirteen_orphans,
    structural_waits,
    wait_kinds,
    waits,
)
from mjenv.tiles import TILE_NAMES, Meld, counts34, parse_meld, parse_tiles
from tests.analysis.helpers import near_ready, random_counts
from tests.scale import n


def test_rulebook_example_22_waits():
    w = waits("19m19p19s1234567z")
    assert len(w) == 22
    assert w == ["1m", "4m", "5m", "6m", "9m", "1p", "4p", "5p", "6p", "9p",
                 "1s", "4s", "5s", "6s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"]


def test_top_level_export():
    assert top_level_waits is waits


@pytest.mark.parametrize("hand, expected", [
    ("1112345678999m", "123456789m"),          # nine gates
    ("123m456m789m123p5s", "5s"),              # tanki
    ("123m456m789m12p55s", "3p"),              # edge
    ("123m456m789m13p55s", "2p"),              # closed
    ("123m456m789m23p55s", "14p"),             # two-sided
    ("123m456m789s55p55s", "5p5s"),            # shanpon
    ("1122334455667p", "147p"),                # seven pairs wait 7p, standard 1p/4p
    ("1133557799m113p", "3p"),                 # seven pairs single wait
    ("1133557799m135p", ""),                   # five pairs
    ("147m258p369s1234z", "567z"),             # knitted
    ("37m37p37s1234567z", ""),                 # knitted-looking but no 14th tile fits
    ("19m19p19s1234566z", "7z"),               # orphans, one missing
    ("13579m2468p1357s", ""),                  # no shape at all
    ("666m11p111234s44z", "1p4z"),             # all suits complete: shanpon across suits
])
def test_examples(hand, expected):
    assert waits(hand) == [TILE_NAMES[t] for t in parse_tiles(expected)]


def test_wait_on_own_fourth_tile_is_excluded():
    # 1111m + three chows: the only shape wait is a fifth 1m
    assert waits("1111m234p567p789p") == []
    assert structural_waits(counts34(parse_tiles("1111m234p567p789p"))) == [0]
    # holding four 4m leaves the other waits of the block alone
    assert waits("2344445m123p456p") == ["2m", "3m", "5m", "6m"]


def test_waits_with_melds():
    assert waits("5s", ["chi:123m", "pon:777z", "minkan:1111p", "ankan:9999s"]) == ["5s"]
    assert waits("23m55p", "chi:123m,pon:777z,chi:789s") == ["1m", "4m"]
    # pon:444m plus 44m concealed would be six 4m
    with pytest.raises(ValueError, match="4m is held 5 times"):
        waits("44m55p789s", ["pon:444m", "chi:123s"])
    # a kong meld holds all four: the closed wait on that kind is not a wait
    assert waits("35m11p", ["ankan:4444m", "pon:111z", "pon:222z"]) == []
    assert waits("35m11p", ["pon:444m", "pon:111z", "pon:222z"]) == ["4m"]
    assert waits("4m", [parse_meld("pon:444m"), "pon:111z", "pon:222z", "pon:333z"]) == []
    assert waits("4m", [Meld("pon", (4, 4, 4)), "pon:111z", "pon:222z", "pon:333z"]) == ["4m"]


def test_special_shapes_only_without_melds():
    # a 10-tile seven-pairs-looking hand with a meld waits only on standard shapes
    assert waits("1133557799m", ["pon:111z"]) == []


def test_hand_as_ints():
    assert waits(parse_tiles("123m456m789m123p5s")) == ["5s"]
    with pytest.raises(ValueError, match="not a tile index"):
        waits([0, 1, 2, 34])


@pytest.mark.parametrize("hand, melds, msg", [
    ("123m456m789m123p", (), "13 concealed tiles with 0 meld"),
    ("123m456m789m123p55s", (), "13 concealed tiles with 0 meld"),
    ("123m456m789m", ["pon:777z"], "10 concealed tiles with 1 meld"),
    ("11111m23p456p789p", (), "1m .*has 5"),
    ("8z", (), '"8z" is not a tile'),
    (None, (), "mpsz string or a sequence of tile ints"),
    ("123m456m789m123p5s", 5, "meld strings or Meld objects"),
    ("123m456m789m", ["pon:667z"], "needs 3 identical tiles"),
])
def test_bad_input(hand, melds, msg):
    with pytest.raises(ValueError, match=msg):
        waits(hand, melds)


def test_wait_kinds_counts_level():
    c = counts34(parse_tiles("123m456m789m23p55s"))
    assert wait_kinds(c) == [9, 12]
    assert wait_kinds(tuple(c)) == [9, 12]
    assert wait_kinds(np.array(c)) == [9, 12]
    with pytest.raises(ValueError, match="34 entries"):
        wait_kinds(c[:33])


def _is_win(counts, n_melds):
    if decompose_standard(counts):
        return True
    return n_melds == 0 and (is_seven_pairs(counts) or is_knitted(counts)
                             or is_thirteen_orphans(counts))


def _brute_force_waits(counts, melds):
    held = list(counts)
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    out = []
    for t in range(34):
        if held[t] >= 4:
            continue
        c = list(counts)
        c[t] += 1
        if _is_win(c, len(melds)):
            out.append(t)
    return out


def test_waits_match_brute_force_on_near_ready_hands():
    rng = np.random.default_rng(20261130)
    nonempty = 0
    for _ in range(n(1500, 6000)):
        counts, melds = near_ready(rng)
        got = wait_kinds(counts, melds)
        assert got == _brute_force_waits(counts, melds), (counts, melds)
        nonempty += bool(got)
    assert nonempty > n(1500, 6000) // 3          # the generator really makes ready hands


def test_waits_match_brute_force_on_random_hands():
    rng = np.random.default_rng(7)
    for _ in range(n(500, 2000)):
        counts = random_counts(rng, 13)
        assert wait_kinds(counts) == _brute_force_waits(counts, ())
