"""Training checkpoints: everything needed to continue a run exactly, in one file — its
format, written and read here alone.

A training checkpoint is a checkpoint file (``agents.checkpoint_file``: header, SHA-256, a
payload holding the policy — network, observation/action encoding signature, ``RuleConfig``)
whose payload also holds the training state: optimizer, learner RNG (numpy minibatch shuffles,
torch), opponent pool, update counter, global step, the run's ``Args``, the weights it started
from (if it did), the rollout in flight (an overlapped run's: its version and weights) and its
*history*: the rows of ``progress.csv`` and the best policy so far (``best.pt``'s update and
weights, in float16 like the pool's). The history makes the one file enough to carry a run to
a new machine: a resume there writes ``progress.csv`` and ``best.pt`` back from it. It is
written atomically at update boundaries, so a killed run leaves the last complete checkpoint.
Loading refuses — with a ``CheckpointError`` (a ``ValueError``) that says why — files that are
not checkpoints, truncated or modified files, a different encoding, a different ``RuleConfig``
when one is expected, and weights-only policy files where training state is needed.

The training state is stored *packed* (``pack``): every floating-point tensor but the model's
own is written bit for bit, XORed with the model's weights where it is a copy of them (the
pool's snapshots, the rollout in flight, the reference, the best — a few updates apart, most of
their high bits agree), its bytes regrouped by position (sign and exponent bytes together) and
deflated. Nothing is rounded, so a resume is as exact as before; a checkpoint of the default
network with a full pool is about half its unpacked size.

Older checkpoints load as today's (``load_training_checkpoint``): without packing as they are;
without a rollout in flight or a starting policy as a run that had none; without a history
from the run's folder (the rows of its ``progress.csv`` up to the checkpoint's update, and its
``best.pt``).

``PPOAgent.load`` reads the same files (it ignores the training state), so
``mjenv eval --agent ppo:runs/NAME/latest.pt`` works on a live run.

A run's network comes from its checkpoint when it resumes, and from ``--init-from``'s file when
it starts from one: ``adopt_network`` takes the shape and input (``--channels``, ``--blocks``,
``--features``, ``--oracle-critic``) from there and refuses a flag typed with another value,
naming it — loading the weights into a network of another shape would fail with a page of size
mismatches. One change is allowed where a run starts: ``--oracle-critic`` on weights without
an oracle critic adds a fresh one (``agents.network.load_weights``).
"""

from __future__ import annotations

import csv
import dataclasses
import os
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Collection, NamedTuple

import numpy as np
import torch

from agents.checkpoint_file import (CheckpointError, Policy, policy_of, policy_payload,
                                    read_checkpoint_file, write_checkpoint_file)
from agents.network import NetConfig, PolicyNet, Weights
from mjenv.rules import RuleConfig
from training.selfplay import OpponentPool, half_weights

__all__ = ["CheckpointError", "Snapshot", "History", "Checkpoint", "save_training_checkpoint",
           "load_training_checkpoint", "adopt_network", "load_init_checkpoint", "pack",
           "unpack"]

TRAINING_KEYS = ("optimizer", "rng", "pool", "update", "global_step", "args")
#: The arguments that fix a network's shape and input (``NetConfig`` fields of the same names,
#: and ``oracle_critic``: whether ``NetConfig.oracle`` is set).
NET_FIELDS = ("channels", "blocks", "features", "oracle_critic")
#: The payload key marking packed training state, and its format version.
PACKED = "packed"
# the floating-point dtypes packed, as the unsigned integers of their bits and as numpy floats
_BITS = {torch.float32: np.dtype(np.uint32), torch.float16: np.dtype(np.uint16)}
_FLOAT = {torch.float32: np.float32, torch.float16: np.float16}


class Snapshot(NamedTuple):
    """A policy as it was after ``update`` updates: the weights of the rollout in flight, or
    of the best policy (in float16)."""

    update: int
    model: Weights


@dataclass
class History:
    """What the run's folder shows, kept in its checkpoint too: the rows of ``progress.csv``
    and the best policy so far (``best.pt``), ``None`` before the first evaluation."""

    progress: list[dict[str, Any]] = field(default_factory=list)
    best: Snapshot | None = None


@dataclass
class Checkpoint:
    """A training checkpoint as read: its policy and its training state, unpacked."""

    policy: Policy
    args: dict[str, Any]               # the run's ``Args``, as stored
    optimizer: dict[str, Any]          # ``Optimizer.state_dict()``
    rng: dict[str, Any]                # ``{"numpy": bit generator state, "torch": byte tensor}``
    pool: OpponentPool
    update: int
    global_step: int
    in_flight: Snapshot | None         # the rollout playing when it was written (overlap)
    start: Weights | None              # the weights the run started from (--kl-ref-coef's)
    history: History


