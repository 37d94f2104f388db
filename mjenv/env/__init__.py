"""The RL-facing layer: action ids, observation planes, and three ways to play.

- :class:`MahjongEnv` — Gymnasium, turn-based four seats (``mjenv/Mahjong-v0``);
- ``mjenv.pettingzoo.env()`` — PettingZoo AEC (:class:`~mjenv.env.aec.MahjongAEC`);
- :class:`SingleAgentEnv` — one learner against three agents, for single-agent libraries
  (``mjenv/MahjongSingle-v0``), and :class:`MahjongVectorEnv`, N of them stepped together
  (``gymnasium.make_vec("mjenv/MahjongSingle-v0", num_envs=N)``);

and :func:`~mjenv.env.play.play`, the one loop that plays a deal with agents in every seat (or
in some seats, the others left to their own drivers).

All three drive the engine through :class:`~mjenv.env.core.Table`, so rewards, masks and the
illegal-action policy are defined once, made from their arguments and rendered by
``mjenv.env.display.TableEnv``. Call
:func:`register_envs` (``import mjenv`` does) to make ``gymnasium.make`` know both ids.
"""

from __future__ import annotations

from mjenv.env.actions import NUM_ACTIONS, decode_action, encode_action, legal_mask
from mjenv.env.core import IllegalActionWarning
from mjenv.env.gym_env import ENV_ID, MahjongEnv
from mjenv.env.observation import NUM_PLANES, PLANES, encode
from mjenv.env.play import MaskedActionError, Step, play
from mjenv.env.single import SINGLE_ENV_ID, SingleAgentEnv
from mjenv.env.vector import MahjongVectorEnv

__all__ = [
    "ENV_ID", "IllegalActionWarning", "MahjongEnv", "MahjongVectorEnv", "MaskedActionError",
    "NUM_ACTIONS", "NUM_PLANES", "PLANES", "SINGLE_ENV_ID", "SingleAgentEnv", "Step",
    "decode_action", "encode", "encode_action", "legal_mask", "play", "register_envs",
]


def register_envs() -> None:
    """Register both Gymnasium ids (idempotent; ``import mjenv`` already does)."""
    import mjenv

    mjenv.register_envs()
