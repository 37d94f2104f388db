"""Readings: one way of seeing a winning hand, the single input of every yaku predicate.

A *reading* fixes everything a yaku may ask about (RULES.md §6–§7): the shape, the groups
(melds of the concealed decomposition plus the declared melds) and the pair, where the winning
tile sits (its *placement*) and which group it completes, whether the 13-tile hand had a
single wait, the counts of every tile (melds included), the winds and the situation flags.
Scoring (``mjenv.scoring.score``) enumerates the readings of a hand and keeps the best one.

The hand-wide facts (``counts``, ``kinds``, ``suits``, ``ranks``, ``quads``, ``single_wait``,
``melds``, ``ctx``) are the same in every reading of a hand; they are precomputed once so the
predicates stay one-liners.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress
from typing import NamedTuple

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

    def __post_init__(self) -> None:
        for name in ("seat_wind", "round_wind"):
            v = getattr(self, name)
            if type(v) is not int or not 0 <= v <= 3:
                raise ValueError(f"{name} must be 0–3 (E S W N), got {v!r}")
        if (self.lingshang or self.haidi or self.hedi or self.qianggang or self.tianhu
                or self.dihu or self.renhu):
            self._check_flags()

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
    ``concealed_pungs`` (暗刻 count, kongs included).

    Per hand: ``win_tile``; ``single_wait`` (the 13-tile hand had exactly one wait, every
    shape counted, RULES.md §7: what 独听 and 假独 ask); ``counts``
    (34 counts of every tile, melds included, a kong as 4); ``kinds`` (the kinds present,
    sorted); ``suits`` (bit mask of SUIT_M, SUIT_P, SUIT_S, WIND, DRAGON present); ``ranks``
    (bit ``1 << r`` for each number rank r present); ``quads`` (kinds held four times, not as a
    kong: the 归 family); ``melds`` (declared); ``open_melds`` (how many of them were called:
    chi, pon, open or added kan); ``ctx``.
    """

    shape: str
    groups: tuple[Group, ...]
    pair: int | None
    placement: str | None
    win_group: int | None
    chows: tuple[int, ...]
    pungs: tuple[int, ...]
    kongs: tuple[int, ...]
    concealed_pungs: int
    win_tile: int
    single_wait: bool
    counts: tuple[int, ...]
    kinds: tuple[int, ...]
    suits: int
    ranks: int
    quads: tuple[int, ...]
    melds: tuple[Meld, ...]
    open_melds: int
    ctx: WinContext


# Translation tables over the 34 counts: is the kind present / held four times?
_PRESENT = bytes([0] + [1] * 255)
_FOUR = bytes([0, 0, 0, 0, 1] + [0] * 251)
_KINDS = range(34)


def _presence_table(base: int, n: int) -> dict[int, tuple[int, ...]]:
    """The kinds present in one suit, keyed by its presence pattern read as an int (byte r
    is 1 when rank r is present: ``int.from_bytes(present[lo:hi], "little")``)."""
    return {sum(1 << 8 * r for r in range(n) if m >> r & 1):
            tuple(base + r for r in range(n) if m >> r & 1) for m in range(1 << n)}


# Per-suit kinds present (m, p, s, honors), and Reading.ranks of the union of the number
# suits' patterns: the hand-wide facts are four look-ups instead of a loop over the kinds.
_SUIT_KINDS = tuple(_presence_table(base, 9) for base in (0, 9, 18))
_HONOR_KINDS = _presence_table(27, 7)
_RANKS_OF = {pattern: sum(1 << (k + 1) for k in kinds)
             for pattern, kinds in _SUIT_KINDS[0].items()}
_WIND_PATTERN = int.from_bytes(bytes([1, 1, 1, 1, 0, 0, 0]), "little")
_DRAGON_PATTERN = int.from_bytes(bytes([0, 0, 0, 0, 1, 1, 1]), "little")


def tile_facts(counts: bytes) -> tuple[tuple[int, ...], int, int, tuple[int, ...]]:
    """``(kinds, suits, ranks, fours)`` of the 34 counts of every tile of a hand: the kinds
    present, the ``Reading.suits`` and ``Reading.ranks`` masks, the kinds held four times.
    (Byte-level operations and per-suit table look-ups: no Python loop over the kinds.)"""
    present = counts.translate(_PRESENT)
    m = int.from_bytes(present[0:9], "little")
    p = int.from_bytes(present[9:18], "little")
    s = int.from_bytes(present[18:27], "little")
    z = int.from_bytes(present[27:34], "little")
    suits = ((m and SUIT_M) | (p and SUIT_P) | (s and SUIT_S)
             | (WIND if z & _WIND_PATTERN else 0) | (DRAGON if z & _DRAGON_PATTERN else 0))
    fours = counts.translate(_FOUR)
    return (_SUIT_KINDS[0][m] + _SUIT_KINDS[1][p] + _SUIT_KINDS[2][s] + _HONOR_KINDS[z],
            suits, _RANKS_OF[m | p | s],
            tuple(compress(_KINDS, fours)) if 1 in fours else ())


class Placed(NamedTuple):
    """One placement of the winning tile in a decomposition (RULES.md §7), with what a win on
    a discard changes there: the group it completes is no longer concealed."""

    placement: str
    index: int | None               # the completed hand meld; None: the pair
    ron_groups: tuple[Group, ...]   # the hand groups after a ron on this placement
    ron_pung: bool                  # a ron here completes a pung: one 暗刻 fewer


