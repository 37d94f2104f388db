"""Tiles-needed tables: how far a hand is from a *target family* of complete hands.

The measure (docs/agents.md, *Distance*) is ``Σ max(0, target − held)`` minimised over the
family's targets — shanten + 1 for a 13-tile hand, and exact for restricted families ("2–8
chows only", "pungs only", "nothing outside m"). As a minimum over targets, one evaluation
also gives the kinds whose discard keeps it (*surplus*: some optimal target holds fewer), whose
draw shortens it (*need*: some optimal target holds more), and, once a surplus ``t`` is gone,
what shortens it then (*wants*: the needs of the optimal targets that spare a ``t``).

A standard target is ``G`` groups and a pair, and suits never interact: each suit is tabulated
per *slot* ``2k + p`` (k groups, p = 1 with the pair), and the suits are combined over every
split of the groups and the pair (``Layout``, ``Combined``); a hand's bits are unions of its
suits' bits over the optimal splits. A number suit has about 48 k targets, so it is cut in two
(ranks 1–5 | 6–9; honors 1–4 | 5–7) with the chows that cross the cut: each half's best cost
and bits per slot are tabulated for every half key at a family's first use, and a whole key is
one min-plus join of its two half rows (``suit_row``).

``loose`` families reproduce ``heuristic:v1``'s tables, which capped four copies a rank only on
targets without a pair (a target with a pair could hold two pungs of one rank).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement, product
from typing import NamedTuple, Sequence

import numpy as np

INF = 99
SLOTS = 10                  # slot 2k + p: k groups (0–4), p = 1 when the pair is in the suit
SUIT_SLICES = ((0, 9), (9, 18), (18, 27), (27, 34))

# Families of targets. "all": chows, pungs and a pair; "tanyao_chow": chows and a pair of
# ranks 2–8 (平胡 + 断幺九's shape); "pung": pungs and a pair; "none": the suit must end up
# empty. A "/loose" suffix selects v1's tables (see the module docstring).
FAMILIES = ("all", "tanyao_chow", "pung")
NONE = "none"

# Crossing chows (c, c+1): how many chows start two and one ranks left of the cut.
_CROSSES = tuple((a, b) for a in range(5) for b in range(5) if a + b <= 4)
# Half slots 0–9 as above; 10 + k (loose families): k groups, no pair and no cap — the side
# that does not hold the pair of a loose target.
_FREE = 10


def _family_groups(family: str, honors: bool) -> tuple[list[tuple[int, ...]], list[int]]:
    """The family's groups (rank tuples) and pair ranks in one suit."""
    n = 7 if honors else 9
    low, high = (1, n - 2) if family == "tanyao_chow" else (0, n - 1)
    groups: list[tuple[int, ...]] = []
    if family in ("all", "pung"):
        groups += [(r, r, r) for r in range(low, high + 1)]
    if not honors and family in ("all", "tanyao_chow"):
        groups += [(r, r + 1, r + 2) for r in range(low, high - 1)]
    pairs = [] if honors and family == "tanyao_chow" else list(range(low, high + 1))
    return groups, pairs


def _half_targets(groups, pairs, ranks, most, base, loose):
    """Every target of one half: at most ``most`` of ``groups`` and at most one of ``pairs``
    over ``ranks``, on top of ``base`` (the crossing chows' tiles). Returns (counts, slots)."""
    pos = {r: i for i, r in enumerate(ranks)}
    rows, slots = [], []
    for k in range(most + 1):
        for combo in combinations_with_replacement(groups, k):
            counts = list(base)
            for g in combo:
                for r in g:
                    counts[pos[r]] += 1
            capped = max(counts, default=0) <= 4
            if capped:
                rows.append(counts)
                slots.append(2 * k)
            if loose:
                rows.append(counts)
                slots.append(_FREE + k)
            if not (capped or loose):
                continue
            for p in pairs:
                if counts[pos[p]] <= 2:
                    rows.append(counts[:pos[p]] + [counts[pos[p]] + 2] + counts[pos[p] + 1:])
                    slots.append(2 * k + 1)
    return np.array(rows, np.int16).reshape(len(rows), len(ranks)), np.array(slots, np.intp)


