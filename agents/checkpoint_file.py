"""Checkpoint files: the one file format of every trained network, policy files and training
checkpoints alike.

A file is a magic line, the SHA-256 of the payload and the payload (``torch.save`` of plain
data and tensors, read back with ``weights_only=True``). Every payload holds a *policy*: the
network's shape (``NetConfig``) and weights, the observation/action encoding signature, the
``RuleConfig`` it was trained under and free ``meta`` data. A training checkpoint adds the
training state to the same payload (``training.checkpoint``), so an agent reads a live run's
``latest.pt`` like any policy file. Loading refuses, with a ``CheckpointError`` that says why,
files that are not ours, are truncated or modified, were trained on a different encoding, or
describe a network this code does not know. Writes are atomic.
"""

from __future__ import annotations

import hashlib
import io
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch

from agents.network import NetConfig, PolicyNet, Weights, build_net, cpu_weights
from mjenv.rules import RuleConfig

FILE_MAGIC = b"MJENV-CHECKPOINT v1\n"
FILE_FORMAT = 1


class CheckpointError(ValueError):
    """A checkpoint file that cannot be used: not ours, corrupt, or incompatible."""


# --------------------------------------------------------------------------- encoding


def plane_names() -> list[str]:
    """The observation planes' names, in order: stored with every policy so that a later
    encoding's planes can be matched by name."""
    from mjenv.env import observation

    return [str(p[0]) if isinstance(p, (tuple, list)) else str(p) for p in observation.PLANES]


def encoding_signature() -> dict[str, Any]:
    """What a trained network depends on outside its weights: the observation planes and the
    action ids. A checkpoint stores this and loading compares it, so a network is never fed
    planes it was not trained on (a silent, disastrous mismatch otherwise)."""
    from mjenv.env import actions, observation

    digest = hashlib.sha256("\n".join(plane_names()).encode()).hexdigest()[:16]
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


# --------------------------------------------------------------------------- policies


def policy_payload(net: PolicyNet, rules: RuleConfig, meta: dict[str, Any] | None = None) -> dict:
    """The part of a checkpoint an agent needs: network shape and weights, encoding, rules."""
    return {
        "format": FILE_FORMAT,
        "encoding": encoding_signature(),
        "plane_names": plane_names(),
        "rules": rules.to_dict(),
        "net_config": asdict(net.config),
        "model": cpu_weights(net.state_dict()),
        "meta": dict(meta or {}),
    }


def save_policy_file(path: str | os.PathLike, net: PolicyNet, rules: RuleConfig,
                     meta: dict[str, Any] | None = None) -> None:
    """A policy file: the payload of ``policy_payload`` alone (what ships as
    ``agents/pretrained/ppo.pt``)."""
    write_checkpoint_file(path, policy_payload(net, rules, meta))


@dataclass(frozen=True)
class Policy:
    """A policy as a checkpoint file holds it: the network's shape and weights, and the rules it
    was trained under."""

    config: NetConfig
    model: Weights
    rules: RuleConfig

    def build(self) -> PolicyNet:
        return build_net(self.config, self.model)


def policy_of(payload: dict[str, Any], path: str | os.PathLike) -> Policy:
    """The policy a checkpoint's payload holds (any checkpoint: a policy file or a run's
    ``latest.pt``), checked for this code's encoding and network; ``CheckpointError`` naming
    ``path`` otherwise (a file made by a later version, say)."""
    check_encoding(payload["encoding"], path)
    try:
        config = NetConfig(**payload["net_config"])
    except (TypeError, ValueError) as exc:
        raise CheckpointError(f"{path}: {exc}") from None
    return Policy(config, payload["model"], RuleConfig.from_dict(payload["rules"]))


def read_policy(path: str | os.PathLike) -> Policy:
    """The policy of the checkpoint file at ``path``."""
    return policy_of(read_checkpoint_file(path), path)
