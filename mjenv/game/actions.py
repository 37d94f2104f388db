"""Engine actions: plain, hashable objects with a canonical text form.

The text form is what logs, tests and the conformance scenarios use: own turn ``discard 5m``,
``tsumo``, ``ankan 5m``, ``kakan 5m``; claim window ``ron``, ``pon``, ``minkan``,
``chi 345m`` (the chow formed, claimed tile included), ``pass``; robbing window ``ron`` or
``pass``.
"""

from __future__ import annotations

from dataclasses import dataclass

from mjenv.tiles import parse_tile, parse_tiles, tile_name, tiles_to_str

TILE_ACTIONS = ("discard", "ankan", "kakan", "chi")   # carry a tile
PLAIN_ACTIONS = ("tsumo", "ron", "pon", "minkan", "pass")
ACTION_KINDS = TILE_ACTIONS + PLAIN_ACTIONS


@dataclass(frozen=True, order=True)
class Action:
    """``tile``: the discarded / kanned tile; for ``chi`` the lowest tile of the chow formed;
    ``None`` for the plain kinds (the claimed tile is implied by the window)."""

    kind: str
    tile: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in ACTION_KINDS:
            raise ValueError(f"{self.kind!r} is not an action kind: use one of {', '.join(ACTION_KINDS)}")
        if self.kind in TILE_ACTIONS:
            if not isinstance(self.tile, int) or not 0 <= self.tile < 34:
                raise ValueError(f"{self.kind} needs a tile index 0–33, got {self.tile!r}")
            if self.kind == "chi" and (self.tile >= 27 or self.tile % 9 > 6):
                raise ValueError(f"chi needs the lowest tile of a chow, got {tile_name(self.tile)}")
        elif self.tile is not None:
            raise ValueError(f"{self.kind} takes no tile")

    def __str__(self) -> str:
        if self.kind == "chi":
            return f"chi {tiles_to_str((self.tile, self.tile + 1, self.tile + 2))}"
        if self.kind in TILE_ACTIONS:
            return f"{self.kind} {tile_name(self.tile)}"
        return self.kind

    @classmethod
    def parse(cls, text: str) -> "Action":
        """Inverse of ``str``: ``"discard 5m"``, ``"chi 345m"``, ``"pass"`` …"""
        parts = text.split()
        if not parts:
            raise ValueError("empty action")
        kind = parts[0]
        if kind not in ACTION_KINDS:
            raise ValueError(f"{text!r}: {kind!r} is not an action kind "
                             f"(use one of {', '.join(ACTION_KINDS)})")
        if kind in PLAIN_ACTIONS:
            if len(parts) != 1:
                raise ValueError(f"{text!r}: {kind} takes no tile")
            return cls(kind)
        if len(parts) != 2:
            raise ValueError(f"{text!r}: {kind} needs one tile argument")
        if kind == "chi":
            tiles = sorted(parse_tiles(parts[1]))
            if len(tiles) != 3:
                raise ValueError(f"{text!r}: chi names the three tiles of the chow, e.g. chi 345m")
            return cls("chi", tiles[0])
        return cls(kind, parse_tile(parts[1]))
