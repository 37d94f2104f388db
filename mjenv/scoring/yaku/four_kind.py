"""归一型 four of a kind without a kong (RULES.md §8).

All four tiles of one kind are used inside the reading's melds and pair (called melds
included), none of them in a kong (``Reading.quads`` lists those kinds); how the four are split
decides the yaku: a pung and a chow (四归一), the pair and two chows (四归二), four chows (四归四).
"""

from __future__ import annotations

from mjenv.scoring.reading import Reading
from mjenv.scoring.yaku.base import S, yaku

PUNG_AND_CHOW, PAIR_AND_CHOWS, FOUR_CHOWS = "pung+chow", "pair+2 chows", "4 chows"


def _hogs(r: Reading, split: str) -> list[int]:
    """The kinds held four times (outside a kong) whose tiles lie as ``split`` says."""
    if not r.quads:
        return []
    return [q for q in r.quads
            if (PUNG_AND_CHOW if q in r.pungs else PAIR_AND_CHOWS if q == r.pair
                else FOUR_CHOWS) == split]


def _chow_holding(r: Reading, kind: int) -> int:
    """The chow holding the one tile of a 四归一 kind outside its pung."""
    return next(c for c in r.chows if c <= kind <= c + 2)


@yaku("siguiyi", "四归一", "Tile Hog", 1, S)
def siguiyi(r: Reading) -> bool:
    """The four tiles form one pung plus one chow."""
    return bool(_hogs(r, PUNG_AND_CHOW))


@yaku("siguier", "四归二", "Tile Hog in the Pair", 4, S)
def siguier(r: Reading) -> bool:
    """The four tiles form the pair plus two chows."""
    return bool(_hogs(r, PAIR_AND_CHOWS))


@yaku("siguisi", "四归四", "Tile Hog in Four Chows", 20, S, excludes=("yibangao",))
def siguisi(r: Reading) -> bool:
    """The four tiles lie in four chows."""
    return bool(_hogs(r, FOUR_CHOWS))


@yaku("shuang_siguiyi", "双四归一", "Two Tile Hogs", 4, S, excludes=("siguiyi",))
def shuang_siguiyi(r: Reading) -> bool:
    """Two kinds each making 四归一."""
    return len(_hogs(r, PUNG_AND_CHOW)) >= 2


@yaku("baguier", "八归二", "Eight Tiles in Three Sets", 6, S,
      excludes=("shuang_siguiyi", "siguiyi"))
def baguier(r: Reading) -> bool:
    """Three melds hold all four tiles of two kinds (e.g. 111 123 222): their pungs and one
    chow they share."""
    hogs = _hogs(r, PUNG_AND_CHOW)
    return len(hogs) >= 2 and len({_chow_holding(r, q) for q in hogs}) < len(hogs)


@yaku("shierguisan", "十二归三", "Twelve Tiles in Four Sets", 30, S,
      excludes=("baguier", "shuang_siguiyi", "siguiyi", "sanlianke"))
def shierguisan(r: Reading) -> bool:
    """Pungs of r, r+1, r+2 and the chow r r+1 r+2, one suit, no kongs (the four melds hold all
    four tiles of three kinds)."""
    return len(r.quads) >= 3 and any(c in r.pungs and c + 1 in r.pungs and c + 2 in r.pungs
                                     for c in r.chows)


YAKU = (siguiyi, siguier, siguisi, shuang_siguiyi, baguier, shierguisan)
