"""MahjongAEC — 海森林 competitive mahjong as a PettingZoo AEC environment.

``mjenv.pettingzoo.env(**kwargs)`` returns it wrapped in PettingZoo's ``OrderEnforcingWrapper``
(``raw_env`` is the bare class). Agents are ``player_0`` … ``player_3`` (seat 0 is the first
dealer); ``agent_selection`` is the seat to act, with claim windows asking only the seats that
have a legal claim, one at a time in ascending seat order.

Observation Space
-----------------
``observe(agent)`` = ``{"observation": float32 (NUM_PLANES, 34), "action_mask": int8[110]}``,
the same encoding as ``mjenv.MahjongEnv`` (planes in ``docs/observation.md``); the mask is all
zero for an agent that is not to act. ``infos[agent]["view"]`` is the agent's ``PlayerView``
(refreshed for the agent to act).

Legal Actions Mask
------------------
``obs["action_mask"]``: 1 exactly at the ids ``step`` accepts (``mjenv.env.actions.legal_mask``).

Action Space
------------
``Discrete(110)``, ids of ``mjenv.env.actions`` (``docs/actions.md``).

Rewards
-------
When a hand is settled every agent receives its game-score change times ``reward_scale``
(default 0.01); zero otherwise. An illegal action (``illegal_action="penalize"``, the
default, as PettingZoo's ``TerminateIllegalWrapper``) gives the offender ``illegal_penalty``
(−1.0), the others 0, ends the game for all and warns naming the action and the legal ones;
``illegal_action="raise"`` raises ``IllegalActionError`` instead.

Episode End
-----------
All agents terminate together when the hand ends (``episode="hand"``) or the match ends
(``episode="match"``), or at an illegal action. No truncation.

Arguments
---------
``rules`` and the plain keyword rule options (``min_points=8``), ``episode``,
``hand_context``, ``illegal_action``, ``reward_scale``, ``illegal_penalty``, ``render_mode``
(``"ansi"``, ``"human"``, ``"rgb_array"``), ``tile_style`` — as for ``mjenv.MahjongEnv``.
``reset(seed, options)`` takes the same options (``wall``, ``dealer``, ``round_wind``,
``repeat``, ``scores``); unknown keys are ignored with a warning (PettingZoo's
``api_test`` passes an arbitrary one), where ``MahjongEnv`` raises ``ValueError``.

Version History
---------------
- mahjong_v0: initial release. Added since, leaving every game, observation and reward as it
  was: plain keyword rule arguments and ``rules`` as a dict; ``render_mode="rgb_array"``; the
  ``rules`` property (as ``MahjongEnv``'s).
"""

from __future__ import annotations

from typing import Any, Mapping

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from mjenv.env.actions import NUM_ACTIONS
from mjenv.env.core import HAND_OPTIONS, ILLEGAL_PENALTY, REWARD_SCALE
from mjenv.env.display import METADATA, TableEnv
from mjenv.env.gym_env import observation_space
from mjenv.rules import RuleConfig

AGENTS = tuple(f"player_{i}" for i in range(4))


class MahjongAEC(TableEnv, AECEnv, EzPickle):
    """Four-agent AEC mahjong; see the module docstring."""

    metadata = {**METADATA, "name": "mahjong_v0", "is_parallelizable": False}

    def __init__(self, rules: RuleConfig | Mapping[str, Any] | None = None, *,
                 episode: str = "hand", hand_context: str = "fixed",
                 illegal_action: str = "penalize", reward_scale: float = REWARD_SCALE,
                 illegal_penalty: float = ILLEGAL_PENALTY, render_mode: str | None = None,
                 tile_style: str = "unicode", **rule_options: Any) -> None:
        EzPickle.__init__(self, rules, episode=episode, hand_context=hand_context,
                          illegal_action=illegal_action, reward_scale=reward_scale,
                          illegal_penalty=illegal_penalty, render_mode=render_mode,
                          tile_style=tile_style, **rule_options)
        super().__init__()
        self._open_table(rules, rule_options, render_mode=render_mode, tile_style=tile_style,
                         episode=episode, hand_context=hand_context,
                         illegal_action=illegal_action, reward_scale=reward_scale,
                         illegal_penalty=illegal_penalty)
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        obs_space = observation_space()
        self.observation_spaces = {a: obs_space for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in AGENTS}
        self.np_random, _ = seeding.np_random(None)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.table.observe(AGENTS.index(agent))[0]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        opts = dict(options or {})
        unknown = sorted(set(opts) - set(HAND_OPTIONS))
        if unknown:   # PettingZoo's api_test passes an arbitrary option: warn, do not fail
            gymnasium.logger.warn(f"ignoring unknown reset option(s) {', '.join(unknown)}; "
                                  f"known: {', '.join(HAND_OPTIONS)}")
            for key in unknown:
                del opts[key]
        self.table.reset(self.np_random, opts)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        self._select()
        self._redraw()

    def _select(self) -> None:
        seat = self.table.seat
        self.agent_selection = AGENTS[seat]
        self.infos[self.agent_selection] = {"view": self.table.view(seat)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        out = self.table.play(action)
        if out.illegal:
            self.rewards = {a: 0.0 for a in AGENTS}
            self.rewards[agent] = self.table.illegal_penalty
        else:
            scaled = self.table.scaled(out.deltas)
            self.rewards = {a: scaled[i] for i, a in enumerate(AGENTS)}
        if out.done:
            self.terminations = {a: True for a in AGENTS}
        self._select()
        self._accumulate_rewards()
        self._redraw()

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment in PettingZoo's standard order-enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(MahjongAEC(**kwargs))


raw_env = MahjongAEC
