"""SingleAgentEnv — one learner seat against three fixed policies, as a plain Gymnasium env.

``mjenv.SingleAgentEnv(opponents=[a, b, c])``: the opponents are objects of the agent protocol
(``agents/base.py``: ``act(observation, mask, view) -> int``); ``opponents[k]`` plays the
seat ``k + 1`` places after the learner in turn order. Every ``step`` is one learner decision;
the opponents' decisions in between are played inside ``step``.

Observation Space
-----------------
As ``mjenv.MahjongEnv``: ``{"observation": float32 (NUM_PLANES, 34), "action_mask":
int8[110]}`` from the learner's view (``docs/observation.md``); ``info["view"]`` is that view.

Legal Actions Mask
------------------
``obs["action_mask"]`` (1 exactly where ``step`` accepts the id); ``action_masks()`` returns it
as bool for sb3-contrib's MaskablePPO.

Action Space
------------
``Discrete(110)`` (``docs/actions.md``).

Rewards
-------
The learner's game-score change since its previous decision, times ``reward_scale`` (default
0.01): non-zero on the step during which a hand is settled, whoever's decision settled it.
The return of an episode is therefore the learner's score change over the hand (or, with
``episode="match"``, its final match score) times the scale. ``info["rewards"]`` holds the
four seats' unscaled changes during the step. An illegal learner action gives
``illegal_penalty`` (−1.0) and ends the episode (``illegal_action="raise"``: raises instead);
an illegal *opponent* action always raises ``IllegalActionError`` naming the opponent.

Episode End
-----------
``terminated`` when the hand (default) or the match ends, or at an illegal learner action.
A hand that ends before the learner's first decision (a 天胡 by the dealer, or a ron on the
first discards while the learner has no claim) teaches nothing: in hand mode it is dealt
again (a new shuffle; with a new random context under ``hand_context="random"``) and
``info["redeals"]`` on ``reset`` counts how often that happened. With an explicit
``options["wall"]`` such a hand raises ``ValueError`` instead (the same wall would repeat).
In match mode hands simply continue; score changes from hands finished before the learner's
first decision are added to its first reward.

Vector environments: works in ``gymnasium.vector.SyncVectorEnv`` and ``AsyncVectorEnv``
(opponents must then be picklable). The env assumes Gymnasium 1.x's default autoreset mode
``NEXT_STEP``: after a terminal step the vector env's next ``step`` call resets the sub-env
and ignores that action (the terminal observation's mask is all zero, so mask-driven samplers
pick id 0 there).

Arguments
---------
``opponents`` (three agents), ``rules``, ``learner_seat`` (``None``: uniform random per
episode from the env's ``np_random``; or a fixed seat 0–3), ``episode``, ``hand_context``,
``illegal_action``, ``reward_scale``, ``illegal_penalty``, ``render_mode``, ``tile_style``,
``max_redeals`` (1000; a ``RuntimeError`` beyond it). ``reset`` options: those of
``MahjongEnv`` plus ``learner_seat`` for this episode.

``info``: ``seat`` (learner seat), ``view``, ``rewards``, ``redeals`` (on reset), ``result``
(the last ``HandResult`` on a step that settled a hand).

Version History
---------------
- v0: initial release.
"""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from mjenv.env.actions import NUM_ACTIONS
from mjenv.env.core import ILLEGAL_PENALTY, REWARD_SCALE, Table, as_id, illegal_message
from mjenv.env.gym_env import observation_space
from mjenv.env.render import TILE_STYLES
from mjenv.game import HandResult, IllegalActionError
from mjenv.rules import RuleConfig


