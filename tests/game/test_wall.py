"""The wall: explicit-wall validation and the seeded shuffle (RULES.md §2)."""

from __future__ import annotations

from collections import Counter

import pytest

from mjenv.game import Hand, WallError, parse_wall, shuffled_wall
from mjenv.game.wall import SORTED_TILES, derive_seed
from mjenv.tiles import TILE_NAMES


def test_seeded_wall_is_a_permutation_and_deterministic() -> None:
    w = shuffled_wall(12345)
    assert sorted(w) == list(SORTED_TILES)
    assert shuffled_wall(12345) == w
    assert shuffled_wall(12346) != w


def test_seeded_wall_is_stable_across_versions() -> None:
    # Golden value: the seed → wall mapping is part of the log format; it must never change.
    assert "".join(TILE_NAMES[t] for t in shuffled_wall(0)[:8]) == "8s2s6m1z9s7s7s9p"


def test_shuffle_spreads_every_kind_over_the_first_position() -> None:
    firsts = Counter(shuffled_wall(s)[0] for s in range(1000))
    assert len(firsts) == 34 and max(firsts.values()) < 70     # expected ~29 each


def test_sub_seeds_differ() -> None:
    assert len({derive_seed(7, i) for i in range(100)}) == 100
    assert derive_seed(7, 3) == derive_seed(7, 3)


def test_explicit_wall_as_strings_ints_or_mpsz() -> None:
    w = shuffled_wall(3)
    names = [TILE_NAMES[t] for t in w]
    assert parse_wall(names) == parse_wall(list(w)) == w
    assert Hand(wall=names).wall == Hand(seed=3).wall


@pytest.mark.parametrize("mutate,message", [
    (lambda w: w[:-1], "135 tiles"),
    (lambda w: w + ["1m"], "137 tiles"),
    (lambda w: ["1m"] + w[1:], "5 × 1m"),
    (lambda w: ["8z"] + w[1:], "wall\\[0\\]"),
    (lambda w: [34] + w[1:], "wall\\[0\\]"),
    (lambda w: [None] + w[1:], "wall\\[0\\]"),
])
def test_bad_wall_is_refused(mutate, message) -> None:
    wall = [TILE_NAMES[t] for t in shuffled_wall(1)]
    if wall[0] == "1m":
        wall[0], wall[1] = wall[1], wall[0]
    with pytest.raises(WallError, match=message):
        Hand(wall=mutate(wall))


def test_bad_seed_and_conflicting_wall() -> None:
    with pytest.raises(ValueError):
        Hand(seed="7")
    with pytest.raises(ValueError, match="not the wall of seed"):
        Hand(wall=shuffled_wall(1), seed=2)


def test_deal_follows_the_explicit_wall_order() -> None:
    w = shuffled_wall(9)
    h = Hand(wall=w, dealer=2)
    assert h.concealed(2) == tuple(sorted(w[0:13] + (w[52],)))   # dealer + first draw
    assert h.concealed(3) == tuple(sorted(w[13:26]))
    assert h.concealed(0) == tuple(sorted(w[26:39]))
    assert h.concealed(1) == tuple(sorted(w[39:52]))
    assert h.live_wall_left == 69
