"""Tiles-needed tables: how far a hand is from a *target family* of complete hands.

Planning asks questions a rules-level shanten does not answer: "how many tiles from a hand made
only of 2–8 chows?", "…of pungs only?", "…with nothing outside the m suit?". One measure answers
them all: the number of tiles that must still be drawn (each with a discard) before the hand
holds some complete target of the family — ``Σ max(0, target − held)`` minimised over the
targets. For a 13-tile hand it is shanten + 1; it needs no special case for partial hands,
which is what restricted plans produce.

A standard target is ``G`` groups plus one pair, and suits never interact, so the measure is
tabulated per suit — the fewest tiles for ``k`` groups (0–4) with or without the pair, a
*slot* ``2k + p`` — and the suits are combined by trying every split of the groups and the pair
over the four suits (``combine``).

Because the measure is a minimum over targets, one evaluation answers what every decision asks,
with no loop over tiles:

- *discards*: from a 14-tile hand, giving up one ``t`` keeps the distance iff some optimal
  target holds fewer ``t`` than the hand (its *surplus* bits); otherwise it costs one tile;
- *improving tiles* (ukeire): one more ``u`` shortens a 13-tile hand's distance iff some optimal
  target holds more ``u`` than the hand (its *need* bits);
- *improving tiles after a discard*: once a surplus ``t`` is gone, the optimal targets are
  those of the 14-tile hand that spare a ``t``, so the kinds that then improve the hand are their
  needs (*wants*, from the per-rank *cond* bits).

The optimal targets of a hand are products of per-suit optimal targets over the optimal splits,
so the hand's bits are unions of the suits' bits over those splits.

Suit tables. A number suit's targets are multisets of at most four groups (the family's chows
and pungs) and a pair, at most four copies a rank — about 48 k of them, too many to scan per
key. So each suit is cut in two (ranks 1–5 | 6–9; honors 1–4 | 5–7): a group lies left, right,
or is a chow 456/567 across the cut. For every half key (5⁵ prefixes, 5⁴ suffixes) and every
count of crossing chows, each half's best cost per slot and its bits are tabulated at first use
of a family, by scanning the half's few thousand targets; a whole key is then one min-plus join
of its two half rows (``_join``). Keys are joined in batches — every row one decision lacks, of
every family, in one numpy pass — and kept in one growing store (``SuitStore``), so a batch of
plans gathers its rows with one index array.

``loose`` families reproduce the tables of ``heuristic:v1``, which capped four copies a rank
only on targets without a pair: a target with a pair could hold two pungs of one rank. The
current heuristic uses the capped (strict) families.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement, product
from typing import Sequence

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
    stacked along the key axis (family ``f``'s rows start at ``f · 5^width`` of the half),
    ``[0]`` left and ``[1]`` right, each row flat over (cross, slot): ``dist``, the best
    cost; ``bits``, the need, surplus and per-rank cond bits packed in one integer (fields
    as wide as the half has ranks: need, surplus, then cond rank by rank), so that one
    gather reads what six did. ``index[h]``: a half key's row within its family's block.
    ``join``: per side, the flat position of each (whole-suit slot, join position), each
    slot's list padded with repeats of its first position (a repeat leaves the minimum as it
    is), the positions last so that a minimum over them reads contiguous memory;
    ``parts[slot]``: the same positions of one slot unpadded, per side."""

    cut: int
    ranks: int
    families: tuple[str, ...]
    dist: tuple[np.ndarray, np.ndarray]
    bits: tuple[np.ndarray, np.ndarray]
    index: tuple[dict[bytes, int], dict[bytes, int]]
    join: tuple[np.ndarray, np.ndarray]
    parts: tuple[tuple[np.ndarray, np.ndarray], ...]


def _pack(need: np.ndarray, surplus: np.ndarray, cond: np.ndarray) -> np.ndarray:
    """A half's need, surplus and cond bits as one int64 per entry (see ``_Stack``)."""
    m = cond.shape[-1]
    packed = need.astype(np.int64) | surplus.astype(np.int64) << m
    for r in range(m):
        packed |= cond[..., r].astype(np.int64) << (2 * m + m * r)
    return packed


