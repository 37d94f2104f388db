"""MahjongEnv — 海森林 competitive mahjong as a turn-based Gymnasium environment.

``mjenv.MahjongEnv(...)``, or ``gymnasium.make("mjenv/Mahjong-v0", ...)`` once
``mjenv.env.register_envs()`` has run.

Four seats share one environment: every ``step`` is one decision of the seat to act
(``info["current_player"]``), whose own view is the observation. Draws, claim resolution,
scoring and settlement happen inside ``step``; claim windows ask only the seats that have a
legal claim, one at a time in ascending seat order (answers stay hidden until all are in, so
the order gives nobody an advantage). The rules are those of ``RULES.md`` with the options of
``RuleConfig``.

Observation Space
-----------------
``Dict({"observation": Box(float32, (NUM_PLANES, 34)), "action_mask": Box(int8, (110,))})``.
``observation`` encodes only what the acting seat may see (``mjenv.env.observation``); each
plane is a row of 34 values, one per tile kind 1m…9m, 1p…9p, 1s…9s, 1z…7z. Seats are
relative: self, right (next in turn), across, left (previous). The planes, by index (the
full table with ranges is ``docs/observation.md``, generated from the encoder):

======= ======================================= ================================================
index   planes                                  meaning
======= ======================================= ================================================
0–3     ``hand_ge1`` … ``hand_ge4``             own concealed hand holds ≥ k of the kind
4       ``target``                              tile being decided on (drawn tile, discard, or
                                                the tile being added to a kan)
5–12    ``self_*`` melds (8 planes)             own melds, as below
13–20   ``right_*`` melds                       the next seat's melds
21–28   ``across_*`` melds                      the melds of the seat across
29–36   ``left_*`` melds                        the previous seat's melds
37–63   ``self_*`` pond (27 planes)             own discards in order, as below
64–90   ``right_*`` pond                        the next seat's discards
91–117  ``across_*`` pond                       the discards of the seat across
118–144 ``left_*`` pond                         the previous seat's discards
145–148 ``unseen_ge1`` … ``unseen_ge4``         ≥ k copies not visible to this seat
149     ``seat_wind``                           1 at own wind tile
150     ``round_wind``                          1 at the round wind tile
151–153 ``phase_turn/claim/rob``                constant: why — own turn, claim window, robbing
154–156 ``target_from_right/across/left``       constant: who offered the target (or whose
                                                turn it is)
157–160 ``dealer_self/right/across/left``       constant: who is the dealer
161     ``repeat``                              constant min(n, 8) / 8 (dealer bonus D = 1 + n)
162     ``live_wall``                           constant live-wall tiles left / 70
163–166 ``score_self/right/across/left``        constant game score / 100, clipped to ±10
167     ``furiten``                             constant 1 when this seat may not ron now
======= ======================================= ================================================

Each meld block (8 planes): ``chi`` (count of its chows holding the kind), ``pon``,
``minkan``, ``kakan``, ``ankan`` (1 at the meld's kind; concealed kans are public),
``called_from_right/across/left`` (claimed tile of each chi/pon/open kan, by the seat it came
from relative to the owner). Each pond block (27 planes): ``discard_1`` … ``discard_23`` and
``discard_24+`` (the pond in order, one plane per position), ``discarded`` (every kind in the
pond), ``tsumogiri_seq`` and ``called_seq`` (sequence planes: column j is discard j+1's
tsumogiri / claimed flag).

Nothing hidden is encoded: not other seats' concealed tiles, not the wall order, and not which
other seats are being asked in a claim window.

Legal Actions Mask
------------------
``observation["action_mask"]`` is int8[110] with 1 exactly at the ids ``step`` accepts now
(built by ``mjenv.env.actions.legal_mask`` from the view's legal actions — the same function
``step`` validates with). ``action_masks()`` returns it as bool for sb3-contrib's MaskablePPO;
``info["view"].legal`` lists the same actions as engine objects. Sample a legal random action
with ``env.action_space.sample(mask=obs["action_mask"])``.

Action Space
------------
``Discrete(110)`` (``mjenv.env.actions``; ``docs/actions.md``):

======= ==================================================================
0–33    discard tile t
34–67   concealed kan of t (34 + t)
68–101  added kan of t (68 + t)
102     tsumo
103     ron (on a discard, or robbing an added kan)
104–106 chi with the claimed tile lowest / middle / highest of the chow
107     pon
108     open kan (minkan)
109     pass
======= ==================================================================

Rewards
-------
The scalar reward is the acting seat's game-score change caused by its step, times
``reward_scale`` (default 0.01: one unit = 100 points). Scores change only when a hand is
settled, so the reward is 0 except on the step that ends a hand. Other seats' changes are in
``info["rewards"]``: the four seats' unscaled game-score changes of that step (a list of 4
ints summing to 0); a training loop that needs every seat's return accumulates those. An
illegal action id gives the acting seat ``illegal_penalty`` (default −1.0) as the scalar
reward and ends the episode; ``info["rewards"]`` is then all zero (no game score changes).

Episode End
-----------
``terminated`` when the hand ends (``episode="hand"``, default: a win or an exhaustive draw),
when the match ends (``episode="match"``: ``rules.rounds`` wind rounds, RULES.md §5; each
finished hand reports its ``info["rewards"]`` and play moves on to the next), or at an illegal
action id. Never truncated. The final observation is the last actor's view with an all-zero
mask; ``info["result"]`` holds the engine's ``HandResult`` on every step that ends a hand.

Arguments
---------
- ``rules``: a ``RuleConfig``, a dict of its options (``{"min_points": 8}``) or ``None`` (the
  rulebook's defaults). The rule options may also be given as plain keyword arguments
  (``min_points=8``, ``rounds=1``; they override ``rules``), so
  ``gymnasium.make("mjenv/Mahjong-v0", min_points=8)`` works.
- ``episode``: ``"hand"`` (default) or ``"match"``.
- ``hand_context``: ``"fixed"`` (default: dealer seat 0, East round, repeat 0, scores 0) or
  ``"random"`` (hand mode only: dealer and round wind uniform, repeat n with
  P(n) = 0.7·0.3ⁿ capped at 5, zero-sum scores; so a policy sees every seat wind, round wind
  and dealer bonus).
- ``illegal_action``: ``"penalize"`` (default; PettingZoo's convention: penalty, episode end and
  an ``IllegalActionWarning`` naming the action and the legal ones) or ``"raise"``
  (``IllegalActionError``, the game untouched).
- ``reward_scale`` (0.01), ``illegal_penalty`` (−1.0).
- ``render_mode``: ``None``, ``"ansi"`` (``render()`` returns the table as text), ``"human"``
  (prints it on every reset and step) or ``"rgb_array"`` (``render()`` returns the table as an
  RGB ``uint8`` array of shape (720, 1280, 3): hands, melds, rivers, scores, the decision and
  the result; for ``gymnasium.wrappers.RecordVideo``); ``tile_style``: ``"unicode"`` (🀇…) or
  ``"ascii"`` (1m…) for the text modes. Every mode shows the whole table, all hands open
  (``mjenv.env.display``).

``reset(seed=None, options=None)``: ``options`` (hand mode) may set ``wall`` (136 tiles in
the engine's format, RULES.md §2), ``dealer`` (0–3), ``round_wind`` (0–3 or "E"…),
``repeat`` (n ≥ 0) and ``scores`` (four ints); they override ``hand_context``. Without a
wall the deal is shuffled from the env's seeded ``np_random``, so the same seed gives the same
episode for the same actions.

``info`` on every reset/step: ``current_player`` (seat to act, 0–3; after the end the last
actor), ``rewards`` (see Rewards), ``view`` (the ``PlayerView`` behind the observation, for
rule-based agents).

Version History
---------------
- v0: initial release. Added since, leaving every game, observation and reward as it was:
  plain keyword rule arguments and ``rules`` as a dict; ``render_mode="rgb_array"``;
  ``ResetNeeded`` (one line) for ``step``/``render``/``action_masks`` before ``reset``.
"""

