"""Ray RLlib (new API stack) adapter: a turn-based multi-agent env and a masked PPO module.

Install with ``pip install "mjenv[ray]"``; importing this module without Ray raises
:class:`mjenv.integrations.MissingExtraError` with that hint. ``mjenv.integrations.rllib_train``
builds the trainer (``mjenv train rllib``) from the pieces here; ``docs/scaling.md`` is the
manual.

Environment (:class:`MahjongMultiAgentEnv`)
    One episode is one deal (``mjenv.game.Hand``), drawn like the single-machine trainer's
    (``training.selfplay``): dealer seat 0, round wind 东 or 南, one *learner* seat chosen
    uniformly, and every other seat independently controlled by the latest weights, a frozen
    past snapshot or a fixed agent (heuristic, random) in ``RolloutSettings``' shares.

    Turn-based: ``reset``/``step`` return observations only for the seats that must decide now
    (one seat on its own turn; in a claim window every seat with a legal claim, which answer
    together — RLlib then sends one action per observed seat). When the deal ends every
    RLlib-controlled seat gets a last observation and its reward, ``terminated["__all__"]``.
    Fixed agents are part of the environment: they play inside ``step`` and RLlib never sees
    their seats.

Agent ids
    ``"seat{s}-{module}"`` with module ``main`` (the trained weights) or ``past{k}`` (frozen
    snapshot slot ``k``): the env draws the matchup from its own seeded generator, so the
    agent→module mapping (:func:`agent_to_module`) is a pure function of the id and runs are
    reproducible. Every ``main`` seat is trained on — shared-policy self-play — not only the
    learner's (the single-machine trainer trains on the learner seat only).

Observation
    ``{"observation": float32 (NUM_PLANES, 34), "action_mask": int8 (110,)}`` exactly as
    ``mjenv.MahjongEnv`` (``mjenv.env.observation.encode``, ``mjenv.env.actions.legal_mask``).
    The last observation of a finished deal has an all-zero mask (it is only used to bootstrap
    the value; its logits are never sampled).

Rewards
    The seat's score delta of the deal times ``reward_scale`` (default 1/40, as
    ``training.selfplay``), on the final step; 0 before. With ``shaping_coef`` the
    potential-based shaping of ``training.selfplay`` is added, ``γ·Φ(s') − Φ(s)`` between
    consecutive decisions of a seat (``Φ = training.selfplay.potential``, 0 after the last), in
    the reward that comes with the seat's next observation.

Action masking (:class:`MaskedPPOTorchRLModule`)
    RLlib's ``DefaultPPOTorchRLModule`` with its catalog-built encoder and heads replaced by
    ``agents.network.PolicyNet`` — the network of the single-machine trainer — and the logits of
    illegal actions set to ``-1e8`` (``agents.network.masked_logits``) in every forward pass, so
    sampling, log-probabilities and entropy never involve a masked action. The env refuses a
    masked action with :class:`MaskedActionError`, and :class:`MahjongCallbacks` counts
    ``masked_actions_sampled`` over every finished episode as an independent check.

Checkpoints
    :func:`save_policy` / :func:`convert_checkpoint` write the ``main`` module as a policy file
    (``agents.checkpoint_file``) that ``PPOAgent.load`` and ``mjenv eval --agent ppo:PATH``
    read.
"""

from __future__ import annotations

import os
from dataclasses import asdict
from pathlib import Path
from typing import Any, Mapping

from mjenv.integrations import MissingExtraError, install_hint, require_extra

require_extra("ray", "mjenv.integrations.rllib (RLlib training)")
try:
    import gymnasium as gym
    import numpy as np
    import torch
    from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
    from ray.rllib.callbacks.callbacks import RLlibCallback
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.models.catalog import Catalog
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
except ImportError as exc:  # ray without its rllib dependencies, or a broken install
    raise MissingExtraError(f"mjenv.integrations.rllib could not import RLlib ({exc}): "
                            f"{install_hint('ray')}", name=exc.name) from exc

from agents.checkpoint_file import save_policy_file
from agents.network import NetConfig, PolicyNet, masked_logits
from mjenv.env.actions import NUM_ACTIONS, decode_action, legal_mask
from mjenv.env.observation import NUM_PLANES, encode
from mjenv.env.play import MaskedActionError, play  # a masked action id reaching the env
from mjenv.game import Hand
from mjenv.rules import RuleConfig
from training.selfplay import (LATEST, FixedAgents, RolloutSettings, opponent_seed,
                               potential, sample_opponent)

OBS_KEY = "observation"
MASK_KEY = "action_mask"
MAIN = "main"
NUM_SEATS = 4