class SingleAgentEnv(gym.Env):
    """One learner against three agents; see the module docstring."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(self, opponents: Sequence[Any], rules: RuleConfig = RuleConfig(), *,
                 learner_seat: int | None = None, episode: str = "hand",
                 hand_context: str = "fixed", illegal_action: str = "penalize",
                 reward_scale: float = REWARD_SCALE, illegal_penalty: float = ILLEGAL_PENALTY,
                 render_mode: str | None = None, tile_style: str = "unicode",
                 max_redeals: int = 1000) -> None:
        opponents = list(opponents)
        if len(opponents) != 3 or not all(callable(getattr(o, "act", None)) for o in opponents):
            raise ValueError(f"opponents must be three agents with act(observation, mask, view), "
                             f"got {opponents!r}")
        _check_seat(learner_seat)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        if tile_style not in TILE_STYLES:
            raise ValueError(f"tile_style must be one of {TILE_STYLES}, got {tile_style!r}")
        self.opponents = opponents
        self.table = Table(rules, episode=episode, hand_context=hand_context,
                           illegal_action=illegal_action, reward_scale=reward_scale,
                           illegal_penalty=illegal_penalty)
        self.learner_seat = learner_seat
        self.seat = learner_seat if learner_seat is not None else 0
        self.max_redeals = max_redeals
        self.render_mode = render_mode
        self.tile_style = tile_style
        self.observation_space = observation_space()
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._carry = [0, 0, 0, 0]

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        opts = dict(options or {})
        seat_opt = opts.pop("learner_seat", self.learner_seat)
        _check_seat(seat_opt)
        redeals = 0
        while True:
            self.seat = seat_opt if seat_opt is not None else int(self.np_random.integers(4))
            self.table.reset(self.np_random, opts)
            deltas, _ = self._advance()
            if not self.table.done:
                break
            if "wall" in opts:
                raise ValueError("the hand dealt from options['wall'] ends before the learner "
                                 f"(seat {self.seat}) decides anything; choose another wall")
            redeals += 1
            if redeals > self.max_redeals:
                raise RuntimeError(f"{redeals} hands in a row ended before the learner's first "
                                   f"decision")
        self._carry = deltas
        obs, info = self._observe([0, 0, 0, 0])
        info["redeals"] = redeals
        if self.render_mode == "human":
            self.render()
        return obs, info

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        out = self.table.play(action)
        if out.illegal:
            obs, info = self._observe([0, 0, 0, 0])
            return obs, float(self.table.illegal_penalty), True, False, info
        deltas = [c + d for c, d in zip(self._carry, out.deltas)]
        self._carry = [0, 0, 0, 0]
        result = out.result
        if not out.done:
            more, last = self._advance()
            deltas = [a + b for a, b in zip(deltas, more)]
            result = last or result
        obs, info = self._observe(deltas)
        if result is not None:
            info["result"] = result
        if self.render_mode == "human":
            self.render()
        reward = deltas[self.seat] * self.table.reward_scale
        return obs, float(reward), self.table.done, False, info

    def _advance(self) -> tuple[list[int], HandResult | None]:
        """Let the opponents act until the learner must decide or the episode ends."""
        table = self.table
        deltas = [0, 0, 0, 0]
        result = None
        while not table.done and table.seat != self.seat:
            seat = table.seat
            opponent = self.opponents[(seat - self.seat) % 4 - 1]
            obs, view = table.observe(seat)
            aid = opponent.act(obs["observation"], obs["action_mask"], view)
            i = as_id(aid)
            if i is None or not obs["action_mask"][i]:
                raise IllegalActionError(f"opponent {getattr(opponent, 'name', opponent)!s} "
                                         f"(seat {seat}): {illegal_message(view, aid)}")
            out = table.play(i)
            deltas = [a + b for a, b in zip(deltas, out.deltas)]
            result = out.result or result
        return deltas, result

    def _observe(self, rewards: list[int]) -> tuple[dict, dict]:
        obs, view = self.table.observe(self.seat)
        return obs, {"seat": self.seat, "rewards": rewards, "view": view}

    def action_masks(self) -> np.ndarray:
        """The learner's legal-action mask as bool[110] (sb3-contrib ``MaskablePPO``)."""
        return self.table.mask().astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode")
            return None
        text = self.table.render(self.tile_style)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None


def _check_seat(seat: Any) -> None:
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, (int, np.integer))
                             or not 0 <= seat <= 3):
        raise ValueError(f"learner_seat must be None or a seat 0–3, got {seat!r}")
