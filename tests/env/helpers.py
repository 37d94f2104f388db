"""Shared helpers for the environment tests: a tiny uniform-random agent driven only by the mask,
and a sampler of engine states reached by random play."""

from __future__ import annotations

from typing import Iterator

import numpy as np

from mjenv.env.actions import decode_action, legal_ids
from mjenv.game import Hand


class RandomAgent:
    """Uniform over the set bits of the mask (the agent protocol of ``agents/base.py``)."""

    name = "test-random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, mask: np.ndarray, view: object) -> int:
        return int(self.rng.choice(np.flatnonzero(mask)))

    def act_batch(self, observations, masks, views) -> np.ndarray:
        return np.array([self.act(o, m, v) for o, m, v in zip(observations, masks, views)])


def pick(rng: np.random.Generator, mask: np.ndarray) -> int:
    """A uniform legal id; 0 for an all-zero mask (the terminal step of a vector env)."""
    legal = np.flatnonzero(mask)
    return int(rng.choice(legal)) if legal.size else 0


def random_states(seed: int, hands: int) -> Iterator[tuple[Hand, int]]:
    """(hand, seat to act) at every decision of ``hands`` randomly played hands."""
    rng = np.random.default_rng(seed)
    for _ in range(hands):
        hand = Hand(seed=int(rng.integers(2**63)))
        while not hand.over:
            seat = hand.to_act[0]
            yield hand, seat
            view = hand.view(seat)
            ids = legal_ids(view)
            hand.step(seat, decode_action(ids[int(rng.integers(len(ids)))], view))


def tenhou_wall(seed: int = 0) -> list[int]:
    """An explicit wall (RULES.md §2 order) whose dealer wins on its first draw (天胡):
    dealt ``123m456m789m123p5p``, first draw ``5p``; the other tiles shuffled."""
    from mjenv.tiles import parse_tiles

    dealer = parse_tiles("123m456m789m123p5p")
    first = parse_tiles("5p")
    rest = [t for t in range(34) for _ in range(4)]
    for t in dealer + first:
        rest.remove(t)
    np.random.default_rng(seed).shuffle(rest)
    return dealer + rest[:39] + first + rest[39:]
