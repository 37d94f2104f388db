"""Tiles, the mpsz notation and meld notation (RULES.md §1).

A tile kind is an ``int`` 0–33 in the rulebook's index order: 1m…9m (0–8), 1p…9p (9–17),
1s…9s (18–26), 1z…7z (27–33: East, South, West, North, White, Green, Red). Every layer above
works on these ints; strings exist only at the edges (CLI, logs, tests), so parsing happens
once and errors name the exact bad part.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Sequence

NUM_KINDS = 34
SUITS = "mps"
HONOR_SUIT = "z"
EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
WIND_LETTERS = "ESWN"

# The kinds by family (RULES.md §1): every other module imports these.
NUMBERS = range(27)                                            # 序数牌: m, p, s
HONORS = range(27, 34)                                         # 字牌
WINDS: tuple[int, ...] = (EAST, SOUTH, WEST, NORTH)
DRAGONS: tuple[int, ...] = (WHITE, GREEN, RED)
TERMINALS: tuple[int, ...] = tuple(t for t in NUMBERS if t % 9 in (0, 8))    # ranks 1 and 9
ORPHANS: tuple[int, ...] = TERMINALS + tuple(HONORS)           # 幺九: thirteen orphans' kinds
SUIT_FIRSTS: tuple[int, ...] = (0, 9, 18)                     # 1m, 1p, 1s

TILE_NAMES: tuple[str, ...] = tuple(
    [f"{r}{s}" for s in SUITS for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]
)
_NAME_TO_TILE = {name: i for i, name in enumerate(TILE_NAMES)}

# Unicode mahjong tiles (U+1F000 block) for rendering: winds, dragons, then suits.
_UNICODE_HONORS = ("\U0001F000", "\U0001F001", "\U0001F002", "\U0001F003",
                   "\U0001F006", "\U0001F005", "\U0001F004")
TILE_UNICODE: tuple[str, ...] = tuple(
    [chr(0x1F007 + r) for r in range(9)]      # characters (万)
    + [chr(0x1F019 + r) for r in range(9)]    # circles (筒)
    + [chr(0x1F010 + r) for r in range(9)]    # bamboos (索)
    + list(_UNICODE_HONORS)
)


def suit_of(tile: int) -> int:
    """0 m, 1 p, 2 s, 3 honors."""
    return tile // 9


def rank_of(tile: int) -> int:
    """Rank 1–9 for number tiles, 1–7 for honors."""
    return tile % 9 + 1


def is_honor(tile: int) -> bool:
    return tile >= 27


_GROUP_RE = re.compile(r"(\d+)([a-zA-Z])")
# Well-formed mpsz (spaces removed), and per suit letter: digit -> tile.
_VALID_RE = re.compile(r"(?:[1-9]+[mps]|[1-7]+z)*")
_DIGIT_TILE = {suit: {name[0]: tile for name, tile in _NAME_TO_TILE.items() if name[1] == suit}
               for suit in "mpsz"}


def parse_tiles(text: str) -> list[int]:
    """Parse mpsz notation (``"123m456p11z"``) into tile ints, in the order written.

    Raises ``ValueError`` naming the offending part of ``text``.
    """
    if not isinstance(text, str):
        raise ValueError(f"tiles must be an mpsz string, got {type(text).__name__}")
    s = text.replace(" ", "")
    if _VALID_RE.fullmatch(s):                  # well-formed: the fast path
        tiles: list[int] = []
        for digits, suit in _GROUP_RE.findall(s):
            tiles += map(_DIGIT_TILE[suit].__getitem__, digits)
        return tiles
    tiles = []                                  # find and name the bad part
    pos = 0
    for m in _GROUP_RE.finditer(s):
        if m.start() != pos:
            raise ValueError(f"{s[pos:m.start()]!r} in {text!r} is not mpsz notation "
                             f"(digits followed by one of m, p, s, z)")
        pos = m.end()
        digits, suit = m.group(1), m.group(2)
        if suit not in "mpsz":
            raise ValueError(f"{m.group(0)!r} in {text!r}: unknown suit {suit!r} "
                             f"(use m, p, s or z)")
        for d in digits:
            tiles.append(_one(d + suit))
    if pos != len(s):
        raise ValueError(f"{s[pos:]!r} in {text!r} is not mpsz notation "
                         f"(digits followed by one of m, p, s, z)")
    return tiles


def _one(name: str) -> int:
    r, suit = name[0], name[1]
    if suit == "z" and not "1" <= r <= "7":
        raise ValueError(f'"{name}" is not a tile: honors are 1z–7z')
    if suit in SUITS and not "1" <= r <= "9":
        raise ValueError(f'"{name}" is not a tile: number tiles are ranked 1–9')
    return _NAME_TO_TILE[name]


@lru_cache(maxsize=256)
def parse_tile(text: str) -> int:
    """Parse exactly one tile (``"5s"``); memoised, as the same few texts recur."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise ValueError(f"{text!r} is not a single tile")
    return tiles[0]


