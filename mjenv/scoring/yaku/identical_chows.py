"""般高型 identical chows (RULES.md §8). ``Reading.chows`` is sorted: equal chows are adjacent."""

from __future__ import annotations

from mjenv.scoring.reading import Reading
from mjenv.scoring.views import Chows
from mjenv.scoring.yaku.base import S, yaku
from mjenv.scoring.yaku.words import rank, suit
from mjenv.tiles import NUMBERS


@yaku("yibangao", "一般高", "Pure Double Chow", 1, S)
def yibangao(r: Chows) -> bool:
    """Two identical chows (same suit, same ranks)."""
    return len(set(r.chows)) < len(r.chows)


@yaku("liang_bangao", "两般高", "Two Pure Double Chows", 10, S, excludes=("yibangao",))
def liang_bangao(r: Chows) -> bool:
    """Four chows forming two 一般高 couples."""
    c = r.chows
    return len(c) == 4 and c[0] == c[1] and c[2] == c[3]


@yaku("tai_bangao", "太般高", "Pure Triple Chow", 10, S, excludes=("yibangao",))
def tai_bangao(r: Chows) -> bool:
    """Three identical chows."""
    c = r.chows
    return len(c) >= 3 and (c[0] == c[2] or c[-1] == c[-3])


@yaku("qing_bangao", "清般高", "Mirrored Double Chows", 20, S,
      excludes=("liang_bangao", "yibangao", "jingtong"))
def qing_bangao(r: Chows) -> bool:
    """Two 一般高 couples of the same ranks in two suits."""
    c = r.chows
    return (len(c) == 4 and c[0] == c[1] and c[2] == c[3]
            and rank(c[0]) == rank(c[2]) and suit(c[0]) != suit(c[2]))


@yaku("sihai_yijia", "四海一家", "Quadruple Chow", 40, S,
      excludes=("tai_bangao", "liang_bangao", "yibangao", "siguisi"))
def sihai_yijia(r: Chows) -> bool:
    """Four identical chows."""
    return len(r.chows) == 4 and r.chows[0] == r.chows[3]


@yaku("yise_shuanglong", "一色双龙会", "Pure Terminal Chows", 40, S,
      excludes=("qingyise", "liang_bangao", "yibangao", "laoshao_shuangshun", "laoshao",
                "jiangyan"))
def yise_shuanglong(r: Reading) -> bool:
    """Chows 123, 123, 789, 789 and a pair of 5, all one suit."""
    if r.pair not in NUMBERS or rank(r.pair) != 5:
        return False
    one = r.pair - 4                                # 1 of the pair's suit
    return r.chows == (one, one, one + 6, one + 6)


YAKU = (yibangao, liang_bangao, tai_bangao, qing_bangao, sihai_yijia, yise_shuanglong)
