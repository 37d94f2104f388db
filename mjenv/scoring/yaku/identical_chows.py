"""般高型 identical chows (RULES.md §8). ``Reading.chows`` is sorted: equal chows are adjacent."""

from __future__ import annotations

from mjenv.scoring.reading import Reading
from mjenv.scoring.yaku.base import GROUPS, NUMBERS_ONLY, S, of_ranks, yaku


@yaku("yibangao", "一般高", "Pure Double Chow", 1, S, scope=GROUPS, chows=2, twin_chows=1,
      exact=True)
def yibangao(r: Reading) -> bool:
    return len(set(r.chows)) < len(r.chows)


@yaku("liang_bangao", "两般高", "Two Pure Double Chows", 10, S, excludes=("yibangao",),
      scope=GROUPS, chows=4, twin_chows=2)
def liang_bangao(r: Reading) -> bool:
    """Four chows forming two 一般高 couples."""
    c = r.chows
    return len(c) == 4 and c[0] == c[1] and c[2] == c[3]


@yaku("tai_bangao", "太般高", "Pure Triple Chow", 10, S, excludes=("yibangao",),
      scope=GROUPS, chows=3, twin_chows=2)
def tai_bangao(r: Reading) -> bool:
    c = r.chows
    return len(c) >= 3 and (c[0] == c[2] or (len(c) == 4 and c[1] == c[3]))


@yaku("qing_bangao", "清般高", "Mirrored Double Chows", 20, S,
      excludes=("liang_bangao", "yibangao", "jingtong"), scope=GROUPS, chows=4, suits=2,
      twin_chows=2)
def qing_bangao(r: Reading) -> bool:
    """Two 一般高 couples of the same ranks in two suits."""
    if len(r.chows) != 4:
        return False
    c = r.chows
    return c[0] == c[1] and c[2] == c[3] and c[0] != c[2] and c[0] % 9 == c[2] % 9


@yaku("sihai_yijia", "四海一家", "Quadruple Chow", 40, S,
      excludes=("tai_bangao", "liang_bangao", "yibangao", "siguisi"), scope=GROUPS, chows=4,
      twin_chows=3)
def sihai_yijia(r: Reading) -> bool:
    c = r.chows
    return len(c) == 4 and c[0] == c[3]


@yaku("yise_shuanglong", "一色双龙会", "Pure Terminal Chows", 40, S,
      excludes=("qingyise", "liang_bangao", "yibangao", "laoshao_shuangshun", "laoshao",
                "jiangyan"), scope=GROUPS, chows=4, ranks=(1, 2, 3, 5, 7, 8, 9),
      pairs=of_ranks(5), twin_chows=2, within_ranks=(1, 2, 3, 5, 7, 8, 9),
      within_suits=NUMBERS_ONLY, most_suits=1)
def yise_shuanglong(r: Reading) -> bool:
    """Chows 123, 123, 789, 789 and a pair of 5, all one suit."""
    c = r.chows
    if len(c) != 4 or r.pair >= 27 or r.pair % 9 != 4:
        return False
    b = r.pair - 4
    return c == (b, b, b + 6, b + 6)


YAKU = (yibangao, liang_bangao, tai_bangao, qing_bangao, sihai_yijia, yise_shuanglong)
