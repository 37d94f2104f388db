"""Per-suit tables behind every hand analysis.

A hand's suits never interact in a standard reading (a chow stays inside one number suit, honors
only form pungs and pairs), so every question about a hand is answered suit by suit and the
answers are combined. Each suit is keyed by its counts as ``bytes`` — nine counts for a number
suit, seven for the honors — which is hashable, cheap to slice out of ``bytes(counts34)`` and
compact in the caches.

The readings of every complete suit key (``NUMBER_TABLE``, ``HONOR_TABLE``: at most 14
tiles, four copies a kind) and the small knitted tables (512 rank masks) are built at import,
deterministically (nothing is shipped as a binary blob); whether a suit reads, and which ranks
complete it, are look-ups there. What depends on a hand's keys is filled lazily through
``cached`` (an ``lru_cache``: every entry a pure function of its key). Every cache is bounded
(all of them full hold about 45 MB), so a process running millions of games stays flat;
``clear_caches`` empties them.

Suit indices: 0 m, 1 p, 2 s, 3 honors (``SUIT_SLICES`` gives their ranges in the 34 kinds).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Any, Callable, TypeVar

SUIT_SLICES: tuple[tuple[int, int], ...] = ((0, 9), (9, 18), (18, 27), (27, 34))

# A meld inside a reading: ("chow", lowest tile) or ("pung", tile).
MeldT = tuple[str, int]
# One reading of a suit (or hand): (pair tile or -1 when this suit holds no pair, melds).
ReadingT = tuple[int, tuple[MeldT, ...]]

_CACHE = 1 << 16
_CACHES: list[Any] = []  # the lru_cache wrappers, for clear_caches

F = TypeVar("F", bound=Callable)


def cached(maxsize: int) -> Callable[[F], F]:
    """``functools.lru_cache`` that ``clear_caches`` can reach (benchmarks start cold)."""
    def wrap(fn: F) -> F:
        c = lru_cache(maxsize=maxsize)(fn)
        _CACHES.append(c)
        return c  # type: ignore[return-value]
    return wrap


def clear_caches() -> None:
    """Empty every analysis cache, e.g. before measuring cold-start cost."""
    for c in _CACHES:
        c.cache_clear()


# --- complete readings ----------------------------------------------------------------------

def _split(counts: list[int], start: int, honors: bool, pair: int,
           melds: list[MeldT], out: set[ReadingT]) -> None:
    """Collect every reading of ``counts[start:]`` as melds plus at most one pair.

    The lowest remaining tile must belong to a pung, a chow starting on it, or the pair; trying
    exactly those three keeps the search small. Different orders can reach the same multiset of
    groups (pair-then-chow vs chow-then-pair), hence the set.
    """
    n = len(counts)
    i = start
    while i < n and counts[i] == 0:
        i += 1
    if i == n:
        out.add((pair, tuple(sorted(melds, key=lambda m: (m[1], m[0])))))
        return
    c = counts[i]
    if c >= 3:
        counts[i] -= 3
        melds.append(("pung", i))
        _split(counts, i, honors, pair, melds, out)
        melds.pop()
        counts[i] += 3
    if not honors and i + 2 < n and counts[i + 1] and counts[i + 2]:
        counts[i] -= 1
        counts[i + 1] -= 1
        counts[i + 2] -= 1
        melds.append(("chow", i))
        _split(counts, i, honors, pair, melds, out)
        melds.pop()
        counts[i] += 1
        counts[i + 1] += 1
        counts[i + 2] += 1
    if c >= 2 and pair < 0:
        counts[i] -= 2
        _split(counts, i, honors, i, melds, out)
        counts[i] += 2


def _search(suit: int, key: bytes) -> tuple[ReadingT, ...]:
    """``suit_readings`` by search (``_split``), for keys outside the import-time tables."""
    if sum(key) % 3 == 1:
        return ()
    base = SUIT_SLICES[suit][0]
    rel: set[ReadingT] = set()
    _split(list(key), 0, suit == 3, -1, [], rel)
    out = [(p + base if p >= 0 else -1, tuple((kind, r + base) for kind, r in melds))
           for p, melds in rel]
    return tuple(sorted(out, key=lambda r: (r[1], r[0])))


def _suit_table(n: int, chows: bool) -> dict[bytes, tuple[ReadingT, ...]]:
    """Every key of ``n`` ranks (at most 14 tiles, four copies a rank) that reads as up to four
    melds plus at most one pair, with all its readings in relative ranks (ordered as
    ``_search`` orders them).

    Built forwards: each multiset of melds is generated once (melds in list order, repeats
    allowed), with each possible pair, so no reading is found twice. 21,743 keys for a number
    suit, 498 for the honors; both tables together take well under 0.1 s at import.
    """
    # In (first tile, kind) order, so that melds chosen in list order come out sorted.
    melds: list[tuple[MeldT, tuple[int, ...]]] = []
    for r in range(n):
        if chows and r + 2 < n:
            melds.append((("chow", r), (r, r + 1, r + 2)))
        melds.append((("pung", r), (r, r, r)))
    found: dict[bytes, list[ReadingT]] = {}
    counts = [0] * n

    def grow(start: int, chosen: tuple[MeldT, ...]) -> None:
        found.setdefault(bytes(counts), []).append((-1, chosen))
        for r in range(n):
            if counts[r] <= 2:
                counts[r] += 2
                found.setdefault(bytes(counts), []).append((r, chosen))
                counts[r] -= 2
        if len(chosen) == 4:
            return
        for j in range(start, len(melds)):
            meld, rel = melds[j]
            for r in rel:
                counts[r] += 1
            if counts[rel[0]] <= 4 and counts[rel[2]] <= 4:
                grow(j, chosen + (meld,))
            for r in rel:
                counts[r] -= 1

    grow(0, ())
    return {key: tuple(rs) if len(rs) == 1 else tuple(sorted(rs, key=lambda r: (r[1], r[0])))
            for key, rs in found.items()}


# The readings of every complete suit key, in relative ranks (see ``_suit_table``).
NUMBER_TABLE = _suit_table(9, chows=True)
HONOR_TABLE = _suit_table(7, chows=False)

# ``bytes.translate`` table: is the kind (or rank) present (count 1 or more)?
PRESENT = bytes([0] + [1] * 255)


def _wait_table(table: dict[bytes, tuple[ReadingT, ...]], n: int) -> dict[int, int]:
    """Per suit key that one more tile completes, packed into an int (byte r: the count of
    rank r), the bit mask of the ranks that do: every complete key less one of its tiles
    (so every key of up to 13 tiles, four a rank, that has a wait is here)."""
    taken = {bytes(present): tuple((1 << 8 * r, 1 << r) for r in range(n) if present[r])
             for present in product((0, 1), repeat=n)}
    out: dict[int, int] = {}
    get = out.get
    for key in table:
        counts = int.from_bytes(key, "little")
        for unit, bit in taken[key.translate(PRESENT)]:
            less = counts - unit
            out[less] = get(less, 0) | bit
    return out


# The wait ranks of every suit key of up to 13 tiles (see ``_wait_table``); a key not here
# has none.
NUMBER_WAITS = _wait_table(NUMBER_TABLE, 9)
HONOR_WAITS = _wait_table(HONOR_TABLE, 7)


IndexedT = dict[bytes, tuple[tuple[int, int], ...]]       # key -> (pair, index of its melds)


def _by_suit(table: dict[bytes, tuple[ReadingT, ...]], suits: tuple[int, ...]
             ) -> tuple[IndexedT, dict[int, list[tuple[MeldT, ...]]]]:
    """A reading table with each melds tuple replaced by its index among the distinct ones
    (about 3,000 in a number suit), and per suit those melds moved to its tiles: a suit's
    readings are then a look-up and a list index, with nothing built per hand."""
    index: dict[tuple[MeldT, ...], int] = {}
    indexed = {key: tuple((p, index.setdefault(melds, len(index))) for p, melds in readings)
               for key, readings in table.items()}
    moved = {suit: [tuple([(kind, r + SUIT_SLICES[suit][0]) for kind, r in melds])
                    for melds in index] for suit in suits}
    return indexed, moved


_NUMBER_INDEXED, _NUMBER_MELDS = _by_suit(NUMBER_TABLE, (0, 1, 2))
_HONOR_INDEXED, _HONOR_MELDS = _by_suit(HONOR_TABLE, (3,))
_SUIT_READINGS = tuple((_NUMBER_INDEXED, _NUMBER_MELDS[s], SUIT_SLICES[s][0]) for s in range(3)) \
    + ((_HONOR_INDEXED, _HONOR_MELDS[3], 27),)


def suit_readings(suit: int, key: bytes) -> tuple[ReadingT, ...]:
    """Every reading of one suit's tiles as melds plus at most one pair, in absolute tiles.

    A suit whose count is 0 mod 3 reads without a pair, 2 mod 3 with exactly one, 1 mod 3 never
    (empty result). Readings are sorted, melds inside each by (first tile, kind). A table
    look-up; only keys the tables cannot hold (a fifth copy from the wait search, more than 14
    tiles) are searched.
    """
    indexed, melds, base = _SUIT_READINGS[suit]
    rel = indexed.get(key)
    if rel is None:
        return () if max(key, default=0) <= 4 and sum(key) <= 14 else _search(suit, key)
    return tuple([(p + base if p >= 0 else -1, melds[i]) for p, i in rel])


# --- standard shanten blocks ----------------------------------------------------------------

BlocksT = tuple[tuple[int, int, int], ...]


def pareto(states: set[tuple[int, int, int]]) -> BlocksT:
    """Drop every (melds, partials, pair) dominated component-wise by another."""
    keep = [s for s in states
            if not any(o != s and o[0] >= s[0] and o[1] >= s[1] and o[2] >= s[2] for o in states)]
    return tuple(sorted(keep, reverse=True))


@cached(_CACHE)
def suit_blocks(key: bytes, honors: bool) -> BlocksT:
    """The Pareto-best ways to cut one suit into blocks for the shanten formula.

    Each entry is ``(melds, partials, pair)``: complete melds, partial blocks (a pair not used as
    the hand's pair, two adjacent tiles, two tiles one apart) and whether this suit supplies the
    hand's pair (0/1); left-over tiles count for nothing. Partials are capped at 4 since a hand
    never uses more. Memoised on the remaining counts, so sub-keys are shared.
    """
    n = len(key)
    i = 0
    while i < n and key[i] == 0:
        i += 1
    if i == n:
        return ((0, 0, 0),)
    counts = bytearray(key)
    states: set[tuple[int, int, int]] = set()

    def take(delta: tuple[int, int, int], *tiles: int) -> None:
        """Add ``delta`` to every best cut of what is left once ``tiles`` are taken out."""
        dm, dt, dp = delta
        for tile in tiles:
            counts[tile] -= 1
        for m, t, p in suit_blocks(bytes(counts), honors):
            if p + dp <= 1:
                states.add((m + dm, min(4, t + dt), p + dp))
        for tile in tiles:
            counts[tile] += 1

    c = key[i]
    take((0, 0, 0), i)                          # the lowest tile stays isolated
    if c >= 3:
        take((1, 0, 0), i, i, i)                # pung
    if c >= 2:
        take((0, 0, 1), i, i)                   # the hand's pair
        take((0, 1, 0), i, i)                   # a pair waiting to become a pung
    if not honors:
        if i + 2 < n and key[i + 1] and key[i + 2]:
            take((1, 0, 0), i, i + 1, i + 2)    # chow
        if i + 1 < n and key[i + 1]:
            take((0, 1, 0), i, i + 1)           # two adjacent tiles
        if i + 2 < n and key[i + 2]:
            take((0, 1, 0), i, i + 2)           # two tiles one apart
    return pareto(states)


# --- knitted --------------------------------------------------------------------------------

def _knit_ok(mask: int) -> bool:
    """Whether the ranks in ``mask`` (bit r = rank r+1) are pairwise at least 3 apart."""
    ranks = [r for r in range(9) if mask >> r & 1]
    return all(b - a >= 3 for a, b in zip(ranks, ranks[1:]))


# 9-bit rank masks usable in one suit of a knitted hand; built once at import.
KNIT_VALID: frozenset[int] = frozenset(m for m in range(512) if _knit_ok(m))


def _knit_overlaps() -> tuple[tuple[int, int, int, int], ...]:
    """``[held_mask][z]``: the most held ranks a valid knitted rank set of exactly z ranks covers.

    Shanten must aim at a *complete* knitted hand: ``37m`` is a valid pair of ranks but no third
    rank fits beside it, so holding it is worth less than its size suggests.
    """
    valid_by_size: list[list[int]] = [[], [], [], []]
    for m in KNIT_VALID:
        valid_by_size[bin(m).count("1")].append(m)
    return tuple(
        tuple(max(bin(held & v).count("1") for v in valid_by_size[z]) for z in range(4))
        for held in range(512))


# Indexed [held_mask][z] (z = 0..3 ranks of this suit in the target knitted hand).
KNIT_OVERLAP: tuple[tuple[int, int, int, int], ...] = _knit_overlaps()


def _max_plus(r1: tuple[int, ...], r2: tuple[int, ...]) -> tuple[int, ...]:
    """Entry z: the best r1[a] + r2[b] with a + b = z (overlap rows of two suits combined)."""
    out = [0] * (len(r1) + len(r2) - 1)
    for a, x in enumerate(r1):
        for b, y in enumerate(r2):
            out[a + b] = max(out[a + b], x + y)
    return tuple(out)


def _knit_tables() -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...],
                            tuple[tuple[tuple[int, int, int], ...], ...]]:
    """Row ids per mask, m+p row combinations, and the final (7, 8, 9 number tiles) bests.

    Only a handful of distinct overlap rows exist, so every combination is tabulated by id and
    the per-call knitted shanten is three lookups.
    """
    rows = sorted(set(KNIT_OVERLAP))
    row_id = tuple(rows.index(KNIT_OVERLAP[m]) for m in range(512))
    pairs = sorted({_max_plus(a, b) for a in rows for b in rows})
    pair_id = tuple(tuple(pairs.index(_max_plus(a, b)) for b in rows) for a in rows)
    best = tuple(tuple(_max_plus(pr, r)[7:10] for r in rows) for pr in pairs)
    return row_id, pair_id, best  # type: ignore[return-value]


# KNIT_ROW_ID[mask] → row id; KNIT_PAIR[id_m][id_p] → pair id;
# KNIT_BEST[pair id][id_s] → most held number tiles in a knitted number part of 7, 8, 9 tiles.
KNIT_ROW_ID, KNIT_PAIR, KNIT_BEST = _knit_tables()
# KNIT_TOGGLES[mask] → (row id, rank bits): the ranks whose toggle in ``mask`` gives that row id,
# grouped, so that the knitted masks probe the cover once per distinct id
KNIT_TOGGLES: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((row, sum(1 << r for r in range(9) if KNIT_ROW_ID[m ^ 1 << r] == row))
          for row in dict.fromkeys(KNIT_ROW_ID[m ^ 1 << r] for r in range(9)))
    for m in range(512))


_HELD_DIGIT = bytes.maketrans(bytes(range(5)), b"01111")


def suit_rank_mask(key: bytes) -> int:
    """The ranks a number suit's counts hold, as bits (the counts read as one binary
    number, the first rank lowest)."""
    return int(key.translate(_HELD_DIGIT)[::-1], 2)


@cached(_CACHE)
def suit_knit_row(key: bytes) -> int:
    """The ``KNIT_ROW_ID`` of a number suit's counts."""
    return KNIT_ROW_ID[suit_rank_mask(key)]


