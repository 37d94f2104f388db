"""``PPOAgent``: a trained network behind the agent protocol of ``agents.base``, with batched
inference, and the policies shipped with the package.

The network is ``agents.network``; the files it is read from, ``agents.checkpoint_file``. The
shipped checkpoints are ``agents/pretrained/ppo.pt`` (``ppo:pretrained``) and
``agents/pretrained/bc.pt`` (``ppo:pretrained-bc``); docs/training.md says how each was made.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import replace
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import torch

from agents.base import BaseAgent
from agents.checkpoint_file import CheckpointError, read_policy
from agents.network import (InputBuilder, PolicyNet, masked_logits, pick_device,
                            sample_masked)
from mjenv.game.view import PlayerView
from mjenv.rules import RuleConfig

PRETRAINED_PATH = Path(__file__).resolve().parent / "pretrained" / "ppo.pt"
#: The policies shipped with the package, by the name their ``ppo:`` spec gives them: the PPO
#: model and the behaviour clone of the (tuned) heuristic that self-play starts from
#: (docs/training.md says how each was made).
SHIPPED = {"pretrained": PRETRAINED_PATH, "pretrained-bc": PRETRAINED_PATH.with_name("bc.pt")}


@contextlib.contextmanager
def _few_threads(device: torch.device, batch: int):
    """One torch thread for small CPU batches. A forward pass over a handful of observations
    is far too small to split, and on a busy machine the thread pool's synchronisation costs
    more than the work (measured: batch 1, 2 threads 24 ms vs 1 thread 1 ms under load)."""
    if device.type != "cpu" or batch > 64 or torch.get_num_threads() == 1:
        yield
        return
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)



class PPOAgent(BaseAgent):
    """A trained policy behind the agent protocol.

    ``greedy=True`` (default) plays the most probable legal action — deterministic, which is
    what duplicate evaluation wants; ``greedy=False`` samples with a ``seed``-ed generator.
    ``rules`` are the rules it was trained under; ``act_batch`` refuses views of other rules
    (``rounds``, the match length, aside) unless ``allow_other_rules``: a policy trained at one
    ``min_points`` has never seen the win/claim patterns of another.
    """

    name = "ppo"

    def __init__(self, net: PolicyNet, *, rules: RuleConfig | None = None, greedy: bool = True,
                 seed: int | None = None, device: str | None = None,
                 allow_other_rules: bool = False, name: str = "ppo") -> None:
        self.device = pick_device(device)
        self.net = net.to(self.device).eval()
        self._inputs = InputBuilder(net.config)
        self.rules = rules
        self.greedy = greedy
        self.allow_other_rules = allow_other_rules
        self.name = name
        self._generator = torch.Generator(device=self.device)
        self.reseed(seed)

    @property
    def stochastic(self) -> bool:
        """Whether the seed matters (``agents.base``): only when sampling."""
        return not self.greedy

    def reseed(self, seed: int | None) -> None:
        """Seed the sampling generator (only used with ``greedy=False``)."""
        self._generator.manual_seed(0 if seed is None else int(seed))

    @classmethod
    def load(cls, path: str | os.PathLike, **kwargs: Any) -> "PPOAgent":
        """From a training checkpoint (``runs/NAME/latest.pt``) or a policy file."""
        policy = read_policy(path)
        kwargs.setdefault("name", f"ppo:{Path(path).name}")
        return cls(policy.build(), rules=policy.rules, **kwargs)

    @classmethod
    def pretrained(cls, which: str = "pretrained", **kwargs: Any) -> "PPOAgent":
        """A policy shipped with the package (``SHIPPED``; docs/training.md says how each was
        made): the PPO model, or with ``which="pretrained-bc"`` the behaviour clone."""
        path = SHIPPED[which]
        if not path.exists():
            raise CheckpointError(f"{path}: the shipped policy ppo:{which} is missing from this "
                                  f"installation")
        kwargs.setdefault("name", f"ppo:{which}")
        return cls.load(path, **kwargs)

    def act(self, observation: np.ndarray, mask: np.ndarray, view: PlayerView) -> int:
        return int(self.act_batch(observation[None], mask[None], [view])[0])

    @torch.no_grad()
    def act_batch(self, observations: np.ndarray, masks: np.ndarray,
                  views: Sequence[PlayerView]) -> np.ndarray:
        if self.rules is not None and not self.allow_other_rules:
            for view in views:
                # match length (rounds) does not change a deal, so it may differ
                if view.rules != self.rules and replace(view.rules, rounds=self.rules.rounds) != self.rules:
                    raise ValueError(f"{self.name} was trained under {self.rules} but seat "
                                     f"{view.seat} plays under {view.rules}; load it with "
                                     f"allow_other_rules=True to use it anyway")
        obs = torch.as_tensor(self._inputs(observations, views), device=self.device)
        mask = torch.as_tensor(np.asarray(masks), device=self.device).bool()
        if not bool(mask.any(-1).all()):
            raise ValueError(f"{self.name}: a mask with no legal action")
        with _few_threads(self.device, len(obs)):
            logits, _ = self.net.policy(obs)
        logits = masked_logits(logits, mask)
        if self.greedy:
            actions = logits.argmax(-1)
        else:
            actions = sample_masked(logits, self._generator)
        return actions.cpu().numpy().astype(np.int64)
