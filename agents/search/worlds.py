"""Worlds drawn by the hand-reading model: opponents ready as often, and on the tiles, as it
reads them from the view.

A uniform deal of the unseen tiles (``mjenv.game.world.sample_hidden``) almost never makes an
opponent ready, however its discards and calls say it is: rollouts on such worlds under-rate
the danger of a discard and over-rate pushing. ``sample_read`` draws each opponent's state
from the reading model (``agents.search.reading``) instead: ready with probability
``read.ready``, and then waiting on a kind drawn from ``read.tiles`` — its concealed tiles a
complete hand with that kind taken out, built group by group from the unseen tiles, kept only
if the engine would let it win on the kind by ron (``min_points`` reached) and none of its
winning kinds passed its unchanged hand (a win is always taken). An opponent read as not ready,
or whose ready hand could not be built in ``ATTEMPTS`` tries, is dealt uniformly with the walls.
"""

from __future__ import annotations

from typing import Protocol, Sequence

import numpy as np

from agents.heuristic.models import passed_tiles
from mjenv.analysis import wait_kinds
from mjenv.game.view import PlayerView
from mjenv.game.world import Hidden, concealed_sizes
from mjenv.scoring import WinContext, score

ATTEMPTS = 12       # tries at a ready hand per opponent read as ready
CHOW_SHARE = 0.6    # a built group is a chow this often where both could be


class Read(Protocol):
    """What the sampler reads of an opponent (``agents.search.reading.OpponentRead``)."""

    seat: int
    ready: float
    tiles: np.ndarray


def sample_read(view: PlayerView, reads: Sequence[Read], rng: np.random.Generator) -> Hidden:
    """A hidden part with the opponents' states drawn from ``reads`` (module docstring)."""
    pool = list(view.unseen)
    sizes = concealed_sizes(view)
    concealed: list[tuple[int, ...] | None] = [() if s == view.seat else None for s in range(4)]
    for read in reads:
        if rng.random() < read.ready:
            concealed[read.seat] = _ready_hand(view, read, pool, sizes[read.seat], rng)
    rest = np.repeat(np.arange(34), pool)
    rng.shuffle(rest)
    tiles = rest.tolist()
    at = 0
    for s in range(4):
        if concealed[s] is None:
            concealed[s] = tuple(sorted(tiles[at:at + sizes[s]]))
            at += sizes[s]
    live = tuple(tiles[at:at + view.live_wall_left])
    return Hidden(tuple(concealed), live, tuple(tiles[at + len(live):]))


def _ready_hand(view: PlayerView, read: Read, pool: list[int], size: int,
                rng: np.random.Generator) -> tuple[int, ...] | None:
    """A ready hand of ``size`` tiles for ``read.seat`` taken out of ``pool`` (which loses its
    tiles), or ``None`` (``pool`` untouched) when none was found."""
    melds = view.melds[read.seat]
    passed = passed_tiles(view, read.seat)
    weights = np.where(np.array(pool) > 0, read.tiles, 0.0)
    if weights.sum() <= 0:
        return None
    ctx = WinContext(tsumo=False, seat_wind=(read.seat - view.dealer) % 4,
                     round_wind=view.round_wind)
    for _ in range(ATTEMPTS):
        win = int(rng.choice(34, p=weights / weights.sum()))
        counts = _complete_hand(pool, win, size + 1, rng)
        if counts is None:
            continue
        counts[win] -= 1
        waits = wait_kinds(counts, melds)
        if win not in waits or passed & set(waits):
            continue
        hand = [t for t in range(34) for _ in range(counts[t])]
        try:
            points = score(hand, win, melds, ctx).points
        except ValueError:                  # e.g. a fifth copy with a meld's
            continue
        if points < view.rules.min_points:
            continue
        for t in range(34):
            pool[t] -= counts[t]
        return tuple(hand)
    return None


def _complete_hand(pool: Sequence[int], win: int, size: int, rng: np.random.Generator
                   ) -> list[int] | None:
    """Counts of ``size`` tiles (a multiple of 3, plus 2) forming groups and a pair, one of them
    holding ``win``, all within ``pool`` with one copy of ``win`` left over (someone must be
    able to play it); ``None`` when the draw ran into an empty kind."""
    left = list(pool)
    left[win] -= 1                              # the copy it would win on
    counts = [0] * 34
    groups = (size - 2) // 3
    pair_first = rng.random() < 1 / (groups + 1)
    shapes = [_pair] + [_group] * groups if pair_first else [_group] * groups + [_pair]
    for k, shape in enumerate(shapes):
        tiles = shape(left, win if k == 0 else None, rng)
        if tiles is None:
            return None
        for t in tiles:
            left[t] -= 1
            counts[t] += 1
    counts[win] += 1
    return counts


def _pair(left: Sequence[int], holding: int | None, rng: np.random.Generator
          ) -> list[int] | None:
    """A pair from ``left`` (holding ``holding``, whose winning copy is already set aside)."""
    if holding is not None:
        return [holding] if left[holding] >= 1 else None
    kinds = [t for t in range(34) if left[t] >= 2]
    return [kinds[int(rng.integers(len(kinds)))]] * 2 if kinds else None


def _group(left: Sequence[int], holding: int | None, rng: np.random.Generator
           ) -> list[int] | None:
    """A chow or pung from ``left``; with ``holding``, one that the winning copy completes
    (the tiles returned are the two others)."""
    chows, pungs = _chows(left, holding), _pungs(left, holding)
    if not chows and not pungs:
        return None
    options = chows if chows and (not pungs or rng.random() < CHOW_SHARE) else pungs
    return options[int(rng.integers(len(options)))]


def _chows(left: Sequence[int], holding: int | None) -> list[list[int]]:
    starts = range(27) if holding is None else (
        [holding - d for d in (0, 1, 2)] if holding < 27 else [])
    out = []
    for first in starts:
        if first < 0 or first % 9 > 6 or (holding is not None and first // 9 != holding // 9):
            continue
        tiles = [first, first + 1, first + 2]
        if holding is not None:
            tiles.remove(holding)
        if all(left[t] >= tiles.count(t) for t in tiles):
            out.append(tiles)
    return out


def _pungs(left: Sequence[int], holding: int | None) -> list[list[int]]:
    if holding is not None:
        return [[holding, holding]] if left[holding] >= 2 else []
    return [[t, t, t] for t in range(34) if left[t] >= 3]
