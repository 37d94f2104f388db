"""The PPO policy: an actor-critic network over the observation planes, its checkpoint file
format, and ``PPOAgent`` (the agent protocol of ``agents.base`` with batched inference).

Network. The observation is ``(NUM_PLANES, 34)``: one column per tile kind. A 1-D convolution
runs along the 34 columns (so "a tile and its neighbours" is the receptive field, which is what
chows, waits and suit shapes are about); thirteen fixed position channels (suit one-hot, rank
one-hot) are appended so the convolution can tell 9m from 1p and honours from numbers. A network built
with ``NetConfig(features=...)`` also reads the analysis planes of ``agents.features`` (tile
efficiency, value distance, danger: the look-ahead a small network learns slowly), appended
after the observation planes by ``InputBuilder``. The
trunk is a stack of pre-activation residual blocks. Two heads:

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
``policy`` alone and never needs them. The oracle's weights stay in every file saved from such
a network (a policy file included: it plays like any other and can start a new run with its
critic intact). ``load_weights`` extends the weights of a network without the oracle (the
shipped model, a BC warm start) to one with it.

Masking: illegal logits are replaced by ``-1e8`` (``torch.where(mask, logits, -1e8)``), so the
softmax puts exactly zero probability on them and the entropy sums over legal actions only.

Checkpoint files (written by ``training.checkpoint`` and ``save_policy_file``) are a magic
line, the SHA-256 of the payload and the payload (``torch.save`` of plain data and tensors,
read back with ``weights_only=True``). The payload records the observation/action encoding
signature and the ``RuleConfig``; loading refuses files that are not ours, are truncated or
modified, or were trained on a different encoding. The shipped checkpoint is
``agents/pretrained/ppo.pt``.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import torch
from torch import nn

from agents.base import BaseAgent
from mjenv.game.view import PlayerView
from mjenv.rules import RuleConfig

ILLEGAL_LOGIT = -1e8
NUM_TILE_KINDS = 34
NUM_TILED_RANGES = 3          # discard, concealed kan, added kan: ids 0–101
NUM_UNTILED_ACTIONS = 8       # ids 102–109
FILE_MAGIC = b"MJENV-CHECKPOINT v1\n"
FILE_FORMAT = 1
PRETRAINED_PATH = Path(__file__).resolve().parent / "pretrained" / "ppo.pt"
#: The policies shipped with the package, by the name their ``ppo:`` spec gives them: the PPO
#: model and the behaviour clone of the (tuned) heuristic that self-play starts from
#: (docs/training.md says how each was made).
SHIPPED = {"pretrained": PRETRAINED_PATH, "pretrained-bc": PRETRAINED_PATH.with_name("bc.pt")}


class CheckpointError(ValueError):
    """A checkpoint file that cannot be used: not ours, corrupt, or incompatible."""


# --------------------------------------------------------------------------- encoding


def _plane_names() -> list[str]:
    from mjenv.env import observation

    return [str(p[0]) if isinstance(p, (tuple, list)) else str(p) for p in observation.PLANES]


def encoding_signature() -> dict[str, Any]:
    """What a trained network depends on outside its weights: the observation planes and the
    action ids. A checkpoint stores this and loading compares it, so a network is never fed
    planes it was not trained on (a silent, disastrous mismatch otherwise)."""
    from mjenv.env import actions, observation

    digest = hashlib.sha256("\n".join(_plane_names()).encode()).hexdigest()[:16]
    return {
        "num_planes": int(observation.NUM_PLANES),
        "planes_sha": digest,
        # Always empty (the planes' names and count above are what changes with the encoding);
        # kept because every checkpoint stores the key and loading compares the whole dict.
        "observation_version": "",
        "num_actions": int(actions.NUM_ACTIONS),
    }


def check_encoding(stored: dict[str, Any], path: str | os.PathLike) -> None:
    current = encoding_signature()
    if stored != current:
        diff = ", ".join(f"{k}: file {stored.get(k)!r} vs code {current.get(k)!r}"
                         for k in sorted(set(stored) | set(current)) if stored.get(k) != current.get(k))
        raise CheckpointError(f"{path}: trained on a different observation/action encoding "
                              f"({diff}); retrain or use the mjenv version it was made with")


# --------------------------------------------------------------------------- file format


def write_checkpoint_file(path: str | os.PathLike, payload: dict[str, Any]) -> None:
    """Atomic write: a temporary file in the same folder, fsync, then ``os.replace`` — a run
    killed mid-write leaves the previous checkpoint intact, never half a file."""
    buf = io.BytesIO()
    torch.save(payload, buf)
    data = buf.getvalue()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    with open(tmp, "wb") as f:
        f.write(FILE_MAGIC)
        f.write(hashlib.sha256(data).digest())
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def read_checkpoint_file(path: str | os.PathLike) -> dict[str, Any]:
    """Read and verify a checkpoint; raises ``CheckpointError`` naming the problem."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise CheckpointError(f"{path}: no such checkpoint file") from None
    except IsADirectoryError:
        held = sorted((p.name for p in path.glob("*.pt")), key=lambda n: (n != "latest.pt", n))
        hint = f" (it holds {', '.join(held)}: e.g. {path / held[0]})" if held else ""
        raise CheckpointError(f"{path}: is a directory, not a checkpoint file{hint}") from None
    except OSError as exc:
        raise CheckpointError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if not raw.startswith(FILE_MAGIC):
        raise CheckpointError(f"{path}: not an mjenv checkpoint (missing the "
                              f"{FILE_MAGIC.strip().decode()!r} header)")
    digest, data = raw[len(FILE_MAGIC):len(FILE_MAGIC) + 32], raw[len(FILE_MAGIC) + 32:]
    if hashlib.sha256(data).digest() != digest:
        raise CheckpointError(f"{path}: corrupt checkpoint (checksum mismatch: the file was "
                              f"truncated or modified after it was written)")
    try:
        payload = torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
    except Exception as exc:  # checksum matched, so this is a foreign or future payload
        raise CheckpointError(f"{path}: unreadable checkpoint payload ({exc})") from exc
    if not isinstance(payload, dict) or payload.get("format") != FILE_FORMAT:
        raise CheckpointError(f"{path}: unsupported checkpoint format "
                              f"{payload.get('format') if isinstance(payload, dict) else '?'!r} "
                              f"(this code reads format {FILE_FORMAT})")
    return payload


