"""Matches (RULES.md §5): dealer repeat, rotation, round wind, end and ranking."""

from __future__ import annotations

import pytest

from mjenv.game import Match, ranking
from mjenv.rules import RuleConfig

from tests.game.helpers import autoplay, play, scenario


def _scenario_match(*names: str) -> tuple[Match, list[list[str]]]:
    scs = [scenario(n) for n in names]
    match = Match(RuleConfig(), walls=[s["wall"] for s in scs])
    return match, [[f"{a} {b}" for a, b in s["steps"]] for s in scs]


def test_dealer_win_repeats_the_deal() -> None:
    match, steps = _scenario_match("dealer_bonus_dealer_tsumo", "exhaustive_draw")
    play(match.hand, *steps[0])
    assert match.hand.result.winners == (0,)
    first = match.hand
    hand = match.next_hand()
    assert (hand.dealer, hand.repeat, hand.round_wind) == (0, 1, 0)
    assert hand.scores_before == first.scores_after == match.scores
    p = first.result.scores[0].points
    assert first.result.deltas == (3 * (p + 1), -(p + 1), -(p + 1), -(p + 1))


def test_dealer_in_a_double_ron_repeats() -> None:
    match, steps = _scenario_match("double_ron_dealer_and_nondealer", "exhaustive_draw")
    play(match.hand, *steps[0])
    assert match.next_hand().dealer == 0 and match.hand.repeat == 1


def test_nondealer_win_passes_the_deal() -> None:
    match, steps = _scenario_match("dealer_bonus_nondealer_ron_on_dealer", "exhaustive_draw")
    play(match.hand, *steps[0])
    hand = match.next_hand()
    assert (hand.dealer, hand.repeat) == (1, 0)


def test_exhaustive_draw_passes_the_deal_even_when_the_dealer_is_ready() -> None:
    match, steps = _scenario_match("exhaustive_draw", "exhaustive_draw")
    play(match.hand, *steps[0])
    assert match.hand.waits(0)                       # the dealer was ready
    assert match.next_hand().dealer == 1


@pytest.mark.parametrize("rounds", [1, 2])
def test_round_wind_advances_and_the_match_ends(rounds: int) -> None:
    match = Match(RuleConfig(rounds=rounds), seed=11)
    seen = []
    while True:
        h = match.hand
        with pytest.raises(ValueError, match="not over"):
            match.next_hand()
        autoplay(h)                                  # passive play: every hand is drawn
        seen.append((h.round_wind, h.dealer))
        if match.over:
            break
        match.next_hand()
    assert seen == [(r, d) for r in range(rounds) for d in range(4)]
    with pytest.raises(ValueError, match="match is over"):
        match.next_hand()
    assert match.scores == (0, 0, 0, 0) and match.ranking() == (0, 1, 2, 3)
    assert match.log[-1]["type"] == "match_end"


def test_scores_carry_over_and_stay_zero_sum() -> None:
    match, steps = _scenario_match("renhu", "tianhu")
    play(match.hand, *steps[0])
    h2 = match.next_hand()
    assert h2.dealer == 1 and h2.scores_before == match.hand.scores_before
    assert sum(match.scores) == 0 and match.scores != (0, 0, 0, 0)


def test_ranking_ties_go_to_the_earlier_seat() -> None:
    assert ranking((10, 30, 30, -70)) == (1, 2, 0, 3)
    assert ranking((0, 0, 0, 0)) == (0, 1, 2, 3)
    assert ranking((-5, 5, -5, 5)) == (1, 3, 0, 2)


def test_same_seed_same_match() -> None:
    a, b = Match(seed=5), Match(seed=5)
    assert [h.wall for h in a.hands] == [h.wall for h in b.hands]
    autoplay(a.hand)
    autoplay(b.hand)
    assert a.next_hand().wall == b.next_hand().wall != a.hands[0].wall


def test_walls_running_out_is_a_clear_error() -> None:
    match, steps = _scenario_match("tianhu")
    play(match.hand, *steps[0])
    with pytest.raises(ValueError, match="walls ran out"):
        match.next_hand()
