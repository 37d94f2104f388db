"""Which yaku hold for one reading, each predicate evaluated as rarely as what it reads allows.

A predicate whose parameter is one of the narrow views of ``mjenv.scoring.views`` (the suits,
the ranks, the situation, the chows, the pungs) reads only those few values, and they recur
from hand to hand: its result is memoised on them, with every predicate of the same view and
shape at once. A result memoised under a view's values was computed from nothing else, so it
holds for every reading that shares them: the memos are rule-agnostic and never change a result
(``holding_yaku`` in ``mjenv.scoring.score`` is the plain evaluation the tests hold them to).
Predicates of the whole ``Reading`` are evaluated on every reading. The values most readings
share (every set of suits; up to three chows, two pungs, one pung with the pair) are evaluated
at import, into tables that the memos start from and that survive ``clear_caches``: import-time
tables computed by the predicates themselves, never a second statement of a rule.

A set of yaku is an int, bit i for the i-th yaku of ``YAKU`` (rulebook order); the few
multiplicities above 1 (三元牌, once per dragon pung) ride along as ``(i, n)`` pairs.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from operator import attrgetter
from typing import Callable, NamedTuple

from mjenv.scoring.context import FLAG_NAMES
from mjenv.scoring.reading import ALL_SUITS, SHAPES, Reading
from mjenv.scoring.views import VIEWS, Chows, Flags, Pungs, PungsAndPair, Situation, Suits
from mjenv.scoring.yaku import YAKU
from mjenv.tiles import NUMBERS

Multi = tuple[tuple[int, int], ...]
Member = tuple[int, int, Callable]      # (bit, index in YAKU, predicate)


def _members(view: type, shape: str) -> list[Member]:
    return [(1 << i, i, y.predicate) for i, y in enumerate(YAKU.values())
            if y.view is view and shape in y.shapes]


def _evaluate(members: list[Member], view: NamedTuple | Reading) -> tuple[int, Multi]:
    """The yaku among ``members`` that hold for ``view``: mask and multiplicities."""
    mask, multi = 0, ()
    for bit, index, predicate in members:
        v = predicate(view)
        if v:
            mask |= bit
            if v > 1:
                multi += ((index, int(v)),)
    return mask, multi


class _Tier:
    """The yaku of one view, memoised on its values: ``key(r)`` is them as a plain tuple (cheap
    to build and hash), ``view(r)`` the view itself."""

    def __init__(self, view: type[NamedTuple]) -> None:
        fields = view._fields
        if view is Situation:               # the flags as one int: a cheap key
            fields = tuple("ctx.flags" if f == "ctx" else f for f in fields)
            self.view = lambda r: Situation(r.shape, Flags(*map(r.ctx.__getattribute__,
                                                                FLAG_NAMES)),
                                            r.single_wait, r.open_melds)
        else:
            get = attrgetter(*view._fields)
            self.view = lambda r: view._make(get(r))
        self.kind = view
        self.key = attrgetter(*fields)
        self.members = {shape: _members(view, shape) for shape in SHAPES}
        self.table: dict[tuple, tuple[int, Multi]] = {}     # made at import: see _tables
        self.memo: dict[tuple, tuple[int, Multi]] = {}

    def evaluate(self, r: Reading, key: tuple) -> tuple[int, Multi]:
        """The members' result for ``r``, memoised under ``key`` (the memo is bounded)."""
        if len(self.memo) >= len(self.table) + (1 << 16):
            self.memo = dict(self.table)
        found = self.memo[key] = _evaluate(self.members[r.shape], self.view(r))
        return found


_TIERS = tuple(_Tier(view) for view in VIEWS)
_READING = {shape: _members(Reading, shape) for shape in SHAPES}


def _make_tables() -> None:
    """Per view, its results on the values that most readings share, made at import (20 ms):
    every set of suits; the standard reading's chows up to three, pungs up to two (no kong),
    a pair with up to one pung."""
    standard = SHAPES[0]
    chow_starts = [t for t in NUMBERS if t % 9 <= 6]
    suit_sets = [frozenset(suits) for n in range(len(ALL_SUITS) + 1)
                 for suits in combinations(sorted(ALL_SUITS), n)]
    values: dict[type, list[tuple]] = {
        Suits: [(shape, suits) for shape in SHAPES for suits in suit_sets],

        Chows: [(standard, chows, _bits(chows)) for n in range(4)
                for chows in combinations_with_replacement(chow_starts, n)],
        Pungs: [(standard, pungs, _bits(pungs), ()) for n in range(3)
                for pungs in combinations(range(34), n)],
        PungsAndPair: [(standard, pungs, _bits(pungs), pair) for n in range(2)
                       for pungs in combinations(range(34), n) for pair in range(34)
                       if pair not in pungs],
    }
    for tier in _TIERS:
        for v in values.get(tier.kind, ()):
            view = tier.kind._make(v)
            tier.table[tier.key(view)] = _evaluate(tier.members[view.shape], view)


def _bits(tiles: tuple[int, ...]) -> int:
    return sum(1 << t for t in set(tiles))


_make_tables()


def clear_caches() -> None:
    """Forget the memos (a cold start); the import-time tables stay."""
    for tier in _TIERS:
        tier.memo = dict(tier.table)


clear_caches()


def holding(r: Reading) -> tuple[int, Multi]:
    """The yaku that hold for ``r`` before exclusions: their mask and multiplicities."""
    mask, multi = 0, ()
    for tier in _TIERS:
        key = tier.key(r)
        found = tier.memo.get(key) or tier.evaluate(r, key)
        mask |= found[0]
        if found[1]:
            multi += found[1]
    more = _evaluate(_READING[r.shape], r)
    return mask | more[0], multi + more[1]