def pack(weights: dict[str, torch.Tensor], base: dict[str, torch.Tensor] | None = None
         ) -> dict[str, Any]:
    """``weights`` losslessly compressed (see the module docstring): a float32 or float16
    tensor becomes its bit pattern, XORed with ``base``'s tensor of the same name and shape
    (cast to its dtype) where there is one, regrouped byte by byte and deflated; any other
    value is kept as it is. ``unpack(pack(w, base), base)`` gives ``w`` back bit for bit."""
    out: dict[str, Any] = {}
    for name, tensor in weights.items():
        bits_type = _BITS.get(getattr(tensor, "dtype", None))
        if bits_type is None:           # integers, and anything not a tensor
            out[name] = tensor
            continue
        bits = tensor.detach().cpu().contiguous().numpy().view(bits_type).ravel()
        ref = base.get(name) if base is not None else None
        delta = ref is not None and ref.shape == tensor.shape
        if delta:
            bits = bits ^ ref.detach().cpu().to(tensor.dtype).contiguous().numpy().view(
                bits_type).ravel()
        planes = bits.view(np.uint8).reshape(-1, bits_type.itemsize).T.tobytes()
        out[name] = {"dtype": str(tensor.dtype), "shape": tuple(tensor.shape), "delta": delta,
                     # a byte tensor: pickle's protocol 2 would store ``bytes`` at up to twice
                     # their size
                     "data": torch.frombuffer(bytearray(zlib.compress(planes, 6)),
                                              dtype=torch.uint8)}
    return out


def unpack(packed: dict[str, Any], base: dict[str, torch.Tensor] | None = None
           ) -> dict[str, torch.Tensor]:
    """The weights ``pack`` was given (``base``: the same one)."""
    out: dict[str, torch.Tensor] = {}
    for name, item in packed.items():
        if not isinstance(item, dict):
            out[name] = item
            continue
        dtype = getattr(torch, item["dtype"].removeprefix("torch."))
        bits_type = _BITS[dtype]
        planes = np.frombuffer(zlib.decompress(item["data"].numpy().tobytes()), np.uint8)
        bits = planes.reshape(bits_type.itemsize, -1).T.copy().view(bits_type).ravel()
        if item["delta"]:
            bits = bits ^ base[name].to(dtype).contiguous().numpy().view(bits_type).ravel()
        out[name] = torch.from_numpy(bits.view(_FLOAT[dtype]).reshape(item["shape"]).copy())
    return out


