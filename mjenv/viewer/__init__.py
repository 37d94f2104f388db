"""The browser replay viewer: a game log as one self-contained HTML page (``mjenv view``).

``page(events, title=..., seat=None)`` verifies the log with the engine, computes a frame per
event (``mjenv.viewer.frames``) and returns the page: the frames as JSON, the tiles as inline
SVG symbols drawn from ``mjenv.faces`` (the same faces as the env's ``rgb_array`` frames), and
the CSS and script of this package inlined — nothing is fetched, so the file opens offline
and can be mailed or attached to an issue as it is.

The page shows the four hands (all open, or as one seat saw them: the others' concealed tiles
face down, their draws and the claim windows and answers that seat never learnt left out),
melds with the claimed tile sideways, rivers with tsumogiri and claimed tiles marked, scores,
the live wall, every event including claim windows and passes, and at each hand's end the yaku
breakdown and the payments. Buttons and keys step one event, jump a hand, or go to either end.
"""

from __future__ import annotations

import html
import json
import re
from importlib import resources
from typing import Any

from mjenv.faces import BACK_FILL, FACE_EDGE, FACE_FILL, FACES
from mjenv.viewer.frames import build

#: Marks a page as written by ``mjenv view``, which may then overwrite it.
GENERATOR = '<meta name="generator" content="mjenv view">'


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def tile_symbols() -> str:
    """One SVG ``<symbol>`` per tile face (``t0``…``t33``), each also lying sideways
    (``r0``…``r33``), and the back (``tb``)."""
    out = []
    for t, face in enumerate(FACES):
        frame = (f'<rect x="7" y="6" width="16" height="19" fill="none" stroke="{face.ink}" '
                 f'stroke-width="2"/>' if face.frame else "")
        out.append(
            f'<symbol id="t{t}" viewBox="0 0 30 42"><rect x=".5" y=".5" width="29" height="41" '
            f'rx="3" fill="{FACE_FILL}" stroke="{FACE_EDGE}"/>{frame}'
            f'<text x="15" y="16" font-size="20" font-weight="700" fill="{face.ink}" '
            f'text-anchor="middle" dominant-baseline="central" '
            f'font-family="Arial, Helvetica, sans-serif">{html.escape(face.label)}</text>'
            f'<text x="15" y="35" font-size="9" fill="{face.ink}" text-anchor="middle" '
            f'dominant-baseline="central" font-family="Arial, Helvetica, sans-serif">'
            f'{face.name}</text></symbol>'
            f'<symbol id="r{t}" viewBox="0 0 42 30"><use href="#t{t}" width="30" height="42" '
            f'transform="translate(0 30) rotate(-90)"/></symbol>')
    out.append(f'<symbol id="tb" viewBox="0 0 30 42"><rect x=".5" y=".5" width="29" '
               f'height="41" rx="3" fill="{BACK_FILL}" stroke="{FACE_EDGE}"/></symbol>')
    return "\n".join(out)


def _json_for_script(data: Any) -> str:
    """JSON that cannot end its ``<script>`` element early."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def page(events: list[dict], *, title: str = "", seat: int | None = None) -> str:
    """The viewer page of a hand or match log (``ReplayError`` if the engine disagrees with
    it). ``seat``: open the page as that seat saw the game (the reader can switch)."""
    data = build(events, title=title)
    data["view"] = seat
    parts = {"GENERATOR": GENERATOR,
             "TITLE": html.escape(f"mjenv replay · {title}" if title else "mjenv replay"),
             "CSS": _asset("viewer.css"), "SYMBOLS": tile_symbols(),
             "DATA": _json_for_script(data), "JS": _asset("viewer.js")}
    return re.sub(r"\{\{(\w+)\}\}", lambda m: parts[m.group(1)], _asset("page.html"))


__all__ = ["GENERATOR", "build", "page", "tile_symbols"]
