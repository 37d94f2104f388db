"""Value plans: target hand patterns that are worth enough points to be a legal win.

With ``min_points`` 6 most complete hands are *not* legal wins, so the heuristic does not aim at
"any complete hand" but at the nearest complete hand *worth at least min_points*. Each plan is
a target family (restrictions per suit, forced chows or a special shape) with the yaku its
completion is known to carry; its points are those yaku's points as the rule engine's rows
give them (``mjenv.scoring.YAKU``), plus 门清 for a concealed hand where no plan yaku excludes
it. A plan's points are a floor (the finished hand usually scores more).

The plans are listed in docs/agents.md (*Value plans*). ``free`` is the plain standard shape:
no yaku, the fallback when nothing else is open. The *plain* shapes — the standard shape
unrestricted, seven pairs, the knitted shape — are those whose readiness the scorer decides.

``PlanList.evaluate`` measures a whole plan list on one hand at once: each plan's tiles-needed
distance and, on demand, the 34-bit masks of the tiles whose removal keeps it (surplus) and
whose arrival shortens it (need) — see ``tables`` for why one evaluation answers both.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import NamedTuple, Sequence

import numpy as np

from agents.heuristic.tables import (INF, NONE, SLOTS, SUIT_SLICES, Combined, Optimal,
                                     hand_bits, hand_wants, layout, ranks_of,
                                     seven_pairs_distance, slot_bits, suit_row, suit_rows)
from mjenv.analysis import knitted_cover, knitted_masks, knitted_need
from mjenv.scoring import YAKU
from mjenv.tiles import DRAGONS, WINDS, Meld

STD, PAIRS_SHAPE, FIVE, KNIT = "std", "pairs", "five", "knit"


@dataclass(frozen=True)
class Plan:
    """One target pattern. ``yaku``: the yaku its completion holds; ``forced``: tiles the
    finished hand must contain (each kind once per listing) as ``forced_groups`` chows;
    ``families``: the per-suit target family for the rest (``tables.FAMILIES``); ``plain``:
    one of the plain shapes (the module docstring)."""

    name: str
    shape: str
    yaku: tuple[str, ...]
    points: int
    families: tuple[str, str, str, str] = ("all", "all", "all", "all")
    forced: tuple[int, ...] = ()
    forced_groups: int = 0
    plain: bool = False

    @cached_property
    def reach(self) -> int:
        """The kinds the plan asks for wherever the hand stands (34 bits): its forced tiles,
        and every honor for 五门齐 (its wind and dragon doors)."""
        return self.forced_bits | _DOOR_BITS[3] | _DOOR_BITS[4] if self.shape == FIVE \
            else self.forced_bits

    @cached_property
    def forced_bits(self) -> int:
        """The forced tiles as 34 bits."""
        return sum(1 << t for t in set(self.forced))

    @cached_property
    def forced_ranks(self) -> tuple[int, int, int, int]:
        """The forced tiles per suit as rank bits."""
        return tuple(sum(1 << (t - 9 * suit) for t in set(self.forced) if t // 9 == suit)
                     for suit in range(4))  # type: ignore[return-value]


def plan_points(yaku: Sequence[str], concealed: bool) -> int:
    """Points of ``yaku`` from the rule engine's rows, plus 门清 when the hand is concealed
    and none of them excludes it."""
    points = sum(YAKU[y].points for y in yaku)
    if concealed and yaku and not any("menqing" in YAKU[y].excludes for y in yaku):
        points += YAKU["menqing"].points
    return points


def candidate_plans(melds: tuple[tuple[str, tuple[int, ...]], ...], value_planning: bool,
                    loose: bool = False, knitted: bool = False) -> tuple[Plan, ...]:
    """The plans still open given the seat's declared melds, as ``(kind, tiles)`` pairs (a
    meld outside a flush suit rules the flush out, a chow rules out 对对胡, any meld rules out
    七对子 and the knitted shape …). ``loose``: v1's tables (``tables``); ``knitted``: the
    十三不搭 plan (not v1's).

    What rules plans out is the melds' suits, their chows' first tiles, how many other melds
    there are and whether all are concealed kans: meld sets alike in these (a pung of 2m or of
    7m) share one list, made once."""
    chows = tuple(sorted(tiles[0] for kind, tiles in melds if kind == "chi"))
    return _candidates(frozenset(tiles[0] // 9 for _, tiles in melds), chows,
                       len(melds) - len(chows), all(kind == "ankan" for kind, _ in melds),
                       value_planning, loose, knitted)


@lru_cache(maxsize=4096)
def _candidates(suits: frozenset[int], chows: tuple[int, ...], others: int, concealed: bool,
                value_planning: bool, loose: bool, knitted: bool) -> tuple[Plan, ...]:
    """``candidate_plans`` of meld sets with these suits, chows' first tiles (sorted), other
    melds and concealment."""
    melds = chows or others
    suffix = "/loose" if loose else ""

    def plan(name: str, shape: str, yaku: tuple[str, ...],
             families: Sequence[str] = ("all",) * 4, chows_of: Sequence[int] = ()) -> Plan:
        # ``families`` are named without v1's suffix; ``chows_of``: the first tiles of the
        # chows the plan needs, those not declared forced. The plain shapes: those with no
        # yaku, and seven pairs and the knitted shape whatever yaku they carry.
        missing = [f for f in chows_of if f not in chows]
        return _plan(name, shape, yaku, concealed,
                     tuple(n if n == NONE else n + suffix for n in families),
                     tuple(t for f in missing for t in range(f, f + 3)), len(missing),
                     not yaku or shape in (PAIRS_SHAPE, KNIT))

    free = plan("free", STD, ())
    if not value_planning:
        return (free,) if melds else (free, plan("qiduizi_shape", PAIRS_SHAPE, ()))
    plans = [free]
    for s in range(3):
        flush = [NONE] * 4
        flush[s] = "all"
        if suits <= {s, 3}:
            plans.append(plan(f"hunyise_{'mps'[s]}", STD, ("hunyise",), (*flush[:3], "all")))
        if suits <= {s}:
            plans.append(plan(f"qingyise_{'mps'[s]}", STD, ("qingyise",), flush))
    if not chows:
        plans.append(plan("duiduihu", STD, ("duiduihu",), ("pung",) * 4))
    if not melds:
        plans.append(plan("qiduizi", PAIRS_SHAPE, ("qiduizi",)))
        if knitted:
            plans.append(plan("shisan_buda", KNIT, ("shisan_buda",)))
    if not others and all(0 < c % 9 < 6 for c in chows):
        plans.append(plan("pinghu_duanyao", STD, ("pinghu", "duanyao"),
                          ("tanyao_chow",) * 3 + (NONE,)))
    # a plan of chows needs room for them beside the declared melds that are not among them
    for s in range(3):
        firsts = [9 * s, 9 * s + 3, 9 * s + 6]
        if others + sum(1 for c in chows if c not in firsts) <= 1:
            plans.append(plan(f"yitiaolong_{'mps'[s]}", STD, ("yitiaolong",), chows_of=firsts))
    for r in range(7):
        for a, b in ((0, 1), (0, 2), (1, 2)):
            firsts = [9 * a + r, 9 * b + r]
            if others + sum(1 for c in chows if c not in firsts) <= 2:
                plans.append(plan(f"jingtong_{r + 1}{'mps'[a]}{'mps'[b]}", STD, ("jingtong",),
                                  chows_of=firsts))
    plans.append(plan("wumenqi", FIVE, ("wumenqi",)))
    return tuple(plans)


@lru_cache(maxsize=None)
def _plan(name: str, shape: str, yaku: tuple[str, ...], concealed: bool,
          families: tuple[str, str, str, str], forced: tuple[int, ...], forced_groups: int,
          plain: bool) -> Plan:
    """A value plan, made once: the plan lists of many meld sets share it."""
    return Plan(name, shape, yaku, plan_points(yaku, concealed), families, forced,
                forced_groups, plain)


def meld_key(melds: Sequence[Meld]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    return tuple((m.kind, m.tiles) for m in melds)


ALL34 = (1 << 34) - 1


class PlanList:
    """A plan list compiled for evaluation on many hands: each standard plan's four suit
    rows come from a few shared *variants* (family, suit, forced ranks), so a hand needs one
    row per variant, and all standard plans are combined in one batch. ``plain``: the
    indices of the plain shapes; ``free``: that of the plain standard shape (the fallback
    where no plan is admitted)."""

    def __init__(self, plans: Sequence[Plan], groups: int) -> None:
        self.plans = tuple(plans)
        self.groups = groups
        self.plain = tuple(i for i, p in enumerate(plans) if p.plain)
        self.free = next(i for i in self.plain if plans[i].shape == STD)
        self.std = [i for i, p in enumerate(plans)
                    if p.shape == STD and groups - p.forced_groups >= 0]
        self.pos = {i: j for j, i in enumerate(self.std)}
        self.five = [i for i, p in enumerate(plans) if p.shape == FIVE]
        self.pairs = [i for i, p in enumerate(plans) if p.shape == PAIRS_SHAPE]
        self.knit = [i for i, p in enumerate(plans) if p.shape == KNIT]
        # each plan's variants (family, suit, forced ranks): a standard plan's four suits,
        # 五门齐's three number suits
        suits = {**{i: 4 for i in self.std}, **{i: 3 for i in self.five}}
        of = {i: [(plans[i].families[s], s, plans[i].forced_ranks[s]) for s in range(n)]
              for i, n in suits.items()}
        # the variants, numbered suit by suit, so that a hand's variant rows are its four
        # suits' rows one after another; each suit asks its (family, forced ranks) pairs
        variants = sorted(dict.fromkeys(v for vs in of.values() for v in vs), key=lambda v: v[1])
        number = {v: n for n, v in enumerate(variants)}
        self.asked = tuple(tuple((family, ranks) for family, suit, ranks in variants
                                 if suit == s) for s in range(4))
        # each variant's suit and place among the suit's asked
        self.variant_at = [(suit, self.asked[suit].index((family, ranks)))
                           for family, suit, ranks in variants]
        self.template = tuple(tuple(number[v] for v in of[i]) for i in self.std)
        self.five_rows = {i: [number[v] for v in of[i]] for i in self.five}
        self.layout = layout([(groups - plans[i].forced_groups,
                               tuple(f == NONE for f in plans[i].families)) for i in self.std],
                             self.template)

    def evaluate(self, counts: Sequence[int], melds: Sequence[Meld]) -> PlanEval:
        """Every plan on concealed ``counts`` (the distances now, the masks on demand)."""
        return PlanEval(self, bytes(counts), tuple(melds))


class Masks(NamedTuple):
    """A plan's 34-bit ``need`` and ``surplus`` masks on a hand (``PlanEval``)."""

    need: int
    surplus: int


class PlanEval:
    """A plan list on one hand: ``dist`` per plan (tiles needed; ``INF``: out of reach), and
    on demand the 34-bit masks ``need`` (one more of the kind shortens it) and ``surplus``
    (one less keeps it; giving up any other held kind costs one tile) — :meth:`bits` — and
    :meth:`want`: for a surplus kind ``t``, the kinds that would shorten the hand once a ``t``
    is discarded. ``absent``: the kinds the hand lacks."""

    __slots__ = ("plist", "counts", "melds", "suits", "absent", "combined", "dist", "_bits",
                 "_wants", "_optimal")

    def __init__(self, plist: PlanList, counts: bytes, melds: tuple[Meld, ...]) -> None:
        self.plist, self.counts, self.melds = plist, counts, melds
        self.suits = [suit_rows(asked, counts[lo:hi])
                      for asked, (lo, hi) in zip(plist.asked, SUIT_SLICES)]
        m, p, s, z = self.suits
        self.absent = ALL34 & ~(m.held | p.held << 9 | s.held << 18 | z.held << 27)
        self.combined = Combined(plist.layout, np.concatenate([m.rows, p.rows, s.rows, z.rows])
                                 ) if plist.std else None
        self.dist: tuple[int, ...] = tuple(self._distances())
        self._bits: dict[int, Masks] = {}
        self._wants: dict[int, list[int]] = {}
        self._optimal: dict[int, Optimal] = {}

    def _distances(self) -> list[int]:
        plist, counts = self.plist, self.counts
        dist = [INF] * len(plist.plans)
        if self.combined is not None:
            # a forced kind the hand lacks is one tile more wherever the rest reaches
            for i, d in zip(plist.std, self.combined.dist.tolist()):
                lack = plist.plans[i].forced_bits & self.absent
                dist[i] = d + lack.bit_count() if lack and d < INF else d
        if plist.groups == 4:
            for i in plist.pairs:
                dist[i] = seven_pairs_distance(counts)
        for i in plist.knit:
            dist[i] = 14 - knitted_cover(counts)
        for i in plist.five:
            dist[i] = _five_doors(counts, self.melds, self._five_rows(i)).dist
        return dist

    def _variant(self, v: int) -> tuple[tuple[int, ...], str, bytes]:
        """Variant ``v``'s distance row, family and suit key on this hand."""
        suit, k = self.plist.variant_at[v]
        rows = self.suits[suit]
        return (rows.dists[k], *rows.keys[k])

    def _five_rows(self, i: int) -> list[tuple[tuple[int, ...], str, bytes]]:
        """五门齐 plan ``i``'s three number suits: (distance row, family, suit key) each."""
        return [self._variant(v) for v in self.plist.five_rows[i]]

    def optimal(self, i: int) -> Optimal:
        """Standard plan ``i``'s optimal splits and the ``SuitBits`` of each cell they use."""
        hit = self._optimal.get(i)
        if hit is None:
            assert self.combined is not None
            j = self.plist.pos[i]
            splits = self.combined.optimal(j)
            variants = [self._variant(v)[1:] for v in self.plist.template[j]]
            hit = self._optimal[i] = Optimal(tuple(splits), {
                c: slot_bits(*variants[c // SLOTS], c % SLOTS) for c in set().union(*splits)})
        return hit

    def bits(self, i: int) -> Masks:
        """The ``Masks`` of plan ``i``."""
        hit = self._bits.get(i)
        if hit is None:
            plist = self.plist
            if self.dist[i] >= INF:
                hit = Masks(0, 0)
            elif i in plist.pos:
                need, surplus = hand_bits(self.optimal(i))
                hit = Masks(need | plist.plans[i].forced_bits & self.absent, surplus)
            elif i in plist.five:
                hit = _five_masks(self.counts, self.melds, self._five_rows(i))
            elif i in plist.knit:
                _, need, surplus = knitted_masks(self.counts)
                hit = Masks(need, surplus)
            else:
                hit = _seven_pairs(self.counts)
            self._bits[i] = hit
        return hit

    def five_need_without(self, i: int, t: int) -> int:
        """五门齐 plan ``i``'s need mask on the hand less a ``t``, from its three suit rows and
        the honors alone (the rest of the list is not evaluated again)."""
        counts = less_one(self.counts, t)
        rows = [(tuple(suit_row(family, counts[lo:hi]).tolist()), family, counts[lo:hi])
                for (_, family, _), (lo, hi) in zip(self._five_rows(i), SUIT_SLICES)]
        return _five_masks(counts, self.melds, rows).need

    def want(self, i: int, t: int) -> int | None:
        """The need mask once a ``t`` (surplus to plan ``i``) is discarded; ``None`` for
        五门齐 (``five_need_without``). The knitted plan's is found for
        the kind asked alone (a probe of the hand less that tile)."""
        plist = self.plist
        if self.dist[i] >= INF or i in plist.five:
            return None
        if i in plist.knit:
            return _knitted_want(self.counts, t)
        want = self._wants.get(i)
        if want is None:
            want = self._wants[i] = hand_wants(self.optimal(i)) if i in plist.pos \
                else _seven_pairs_wants(self.counts)
        if i in plist.pos:         # a plan's forced tiles still lacking shorten it anyway
            return want[t] | plist.plans[i].forced_bits & self.absent
        return want[t]


def _seven_pairs(counts: bytes) -> Masks:
    """The ``Masks`` of 七对子: a single needs its pair, and so does any kind not
    held while fewer than seven are; a third copy is surplus, and so is a single beyond
    seven kinds."""
    none, once, _, thrice, four = count_masks(counts)
    kinds = len(counts) - counts.count(0)
    need = once | (none if kinds < 7 else 0)
    surplus = thrice | four | (once if kinds > 7 else 0)
    return Masks(need, surplus)


def _seven_pairs_wants(counts: bytes) -> list[int]:
    """七对子's need mask after each surplus discard: a third or fourth copy leaves the needs
    as they are; a single (with more than seven kinds held) leaves the other singles."""
    need, surplus = _seven_pairs(counts)
    want = [0] * 34
    for t in ranks_of(surplus):
        want[t] = need & ~(1 << t) if counts[t] == 1 else need
    return want


def _knitted_want(counts: bytes, t: int) -> int:
    """The knitted plan's need mask once a ``t`` (surplus to it) is discarded: as it is where
    ``t`` is held twice or more (the kinds held stay the same), else that of the hand less
    the ``t``."""
    if counts[t] < 2:
        return knitted_need(less_one(counts, t))
    _, need, _ = knitted_masks(counts)
    return need


_WIND_KINDS, _DRAGON_KINDS = slice(WINDS[0], WINDS[-1] + 1), slice(DRAGONS[0], DRAGONS[-1] + 1)
_DOOR_BITS = [((1 << 9) - 1) << (9 * d) for d in range(3)] + \
    [sum(1 << t for t in kinds) for kinds in (WINDS, DRAGONS)]


def _doors_taken(melds: Sequence[Meld]) -> list[bool] | None:
    """The doors (m, p, s, a wind, a dragon) the declared melds take; None where two take
    one (五门齐 is out of reach)."""
    taken = [False] * 5
    for m in melds:
        t = m.tiles[0]
        door = t // 9 if t < 27 else (3 if t in WINDS else 4)
        if taken[door]:
            return None
        taken[door] = True
    return taken


class Doors(NamedTuple):
    """五门齐 on a hand: the four groups and the pair take one door each (m, p, s, a wind, a
    dragon). ``taken``: the doors the declared melds take; ``cost2``, ``cost3``: each door's
    cost as the pair and as a group (an honor door's from the most copies of one kind it
    holds); ``totals``: the distance with the pair in each door (``INF`` where taken)."""

    taken: list[bool]
    cost2: list[int]
    cost3: list[int]
    totals: list[int]

    @property
    def dist(self) -> int:
        return min(min(self.totals), INF)


def _five_doors(counts: bytes, melds: Sequence[Meld], rows) -> Doors:
    """The ``Doors`` of a hand; ``rows``: its three number suits' (distance row, family,
    key). Two melds in one door put the plan out of reach: every door counts as taken."""
    taken = _doors_taken(melds) or [True] * 5
    dm, dp, ds = (row for row, _, _ in rows)
    wind, dragon = max(counts[_WIND_KINDS]), max(counts[_DRAGON_KINDS])
    cost2 = [dm[1], dp[1], ds[1], max(2 - wind, 0), max(2 - dragon, 0)]
    cost3 = [dm[2], dp[2], ds[2], max(3 - wind, 0), max(3 - dragon, 0)]
    # the pair in door d: every free door's group, door d's less its group, plus its pair
    groups = sum([c for c, t in zip(cost3, taken) if not t])
    return Doors(taken, cost2, cost3,
                 [INF if taken[d] else groups - cost3[d] + cost2[d] for d in range(5)])


def _door_bits(counts: bytes, rows, cost2: list[int], cost3: list[int]
               ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Each door's (need, surplus) as the pair and as a group."""
    bits2, bits3 = [(0, 0)] * 5, [(0, 0)] * 5
    for door, (_, family, key) in enumerate(rows):
        for slot, out in ((1, bits2), (2, bits3)):
            b = slot_bits(family, key, slot)
            out[door] = (b.need << 9 * door, b.surplus << 9 * door)
    for door, kinds in ((3, WINDS), (4, DRAGONS)):
        present = sum(1 << t for t in kinds if counts[t])
        for size, cost, out in ((2, cost2, bits2), (3, cost3, bits3)):
            nd = sp = 0
            for t in kinds:
                if max(0, size - counts[t]) == cost[door]:
                    if counts[t] < size:
                        nd |= 1 << t
                    sp |= present & ~(1 << t) | ((1 << t) if counts[t] > size else 0)
            out[door] = (nd, sp)
    return bits2, bits3


def _five_masks(counts: bytes, melds: Sequence[Meld], rows) -> Masks:
    """五门齐's ``Masks``: the union over the best places of the pair."""
    doors = _five_doors(counts, melds, rows)
    best = doors.dist
    if best >= INF:
        return Masks(0, 0)
    bits2, bits3 = _door_bits(counts, rows, doors.cost2, doors.cost3)
    need = surplus = 0
    held = held_bits(counts)
    for pair_door in range(5):
        if doors.totals[pair_door] != best:
            continue
        for door in range(5):
            if doors.taken[door]:
                surplus |= _DOOR_BITS[door] & held
            else:
                nd, sp = (bits2 if door == pair_door else bits3)[door]
                need |= nd
                surplus |= sp
    return Masks(need, surplus)


@lru_cache(maxsize=1 << 12)
def count_masks(counts: bytes) -> tuple[int, int, int, int, int]:
    """The kinds held none, once, twice, three and four times, as 34-bit masks (every
    evaluation and weighed discard asks, of the same few hands)."""
    masks = [0, 0, 0, 0, 0]
    for t, c in enumerate(counts):
        masks[c] |= 1 << t
    return tuple(masks)  # type: ignore[return-value]


def less_one(counts: bytes, t: int) -> bytes:
    """``counts`` less one ``t``."""
    less = bytearray(counts)
    less[t] -= 1
    return bytes(less)


def held_bits(counts: Sequence[int]) -> int:
    """The kinds held (34 bits)."""
    return ALL34 & ~count_masks(bytes(counts))[0]


def full_bits(counts: Sequence[int]) -> int:
    """The kinds held four times (34 bits)."""
    return count_masks(bytes(counts))[4]