def past_module_id(k: int) -> str:
    """Module id of frozen snapshot slot ``k``."""
    return f"past{k}"


def module_ids(num_past: int) -> list[str]:
    return [MAIN] + [past_module_id(k) for k in range(num_past)]


def agent_id(seat: int, module: str) -> str:
    return f"seat{seat}-{module}"


def seat_of(agent: str) -> int:
    return int(agent.partition("-")[0].removeprefix("seat"))


def agent_to_module(agent: str, episode: Any = None, **kwargs: Any) -> str:
    """RLlib's ``policy_mapping_fn``: the module is written in the agent id."""
    return agent.partition("-")[2]


def observation_space() -> gym.spaces.Dict:
    return gym.spaces.Dict({
        OBS_KEY: gym.spaces.Box(-np.inf, np.inf, (NUM_PLANES, 34), np.float32),
        MASK_KEY: gym.spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
    })


# --------------------------------------------------------------------------- environment


class MahjongMultiAgentEnv(MultiAgentEnv):
    """Turn-based self-play deals for RLlib (see the module docstring).

    ``config`` (RLlib's ``env_config``): ``settings`` — a ``training.selfplay.RolloutSettings``
    (rules, reward scale, opponent shares, shaping and its discount; ``num_envs`` is not used
    here); ``num_past`` — how many frozen snapshot modules exist
    (``past0``…); with none, the past share goes to the latest weights, as the single-machine
    trainer does while its pool is empty.
    """

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        unknown = set(config) - {"settings", "num_past"}
        if unknown:
            raise ValueError(f"MahjongMultiAgentEnv: unknown config keys {sorted(unknown)} "
                             f"(accepted: settings, num_past)")
        self.settings: RolloutSettings = config.get("settings", RolloutSettings())
        self.num_past = int(config.get("num_past", 0))
        if not isinstance(self.settings, RolloutSettings):
            raise ValueError(f"settings must be a training.selfplay.RolloutSettings, "
                             f"got {type(self.settings).__name__}")
        if self.num_past < 0:
            raise ValueError(f"num_past must be >= 0, got {self.num_past}")
        self.possible_agents = [agent_id(seat, m) for seat in range(NUM_SEATS)
                                for m in module_ids(self.num_past)]
        self.agents = []
        space = observation_space()
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: gym.spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}

        self.hand: Hand | None = None
        self.learner = 0
        self._controllers: list[str] = []          # per seat: module id or fixed agent spec
        self._fixed = FixedAgents()
        self._seat_agents: list[Any] = [None] * NUM_SEATS      # per seat: its fixed agent
        self._pending: dict[str, tuple[int, Any, np.ndarray]] = {}   # agent -> (seat, view, mask)
        self._phi: dict[str, float] = {}       # agent -> Φ at its last decision (shaping)

    # ------------------------------------------------------------------ episode

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed, options=options)
        rng = self.np_random
        fixed_specs = {spec for spec, _ in self.settings.fixed_opponents}
        while True:
            self.learner = int(rng.integers(NUM_SEATS))
            self._controllers = [MAIN if seat == self.learner else self._draw_controller(rng)
                                 for seat in range(NUM_SEATS)]
            deal_seed = int(rng.integers(2**62))
            self.hand = Hand(self.settings.rules, seed=deal_seed, dealer=0,
                             round_wind=int(rng.integers(2)))
            # fixed agents seeded per (deal, seat), as in training.selfplay
            self._seat_agents = [self._fixed.get(c, 0, 0, seat, opponent_seed(deal_seed, seat))
                                 if c in fixed_specs else None
                                 for seat, c in enumerate(self._controllers)]
            self.agents = [agent_id(seat, c) for seat, c in enumerate(self._controllers)
                           if c not in fixed_specs]
            self._phi = {}
            self._play_fixed()
            # RLlib needs an observation at reset; a deal that fixed agents finish before any
            # RLlib seat decides (天胡, 人胡 …) carries no signal for RLlib: draw another.
            if not self.hand.over:
                obs = self._observe()
                self._shaped()                     # the first decisions: Φ noted, no reward
                return obs, {}

    def step(self, action_dict: Mapping[str, int]):
        if self.hand is None or self.hand.over:
            raise ValueError("step() called without a running deal: call reset() first")
        if set(action_dict) != set(self._pending):
            raise ValueError(f"actions for {sorted(action_dict)} but the seats to act are "
                             f"{sorted(self._pending)}")
        # Claims are simultaneous: every answer was chosen from the views sent out, and the
        # answers are applied in seat order; one made moot by an earlier one (the window closed)
        # is dropped, as in training.selfplay.
        chosen = []
        for agent, (seat, view, mask) in sorted(self._pending.items(), key=lambda kv: kv[1][0]):
            aid = int(action_dict[agent])
            if not 0 <= aid < NUM_ACTIONS or not mask[aid]:
                legal = np.flatnonzero(mask).tolist()
                raise MaskedActionError(f"{agent}: action id {aid} is masked in phase "
                                        f"{view.phase!r}; legal ids: {legal}")
            chosen.append((seat, decode_action(aid, view)))
        acted = list(self._pending)
        for seat, action in chosen:
            if seat in self.hand.to_act:
                self.hand.step(seat, action)
        self._play_fixed()
        if self.hand.over:
            return self._final()
        obs = self._observe()
        rewards = {a: 0.0 for a in set(acted) | set(obs)}
        for agent, r in self._shaped().items():
            rewards[agent] += r
        return obs, rewards, {"__all__": False}, {"__all__": False}, {}

    # ------------------------------------------------------------------ internals

    def _draw_controller(self, rng: np.random.Generator) -> str:
        """An opponent's module or fixed agent spec (``training.selfplay.sample_opponent``)."""
        drawn = sample_opponent(rng, self.settings, self.num_past)
        if drawn == LATEST:
            return MAIN
        return past_module_id(drawn) if isinstance(drawn, int) else drawn

    def _play_fixed(self) -> None:
        """Let the fixed agents answer until an RLlib seat must decide or the deal ends."""
        play(self.hand, self._seat_agents)

    def _observe(self) -> dict[str, dict[str, np.ndarray]]:
        self._pending = {}
        obs = {}
        for seat in self.hand.to_act:
            view = self.hand.view(seat)
            mask = legal_mask(view)
            agent = agent_id(seat, self._controllers[seat])
            self._pending[agent] = (seat, view, mask)
            obs[agent] = {OBS_KEY: encode(view), MASK_KEY: mask}
        return obs

    def _shaped(self) -> dict[str, float]:
        """The shaping reward of every seat now to decide (``_shaping``)."""
        coef = self.settings.shaping_coef
        return {agent: self._shaping(agent, potential(view, coef) if coef else 0.0)
                for agent, (_, view, _) in self._pending.items()}

    def _shaping(self, agent: str, phi: float) -> float:
        """``γ·Φ(s') − Φ(s)`` for ``agent`` reaching a state of potential ``phi`` (0 for its
        first decision), which becomes its last."""
        last = self._phi.get(agent)
        self._phi[agent] = phi
        return 0.0 if last is None else self.settings.gamma * phi - last

    def _final(self):
        result = self.hand.result
        self._pending = {}
        obs, rewards, infos = {}, {}, {}
        no_action = np.zeros(NUM_ACTIONS, dtype=np.int8)
        for agent in self.agents:
            seat = seat_of(agent)
            obs[agent] = {OBS_KEY: encode(self.hand.view(seat)), MASK_KEY: no_action}
            rewards[agent] = (float(result.deltas[seat]) * self.settings.reward_scale
                              + self._shaping(agent, 0.0))
            infos[agent] = {"score_delta": int(result.deltas[seat]),
                            "won": seat in result.winners,
                            "dealt_in": result.discarder == seat,
                            "learner": seat == self.learner}
        return obs, rewards, {"__all__": True}, {"__all__": False}, infos


