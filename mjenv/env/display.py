"""What the three environments share on top of :class:`~mjenv.env.core.Table`, written once
(:class:`TableEnv`): the table made from their common arguments, ``rules``, and ``render()`` —
the render modes, the checks of the constructor arguments that choose them, and the one path
from a mode to a frame.

- ``"ansi"``: ``render()`` returns the table as text (``mjenv.env.render.render_table``);
- ``"human"``: the same text is printed on every ``reset`` and ``step`` (``render()`` too);
- ``"rgb_array"``: ``render()`` returns the table as an RGB ``uint8`` array of shape
  ``(720, 1280, 3)`` (``mjenv.env.image.draw_table``), for ``gymnasium.wrappers.RecordVideo``.

Each is an observer's view of the whole table (every concealed hand shown).
"""

from __future__ import annotations

from typing import Any, Mapping

import gymnasium

from mjenv.env.core import Table
from mjenv.env.render import TILE_STYLES
from mjenv.rules import RuleConfig, rule_config

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


class TableEnv:
    """Mixin of an environment that plays through ``self.table``: the table made from the
    common arguments (``_open_table``), ``rules``, ``render()`` and the ``"human"`` redraw
    after every ``reset`` and ``step`` (``_redraw``)."""

    table: Table
    render_mode: str | None
    tile_style: str

    def _open_table(self, rules: RuleConfig | Mapping[str, Any] | None,
                    rule_options: Mapping[str, Any], *, render_mode: str | None,
                    tile_style: str, **table_options: Any) -> None:
        """Check the arguments and make ``self.table`` (``table_options``: ``Table``'s)."""
        check_render_args(render_mode, tile_style)
        self.table = Table(rule_config(rules, **rule_options), **table_options)
        self.render_mode = render_mode
        self.tile_style = tile_style

    @property
    def rules(self) -> RuleConfig:
        return self.table.rules

    def _redraw(self) -> None:
        if self.render_mode == "human":
            self.render()

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
