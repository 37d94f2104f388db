"""归一型 four of a kind without a kong (RULES.md §8).

A kind counts when all four of its tiles lie in the reading's melds and pair, none in a kong
(``Reading.quads`` lists those kinds); how the four are split decides the yaku: pung + chow
(四归一), pair + two chows (四归二), four chows (四归四).
"""

from __future__ import annotations

from mjenv.scoring.reading import Reading
from mjenv.scoring.yaku.base import GROUPS, S, yaku

YI, ER, SI = "pung+chow", "pair+2 chows", "4 chows"


def _split(r: Reading, kind: int) -> str:
    """How the four tiles of ``kind`` lie in the reading."""
    if kind in r.pungs:
        return YI
    return ER if r.pair == kind else SI


def _splits(r: Reading, how: str) -> list[int]:
    return [q for q in r.quads if _split(r, q) == how]


def _chow_holding(r: Reading, kind: int) -> int | None:
    """The chow holding a tile of ``kind`` (a 四归一 kind lies in exactly one chow)."""
    return next((c for c in r.chows if c <= kind <= c + 2), None)


@yaku("siguiyi", "四归一", "Tile Hog", 1, S, scope=GROUPS, chows=1, pungs=1, quads=1)
def siguiyi(r: Reading) -> bool:
    return bool(_splits(r, YI))


@yaku("siguier", "四归二", "Tile Hog in the Pair", 4, S, scope=GROUPS, chows=2, quads=1)
def siguier(r: Reading) -> bool:
    return bool(_splits(r, ER))


@yaku("siguisi", "四归四", "Tile Hog in Four Chows", 20, S, excludes=("yibangao",),
      scope=GROUPS, chows=4, quads=1)
def siguisi(r: Reading) -> bool:
    return bool(_splits(r, SI))


@yaku("shuang_siguiyi", "双四归一", "Two Tile Hogs", 4, S, excludes=("siguiyi",),
      scope=GROUPS, chows=1, pungs=2, quads=2)
def shuang_siguiyi(r: Reading) -> bool:
    return len(_splits(r, YI)) >= 2


@yaku("baguier", "八归二", "Eight Tiles in Three Sets", 6, S,
      excludes=("shuang_siguiyi", "siguiyi"), scope=GROUPS, chows=1, pungs=2, quads=2)
def baguier(r: Reading) -> bool:
    """Three melds hold all four tiles of two kinds: their pungs and one shared chow
    (111 123 222)."""
    yi = _splits(r, YI)
    return any(_chow_holding(r, a) == _chow_holding(r, b)
               for i, a in enumerate(yi) for b in yi[i + 1:])


@yaku("shierguisan", "十二归三", "Twelve Tiles in Four Sets", 30, S,
      excludes=("baguier", "shuang_siguiyi", "siguiyi", "sanlianke"),
      scope=GROUPS, chows=1, pungs=3, quads=3, adjacent_pungs=2)
def shierguisan(r: Reading) -> bool:
    """Pungs of t, t+1, t+2 and the chow t t+1 t+2 (a kong there would be a fifth tile)."""
    p = r.pungs
    return any(t in p and t + 1 in p and t + 2 in p for t in r.chows)


YAKU = (siguiyi, siguier, siguisi, shuang_siguiyi, baguier, shierguisan)
