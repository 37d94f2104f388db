"""Readings: one way of seeing a winning hand, the single input of every yaku predicate.

A *reading* fixes everything a yaku may ask about (RULES.md §6–§7): the shape, the groups (the
melds of one decomposition of the concealed tiles plus the declared melds) and the pair, where
the winning tile sits (its *placement*) and which group it completes, whether the 13-tile hand
had a single wait, the tiles held (melds included), the winds and the situation flags.

The decompositions, placements and waits come from ``mjenv.analysis``; this module only puts
them together (``readings_of``). The facts about the tiles held (``counts``, ``suits``,
``ranks``, ``quads``), the melds and the situation are the same in every reading of a hand.
"""

from __future__ import annotations

from itertools import compress
from typing import NamedTuple

from mjenv.analysis.decompose import (BIANZHANG, DANDIAO, KANZHANG, KNITTED, LIANGMIAN,
                                      PLACEMENT_ZH, PLACEMENTS, SEVEN_PAIRS, SHUANGPENG,
                                      THIRTEEN_ORPHANS, decompose_key, placements,
                                      special_shapes)
from mjenv.analysis.tables import PRESENT
from mjenv.analysis.waits import held_wait_kinds
from mjenv.scoring.context import WinContext
from mjenv.tiles import Meld, tiles_to_str

STANDARD = "standard"
SHAPES = (STANDARD, SEVEN_PAIRS, KNITTED, THIRTEEN_ORPHANS)

# Group kinds.
CHOW, PUNG, KONG = "chow", "pung", "kong"

__all__ = ["ALL_SUITS", "BIANZHANG", "CHOW", "DANDIAO", "Group", "HONOR_SUITS", "KANZHANG",
           "KNITTED", "KONG", "LIANGMIAN", "NUMBER_SUITS", "PLACEMENTS", "PLACEMENT_ZH", "PUNG",
           "Reading", "SEVEN_PAIRS", "SHAPES", "SHUANGPENG", "STANDARD", "THIRTEEN_ORPHANS",
           "WinContext", "meld_group", "readings_of", "tile_facts"]

# The suits of ``Reading.suits``: the three number suits, the winds and the dragons.
NUMBER_SUITS = frozenset("mps")
HONOR_SUITS = frozenset({"wind", "dragon"})
ALL_SUITS = NUMBER_SUITS | HONOR_SUITS


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
    """One reading of a winning hand (see the module docstring); immutable.

    Per reading: ``shape``; ``pair`` (its kind; ``None`` outside the standard shape);
    ``groups`` (hand melds first, then declared melds; empty outside the standard shape);
    ``placement`` and ``win_group`` (index into ``groups``; ``None`` when the winning tile
    completes the pair or the shape is not standard); ``chows``, ``pungs`` and ``kongs`` (first
    tiles, sorted; ``pungs`` includes the kongs); ``chow_bits`` and ``pung_bits`` (the same
    as sets, bit t for kind t: see ``mjenv.scoring.yaku.words``); ``concealed_pungs`` (暗刻,
    kongs included).

    Per hand: ``win_tile``; ``single_wait`` (the 13-tile hand had exactly one wait, every shape
    counted, RULES.md §7); ``counts`` (``bytes``: how many of each of the 34 kinds are held,
    melds included, a kong as 4); ``suits`` (of ``NUMBER_SUITS`` and ``HONOR_SUITS``, those
    present); ``ranks`` (the ranks 1–9 of the number tiles present); ``quads`` (kinds held four
    times, not as a kong: the 归 family); ``melds`` (declared); ``open_melds`` (how many of them
    were called: chi, pon, open or added kan); ``ctx``.
    """

    shape: str
    pair: int | None
    groups: tuple[Group, ...]
    placement: str | None
    win_group: int | None
    chows: tuple[int, ...]
    pungs: tuple[int, ...]
    kongs: tuple[int, ...]
    chow_bits: int
    pung_bits: int
    concealed_pungs: int
    win_tile: int
    single_wait: bool
    counts: bytes
    suits: frozenset[str]
    ranks: frozenset[int]
    quads: tuple[int, ...]
    melds: tuple[Meld, ...]
    open_melds: int
    ctx: WinContext

    @property
    def kinds(self) -> tuple[int, ...]:
        """The kinds held, in tile order."""
        return tuple(compress(range(34), self.counts))


# --- the tiles held -----------------------------------------------------------------------

_SUIT_NAMES = ("m", "p", "s", "wind", "dragon")
# Per pattern of suits present (bit i: ``_SUIT_NAMES[i]``), the set of their names; per rank
# presence pattern (nine bytes read as an int, byte r − 1 set when rank r is present), the set
# of ranks (each set built once and shared).
_SUITS_PRESENT = tuple(frozenset(n for i, n in enumerate(_SUIT_NAMES) if m >> i & 1)
                       for m in range(32))
