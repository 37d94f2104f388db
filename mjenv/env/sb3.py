"""Stable-Baselines3's ``VecEnv`` over the native vector env (``mjenv.env.vector``).

``MahjongVecEnv(num_envs=N, **kwargs)`` takes ``SingleAgentEnv``'s keyword arguments
(``opponents``, rule keywords, ``learner_seat``, …) and steps the N tables with
``MahjongVectorEnv`` in ``SAME_STEP`` autoreset mode, which is SB3's convention: a finished
table is dealt again in the same step, its last observation in
``infos[i]["terminal_observation"]``. ``env_method("action_masks")`` (what sb3-contrib's
``MaskablePPO`` calls) returns the learners' masks. Needs the ``sb3`` extra
(``pip install -e ".[sb3]"``); ``docs/sb3.md`` shows it in use.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices

from mjenv.env.vector import MahjongVectorEnv


class MahjongVecEnv(VecEnv):
    """N learner tables as one SB3 ``VecEnv``; see the module docstring."""

    def __init__(self, num_envs: int = 1, **kwargs: Any) -> None:
        self.venv = MahjongVectorEnv(num_envs, autoreset_mode=AutoresetMode.SAME_STEP,
                                     **kwargs)
        super().__init__(num_envs, self.venv.single_observation_space,
                         self.venv.single_action_space)
        self._actions: np.ndarray | None = None

    def reset(self) -> Any:
        seeds = None if all(s is None for s in self._seeds) else list(self._seeds)
        groups: dict[str, list[int]] = {}
        for i, options in enumerate(self._options):
            groups.setdefault(repr(sorted(options.items())), []).append(i)
        for tables in groups.values():
            options = dict(self._options[tables[0]])
            if len(tables) < self.num_envs:
                options["reset_mask"] = np.isin(np.arange(self.num_envs), tables)
            obs, info = self.venv.reset(seed=seeds, options=options)
            for i in tables:
                self.reset_infos[i] = {"seat": int(info["seat"][i]),
                                       "redeals": int(info["redeals"][i])}
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> tuple[Any, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        obs, rewards, terminated, truncated, info = self.venv.step(self._actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{"TimeLimit.truncated": False, "seat": int(seat)}
                                       for seat in info["seat"]]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = info["final_obs"][i]
            final = info["final_info"]
            if final.get("_result") is not None and final["_result"][i]:
                infos[i]["result"] = final["result"][i]
        return obs, rewards.astype(np.float32), dones, infos

    def close(self) -> None:
        self.venv.close()

    def get_images(self) -> Sequence[np.ndarray | None]:
        frames = self.venv.render() if self.venv.render_mode == "rgb_array" else None
        return list(frames) if frames is not None else [None] * self.num_envs

    # ---- per-table attributes and methods ----------------------------------------------------

    def _owner(self, i: int, name: str) -> Any:
        """The object that holds ``name`` for table i: its learner table (``opponents``,
        ``seat``), its ``Table`` (``rules``, ``hand``) or the vector env (``render_mode``)."""
        game = self.venv.games[i]
        for owner in (game, game.table, self.venv):
            if hasattr(owner, name):
                return owner
        raise AttributeError(f"the tables of MahjongVecEnv have no attribute {name!r}")

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return [getattr(self._owner(i, attr_name), attr_name)
                for i in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        for i in self._get_indices(indices):
            setattr(self._owner(i, attr_name), attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        if method_name == "action_masks":
            masks = self.venv.action_masks()
            return [masks[i] for i in self._get_indices(indices)]
        return [getattr(self._owner(i, method_name), method_name)(*method_args,
                                                                  **method_kwargs)
                for i in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]