def _half_table(keys: np.ndarray, targets: np.ndarray, slots: np.ndarray, width: int):
    """Per half key and slot, over the slot's optimal targets: the best cost, the need and
    surplus bits, and per rank ``r`` the need bits of the optimal targets that spare an ``r``
    (``cond``)."""
    n, ranks = keys.shape
    dist = np.full((n, width), INF, np.int16)
    need = np.zeros((n, width), np.int16)
    surplus = np.zeros((n, width), np.int16)
    cond = np.zeros((n, width, ranks), np.int16)
    bits = (1 << np.arange(ranks)).astype(np.int16)
    for s in np.unique(slots):
        over = targets[slots == s][None, :, :] - keys[:, None, :]          # (n, M, r)
        cost = np.maximum(over, 0).sum(axis=2, dtype=np.int16)
        best = cost.min(axis=1)
        opt = cost == best[:, None]
        nb = np.where(opt, ((over > 0) * bits).sum(axis=2, dtype=np.int16), 0)
        spare = (over < 0) & opt[:, :, None]
        dist[:, s] = np.minimum(best, INF)
        need[:, s] = np.bitwise_or.reduce(nb, axis=1)
        surplus[:, s] = np.bitwise_or.reduce((spare * bits).sum(axis=2, dtype=np.int16),
                                             axis=1)
        for r in range(ranks):
            cond[:, s, r] = np.bitwise_or.reduce(np.where(spare[:, :, r], nb, 0), axis=1)
    return dist, need, surplus, cond


@dataclass(frozen=True)
class _Stack:
    """The half tables of every family of one kind (number or honor suit, strict or loose),
    stacked along the key axis (family ``f``'s rows start at ``f · 5^width`` of the half,
    then a half key's row is ``_row``), ``[0]`` left and ``[1]`` right, each row flat over
    (cross, slot): ``dist``, the best cost; ``bits``, the need, surplus and per-rank cond
    bits packed in one integer (fields as wide as the half has ranks: need, surplus, then
    cond rank by rank), so that one gather reads what six did. ``join``: per side, the flat
    position of each (whole-suit slot, join position), each slot's list padded with repeats
    of its first position (a repeat changes neither a minimum nor a union), the positions
    last so that a minimum reads contiguous memory."""

    cut: int
    ranks: int
    dist: tuple[np.ndarray, np.ndarray]
    bits: tuple[np.ndarray, np.ndarray]
    join: tuple[np.ndarray, np.ndarray]


def _pack(need: np.ndarray, surplus: np.ndarray, cond: np.ndarray) -> np.ndarray:
    """A half's need, surplus and cond bits as one int64 per entry (see ``_Stack``)."""
    m = cond.shape[-1]
    packed = need.astype(np.int64) | surplus.astype(np.int64) << m
    for r in range(m):
        packed |= cond[..., r].astype(np.int64) << (2 * m + m * r)
    return packed


def _half_tables(honors: bool, loose: bool, crosses: list[tuple[int, int]], width: int
                 ) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """The (key, cross·slot) distance tables and packed bits tables of the left and right
    half, each with every family's block stacked in ``FAMILIES`` order, a row per half key in
    ``_row`` order."""
    n, cut = (7, 4) if honors else (9, 5)
    dist: list[list[np.ndarray]] = [[], []]
    bits: list[list[np.ndarray]] = [[], []]
    for family in FAMILIES:
        groups, pairs = _family_groups(family, honors)
        starts = {g[0] for g in groups if g[0] != g[1]}
        for half, ranks in enumerate((range(cut), range(cut, n))):
            # every key, row j holding j's base-5 digits, lowest rank first (``_row``)
            keys = np.array(list(product(range(5), repeat=len(ranks))), np.int16)[:, ::-1]
            inside = [g for g in groups if set(g) <= set(ranks)]
            shape = (len(keys), len(crosses), width)
            side = [np.full(shape, INF, np.int16), np.zeros(shape, np.int16),
                    np.zeros(shape, np.int16), np.zeros(shape + (len(ranks),), np.int16)]
            for i, (a, b) in enumerate(crosses):
                if (a and cut - 2 not in starts) or (b and cut - 1 not in starts):
                    continue                    # the family has no such crossing chow
                # chow (cut-2 …) adds a tile at cut-2, cut-1 | cut; (cut-1 …) at cut-1 | cut, cut+1
                cross = [0] * n
                for start, count in ((cut - 2, a), (cut - 1, b)):
                    for r in range(start, start + 3):
                        cross[r] += count
                t, s = _half_targets(inside, [p for p in pairs if p in ranks], tuple(ranks),
                                     4 - a - b, [cross[r] for r in ranks], loose)
                for table, part in zip(side, _half_table(keys, t, s, width)):
                    table[:, i] = part
            dist[half].append(side[0].reshape(len(keys), -1))
            bits[half].append(_pack(*side[1:]).reshape(len(keys), -1))
    return tuple(map(np.concatenate, dist)), tuple(map(np.concatenate, bits))