class Decomposition(NamedTuple):
    """One standard reading of the concealed tiles plus the winning tile, with the parts of
    every ``Reading`` built on it that do not depend on the declared melds or the flags."""

    pair: int
    melds: tuple[tuple[str, int], ...]
    groups: tuple[Group, ...]       # the hand groups, all concealed (a tsumo, or a pair wait)
    chows: tuple[int, ...]          # first tiles, sorted
    pungs: tuple[int, ...]          # sorted
    placements: tuple[Placed, ...]

    @classmethod
    def build(cls, pair: int, melds: tuple[tuple[str, int], ...], win: int) -> "Decomposition":
        groups = tuple([_HAND_GROUPS[m] for m in melds])
        placed = []
        for placement, index in placements(pair, melds, win):
            if index is None:
                placed.append(Placed(placement, None, groups, False))
            else:
                ron = list(groups)
                ron[index] = _RON_GROUPS[melds[index]]
                placed.append(Placed(placement, index, tuple(ron), melds[index][0] != CHOW))
        return cls(pair, melds, groups, tuple([f for k, f in melds if k == CHOW]),
                   tuple([f for k, f in melds if k != CHOW]), tuple(placed))


# The group of every meld a concealed decomposition can hold, concealed or completed by a ron
# (Groups are immutable: built once and shared).
_HAND_GROUPS = {(kind, t): Group(kind, t, "hand", True)
                for kind in (CHOW, PUNG) for t in range(34)}
_RON_GROUPS = {(kind, t): Group(kind, t, "hand", False)
               for kind in (CHOW, PUNG) for t in range(34)}


class HandFacts(NamedTuple):
    """What every reading of one hand shares (built once per scored hand), plus the declared
    melds' share of the groups so that each standard reading only adds its hand melds.
    (A NamedTuple: immutable like the Reading, and cheap to build on the hot path.)"""

    win_tile: int
    single_wait: bool
    counts: tuple[int, ...]
    kinds: tuple[int, ...]
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

    @classmethod
    def build(cls, all_counts: bytearray, win_tile: int, single_wait: bool,
              melds: tuple[Meld, ...], ctx: WinContext) -> "HandFacts":
        kinds, suits, ranks, fours = tile_facts(all_counts)
        if not melds:
            return cls(win_tile, single_wait, tuple(all_counts), kinds, suits, ranks, fours,
                       melds, 0, ctx, (), (), (), (), 0)
        groups = tuple([meld_group(m) for m in melds])
        kongs = tuple(sorted([g.first for g in groups if g.kind == KONG]))
        quads = tuple([k for k in fours if k not in kongs]) if kongs else fours
        return cls(win_tile, single_wait, tuple(all_counts), kinds, suits, ranks, quads, melds,
                   sum(1 for m in melds if m.is_open), ctx, groups,
                   tuple([g.first for g in groups if g.kind == CHOW]),
                   tuple([g.first for g in groups if g.kind != CHOW]), kongs,
                   sum(1 for g in groups if g.concealed))

    def special(self, shape: str) -> Reading:
        """The one reading of a seven-pairs, knitted or thirteen-orphans hand."""
        return Reading(shape, (), None, None, None, (), (), (), 0, self.win_tile,
                       self.single_wait, self.counts, self.kinds, self.suits, self.ranks,
                       self.quads, self.melds, self.open_melds, self.ctx)

    def standard(self, d: Decomposition, p: Placed) -> Reading:
        """The standard reading of decomposition ``d`` with the winning tile placed as ``p``."""
        ron = p.index is not None and not self.ctx.tsumo
        groups = p.ron_groups if ron else d.groups
        concealed = len(d.pungs) - (ron and p.ron_pung) + self.meld_concealed
        if self.melds:
            groups += self.meld_groups
            chows = tuple(sorted(d.chows + self.meld_chows)) if self.meld_chows else d.chows
            pungs = tuple(sorted(d.pungs + self.meld_pungs)) if self.meld_pungs else d.pungs
        else:
            chows, pungs = d.chows, d.pungs
        return Reading(STANDARD, groups, d.pair, p.placement, p.index, chows, pungs,
                       self.kongs, concealed, self.win_tile, self.single_wait, self.counts,
                       self.kinds, self.suits, self.ranks, self.quads, self.melds,
                       self.open_melds, self.ctx)


def meld_group(m: Meld) -> Group:
    """The group of a declared meld (a concealed kan is 暗刻; every other meld is called)."""
    kind = CHOW if m.kind == "chi" else (KONG if m.is_kong else PUNG)
    return Group(kind, m.tiles[0], m.kind, m.kind == "ankan")


def placements(pair: int, hand_melds: tuple[tuple[str, int], ...],
               win: int) -> list[tuple[str, int | None]]:
    """Every distinct way the winning tile completes a group of one decomposition
    (RULES.md §7): ``(placement, index into hand_melds or None for the pair)``."""
    out: list[tuple[str, int | None]] = []
    seen: set[tuple[str, int]] = set()
    if pair == win:
        out.append((DANDIAO, None))
    for i, (kind, first) in enumerate(hand_melds):
        if kind == PUNG:
            if first != win:
                continue
            p = SHUANGPENG
        else:
            pos = win - first
            if not 0 <= pos <= 2:
                continue
            rank = first % 9 + 1
            if pos == 1:
                p = KANZHANG
            elif pos == 0:
                p = LIANGMIAN if rank <= 6 else BIANZHANG
            else:
                p = LIANGMIAN if rank >= 2 else BIANZHANG
        key = (p, first)
        if key not in seen:
            seen.add(key)
            out.append((p, i))
    return out