_RANKS_PRESENT = {sum(1 << 8 * r for r in range(9) if m >> r & 1):
                  frozenset(r + 1 for r in range(9) if m >> r & 1) for m in range(512)}
_FOUR = bytes([0, 0, 0, 0, 1] + [0] * 251)      # translation table: held four times?


def tile_facts(counts: bytes) -> tuple[frozenset[str], frozenset[int], tuple[int, ...]]:
    """``(suits, ranks, fours)`` of the 34 counts of every tile of a hand: the ``Reading``'s
    ``suits`` and ``ranks`` and the kinds held four times."""
    present = counts.translate(PRESENT)         # 1 where a kind is held
    m, p, s = present[0:9], present[9:18], present[18:27]
    suits = ((1 in m) | (1 in p) << 1 | (1 in s) << 2 | (1 in present[27:31]) << 3
             | (1 in present[31:34]) << 4)
    ranks = (int.from_bytes(m, "little") | int.from_bytes(p, "little")
             | int.from_bytes(s, "little"))
    fours = tuple(compress(range(34), counts.translate(_FOUR))) if 4 in counts else ()
    return _SUITS_PRESENT[suits], _RANKS_PRESENT[ranks], fours


# --- readings -----------------------------------------------------------------------------

def meld_group(m: Meld) -> Group:
    """The group of a declared meld (a concealed kan is 暗刻; every other meld is called)."""
    return _MELD_GROUPS[m.kind, m.tiles[0]]


# Every group a declared meld can make, by (meld kind, first tile): built once and shared.
_MELD_GROUPS = {(kind, t): Group(CHOW if kind == "chi" else PUNG if kind == "pon" else KONG, t,
                                 kind, kind == "ankan")
                for kind in ("chi", "pon", "minkan", "kakan", "ankan") for t in range(34)}


# Every group a decomposition can hold, by (kind, first tile): concealed, and completed by a ron
# (Groups are immutable: built once and shared).
_HAND_GROUPS = {(kind, first): (Group(kind, first, "hand", True), Group(kind, first, "hand", False))
                for kind in (CHOW, PUNG) for first in range(34)}


def readings_of(concealed: bytearray, held: bytearray, win_tile: int, melds: tuple[Meld, ...],
                ctx: WinContext) -> list[Reading]:
    """Every reading (RULES.md §6–§7) of a win: ``concealed`` and ``held`` are the counts of
    the concealed tiles and of every tile held (melds included), before the win. Special
    shapes first, then each standard decomposition (``mjenv.analysis.decompose_key``) with
    each placement of the winning tile (``mjenv.analysis.decompose.placements``); a win on a
    discard leaves the group it completes unconcealed (RULES.md §7: no 暗刻)."""
    single_wait = len(held_wait_kinds(bytes(concealed), held, len(melds))) == 1
    concealed[win_tile] += 1
    held[win_tile] += 1
    concealed, counts = bytes(concealed), bytes(held)
    suits, ranks, quads = tile_facts(counts)
    declared = tuple(map(meld_group, melds))
    declared_parts: tuple[tuple[str, int], ...] = ()
    declared_pungs = ankans = 0
    kongs: tuple[int, ...] = ()
    for g in declared:
        declared_parts += ((CHOW if g.kind == CHOW else PUNG, g.first),)
        declared_pungs += g.kind != CHOW
        if g.kind == KONG:
            kongs = tuple(sorted((*kongs, g.first)))
            quads = tuple(t for t in quads if t != g.first)     # four in a kong: no 归
            ankans += g.source == "ankan"
    hand = (win_tile, single_wait, counts, suits, ranks, quads, melds,
            len(melds) - ankans, ctx)
    out = [Reading(shape, None, (), None, None, (), (), (), 0, 0, 0, *hand)
           for shape in (() if melds else special_shapes(concealed))]
    for pair, parts in decompose_key(concealed):
        chows, pungs = [], []
        chow_bits = pung_bits = 0
        for kind, first in parts + declared_parts if declared_parts else parts:
            if kind == CHOW:
                chows.append(first)
                chow_bits |= 1 << first
            else:
                pungs.append(first)
                pung_bits |= 1 << first
        concealed_pungs = len(pungs) - declared_pungs + ankans          # hand pungs, 暗杠
        chows.sort()
        pungs.sort()
        chows, pungs = tuple(chows), tuple(pungs)
        groups = tuple([_HAND_GROUPS[part][0] for part in parts])
        for placement, index in placements(pair, parts, win_tile):
            if index is None or ctx.tsumo:
                here, lost = groups, 0
            else:
                here = groups[:index] + (_HAND_GROUPS[parts[index]][1],) + groups[index + 1:]
                lost = parts[index][0] == PUNG
            out.append(Reading(STANDARD, pair, here + declared, placement, index, chows, pungs,
                               kongs, chow_bits, pung_bits, concealed_pungs - lost, *hand))
    return out
