"""The statistics module shared by the evaluation and the league."""

import math

import pytest

from training.stats import (clustered_ci95, finish_ranks, mean_ci95, plackett_luce, rate_ci95,
                            t975)


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


def test_t975_matches_students_t_beyond_the_table():
    # scipy.stats.t.ppf(0.975, df) for these df
    for df, t in ((1, 12.706), (29, 2.045), (30, 2.0423), (60, 2.0003), (100, 1.9840),
                  (1000, 1.9623), (10 ** 6, 1.96)):
        assert t975(df) == pytest.approx(t, abs=2e-4)
    assert all(t975(d) > t975(d + 1) for d in range(1, 500))


def test_rate_intervals_stay_inside_zero_and_one_and_are_not_empty_at_the_edges():
    p, (lo, hi) = rate_ci95([[False] * 4, [False] * 4])
    assert p == 0.0 and lo == 0.0 and 0.0 < hi < 1.0
    p, (lo, hi) = rate_ci95([[True] * 4])
    assert p == 1.0 and 0.0 < lo < 1.0 and hi == 1.0
    p, (lo, hi) = rate_ci95([[True, False, False, False], [False, True, True, True]])
    assert 0.0 <= lo < p < hi <= 1.0


def test_rate_intervals_widen_with_correlation_within_clusters():
    independent = [[i % 4 == c for i in range(4)] for c in range(4)] * 25   # 1 of 4 each
    together = [[c == 0] * 4 for c in range(4)] * 25                       # all or none
    (p1, (lo1, hi1)), (p2, (lo2, hi2)) = rate_ci95(independent), rate_ci95(together)
    assert p1 == p2 == 0.25
    assert hi2 - lo2 > 1.5 * (hi1 - lo1)
    # with independent hands it is the plain Wilson interval over the 400 hands
    z, n = t975(99), 400
    half = z / (1 + z * z / n) * math.sqrt(0.25 * 0.75 / n + z * z / (4 * n * n))
    assert hi1 - lo1 == pytest.approx(2 * half)