@lru_cache(maxsize=None)
def _stack(honors: bool, loose: bool) -> _Stack:
    n, cut = (7, 4) if honors else (9, 5)
    crosses = [(0, 0)] if honors else list(_CROSSES)
    width = _FREE + 5 if loose else SLOTS
    parts: list[list[list[np.ndarray]]] = [[[], [], [], []], [[], [], [], []]]
    index: list[dict[bytes, int]] = []
    for family in FAMILIES:
        groups, pairs = _family_groups(family, honors)
        starts = {g[0] for g in groups if g[0] != g[1]}
        for half, ranks in enumerate((range(cut), range(cut, n))):
            keys = np.array(list(product(range(5), repeat=len(ranks))), np.int16)[:, ::-1]
            if len(index) < 2:
                index.append({bytes(k.tolist()): j for j, k in enumerate(keys)})
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
            parts[half][0].append(side[0].reshape(len(keys), -1))
            parts[half][1].append(_pack(*side[1:]).reshape(len(keys), -1))
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
    most = max(len(j) for j in join)
    padded = np.array([j + j[:1] * (most - len(j)) for j in join], np.intp)  # (slot, most, 2)
    stacked = [tuple(np.concatenate(parts[half][j]) for half in range(2)) for j in range(2)]
    return _Stack(cut, n, FAMILIES, *stacked, tuple(index),
                  (padded[:, :, 0].copy(), padded[:, :, 1].copy()),
                  tuple((np.array([l for l, _ in j], np.intp), np.array([r for _, r in j], np.intp))
                        for j in join))


def _halves_of(stack: _Stack, fam: int, key: bytes) -> tuple[int, int]:
    """The left and right half-table rows of a suit key of family ``fam``: the family's
    block, then the half's row."""
    left, right = stack.index
    cut = stack.cut
    return (fam * len(left) + left[key[:cut]], fam * len(right) + right[key[cut:]])


def _join(stack: _Stack, fams: Sequence[int], keys: Sequence[bytes]) -> np.ndarray:
    """Distance per slot, (B, SLOTS), of suit keys of the stack's ``fams``: per slot the
    least sum of a left and a right half entry over the slot's join positions."""
    rows = [_halves_of(stack, f, k) for f, k in zip(fams, keys)]
    left = np.array([li for li, _ in rows], np.intp)
    right = np.array([ri for _, ri in rows], np.intp)
    # ``take`` with index arrays, the sum in place: half the time of two fancy indexings;
    # (B, SLOTS, positions), reduced over its contiguous last axis
    total = stack.dist[0].take(left, 0).take(stack.join[0], 1)
    total += stack.dist[1].take(right, 0).take(stack.join[1], 1)
    return np.minimum(np.minimum.reduce(total, axis=2), INF)     # .min: a Python wrapper


_ROOM_DIGIT = bytes.maketrans(bytes(range(5)), b"11110")


def _slot_bits(stack: _Stack, fam: int, key: bytes, slot: int
               ) -> tuple[int, int, tuple[int, ...]]:
    """(need, surplus, cond) of one slot of one suit key, from the join positions that reach
    the slot's best: the union of the halves' bits, and per rank ``r`` (cond) the needs of
    the optimal targets that spare an ``r`` — the left half's cond where its target spares a
    left rank, with any optimal right target's needs; likewise for a right rank. Never a
    rank held four times."""
    li, ri = _halves_of(stack, fam, key)
    lpos, rpos = stack.parts[slot]
    total = stack.dist[0][li][lpos] + stack.dist[1][ri][rpos]
    best = np.minimum.reduce(total)
    if best >= INF:
        return 0, 0, (0,) * 9
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
        while lspare:                                    # the spare ranks, lowest first
            r = (lspare & -lspare).bit_length() - 1
            cond[r] |= lv >> (2 + r) * cut & lmask | rn
            lspare &= lspare - 1
        while rspare:
            r = (rspare & -rspare).bit_length() - 1
            cond[cut + r] |= (rv >> (2 + r) * m & rmask) << cut | ln
            rspare &= rspare - 1
    room = int(key.translate(_ROOM_DIGIT)[::-1], 2)
    return need & room, surplus, tuple([c & room for c in cond])


