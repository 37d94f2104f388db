"""mjenv: rule engine and reinforcement-learning environments for 海森林 competitive mahjong.

Public names are loaded lazily (PEP 562) so that ``import mjenv`` stays cheap and a script that
only scores hands never imports the game engine or gymnasium.
"""

from __future__ import annotations

from mjenv._lazy import lazy_exports

__version__ = "0.1.0"

_EXPORTS = {
    "RuleConfig": "mjenv.rules",
    "Meld": "mjenv.tiles",
    "parse_tiles": "mjenv.tiles",
    "score_hand": "mjenv.scoring",
    "NotWinningHand": "mjenv.scoring",
    "ScoreResult": "mjenv.scoring",
    "waits": "mjenv.analysis",
    "shanten": "mjenv.analysis",
    "Action": "mjenv.game",
    "Hand": "mjenv.game",
    "Match": "mjenv.game",
    "IllegalActionError": "mjenv.game",
    "PlayerView": "mjenv.game",
    "replay": "mjenv.game",
    "MahjongEnv": "mjenv.env",
    "SingleAgentEnv": "mjenv.env",
}

__all__ = sorted(_EXPORTS) + ["__version__", "register_envs"]
__getattr__, __dir__ = lazy_exports("mjenv", _EXPORTS, globals())


def register_envs() -> None:
    """Register ``mjenv/Mahjong-v0`` with Gymnasium (idempotent). Runs on ``import mjenv`` so
    that ``gymnasium.make("mjenv/Mahjong-v0")`` works; the entry point is a string, so the
    environment modules load only when an environment is made."""
    import gymnasium

    if "mjenv/Mahjong-v0" not in gymnasium.registry:
        gymnasium.register(id="mjenv/Mahjong-v0", entry_point="mjenv.env.gym_env:MahjongEnv")


register_envs()
