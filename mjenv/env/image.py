"""The table as a picture: the ``render_mode="rgb_array"`` frames of the three environments.

``draw_table(hand, to_act=...)`` returns an RGB ``uint8`` array of shape ``(720, 1280, 3)``
(16:9 and a multiple of 16 both ways, so ``gymnasium.wrappers.RecordVideo`` encodes it as it
is). It shows what ``render_table`` prints, as an observer sees it: every concealed hand (the
tile just drawn set apart at the end), the melds (the claimed tile turned sideways, a concealed
kan with its outer tiles face down), each seat's river (tsumogiri tiles greyed, tiles claimed by
another seat darkened with a red edge), wind, dealer and score per seat, the seat(s) to act
outlined in gold, and in the middle the round, dealer, repeat, live wall, what is being decided
and, once the hand is over, the result with each winner's yaku. Seat 0 sits at the bottom and
the following seats to its right, across and left, as around a real table. Tile faces come from
``mjenv.faces``, like the HTML replay viewer's.

Pillow draws it with its built-in font (Latin only: every text of a frame is ``ascii`` style,
no CJK, ``tests/env/test_image.py`` checks the font has each character drawn); Pillow is
imported on the first frame, so environments that never render in this mode never load it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

import numpy as np

from mjenv.env.render import WIND_NAMES, drawn_tile, table_status
from mjenv.faces import BACK_FILL, FACE_EDGE, FACE_FILL, FACES, TABLE_FELT
from mjenv.game import Hand, PondTile
from mjenv.tiles import Meld

WIDTH, HEIGHT = 1280, 720
# Panels (left, top, right, bottom) by seat: 0 bottom, 1 right, 2 top, 3 left; the centre box.
_PANELS = {0: (320, 470, 960, 720), 1: (960, 0, 1280, 720), 2: (320, 0, 960, 250),
           3: (0, 0, 320, 720)}
_CENTRE = (320, 250, 960, 470)
HAND_TILE = (30, 42)        # width, height in pixels
SMALL_TILE = (24, 33)       # melds and rivers
_PANEL_FILL = "#16402f"
_PANEL_EDGE = "#2f6b53"
_ACTING = "#f5c542"
_TEXT = "#f2efe6"
_DIM_TEXT = "#b9c9c0"
_GREY_FACE = "#d5d0c2"      # tsumogiri
_CALLED_EDGE = "#d9432f"


def _pillow() -> Any:
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError as exc:        # Pillow is a core dependency; a --no-deps install lacks it
        from gymnasium.error import DependencyNotInstalled
        raise DependencyNotInstalled('render_mode="rgb_array" draws with Pillow: '
                                     'pip install pillow') from exc
    return Image, ImageDraw, ImageFont


@lru_cache(maxsize=None)
def _font(size: int) -> Any:
    return _pillow()[2].load_default(size=size)


@lru_cache(maxsize=None)
def _tile(tile: int | None, width: int, height: int, style: str = "face",
          sideways: bool = False) -> Any:
    """One tile as an RGBA image: ``tile`` None is a face-down tile; ``style`` ``"face"``,
    ``"grey"`` (tsumogiri) or ``"called"`` (claimed away from the river)."""
    Image, ImageDraw, _ = _pillow()
    img = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    box = (0, 0, width - 1, height - 1)
    if tile is None:
        d.rounded_rectangle(box, radius=3, fill=BACK_FILL, outline=FACE_EDGE)
    else:
        face = FACES[tile]
        d.rounded_rectangle(box, radius=3, fill=_GREY_FACE if style == "grey" else FACE_FILL,
                            outline=FACE_EDGE)
        if face.frame:
            d.rectangle((width * .22, height * .16, width * .78, height * .62), outline=face.ink,
                        width=2)
        d.text((width / 2, height * .39), face.label, fill=face.ink, anchor="mm",
               font=_font(int(height * .5)))
        d.text((width / 2, height * .83), face.name, fill=face.ink, anchor="mm",
               font=_font(max(8, int(height * .25))))
        if style == "called":         # darkened (composited, not painted over) with a red edge
            shade = Image.new("RGBA", img.size, (0, 0, 0, 0))
            ImageDraw.Draw(shade).rounded_rectangle(box, radius=3, fill=(0, 0, 0, 120),
                                                    outline=_CALLED_EDGE, width=2)
            img = Image.alpha_composite(img, shade)
    return img.rotate(90, expand=True) if sideways else img


# A cell is (tile or None, style, sideways); a group is a list of cells kept on one row.
Cell = tuple[Any, str, bool]


def _flow(img: Any, groups: Sequence[Sequence[Cell]], x0: int, y: int, x_max: int,
          size: tuple[int, int], gap: int, x: int | None = None) -> tuple[int, int]:
    """Paste tile groups left to right from ``x`` (default ``x0``) on the row at ``y``,
    wrapping to ``x0`` at ``x_max``; returns ``(x, y)`` where the next group would go."""
    w, h = size
    x = x0 if x is None else x
    for group in groups:
        width = sum(h if side else w for _, _, side in group) + len(group) - 1
        if x > x0 and x + width > x_max:
            x, y = x0, y + h + 4
        for tile, style, side in group:
            im = _tile(tile, w, h, style, side)
            img.paste(im, (x, y + h - im.height), im)
            x += im.width + 1
        x += gap
    return x, y


def _meld_cells(meld: Meld) -> list[Cell]:
    if meld.kind == "ankan":           # concealed kan: the outer tiles face down
        t = meld.tiles[0]
        return [(None, "face", False), (t, "face", False), (t, "face", False),
                (None, "face", False)]
    marked = False
    cells = []
    for t in meld.tiles:
        side = not marked and meld.called is not None and t == meld.called
        marked = marked or side
        cells.append((t, "face", side))
    return cells


def _pond_cells(pond: Sequence[PondTile]) -> list[list[Cell]]:
    return [[(p.tile, "called" if p.called else "grey" if p.tsumogiri else "face", False)]
            for p in pond]


def _panel(img: Any, d: Any, hand: Hand, seat: int, drawn: int | None, acting: bool) -> None:
    x0, y0, x1, y1 = _PANELS[seat]
    d.rounded_rectangle((x0 + 4, y0 + 4, x1 - 4, y1 - 4), radius=8, fill=_PANEL_FILL,
                        outline=_ACTING if acting else _PANEL_EDGE, width=3 if acting else 1)
    left, right = x0 + 14, x1 - 14
    wind = (seat - hand.dealer) % 4
    head = f"seat {seat}  {WIND_NAMES[wind]}{'  dealer' if seat == hand.dealer else ''}"
    d.text((left, y0 + 12), head, fill=_ACTING if acting else _TEXT, font=_font(16))
    score = f"{hand.scores_after[seat]:+d}{'  furiten' if hand.furiten(seat) else ''}"
    d.text((right, y0 + 12), score, fill=_TEXT, anchor="ra", font=_font(16))
    tiles = list(hand.concealed(seat))
    if drawn is not None and drawn in tiles:
        tiles.remove(drawn)
    else:
        drawn = None
    x, y = _flow(img, [[(t, "face", False)] for t in tiles], left, y0 + 38, right, HAND_TILE, 0)
    if drawn is not None:             # the tile just drawn, set apart
        x, y = _flow(img, [[(drawn, "face", False)]], left, y, right, HAND_TILE, 0, x=x + 9)
    y += HAND_TILE[1] + 8
    melds = [_meld_cells(m) for m in hand.melds(seat)]
    if melds:
        y = _flow(img, melds, left, y, right, SMALL_TILE, 8)[1] + SMALL_TILE[1] + 6
    d.text((left, y), "river", fill=_DIM_TEXT, font=_font(12))
    _flow(img, _pond_cells(hand.pond(seat)), left, y + 16, right, SMALL_TILE, 0)


def _centre(d: Any, hand: Hand, to_act: Sequence[int]) -> None:
    x0, y0, x1, y1 = _CENTRE
    d.rounded_rectangle((x0 + 4, y0 + 4, x1 - 4, y1 - 4), radius=8, fill="#0f2e22",
                        outline=_PANEL_EDGE)
    lines = table_status(hand, "ascii")
    if hand.result is None and to_act:
        lines.append("to act: " + ", ".join(f"seat {s}" for s in to_act))
    y = y0 + 16
    for i, line in enumerate(lines):
        d.text((x0 + 18, y), line, fill=_TEXT if i < 2 else _DIM_TEXT,
               font=_font(16 if i < 2 else 14))
        y += 24 if i < 2 else 19
        if y > y1 - 20:
            break


def draw_table(hand: Hand, *, to_act: Sequence[int] = ()) -> np.ndarray:
    """The open table as an RGB ``uint8`` array of shape ``(HEIGHT, WIDTH, 3)``."""
    Image, ImageDraw, _ = _pillow()
    img = Image.new("RGB", (WIDTH, HEIGHT), TABLE_FELT)
    d = ImageDraw.Draw(img)
    drawn_seat, drawn = drawn_tile(hand)
    for seat in range(4):
        _panel(img, d, hand, seat, drawn if seat == drawn_seat else None, seat in to_act)
    _centre(d, hand, to_act)
    return np.array(img, dtype=np.uint8)
