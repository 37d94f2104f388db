"""Shanten: how many tile exchanges a hand is from ready (0) or complete (−1).

Structural, like the ``mahjong`` package: copies still available are not checked, so a hand
whose only wait is a kind it holds four of is still 0 (the four-held rule limits waits only).
For the same reason the ``mahjong`` package's partial four-copy corrections (four of an honor,
tiles isolated on kinds held four times) are deliberately not reproduced.

Standard shape: the classic block count. Cut each suit into melds, partials (a pair, two
adjacent tiles, two tiles one apart) and at most one pair for the whole hand; with k = tiles//3
blocks to make, shanten = 2k − 2·melds − min(partials, k − melds) − pair, minimised over cuts.
Each suit's Pareto-best cuts come from ``tables.suit_blocks``; only their combination runs per
call, and whole hands are cached too since agents evaluate the same hands over and over.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Sequence

from mjenv.analysis.decompose import counts_key
from mjenv.analysis.tables import (
    KNIT_BEST,
    KNIT_PAIR,
    KNIT_ROW_ID,
    KNIT_TOGGLES,
    BlocksT,
    cached,
    pareto,
    suit_blocks,
    suit_knit_row,
    suit_rank_mask,
)
from mjenv.analysis.waits import check_size, hand_counts, held_counts, normalize_melds
from mjenv.tiles import ORPHANS, Meld


@cached(1 << 15)
def _half_blocks(key: bytes) -> BlocksT:
    """Pareto-best (melds, partials, pair) of m+p (18 counts) or s+honors (16 counts).

    Halves repeat far more often than whole hands (a discard changes one half), so combining
    two suits here and caching the result leaves one small product per call.
    """
    a, b = suit_blocks(key[:9], False), suit_blocks(key[9:], len(key) == 16)
    return pareto({(m1 + m2, min(4, t1 + t2), p1 + p2)
                    for m1, t1, p1 in a for m2, t2, p2 in b if p1 + p2 <= 1})


def _standard(key: bytes) -> int:
    """The block formula of the module docstring, maximised over the two halves' best cuts."""
    k = sum(key) // 3
    best = 0
    for m1, t1, p1 in _half_blocks(key[:18]):
        for m2, t2, p2 in _half_blocks(key[18:]):
            if p1 + p2 <= 1:
                m = m1 + m2
                t = t1 + t2
                v = 2 * m + (t if t < k - m else k - m) + p1 + p2
                if v > best:
                    best = v
    return 2 * k - best


def _seven_pairs(key: bytes) -> int:
    zeros = key.count(0)
    pairs = 34 - zeros - key.count(1)
    if pairs == 7:
        return -1
    kinds = 34 - zeros
    return 6 - pairs + (7 - kinds if kinds < 7 else 0)


_orphan_counts = itemgetter(*ORPHANS)


def _orphans(key: bytes) -> int:
    held = _orphan_counts(key)
    kinds = 13 - held.count(0)
    return 13 - kinds - (max(held) >= 2)


def _knitted(key: bytes) -> int:
    return 13 - _cover(suit_knit_row(key[0:9]), suit_knit_row(key[9:18]),
                       suit_knit_row(key[18:27]), 7 - key[27:].count(0))


def _cover(m: int, p: int, s: int, honors: int) -> int:
    # A complete knitted hand holds z = 7..9 number tiles (at most 3 per suit) and 14 − z
    # honors: the most held tiles it contains, from the suits' knit rows and the honor kinds.
    b7, b8, b9 = KNIT_BEST[KNIT_PAIR[m][p]][s]
    seven = b7 + honors                       # at most 7 honors are held
    eight = b8 + (honors if honors < 6 else 6)
    nine = b9 + (honors if honors < 5 else 5)
    # the best of the three without builtin calls: the heuristic probes this per kind
    return seven if seven >= eight and seven >= nine else (eight if eight >= nine else nine)


@cached(1 << 15)
def _shanten_checked(key: bytes, n_melds: int) -> int:
    """All shapes (the special ones only without melds), input checked on first sight.

    Checking inside the cached function keeps repeated calls at one dict lookup; errors are
    raised, so never cached.
    """
    if len(key) != 34 or max(key) > 4:
        counts_key(list(key))                   # raises, naming the bad entry
    if n_melds or not 13 <= sum(key) <= 14:
        check_size(sum(key), n_melds, (13, 14), "shanten")
    s = _standard(key)
    if n_melds or s == -1:
        return s
    s = min(s, _seven_pairs(key), _orphans(key))
    # knitted only where the distinct kinds held (at most 9 number tiles count) allow better
    numbers = 27 - key[:27].count(0)
    if 13 - (numbers if numbers < 9 else 9) - (7 - key[27:].count(0)) < s:
        k = _knitted(key)
        if k < s:
            s = k
    return s


def _special_key(counts: Sequence[int], shape: str) -> bytes:
    key = counts_key(counts)
    check_size(sum(key), 0, (13, 14), f"{shape} shanten")
    return key


def shanten_standard(counts: Sequence[int]) -> int:
    """Standard-shape shanten of concealed counts (3k+1 or 3k+2 tiles, up to 14)."""
    key = counts_key(counts)
    total = sum(key)
    if total % 3 == 0 or total > 14:
        raise ValueError(f"shanten needs 3k+1 or 3k+2 concealed tiles (at most 14), got {total}")
    return _standard(key)


