"""Value plans: target hand patterns that are worth enough points to be a legal win.

With ``min_points`` 6 most complete hands are *not* legal wins, so the heuristic does not aim at
"any complete hand" but at the nearest complete hand *worth at least min_points*. Each plan is
a target family (restrictions per suit, forced groups or a special shape) with the points its
completion is known to carry; its distance is the tiles-needed measure of ``tables``. A plan's
points are a floor (the finished hand usually scores more), so:

- a plan whose points reach ``min_points`` is *hard*: its distance counts as is;
- a plan within ``soft_margin`` points counts with ``soft_penalty`` extra tiles (small yaku such
  as 独听, 将眼, 自摸 often make up the gap — the exact scorer decides at tenpai);
- anything lower is ignored.

Plans (points as RULES.md §8): 混一色 6 / 清一色 20 for each suit; 对对胡 6; 七对子 10;
门清+平胡+断幺九 4 (open: 平胡+断幺九 3); 一条龙 6 per suit; 镜同胡 6 per (rank, two suits);
五门齐 6. Concealed plans add 门清 1 (七对子 excludes it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from agents.heuristic.tables import (INF, SUIT_SLICES, combine, finish, rest_of,
                                    seven_pairs_distance, suit_table)
from mjenv.tiles import DRAGONS, WINDS, Meld

# Shape of a plan: "std" (G groups + pair under per-suit families and forced tiles),
# "pairs" (七对子), "five" (五门齐).


@dataclass(frozen=True)
class Plan:
    """One target pattern. ``forced``: tiles the finished hand must contain (each kind once per
    listing) as ``forced_groups`` chows; ``families``: the per-suit target family for the rest."""

    name: str
    shape: str
    points: int
    families: tuple[str, str, str, str] = ("all", "all", "all", "all")
    forced: tuple[int, ...] = ()
    forced_groups: int = 0


def _flush(suit: int, honors: bool) -> tuple[str, str, str, str]:
    fam = ["none", "none", "none", "all" if honors else "none"]
    fam[suit] = "all"
    return tuple(fam)  # type: ignore[return-value]


def _chow(first: int) -> tuple[int, int, int]:
    return (first, first + 1, first + 2)


FREE = Plan("free", "std", 0)
PAIRS = Plan("qiduizi", "pairs", 10)


def candidate_plans(melds: Sequence[Meld], value_planning: bool) -> list[Plan]:
    """The plans still open given the seat's declared melds (a meld outside a flush suit rules
    the flush out, a chow rules out 对对胡, any meld rules out 七对子 …)."""
    if not value_planning:
        return [FREE] if melds else [FREE, Plan("qiduizi_shape", "pairs", 0)]
    concealed = all(not m.is_open for m in melds)
    bonus = 1 if concealed else 0
    suits = {m.tiles[0] // 9 for m in melds}
    has_chi = any(m.kind == "chi" for m in melds)
    plans: list[Plan] = [FREE]
    for s in range(3):
        if suits <= {s, 3}:
            plans.append(Plan(f"hunyise_{'mps'[s]}", "std", 6 + bonus, _flush(s, True)))
        if suits <= {s}:
            plans.append(Plan(f"qingyise_{'mps'[s]}", "std", 20 + bonus, _flush(s, False)))
    if not has_chi:
        plans.append(Plan("duiduihu", "std", 6 + bonus, ("pung", "pung", "pung", "pung")))
    if not melds:
        plans.append(PAIRS)
    if all(m.kind == "chi" and 0 < m.tiles[0] % 9 < 6 for m in melds):
        plans.append(Plan("pinghu_duanyao", "std", 3 + bonus, ("tanyao_chow",) * 3 + ("none",)))
    chows = [m.tiles[0] for m in melds if m.kind == "chi"]
    others = len(melds) - len(chows)
    for s in range(3):
        firsts = [9 * s, 9 * s + 3, 9 * s + 6]
        if others + sum(1 for c in chows if c not in firsts) <= 1:
            missing = [f for f in firsts if f not in chows]
            forced = tuple(t for f in missing for t in _chow(f))
            plans.append(Plan(f"yitiaolong_{'mps'[s]}", "std", 6 + bonus, forced=forced,
                              forced_groups=len(missing)))
    for r in range(7):
        for a, b in ((0, 1), (0, 2), (1, 2)):
            pair = [9 * a + r, 9 * b + r]
            if others + sum(1 for c in chows if c not in pair) <= 2:
                missing = [f for f in pair if f not in chows]
                forced = tuple(t for f in missing for t in _chow(f))
                plans.append(Plan(f"jingtong_{r + 1}{'mps'[a]}{'mps'[b]}", "std", 6 + bonus,
                                  forced=forced, forced_groups=len(missing)))
    plans.append(Plan("wumenqi", "five", 6 + bonus))
    return plans


def _category(tile: int) -> int:
    """0 m, 1 p, 2 s, 3 wind, 4 dragon (五门齐's five doors)."""
    if tile < 27:
        return tile // 9
    return 3 if tile in WINDS else 4


def plan_distance(plan: Plan, counts: list[int], key: bytes, groups: int,
                  melds: Sequence[Meld], bound: int = INF) -> int:
    """Tiles still needed for ``plan`` from concealed ``counts`` (``key`` = ``bytes(counts)``)
    with ``groups`` groups still to form besides the pair. ``bound``: a forced plan missing
    more tiles than this returns ``INF`` without the full computation (the caller has
    something closer)."""
    if plan.shape == "std":
        if not plan.forced:
            return combine([suit_table(f, key[lo:hi])
                            for f, (lo, hi) in zip(plan.families, SUIT_SLICES)], groups)
        rest = list(counts)
        missing = 0
        for t in plan.forced:
            if rest[t]:
                rest[t] -= 1
            else:
                missing += 1
        left = groups - plan.forced_groups
        if left < 0 or missing > bound:
            return INF
        rkey = bytes(rest)
        return missing + combine([suit_table(f, rkey[lo:hi])
                                  for f, (lo, hi) in zip(plan.families, SUIT_SLICES)], left)
    if plan.shape == "pairs":
        return seven_pairs_distance(key) if groups == 4 else INF
    return _five_doors(counts, key, melds)


def _five_doors(counts: list[int], key: bytes, melds: Sequence[Meld]) -> int:
    """五门齐: the four groups and the pair take one door each (m, p, s, a wind, a dragon)."""
    taken = [False] * 5
    for m in melds:
        c = _category(m.tiles[0])
        if taken[c]:
            return INF
        taken[c] = True
    number = [suit_table("all", key[lo:hi]) for lo, hi in SUIT_SLICES[:3]]

    def honor(kinds: tuple[int, ...], size: int) -> int:
        return min(max(0, size - counts[t]) for t in kinds)

    best = INF
    for pair_door in range(5):
        if taken[pair_door]:
            continue
        total = 0
        for door in range(5):
            if taken[door]:
                continue
            size = 2 if door == pair_door else 3
            if door < 3:
                total += number[door][1 if size == 2 else 2]
            else:
                total += honor(WINDS if door == 3 else DRAGONS, size)
        best = min(best, total)
    return best


class PlanState:
    """One plan evaluated on one hand, answering "and with one tile more / less?" fast.

    Turn decisions ask for every discard (one tile less) and, to break ties, for every tile
    that might be drawn next (one tile more). Only the changed suit's table and one final
    min-plus step are recomputed; the other three suits come from ``tables.rest_of``.
    """

    __slots__ = ("plan", "counts", "groups", "melds", "rest", "missing", "left", "key",
                 "tables", "accs", "base", "pairs", "kinds")

    def __init__(self, plan: Plan, counts: list[int], groups: int, melds: Sequence[Meld]):
        self.plan, self.counts, self.groups, self.melds = plan, counts, groups, melds
        if plan.shape == "std":
            rest = list(counts)
            missing = 0
            for t in plan.forced:
                if rest[t]:
                    rest[t] -= 1
                else:
                    missing += 1
            self.rest, self.missing = rest, missing
            self.left = groups - plan.forced_groups
            self.key = bytes(rest)
            self.tables = [suit_table(f, self.key[lo:hi])
                           for f, (lo, hi) in zip(plan.families, SUIT_SLICES)]
            self.accs: list[list[int] | None] = [None] * 4
            self.base = missing + combine(self.tables, self.left) if self.left >= 0 else INF
        elif plan.shape == "pairs":
            self.pairs = sum(1 for c in counts if c >= 2)
            self.kinds = sum(1 for c in counts if c)
            self.base = (7 - self.pairs + max(0, 7 - self.kinds)) if groups == 4 else INF
        else:
            key = bytes(counts)
            self.base = plan_distance(plan, counts, key, groups, melds)

    def changed(self, t: int, delta: int) -> int:
        """Distance after adding (``delta`` = 1) or removing (−1) one tile of kind ``t``."""
        plan = self.plan
        if plan.shape == "std":
            if self.left < 0:
                return INF
            rest = self.rest
            if delta < 0 and not rest[t]:
                return self.base + 1                     # a forced tile given away
            if delta > 0 and not self.counts[t] and t in plan.forced:
                return self.base - 1                     # a missing forced tile arrives
            suit = t // 9 if t < 27 else 3
            lo, hi = SUIT_SLICES[suit]
            sub = bytearray(self.key[lo:hi])
            sub[t - lo] += delta
            tail = suit_table(plan.families[suit], bytes(sub))
            acc = self.accs[suit]
            if acc is None:
                acc = self.accs[suit] = rest_of(self.tables, suit, self.left)
            return self.missing + finish(acc, tail, self.left)
        if plan.shape == "pairs":
            if self.base >= INF:
                return INF
            c = self.counts[t]
            pairs = self.pairs + ((c == 1) if delta > 0 else -(c == 2))
            kinds = self.kinds + ((c == 0) if delta > 0 else -(c == 1))
            return 7 - pairs + max(0, 7 - kinds)
        counts = list(self.counts)
        counts[t] += delta
        return plan_distance(plan, counts, bytes(counts), self.groups, self.melds)
