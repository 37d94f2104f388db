"""The checks of a scoring query: sizes, tiles, at most four of a kind, and the situation flags
that contradict the tiles (issue 2's list; the flags that contradict each other are refused by
``WinContext`` itself). Every error is a ``ValueError`` naming what is wrong."""

from __future__ import annotations

from typing import Sequence

from mjenv.scoring.context import WinContext
from mjenv.tiles import Meld, tile_name


def check_sizes(n_tiles: int, melds: Sequence[Meld]) -> None:
    """At most four melds, and 13 − 3 per meld concealed tiles before the win."""
    if len(melds) > 4:
        raise ValueError(f"{len(melds)} melds: a hand has at most 4")
    need = 13 - 3 * len(melds)
    if n_tiles != need:
        raise ValueError(f"the concealed hand has {n_tiles} tiles before the win; with "
                         f"{len(melds)} meld(s) it must have {need}")


def tile_index(t: object) -> int:
    """``t`` when it is a tile index (0–33); else a ``ValueError`` naming it."""
    if type(t) is not int or not 0 <= t < 34:
        raise ValueError(f"{t!r} is not a tile index (0–33)")
    return t


def check_query(hand: Sequence[int], win_tile: int, melds: Sequence[Meld],
                ctx: WinContext) -> tuple[bytearray, bytearray]:
    """Check a query (``hand``: the concealed tiles before the win); return the counts of the
    concealed tiles and of every tile held (melds included), both before the win."""
    check_sizes(len(hand), melds)
    concealed = bytearray(34)
    try:
        for t in hand:
            concealed[t] += 1
        bad = min(hand) < 0             # (a negative index would count another kind)
    except (IndexError, TypeError):
        bad = True
    if bad:
        for t in hand:
            tile_index(t)               # raises, naming the first bad one
    tile_index(win_tile)
    held = bytearray(concealed)
    for m in melds:
        if not isinstance(m, Meld):
            raise ValueError(f"{m!r} is not a Meld")
        for t in m.tiles:
            held[t] += 1
    held[win_tile] += 1
    if max(held) > 4:
        over = [tile_name(t) for t in range(34) if held[t] > 4]
        raise ValueError(f"more than four of {', '.join(over)} in hand, winning tile and melds")
    held[win_tile] -= 1
    _check_flags(concealed[win_tile], held[win_tile] + 1, win_tile, melds, ctx)
    return concealed, held


def _check_flags(in_hand: int, held: int, win_tile: int, melds: Sequence[Meld],
                 ctx: WinContext) -> None:
    """The flags that contradict the tiles: ``in_hand`` copies of the winning tile are in the
    concealed hand before the win, ``held`` copies in all (winning tile and melds included)."""
    if ctx.lingshang and not any(m.is_kong for m in melds):
        raise ValueError("lingshang needs a kan meld: the winning tile is a kan replacement")
    if melds and (ctx.tianhu or ctx.dihu or ctx.renhu):
        which = "tianhu" if ctx.tianhu else "dihu" if ctx.dihu else "renhu"
        raise ValueError(f"{which} conflicts with melds: no call can precede it")
    if ctx.juezhang and in_hand:
        raise ValueError(f"juezhang conflicts with the hand: it holds {tile_name(win_tile)}, "
                         f"so the winning tile is not the last of its kind")
    if ctx.qianggang and held > 1:
        raise ValueError(f"qianggang conflicts with the tiles: the hand or melds hold "
                         f"{tile_name(win_tile)}, but the robbed kan needs the other three")