# the row of a suit that must stay empty: nothing needed with no group and no pair there
_EMPTY_ROW = np.array([0] + [INF] * (SLOTS - 1), np.int16)


class SuitStore:
    """Rows of (family, suit key): the distance per slot, in one growing array so that a
    batch of plans gathers its rows with one index (missing rows are joined together, one
    pass per kind of suit); and per (row, slot), on demand, the need, surplus and cond bits.
    Emptied (``clear``) only between decisions, by the evaluators, which also drop what they
    hold of it."""

    LIMIT = 1 << 17

    def __init__(self) -> None:
        self.index: dict[tuple[str, bytes], int] = {}
        self.keys: list[tuple[str, bytes]] = [("", b"")]      # row 0: INF everywhere
        self.dist = np.full((4096, SLOTS), INF, np.int16)
        self.generation = 0                 # bumped by clear: rows held elsewhere are stale
        self._bits: dict[tuple[int, int], tuple[int, int, tuple[int, ...]]] = {}
        self._dists: dict[int, tuple[int, ...]] = {}

    def full(self) -> bool:
        return len(self.keys) > self.LIMIT

    def clear(self) -> None:
        self.generation += 1
        self.index.clear()
        del self.keys[1:]
        self._bits.clear()
        self._dists.clear()

    def rows(self, wanted: Sequence[tuple[str, bytes]]) -> list[int]:
        """Row numbers of ``wanted`` (family, key) pairs."""
        get = self.index.get
        out = [get(w) for w in wanted]
        if None not in out:
            return out  # type: ignore[return-value]
        missing = list(dict.fromkeys(w for w, i in zip(wanted, out) if i is None))
        start = len(self.keys)
        if start + len(missing) > len(self.dist):
            grown = np.full((max(2 * len(self.dist), start + len(missing)), SLOTS), INF,
                            np.int16)
            grown[:len(self.dist)] = self.dist
            self.dist = grown
        groups: dict[tuple[bool, bool], list[int]] = {}
        for j, (family, key) in enumerate(missing):
            self.index[(family, key)] = start + j
            base, _, variant = family.partition("/")
            if base == NONE:
                self.dist[start + j] = _EMPTY_ROW
            else:
                groups.setdefault((len(key) == 7, variant == "loose"), []).append(j)
        self.keys += missing
        for (honors, loose), js in groups.items():
            stack = _stack(honors, loose)
            fams = [FAMILIES.index(missing[j][0].partition("/")[0]) for j in js]
            self.dist[start + np.array(js)] = _join(stack, fams, [missing[j][1] for j in js])
        return [get(w) for w in wanted]  # type: ignore[misc]

    def dist_list(self, row: int) -> tuple[int, ...]:
        hit = self._dists.get(row)
        if hit is None:
            hit = self._dists[row] = tuple(self.dist[row].tolist())
        return hit

    def bits(self, row: int, slot: int) -> tuple[int, int, tuple[int, ...]]:
        """(need, surplus, cond) of one slot of a row (suit rank bits)."""
        hit = self._bits.get((row, slot))
        if hit is None:
            family, key = self.keys[row]
            base, _, variant = family.partition("/")
            if base == NONE:
                hit = (0, sum(1 << r for r, c in enumerate(key) if c) if slot == 0 else 0,
                       (0,) * 9)
            else:
                hit = _slot_bits(_stack(len(key) == 7, variant == "loose"),
                                 FAMILIES.index(base), key, slot)
            self._bits[(row, slot)] = hit
        return hit


STORE = SuitStore()


def _splits(groups: int) -> list[tuple[int, ...]]:
    """Every way to spread ``groups`` groups and the pair over the four suits, as the slot
    of each suit."""
    return [tuple(2 * k + (s == pair) for s, k in enumerate(ks))
            for ks in product(range(groups + 1), repeat=4) if sum(ks) == groups
            for pair in range(4)]


