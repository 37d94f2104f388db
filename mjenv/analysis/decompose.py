"""Winning shapes of a concealed hand (RULES.md §7).

``decompose_standard`` lists every standard reading (pair + melds) of the concealed tiles; the
scorer picks the best one, so it must see them all (``111222333m`` is three pungs *and* three
chows). The special shapes are plain predicates: each has at most one reading.

All functions take ``counts``: 34 ints, the number of each tile kind (``tiles.counts34``).
"""

from __future__ import annotations

from operator import itemgetter
from typing import Sequence

from mjenv.analysis.tables import (KNIT_VALID, SUIT_SLICES, MeldT, ReadingT, suit_rank_mask,
                                   suit_readings)
from mjenv.tiles import ORPHANS, TILE_NAMES

# Placements of the winning tile in a standard reading (RULES.md §7).
LIANGMIAN = "liangmian"      # 两面: completes a chow from n,n+1 with 2 <= n <= 7
BIANZHANG = "bianzhang"      # 边张: 12 -> 3 or 89 -> 7
KANZHANG = "kanzhang"        # 坎张: n,n+2 -> n+1
DANDIAO = "dandiao"          # 单吊: completes the pair
SHUANGPENG = "shuangpeng"    # 双碰: completes a pung from a pair
PLACEMENTS = (LIANGMIAN, BIANZHANG, KANZHANG, DANDIAO, SHUANGPENG)
PLACEMENT_ZH = {LIANGMIAN: "两面", BIANZHANG: "边张", KANZHANG: "坎张",
                DANDIAO: "单吊", SHUANGPENG: "双碰"}


def counts_key(counts: Sequence[int], max_copies: int = 4) -> bytes:
    """``counts`` as the ``bytes`` key the tables use, after checking it is 34 counts 0..max.

    ``bytes`` of a list is both the cheapest hashable form and a range check (0–255) in C.
    """
    if type(counts) is list or type(counts) is tuple or type(counts) is bytes:
        try:
            key = bytes(counts)
            if len(key) == 34 and max(key) <= max_copies:
                return key
        except (TypeError, ValueError):
            pass
    elif not isinstance(counts, (list, tuple)):
        try:
            counts = [int(c) for c in counts]
        except (TypeError, ValueError):
            raise ValueError(f"counts must be a sequence of 34 ints, "
                             f"got {type(counts).__name__}") from None
    if len(counts) != 34:
        raise ValueError(f"counts must have 34 entries (one per tile kind), got {len(counts)}")
    try:
        key = bytes(counts)
    except TypeError:
        raise ValueError("counts must be ints") from None
    except ValueError:
        key = b""
    if not key or max(key) > max_copies:
        bad = next((i, c) for i, c in enumerate(counts) if not 0 <= c <= max_copies)
        raise ValueError(f"tile counts must be 0–{max_copies}: {TILE_NAMES[bad[0]]} "
                         f"(kind {bad[0]}) has {bad[1]}")
    return key


def decompose_key(key: bytes) -> list[ReadingT]:
    """``decompose_standard`` on an already-checked key (any total; no reading unless 3k+2).

    Copies beyond four are allowed here: the wait search adds a fifth copy to see structural
    waits before the four-held exclusion.
    """
    parts: list[tuple[ReadingT, ...]] = []
    pair_suits = 0
    for suit, (lo, hi) in enumerate(SUIT_SLICES):
        sk = key[lo:hi]
        r = sum(sk)
        if not r:
            continue
        r %= 3
        if r == 1:
            return []
        pair_suits += r == 2
        readings = suit_readings(suit, sk)
        if not readings:
            return []
        parts.append(readings)
    if pair_suits != 1:
        return []
    out: list[ReadingT] = list(parts[0])
    for readings in parts[1:]:
        out = [(p if p >= 0 else q, melds + more) for p, melds in out for q, more in readings]
    return out


def decompose_standard(counts: Sequence[int]) -> list[tuple[int, tuple[MeldT, ...]]]:
    """Every reading of the concealed tiles as one pair plus melds.

    ``counts``: 34 counts of the concealed tiles, 3k+2 in total (called melds are not passed;
    they are already melds). Returns ``[(pair_tile, ((kind, first_tile), ...)), ...]`` with
    kind ``"chow"`` (first = lowest tile) or ``"pung"``, melds sorted by (first tile, kind);
    the list is deterministic and duplicate-free, ``[]`` when there is no reading.
    """
    key = counts_key(counts)
    total = sum(key)
    if total % 3 != 2:
        raise ValueError(f"a standard reading needs 3k+2 concealed tiles, got {total}")
    return decompose_key(key)


def is_seven_pairs(counts: Sequence[int]) -> bool:
    """Seven pairs of seven different kinds (four of a kind is not two pairs).

    Needs all 14 tiles concealed: any other total is ``False``.
    """
    return _seven_pairs(counts_key(counts))


def is_knitted(counts: Sequence[int]) -> bool:
    """十三不搭: 14 different tiles, same-suit number tiles at least 3 ranks apart."""
    return _knitted(counts_key(counts))


def is_thirteen_orphans(counts: Sequence[int]) -> bool:
    """The 13 terminals and honors, one of them doubled (14 tiles, nothing else)."""
    return _thirteen_orphans(counts_key(counts))


def _seven_pairs(key: bytes) -> bool:
    return key.count(2) == 7 and key.count(0) == 27


def _knitted(key: bytes) -> bool:
    if sum(key) != 14 or max(key) > 1:
        return False
    return all(suit_rank_mask(key[lo:hi]) in KNIT_VALID for lo, hi in SUIT_SLICES[:3])


_orphan_counts = itemgetter(*ORPHANS)


def _thirteen_orphans(key: bytes) -> bool:
    return sum(key) == 14 and sum(_orphan_counts(key)) == 14 and all(_orphan_counts(key))


SEVEN_PAIRS, KNITTED, THIRTEEN_ORPHANS = "seven_pairs", "knitted", "thirteen_orphans"


def special_shapes(key: bytes) -> list[str]:
    """The special winning shapes (RULES.md §7) that 14 concealed tiles make, for a caller
    that has checked ``key`` (``bytes`` of the 34 counts) itself (the scorer)."""
    out = []
    if _seven_pairs(key):
        out.append(SEVEN_PAIRS)
    if _knitted(key):
        out.append(KNITTED)
    if _thirteen_orphans(key):
        out.append(THIRTEEN_ORPHANS)
    return out


def placements(pair: int, melds: Sequence[MeldT], win: int
               ) -> tuple[tuple[str, int | None], ...]:
    """Every way the winning tile ``win`` completes a part of one standard reading (RULES.md
    §7), as ``(placement, index into melds)``, ``None`` for the pair; equal melds give one
    placement (the first), in meld order.

    >>> placements(4, (("chow", 0), ("chow", 9)), 2)     # 123m completed by 3m: 边张
    (('bianzhang', 0),)
    """
    out: list[tuple[str, int | None]] = [(DANDIAO, None)] if pair == win else []
    for i, (kind, first) in enumerate(melds):
        if (kind, first) in melds[:i]:
            continue
        if kind == "pung":
            if first == win:
                out.append((SHUANGPENG, i))
        elif first <= win <= first + 2:
            low = first % 9 + 1                 # the chow's lowest rank
            if win == first + 1:
                out.append((KANZHANG, i))
            elif (low == 1 and win == first + 2) or (low == 7 and win == first):
                out.append((BIANZHANG, i))
            else:
                out.append((LIANGMIAN, i))
    return tuple(out)
