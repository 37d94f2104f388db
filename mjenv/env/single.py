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

Vector environments: works in ``gymnasium.vector.SyncVectorEnv`` and ``AsyncVectorEnv``
(opponent objects must then be picklable; specs are built in each process), and in SB3's
``make_vec_env`` (``docs/sb3.md``). The env assumes Gymnasium 1.x's default autoreset mode
``NEXT_STEP``: after a terminal step the vector env's next ``step`` call resets the sub-env
and ignores that action (the terminal mask is all zero, so mask-driven samplers pick id 0
there).

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
from mjenv.env.core import ILLEGAL_PENALTY, REWARD_SCALE, as_id, illegal_message
from mjenv.env.display import METADATA, TableEnv
from mjenv.env.gym_env import observation_space
from mjenv.env.play import show_log
from mjenv.game import HandResult, IllegalActionError
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
        _check_seat(learner_seat)
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {', '.join(map(repr, OBSERVATIONS))}, "
                             f"got {observation!r}")
        self._open_table(rules, rule_options, render_mode=render_mode, tile_style=tile_style,
                         episode=episode, hand_context=hand_context,
                         illegal_action=illegal_action, reward_scale=reward_scale,
                         illegal_penalty=illegal_penalty)
        self.opponents = make_opponents(opponents)
        self.learner_seat = learner_seat
        self.seat = learner_seat if learner_seat is not None else 0
        self.observation = observation
        self.max_redeals = max_redeals
        self.observation_space = observation_space()
        if observation == "planes":
            self.observation_space = self.observation_space["observation"]
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._carry = [0, 0, 0, 0]
        self._observers: list = []

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
            for opponent in self.opponents:
                reseed = getattr(opponent, "reseed", None)
                if reseed is not None:
                    reseed(int(self.np_random.integers(2**63)))
            self._observers = [((self.seat + k + 1) % 4, o.observe)
                               for k, o in enumerate(self.opponents) if hasattr(o, "observe")]
            show_log(self.table.hand, self._observers)
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
        self._redraw()
        return obs, info

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        out = self.table.play(action)
        show_log(self.table.hand, self._observers)
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
        self._redraw()
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
            show_log(table.hand, self._observers)
            deltas = [a + b for a, b in zip(deltas, out.deltas)]
            result = out.result or result
        return deltas, result

    def _observe(self, rewards: list[int]) -> tuple[Any, dict]:
        obs, view = self.table.observe(self.seat)
        info = {"seat": self.seat, "rewards": rewards, "view": view,
                "action_mask": obs["action_mask"].copy()}
        return (obs["observation"] if self.observation == "planes" else obs), info

    def action_masks(self) -> np.ndarray:
        """The learner's legal-action mask as bool[110] (sb3-contrib ``MaskablePPO``)."""
        return self.table.mask().astype(bool)


def make_opponents(opponents: str | Sequence[Any]) -> list[Any]:
    """Three agents from one spec (``"heuristic"``) or a list of three specs or agent objects;
    specs go through ``agents.make_agent`` (imported here, when asked for: the env layer does
    not depend on the agents package otherwise)."""
    if isinstance(opponents, str):
        opponents = [opponents] * 3
    try:
        items = list(opponents)
    except TypeError:
        items = []
    if len(items) != 3:
        raise ValueError(f"opponents must be one agent spec or three specs/agents, got "
                         f"{opponents!r}")
    agents = []
    for item in items:
        if isinstance(item, str):
            from agents import make_agent
            item = make_agent(item)
        elif not callable(getattr(item, "act", None)):
            raise ValueError(f"opponent {item!r} is neither an agent spec nor an agent with "
                             f"act(observation, mask, view)")
        agents.append(item)
    return agents


def _check_seat(seat: Any) -> None:
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, (int, np.integer))
                             or not 0 <= seat <= 3):
        raise ValueError(f"learner_seat must be None or a seat 0–3, got {seat!r}")
