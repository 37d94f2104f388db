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

__all__ = sorted(_EXPORTS) + ["ENV_IDS", "__version__", "register_envs"]
__getattr__, __dir__ = lazy_exports("mjenv", _EXPORTS, globals())


#: The Gymnasium ids this package registers, and their entry points (strings: the environment
#: modules load only when an environment is made).
ENV_IDS = {
    "mjenv/Mahjong-v0": "mjenv.env.gym_env:MahjongEnv",
    "mjenv/MahjongSingle-v0": "mjenv.env.single:SingleAgentEnv",
}
#: Native vector envs (``gymnasium.make_vec(id, num_envs=N)``), by id.
VECTOR_ENTRY_POINTS = {"mjenv/MahjongSingle-v0": "mjenv.env.vector:MahjongVectorEnv"}


def register_envs() -> None:
    """Register ``mjenv/Mahjong-v0`` (four seats, ``mjenv.MahjongEnv``) and
    ``mjenv/MahjongSingle-v0`` (one learner against three agents, ``mjenv.SingleAgentEnv``) with
    Gymnasium (idempotent). Runs on ``import mjenv`` so that ``gymnasium.make`` knows both ids."""
    import gymnasium

    for env_id, entry_point in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry_point,
                               vector_entry_point=VECTOR_ENTRY_POINTS.get(env_id))


register_envs()
