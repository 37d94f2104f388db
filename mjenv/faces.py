"""Tile faces for the picture renderers: the env's ``rgb_array`` frames (``mjenv.env.image``)
and the HTML replay viewer (``mjenv.viewer``) draw a tile from this one table, so a tile looks
the same in a training video and in a replay page.

A face is a big label (the rank; ``E S W N`` for the winds, ``G``/``R`` for the green and red
dragons, nothing for the white dragon, which is a framed blank face) in its suit's ink, with the
tile's mpsz name written small underneath. Latin text only: no CJK or mahjong-glyph font is
needed, in a browser or in Pillow.
"""

from __future__ import annotations

from typing import NamedTuple

from mjenv.tiles import TILE_NAMES, WIND_LETTERS


class Face(NamedTuple):
    """label: the big text; name: the mpsz name; ink: CSS hex colour of both; frame: draw an
    inner frame (the white dragon)."""

    label: str
    name: str
    ink: str
    frame: bool = False


SUIT_INK = {"m": "#b03a2e", "p": "#1f5fa8", "s": "#1e8449", "z": "#1b2631"}
_HONOR_LABELS = tuple(WIND_LETTERS) + ("", "G", "R")
_HONOR_INK = (SUIT_INK["z"],) * 4 + ("#1f5fa8", "#1e8449", "#b03a2e")

FACES: tuple[Face, ...] = tuple(
    Face(name[0], name, SUIT_INK[name[1]]) if t < 27
    else Face(_HONOR_LABELS[t - 27], name, _HONOR_INK[t - 27], frame=t == 31)
    for t, name in enumerate(TILE_NAMES))

#: Colours shared by both renderers.
FACE_FILL = "#fbf8ef"
FACE_EDGE = "#8c8170"
BACK_FILL = "#2e7d5b"
TABLE_FELT = "#1d4d3a"
