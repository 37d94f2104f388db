"""Statistics of duplicate play: the one place for intervals and ratings.

Both the 1-vs-3 evaluation (``training.evaluate``) and the league (``training.arena``) report
through these functions, so a number called ``ci95`` means the same thing in both.

Clustering. Hands played on one wall are correlated (the four rotations share the tiles), so
intervals are built over *clusters*, never over hands: each cluster's values are averaged
first and the interval is the t-interval of the cluster means (``mean ± t·sd/√clusters``, t
the 0.975 quantile of Student's t with clusters − 1 degrees of freedom, ``t975``).

Rates (win, deal-in: fractions of hands) get a Wilson score interval (``rate_ci95``), which
stays inside [0, 1] and is not empty at a rate of 0 or 1; its sample size is the hands shrunk
by the clusters' design effect (the variance of the cluster means against a binomial's).

Small samples. A t-interval over a few clusters assumes their means are about normal, which a
score (mostly 0, sometimes −30 or +50) is not: ``ROUGH_BELOW`` clusters is where reports say
their intervals are rough.

Ratings. ``plackett_luce`` rates a sequence of four-player games with openskill's
Plackett–Luce model (Weng & Lin 2011): every player starts at μ = 25, σ = 25/3; each game moves
μ by the order of finish and shrinks σ. Games are applied in the order given, so callers give
them in a canonical order.
"""

from __future__ import annotations

import math
from typing import Iterable, Sequence

# Student's t, 0.975 quantile, for 1–29 degrees of freedom (tables); t975 goes on from 30.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
         2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
         2.060, 2.056, 2.052, 2.048, 2.045)
_Z975 = 1.959963984540054

#: Fewer clusters than this and a report says its interval is rough (see the module docstring).
ROUGH_BELOW = 100


def t975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` ≥ 1 degrees of freedom: the table below
    30, then the Cornish–Fisher expansion in 1/df (Abramowitz & Stegun 26.7.5; off by less
    than 1e-5 from 30 on), which tends to the normal's 1.96."""
    if df < 30:
        return _T975[df - 1]
    z = _Z975
    g = ((z ** 3 + z) / 4,
         (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96,
         (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384,
         (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160)
    return z + sum(gk / df ** (k + 1) for k, gk in enumerate(g))


def mean_ci95(values: Sequence[float]) -> tuple[float, list[float]]:
    """Mean and ``[low, high]`` of a 95 % t-interval (the mean twice for fewer than 2 values)."""
    n = len(values)
    if n == 0:
        return 0.0, [0.0, 0.0]
    mean = math.fsum(values) / n
    if n < 2:
        return mean, [mean, mean]
    half = t975(n - 1) * _sd(values, mean) / math.sqrt(n)
    return mean, [mean - half, mean + half]


def _sd(values: Sequence[float], mean: float) -> float:
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1))


def clustered_ci95(clusters: Iterable[Sequence[float]]) -> tuple[float, list[float]]:
    """Mean and 95 % interval of the per-cluster means (empty clusters are skipped)."""
    return mean_ci95(_cluster_means(clusters))


def _cluster_means(clusters: Iterable[Sequence[float]]) -> list[float]:
    return [math.fsum(c) / len(c) for c in clusters if len(c)]


def rate_ci95(clusters: Sequence[Sequence[bool]]) -> tuple[float, list[float]]:
    """A rate (the mean of the per-cluster fractions of hands where something happened) and
    its 95 % Wilson score interval. The interval's sample size is the number of hands divided
    by the design effect — the variance of the cluster means over what independent hands would
    give, ``p(1 − p)/se²`` hands in all, never more than were played — so correlated hands
    count for less, and the interval stays inside [0, 1] at any rate, 0 and 1 included."""
    means = _cluster_means(clusters)
    k = len(means)
    if k == 0:
        return 0.0, [0.0, 1.0]
    p = math.fsum(means) / k
    hands = sum(len(c) for c in clusters)
    se2 = _sd(means, p) ** 2 / k if k > 1 else 0.0
    n = min(hands, p * (1 - p) / se2) if se2 > 0 else hands
    z = t975(k - 1) if k > 1 else _Z975
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return p, [max(0.0, centre - half), min(1.0, centre + half)]


def finish_ranks(scores: Sequence[float]) -> list[int]:
    """Order of finish from scores, higher first; equal scores share a rank (0 = first)."""
    return [sum(other > s for other in scores) for s in scores]


def plackett_luce(games: Iterable[tuple[Sequence[str], Sequence[float]]]
                  ) -> dict[str, tuple[float, float]]:
    """``{player: (mu, sigma)}`` after rating ``games``, each ``(players, scores)`` with the
    higher score finishing ahead (ties share a place). Needs ``openskill`` (a core dependency)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict[str, object] = {}
    for players, scores in games:
        teams = [[ratings.setdefault(p, model.rating(name=p))] for p in players]
        rated = model.rate(teams, ranks=finish_ranks(scores))
        for p, (r,) in zip(players, rated):
            ratings[p] = r
    return {p: (float(r.mu), float(r.sigma)) for p, r in ratings.items()}


__all__ = ["ROUGH_BELOW", "clustered_ci95", "finish_ranks", "mean_ci95", "plackett_luce",
           "rate_ci95", "t975"]
