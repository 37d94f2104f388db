"""The words the predicates share (``mjenv.scoring.yaku.words``), each against a plain
statement of it over random sets of kinds."""

from __future__ import annotations

import random

from mjenv.scoring.yaku.words import (OF_RANKS, RANKS, across_suits, beside, in_one_suit,
                                      in_two_suits, kinds, lanes, same_rank_elsewhere, stepped,
                                      suits_with, within)
from mjenv.tiles import NUMBERS
from tests.scale import n


def _ranks_in(tiles: set[int], suit: int) -> set[int]:
    return {t % 9 + 1 for t in tiles if t < 27 and t // 9 == suit}


def _random_sets(seed: int):
    rng = random.Random(seed)
    for _ in range(n(3000, 30000)):
        tiles = set(rng.sample(range(34), rng.randint(0, 6)))
        yield tiles, kinds(tiles)


def test_rank_masks_and_lanes():
    assert RANKS[1, 4, 7] == 0b1001001 and RANKS[9] == 1 << 8
    assert OF_RANKS[5] == kinds(t for t in NUMBERS if t % 9 == 4)
    for tiles, bits in _random_sets(1):
        assert lanes(bits) == tuple(sum(1 << k - 1 for k in _ranks_in(tiles, s))
                                    for s in range(3))


def test_suit_words_match_their_plain_statements():
    rng = random.Random(2)
    for tiles, bits in _random_sets(3):
        ranks = set(rng.sample(range(1, 10), rng.randint(1, 3)))
        holding = [ranks <= _ranks_in(tiles, s) for s in range(3)]
        assert in_one_suit(bits, RANKS[tuple(ranks)]) == any(holding)
        assert suits_with(bits, RANKS[tuple(ranks)]) == sum(holding)
        shared = {k for k in range(1, 10)
                  if sum(k in _ranks_in(tiles, s) for s in range(3)) >= 2}
        assert in_two_suits(bits) == RANKS[tuple(shared)] if shared else in_two_suits(bits) == 0
        allowed = set(rng.sample(range(34), 20))
        assert within(bits, kinds(allowed)) == (tiles <= allowed)


def test_runs_match_their_plain_statements():
    for tiles, bits in _random_sets(4):
        for length in (2, 3, 4):
            for step in (1, 2):
                plain = any(all(k + i * step in _ranks_in(tiles, s) for i in range(length))
                            for s in range(3) for k in range(1, 10))
                assert stepped(bits, length, step) == plain, (sorted(tiles), length, step)
        for step in (0, 1, 2, 3):
            plain = any(sorted((a, b, c)) in ([k, k + step, k + 2 * step] for k in range(1, 10))
                        for a in _ranks_in(tiles, 0) for b in _ranks_in(tiles, 1)
                        for c in _ranks_in(tiles, 2))
            assert across_suits(bits, step) == plain, (sorted(tiles), step)


def test_neighbours_and_same_rank():
    for t in NUMBERS:
        for length in (2, 3):
            want = [kinds(run) for run in (range(t - length, t), range(t + 1, t + 1 + length))
                    if all(u < 27 and u // 9 == t // 9 for u in run)]
            assert list(beside(t, length)) == want
        assert same_rank_elsewhere(t) == kinds(u for u in NUMBERS
                                               if u % 9 == t % 9 and u != t)
