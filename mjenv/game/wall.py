"""The wall (RULES.md §2): seeded shuffles, explicit walls, draws and the kan shift.

A wall is 136 tile ints in the rulebook's explicit-wall order: the dealer is dealt
``wall[0:13]``, the next seats in turn order ``wall[13:26]``, ``wall[26:39]``, ``wall[39:52]``;
live draws run from ``wall[52]`` up to ``wall[121]``; ``wall[122:136]`` is the dead wall, whose
front supplies kan replacements. Every kan moves the last not-yet-drawn live tile to the back
of the dead wall, so the dead wall stays at 14 and each kan costs the live wall one draw.

Seeded walls come from an in-house Fisher–Yates shuffle driven by BLAKE2b in counter mode.
Neither ``random`` nor numpy is involved, so a seed names the same wall on every Python and
numpy version — logs and benchmarks stay reproducible across machines and years.
"""

from __future__ import annotations

import hashlib
from collections import deque
from typing import Iterator, Sequence

from mjenv.tiles import NUM_KINDS, TILE_NAMES, parse_tile, tile_name

WALL_SIZE = 136
DEAL_SIZE = 52          # 4 × 13 dealt tiles
LIVE_END = 122          # wall[52:122] are the 70 live draws
DEAD_SIZE = 14
LIVE_DRAWS = LIVE_END - DEAL_SIZE

#: The 136 tiles in kind order: the shuffle's fixed starting point.
SORTED_TILES: tuple[int, ...] = tuple(k for k in range(NUM_KINDS) for _ in range(4))

_U64 = 1 << 64


class WallError(ValueError):
    """A wall that is not a permutation of the 136 tiles, or a bad seed."""


def _check_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise WallError(f"seed must be an int, got {type(seed).__name__} {seed!r}")
    return seed


def _words(seed: int) -> Iterator[int]:
    """Unbounded stream of 64-bit words: BLAKE2b(seed, counter), eight words per block."""
    key = f"mjenv-wall:{seed}:".encode()
    counter = 0
    while True:
        block = hashlib.blake2b(key + str(counter).encode(), digest_size=64).digest()
        counter += 1
        for i in range(0, 64, 8):
            yield int.from_bytes(block[i:i + 8], "little")


def shuffled_wall(seed: int) -> tuple[int, ...]:
    """The wall for ``seed`` (any int): Fisher–Yates over :data:`SORTED_TILES`.

    Indices are drawn without modulo bias (rejection sampling), so every permutation is
    equally likely up to the quality of BLAKE2b.
    """
    _check_seed(seed)
    words = _words(seed)
    tiles = list(SORTED_TILES)
    for i in range(WALL_SIZE - 1, 0, -1):
        n = i + 1
        limit = _U64 - _U64 % n
        x = next(words)
        while x >= limit:
            x = next(words)
        j = x % n
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tuple(tiles)


def derive_seed(seed: int, index: int) -> int:
    """A 64-bit sub-seed (e.g. hand ``index`` of a match), stable across versions."""
    _check_seed(seed)
    digest = hashlib.blake2b(f"mjenv-sub:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def parse_wall(wall: Sequence[int | str] | str) -> tuple[int, ...]:
    """Validate an explicit wall: 136 tile ints or tile strings (``"5m"``), or one mpsz string.

    Raises :class:`WallError` naming the problem (length, a bad entry, or which kinds occur
    other than four times) — a wall must be a permutation of the 136 tiles.
    """
    if isinstance(wall, str):
        from mjenv.tiles import parse_tiles
        try:
            tiles = parse_tiles(wall)
        except ValueError as exc:
            raise WallError(f"wall: {exc}") from None
    else:
        try:
            items = list(wall)
        except TypeError:
            raise WallError(f"wall must be a sequence of 136 tiles, got {type(wall).__name__}") from None
        tiles = []
        for i, item in enumerate(items):
            if isinstance(item, bool):
                raise WallError(f"wall[{i}] = {item!r} is not a tile")
            if isinstance(item, int):
                if not 0 <= item < NUM_KINDS:
                    raise WallError(f"wall[{i}] = {item} is not a tile index (0–33)")
                tiles.append(item)
            elif isinstance(item, str):
                try:
                    tiles.append(parse_tile(item))
                except ValueError as exc:
                    raise WallError(f"wall[{i}] = {item!r}: {exc}") from None
            else:
                raise WallError(f"wall[{i}] = {item!r} is not a tile (int 0–33 or a string like '5m')")
    if len(tiles) != WALL_SIZE:
        raise WallError(f"wall has {len(tiles)} tiles; it must hold all {WALL_SIZE} "
                        f"(four of each of the 34 kinds)")
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    wrong = [f"{c} × {TILE_NAMES[k]}" for k, c in enumerate(counts) if c != 4]
    if wrong:
        raise WallError("wall is not a permutation of the 136 tiles: it holds "
                        + ", ".join(wrong) + " (every kind must appear exactly 4 times)")
    return tuple(tiles)


def wall_to_strings(wall: Sequence[int]) -> list[str]:
    return [tile_name(t) for t in wall]


class Wall:
    """Draw state over one explicit wall: a live pointer, the live end and the dead wall."""

    __slots__ = ("tiles", "_next", "_end", "_dead")

    def __init__(self, tiles: tuple[int, ...]) -> None:
        self.tiles = tiles
        self._next = DEAL_SIZE
        self._end = LIVE_END
        self._dead: deque[int] = deque(tiles[LIVE_END:])

    @classmethod
    def resumed(cls, out: Sequence[int], live: Sequence[int], dead: Sequence[int]) -> "Wall":
        """A wall part-way through a hand (a world rebuilt from a view, ``mjenv.game.world``):
        ``live`` still to draw in order, ``dead`` front first (14 tiles), and ``out`` every
        other tile (dealt, drawn, moved) — laid out as a full wall so that the kan shift moves
        the last live tile exactly as it would have."""
        if len(dead) != DEAD_SIZE:
            raise WallError(f"the dead wall holds {DEAD_SIZE} tiles, got {len(dead)}")
        wall = cls(parse_wall(tuple(sorted(out)) + tuple(live) + tuple(dead)))
        wall._next = len(out)
        return wall

    def deal(self, seat_offset: int) -> tuple[int, ...]:
        """The 13 tiles of the seat ``seat_offset`` places after the dealer (0 = dealer)."""
        return self.tiles[13 * seat_offset:13 * seat_offset + 13]

    @property
    def live_left(self) -> int:
        return self._end - self._next

    def draw(self, seat: int) -> int:
        """The next live tile, for ``seat`` (a wall in play deals in wall order, whoever
        draws; ``mjenv.game.world`` has one that deals each seat its own stream). The engine
        never draws from an empty live wall."""
        if self._next >= self._end:
            raise RuntimeError("draw from an empty live wall")
        t = self.tiles[self._next]
        self._next += 1
        return t

    def draw_replacement(self) -> int:
        """A kan replacement from the dead wall's front; the last live tile joins its back."""
        if self._next >= self._end:
            raise RuntimeError("kan with an empty live wall")
        t = self._dead.popleft()
        self._end -= 1
        self._dead.append(self.tiles[self._end])
        return t

    def live_tiles(self) -> tuple[int, ...]:
        """Not-yet-drawn live tiles (for invariant checks; hidden from every player)."""
        return self.tiles[self._next:self._end]

    def dead_tiles(self) -> tuple[int, ...]:
        return tuple(self._dead)
