"""The agent protocol shared by the single-agent wrapper, the evaluation harness and the
PPO opponent pool.

An agent sees only what its seat may see: the encoded observation planes, the action mask
and the ``PlayerView``. It returns an action id of ``mjenv.env.actions``.
"""

from __future__ import annotations

from typing import Protocol, Sequence, runtime_checkable

import numpy as np

from mjenv.env.actions import legal_ids
from mjenv.game.actions import Action
from mjenv.game.view import PlayerView


@runtime_checkable
class Agent(Protocol):
    """Two optional attributes, read with ``getattr`` by drivers that honour them:

    - ``needs_observation: bool`` (default True): False lets a driver skip the plane encoder
      and pass ``observation=None`` — rule-based agents read only the view and the mask;
    - ``reseed(seed: int | None) -> None``: the evaluation harness reseeds every agent per hand,
      so results do not depend on how deals are split over worker processes;
    - ``stochastic: bool`` (default True): False promises that the agent's choices do not
      depend on its seed (a greedy network), so a driver may let one instance serve many
      concurrent deals (self-play batches them) instead of one reseeded instance per deal.
    """

    name: str

    def act(self, observation: np.ndarray, mask: np.ndarray, view: PlayerView) -> int:
        """One decision: ``observation`` float32 (C, 34), ``mask`` int8 (N,)."""
        ...

    def act_batch(self, observations: np.ndarray, masks: np.ndarray,
                  views: Sequence[PlayerView]) -> np.ndarray:
        """Many decisions at once (batched inference for neural agents)."""
        ...


def legal_in_mask(view: PlayerView, mask: np.ndarray, name: str
                  ) -> tuple[Sequence[Action], list[int]]:
    """The view's legal actions that ``mask`` allows and their ids, in the same order (the
    rules' own list where the mask allows all of it); ``ValueError`` naming the agent when it
    allows none."""
    allowed = mask.tolist()         # one conversion, not a numpy scalar per action
    ids = legal_ids(view)
    legal = view.legal
    if not all(map(allowed.__getitem__, ids)):      # a mask narrower than the rules
        legal = tuple([a for a, aid in zip(legal, ids) if allowed[aid]])
        ids = [aid for aid in ids if allowed[aid]]
        if not ids:
            raise ValueError(f"{name} agent: no legal action in the mask (seat {view.seat}, "
                             f"phase {view.phase})")
    return legal, ids


class BaseAgent:
    """Default ``act_batch`` that loops over ``act``; neural agents override it."""

    name = "agent"
    needs_observation = True

    def act(self, observation: np.ndarray, mask: np.ndarray, view: PlayerView) -> int:
        raise NotImplementedError

    def act_batch(self, observations: np.ndarray, masks: np.ndarray,
                  views: Sequence[PlayerView]) -> np.ndarray:
        return np.array([self.act(o, m, v) for o, m, v in zip(observations, masks, views)],
                        dtype=np.int64)
