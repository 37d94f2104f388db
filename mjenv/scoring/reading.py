"""Readings: one way of seeing a winning hand, the single input of every yaku predicate.

A *reading* fixes everything a yaku may ask about (RULES.md §6–§7): the shape, the groups
(melds of the concealed decomposition plus the declared melds) and the pair, where the winning
tile sits (its *placement*) and which group it completes, whether the 13-tile hand had a
single wait, the counts of every tile (melds included), the winds and the situation flags.
Scoring (``mjenv.scoring.score``) enumerates the readings of a hand and keeps the best one.

The hand-wide facts (``counts``, ``suits``, ``ranks``, ``quads``, ``single_wait``,
``melds``, ``ctx``) are the same in every reading of a hand; they are precomputed once so the
predicates stay one-liners.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import compress
from typing import NamedTuple

from mjenv.analysis.tables import (HONOR_TABLE, NUMBER_TABLE, PRESENT, SUIT_SLICES, MeldT,
                                   ReadingT)
from mjenv.tiles import Meld, tiles_to_str

STANDARD = "standard"
SEVEN_PAIRS = "seven_pairs"
KNITTED = "knitted"
THIRTEEN_ORPHANS = "thirteen_orphans"
SHAPES = (STANDARD, SEVEN_PAIRS, KNITTED, THIRTEEN_ORPHANS)

# Placements of the winning tile in a standard reading (RULES.md §7).
LIANGMIAN = "liangmian"      # 两面: completes a chow from n,n+1 with 2 <= n <= 7
BIANZHANG = "bianzhang"      # 边张: 12 -> 3 or 89 -> 7
KANZHANG = "kanzhang"        # 坎张: n,n+2 -> n+1
DANDIAO = "dandiao"          # 单吊: completes the pair
SHUANGPENG = "shuangpeng"    # 双碰: completes a pung from a pair
PLACEMENT_ZH = {LIANGMIAN: "两面", BIANZHANG: "边张", KANZHANG: "坎张",
                DANDIAO: "单吊", SHUANGPENG: "双碰"}

# Group kinds.
CHOW, PUNG, KONG = "chow", "pung", "kong"

# Bits of Reading.suits.
SUIT_M, SUIT_P, SUIT_S, WIND, DRAGON = 1, 2, 4, 8, 16
NUMBER_SUITS = SUIT_M | SUIT_P | SUIT_S


@dataclass(frozen=True)
class WinContext:
    """How the hand was won: RULES.md §8 situation flags plus the winds (ints 0–3, E S W N).

    Flags that contradict each other on their own raise ``ValueError`` here (issue 2's list);
    the conflicts that also need the tiles are checked by ``score``.
    """

    tsumo: bool = False
    seat_wind: int = 0
    round_wind: int = 0
    lingshang: bool = False
    haidi: bool = False
    hedi: bool = False
    qianggang: bool = False
    juezhang: bool = False
    tianhu: bool = False
    dihu: bool = False
    renhu: bool = False
    # The nine flags as bits of one int (tsumo 1, lingshang 2, … renhu 256), derived: a cheap
    # key for the scorer's memo of the SITUATION yaku, which read the flags but not the winds.
    flags: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("seat_wind", "round_wind"):
            v = getattr(self, name)
            if type(v) is not int or not 0 <= v <= 3:
                raise ValueError(f"{name} must be 0–3 (E S W N), got {v!r}")
        if (self.lingshang or self.haidi or self.hedi or self.qianggang or self.tianhu
                or self.dihu or self.renhu):
            self._check_flags()
        object.__setattr__(self, "flags", (
            (1 if self.tsumo else 0) | (2 if self.lingshang else 0) | (4 if self.haidi else 0)
            | (8 if self.hedi else 0) | (16 if self.qianggang else 0)
            | (32 if self.juezhang else 0) | (64 if self.tianhu else 0)
            | (128 if self.dihu else 0) | (256 if self.renhu else 0)))

    def _check_flags(self) -> None:
        """Issue 2's list of contradictions among the flags alone."""
        on = {n for n in ("lingshang", "haidi", "hedi", "qianggang", "tianhu", "dihu", "renhu")
              if getattr(self, n)}
        if self.tsumo:
            for name in ("hedi", "qianggang", "renhu"):
                if name in on:
                    raise ValueError(f"{name} is a win on a discard: it cannot be combined "
                                     f"with tsumo")
        else:
            for name in ("haidi", "lingshang", "tianhu", "dihu"):
                if name in on:
                    raise ValueError(f"{name} is a self-drawn win: it needs tsumo")
        if {"hedi", "qianggang"} <= on:
            raise ValueError("hedi and qianggang conflict: a robbed kan is not a discard")
        if {"lingshang", "haidi"} <= on:
            raise ValueError("lingshang and haidi conflict: a kan replacement is never the "
                             "last live-wall draw")
        heaven = [n for n in ("tianhu", "dihu", "renhu") if n in on]
        if len(heaven) > 1:
            raise ValueError(f"{' and '.join(heaven)} conflict: at most one of tianhu, dihu, "
                             f"renhu")
        if heaven:
            others = [n for n in ("lingshang", "haidi", "hedi", "qianggang") if n in on]
            if others:
                raise ValueError(f"{heaven[0]} conflicts with {', '.join(others)}: it is a "
                                 f"first-turn win")
            if self.tianhu and self.seat_wind != 0:
                raise ValueError("tianhu needs the East seat (the dealer)")
            if not self.tianhu and self.seat_wind == 0:
                raise ValueError(f"{heaven[0]} is a non-dealer's win: not on the East seat")


class Group(NamedTuple):
    """One meld of a reading.

    ``source`` is ``"hand"`` for a meld of the concealed decomposition, else the declared
    meld's kind (``chi``, ``pon``, ``minkan``, ``kakan``, ``ankan``). ``concealed`` is the 暗刻
    sense (RULES.md §7): hand melds and concealed kans, except the group a ron tile completes.
    """

    kind: str
    first: int
    source: str
    concealed: bool

    @property
    def called(self) -> bool:
        """Claimed from another player (chi, pon, open or added kan)."""
        return self.source not in ("hand", "ankan")

    @property
    def tiles(self) -> tuple[int, ...]:
        f = self.first
        if self.kind == CHOW:
            return (f, f + 1, f + 2)
        return (f,) * (4 if self.kind == KONG else 3)

    def __str__(self) -> str:
        text = tiles_to_str(self.tiles)
        return text if self.source == "hand" else f"{self.source}:{text}"


class Reading(NamedTuple):
    """One reading of a winning hand (see the module docstring). Immutable; a NamedTuple
    rather than a frozen dataclass because the scorer builds one per placement of the winning
    tile, and a dataclass's field-by-field ``__init__`` cost a tenth of a scored hand.

    Per reading: ``shape``; ``groups`` (hand melds first, then declared melds; empty outside
    the standard shape); ``pair``; ``placement`` and ``win_group`` (index into ``groups``, or
    ``None`` when the winning tile completes the pair or the shape is not standard);
    ``chows``/``pungs``/``kongs`` (sorted first tiles; ``pungs`` includes kongs);
    ``concealed_pungs`` (暗刻 count, kongs included); ``chow_bits``/``pung_bits`` (bit t set
    when a chow starts on / a pung or kong is of kind t: the same facts as integers, so that
    yaku about ranks across suits or runs of melds are a few bit tests).

    Per hand: ``win_tile``; ``single_wait`` (the 13-tile hand had exactly one wait, every shape
    counted, RULES.md §7: what 独听 and 假独 ask); ``counts`` (``bytes``: the 34 counts of every
    tile, melds included, a kong as 4; ``kinds``, the kinds present, sorted, is derived from
    them on access); ``suits`` (bit mask of SUIT_M, SUIT_P, SUIT_S, WIND, DRAGON present);
    ``ranks`` (bit ``1 << r`` for each number rank r present); ``quads`` (kinds held four times,
    not as a kong: the 归 family); ``melds`` (declared); ``open_melds`` (how many of them were
    called: chi, pon, open or added kan); ``ctx``.
    """

    # Per hand first (``HandFacts.shared``): a reading is that run plus its own fields, one
    # tuple concatenation.
    win_tile: int
    single_wait: bool
    counts: bytes
    suits: int
    ranks: int
    quads: tuple[int, ...]
    melds: tuple[Meld, ...]
    open_melds: int
    ctx: WinContext
    # Per reading.
    shape: str
    groups: tuple[Group, ...]
    pair: int | None
    placement: str | None
    win_group: int | None
    chows: tuple[int, ...]
    pungs: tuple[int, ...]
    kongs: tuple[int, ...]
    concealed_pungs: int
    chow_bits: int = 0
    pung_bits: int = 0

    @property
    def kinds(self) -> tuple[int, ...]:
        """The kinds present, sorted (from ``counts``: only two predicates ask)."""
        return tuple(compress(_KINDS, self.counts))


# A Reading from one tuple of all its fields, in order (what the NamedTuple's own ``__new__``
# does after binding 21 arguments one by one).
_new_tuple = tuple.__new__

# Translation table over the 34 counts (with ``PRESENT``): is the kind held four times?
_FOUR = bytes([0, 0, 0, 0, 1] + [0] * 251)
_KINDS = range(34)


def _presence_table(base: int, n: int) -> dict[int, tuple[int, ...]]:
    """The kinds present in one suit, keyed by its presence pattern read as an int (byte r
    is 1 when rank r is present: ``int.from_bytes(present[lo:hi], "little")``)."""
    return {sum(1 << 8 * r for r in range(n) if m >> r & 1):
            tuple(base + r for r in range(n) if m >> r & 1) for m in range(1 << n)}


# Reading.ranks of the union of the number suits' presence patterns, and the honor suits of
# the honors' pattern: the hand-wide masks are look-ups instead of a loop over the kinds.
_RANKS_OF = {pattern: sum(1 << (k + 1) for k in kinds)
             for pattern, kinds in _presence_table(0, 9).items()}
_HONOR_SUITS = {pattern: (WIND if any(k < 31 for k in kinds) else 0)
                | (DRAGON if any(k >= 31 for k in kinds) else 0)
                for pattern, kinds in _presence_table(27, 7).items()}


_NINE = (1 << 72) - 1            # the nine bytes of one number suit


def tile_facts(counts: bytes) -> tuple[int, int, tuple[int, ...]]:
    """``(suits, ranks, fours)`` of the 34 counts of every tile of a hand: the
    ``Reading.suits`` and ``Reading.ranks`` masks, the kinds held four times.
    (Byte-level operations and table look-ups: no Python loop over the kinds.)"""
    present = int.from_bytes(counts.translate(PRESENT), "little")
    m = present & _NINE
    p = present >> 72 & _NINE
    s = present >> 144 & _NINE
    return ((m and SUIT_M) | (p and SUIT_P) | (s and SUIT_S) | _HONOR_SUITS[present >> 216],
            _RANKS_OF[m | p | s],
            tuple(compress(_KINDS, counts.translate(_FOUR))) if 4 in counts else ())


class Decomposition(NamedTuple):
    """One standard reading of the concealed tiles plus the winning tile: the pair, the hand
    groups (all concealed: what a tsumo, or a win on the pair, leaves them) in (first tile,
    kind) order, their chows and pungs (first tiles, sorted), and every placement of the
    winning tile (RULES.md §7) as ``(placement, index into groups or None for the pair)``;
    ``chow_bits``/``pung_bits`` as in ``Reading``."""

    pair: int
    groups: tuple[Group, ...]
    chows: tuple[int, ...]
    pungs: tuple[int, ...]
    chow_bits: int
    pung_bits: int
    placements: tuple[tuple[str, int | None], ...]


# The group of every meld a concealed decomposition can hold, concealed or completed by a ron
# (Groups are immutable: built once and shared).
_HAND_GROUPS = {(kind, t): Group(kind, t, "hand", True)
                for kind in (CHOW, PUNG) for t in range(34)}
_RON_GROUPS = {g: Group(g.kind, g.first, "hand", False) for g in _HAND_GROUPS.values()}


PartT = tuple[tuple[Group, ...], tuple[int, ...], tuple[int, ...], int, int]


def _suit_parts(base: int, all_melds: list[tuple[MeldT, ...]]) -> tuple[PartT, ...]:
    """For every melds tuple of a per-suit reading table (relative ranks): its hand groups,
    chow and pung first tiles, chow and pung bits, moved to the suit at ``base``."""
    out = []
    for melds in all_melds:
        groups, chows, pungs = [], [], []
        chow_bits = pung_bits = 0
        for kind, first in melds:
            t = first + base
            groups.append(_HAND_GROUPS[kind, t])
            if kind == CHOW:
                chows.append(t)
                chow_bits |= 1 << t
            else:
                pungs.append(t)
                pung_bits |= 1 << t
        out.append((tuple(groups), tuple(chows), tuple(pungs), chow_bits, pung_bits))
    return tuple(out)


def _indexed(table: dict[bytes, tuple[ReadingT, ...]]
             ) -> tuple[dict[bytes, tuple[tuple[int, int], ...]], list[tuple[MeldT, ...]]]:
    """A per-suit reading table with each melds tuple replaced by its index in the list of
    the distinct ones (about 3,000 per number suit): a hand's parts are then a list look-up
    per suit, with no hashing or comparing of nested tuples. (Parts hold ``Group``s, which
    the garbage collector tracks for good: a few thousand of them, not one per key.)"""
    index: dict[tuple[MeldT, ...], int] = {}
    out = {key: tuple((p, index.setdefault(melds, len(index))) for p, melds in readings)
           for key, readings in table.items()}
    return out, list(index)


_NUMBER_INDEXED, _NUMBER_MELDS = _indexed(NUMBER_TABLE)
_HONOR_INDEXED, _HONOR_MELDS = _indexed(HONOR_TABLE)
# Per suit (m, p, s, honors): (first kind, last kind + 1, its counts when empty, indexed
# reading table, parts).
_SUITS = tuple((lo, hi, bytes(hi - lo), _NUMBER_INDEXED, _suit_parts(lo, _NUMBER_MELDS))
               for lo, hi in SUIT_SLICES[:3]) + \
    ((27, 34, bytes(7), _HONOR_INDEXED, _suit_parts(27, _HONOR_MELDS)),)
del _NUMBER_MELDS, _HONOR_MELDS
# Per suit: (first kind, last kind + 1, its counts when empty, the keys that read one way
# with their one reading (pair rank or -1, index into the parts), parts). Nearly every hand
# reads one way in each suit. (The readings are the indexed table's own pairs of ints: no
# new objects, none the garbage collector keeps tracking.)
_SINGLE_NUMBER = {key: rel[0] for key, rel in _NUMBER_INDEXED.items() if len(rel) == 1}
_SINGLE_SUITS = tuple((lo, hi, empty, _SINGLE_NUMBER if lo < 27 else
                       {key: rel[0] for key, rel in table.items() if len(rel) == 1}, parts)
                      for lo, hi, empty, table, parts in _SUITS)


def decompositions(key14: bytes, win: int) -> tuple[Decomposition, ...]:
    """Every standard decomposition of the concealed tiles plus the winning tile (``key14``:
    checked counts, at most four a kind), in ``decompose_standard``'s order, each with its
    placements; ``()`` when there is none.

    Every suit key of a hand this size is in the import-time tables when it reads at all, so
    this is a look-up per suit; a suit with several readings (or none) goes to
    ``_combined``.
    """
    pair = -1
    groups: tuple[Group, ...] = ()
    chows: tuple[int, ...] = ()
    pungs: tuple[int, ...] = ()
    chow_bits = pung_bits = 0
    for lo, hi, empty, single, parts in _SINGLE_SUITS:
        sk = key14[lo:hi]
        if sk == empty:
            continue
        reading = single.get(sk)
        if reading is None:
            return _combined(key14, win)
        p, i = reading
        g, c, pu, cb, pb = parts[i]
        if p >= 0:
            if pair >= 0:               # a second pair
                return ()
            pair = p + lo
        groups += g
        chows += c
        pungs += pu
        chow_bits |= cb
        pung_bits |= pb
    if pair < 0:
        return ()
    return (_new_tuple(Decomposition, (pair, groups, chows, pungs, chow_bits, pung_bits,
                                       placements(pair, groups, win, chow_bits, pung_bits))),)


def _combined(key14: bytes, win: int) -> tuple[Decomposition, ...]:
    """``decompositions`` when some suit reads several ways or not at all: every combination
    of the suits' readings. Whether a suit holds the pair follows from its tile count, so
    all its readings agree."""
    combos = [(-1, (), (), (), 0, 0)]
    for lo, hi, empty, table, parts in _SUITS:
        sk = key14[lo:hi]
        if sk == empty:
            continue
        rel = table.get(sk)
        if rel is None:
            return ()
        options = [(p + lo if p >= 0 else -1, *parts[i]) for p, i in rel]
        if options[0][0] >= 0 and combos[0][0] >= 0:      # a second pair
            return ()
        combos = [(p if p >= 0 else q, g + g2, c + c2, pu + pu2, cb | cb2, pb | pb2)
                  for p, g, c, pu, cb, pb in combos for q, g2, c2, pu2, cb2, pb2 in options]
    if combos[0][0] < 0:
        return ()
    return tuple([_new_tuple(Decomposition, (p, g, c, pu, cb, pb,
                                             placements(p, g, win, cb, pb)))
                  for p, g, c, pu, cb, pb in combos])


class HandFacts(NamedTuple):
    """What every reading of one hand shares (built once per scored hand), plus the declared
    melds' share of the groups so that each standard reading only adds its hand melds.
    (A NamedTuple: immutable like the Reading, and cheap to build on the hot path.)
    ``shared`` is the run of ``Reading`` fields from ``win_tile`` to ``ctx``, so that a
    reading is one tuple concatenation."""

    win_tile: int
    single_wait: bool
    counts: bytes
    suits: int
    ranks: int
    quads: tuple[int, ...]
    melds: tuple[Meld, ...]
    open_melds: int
    ctx: WinContext
    meld_groups: tuple[Group, ...]
    meld_chows: tuple[int, ...]
    meld_pungs: tuple[int, ...]
    kongs: tuple[int, ...]
    meld_concealed: int
    meld_chow_bits: int
    meld_pung_bits: int
    shared: tuple

    @classmethod
    def build(cls, all_counts: bytes, win_tile: int, single_wait: bool,
              melds: tuple[Meld, ...], ctx: WinContext) -> "HandFacts":
        suits, ranks, fours = tile_facts(all_counts)
        if not melds:
            shared = (win_tile, single_wait, all_counts, suits, ranks, fours, melds, 0, ctx)
            return _new_tuple(cls, shared + ((), (), (), (), 0, 0, 0, shared))
        groups = []
        chows = []
        pungs = []
        kongs = []
        chow_bits = pung_bits = ankans = 0
        for m in melds:
            g = _MELD_GROUPS[m.kind, m.tiles[0]]
            groups.append(g)
            if g.kind == CHOW:
                chows.append(g.first)
                chow_bits |= 1 << g.first
            else:
                pungs.append(g.first)
                pung_bits |= 1 << g.first
                if g.kind == KONG:
                    kongs.append(g.first)
                    ankans += g.concealed
        if kongs:
            kongs.sort()
            fours = tuple([k for k in fours if k not in kongs])
        shared = (win_tile, single_wait, all_counts, suits, ranks, fours, melds,
                  len(melds) - ankans, ctx)
        return _new_tuple(cls, shared + (tuple(groups), tuple(chows), tuple(pungs),
                                         tuple(kongs), ankans, chow_bits, pung_bits, shared))

    def special(self, shape: str) -> Reading:
        """The one reading of a seven-pairs, knitted or thirteen-orphans hand."""
        return _new_tuple(Reading, self.shared + (shape, (), None, None, None, (), (), (), 0, 0,
                                                  0))

    def standard(self, d: Decomposition, placement: str, index: int | None) -> Reading:
        """The standard reading of decomposition ``d`` with the winning tile placed as
        ``placement`` in group ``index`` (``None``: the pair). A win on a discard leaves the
        group it completes unconcealed (RULES.md §7), one 暗刻 fewer if it is a pung."""
        pair, groups, chows, pungs, chow_bits, pung_bits, _ = d    # one unpack, not six look-ups
        concealed = len(pungs) + self.meld_concealed
        if index is not None and not self.ctx.tsumo:
            g = groups[index]
            groups = groups[:index] + (_RON_GROUPS[g],) + groups[index + 1:]
            concealed -= g.kind == PUNG
        if self.melds:
            groups += self.meld_groups
            if self.meld_chows:
                chows = tuple(sorted(chows + self.meld_chows))
            if self.meld_pungs:
                pungs = tuple(sorted(pungs + self.meld_pungs))
            chow_bits |= self.meld_chow_bits
            pung_bits |= self.meld_pung_bits
        return _new_tuple(Reading, self.shared + (STANDARD, groups, pair, placement, index, chows,
                                                  pungs, self.kongs, concealed, chow_bits,
                                                  pung_bits))


def meld_group(m: Meld) -> Group:
    """The group of a declared meld (a concealed kan is 暗刻; every other meld is called)."""
    kind = CHOW if m.kind == "chi" else (KONG if m.is_kong else PUNG)
    return Group(kind, m.tiles[0], m.kind, m.kind == "ankan")


# The group of every possible declared meld, by (meld kind, first tile): built once, shared.
_MELD_GROUPS = {(kind, t): meld_group(Meld(kind, (t,) * (3 if kind == "pon" else 4)
                                           if kind != "chi" else (t, t + 1, t + 2)))
                for kind in ("chi", "pon", "minkan", "kakan", "ankan") for t in range(34)
                if kind != "chi" or (t < 27 and t % 9 <= 6)}


def placements(pair: int, groups: tuple[Group, ...], win: int, chow_bits: int,
               pung_bits: int) -> tuple[tuple[str, int | None], ...]:
    """Every distinct way the winning tile completes a group of one decomposition
    (RULES.md §7): ``(placement, index into groups or None for the pair)``, in group order
    (equal groups give one placement: the first). Only the chows starting on ``win`` − 2,
    ``win`` − 1 or ``win`` and a pung of ``win`` can hold it (``chow_bits``, ``pung_bits``)."""
    out: list[tuple[str, int | None]] = []
    if pair == win:
        out.append((DANDIAO, None))
    near = chow_bits >> win - 2 if win >= 2 else chow_bits << 2 - win
    if near & 7:
        rank = win % 9                  # of the winning tile, 0-based
        if near & 1:                    # the chow below: 12 -> 3 edge, else two-sided
            out.append((BIANZHANG if rank == 2 else LIANGMIAN,
                        groups.index(_HAND_GROUPS[CHOW, win - 2])))
        if near & 2:
            out.append((KANZHANG, groups.index(_HAND_GROUPS[CHOW, win - 1])))
        if near & 4:                    # the chow above: 89 -> 7 edge, else two-sided
            out.append((BIANZHANG if rank == 6 else LIANGMIAN,
                        groups.index(_HAND_GROUPS[CHOW, win])))
    if pung_bits >> win & 1:
        out.append((SHUANGPENG, groups.index(_HAND_GROUPS[PUNG, win])))
    return tuple(out)
