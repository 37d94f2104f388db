"""The templates of the random winning hands of ``mjenv.scoring.generate``.

A standard-shape template draws four groups and a pair biased towards a family of yaku (one
suit, honours, all pungs, restricted ranks or numbers, terminal-heavy, identical or stepped
chows, dragons, consecutive or same-rank pungs, four-of-a-kind patterns); a concealed-shape
template draws the 14 tiles of nine gates, seven pairs, knitted or thirteen orphans. A meld
style decides which groups were called or declared. Every draw goes through ``Draw``, so a
seed fixes the sample.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from mjenv.tiles import DRAGONS, NUM_KINDS, TERMINALS, WINDS
from mjenv.tiles import HONORS as _HONOR_RANGE
from mjenv.tiles import NUMBERS as _NUMBER_RANGE

Group = tuple[str, int]  # ("chow" | "pung", first tile)
HONORS = tuple(_HONOR_RANGE)
NUMBERS = tuple(_NUMBER_RANGE)


class Draw:
    """Cheap scalar draws from a numpy Generator, pulled in blocks (one call per 1,024 draws)."""

    __slots__ = ("_rng", "_buf", "_i")

    def __init__(self, rng: np.random.Generator) -> None:
        self._rng = rng
        self._buf: list[float] = []
        self._i = 0

    def random(self) -> float:
        if self._i == len(self._buf):
            self._buf = self._rng.random(1024).tolist()
            self._i = 0
        x = self._buf[self._i]
        self._i += 1
        return x

    def below(self, n: int) -> int:
        return min(int(self.random() * n), n - 1)

    def choice(self, seq: Sequence):
        return seq[self.below(len(seq))]

    def chance(self, p: float) -> bool:
        return self.random() < p

    def sample(self, seq: Sequence, k: int) -> list:
        pool = list(seq)
        out = []
        for _ in range(k):
            out.append(pool.pop(self.below(len(pool))))
        return out

    def shuffled(self, seq: Sequence) -> list:
        return self.sample(seq, len(seq))


def _t(suit: int, rank: int) -> int:
    return suit * 9 + rank - 1


def _chow_starts(pool: Sequence[int]) -> list[int]:
    s = set(pool)
    return [t for t in pool if t < 27 and t % 9 <= 6 and t + 1 in s and t + 2 in s]


def _fill(r: Draw, groups: list[Group], pool: Sequence[int], chow_p: float,
          k: int = 4) -> list[Group]:
    """Add random groups from ``pool`` until there are ``k``; chows only where they fit."""
    starts = _chow_starts(pool) if chow_p > 0 else []
    while len(groups) < k:
        if starts and r.chance(chow_p):
            groups.append(("chow", r.choice(starts)))
        else:
            groups.append(("pung", r.choice(pool)))
    return groups


def _suit_pool(suit: int) -> tuple[int, ...]:
    return tuple(range(suit * 9, suit * 9 + 9))


# --- standard-shape templates: r -> (groups, pair) -------------------------------------------
# Each returns four groups and a pair tile; too many copies of a kind is rejected afterwards.

def _uniform(r: Draw):
    return _fill(r, [], tuple(range(NUM_KINDS)), 0.55), r.below(NUM_KINDS)


def _chows(r: Draw):
    """Four chows: 平胡, 一般高-like coincidences, placements 两面/边张/坎张."""
    return _fill(r, [], NUMBERS, 1.0), r.choice(NUMBERS + WINDS)


def _one_suit(r: Draw):
    suit = r.below(3)
    pool = _suit_pool(suit)
    groups = _fill(r, [], pool, 0.5)
    pair = r.choice(pool)
    if r.chance(0.4):  # 混一色: swap a group and/or the pair for honours
        groups[r.below(4)] = ("pung", r.choice(HONORS))
        if r.chance(0.5):
            pair = r.choice(HONORS)
    return groups, pair


def _two_suits(r: Draw):
    pool = _suit_pool(r.below(3))
    other = [s for s in range(3) if s * 9 != pool[0]]
    pool = pool + _suit_pool(r.choice(other))
    return _fill(r, [], pool, 0.55), r.choice(pool)


def _honors(r: Draw):
    kind = r.below(5)
    if kind == 4:    # 字一色: honours only
        return _fill(r, [], HONORS, 0.0), r.choice(HONORS)
    if kind == 0:    # dragons: 小三元 / 大三元
        ds = r.shuffled(DRAGONS)
        groups = [("pung", d) for d in ds[:2 + r.below(2)]]
        pair = ds[2] if len(groups) == 2 else r.below(NUM_KINDS)
    elif kind == 1:  # winds: 小三风 / 大三风 / 小四喜 / 大四喜
        ws = r.shuffled(WINDS)
        n = 2 + r.below(3)
        groups = [("pung", w) for w in ws[:n]]
        pair = ws[n] if n < 4 and r.chance(0.7) else r.below(NUM_KINDS)
    elif kind == 2:  # 五门齐: one group of each suit, a wind and a dragon between groups and pair
        honor = [r.choice(WINDS), r.choice(DRAGONS)]
        groups = [("pung", honor[0])]
        pair = honor[1]
        if r.chance(0.5):
            groups, pair = [("pung", honor[1])], honor[0]
        for suit in r.sample(range(3), 3):
            _fill(r, groups, _suit_pool(suit), 0.6, k=len(groups) + 1)
    else:            # honour-heavy random
        groups = [("pung", t) for t in r.sample(HONORS, 2 + r.below(2))]
        pair = r.choice(HONORS) if r.chance(0.6) else r.below(NUM_KINDS)
    return _fill(r, groups, tuple(range(NUM_KINDS)), 0.5), pair


def _all_pungs(r: Draw):
    pool = tuple(range(NUM_KINDS))
    return _fill(r, [], pool, 0.0), r.choice(pool)


# Rank / number restrictions (断幺九, 大于五, 小于五, 全大, 全中, 全小, 奇偶数对对胡, 三步刻, 清老头…)
_RANK_SETS: tuple[tuple[tuple[int, ...], float, bool], ...] = (
    # (ranks, chow probability, honours allowed)
    ((1, 9), 0.0, False),           # 清老头
    ((1, 9), 0.0, True),            # 混老头
    ((7, 8, 9), 0.5, False),        # 全大
    ((4, 5, 6), 0.5, False),        # 全中
    ((1, 2, 3), 0.5, False),        # 全小
    ((6, 7, 8, 9), 0.5, False),     # 大于五
    ((1, 2, 3, 4), 0.5, False),     # 小于五
    (tuple(range(2, 9)), 0.5, False),  # 断幺九
    ((1, 3, 5, 7, 9), 0.0, False),  # 奇数对对胡
    ((2, 4, 6, 8), 0.0, False),     # 偶数对对胡
    ((1, 4, 7), 0.0, False),        # 三步刻
    ((2, 5, 8), 0.0, False),
    ((3, 6, 9), 0.0, False),
)


def _ranks(r: Draw):
    ranks, chow_p, honors = _RANK_SETS[0] if r.chance(0.1) else r.choice(_RANK_SETS)
    pool = tuple(t for t in NUMBERS if t % 9 + 1 in ranks) + (HONORS if honors else ())
    return _fill(r, [], pool, chow_p), r.choice(pool)


def _numbers(r: Draw):
    """At most two or three "numbers" (a rank in any suit; all winds; all dragons): 两/三序数."""
    names: list = list(range(1, 10)) + ["w", "d"]
    k = 2 if r.chance(0.5) else 3
    if k == 3 and r.chance(0.5):
        lo = 1 + r.below(7)
        chosen = [lo, lo + 1, lo + 2]
    else:
        chosen = r.sample(names, k)
    pool: list[int] = []
    for c in chosen:
        pool += WINDS if c == "w" else DRAGONS if c == "d" else [_t(s, c) for s in range(3)]
    pool.sort()
    return _fill(r, [], pool, 0.4 if k == 3 else 0.0), r.choice(pool)


def _terminal_heavy(r: Draw):
    """混全带幺 / 纯全带幺: every group and the pair hold a terminal (or honour)."""
    honors = r.chance(0.5)
    groups: list[Group] = []
    for _ in range(4):
        if r.chance(0.5):
            suit = r.below(3)
            groups.append(("chow", _t(suit, 1 if r.chance(0.5) else 7)))
        else:
            groups.append(("pung", r.choice(TERMINALS + (HONORS if honors else ()))))
    return groups, r.choice(TERMINALS + (HONORS if honors else ()))


def _same_rank(r: Draw):
    """全带: every group and the pair contain a tile of one rank."""
    rank = 1 + r.below(9)
    starts = [s for s in (rank - 2, rank - 1, rank) if 1 <= s <= 7]
    groups: list[Group] = []
    for _ in range(4):
        suit = r.below(3)
        if r.chance(0.6):
            groups.append(("chow", _t(suit, r.choice(starts))))
        else:
            groups.append(("pung", _t(suit, rank)))
    return groups, _t(r.below(3), rank)


def _dragons_chows(r: Draw):
    """一条龙, 花龙, 老少, 逢幺, 老少双顺, 老少双对, 三色双龙会, 一色双龙会."""
    kind = r.below(7)
    s = r.shuffled(range(3))
    if kind == 0:    # 一条龙
        groups = [("chow", _t(s[0], 1)), ("chow", _t(s[0], 4)), ("chow", _t(s[0], 7))]
    elif kind == 1:  # 花龙
        groups = [("chow", _t(s[0], 1)), ("chow", _t(s[1], 4)), ("chow", _t(s[2], 7))]
    elif kind == 2:  # 老少顺 / 老少刻, or 逢幺 (one of each)
        a, b = r.choice(("chow", "pung")), r.choice(("chow", "pung"))
        if r.chance(0.5):
            a, b = "chow", "pung"
        groups = [(a, _t(s[0], 1)), (a, _t(s[0], 7 if a == "chow" else 9)),
                  (b, _t(s[1], 1)), (b, _t(s[1], 7 if b == "chow" else 9))][:2 + 2 * r.below(2)]
    elif kind == 3:  # 老少双顺
        t = s[0] if r.chance(0.5) else s[1]
        groups = [("chow", _t(s[0], 1)), ("chow", _t(s[0], 7)),
                  ("chow", _t(t, 1)), ("chow", _t(t, 7))]
    elif kind == 4:  # 老少双对
        groups = [("pung", _t(s[0], 1)), ("pung", _t(s[0], 9)),
                  ("pung", _t(s[1], 1)), ("pung", _t(s[1], 9))]
    elif kind == 5:  # 三色双龙会
        groups = [("chow", _t(s[0], 1)), ("chow", _t(s[0], 7)),
                  ("chow", _t(s[1], 1)), ("chow", _t(s[1], 7))]
        return groups, _t(s[2], 5)
    else:            # 一色双龙会
        groups = [("chow", _t(s[0], 1)), ("chow", _t(s[0], 1)),
                  ("chow", _t(s[0], 7)), ("chow", _t(s[0], 7))]
        return groups, _t(s[0], 5)
    return _fill(r, groups, tuple(range(NUM_KINDS)), 0.5), r.below(NUM_KINDS)


def _identical_chows(r: Draw):
    """一般高, 两般高, 太般高, 清般高, 四海一家, 镜同胡, 三相逢."""
    kind = r.below(6)
    s = r.shuffled(range(3))
    a = 1 + r.below(7)
    if kind == 0:    # two identical (一般高)
        groups = [("chow", _t(s[0], a))] * 2
    elif kind == 1:  # two couples (两般高), other couple anywhere
        groups = [("chow", _t(s[0], a))] * 2 + [("chow", _t(r.below(3), 1 + r.below(7)))] * 2
    elif kind == 2:  # three identical (太般高)
        groups = [("chow", _t(s[0], a))] * 3
    elif kind == 3:  # 清般高: couples of the same ranks in two suits
        groups = [("chow", _t(s[0], a))] * 2 + [("chow", _t(s[1], a))] * 2
    elif kind == 4:  # four identical (四海一家)
        groups = [("chow", _t(s[0], a))] * 4
    else:            # same chow in two or three suits (镜同胡, 三相逢)
        groups = [("chow", _t(s[i], a)) for i in range(2 + r.below(2))]
    return _fill(r, list(groups), tuple(range(NUM_KINDS)), 0.5), r.below(NUM_KINDS)


def _stepped_chows(r: Draw):
    """一色三步高, 一色四步高, 三色三步高."""
    step = 1 + r.below(2)
    n = 3 + r.below(2)
    start = 1 + r.below(7 - step * (n - 1))
    if r.chance(0.4):   # across the three suits
        s = r.shuffled(range(3))
        groups = [("chow", _t(s[i], start + i * step)) for i in range(3)]
    else:
        suit = r.below(3)
        groups = [("chow", _t(suit, start + i * step)) for i in range(n)]
    return _fill(r, groups, tuple(range(NUM_KINDS)), 0.5), r.below(NUM_KINDS)


def _pung_patterns(r: Draw):
    """三色(小)同刻, 二同刻, 三色连刻, (小)三连刻, (小)四连刻."""
    kind = r.below(5)
    s = r.shuffled(range(3))
    if kind == 0:    # same rank in 2 or 3 suits (+ pair of the third: 三色小同刻)
        a = 1 + r.below(9)
        n = 2 + r.below(2)
        groups = [("pung", _t(s[i], a)) for i in range(n)]
        pair = _t(s[2], a) if n == 2 and r.chance(0.6) else r.below(NUM_KINDS)
    elif kind == 1:  # 二同刻
        a, b = r.sample(range(1, 10), 2)
        groups = [("pung", _t(s[0], a)), ("pung", _t(s[1], a)),
                  ("pung", _t(r.below(3), b)), ("pung", _t(r.below(3), b))]
        pair = r.below(NUM_KINDS)
    elif kind == 2:  # 三色连刻
        a = 1 + r.below(7)
        groups = [("pung", _t(s[i], a + i)) for i in range(3)]
        pair = r.below(NUM_KINDS)
    else:            # one suit, 2–4 consecutive pungs, pair next to them
        n = 2 + r.below(3)
        a = 1 + r.below(10 - n)
        groups = [("pung", _t(s[0], a + i)) for i in range(n)]
        ends = [x for x in (a - 1, a + n) if 1 <= x <= 9]
        pair = _t(s[0], r.choice(ends)) if ends and r.chance(0.7) else r.below(NUM_KINDS)
    return _fill(r, groups, tuple(range(NUM_KINDS)), 0.5), pair


def _four_kind(r: Draw):
    """归 family: 四归一, 四归二, 四归四, 双四归一, 八归二, 十二归三."""
    kind = r.below(6)
    suit = r.below(3)
    if kind == 0 or kind == 3:  # 四归一 (twice for 双四归一)
        groups: list[Group] = []
        pair = r.below(NUM_KINDS)
        for _ in range(1 if kind == 0 else 2):
            x = 1 + r.below(9)
            st = [v for v in (x - 2, x - 1, x) if 1 <= v <= 7]
            groups += [("pung", _t(suit, x)), ("chow", _t(suit, r.choice(st)))]
            suit = r.below(3)
    elif kind == 1:             # 四归二: pair + two chows
        x = 1 + r.below(9)
        st = [v for v in (x - 2, x - 1, x) if 1 <= v <= 7]
        groups = [("chow", _t(suit, r.choice(st))), ("chow", _t(suit, r.choice(st)))]
        pair = _t(suit, x)
    elif kind == 2:             # 四归四: four chows through one tile
        x = 3 + r.below(5)
        groups = [("chow", _t(suit, x - 2 + r.below(3))) for _ in range(4)]
        pair = r.below(NUM_KINDS)
    elif kind == 4:             # 八归二: 111 123 222 / 111 123 333 / 222 123 333
        a = 1 + r.below(7)
        x, y = r.sample((a, a + 1, a + 2), 2)
        groups = [("pung", _t(suit, x)), ("pung", _t(suit, y)), ("chow", _t(suit, a))]
        pair = r.below(NUM_KINDS)
    else:                       # 十二归三
        a = 1 + r.below(7)
        groups = [("pung", _t(suit, a)), ("pung", _t(suit, a + 1)),
                  ("pung", _t(suit, a + 2)), ("chow", _t(suit, a))]
        pair = r.below(NUM_KINDS)
    return _fill(r, groups, tuple(range(NUM_KINDS)), 0.5), pair


# --- meld styles: which groups were called / declared, which pungs are kongs ------------------
# (call probability per group, kong probability per pung, kongs concealed only)
STYLES = {
    "open": (0.35, 0.06, False),
    "closed": (0.0, 0.04, True),
    "all_called": (1.0, 0.1, False),
    "kongs": (0.3, 0.75, False),
}
STYLE_WEIGHTS = (("open", 0.5), ("closed", 0.38), ("all_called", 0.06), ("kongs", 0.06))

# Standard-shape templates with their weights (tuned so that every yaku of RULES.md §8 is
# reached well over 30 times per 100,000 hands; see ``mjenv audit``).
STANDARD: tuple[tuple[str, Callable, float], ...] = (
    ("uniform", _uniform, 0.14),
    ("chows", _chows, 0.06),
    ("one_suit", _one_suit, 0.08),
    ("two_suits", _two_suits, 0.04),
    ("honors", _honors, 0.08),
    ("all_pungs", _all_pungs, 0.06),
    ("ranks", _ranks, 0.10),
    ("numbers", _numbers, 0.05),
    ("terminal_heavy", _terminal_heavy, 0.04),
    ("same_rank", _same_rank, 0.03),
    ("dragon_chows", _dragons_chows, 0.06),
    ("identical_chows", _identical_chows, 0.06),
    ("stepped_chows", _stepped_chows, 0.04),
    ("pung_patterns", _pung_patterns, 0.06),
    ("four_kind", _four_kind, 0.05),
)


# --- concealed-only shapes: r -> 14 tiles --------------------------------------------------

def _nine_gates(r: Draw) -> list[int]:
    """九子连环: 1112345678999 of one suit plus any tile of it."""
    suit = r.below(3)
    ranks = [1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 1 + r.below(9)]
    return [_t(suit, x) for x in ranks]


def _seven_pairs(r: Draw) -> list[int]:
    kind = r.below(6)
    if kind == 0:    # 连七对
        suit, a = r.below(3), 1 + r.below(3)
        kinds = [_t(suit, a + i) for i in range(7)]
    elif kind == 1:  # 大七星
        kinds = list(HONORS)
    elif kind == 2:  # one suit (+ honours)
        pool = _suit_pool(r.below(3)) + (HONORS if r.chance(0.4) else ())
        kinds = r.sample(pool, 7)
    elif kind == 3:  # restricted ranks / numbers
        ranks, _, honors = r.choice(_RANK_SETS[:8])
        pool = tuple(t for t in NUMBERS if t % 9 + 1 in ranks) + (HONORS if honors else ())
        kinds = r.sample(pool, 7) if len(pool) >= 7 else r.sample(range(NUM_KINDS), 7)
    else:
        kinds = r.sample(range(NUM_KINDS), 7)
    return sorted(kinds * 2)


def _knitted(r: Draw) -> list[int]:
    """十三不搭 family: per suit up to three ranks at least 3 apart, the rest honours."""
    kind = r.below(4)
    if kind == 0:    # 不搭龙: 147 / 258 / 369 over the three suits
        classes = r.shuffled(((1, 4, 7), (2, 5, 8), (3, 6, 9)))
        ranks_by_suit = [list(c) for c in classes]
    elif kind == 1:  # 不搭三相逢: the same three ranks in every suit
        c = r.choice(_KNIT_TRIPLES)
        ranks_by_suit = [list(c)] * 3
    else:            # any knitted triples; 七星不靠 (seven honours) or plain 十三不搭 (5–6)
        ranks_by_suit = [list(r.choice(_KNIT_TRIPLES)) for _ in range(3)]
    n_honors = 7 if kind == 2 else 5 + r.below(2) if kind == 3 else 5
    numbers = r.sample([_t(s, x) for s in range(3) for x in ranks_by_suit[s]], 14 - n_honors)
    return sorted(numbers + r.sample(HONORS, n_honors))


# Rank triples of one suit that may sit together in a knitted hand (pairwise gaps >= 3).
_KNIT_TRIPLES = tuple((a, b, c) for a in range(1, 10) for b in range(a + 3, 10)
                      for c in range(b + 3, 10))


def _orphans(r: Draw) -> list[int]:
    kinds = list(TERMINALS + HONORS)
    return sorted(kinds + [r.choice(kinds)])


CONCEALED: tuple[tuple[str, Callable, float], ...] = (
    ("nine_gates", _nine_gates, 0.01),
    ("seven_pairs", _seven_pairs, 0.05),
    ("knitted", _knitted, 0.04),
    ("thirteen_orphans", _orphans, 0.01),
)

TEMPLATES: tuple[str, ...] = tuple(name for name, _, _ in STANDARD + CONCEALED)
