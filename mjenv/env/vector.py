"""MahjongVectorEnv — N single-agent tables stepped together, as one Gymnasium ``VectorEnv``.

``gymnasium.make_vec("mjenv/MahjongSingle-v0", num_envs=N)`` (``vectorization_mode=
"vector_entry_point"``, the default for this id; ``"sync"`` or ``"async"`` give Gymnasium's
own vector envs over ``SingleAgentEnv``), or ``mjenv.env.vector.MahjongVectorEnv(N, ...)``.

Each of the N tables is a ``SingleAgentEnv`` as its docstring describes (``mjenv/env/single.py``
and ``mjenv.env.learner``, the code both run): the same keyword arguments (``opponents``,
``rules`` and the rule keywords, ``learner_seat``, ``observation``, ``episode``,
``hand_context``, ``illegal_action``, ``reward_scale``, ``illegal_penalty``, ``render_mode``,
``tile_style``, ``max_redeals``), the same rewards, episode ends and re-deals. Table i seeded
``seed + i`` plays exactly the episodes of ``SingleAgentEnv`` reset with that seed (and so of
``SyncVectorEnv``) when its opponents are built per table (``tests/env/test_vector.py``).

What the vector env adds:

- observations written into preallocated arrays: ``(N, NUM_PLANES, 34)`` float32 (with
  ``observation="dict"`` also ``"action_mask"`` ``(N, 110)`` int8); returned as a copy unless
  ``copy=False`` (then the arrays are overwritten by the next call);
- ``info`` arrays, no per-table dicts: ``action_mask`` int8 ``(N, 110)``, ``seat`` ``(N,)``,
  ``rewards`` int ``(N, 4)`` (the four seats' score changes during the step), ``view`` an object
  array of ``PlayerView``, and where they apply ``result`` (object array) and ``redeals``, each
  with Gymnasium's ``_key`` mask of the tables that have it;
- opponents' decisions batched: each tick gathers the pending opponent decision of every table;
  an agent that serves several tables and reads the observation planes (a network) answers
  them in one ``act_batch`` call, the others are asked one by one. ``opponents`` given as
  specs build one agent per table, except agents that declare ``stochastic = False`` (greedy
  networks: ``ppo:…``), built once and shared; agent objects are shared as given (as in
  ``SyncVectorEnv``, which passes the same objects to every table);
- ``autoreset_mode``: ``NEXT_STEP`` (default, as Gymnasium 1.x: the step after a terminal one
  resets that table and ignores its action), ``SAME_STEP`` (reset at once; the terminal
  observation and info in ``info["final_obs"]``/``info["final_info"]``) or ``DISABLED``
  (``reset(options={"reset_mask": ...})`` is the caller's job);
- ``action_masks()``: bool ``(N, 110)``.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from mjenv.env.actions import NUM_ACTIONS
from mjenv.env.core import ILLEGAL_PENALTY, REWARD_SCALE, Decision, Table
from mjenv.env.display import METADATA, check_render_args
from mjenv.env.gym_env import observation_space
from mjenv.env.learner import LearnerTable, check_seat, make_opponents, needs_observation
from mjenv.env.observation import NUM_PLANES
from mjenv.env.single import check_observation
from mjenv.rules import RuleConfig, rule_config
from mjenv.tiles import NUM_KINDS


class MahjongVectorEnv(VectorEnv):
    """N learner tables against three agents each; see the module docstring."""

    metadata = {**METADATA, "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 1, opponents: str | Sequence[Any] = "heuristic",
                 rules: RuleConfig | Mapping[str, Any] | None = None, *,
                 learner_seat: int | None = None, observation: str = "planes",
                 episode: str = "hand", hand_context: str = "fixed",
                 illegal_action: str = "penalize", reward_scale: float = REWARD_SCALE,
                 illegal_penalty: float = ILLEGAL_PENALTY, render_mode: str | None = None,
                 tile_style: str = "unicode", max_redeals: int = 1000,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                 copy: bool = True, **rule_options: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be an int >= 1, got {num_envs!r}")
        check_seat(learner_seat)
        check_observation(observation)
        check_render_args(render_mode, tile_style)
        try:
            self.autoreset_mode = AutoresetMode(autoreset_mode)
        except ValueError:
            raise ValueError(f"autoreset_mode must be one of "
                             f"{', '.join(m.value for m in AutoresetMode)}, "
                             f"got {autoreset_mode!r}") from None
        config = rule_config(rules, **rule_options)
        self.num_envs = num_envs
        self.games = [LearnerTable(Table(config, episode=episode, hand_context=hand_context,
                                         illegal_action=illegal_action,
                                         reward_scale=reward_scale,
                                         illegal_penalty=illegal_penalty),
                                   agents, learner_seat, max_redeals)
                      for agents in table_opponents(opponents, num_envs)]
        self.observation = observation
        self.render_mode = render_mode
        self.tile_style = tile_style
        self.copy = copy
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        single = observation_space()
        self.single_observation_space = single["observation"] if observation == "planes" \
            else single
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rngs = [seeding.np_random(None)[0] for _ in range(num_envs)]
        self._planes = np.zeros((num_envs, NUM_PLANES, NUM_KINDS), dtype=np.float32)
        self._masks = np.zeros((num_envs, NUM_ACTIONS), dtype=np.int8)
        self._asked = np.zeros((num_envs, NUM_PLANES, NUM_KINDS), dtype=np.float32)
        self._seats = np.zeros(num_envs, dtype=np.int64)
        self._views = np.full(num_envs, None, dtype=object)
        self._ended = np.zeros(num_envs, dtype=np.bool_)     # terminated last step
        self._all = np.ones(num_envs, dtype=np.bool_)
        self._started = False

    # ---- Gymnasium API -----------------------------------------------------------------------

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Reset every table (or those of ``options["reset_mask"]``, a bool array of shape
        ``(num_envs,)``); ``seed`` an int (table i gets ``seed + i``) or one per table; the
        other options are ``SingleAgentEnv.reset``'s, for every table reset."""
        opts = dict(options or {})
        mask = opts.pop("reset_mask", None)
        if mask is None:
            mask = self._all
        elif not (isinstance(mask, np.ndarray) and mask.dtype == np.bool_
                  and mask.shape == (self.num_envs,) and mask.any()):
            raise ValueError(f"options['reset_mask'] must be a bool array of shape "
                             f"({self.num_envs},) with at least one True, got {mask!r}")
        seeds = self._seeds(seed)
        for i in np.flatnonzero(mask):
            if seeds[i] is not None:
                self._rngs[i] = seeding.np_random(seeds[i])[0]
        infos: dict[str, Any] = {}
        self._deal(list(np.flatnonzero(mask)), opts, infos)
        self._ended[mask] = False
        self._started = True
        return self._observe(np.zeros((self.num_envs, 4), dtype=np.int64), infos)

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        if not self._started:
            self.games[0].table.require_hand()           # ResetNeeded, one line
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got "
                             f"{actions.shape}")
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=np.bool_)
        deltas = np.zeros((self.num_envs, 4), dtype=np.int64)
        infos: dict[str, Any] = {}
        played, illegal = [], []
        resets = list(np.flatnonzero(self._ended)) \
            if self.autoreset_mode == AutoresetMode.NEXT_STEP else []
        for i, game in enumerate(self.games):
            if self._ended[i] and resets:
                continue
            out = game.play(actions[i].item())
            if out.illegal:
                illegal.append(i)
                rewards[i] = game.table.illegal_penalty
                terminated[i] = True
            else:
                played.append(i)
        self._advance(played)
        for i in played:
            game = self.games[i]
            changes, result = game.take()
            deltas[i] = changes
            rewards[i] = changes[game.seat] * game.table.reward_scale
            terminated[i] = game.table.done
            if result is not None:
                infos = self._add_info(infos, {"result": result}, i)
        if resets:
            self._deal(resets, {}, infos)
        self._ended = terminated.copy()
        if self.autoreset_mode == AutoresetMode.SAME_STEP and terminated.any():
            obs, infos = self._observe(deltas, infos)
            done = list(np.flatnonzero(terminated))
            final = {"final_obs": self._split(obs, done), "final_info": _pick(infos, done)}
            infos = {}
            for k, i in enumerate(done):
                infos = self._add_info(infos, {key: value[k] for key, value in final.items()},
                                       i)
            self._deal(done, {}, infos)
            self._ended[:] = False
            deltas[done] = 0           # the tables' new episodes have changed nothing yet
        obs, infos = self._observe(deltas, infos)
        return obs, rewards, terminated, np.zeros(self.num_envs, dtype=np.bool_), infos

    def action_masks(self) -> np.ndarray:
        """The learners' legal-action masks as bool ``(num_envs, 110)`` (all False for a
        table whose episode just ended)."""
        if not self._started:
            self.games[0].table.require_hand()
        return self._masks.astype(bool)

    def render(self) -> tuple[Any, ...] | None:
        """Each table's frame (``SingleAgentEnv.render``), as a tuple; ``"human"`` prints."""
        if self.render_mode is None:
            return None
        frames = tuple(g.table.render(self.render_mode, self.tile_style) for g in self.games)
        if self.render_mode == "human":
            print("\n\n".join(frames))
            return None
        return frames

    # ---- tables ------------------------------------------------------------------------------

    def _seeds(self, seed: int | Sequence[int | None] | None) -> list[int | None]:
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            return [int(seed) + i for i in range(self.num_envs)]
        seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"seed must be an int or one per table ({self.num_envs}), got "
                             f"{len(seeds)}")
        return seeds

    def _deal(self, tables: list[int], options: dict[str, Any], infos: dict[str, Any]
              ) -> None:
        """Deal the listed tables until each has a learner decision (re-deals counted in
        ``infos["redeals"]``); the opening opponent moves of all of them batched."""
        opts = dict(options)
        chosen = "learner_seat" in opts
        seat = opts.pop("learner_seat", None)
        if chosen:
            check_seat(seat)
        redeals = dict.fromkeys(tables, 0)
        waiting = list(tables)
        while waiting:
            for i in waiting:
                game = self.games[i]
                game.deal(self._rngs[i], opts, seat if chosen else game.learner_seat)
            self._advance(waiting)
            again = []
            for i in waiting:
                if not self.games[i].dealt(opts, redeals[i]):
                    redeals[i] += 1
                    again.append(i)
            waiting = again
        for i in tables:
            infos = self._add_info(infos, {"redeals": redeals[i]}, i)

    def _advance(self, tables: list[int]) -> None:
        """Let the opponents of the listed tables act until every learner must decide or its
        episode ends. Each round asks every table's pending opponent; an agent pending at
        several tables that reads the planes answers them with one ``act_batch``."""
        active = tables
        while active:
            asks: dict[int, list[tuple[int, Decision]]] = {}
            agents: dict[int, Any] = {}
            still = []
            for i in active:
                decision = self.games[i].pending()
                if decision is None:
                    continue
                agent = self.games[i].opponent(decision.seat)
                asks.setdefault(id(agent), []).append((i, decision))
                agents[id(agent)] = agent
                still.append(i)
            for key, items in asks.items():
                self._ask(agents[key], items)
            active = still

    def _ask(self, agent: Any, items: list[tuple[int, Decision]]) -> None:
        games = self.games
        if not needs_observation(agent):
            for i, d in items:
                games[i].answer(d, agent.act(None, d.mask, d.view))
            return
        if len(items) == 1:
            i, d = items[0]
            games[i].answer(d, agent.act(games[i].table.planes(d.view), d.mask, d.view))
            return
        planes = self._asked[:len(items)]
        for k, (i, d) in enumerate(items):
            np.copyto(planes[k], games[i].table.planes(d.view))
        masks = np.stack([d.mask for _, d in items])
        answers = agent.act_batch(planes, masks, [d.view for _, d in items])
        for (i, d), aid in zip(items, answers):
            games[i].answer(d, aid)

    def _observe(self, deltas: np.ndarray, infos: dict[str, Any]) -> tuple[Any, dict]:
        """The learners' observations and the info arrays of every table."""
        for i, game in enumerate(self.games):
            table = game.table
            decision = table.decision()
            view = decision.view if decision.seat == game.seat else table.hand.view(game.seat)
            self._planes[i] = table.planes(view)
            if decision.seat == game.seat and not table.done:
                self._masks[i] = decision.mask
            else:
                self._masks[i] = 0
            self._seats[i] = game.seat
            self._views[i] = view
        masks = self._masks.copy()
        infos.update(seat=self._seats.copy(), _seat=self._all.copy(), rewards=deltas,
                     _rewards=self._all.copy(), view=self._views.copy(),
                     _view=self._all.copy(), action_mask=masks, _action_mask=self._all.copy())
        planes = self._planes.copy() if self.copy else self._planes
        if self.observation == "planes":
            return planes, infos
        return {"observation": planes, "action_mask": masks.copy() if self.copy else masks}, \
            infos

    def _split(self, obs: Any, tables: list[int]) -> list[Any]:
        if self.observation == "planes":
            return [obs[i] for i in tables]
        return [{"observation": obs["observation"][i], "action_mask": obs["action_mask"][i]}
                for i in tables]


def _pick(infos: dict[str, Any], tables: list[int]) -> list[dict[str, Any]]:
    """Each listed table's entries of vector ``infos`` (those it has), as a plain dict."""
    out = []
    for i in tables:
        out.append({key: value[i] for key, value in infos.items()
                    if not key.startswith("_") and infos.get(f"_{key}", None) is not None
                    and infos[f"_{key}"][i]})
    return out


def table_opponents(opponents: str | Sequence[Any], num_envs: int) -> list[list[Any]]:
    """Each table's three opponents: specs built per table, except agents that declare
    ``stochastic = False`` (built once, shared); agent objects shared as given."""
    first = make_opponents(opponents)
    specs = [opponents] * 3 if isinstance(opponents, str) else list(opponents)
    tables = [first]
    for _ in range(1, num_envs):
        row = []
        for spec, agent in zip(specs, first):
            if isinstance(spec, str) and getattr(agent, "stochastic", True):
                from agents import make_agent
                agent = make_agent(spec)
            row.append(agent)
        tables.append(row)
    return tables
