"""Tiles-needed tables: how far a hand is from a *target family* of complete hands.

Planning asks questions a rules-level shanten does not answer: "how many tiles from a hand made
only of 2–8 chows?", "…of pungs only?", "…with nothing outside the m suit?". One measure answers
them all: the number of tiles that must still be drawn (each with a discard) before the hand
holds some complete target of the family — ``sum(max(0, target - held))`` minimised over the
targets. For a 13-tile hand it is shanten + 1; it needs no special case for partial hands,
which is what restricted plans produce.

A standard target is ``G`` groups plus one pair, and suits never interact, so each suit is
tabulated once per family and counts (``suit_table``: the fewest tiles for ``k`` groups with or
without the pair, k = 0…4) and the suits are combined by a min-plus convolution (``combine``).
Suit tables are computed with numpy against every target of the suit (≈48k for a number suit)
the first time a suit's counts appear and memoised; a game touches a few thousand keys.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Sequence

import numpy as np

INF = 99

# Families of targets. "tanyao": ranks 2–8 only; "chow": chows and the pair (平胡's shape);
# "pung": pungs and the pair; "none": the suit must end up empty.
FAMILIES = ("all", "tanyao", "chow", "tanyao_chow", "pung", "none")

SuitTable = tuple[int, ...]   # index 2*k + p: k groups (0–4), p = 1 when the pair is here


def _targets(honors: bool, family: str) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    """All targets of one suit in ``family``, sorted by slot (2k+p), with segment starts."""
    n = 7 if honors else 9
    low, high = (1, n - 2) if family in ("tanyao", "tanyao_chow") else (0, n - 1)
    groups: list[tuple[int, ...]] = []
    if family == "none":
        pass
    else:
        if family in ("all", "tanyao", "pung"):
            groups += [(r, r, r) for r in range(low, high + 1)]
        if not honors and family in ("all", "tanyao", "chow", "tanyao_chow"):
            groups += [(r, r + 1, r + 2) for r in range(low, high - 1)]
    pairs = [] if family == "none" or (honors and family in ("chow", "tanyao_chow")) \
        else list(range(low, high + 1))
    rows: list[tuple[int, list[int]]] = []
    for k in range(5):
        for combo in combinations_with_replacement(range(len(groups)), k):
            base = [0] * n
            for g in combo:
                for t in groups[g]:
                    base[t] += 1
            if max(base, default=0) <= 4:
                rows.append((2 * k, base))
            for p in pairs:
                if base[p] <= 2:
                    with_pair = list(base)
                    with_pair[p] += 2
                    rows.append((2 * k + 1, with_pair))
    rows.sort(key=lambda r: r[0])
    slots = np.array([r[0] for r in rows], dtype=np.int64)
    mat = np.array([r[1] for r in rows], dtype=np.int8).reshape(len(rows), n)
    present = tuple(sorted(set(int(s) for s in slots)))
    return mat, slots, present


@lru_cache(maxsize=None)
def _family_targets(honors: bool, family: str):
    """Per family: ``held[i][v]`` = min(target count of rank i, v) for every target (so a key's
    matched tiles are a sum of nine looked-up rows), target sizes, segment starts, slots."""
    mat, slots, present = _targets(honors, family)
    starts = np.searchsorted(slots, np.array(present, dtype=np.int64))
    held = np.stack([np.stack([np.minimum(mat[:, i], v).astype(np.int16) for v in range(5)])
                     for i in range(mat.shape[1])])
    return held, mat.sum(axis=1, dtype=np.int16), starts, present


_MEMO: dict[tuple[str, bytes], SuitTable] = {}
_MEMO_LIMIT = 1 << 17


def suit_table(family: str, key: bytes) -> SuitTable:
    """Fewest tiles to draw so that a suit holding ``key`` (9 counts, or 7 for honors) contains
    ``k`` groups of ``family`` (plus the pair when p = 1); ``INF`` where impossible."""
    memo_key = (family, key)
    hit = _MEMO.get(memo_key)
    if hit is not None:
        return hit
    held, size, starts, present = _family_targets(len(key) == 7, family)
    matched = held[0, min(key[0], 4)].copy()
    for i in range(1, len(key)):
        matched += held[i, min(key[i], 4)]
    mins = np.minimum.reduceat(size - matched, starts)
    out = [INF] * 10
    for slot, v in zip(present, mins.tolist()):
        out[slot] = v
    table = tuple(out)
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[memo_key] = table
    return table


def _conv(a: Sequence[int], b: Sequence[int], g: int) -> list[int]:
    out = [INF] * 10
    for ka in range(g + 1):
        a0, a1 = a[2 * ka], a[2 * ka + 1]
        if a0 >= INF and a1 >= INF:
            continue
        for kb in range(g + 1 - ka):
            b0, b1 = b[2 * kb], b[2 * kb + 1]
            i = 2 * (ka + kb)
            v = a0 + b0
            if v < out[i]:
                out[i] = v
            v = a0 + b1 if a0 + b1 < a1 + b0 else a1 + b0
            if v < out[i + 1]:
                out[i + 1] = v
    return out


_REST: dict[tuple, list[int]] = {}


def rest_of(tables: Sequence[SuitTable], last: int, groups: int) -> list[int]:
    """The three suits other than ``last`` convolved, memoised on their tables: callers vary
    one suit at a time (a discard, a drawn tile), so this is usually a dictionary hit."""
    others = tuple(tables[i] for i in range(4) if i != last) + (groups,)
    acc = _REST.get(others)
    if acc is None:
        acc = _conv(_conv(others[0], others[1], groups), others[2], groups)
        if len(_REST) >= _MEMO_LIMIT:
            _REST.clear()
        _REST[others] = acc
    return acc


def finish(acc: Sequence[int], tail: Sequence[int], groups: int) -> int:
    """Fewest tiles for ``groups`` groups + pair from ``rest_of`` and the last suit's table."""
    best = INF
    for k in range(groups + 1):
        j = 2 * (groups - k)
        v = acc[j + 1] + tail[2 * k]
        if v < best:
            best = v
        v = acc[j] + tail[2 * k + 1]
        if v < best:
            best = v
    return best if best < INF else INF


_REST: dict[tuple, list[int]] = {}


def combine(tables: Sequence[SuitTable], groups: int) -> int:
    """Fewest tiles for ``groups`` groups plus one pair spread over the four suit tables."""
    if groups < 0:
        return INF
    return finish(rest_of(tables, 3, groups), tables[3], groups)


SUIT_SLICES = ((0, 9), (9, 18), (18, 27), (27, 34))


def standard_distance(key34: bytes, groups: int, families: Sequence[str]) -> int:
    """Tiles needed for ``groups`` groups + pair, suit ``i`` restricted to ``families[i]``."""
    return combine([suit_table(f, key34[lo:hi]) for f, (lo, hi) in zip(families, SUIT_SLICES)],
                   groups)


def seven_pairs_distance(key34: bytes) -> int:
    """Tiles needed for seven pairs of different kinds."""
    pairs = kinds = 0
    for c in key34:
        if c:
            kinds += 1
            if c >= 2:
                pairs += 1
    return 7 - pairs + max(0, 7 - kinds)