def _join_positions(crosses: list[tuple[int, int]], width: int, loose: bool
                    ) -> list[list[tuple[int, int]]]:
    """Per whole-suit slot, the (left, right) flat half positions whose sum is a target of
    that slot: a crossing count with a half slot on each side."""
    join: list[list[tuple[int, int]]] = [[] for _ in range(SLOTS)]
    for i, (a, b) in enumerate(crosses):
        for ls in range(width):
            for rs in range(width):
                kl = ls // 2 if ls < _FREE else ls - _FREE
                kr = rs // 2 if rs < _FREE else rs - _FREE
                k = kl + kr + a + b
                p = (ls < _FREE and ls % 2) + (rs < _FREE and rs % 2)
                if k > 4 or p > 1 or (ls >= _FREE and rs >= _FREE):
                    continue
                # loose: the pairless side of a pair slot is uncapped; strict: never uncapped
                if loose and (ls >= _FREE or rs >= _FREE) != (p == 1):
                    continue
                join[2 * k + p].append((i * width + ls, i * width + rs))
    return join


@lru_cache(maxsize=None)
def _stack(honors: bool, loose: bool) -> _Stack:
    """The half tables of every family of one kind of suit, made at first use."""
    crosses = [(0, 0)] if honors else list(_CROSSES)
    width = _FREE + 5 if loose else SLOTS
    dist, bits = _half_tables(honors, loose, crosses, width)
    join = _join_positions(crosses, width, loose)
    most = max(len(j) for j in join)
    padded = np.array([j + j[:1] * (most - len(j)) for j in join], np.intp)  # (slot, most, 2)
    return _Stack(4 if honors else 5, 7 if honors else 9, dist, bits,
                  (padded[:, :, 0].copy(), padded[:, :, 1].copy()))


def _row(half: bytes) -> int:
    """A half key's row within its family's block: its counts read as base-5 digits, lowest
    rank first (the order ``_half_tables`` lists the keys in)."""
    return sum(c * 5 ** r for r, c in enumerate(half))


def _halves(family: str, key: bytes) -> tuple[_Stack, int, int]:
    """The stack of a suit key of ``family`` (not ``NONE``; a "/loose" suffix: v1's) and the
    key's left and right half-table rows: its family's block, then the half key's row."""
    base, _, variant = family.partition("/")
    stack = _stack(len(key) == 7, variant == "loose")
    fam, cut = FAMILIES.index(base), stack.cut
    return (stack, fam * 5 ** cut + _row(key[:cut]),
            fam * 5 ** (stack.ranks - cut) + _row(key[cut:]))


class SuitBits(NamedTuple):
    """The bits of one slot of a suit key (rank bits of the suit): ``need``, ``surplus``, and
    per rank ``r`` the needs of the optimal targets that spare an ``r`` (``cond``)."""

    need: int
    surplus: int
    cond: tuple[int, ...]