# --- waits ----------------------------------------------------------------------------------

# Per suit and wait-rank mask (bit r: rank r + 1): the absolute tiles of those ranks.
_WAIT_TILES = tuple(tuple(tuple(base + r for r in range(n) if m >> r & 1) for m in range(1 << n))
                    for (base, _), n in zip(SUIT_SLICES, (9, 9, 9, 7)))


def suit_wait_ranks(suit: int, key: bytes, fifth: bool = True) -> tuple[int, ...]:
    """Absolute tiles of this suit whose addition makes the suit read as melds (+ a pair),
    in tile order.

    With ``fifth`` a fifth copy is allowed: these are structural waits, the four-held rule is
    applied later; without it a rank held four times is no wait (what the four-held rule
    leaves anyway). Up to 13 tiles the answer is a look-up in the wait tables; a fifth copy, or
    a longer key, is searched.
    """
    waits = NUMBER_WAITS if suit < 3 else HONOR_WAITS
    if sum(key) <= 13 and (not fifth or max(key, default=0) < 4):
        return _WAIT_TILES[suit][waits.get(int.from_bytes(key, "little"), 0)]
    return _searched_wait_ranks(suit, key)


@cached(_CACHE)
def _searched_wait_ranks(suit: int, key: bytes) -> tuple[int, ...]:
    """``suit_wait_ranks`` with a fifth copy allowed, where the tables do not reach."""
    waits = NUMBER_WAITS if suit < 3 else HONOR_WAITS
    base = SUIT_SLICES[suit][0]
    small = sum(key) <= 13 and max(key, default=0) <= 4
    ranks = waits.get(int.from_bytes(key, "little"), 0) if small else 0
    out = []
    buf = bytearray(key)
    for r, c in enumerate(key):
        if ranks >> r & 1:
            out.append(base + r)
        elif c >= 4 or not small:
            buf[r] = c + 1
            if suit_complete(suit, bytes(buf)):
                out.append(base + r)
            buf[r] = c
    return tuple(out)


def suit_complete(suit: int, key: bytes) -> bool:
    """Whether one suit's tiles read as melds plus at most one pair (``suit_readings`` is
    non-empty), without building the readings."""
    if key in (NUMBER_TABLE if suit < 3 else HONOR_TABLE):
        return True
    return not (max(key, default=0) <= 4 and sum(key) <= 14) and bool(_search(suit, key))
