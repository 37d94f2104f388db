"""Value plans: target hand patterns that are worth enough points to be a legal win.

With ``min_points`` 6 most complete hands are *not* legal wins, so the heuristic does not aim at
"any complete hand" but at the nearest complete hand *worth at least min_points*. Each plan is
a target family (restrictions per suit, forced chows or a special shape) with the yaku its
completion is known to carry; its points are those yaku's points as the rule engine's rows
give them (``mjenv.scoring.YAKU``), plus 门清 for a concealed hand where no plan yaku excludes
it. A plan's points are a floor (the finished hand usually scores more).

Plans (RULES.md §8): 混一色 / 清一色 for each suit; 对对胡; 七对子; 平胡 + 断幺九; 一条龙 per suit;
镜同胡 per (rank, two suits); 五门齐; with ``knitted``, 十三不搭 (the knitted shape). ``FREE`` is
the plain standard shape: no yaku, not a value plan, the fallback when nothing else is open.

``evaluate`` measures a whole plan list on one hand at once: each plan's tiles-needed distance
and the 34-bit masks of the tiles whose removal keeps it (surplus) and whose arrival shortens
it (need) — see ``tables`` for why one evaluation answers both.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Sequence

from agents.heuristic.tables import (INF, NONE, STORE, SUIT_SLICES, Combined, cells,
                                     combine, hand_bits, hand_wants, layout,
                                     seven_pairs_distance)
from mjenv.analysis import knitted_cover, knitted_masks, knitted_need
from mjenv.scoring import YAKU
from mjenv.tiles import DRAGONS, WINDS, Meld

STD, PAIRS_SHAPE, FIVE, KNIT = "std", "pairs", "five", "knit"


@dataclass(frozen=True)
class Plan:
    """One target pattern. ``yaku``: the yaku its completion holds; ``forced``: tiles the
    finished hand must contain (each kind once per listing) as ``forced_groups`` chows;
    ``families``: the per-suit target family for the rest (``tables.FAMILIES``)."""

    name: str
    shape: str
    yaku: tuple[str, ...]
    points: int
    families: tuple[str, str, str, str] = ("all", "all", "all", "all")
    forced: tuple[int, ...] = ()
    forced_groups: int = 0

    @cached_property
    def reach(self) -> int:
        """The kinds the plan asks for wherever the hand stands (34 bits): its forced tiles,
        and every honor for 五门齐 (its wind and dragon doors). Made once per plan: the
        ukeire of every tied discard reads it."""
        bits = sum(1 << t for t in set(self.forced))
        return bits | _DOOR_BITS[3] | _DOOR_BITS[4] if self.shape == FIVE else bits

    @cached_property
    def forced_bits(self) -> int:
        """The forced tiles as 34 bits, and per suit as rank bits (``forced_ranks``): made
        once per plan, which the plan lists of many meld sets share."""
        return sum(1 << t for t in self.forced)

    @cached_property
    def forced_ranks(self) -> tuple[int, int, int, int]:
        return tuple(sum(1 << (t - 9 * suit) for t in self.forced if t // 9 == suit)
                     for suit in range(4))  # type: ignore[return-value]


def plan_points(yaku: Sequence[str], concealed: bool) -> int:
    """Points of ``yaku`` from the rule engine's rows, plus 门清 when the hand is concealed
    and none of them excludes it."""
    points = sum(YAKU[y].points for y in yaku)
    if concealed and yaku and not any("menqing" in YAKU[y].excludes for y in yaku):
        points += YAKU["menqing"].points
    return points


FREE = Plan("free", STD, (), 0)


def _chow(first: int) -> tuple[int, int, int]:
    return (first, first + 1, first + 2)


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

    def fam(*names: str) -> tuple[str, str, str, str]:
        return tuple(n + suffix if n != "none" else n for n in names)  # type: ignore

    free = Plan("free", STD, (), 0, fam("all", "all", "all", "all"))
    if not value_planning:
        shape = () if melds else (Plan("qiduizi_shape", PAIRS_SHAPE, (), 0),)
        return (free,) + shape

    def plan(name: str, shape: str, yaku: tuple[str, ...], families=fam("all", "all", "all",
                                                                         "all"),
             forced: tuple[int, ...] = (), forced_groups: int = 0) -> Plan:
        return _plan(name, shape, yaku, concealed, families, forced, forced_groups)

    plans = [free]
    for s in range(3):
        flush = ["none"] * 4
        flush[s] = "all"
        if suits <= {s, 3}:
            plans.append(plan(f"hunyise_{'mps'[s]}", STD, ("hunyise",),
                              fam(*flush[:3], "all")))
        if suits <= {s}:
            plans.append(plan(f"qingyise_{'mps'[s]}", STD, ("qingyise",), fam(*flush)))
    if not chows:
        plans.append(plan("duiduihu", STD, ("duiduihu",), fam("pung", "pung", "pung", "pung")))
    if not melds:
        plans.append(plan("qiduizi", PAIRS_SHAPE, ("qiduizi",)))
        if knitted:
            plans.append(plan("shisan_buda", KNIT, ("shisan_buda",)))
    if not others and all(0 < c % 9 < 6 for c in chows):
        plans.append(plan("pinghu_duanyao", STD, ("pinghu", "duanyao"),
                          fam("tanyao_chow", "tanyao_chow", "tanyao_chow", "none")))
    for s in range(3):
        firsts = [9 * s, 9 * s + 3, 9 * s + 6]
        if others + sum(1 for c in chows if c not in firsts) <= 1:
            missing = [f for f in firsts if f not in chows]
            plans.append(plan(f"yitiaolong_{'mps'[s]}", STD, ("yitiaolong",),
                              forced=tuple(t for f in missing for t in _chow(f)),
                              forced_groups=len(missing)))
    for r in range(7):
        for a, b in ((0, 1), (0, 2), (1, 2)):
            pair = [9 * a + r, 9 * b + r]
            if others + sum(1 for c in chows if c not in pair) <= 2:
                missing = [f for f in pair if f not in chows]
                plans.append(plan(f"jingtong_{r + 1}{'mps'[a]}{'mps'[b]}", STD, ("jingtong",),
                                  forced=tuple(t for f in missing for t in _chow(f)),
                                  forced_groups=len(missing)))
    plans.append(plan("wumenqi", FIVE, ("wumenqi",)))
    return tuple(plans)


@lru_cache(maxsize=None)
def _plan(name: str, shape: str, yaku: tuple[str, ...], concealed: bool,
          families: tuple[str, str, str, str], forced: tuple[int, ...], forced_groups: int
          ) -> Plan:
    """A value plan, made once: the plan lists of many meld sets share it (and the memory
    and collector time a copy per list would cost)."""
    return Plan(name, shape, yaku, plan_points(yaku, concealed), families, forced,
                forced_groups)


def meld_key(melds: Sequence[Meld]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    return tuple((m.kind, m.tiles) for m in melds)


ALL34 = (1 << 34) - 1
_HONOR_DOORS = (tuple(WINDS), tuple(DRAGONS))


# rank bits → the same ranks as one byte each (a one at byte r): subtracted from a suit key
# read as a little-endian number, they take one copy off each rank, never borrowing
_BYTE_ONES = tuple(sum(1 << 8 * r for r in range(9) if m >> r & 1) for m in range(512))


def _rests(sub: bytes, forced: Sequence[int]) -> list[bytes]:
    """The suit key less one copy of each held kind of each of ``forced`` (rank bits; 0:
    the key itself). Computed, not memoised: a suit key is asked once per plan list that
    lacks it, and a memo of these missed about half the time."""
    held = _kinds(sub, _HELD_DIGIT)
    value, size = int.from_bytes(sub, "little"), len(sub)
    return [(value - _BYTE_ONES[ranks & held]).to_bytes(size, "little") if ranks else sub
            for ranks in forced]


# A suit's store rows, by what a plan list asks of the suit (its (family, forced ranks)
# variants, numbered in ``_ASKS``) and the suit's key: plan lists asking the same of a suit —
# most of a suit's plans survive a meld elsewhere — and suits holding the same key share one
# look-up. Entries name the store generation they were read in.
_ASKS: dict[tuple[tuple[str, ...], tuple[int, ...]], int] = {}
_SUIT_ROWS: dict[tuple[int, bytes], tuple[int, tuple[int, ...]]] = {}


class PlanList:
    """A plan list compiled for evaluation on many hands: each standard plan's four suit
    rows come from a few shared *variants* (family, suit, forced ranks), so a hand needs one
    store look-up per variant, and all standard plans are combined in one batch."""

    def __init__(self, plans: Sequence[Plan], groups: int) -> None:
        self.plans = tuple(plans)
        self.groups = groups
        std = [i for i, p in enumerate(plans)
               if p.shape == STD and groups - p.forced_groups >= 0]
        variants: dict[tuple[str, int, int], int] = {}
        template = []
        for i in std:
            row = []
            for suit, (family, ranks) in enumerate(zip(plans[i].families,
                                                       plans[i].forced_ranks)):
                row.append(variants.setdefault((family, suit, ranks), len(variants)))
            template.append(row)
        self.five = [i for i, p in enumerate(plans) if p.shape == FIVE]
        for i in self.five:
            for suit in range(3):
                variants.setdefault((plans[i].families[suit], suit, 0), len(variants))
        # numbered suit by suit (in order of first use within a suit), so that a hand's
        # variant rows are its four suits' rows one after another
        order = sorted(variants, key=lambda k: k[1])
        renumber = {variants[k]: n for n, k in enumerate(order)}
        template = [[renumber[v] for v in row] for row in template]
        variants = {k: n for n, k in enumerate(order)}
        self.variants = tuple(variants)
        # the variants of each suit, so that a suit whose key did not change is one look-up
        # as (families, forced ranks), in the order of the suit's variants
        self.by_suit = [(tuple(family for family, suit, _ in variants if suit == s),
                         tuple(ranks for _, suit, ranks in variants if suit == s))
                        for s in range(4)]
        self.asks = [_ASKS.setdefault(items, len(_ASKS)) for items in self.by_suit]
        self.five_rows = {i: [variants[(plans[i].families[s], s, 0)] for s in range(3)]
                          for i in self.five}
        self.std = std
        self.pos = {i: j for j, i in enumerate(std)}
        self.template = tuple(map(tuple, template))
        self.layout = layout(tuple((groups - plans[i].forced_groups,
                                    tuple(f == NONE for f in plans[i].families)) for i in std))
        self.cells = cells(self.layout, self.template)
        # each standard plan's forced kinds (34 bits), and (standard plan, bits) where any
        self.forced = tuple(plans[i].forced_bits for i in std)
        self.forced_at = [(j, bits) for j, bits in enumerate(self.forced) if bits]
        # the plans outside the standard batch, in order
        self.others = [i for i in range(len(plans)) if i not in self.pos]
        self.pairs = [i for i, p in enumerate(plans) if p.shape == PAIRS_SHAPE]
        self.knit = [i for i, p in enumerate(plans) if p.shape == KNIT]

    def evaluate(self, counts: Sequence[int], melds: Sequence[Meld]) -> "PlanEval":
        """Every plan on concealed ``counts`` (the distances now, the masks on demand)."""
        key = bytes(counts)
        if len(_SUIT_ROWS) > 1 << 15:
            _SUIT_ROWS.clear()
        generation = STORE.generation
        vrows: tuple[int, ...] = ()
        missing: list[tuple[int, int, bytes]] = []     # (suit, its first row, its key)
        for s, ask, (lo, hi) in zip(range(4), self.asks, SUIT_SLICES):
            sub = key[lo:hi]
            hit = _SUIT_ROWS.get((ask, sub))
            if hit is None or hit[0] != generation:
                missing.append((s, len(vrows), sub))
                vrows += (0,) * len(self.by_suit[s][0])
            else:
                vrows += hit[1]
        if missing:
            # the suits not seen before, asked of the store in one batch (a new plan list
            # misses in every suit), then put in place
            wanted = []
            for s, _, sub in missing:
                families, forced = self.by_suit[s]
                wanted += zip(families, _rests(sub, forced))
            rows = STORE.rows(wanted)
            parts = list(vrows)
            done = 0
            for s, at, sub in missing:
                n = len(self.by_suit[s][0])
                got = parts[at:at + n] = rows[done:done + n]
                _SUIT_ROWS[(self.asks[s], sub)] = (generation, tuple(got))
                done += n
            vrows = tuple(parts)
        absent = ALL34 & ~_kinds(key, _HELD_DIGIT)
        comb = None
        if self.std:
            comb = combine(vrows, self.template, self.cells, self.layout)
            # the standard plans' distances, each forced kind the hand lacks one tile more
            # wherever the rest reaches; then the other plans', each put in its place
            dist = comb.dist.tolist()
            for j, bits in self.forced_at:
                lack = bits & absent
                if lack and dist[j] < INF:
                    dist[j] += lack.bit_count()
            for i in self.others:
                dist.insert(i, INF)
        else:
            dist = [INF] * len(self.plans)
        for i in self.pairs:
            if self.groups == 4:
                dist[i] = seven_pairs_distance(key)
        for i in self.knit:
            dist[i] = 14 - knitted_cover(key)
        five_rows = []
        for i in self.five:
            five_rows.append(tuple([vrows[v] for v in self.five_rows[i]]))
            dist[i] = _five_doors(counts, melds, five_rows[-1], masks=False)[0]
        state = (tuple(dist), *((vrows, comb.total, comb.dist) if comb else (None,) * 3),
                 absent, tuple(five_rows))
        return PlanEval(self, counts, melds, state, comb)

    def need(self, i: int, counts: Sequence[int], melds: Sequence[Meld]) -> int:
        """Plan ``i``'s need mask on ``counts``, as ``evaluate(…).bits(i)`` gives it; 五门齐
        reads its three suit rows alone rather than evaluating every plan."""
        if i not in self.five:
            return self.evaluate(counts, melds).bits(i)[0]
        key = bytes(counts)
        rows = STORE.rows([(family, key[lo:hi]) for family, (lo, hi)
                           in zip(self.plans[i].families, SUIT_SLICES[:3])])
        dist, need, _ = _five_doors(counts, melds, rows)
        return need if dist < INF else 0


class PlanEval:
    """A plan list on one hand: ``dist`` per plan (tiles needed; ``INF``: out of reach), and
    on demand the 34-bit masks ``need`` (one more of the kind shortens it) and ``surplus``
    (one less keeps it; giving up any other held kind costs one tile) — :meth:`bits` — and
    :meth:`want`: for a surplus kind ``t``, the kinds that would shorten the hand once a ``t``
    is discarded.

    Memo tables keep only ``state`` (the distances, the combined splits' arrays, the kinds
    the hand lacks, 五门齐's suit rows): tuples of numbers and numpy arrays, which the garbage
    collector stops tracking, and a hit wraps it again. Objects kept with every evaluation
    (this one, its ``Combined``, their dictionaries) made Python's full collections both
    frequent and long: each walked every one of them, about a tenth of self-play time.
    The masks are asked of the suit store again after a hit, from its own memo."""

    __slots__ = ("plist", "counts", "melds", "state", "dist", "_comb", "_bits", "_wants")

    def __init__(self, plist: PlanList, counts: Sequence[int], melds: Sequence[Meld],
                 state: tuple, comb: Combined | None = None) -> None:
        self.plist, self.counts, self.melds, self.state = plist, tuple(counts), melds, state
        self.dist: tuple[int, ...] = state[0]
        self._comb = comb
        self._bits: dict[int, tuple[int, int]] = {}
        self._wants: dict[int, list[int]] = {}

    def _optimal(self, j: int):
        """``Combined.optimal`` of standard plan ``j`` (the combination rebuilt after a hit)."""
        if self._comb is None:
            self._comb = Combined(self.plist.layout, self.state[1], self.plist.template,
                                  *self.state[2:4])
        return self._comb.optimal(j)

    def _five(self, i: int) -> tuple[int, ...] | None:
        """五门齐 plan ``i``'s suit rows, or None for any other plan."""
        five = self.plist.five
        return self.state[5][five.index(i)] if i in five else None

    def bits(self, i: int) -> tuple[int, int]:
        """(need, surplus) of plan ``i``."""
        hit = self._bits.get(i)
        if hit is None:
            if self.dist[i] >= INF:
                hit = (0, 0)
            elif i in self.plist.pos:
                j = self.plist.pos[i]
                need, surplus = hand_bits(self._optimal(j)[1])
                hit = (need | self.plist.forced[j] & self.state[4], surplus)
            elif (rows := self._five(i)) is not None:
                hit = _five_doors(self.counts, self.melds, rows)[1:]
            elif i in self.plist.knit:
                hit = _knitted(self.counts)
            else:
                hit = _seven_pairs(self.counts)[1:]
            self._bits[i] = hit
        return hit

    def want(self, i: int, t: int) -> int | None:
        """The need mask once a ``t`` (surplus to plan ``i``) is discarded; ``None`` for
        五门齐, which callers evaluate again. The knitted plan's is found for the kind asked
        alone: a probe of the hand less that tile, where a turn asks about a few tied
        discards and a row for every surplus kind cost a probe each."""
        if self.dist[i] >= INF or i in self.plist.five:
            return None
        if i in self.plist.knit:
            return _knitted_want(self.counts, t)
        j = self.plist.pos.get(i)
        want = self._wants.get(i)
        if want is None:
            want = self._wants[i] = hand_wants(*self._optimal(j)) if j is not None \
                else _seven_pairs_wants(self.counts)
        # a plan's forced tiles still lacking shorten it whatever is discarded
        return want[t] | self.plist.forced[j] & self.state[4] if j is not None else want[t]


def _seven_pairs(counts: Sequence[int]) -> tuple[int, int, int]:
    """(distance, need, surplus) of 七对子, the kinds read from the count bytes."""
    key = bytes(counts)
    singles = _kinds(key, _SINGLE_DIGIT)
    surplus = _kinds(key, _THIRD_DIGIT)
    kinds = len(key) - key.count(0)
    need = singles | (_kinds(key, _EMPTY_DIGIT) if kinds < 7 else 0)
    if kinds > 7:
        surplus |= singles
    return seven_pairs_distance(key), need, surplus


def _seven_pairs_wants(counts: Sequence[int]) -> list[int]:
    """七对子's need mask after each surplus discard: a third or fourth copy leaves the needs
    as they are; a single (with more than seven kinds held) leaves the other singles."""
    _, need, surplus = _seven_pairs(counts)
    want = [0] * 34
    while surplus:
        low = surplus & -surplus
        t = low.bit_length() - 1
        want[t] = need & ~low if counts[t] == 1 else need
        surplus ^= low
    return want


def _knitted(counts: Sequence[int]) -> tuple[int, int]:
    """(need, surplus) of the knitted plan (``mjenv.analysis.knitted_masks``)."""
    return knitted_masks(counts)[1:]


def _knitted_want(counts: Sequence[int], t: int) -> int:
    """The knitted plan's need mask once a ``t`` (surplus to it) is discarded: as it is where
    ``t`` is held twice or more (the kinds held stay the same), else that of the hand less
    the ``t`` (the masks are cached per hand in ``mjenv.analysis``)."""
    if counts[t] >= 2:
        return _knitted(counts)[0]
    less = bytearray(counts)
    less[t] -= 1
    return knitted_need(bytes(less))


def _five_doors(counts: Sequence[int], melds: Sequence[Meld], rows: list[int],
                masks: bool = True) -> tuple[int, int, int]:
    """五门齐: the four groups and the pair take one door each (m, p, s, a wind, a dragon).
    Returns (distance, need, surplus); the masks only with ``masks``."""
    taken = [False] * 5
    for m in melds:
        t = m.tiles[0]
        door = t // 9 if t < 27 else (3 if t in WINDS else 4)
        if taken[door]:
            return INF, 0, 0
        taken[door] = True
    # per door: cost as the pair (size 2) and as a group (size 3); an honor door's, from the
    # most copies of one kind it holds (slot 1: no group and the pair; slot 2: one group)
    dm, dp, ds = map(STORE.dist_list, rows)
    wind, dragon = max(counts[_WIND_KINDS]), max(counts[_DRAGON_KINDS])
    cost2 = [dm[1], dp[1], ds[1], 2 - wind if wind < 2 else 0, 2 - dragon if dragon < 2 else 0]
    cost3 = [dm[2], dp[2], ds[2], 3 - wind if wind < 3 else 0, 3 - dragon if dragon < 3 else 0]
    # the pair in door d: every free door's group, door d's less its group, plus its pair
    groups = sum([c for c, t in zip(cost3, taken) if not t])
    totals = [INF if taken[d] else groups - cost3[d] + cost2[d] for d in range(5)]
    best = min(totals)
    if best > INF:
        best = INF
    if not masks:
        return best, 0, 0
    # and each door's need and surplus as the pair and as a group
    bits2, bits3 = [(0, 0)] * 5, [(0, 0)] * 5
    for door in range(3):
        shift = 9 * door
        for slot, out in ((1, bits2), (2, bits3)):
            need, surplus, _ = STORE.bits(rows[door], slot)
            out[door] = (need << shift, surplus << shift)
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
    need = surplus = 0
    held_all = held_bits(counts)
    for pair_door in range(5):
        if totals[pair_door] != best:
            continue
        nd, sp = 0, 0
        for door in range(5):
            if taken[door]:
                sp |= _DOOR_BITS[door] & held_all
            elif door == pair_door:
                nd |= bits2[door][0]
                sp |= bits2[door][1]
            else:
                nd |= bits3[door][0]
                sp |= bits3[door][1]
        need |= nd
        surplus |= sp
    return best, need, surplus


_WIND_KINDS, _DRAGON_KINDS = slice(WINDS[0], WINDS[-1] + 1), slice(DRAGONS[0], DRAGONS[-1] + 1)
_DOOR_BITS = [((1 << 9) - 1) << (9 * d) for d in range(3)] + \
    [sum(1 << t for t in kinds) for kinds in _HONOR_DOORS]


# count → binary digit: held at all, held four times, held once, held three times or more,
# not held
_HELD_DIGIT = bytes.maketrans(bytes(range(5)), b"01111")
_FULL_DIGIT = bytes.maketrans(bytes(range(5)), b"00001")
_SINGLE_DIGIT = bytes.maketrans(bytes(range(5)), b"01000")
_THIRD_DIGIT = bytes.maketrans(bytes(range(5)), b"00011")
_EMPTY_DIGIT = bytes.maketrans(bytes(range(5)), b"10000")


def _kinds(key: bytes, digits: bytes) -> int:
    """The kinds whose count ``digits`` maps to 1, as bits: the count bytes read as one
    binary number."""
    return int(key.translate(digits)[::-1], 2)


def held_bits(counts: Sequence[int]) -> int:
    """The kinds held (34 bits), read as one binary number: every evaluation and every
    weighed discard asks, and a loop over the 34 kinds cost more than the rest of the
    question."""
    return _kinds(bytes(counts), _HELD_DIGIT)


def full_bits(counts: Sequence[int]) -> int:
    """The kinds held four times (34 bits)."""
    return _kinds(bytes(counts), _FULL_DIGIT)