@lru_cache(maxsize=1 << 16)
def slot_bits(family: str, key: bytes, slot: int) -> SuitBits:
    """The ``SuitBits`` of one slot of a suit key of ``family``, from the join positions that
    reach the slot's best: the union of the halves' bits, and per rank ``r`` (cond) the needs
    of the optimal targets that spare an ``r`` — the left half's cond where its target spares
    a left rank, with any optimal right target's needs; likewise for a right rank. Never a
    rank held four times."""
    if family == NONE:
        return SuitBits(0, sum(1 << r for r, c in enumerate(key) if c) if slot == 0 else 0,
                        (0,) * 9)
    stack, li, ri = _halves(family, key)
    lpos, rpos = stack.join[0][slot], stack.join[1][slot]
    total = stack.dist[0][li][lpos] + stack.dist[1][ri][rpos]
    best = total.min()
    if best >= INF:
        return SuitBits(0, 0, (0,) * 9)
    cut = stack.cut
    m = stack.ranks - cut                                # the right half's ranks
    lmask, rmask = (1 << cut) - 1, (1 << m) - 1
    need = surplus = 0
    cond = [0] * 9
    opt = (total == best).nonzero()[0]
    # the optimal (left, right) entries, each pair once: the bits are their union
    for lv, rv in set(zip(stack.bits[0][li][lpos[opt]].tolist(),
                          stack.bits[1][ri][rpos[opt]].tolist())):
        ln, lspare = lv & lmask, lv >> cut & lmask
        rn, rspare = (rv & rmask) << cut, rv >> m & rmask
        need |= ln | rn
        surplus |= lspare | rspare << cut
        for r in ranks_of(lspare):
            cond[r] |= lv >> (2 + r) * cut & lmask | rn
        for r in ranks_of(rspare):
            cond[cut + r] |= (rv >> (2 + r) * m & rmask) << cut | ln
    room = sum(1 << r for r, c in enumerate(key) if c < 4)
    return SuitBits(need & room, surplus, tuple([c & room for c in cond]))


def ranks_of(bits: int) -> list[int]:
    """The positions of the set bits of ``bits``, lowest first."""
    return [r for r in range(bits.bit_length()) if bits >> r & 1]


@lru_cache(maxsize=1 << 16)
def less_ranks(key: bytes, ranks: int) -> bytes:
    """The suit key less one copy of each held rank of ``ranks`` (rank bits)."""
    less = bytearray(key)
    for r in ranks_of(ranks):
        if less[r]:
            less[r] -= 1
    return bytes(less)


@lru_cache(maxsize=1 << 17)
def suit_row(family: str, key: bytes) -> np.ndarray:
    """The distance per slot of a suit key of ``family``: per slot the least sum of a left
    and a right half entry over the slot's join positions."""
    if family == NONE:               # nothing needed with no group and no pair there
        return np.array([0] + [INF] * (SLOTS - 1), np.int16)
    stack, li, ri = _halves(family, key)
    total = stack.dist[0][li].take(stack.join[0]) + stack.dist[1][ri].take(stack.join[1])
    return np.minimum(total.min(axis=1), INF)


class SuitRows(NamedTuple):
    """What a plan list asks of one suit of a hand: per (family, forced ranks) asked, the
    suit key it reads — the hand's, less one copy of each held forced rank (a forced chow's
    tiles are counted apart) — and that key's distance per slot, as an (asked, SLOTS) array
    (``rows``) and as tuples (``dists``); ``held``: the ranks the hand holds in the suit."""

    keys: tuple[tuple[str, bytes], ...]
    rows: np.ndarray
    dists: tuple[tuple[int, ...], ...]
    held: int


@lru_cache(maxsize=1 << 15)
def suit_rows(asked: tuple[tuple[str, int], ...], key: bytes) -> SuitRows:
    """The ``SuitRows`` of suit key ``key`` for the (family, forced ranks) pairs ``asked``."""
    rests = {ranks: less_ranks(key, ranks) for ranks in {ranks for _, ranks in asked}}
    keys = tuple((family, rests[ranks]) for family, ranks in asked)
    rows = np.array([suit_row(family, k) for family, k in keys])
    return SuitRows(keys, rows, tuple(map(tuple, rows.tolist())),
                    sum(1 << r for r, c in enumerate(key) if c))


class Layout(NamedTuple):
    """How a batch of hands (a plan list's standard plans) is combined over its splits: per
    hand its splits, each as its four *cells* ``s·SLOTS + slot`` (suit ``s`` at that slot);
    ``seg`` the start of each hand's splits in the batch's list of them; ``at`` (4, splits)
    for each split the position of each suit's cell in the block of the batch's variant rows,
    ``variant · SLOTS + slot``, hand ``j``'s suit ``s`` being variant ``template[j][s]``."""

    splits: list[list[tuple[int, ...]]]
    seg: np.ndarray
    at: np.ndarray