def shanten_seven_pairs(counts: Sequence[int]) -> int:
    """Seven-pairs shanten of a 13- or 14-tile concealed hand (four of a kind is one pair)."""
    return _seven_pairs(_special_key(counts, "seven-pairs"))


def shanten_knitted(counts: Sequence[int]) -> int:
    """Knitted (十三不搭) shanten of a 13- or 14-tile concealed hand.

    13 minus the most held tiles that a complete knitted hand contains (counting only subsets
    that can still grow into 14 tiles: ``37m`` is knitted but no third m fits beside it).
    """
    return _knitted(_special_key(counts, "knitted"))


def knitted_cover(counts: Sequence[int]) -> int:
    """The most tiles of ``counts`` (any number of tiles) that one complete knitted hand
    contains: a plan aiming at the knitted shape is ``14 −`` this many tiles away, and a
    tile that changes it is one the plan needs or cannot spare."""
    return 13 - _knitted(counts_key(counts))


def knitted_masks(counts: Sequence[int]) -> tuple[int, int, int]:
    """``(knitted_cover(counts), need, surplus)``: 34-bit masks of the kinds of which one more
    copy lets a complete knitted hand contain more of the hand (need), and of the held kinds
    of which one copy less leaves as many (surplus). Each kind is one probe of the cover with
    one suit's held ranks (or the honor count) changed."""
    return _knitted_masks(counts_key(counts))


def knitted_need(counts: Sequence[int]) -> int:
    """The need mask of ``knitted_masks`` alone, which skips the probes only the surplus
    reads (a held rank less): the heuristic asks it of the hand left by each tied discard."""
    return _knitted_need(counts_key(counts))


# count → binary digit: held twice or more
_TWICE = bytes.maketrans(bytes(range(5)), b"00111")


@cached(1 << 15)
def _knitted_masks(key: bytes) -> tuple[int, int, int]:
    return _knit_probes(key, True)


@cached(1 << 15)
def _knitted_need(key: bytes) -> int:
    return _knit_probes(key, False)[1]


def _knit_probes(key: bytes, spare: bool) -> tuple[int, int, int]:
    """``knitted_masks`` of ``key``; the surplus only with ``spare`` (else 0)."""
    ranks = [suit_rank_mask(key[9 * s:9 * s + 9]) for s in range(3)]
    rows = [KNIT_ROW_ID[m] for m in ranks]
    honors = 7 - key[27:].count(0)
    base = _cover(*rows, honors)
    # a kind held twice or more is surplus: one copy less leaves the ranks held as they are
    surplus = int(key[:27].translate(_TWICE)[::-1], 2) if spare else 0
    need = 0
    for s in range(3):
        held, shift = ranks[s], 9 * s
        twice = surplus >> shift
        probe = list(rows)
        # the ranks whose toggle gives the same row id share one probe of the cover; the
        # suit's own id leaves it as it is
        for row, toggled in KNIT_TOGGLES[held]:
            if not (spare or toggled & ~held):
                continue                    # held ranks only: a probe for the surplus
            cover = base
            if row != rows[s]:
                probe[s] = row
                cover = _cover(*probe, honors)
            if cover == base:
                surplus |= (toggled & held & ~twice) << shift
            elif cover > base:
                need |= (toggled & ~held) << shift
    more = _cover(*rows, honors + 1)
    fewer = _cover(*rows, honors - 1) if spare else None
    for t in range(27, 34):
        if not key[t]:
            if more > base:
                need |= 1 << t
        elif spare and (key[t] >= 2 or fewer == base):
            surplus |= 1 << t
    return base, need, surplus


def shanten_orphans(counts: Sequence[int]) -> int:
    """Thirteen-orphans shanten of a 13- or 14-tile concealed hand."""
    return _orphans(_special_key(counts, "thirteen-orphans"))


def shanten_counts(counts: Sequence[int], n_melds: int = 0) -> int:
    """Shanten over every shape (seven pairs, knitted, orphans only when ``n_melds == 0``).

    ``counts``: 34 counts of the concealed tiles, 13 or 14 minus 3 per meld in total.
    """
    try:
        key = bytes(counts) if type(counts) is list or type(counts) is tuple else \
            counts_key(counts)
    except (TypeError, ValueError):
        key = counts_key(counts)                # raises, naming the bad entry
    return _shanten_checked(key, n_melds)


def shanten(hand: str | Sequence[int], melds: Sequence[Meld | str] | str = ()) -> int:
    """Shanten of a hand (−1 complete, 0 ready), structural like the ``mahjong`` package.

    ``hand``: concealed tiles (mpsz string or tile ints), 13 or 14 minus 3 per meld;
    ``melds``: ``Meld``s or meld strings (``"pon:777z"``), one comma-separated string allowed.
    """
    counts = hand_counts(hand)
    ms = normalize_melds(melds)
    check_size(sum(counts), len(ms), (13, 14), "shanten")
    key = bytes(counts)
    held_counts(key, ms)
    return _shanten_checked(key, len(ms))