# --------------------------------------------------------------------------- network


@dataclass(frozen=True)
class NetConfig:
    """Network shape; stored in every checkpoint so ``load`` rebuilds the same module."""

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
            raise CheckpointError(f"network input {self.features!r} is unknown to this code "
                                  f"(it knows '' and {', '.join(map(repr, _feature_versions()))})")
        from mjenv.env.oracle import NUM_ORACLE_PLANES
        if self.oracle not in (0, NUM_ORACLE_PLANES):
            raise CheckpointError(f"an oracle critic of {self.oracle} planes is unknown to this "
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


def build_net(config: NetConfig, state_dict: dict[str, torch.Tensor] | None = None) -> PolicyNet:
    net = PolicyNet(config)
    if state_dict is not None:
        net.load_state_dict(state_dict)
    return net


def load_weights(net: PolicyNet, state_dict: dict[str, torch.Tensor]) -> None:
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


# --------------------------------------------------------------------------- agent


def policy_payload(net: PolicyNet, rules: RuleConfig, meta: dict[str, Any] | None = None) -> dict:
    """The part of a checkpoint an agent needs: network shape and weights, encoding, rules."""
    return {
        "format": FILE_FORMAT,
        "encoding": encoding_signature(),
        "plane_names": _plane_names(),   # lets a later encoding's planes be matched by name
        "rules": rules.to_dict(),
        "net_config": asdict(net.config),
        "model": {k: v.detach().cpu().clone() for k, v in net.state_dict().items()},
        "meta": dict(meta or {}),
    }


def save_policy_file(path: str | os.PathLike, net: PolicyNet, rules: RuleConfig,
                     meta: dict[str, Any] | None = None) -> None:
    """Weights-only checkpoint (what ships as ``agents/pretrained/ppo.pt``)."""
    write_checkpoint_file(path, policy_payload(net, rules, meta))


class PPOAgent(BaseAgent):
    """A trained policy behind the agent protocol.

    ``greedy=True`` (default) plays the most probable legal action — deterministic, which is
    what duplicate evaluation wants; ``greedy=False`` samples with a ``seed``-ed generator.
    ``rules`` are the rules it was trained under; ``act_batch`` refuses views of other rules
    (``rounds``, the match length, aside) unless ``allow_other_rules``: a policy trained with
    ``min_points=6`` has never seen the win/claim patterns of other settings.
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
        payload = read_checkpoint_file(path)
        check_encoding(payload["encoding"], path)
        net = build_net(NetConfig(**payload["net_config"]), payload["model"])
        kwargs.setdefault("name", f"ppo:{Path(path).name}")
        return cls(net, rules=RuleConfig.from_dict(payload["rules"]), **kwargs)

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
