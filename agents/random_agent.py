"""Uniform-random baseline: the floor every learned policy must clear."""

from __future__ import annotations

import numpy as np

from agents.base import BaseAgent
from mjenv.game.view import PlayerView


class RandomAgent(BaseAgent):
    """Picks uniformly among the legal actions of the mask, from its own seeded generator.

    It never looks at the observation planes, so harnesses may skip encoding them
    (``needs_observation = False``).
    """

    name = "random"
    needs_observation = False

    def __init__(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def reseed(self, seed: int | None) -> None:
        """Restart the generator: the evaluation harness seeds every hand, not every worker."""
        self._rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray | None, mask: np.ndarray, view: PlayerView | None) -> int:
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("random agent: the action mask has no legal action")
        return int(legal[self._rng.integers(legal.size)])
