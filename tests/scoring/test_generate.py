"""The random winning-hand generator: validity, consistent situations, determinism, coverage."""

from collections import Counter

import numpy as np
import pytest

from mjenv.scoring import YAKU, WinContext, score, score_hand
from mjenv.scoring.generate import (TEMPLATES, GeneratedHand, generate_hands, random_hand,
                                    random_winning_hand)
from mjenv.tiles import parse_melds, parse_tile, parse_tiles
from tests.scale import n

N_VALID = n(3000, 30000)


@pytest.fixture(scope="module")
def hands() -> list[GeneratedHand]:
    return generate_hands(N_VALID, seed=11)


def test_every_hand_is_a_valid_win(hands):
    for h in hands:
        counts = Counter(h.hand) + Counter([h.win_tile])
        for m in h.melds:
            counts.update(m.tiles)
        assert max(counts.values()) <= 4, h.kwargs()
        assert len(h.hand) == 13 - 3 * len(h.melds), h.kwargs()
        score(h.hand, h.win_tile, h.melds, h.context())  # raises if not a win / inconsistent


def test_situations_are_physically_consistent(hands):
    for h in hands:
        k = h.kwargs()
        if h.qianggang:  # the robbed pung holds the other three copies
            assert h.juezhang and h.win_tile not in h.hand
            assert all(h.win_tile not in m.tiles for m in h.melds)
        if h.juezhang:
            assert h.win_tile not in h.hand, k
        if h.tianhu or h.dihu or h.renhu:
            assert not h.melds and not (h.lingshang or h.haidi or h.hedi or h.qianggang), k
            assert (h.seat_wind == 0) == h.tianhu, k
        if h.tianhu:
            assert not h.juezhang, k  # nothing is visible before the dealer's first draw
        if h.lingshang:
            assert h.tsumo and any(m.is_kong for m in h.melds), k


def test_kwargs_round_trip_through_score_hand(hands):
    for h in hands[:500]:
        k = h.kwargs()
        assert parse_tiles(k["hand"]) == sorted(h.hand)
        assert parse_tile(k["win_tile"]) == h.win_tile
        assert parse_melds(k["melds"]) == h.melds
        assert score_hand(**k) == score(h.hand, h.win_tile, h.melds, h.context())


def test_all_shapes_templates_and_meld_kinds_appear(hands):
    assert {h.template for h in hands} == set(TEMPLATES)
    kinds = {m.kind for h in hands for m in h.melds}
    assert kinds == {"chi", "pon", "minkan", "kakan", "ankan"}
    shapes = {score(h.hand, h.win_tile, h.melds, h.context()).shape for h in hands[:2000]}
    assert shapes == {"standard", "seven_pairs", "knitted", "thirteen_orphans"}
    assert isinstance(hands[0].context(), WinContext)


def test_same_seed_same_hands_and_distinct_option():
    assert generate_hands(200, seed=5) == generate_hands(200, seed=5)
    assert generate_hands(200, seed=5) != generate_hands(200, seed=6)
    a = random_winning_hand(np.random.default_rng(3))
    assert a == random_winning_hand(np.random.default_rng(3))
    assert random_hand(np.random.default_rng(3)).kwargs() == a
    distinct = generate_hands(2000, seed=1, distinct=True)
    assert len({h.key() for h in distinct}) == 2000
    with pytest.raises(ValueError, match="n must be"):
        generate_hands(-1, seed=0)


def test_every_yaku_is_reached():
    """The audit needs every yaku of RULES.md §8 in the sample (≥ 30 per 100,000 in full)."""
    total = n(10_000, 100_000)
    need = n(5, 30)
    reached: Counter = Counter()
    for h in generate_hands(total, seed=0):
        reached.update(score(h.hand, h.win_tile, h.melds, h.context()).yaku.keys())
    short = {y: reached[y] for y in YAKU if reached[y] < need}
    assert not short, f"yaku reached fewer than {need} times in {total} hands: {short}"