SPLIT_SLOTS = tuple(tuple(_splits(g)) for g in range(5))
_SHIFTS = (0, 9, 18, 27)


class Layout:
    """Which splits a batch of hands reads, and where: per hand its group count and which
    suits must stay empty (family "none": only slot 0 there). Each split is listed as its
    four *cells* ``s·SLOTS + slot`` (suit ``s`` at that slot); the hands' splits one after
    another (``seg`` their starts), as positions in the batch's (B, 4·SLOTS) block of suit
    rows in ``pos``, one row per suit."""

    def __init__(self, hands: Sequence[tuple[int, tuple[bool, bool, bool, bool]]]) -> None:
        self.splits: list[list[tuple[int, ...]]] = [_hand_splits(groups, empty)
                                                    for groups, empty in hands]
        sizes = [len(mine) for mine in self.splits]
        self.seg = np.cumsum([0] + sizes[:-1]).astype(np.intp)
        self.starts: list[int] = self.seg.tolist()
        self.pos = np.concatenate([_hand_cells(groups, empty) + j * (4 * SLOTS)
                                   for j, (groups, empty) in enumerate(hands)]).T.copy()


@lru_cache(maxsize=None)
def _hand_splits(groups: int, empty: tuple[bool, bool, bool, bool]) -> list[tuple[int, ...]]:
    """One hand's splits in a ``Layout``, as cells."""
    return [tuple(s * SLOTS + slot for s, slot in enumerate(sp)) for sp in SPLIT_SLOTS[groups]
            if all(not e or slot == 0 for e, slot in zip(empty, sp))]


@lru_cache(maxsize=None)
def _hand_cells(groups: int, empty: tuple[bool, bool, bool, bool]) -> np.ndarray:
    """``_hand_splits`` as an (n, 4) array: a new layout stacks them."""
    return np.array(_hand_splits(groups, empty), np.intp).reshape(-1, 4)


