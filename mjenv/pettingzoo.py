"""PettingZoo entry point: ``mjenv.pettingzoo.env()`` — the AEC environment, documented in
``mjenv.env.aec`` (``raw_env`` is the unwrapped class)."""

from mjenv.env.aec import AGENTS, MahjongAEC, env, raw_env

__all__ = ["AGENTS", "MahjongAEC", "env", "raw_env"]
