"""Statistics of duplicate play: the one place for intervals and ratings.

Both the 1-vs-3 evaluation (``training.evaluate``) and the league (``training.arena``) report
through these functions, so a number called ``ci95`` means the same thing in both.

Clustering. Hands played on one wall are correlated (the four rotations share the tiles), so
intervals are built over *clusters*, never over hands: each cluster's values are averaged
first and the interval is the t-interval of the cluster means (``mean ± t·sd/√clusters``, t
the 0.975 quantile of Student's t with clusters − 1 degrees of freedom, 1.96 from 30 on).

Ratings. ``plackett_luce`` rates a sequence of four-player games with openskill's
Plackett–Luce model (Weng & Lin 2011): every player starts at μ = 25, σ = 25/3; each game moves
μ by the order of finish and shrinks σ. Games are applied in the order given, so callers give
them in a canonical order.
"""

from __future__ import annotations

import math
from typing import Iterable, Sequence

# Student's t, 0.975 quantile, for 1–29 degrees of freedom; 1.96 (normal) from 30 on.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
         2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
         2.060, 2.056, 2.052, 2.048, 2.045)


def mean_ci95(values: Sequence[float]) -> tuple[float, list[float]]:
    """Mean and ``[low, high]`` of a 95 % t-interval (the mean twice for fewer than 2 values)."""
    n = len(values)
    if n == 0:
        return 0.0, [0.0, 0.0]
    mean = math.fsum(values) / n
    if n < 2:
        return mean, [mean, mean]
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    t = _T975[n - 2] if n - 1 < 30 else 1.96
    half = t * sd / math.sqrt(n)
    return mean, [mean - half, mean + half]


def clustered_ci95(clusters: Iterable[Sequence[float]]) -> tuple[float, list[float]]:
    """Mean and 95 % interval of the per-cluster means (empty clusters are skipped)."""
    return mean_ci95([math.fsum(c) / len(c) for c in clusters if len(c)])


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


__all__ = ["clustered_ci95", "finish_ranks", "mean_ci95", "plackett_luce"]