# --------------------------------------------------------------------------- RL module


class PolicyNetCatalog(Catalog):
    """The network is ``agents.network.PolicyNet``, built by the module itself; the catalog only
    names the action distribution (categorical over the 110 ids)."""

    def _determine_components_hook(self) -> None:
        """No encoder or head configs: nothing is built from this catalog."""

    def get_action_dist_cls(self, framework: str):
        from ray.rllib.core.distribution.torch.torch_distribution import TorchCategorical

        return TorchCategorical


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """``DefaultPPOTorchRLModule`` running ``agents.network.PolicyNet`` with action masking.

    ``model_config``: ``{"net": asdict(NetConfig), "rules": RuleConfig.to_dict()}``; the rules
    travel with the module so a converted checkpoint records what it was trained under.
    Policy and value share the trunk, so the inference-only copy on the env runners is the
    whole network.
    """

    def setup(self) -> None:
        cfg = dict(self.model_config or {})
        if "net" not in cfg:
            raise ValueError("MaskedPPOTorchRLModule needs model_config={'net': asdict(NetConfig), "
                             "'rules': RuleConfig.to_dict()}: use module_spec()")
        self.net = PolicyNet(NetConfig(**cfg["net"]))
        self.rules = RuleConfig.from_dict(cfg.get("rules", {}))

    def get_initial_state(self) -> dict:
        return {}

    def get_non_inference_attributes(self) -> list[str]:
        return []

    def _net(self, batch: dict[str, Any]) -> tuple[torch.Tensor, torch.Tensor]:
        obs = batch[Columns.OBS]
        logits, value = self.net(obs[OBS_KEY])
        return masked_logits(logits, obs[MASK_KEY]), value

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        logits, _ = self._net(batch)
        return {Columns.ACTION_DIST_INPUTS: logits}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        # The value rides along as the "embeddings" the PPO learner hands to compute_values,
        # so the loss costs one forward pass, not two.
        logits, value = self._net(batch)
        return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: value}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        if embeddings is not None:
            return embeddings
        return self._net(batch)[1]


