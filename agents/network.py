"""The PPO network: an actor-critic over the observation planes, its masked sampling, and the
device it runs on. The agent that plays it is ``agents.ppo``; its files are
``agents.checkpoint_file``.

The observation is ``(NUM_PLANES, 34)``: one column per tile kind. A 1-D convolution runs along
the 34 columns (so "a tile and its neighbours" is the receptive field, which is what chows,
waits and suit shapes are about); thirteen fixed position channels (suit one-hot, rank one-hot)
are appended so the convolution can tell 9m from 1p and honours from numbers. A network built
with ``NetConfig(features=...)`` also reads the analysis planes of ``agents.features`` (tile
efficiency, value distance, danger: the look-ahead a small network learns slowly), appended
after the observation planes by ``InputBuilder``. The trunk is a stack of pre-activation
residual blocks. Two heads:

- per-tile logits (a 1×1 convolution, 3 channels) for the tile-indexed action ranges —
  discard t (0–33), concealed kan t (34–67), added kan t (68–101) — so the policy for "discard
  this tile" is computed *at* that tile's column;
- a pooled head (mean and max over the columns of the trunk, plus the per-plane mean of the
  raw observation, which carries any scalar/broadcast planes unchanged) feeding an MLP that
  gives the 8 untiled action logits (102–109: tsumo, ron, chi×3, pon, open kan, pass) and the
  state value.

Oracle critic (``NetConfig(oracle=NUM_ORACLE_PLANES)``, ``mjenv train ppo --oracle-critic``).
The value may read what no seat sees — every concealed hand and the wall, the planes of
``mjenv.env.oracle`` — since the critic is only a baseline for the policy gradient. A small
encoder of its own (two convolutions along the columns, mean and max pooled) feeds the value
MLP beside the pooled trunk features. The policy's logits are computed before and apart from it
(:meth:`PolicyNet.policy`), so they cannot depend on the oracle planes; an agent plays with
``policy`` alone and never needs them. ``load_weights`` extends the weights of a network
without the oracle (the shipped model, a BC warm start) to one with it.

Masking: illegal logits are replaced by ``-1e8`` (``torch.where(mask, logits, -1e8)``), so the
softmax puts exactly zero probability on them and the entropy sums over legal actions only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import torch
from torch import nn

from mjenv.game.view import PlayerView

ILLEGAL_LOGIT = -1e8
NUM_TILE_KINDS = 34
NUM_TILED_RANGES = 3          # discard, concealed kan, added kan: ids 0–101
NUM_UNTILED_ACTIONS = 8       # ids 102–109

#: A network's weights by name (``state_dict``).
Weights = dict[str, torch.Tensor]


@dataclass(frozen=True)
class NetConfig:
    """Network shape; stored in every checkpoint so that loading rebuilds the same module. An
    unknown ``features`` or ``oracle`` is a ``ValueError`` (a file made by a later version)."""

    num_planes: int
    channels: int = 64
    blocks: int = 4
    hidden: int = 256
    features: str = ""
    """Empty: the observation planes only. A version of ``agents.features.VERSIONS``
    (``analysis-v1``, ``analysis-v2``): the observation plus that version's analysis planes
    appended after them (computed from the view)."""
    oracle: int = 0
    """Planes of ``mjenv.env.oracle`` the value head reads (0: none, the critic sees what the
    policy sees; ``NUM_ORACLE_PLANES``: the oracle critic). The policy never reads them."""

    def __post_init__(self) -> None:
        if self.features and self.features not in _feature_versions():
            raise ValueError(f"network input {self.features!r} is unknown to this code "
                                  f"(it knows '' and {', '.join(map(repr, _feature_versions()))})")
        from mjenv.env.oracle import NUM_ORACLE_PLANES
        if self.oracle not in (0, NUM_ORACLE_PLANES):
            raise ValueError(f"an oracle critic of {self.oracle} planes is unknown to this "
                                  f"code (it knows 0 and {NUM_ORACLE_PLANES})")

    @property
    def input_planes(self) -> int:
        """Planes the network reads: the observation's, plus the analysis planes if any."""
        if not self.features:
            return self.num_planes
        from agents.features import feature_version
        return self.num_planes + len(feature_version(self.features).planes)


def _feature_versions() -> tuple[str, ...]:
    from agents.features import VERSIONS
    return tuple(VERSIONS)