class Combined:
    """A batch of hands combined over their splits (``Layout``): ``rows`` the store rows of
    the batch's suit variants and ``template`` each hand's variant per suit, ``total`` per
    listed split, ``dist`` (B,) each hand's best (computed unless given: memo tables keep
    ``rows``, ``total`` and ``dist``, ``plans.PlanEval``)."""

    __slots__ = ("layout", "rows", "template", "total", "dist", "_splits", "_used")

    def __init__(self, layout: Layout, rows: Sequence[int],
                 template: Sequence[Sequence[int]], total: np.ndarray,
                 dist: np.ndarray | None = None) -> None:
        self.layout, self.rows, self.template, self.total = layout, rows, template, total
        if dist is None:
            dist = np.minimum.reduceat(total, layout.seg)
            np.minimum(dist, INF, out=dist)
        self.dist = dist
        self._splits: dict[int, tuple[tuple[int, ...], ...]] = {}
        self._used: dict[int, dict[int, tuple[int, int, tuple[int, ...]]]] = {}

    def optimal(self, j: int) -> tuple[tuple[tuple[int, ...], ...],
                                       dict[int, tuple[int, int, tuple[int, ...]]]]:
        """Hand ``j``'s optimal splits (as cells) and the bits of each cell they use, asked
        of the store once each (memoised)."""
        used = self._used.get(j)
        if used is None:
            d = self.dist.item(j)
            splits = self.layout.splits[j]
            if d < INF:
                start = self.layout.starts[j]
                splits = tuple([splits[k] for k in (
                    self.total[start:start + len(splits)] == d).nonzero()[0].tolist()])
            else:
                splits = ()
            rows = [self.rows[v] for v in self.template[j]]
            self._splits[j] = splits
            # the store's bits memo read here: most cells are in it, and a call per cell
            # costs as much as the look-up
            known, bits = STORE._bits.get, STORE.bits
            used = self._used[j] = {}
            for c in set().union(*splits):      # each cell once, however many splits use it
                row, slot = rows[c // SLOTS], c % SLOTS
                used[c] = known((row, slot)) or bits(row, slot)
        return self._splits[j], used


def hand_bits(used: dict[int, tuple[int, int, tuple[int, ...]]]) -> tuple[int, int]:
    """(need, surplus) 34-bit masks over a hand's optimal splits, from the bits of the
    cells they use (``Combined.optimal``)."""
    need = surplus = 0
    for c, (n, sp, _) in used.items():
        need |= n << _SHIFTS[c // SLOTS]
        surplus |= sp << _SHIFTS[c // SLOTS]
    return need, surplus


def hand_wants(splits: Sequence[tuple[int, ...]],
               used: dict[int, tuple[int, int, tuple[int, ...]]]) -> list[int]:
    """For each kind ``t``, the kinds whose arrival would shorten the hand once one ``t`` is
    discarded — for ``t`` surplus, the needs of the optimal targets that spare a ``t``;
    0 elsewhere. The splits that use a cell share its spare and cond bits, so the other
    suits' needs are gathered per cell first."""
    needs = {c: n << _SHIFTS[c // SLOTS] for c, (n, _, _) in used.items()}
    others: dict[int, int] = {}
    for sp in splits:
        every = needs[sp[0]] | needs[sp[1]] | needs[sp[2]] | needs[sp[3]]
        for c in sp:
            if used[c][1]:
                others[c] = others.get(c, 0) | every ^ needs[c]
    want = [0] * 34
    for c, other in others.items():
        _, spare, cond = used[c]
        base = _SHIFTS[c // SLOTS]
        r = 0
        while spare:
            if spare & 1:
                want[base + r] |= (cond[r] << base) | other
            spare >>= 1
            r += 1
    return want


@lru_cache(maxsize=4096)
def layout(hands: tuple[tuple[int, tuple[bool, bool, bool, bool]], ...]) -> Layout:
    """The ``Layout`` of a batch of hands, made once per distinct batch."""
    return Layout(hands)


def cells(layout: Layout, template: Sequence[Sequence[int]]) -> np.ndarray:
    """The cells of ``layout``'s splits (its ``pos``) as positions in a block of variant
    rows, ``variant · SLOTS + slot``, hand ``j``'s suit ``s`` being variant
    ``template[j][s]``: a batch whose hands share suit rows gathers each row once."""
    pos = layout.pos
    hand, cell = pos // (4 * SLOTS), pos % (4 * SLOTS)
    return np.array(template, np.intp).reshape(-1, 4)[hand, cell // SLOTS] * SLOTS \
        + cell % SLOTS


def combine(rows: Sequence[int], template: Sequence[Sequence[int]], at: np.ndarray,
            layout: Layout) -> Combined:
    """Combine a batch of hands over the splits of ``layout``: ``rows`` the store rows of
    its suit variants, ``template`` each hand's variant per suit, ``at`` their ``cells``."""
    # four adds, in place: ``sum(axis=0)`` over a short axis costs three times as much
    parts = STORE.dist.take(rows, axis=0).ravel().take(at)
    total = parts[0] + parts[1]
    total += parts[2]
    total += parts[3]
    return Combined(layout, rows, template, total)


def standard_distance(key34: bytes, groups: int, families: Sequence[str]) -> int:
    """Tiles needed for ``groups`` groups + pair, suit ``i`` restricted to ``families[i]``."""
    if groups < 0:
        return INF
    rows = STORE.rows([(f, key34[lo:hi]) for f, (lo, hi) in zip(families, SUIT_SLICES)])
    one = Layout([(groups, (False,) * 4)])
    template = ((0, 1, 2, 3),)
    return int(combine(rows, template, cells(one, template), one).dist[0])


def seven_pairs_distance(key34: bytes) -> int:
    """Tiles needed for seven pairs of different kinds (counted by ``bytes.count``: the
    plan list's evaluation asks on every hand)."""
    kinds = len(key34) - key34.count(0)
    pairs = kinds - key34.count(1)
    return 7 - pairs + max(0, 7 - kinds)
