"""Narrow views of a ``Reading``: what a predicate that needs less than the whole reading sees.

A predicate's parameter annotation says which it reads: ``Reading`` (everything), or one of the
views below, each a few of the reading's fields under the same names. The scorer evaluates a
predicate on the view it names and memoises the result on the view's values, which recur from
hand to hand (``mjenv.scoring.tiers``); a predicate given a view can read nothing else (an
``AttributeError`` at once, never a wrong result), and a ``Reading`` can stand in for any view.
"""

from __future__ import annotations

from typing import NamedTuple


class Suits(NamedTuple):
    """The shape and the suits the tiles show (``Reading.suits``)."""

    shape: str
    suits: frozenset[str]


class Tiles(NamedTuple):
    """The shape, the suits and the number ranks the tiles show."""

    shape: str
    suits: frozenset[str]
    ranks: frozenset[int]


class Flags(NamedTuple):
    """The situation flags of a ``WinContext`` (``FLAG_NAMES``, in that order), without the
    winds."""

    tsumo: bool
    lingshang: bool
    haidi: bool
    hedi: bool
    qianggang: bool
    juezhang: bool
    tianhu: bool
    dihu: bool
    renhu: bool

    @property
    def flags(self) -> int:
        """The flags as one int, bit i for the i-th (as ``WinContext.flags``)."""
        return sum(1 << i for i, on in enumerate(self) if on)


class Situation(NamedTuple):
    """How the hand was won: the shape, the flags (``ctx``, no winds), whether the hand had a
    single wait and how many melds were called."""

    shape: str
    ctx: Flags
    single_wait: bool
    open_melds: int


class Chows(NamedTuple):
    """The shape and the chows (``Reading.chows``, ``Reading.chow_bits``)."""

    shape: str
    chows: tuple[int, ...]
    chow_bits: int


class Pungs(NamedTuple):
    """The shape, the pungs (kongs included) and the kongs."""

    shape: str
    pungs: tuple[int, ...]
    pung_bits: int
    kongs: tuple[int, ...]


class PungsAndPair(NamedTuple):
    """The shape, the pungs (kongs included) and the pair."""

    shape: str
    pungs: tuple[int, ...]
    pung_bits: int
    pair: int | None


VIEWS = (Suits, Tiles, Situation, Chows, Pungs, PungsAndPair)
