"""The statistics module shared by the evaluation and the league."""

import pytest

from training.stats import clustered_ci95, finish_ranks, mean_ci95, plackett_luce


def test_intervals_are_over_cluster_means():
    mean, (lo, hi) = clustered_ci95([[1, 3], [5], [], [2, 2, 2]])
    assert mean == pytest.approx((2 + 5 + 2) / 3)
    assert (mean, [lo, hi]) == mean_ci95([2.0, 5.0, 2.0])
    assert mean_ci95([4.0]) == (4.0, [4.0, 4.0]) and mean_ci95([]) == (0.0, [0.0, 0.0])


def test_finish_ranks_share_places_on_ties():
    assert finish_ranks([10, -5, 10, 0]) == [0, 3, 0, 2]


def test_plackett_luce_rates_the_usual_winner_above_and_ties_evenly():
    games = [(["a", "b", "c", "d"], [30, 0, 0, -30])] * 20
    ratings = plackett_luce(games)
    assert ratings["b"][0] == pytest.approx(ratings["c"][0])
    assert ratings["a"][0] > ratings["b"][0] > ratings["d"][0]
    assert all(sigma < 25 / 3 for _, sigma in ratings.values())
    assert plackett_luce(games) == ratings                     # a function of the games