def module_spec(net_config: NetConfig, rules: RuleConfig) -> RLModuleSpec:
    if net_config.num_planes != NUM_PLANES:
        raise ValueError(f"net_config.num_planes is {net_config.num_planes} but the observation "
                         f"has {NUM_PLANES} planes")
    return RLModuleSpec(module_class=MaskedPPOTorchRLModule, catalog_class=PolicyNetCatalog,
                        observation_space=observation_space(),
                        action_space=gym.spaces.Discrete(NUM_ACTIONS),
                        model_config={"net": asdict(net_config), "rules": rules.to_dict()})


def multi_module_spec(net_config: NetConfig, rules: RuleConfig, num_past: int) -> MultiRLModuleSpec:
    """``main`` plus ``num_past`` frozen snapshot slots, all the same network."""
    spec = module_spec(net_config, rules)
    return MultiRLModuleSpec(rl_module_specs={m: spec for m in module_ids(num_past)})


# --------------------------------------------------------------------------- callbacks


class MahjongCallbacks(RLlibCallback):
    """Per finished episode: ``masked_actions_sampled`` (summed per iteration; must stay 0)
    recomputed from the recorded observations and actions, and the learner seat's score delta
    and win rate (``learner_score``, ``learner_win_rate``: means over the last
    ``SMOOTHING`` finished episodes, RLlib's own smoothing window)."""

    SMOOTHING = 100

    def on_episode_end(self, *, episode, metrics_logger=None, **kwargs: Any) -> None:
        masked = 0
        for agent, sa in episode.agent_episodes.items():
            actions = np.asarray(sa.get_actions())
            if len(actions) == 0:
                continue
            observations = sa.get_observations(slice(0, len(actions)))
            masks = (np.asarray(observations[MASK_KEY]) if isinstance(observations, dict)
                     else np.stack([o[MASK_KEY] for o in observations]))
            masked += int((masks[np.arange(len(actions)), actions] == 0).sum())
            info = sa.get_infos(-1)
            if info.get("learner"):
                metrics_logger.log_value("learner_score", float(info["score_delta"]),
                                         reduce="mean", window=self.SMOOTHING)
                metrics_logger.log_value("learner_win_rate", float(info["won"]),
                                         reduce="mean", window=self.SMOOTHING)
        metrics_logger.log_value("masked_actions_sampled", masked, reduce="sum")


# --------------------------------------------------------------------------- checkpoints


def policy_net_of(module: RLModule) -> PolicyNet:
    if not isinstance(module, MaskedPPOTorchRLModule):
        raise ValueError(f"expected a MaskedPPOTorchRLModule, got {type(module).__name__}")
    return module.net


def save_policy(module: RLModule, path: str | os.PathLike,
                meta: Mapping[str, Any] | None = None) -> Path:
    """Write ``module``'s network as a policy file (``agents.checkpoint_file``)."""
    net = policy_net_of(module)
    save_policy_file(path, net, module.rules, {"trainer": "rllib", **dict(meta or {})})
    return Path(path)


def convert_checkpoint(checkpoint: str | os.PathLike, path: str | os.PathLike,
                       module: str = MAIN) -> Path:
    """RLlib algorithm checkpoint (``Algorithm.save_to_path``) → policy file.

    Reads only the module's own sub-checkpoint, so neither an algorithm nor Ray is started.
    """
    root = Path(checkpoint)
    module_dir = root / "learner_group" / "learner" / "rl_module" / module
    if not module_dir.is_dir():
        raise ValueError(f"{root}: not an RLlib algorithm checkpoint with a {module!r} module "
                         f"(missing {module_dir.relative_to(root)})")
    rl_module = RLModule.from_checkpoint(module_dir.resolve())    # RLlib reads paths as URIs
    return save_policy(rl_module, path, {"rllib_checkpoint": str(root.resolve())})