class InputBuilder:
    """Turns (observations, views) into what a network of ``config`` reads: the observation
    planes as they are, or with the analysis planes of ``agents.features`` appended. Every
    driver (the agent, self-play rollouts, behaviour cloning) goes through it, so a network is
    always fed the input it was trained on."""

    def __init__(self, config: NetConfig) -> None:
        self.features = config.features
        self._analyst = None
        if self.features:
            from agents.features import Analyst
            self._analyst = Analyst(self.features)

    def __call__(self, observations: np.ndarray, views: Sequence[PlayerView]) -> np.ndarray:
        obs = np.asarray(observations, dtype=np.float32)
        if self._analyst is None:
            return obs
        from agents.features import feature_planes
        return np.concatenate([obs, feature_planes(views, self._analyst)], axis=1)


def _position_planes() -> torch.Tensor:
    """(13, 34): suit one-hot (m, p, s, honour) and rank one-hot (ranks 1–9; honours 1–7)."""
    pos = torch.zeros(13, NUM_TILE_KINDS)
    for t in range(NUM_TILE_KINDS):
        pos[t // 9, t] = 1.0
        pos[4 + t % 9, t] = 1.0
    return pos


class ResidualBlock(nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv1d(channels, channels, 3, padding=1)
        self.conv2 = nn.Conv1d(channels, channels, 3, padding=1)
        nn.init.zeros_(self.conv2.weight)  # each block starts as the identity
        nn.init.zeros_(self.conv2.bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.conv2(torch.relu(self.conv1(torch.relu(x))))


class PolicyNet(nn.Module):
    """Actor-critic: ``forward(obs, oracle=None) -> (logits (B, 110), value (B,))``; ``oracle``
    (B, NetConfig.oracle, 34) is required by, and only read by, an oracle critic."""

    def __init__(self, config: NetConfig) -> None:
        super().__init__()
        self.config = config
        c = config.channels
        self.register_buffer("position", _position_planes(), persistent=False)
        self.stem = nn.Conv1d(config.input_planes + 13, c, 3, padding=1)
        self.blocks = nn.Sequential(*[ResidualBlock(c) for _ in range(config.blocks)])
        self.tile_head = nn.Conv1d(c, NUM_TILED_RANGES, 1)
        self.pooled = nn.Sequential(nn.Linear(2 * c + config.input_planes, config.hidden), nn.ReLU())
        self.action_head = nn.Linear(config.hidden, NUM_UNTILED_ACTIONS)
        self.oracle_encoder = None
        value_in = config.hidden
        if config.oracle:
            self.oracle_encoder = nn.Sequential(
                nn.Conv1d(config.oracle + 13, c, 3, padding=1), nn.ReLU(),
                nn.Conv1d(c, c, 3, padding=1), nn.ReLU())
            value_in += 2 * c
        self.value_head = nn.Sequential(nn.Linear(value_in, config.hidden // 2), nn.ReLU(),
                                        nn.Linear(config.hidden // 2, 1))
        # CleanRL's initialisation: small policy logits (near-uniform start), unit-scale value.
        for head, std in ((self.tile_head, 0.01), (self.action_head, 0.01), (self.value_head[-1], 1.0)):
            nn.init.orthogonal_(head.weight, std)
            nn.init.zeros_(head.bias)

    def forward(self, obs: torch.Tensor,
                oracle: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        logits, z = self.policy(obs)
        return logits, self.value(z, oracle)

    def policy(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The logits (B, 110), from the observation alone, and the pooled trunk features
        ``z`` (B, hidden) that :meth:`value` reads."""
        pos = self.position.expand(obs.shape[0], -1, -1)
        h = torch.relu(self.blocks(self.stem(torch.cat([obs, pos], dim=1))))
        tiled = self.tile_head(h).flatten(1)  # (B, 3*34) in id order: discard, ankan, kakan
        z = self.pooled(torch.cat([h.mean(-1), h.amax(-1), obs.mean(-1)], dim=1))
        return torch.cat([tiled, self.action_head(z)], dim=1), z

    def value(self, z: torch.Tensor, oracle: torch.Tensor | None = None) -> torch.Tensor:
        """The state value (B,) from the trunk features ``z`` of :meth:`policy`, and for an
        oracle critic the oracle planes."""
        if self.oracle_encoder is None:
            if oracle is not None:
                raise ValueError("this network has no oracle critic: it reads no oracle planes")
            return self.value_head(z).squeeze(-1)
        if oracle is None:
            raise ValueError("this network's value reads the oracle planes (NetConfig.oracle): "
                             "pass them")
        pos = self.position.expand(oracle.shape[0], -1, -1)
        o = self.oracle_encoder(torch.cat([oracle, pos], dim=1))
        return self.value_head(torch.cat([z, o.mean(-1), o.amax(-1)], dim=1)).squeeze(-1)

    def get_action_and_value(self, obs: torch.Tensor, mask: torch.Tensor,
                             action: torch.Tensor | None = None,
                             generator: torch.Generator | None = None,
                             oracle: torch.Tensor | None = None):
        """CleanRL's entry point: sample (or score the given ``action``) under the mask.
        Returns ``(action, log_prob, entropy, value, log_probs)``, the last every action's
        log-probability (about -1e8 for illegal ones): what a KL to another policy needs."""
        logits, value = self(obs, oracle)
        logits = masked_logits(logits, mask)
        if action is None:
            action = sample_masked(logits, generator)
        log_probs = torch.log_softmax(logits, dim=-1)
        return (action, log_probs.gather(1, action.unsqueeze(1)).squeeze(1),
                masked_entropy(logits, mask), value, log_probs)


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Illegal actions get ``-1e8``: zero probability after the softmax, no NaNs."""
    return torch.where(mask.bool(), logits, torch.full_like(logits, ILLEGAL_LOGIT))


def masked_entropy(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Entropy over the legal actions only (``logits`` already masked)."""
    log_probs = torch.log_softmax(logits, dim=-1)
    plogp = torch.where(mask.bool(), log_probs.exp() * log_probs, torch.zeros_like(log_probs))
    return -plogp.sum(-1)


def sample_masked(logits: torch.Tensor, generator: torch.Generator | None = None) -> torch.Tensor:
    """One action per row from masked logits; illegal ones have probability exactly 0."""
    probs = torch.softmax(logits, dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(1)


def cpu_weights(state_dict: Weights) -> Weights:
    """A detached copy of weights on the CPU: what a snapshot, a rollout job or a file keeps,
    untouched by the updates that follow."""
    return {k: v.detach().cpu().clone() for k, v in state_dict.items()}


def build_net(config: NetConfig, state_dict: Weights | None = None) -> PolicyNet:
    net = PolicyNet(config)
    if state_dict is not None:
        net.load_state_dict(state_dict)
    return net


def load_weights(net: PolicyNet, state_dict: Weights) -> None:
    """Load ``state_dict`` into ``net``. Weights of the same network without the oracle
    critic extend it: everything they hold is loaded, the oracle encoder keeps its fresh
    initialisation, and the value MLP's first layer gets the old weights for the trunk features
    and zeros for the oracle's — so the extended value starts equal to the old one, and the
    oracle features come in as training moves those zeros."""
    if net.oracle_encoder is None or any(k.startswith("oracle_encoder.") for k in state_dict):
        net.load_state_dict(state_dict)
        return
    state = dict(state_dict)
    first = net.value_head[0].weight
    old = state["value_head.0.weight"]
    state["value_head.0.weight"] = torch.cat(
        [old, torch.zeros(first.shape[0], first.shape[1] - old.shape[1], dtype=old.dtype)], dim=1)
    state.update({k: v.detach().cpu() for k, v in net.state_dict().items()
                  if k.startswith("oracle_encoder.")})
    net.load_state_dict(state)


def pick_device(device: str | None = None) -> torch.device:
    """``None``/"auto": CUDA when available, else CPU. A device this torch cannot use (an unknown
    name, CUDA on a CPU-only build or machine, a GPU index past the last) is a ``ValueError``
    saying why, here rather than as torch's error at the first tensor moved there."""
    if device in (None, "auto"):
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        dev = torch.device(device)
    except (RuntimeError, TypeError):
        raise ValueError("not a device: use auto, cpu, cuda or cuda:N") from None
    if dev.type == "cuda":
        if not torch.cuda.is_available():
            why = ("this torch build has no CUDA" if torch.version.cuda is None
                   else "no CUDA device is visible")
            raise ValueError(f"{why} (torch {torch.__version__}); use cpu or auto")
        if dev.index is not None and dev.index >= torch.cuda.device_count():
            raise ValueError(f"there are {torch.cuda.device_count()} CUDA device(s): "
                             f"cuda:0 … cuda:{torch.cuda.device_count() - 1}")
    elif dev.type not in ("cpu", "mps"):
        raise ValueError(f"device type {dev.type!r} is not supported: use auto, cpu, cuda or "
                         f"cuda:N")
    elif dev.type == "mps" and not torch.backends.mps.is_available():
        raise ValueError("MPS (Apple GPU) is not available here; use cpu or auto")
    return dev
