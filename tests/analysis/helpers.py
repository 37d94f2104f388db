"""Random hand generators for the analysis tests (explicit numpy Generators only)."""

from __future__ import annotations

import numpy as np

from mjenv.analysis.tables import KNIT_VALID
from mjenv.tiles import ORPHANS, Meld

WALL = np.repeat(np.arange(34), 4)


def random_counts(rng: np.random.Generator, size: int) -> list[int]:
    """Counts of ``size`` tiles drawn from a full set."""
    return np.bincount(rng.choice(WALL, size, replace=False), minlength=34).tolist()


def random_standard_win(rng: np.random.Generator, n_called: int = 0
                        ) -> tuple[list[int], tuple[Meld, ...]] | None:
    """A random standard winning hand: (concealed counts, called melds), or None if >4 copies."""
    counts = [0] * 34
    melds = []
    for i in range(4):
        if rng.random() < 0.6:
            suit, rank = int(rng.integers(3)), int(rng.integers(7))
            tiles = (9 * suit + rank, 9 * suit + rank + 1, 9 * suit + rank + 2)
            kind = "chi"
        else:
            t = int(rng.integers(34))
            kind = ("pon", "minkan", "ankan")[int(rng.integers(3))]
            tiles = (t,) * (3 if kind == "pon" else 4)
        if i < n_called:
            melds.append(Meld(kind, tiles))
        else:
            for t in tiles[:3]:
                counts[t] += 1
    counts[int(rng.integers(34))] += 2
    held = list(counts)
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    return (counts, tuple(melds)) if max(held) <= 4 else None


def random_seven_pairs(rng: np.random.Generator) -> list[int]:
    counts = [0] * 34
    for t in rng.choice(34, 7, replace=False):
        counts[int(t)] = 2
    return counts


def random_knitted(rng: np.random.Generator) -> list[int]:
    """14 tiles of a complete knitted hand (three-rank masks per suit, then two dropped)."""
    threes = [m for m in sorted(KNIT_VALID) if bin(m).count("1") == 3]
    tiles = [27 + h for h in range(7)]
    for suit in range(3):
        mask = threes[int(rng.integers(len(threes)))]
        tiles += [9 * suit + r for r in range(9) if mask >> r & 1]
    keep = rng.choice(len(tiles), 14, replace=False)
    counts = [0] * 34
    for i in keep:
        counts[tiles[int(i)]] += 1
    return counts


def random_orphans(rng: np.random.Generator) -> list[int]:
    counts = [0] * 34
    for t in ORPHANS:
        counts[t] = 1
    counts[ORPHANS[int(rng.integers(13))]] += 1
    return counts


def random_win(rng: np.random.Generator) -> tuple[list[int], tuple[Meld, ...]]:
    """A winning hand of any shape (standard ones with 0–4 called melds)."""
    while True:
        r = rng.random()
        if r < 0.1:
            return random_seven_pairs(rng), ()
        if r < 0.15:
            return random_knitted(rng), ()
        if r < 0.2:
            return random_orphans(rng), ()
        n_called = int(rng.integers(5)) if rng.random() < 0.5 else 0
        got = random_standard_win(rng, n_called)
        if got is not None:
            return got


def near_ready(rng: np.random.Generator) -> tuple[list[int], tuple[Meld, ...]]:
    """A winning hand minus one tile, sometimes with one more tile swapped (13-equivalent)."""
    counts, melds = random_win(rng)
    held = [t for t in range(34) for _ in range(counts[t])]
    counts[held[int(rng.integers(len(held)))]] -= 1
    if rng.random() < 0.3:
        held = [t for t in range(34) for _ in range(counts[t])]
        counts[held[int(rng.integers(len(held)))]] -= 1
        total = list(counts)
        for m in melds:
            for t in m.tiles:
                total[t] += 1
        free = [t for t in range(34) if total[t] < 4]
        counts[free[int(rng.integers(len(free)))]] += 1
    return counts, melds