from __future__ import annotations

from typing import Any, Mapping

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from mjenv.env.actions import NUM_ACTIONS
from mjenv.env.core import ILLEGAL_PENALTY, REWARD_SCALE
from mjenv.env.display import METADATA, TableEnv
from mjenv.env.observation import HIGH, LOW
from mjenv.rules import RuleConfig

ENV_ID = "mjenv/Mahjong-v0"


def observation_space() -> spaces.Dict:
    """The observation space shared by all three APIs."""
    return spaces.Dict({
        "observation": spaces.Box(LOW, HIGH, dtype=np.float32),
        "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
    })


class MahjongEnv(TableEnv, gym.Env):
    """Turn-based four-seat mahjong; see the module docstring for the full manual."""

    metadata = dict(METADATA)

    def __init__(self, rules: RuleConfig | Mapping[str, Any] | None = None, *,
                 episode: str = "hand", hand_context: str = "fixed",
                 illegal_action: str = "penalize", reward_scale: float = REWARD_SCALE,
                 illegal_penalty: float = ILLEGAL_PENALTY, render_mode: str | None = None,
                 tile_style: str = "unicode", **rule_options: Any) -> None:
        self._open_table(rules, rule_options, render_mode=render_mode, tile_style=tile_style,
                         episode=episode, hand_context=hand_context,
                         illegal_action=illegal_action, reward_scale=reward_scale,
                         illegal_penalty=illegal_penalty)
        self.observation_space = observation_space()
        self.action_space = spaces.Discrete(NUM_ACTIONS)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        self.table.reset(self.np_random, options)
        obs, info = self._observe([0, 0, 0, 0])
        self._redraw()
        return obs, info

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        out = self.table.play(action)
        if out.illegal:
            reward = self.table.illegal_penalty
        else:
            reward = out.deltas[out.seat] * self.table.reward_scale
        obs, info = self._observe(list(out.deltas))
        if out.result is not None:
            info["result"] = out.result
        self._redraw()
        return obs, float(reward), out.done, False, info

    def _observe(self, rewards: list[int]) -> tuple[dict, dict]:
        obs, view = self.table.observe()
        return obs, {"current_player": self.table.seat, "rewards": rewards, "view": view}

    def action_masks(self) -> np.ndarray:
        """The current legal-action mask as bool[110] (sb3-contrib ``MaskablePPO``)."""
        return self.table.mask().astype(bool)
