"""Settlement (RULES.md §6): the worked examples of §10 and the formulas over all seats."""

from __future__ import annotations

import itertools

import pytest

from mjenv.scoring.settle import settle_ron, settle_tsumo


def test_rulebook_example_1_single_ron_no_dealer() -> None:
    # seat 1 (South) rons seat 3's tile for 16; the dealer (seat 0) is a bystander
    assert settle_ron({1: 16}, discarder=3, dealer=0, repeat=0) == (-6, 48, -6, -36)


def test_rulebook_example_2_nondealer_tsumo() -> None:
    assert settle_tsumo(1, 64, dealer=0, repeat=0) == (-65, 193, -64, -64)


def test_rulebook_example_4_dealer_deals_in_with_repeat() -> None:
    assert settle_ron({2: 8}, discarder=0, dealer=0, repeat=1) == (-18, -6, 30, -6)


def test_dealer_tsumo_everyone_pays_p_plus_d() -> None:
    assert settle_tsumo(2, 10, dealer=2, repeat=3) == (-14, -14, 42, -14)


@pytest.mark.parametrize("dealer,discarder", list(itertools.product(range(4), range(4))))
def test_ron_formulas_for_every_seat_layout(dealer: int, discarder: int) -> None:
    others = [s for s in range(4) if s != discarder]
    for k in (1, 2, 3):
        for winners in itertools.combinations(others, k):
            pts = {w: 6 + 3 * w for w in winners}
            for repeat in (0, 2):
                d = 1 + repeat
                deltas = settle_ron(pts, discarder, dealer, repeat)
                assert sum(deltas) == 0
                gain = {w: 3 * (p + d if dealer in (w, discarder) else p) for w, p in pts.items()}
                for w in winners:
                    assert deltas[w] == gain[w]
                bystanders = [s for s in others if s not in winners]
                for b in bystanders:
                    assert deltas[b] == -6 * k
                assert deltas[discarder] == -(sum(gain.values()) - 6 * k * len(bystanders))


@pytest.mark.parametrize("dealer,winner", list(itertools.product(range(4), range(4))))
def test_tsumo_formulas(dealer: int, winner: int) -> None:
    deltas = settle_tsumo(winner, 7, dealer, 1)
    assert sum(deltas) == 0
    for s in range(4):
        if s != winner:
            assert deltas[s] == -(7 + 2 if dealer in (winner, s) else 7)


@pytest.mark.parametrize("call", [
    lambda: settle_ron({}, 0, 0, 0),
    lambda: settle_ron({1: 6, 2: 6, 3: 6, 0: 6}, 0, 0, 0),
    lambda: settle_ron({0: 6}, 0, 0, 0),
    lambda: settle_ron({1: -1}, 0, 0, 0),
    lambda: settle_ron({1: 6}, 4, 0, 0),
    lambda: settle_ron({1: 6}, 0, 0, -1),
    lambda: settle_tsumo(5, 6, 0, 0),
    lambda: settle_tsumo(1, 6, 0, True),
])
def test_bad_input_raises(call) -> None:
    with pytest.raises(ValueError):
        call()