def layout(hands: Sequence[tuple[int, tuple[bool, bool, bool, bool]]],
           template: Sequence[Sequence[int]]) -> Layout:
    """The ``Layout`` of hands given as their group count and which suits must stay empty
    (family "none": only slot 0 there), each hand's suits being the variants of
    ``template``."""
    splits = [_hand_splits(groups, empty) for groups, empty in hands]
    seg = np.cumsum([0] + [len(mine) for mine in splits[:-1]]).astype(np.intp)
    cells = (np.array(mine, np.intp).reshape(-1, 4) for mine in splits)
    at = np.concatenate([np.array(variants, np.intp)[c // SLOTS] * SLOTS + c % SLOTS
                         for variants, c in zip(template, cells)])
    return Layout(splits, seg, at.T.copy())


@lru_cache(maxsize=None)
def _hand_splits(groups: int, empty: tuple[bool, bool, bool, bool]) -> list[tuple[int, ...]]:
    """Every way to spread ``groups`` groups and the pair over the four suits, leaving the
    ``empty`` suits at slot 0: each split as its four cells ``s·SLOTS + slot``."""
    return [tuple(s * SLOTS + 2 * k + (s == pair) for s, k in enumerate(ks))
            for ks in product(range(groups + 1), repeat=4) if sum(ks) == groups
            for pair in range(4)
            if all(not e or (k == 0 and s != pair) for s, (e, k) in enumerate(zip(empty, ks)))]


class Combined:
    """A batch of hands combined over their splits (``Layout``) from ``rows``, the distance
    rows of the batch's suit variants: ``total`` per split and ``dist`` (B,) each hand's
    best."""

    __slots__ = ("layout", "total", "dist")

    def __init__(self, layout: Layout, rows: np.ndarray) -> None:
        self.layout = layout
        parts = rows.ravel().take(layout.at)
        self.total = parts[0] + parts[1] + parts[2] + parts[3]
        self.dist = np.minimum(np.minimum.reduceat(self.total, layout.seg), INF)

    def optimal(self, j: int) -> list[tuple[int, ...]]:
        """Hand ``j``'s optimal splits, as cells."""
        d = self.dist.item(j)
        if d >= INF:
            return []
        splits = self.layout.splits[j]
        start = self.layout.seg.item(j)
        return [splits[k] for k in
                (self.total[start:start + len(splits)] == d).nonzero()[0].tolist()]


class Optimal(NamedTuple):
    """A hand's optimal splits, as cells, and the ``SuitBits`` of each cell they use."""

    splits: tuple[tuple[int, ...], ...]
    used: dict[int, SuitBits]


def hand_bits(opt: Optimal) -> tuple[int, int]:
    """(need, surplus) 34-bit masks over a hand's optimal splits."""
    need = surplus = 0
    for c, bits in opt.used.items():
        need |= bits.need << 9 * (c // SLOTS)
        surplus |= bits.surplus << 9 * (c // SLOTS)
    return need, surplus


def hand_wants(opt: Optimal) -> list[int]:
    """For each kind ``t``, the kinds whose arrival would shorten the hand once one ``t`` is
    discarded — for ``t`` surplus, the needs of the optimal targets that spare a ``t``;
    0 elsewhere. The splits that use a cell share its spare and cond bits, so the other
    suits' needs are gathered per cell first."""
    needs = {c: bits.need << 9 * (c // SLOTS) for c, bits in opt.used.items()}
    others: dict[int, int] = {}
    for sp in opt.splits:
        every = needs[sp[0]] | needs[sp[1]] | needs[sp[2]] | needs[sp[3]]
        for c in sp:
            if opt.used[c].surplus:
                others[c] = others.get(c, 0) | every ^ needs[c]
    want = [0] * 34
    for c, other in others.items():
        bits, base = opt.used[c], 9 * (c // SLOTS)
        for r in ranks_of(bits.surplus):
            want[base + r] |= (bits.cond[r] << base) | other
    return want


def seven_pairs_distance(key34: bytes) -> int:
    """Tiles needed for seven pairs of different kinds."""
    kinds = len(key34) - key34.count(0)
    pairs = kinds - key34.count(1)
    return 7 - pairs + max(0, 7 - kinds)