def tile_name(tile: int) -> str:
    if not isinstance(tile, int) or not 0 <= tile < NUM_KINDS:
        raise ValueError(f"{tile!r} is not a tile index (0–33)")
    return TILE_NAMES[tile]


def tiles_to_str(tiles: Iterable[int]) -> str:
    """Compact sorted mpsz form: ``[0, 1, 2, 27]`` → ``"123m1z"``."""
    by_suit: dict[int, list[str]] = {}
    for t in sorted(tiles):
        by_suit.setdefault(suit_of(t), []).append(str(rank_of(t)))
    return "".join("".join(r) + "mpsz"[s] for s, r in sorted(by_suit.items()))


def counts34(tiles: Iterable[int]) -> list[int]:
    c = [0] * NUM_KINDS
    for t in tiles:
        c[t] += 1
    return c


def parse_wind(value: str | int) -> int:
    """A wind as ``"E"``/``"S"``/``"W"``/``"N"``, ``"1z"``…``"4z"`` or 0–3; returns 0–3."""
    if isinstance(value, int) and 0 <= value <= 3:
        return value
    if isinstance(value, str):
        v = value.strip()
        if len(v) == 1 and v.upper() in WIND_LETTERS:
            return WIND_LETTERS.index(v.upper())
        if v in ("1z", "2z", "3z", "4z"):
            return int(v[0]) - 1
    raise ValueError(f"{value!r} is not a wind: use E, S, W or N")


# --- melds --------------------------------------------------------------------------------

MELD_KINDS = ("chi", "pon", "minkan", "kakan", "ankan")


@dataclass(frozen=True)
class Meld:
    """A declared meld.

    ``tiles`` are sorted kinds (3 for chi/pon, 4 for kans). ``called`` is the claimed tile
    for chi/pon/minkan (the kakan's original pung claim is not tracked), ``from_seat`` the
    absolute seat it came from; both ``None`` where unknown or not applicable.
    """

    kind: str
    tiles: tuple[int, ...]
    called: int | None = None
    from_seat: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in MELD_KINDS:
            raise ValueError(f"{self.kind!r} is not a meld kind: use one of {', '.join(MELD_KINDS)}")
        t = self.tiles
        if self.kind == "chi":
            if len(t) != 3 or is_honor(t[0]) or suit_of(t[0]) != suit_of(t[2]) \
                    or t[1] != t[0] + 1 or t[2] != t[0] + 2:
                raise ValueError(f"chi:{tiles_to_str(t)} is not a chow: chi needs three "
                                 f"consecutive number tiles of one suit")
        else:
            n = 3 if self.kind == "pon" else 4
            if len(t) != n or len(set(t)) != 1:
                raise ValueError(f"{self.kind}:{tiles_to_str(t)} needs {n} identical tiles")

    @property
    def is_kong(self) -> bool:
        return self.kind in ("minkan", "kakan", "ankan")

    @property
    def is_open(self) -> bool:
        """Called from another player (breaks 门清); only the concealed kan is not."""
        return self.kind != "ankan"

    @property
    def first(self) -> int:
        return self.tiles[0]

    def __str__(self) -> str:
        return f"{self.kind}:{tiles_to_str(self.tiles)}"


def parse_meld(text: str | Meld) -> Meld:
    """``"chi:234s"``, ``"pon:777z"``, ``"minkan:5555m"``, ``"kakan:5555m"``, ``"ankan:9999p"``."""
    if isinstance(text, Meld):
        return text
    if not isinstance(text, str) or ":" not in text:
        raise ValueError(f"{text!r} is not a meld: write kind:tiles, e.g. chi:234s or pon:777z")
    return _parse_meld_text(text)


@lru_cache(maxsize=1024)
def _parse_meld_text(text: str) -> Meld:
    """``parse_meld`` of a string (memoised: melds are immutable, and few texts recur)."""
    kind, _, body = text.strip().partition(":")
    kind = kind.strip().lower()
    if kind not in MELD_KINDS:
        raise ValueError(f"{text!r}: {kind!r} is not a meld kind "
                         f"(use one of {', '.join(MELD_KINDS)})")
    return Meld(kind, tuple(sorted(parse_tiles(body))))


def parse_melds(melds: str | Sequence[str | Meld] | None) -> tuple[Meld, ...]:
    """A comma-separated string or a sequence of meld strings/objects."""
    if not melds:
        return ()
    if isinstance(melds, str):
        melds = [m for m in melds.split(",") if m.strip()]
    return tuple(parse_meld(m) for m in melds)
