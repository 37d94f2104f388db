"""The scorer's import-time look-up tables against their plain definitions.

``tile_facts`` reads the hand-wide masks from per-suit presence tables; the candidate masks
(``_MEETS_*``) pick the decomposition and placement yaku whose declared minimums a reading
meets. Both are checked here on every key or on many seeded random keys.
"""

from __future__ import annotations

import importlib
import random

from mjenv.scoring.reading import DRAGON, SUIT_M, SUIT_P, SUIT_S, WIND, tile_facts
from mjenv.scoring.yaku import GROUPS, PLACEMENT, YAKU
from tests.scale import n

score_module = importlib.import_module("mjenv.scoring.score")


def _plain_facts(counts: list[int]) -> tuple:
    kinds = tuple(k for k in range(34) if counts[k])
    suits = 0
    for k in kinds:
        suits |= (SUIT_M, SUIT_P, SUIT_S)[k // 9] if k < 27 else WIND if k < 31 else DRAGON
    ranks = 0
    for k in kinds:
        if k < 27:
            ranks |= 1 << (k % 9 + 1)
    return kinds, suits, ranks, tuple(k for k in range(34) if counts[k] == 4)


def test_tile_facts_match_the_plain_definition() -> None:
    rng = random.Random(7)
    for _ in range(n(3000, 30000)):
        counts = [0] * 34
        for t in rng.sample(range(136), rng.randint(0, 18)):
            counts[t // 4] += 1
        assert tile_facts(bytes(counts)) == _plain_facts(counts), counts


def test_tile_facts_on_every_single_suit_pattern() -> None:
    for base, width in ((0, 9), (9, 9), (18, 9), (27, 7)):
        for mask in range(1 << width):
            counts = [0] * 34
            for r in range(width):
                if mask >> r & 1:
                    counts[base + r] = 1 + r % 4
            assert tile_facts(bytes(counts)) == _plain_facts(counts), (base, mask)


def _plain_candidates(chows: int, honor_pungs: int, kongs: int, quads: int, suits: int,
                      ranks: int, pair: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    chosen = [y for y in YAKU.values() if y.scope in (GROUPS, PLACEMENT)
              and y.chows <= chows and y.pungs <= 4 - chows and y.honor_pungs <= honor_pungs
              and y.kongs <= kongs and y.quads <= quads and y.suits <= suits
              and ranks & y.ranks == y.ranks and y.pairs >> pair & 1]
    return (tuple(y.id for y in chosen if y.scope == GROUPS),
            tuple(y.id for y in chosen if y.scope == PLACEMENT))


def test_candidate_masks_match_the_declared_minimums() -> None:
    s = score_module
    rng = random.Random(11)
    for _ in range(n(3000, 30000)):
        chows, honor_pungs = rng.randint(0, 4), rng.randint(0, 4)
        kongs, quads, suits = rng.randint(0, 4), rng.randint(0, 3), rng.randint(0, 3)
        ranks, pair = rng.randrange(0, 1 << 10, 2), rng.randrange(34)
        mask = (s._MEETS_CHOWS[chows] & s._MEETS_HONOR_PUNGS[honor_pungs]
                & s._MEETS_KONGS[kongs] & s._MEETS_QUADS[quads] & s._MEETS_SUITS[suits]
                & s._MEETS_RANKS[ranks] & s._MEETS_PAIR[pair])
        group_preds, placement_preds = s._candidates(mask)
        got = (tuple(i for i, _ in group_preds), tuple(i for i, _ in placement_preds))
        assert got == _plain_candidates(chows, honor_pungs, kongs, quads, suits, ranks, pair)