def _map_state(state: dict[str, Any], model: Weights,
               code: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    """The training entries of ``state`` with ``code`` (``pack`` on a save, ``unpack`` on a
    load) applied to each of their weights: the copies of the network against ``model``, the
    optimizer's moments on their own."""
    def against(entry: dict[str, Any] | None) -> dict[str, Any] | None:
        return None if entry is None else {**entry, "model": code(entry["model"], model)}

    optimizer, pool = state["optimizer"], state["pool"]
    reference, history = state.get("reference"), state.get("history")
    return dict(
        optimizer={**optimizer, "state": {i: code(s) for i, s in optimizer["state"].items()}},
        pool={**pool, "weights": [code(w, model) for w in pool["weights"]]},
        behaviour=against(state.get("behaviour")),
        reference=None if reference is None else code(reference, model),
        history=None if history is None else {**history, "best": against(history["best"])},
    )


def _stored(snapshot: Snapshot | None) -> dict[str, Any] | None:
    return None if snapshot is None else {"update": snapshot.update, "model": snapshot.model}


def _snapshot(entry: dict[str, Any] | None) -> Snapshot | None:
    return None if entry is None else Snapshot(int(entry["update"]), entry["model"])


def save_training_checkpoint(path: str | os.PathLike, *, net: PolicyNet,
                             optimizer: torch.optim.Optimizer, rules: RuleConfig,
                             args: dict[str, Any], update: int, global_step: int,
                             rng: np.random.Generator, pool: OpponentPool,
                             in_flight: Snapshot | None = None, start: Weights | None = None,
                             history: History | None = None) -> None:
    """``in_flight``: the version and weights of the rollout in flight (overlapped runs), so
    that a resumed run plays it again exactly as the uninterrupted run did. ``start``: the
    weights the run started from (``--init-from`` or BC), the policy ``--kl-ref-coef`` keeps
    it near — stored (a policy's size, about 1 MB) rather than named, so a resume needs no
    other file and cannot pick up one that changed since. ``history``: see the module
    docstring."""
    payload = policy_payload(net, rules, meta={"update": update, "global_step": global_step})
    stored_history = None if history is None else {"progress": history.progress,
                                                   "best": _stored(history.best)}
    payload.update(
        _map_state({"optimizer": optimizer.state_dict(), "pool": pool.state(),
                    "behaviour": _stored(in_flight), "reference": start,
                    "history": stored_history}, payload["model"], pack),
        rng={"numpy": rng.bit_generator.state, "torch": torch.get_rng_state()},
        update=int(update),
        global_step=int(global_step),
        args=dict(args),
    )
    payload[PACKED] = 1
    write_checkpoint_file(path, payload)


def load_training_checkpoint(path: str | os.PathLike,
                             expect_rules: RuleConfig | None = None) -> Checkpoint:
    """Read a training checkpoint and check it can continue here (see the module doc)."""
    payload = read_checkpoint_file(path)
    policy = policy_of(payload, path)
    missing = [k for k in TRAINING_KEYS if k not in payload]
    if missing:
        raise CheckpointError(f"{path}: a policy-only file (no {', '.join(missing)}); it can "
                              f"start a run with --init-from but cannot be resumed")
    if expect_rules is not None and policy.rules != expect_rules:
        raise CheckpointError(f"{path}: trained under {policy.rules}, not {expect_rules}")
    if payload.pop(PACKED, None):
        payload.update(_map_state(payload, payload["model"], unpack))
    update = int(payload["update"])
    stored = payload.get("history")
    history = (_history_of_folder(Path(path).parent, update) if stored is None else
               History(list(stored["progress"]), _snapshot(stored["best"])))
    return Checkpoint(policy=policy, args=payload["args"], optimizer=payload["optimizer"],
                      rng=payload["rng"], pool=OpponentPool.from_state(payload["pool"]),
                      update=update, global_step=int(payload["global_step"]),
                      in_flight=_snapshot(payload.get("behaviour")),
                      start=payload.get("reference"), history=history)


def _history_of_folder(folder: Path, update: int) -> History:
    """The history of a checkpoint written before checkpoints kept one: the rows of the run's
    ``progress.csv`` up to its update (later rows belong to the part of the run that was lost)
    and its ``best.pt``."""
    history = History()
    if (folder / "progress.csv").exists():
        with open(folder / "progress.csv", newline="") as f:
            history.progress = [r for r in csv.DictReader(f) if int(r["update"]) <= update]
    if (folder / "best.pt").exists():
        best = read_checkpoint_file(folder / "best.pt")
        history.best = Snapshot(int(best["meta"]["update"]), half_weights(best["model"]))
    return history


def adopt_network(args: Any, given: Collection[str], config: NetConfig, source: str,
                  hint: str, may_add_oracle: bool = False) -> Any:
    """``args`` with the network fields of ``config`` (a checkpoint's; those of ``NET_FIELDS``
    that ``args`` has); a field in ``given`` (typed by the user) with another value is a
    ``ValueError`` naming the flag, ``source`` and ``hint`` (what to do instead) — except
    ``--oracle-critic`` on a network without one when ``may_add_oracle``."""
    stored = {**dataclasses.asdict(config), "oracle_critic": bool(config.oracle)}
    names = [name for name in NET_FIELDS if hasattr(args, name)]
    adopted = {name: stored[name] for name in names}
    for name in names:
        if name in given and getattr(args, name) != stored[name]:
            if name == "oracle_critic" and may_add_oracle and args.oracle_critic:
                adopted[name] = True
                continue
            raise ValueError(f"--{name.replace('_', '-')} {getattr(args, name)!r} differs from "
                             f"{source}'s network ({name} {stored[name]!r}); {hint}")
    return dataclasses.replace(args, **adopted)


def load_init_checkpoint(spec: str, rules: RuleConfig) -> Policy:
    """The policy of ``--init-from SPEC`` (a file, ``ppo:PATH`` or ``ppo:pretrained``), checked
    for this code's encoding and for ``rules``."""
    from agents.registry import policy_file

    try:
        path = policy_file(spec)
        policy = policy_of(read_checkpoint_file(path), path)
    except ValueError as exc:
        raise CheckpointError(f"--init-from {spec}: {exc}") from None
    if policy.rules != rules:
        raise CheckpointError(f"--init-from {spec}: trained under {policy.rules}, not {rules}")
    return policy
