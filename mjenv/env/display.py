"""``render()`` of the three environments, written once: the render modes, the checks of the
constructor arguments that choose them, and the one path from a mode to a frame.

- ``"ansi"``: ``render()`` returns the table as text (``mjenv.env.render.render_table``);
- ``"human"``: the same text is printed on every ``reset`` and ``step`` (``render()`` too);
- ``"rgb_array"``: ``render()`` returns the table as an RGB ``uint8`` array of shape
  ``(720, 1280, 3)`` (``mjenv.env.image.draw_table``), for ``gymnasium.wrappers.RecordVideo``.

Each is an observer's view of the whole table (every concealed hand shown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import gymnasium

from mjenv.env.render import TILE_STYLES

if TYPE_CHECKING:
    from mjenv.env.core import Table

RENDER_MODES = ("ansi", "human", "rgb_array")
RENDER_FPS = 4
METADATA: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": RENDER_FPS}


def check_render_args(render_mode: str | None, tile_style: str) -> None:
    """``ValueError`` naming the accepted values for a bad ``render_mode`` or ``tile_style``."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None or one of {', '.join(map(repr, RENDER_MODES))}"
                         f", got {render_mode!r}")
    if tile_style not in TILE_STYLES:
        raise ValueError(f"tile_style must be one of {', '.join(map(repr, TILE_STYLES))}, "
                         f"got {tile_style!r}")


class TableRendering:
    """Mixin giving an environment that plays through ``self.table`` its ``render()``."""

    table: Table
    render_mode: str | None
    tile_style: str

    def render(self) -> Any:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode: pass render_mode="
                                  + " or ".join(map(repr, RENDER_MODES)) + " when making the env")
            return None
        frame = self.table.render(self.render_mode, self.tile_style)
        if self.render_mode == "human":
            print(frame)
            return None
        return frame
