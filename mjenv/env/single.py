"""SingleAgentEnv — one learner seat against three fixed policies, as a plain Gymnasium env.

``mjenv.SingleAgentEnv(opponents="heuristic")``, or ``gymnasium.make("mjenv/MahjongSingle-v0",
opponents="heuristic")``. ``opponents`` is one agent spec for all three (``"random"``,
``"heuristic"``, ``"ppo:pretrained"``, ``"ppo:PATH"`` … as everywhere else: ``agents.make_agent``)
or a list of three, each a spec or an object of the agent protocol (``agents/base.py``:
``act(observation, mask, view) -> int``); ``opponents[k]`` plays the seat ``k + 1`` places after
the learner in turn order. Every ``step`` is one learner decision; the opponents' decisions in
between are played inside ``step``.

Observation Space
-----------------
``observation="planes"`` (default): ``Box(float32, (NUM_PLANES, 34))``, the learner's planes
alone (``docs/observation.md``), so single-agent libraries take it as it is
(``MaskablePPO("MlpPolicy", env)``). ``observation="dict"``: as ``mjenv.MahjongEnv``,
``{"observation": float32 (NUM_PLANES, 34), "action_mask": int8[110]}``. ``info["view"]`` is the
learner's ``PlayerView``.

Legal Actions Mask
------------------
``action_masks()`` returns it as bool[110] (sb3-contrib's MaskablePPO calls it);
``info["action_mask"]`` holds it as int8[110] (Gymnasium's Taxi convention), and with
``observation="dict"`` so does ``obs["action_mask"]``. 1 exactly where ``step`` accepts the id.

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

Vector environments: ``gymnasium.make_vec("mjenv/MahjongSingle-v0", num_envs=N)`` builds the
native one (``mjenv.env.vector.MahjongVectorEnv``: the same tables, observations in
preallocated arrays, network opponents' decisions batched); the env also works in
``gymnasium.vector.SyncVectorEnv`` and ``AsyncVectorEnv`` (opponent objects must then be
picklable; specs are built in each process), and in SB3's ``make_vec_env`` or
``mjenv.env.sb3.MahjongVecEnv`` (``docs/sb3.md``). The env assumes Gymnasium 1.x's default
autoreset mode ``NEXT_STEP``: after a terminal step the vector env's next ``step`` call resets
the sub-env and ignores that action (the terminal mask is all zero, so mask-driven samplers
pick id 0 there).

Arguments
---------
``opponents`` (default ``"heuristic"``), ``rules`` and the plain keyword rule options
(``min_points=8``; as for ``MahjongEnv``), ``learner_seat`` (``None``: uniform random per
episode from the env's ``np_random``; or a fixed seat 0–3), ``observation`` (``"planes"`` or
``"dict"``), ``episode``, ``hand_context``, ``illegal_action``, ``reward_scale``,
``illegal_penalty``, ``render_mode`` (``"ansi"``, ``"human"``, ``"rgb_array"``: the whole
table, as for ``MahjongEnv``), ``tile_style``, ``max_redeals`` (1000; a ``RuntimeError``
beyond it). ``reset`` options: those of ``MahjongEnv`` plus ``learner_seat`` for this episode.

Opponents that observe the event log (``cmd:`` programs, ``agents.external``) are shown it
after every step, as ``mjenv.env.play.play`` does.

Determinism: every ``reset`` reseeds each opponent that has ``reseed(seed)`` (all built-in
agents) from the env's ``np_random``, so the same ``reset`` seed and the same learner actions
give the same episodes.

``info``: ``seat`` (learner seat), ``view``, ``action_mask``, ``rewards``, ``redeals`` (on
reset), ``result`` (the last ``HandResult`` on a step that settled a hand).

Version History
---------------
- v0: initial release (``mjenv/MahjongSingle-v0``): the planes ``Box`` as the default
  observation (``observation="dict"`` gives the earlier ``Dict``), opponent specs, the
  ``"heuristic"`` default, per-reset opponent reseeding, ``render_mode="rgb_array"``.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from mjenv.env.actions import NUM_ACTIONS
from mjenv.env.core import ILLEGAL_PENALTY, REWARD_SCALE
from mjenv.env.display import METADATA, TableEnv
from mjenv.env.gym_env import observation_space
from mjenv.env.learner import LearnerTable, advance, check_seat, make_opponents
from mjenv.rules import RuleConfig

SINGLE_ENV_ID = "mjenv/MahjongSingle-v0"
OBSERVATIONS = ("planes", "dict")


class SingleAgentEnv(TableEnv, gym.Env):
    """One learner against three agents; see the module docstring."""

    metadata = dict(METADATA)

    def __init__(self, opponents: str | Sequence[Any] = "heuristic",
                 rules: RuleConfig | Mapping[str, Any] | None = None, *,
                 learner_seat: int | None = None, observation: str = "planes",
                 episode: str = "hand", hand_context: str = "fixed",
                 illegal_action: str = "penalize", reward_scale: float = REWARD_SCALE,
                 illegal_penalty: float = ILLEGAL_PENALTY, render_mode: str | None = None,
                 tile_style: str = "unicode", max_redeals: int = 1000,
                 **rule_options: Any) -> None:
        check_seat(learner_seat)
        check_observation(observation)
        self._open_table(rules, rule_options, render_mode=render_mode, tile_style=tile_style,
                         episode=episode, hand_context=hand_context,
                         illegal_action=illegal_action, reward_scale=reward_scale,
                         illegal_penalty=illegal_penalty)
        self.game = LearnerTable(self.table, make_opponents(opponents), learner_seat,
                                 max_redeals)
        self.observation = observation
        self.observation_space = observation_space()
        if observation == "planes":
            self.observation_space = self.observation_space["observation"]
        self.action_space = spaces.Discrete(NUM_ACTIONS)

    @property
    def opponents(self) -> list[Any]:
        return self.game.opponents

    @property
    def seat(self) -> int:
        """The learner's seat in this episode."""
        return self.game.seat

    @property
    def learner_seat(self) -> int | None:
        return self.game.learner_seat

    @property
    def max_redeals(self) -> int:
        return self.game.max_redeals

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        opts = dict(options or {})
        seat = opts.pop("learner_seat", self.game.learner_seat)
        check_seat(seat)
        redeals = 0
        while True:
            self.game.deal(self.np_random, opts, seat)
            advance(self.game)
            if self.game.dealt(opts, redeals):
                break
            redeals += 1
        obs, info = self._observe([0, 0, 0, 0])
        info["redeals"] = redeals
        self._redraw()
        return obs, info

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        out = self.game.play(action)
        if out.illegal:
            obs, info = self._observe([0, 0, 0, 0])
            return obs, float(self.table.illegal_penalty), True, False, info
        advance(self.game)
        deltas, result = self.game.take()
        obs, info = self._observe(deltas)
        if result is not None:
            info["result"] = result
        self._redraw()
        reward = deltas[self.game.seat] * self.table.reward_scale
        return obs, float(reward), self.table.done, False, info

    def _observe(self, rewards: list[int]) -> tuple[Any, dict]:
        obs, view = self.table.observe(self.game.seat)
        info = {"seat": self.game.seat, "rewards": rewards, "view": view,
                "action_mask": obs["action_mask"].copy()}
        return (obs["observation"] if self.observation == "planes" else obs), info

    def action_masks(self) -> np.ndarray:
        """The learner's legal-action mask as bool[110] (sb3-contrib ``MaskablePPO``)."""
        return self.table.mask().astype(bool)


def check_observation(observation: str) -> None:
    if observation not in OBSERVATIONS:
        raise ValueError(f"observation must be one of {', '.join(map(repr, OBSERVATIONS))}, "
                         f"got {observation!r}")
