"""Training checkpoints: everything needed to continue a run exactly.

A training checkpoint is a policy file (``agents.ppo``: header, SHA-256, payload with the
network, the observation/action encoding signature and the ``RuleConfig``) plus the training
state: optimizer, learner RNG (numpy minibatch shuffles, torch), opponent pool, update counter,
global step, the run's ``Args``, the weights it started from (if it did) and its *history*: the
rows of ``progress.csv`` and the best policy so far (``best.pt``'s update and weights, in
float16 like the pool's). The history makes the one file enough to carry a run to a new
machine: a resume there writes ``progress.csv`` and ``best.pt`` back from it. It is written
atomically at update boundaries (temporary file + ``os.replace``), so a killed run leaves the
last complete checkpoint. Loading refuses —
with a ``CheckpointError`` (a ``ValueError``) that says why — files that are not checkpoints,
truncated or modified files, a different encoding, a different ``RuleConfig`` when one is
expected, and weights-only policy files where training state is needed.

``PPOAgent.load`` reads the same files (it ignores the training state), so
``mjenv eval --agent ppo:runs/NAME/latest.pt`` works on a live run.

A run's network comes from its checkpoint when it resumes, and from ``--init-from``'s file when
it starts from one: ``adopt_network`` takes the shape and input (``--channels``, ``--blocks``,
``--features``, ``--oracle-critic``) from there and refuses a flag typed with another value,
naming it — loading the weights into a network of another shape would fail with a page of size
mismatches. One change is allowed where a run starts: ``--oracle-critic`` on weights without
an oracle critic adds a fresh one (``agents.ppo.load_weights``).
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any, Collection

import numpy as np
import torch

from agents.ppo import (CheckpointError, PolicyNet, check_encoding, policy_payload,
                        read_checkpoint_file, write_checkpoint_file)
from mjenv.rules import RuleConfig

__all__ = ["CheckpointError", "save_training_checkpoint", "load_training_checkpoint",
           "adopt_network", "load_init_checkpoint"]

TRAINING_KEYS = ("optimizer", "rng", "pool", "update", "global_step", "args")
#: The arguments that fix a network's shape and input (``NetConfig`` fields of the same names,
#: and ``oracle_critic``: whether ``NetConfig.oracle`` is set).
NET_FIELDS = ("channels", "blocks", "features", "oracle_critic")


def save_training_checkpoint(path: str | os.PathLike, *, net: PolicyNet,
                             optimizer: torch.optim.Optimizer, rules: RuleConfig,
                             args: dict[str, Any], update: int, global_step: int,
                             rng: np.random.Generator, pool,
                             behaviour: dict[str, Any] | None = None,
                             reference: dict[str, torch.Tensor] | None = None,
                             history: dict[str, Any] | None = None) -> None:
    """``behaviour``: the version and weights of the rollout in flight (overlapped runs), so
    that a resumed run plays it again exactly as the uninterrupted run did. ``reference``: the
    weights the run started from (``--init-from`` or BC), the policy ``--kl-ref-coef`` keeps it
    near — stored (a policy's size, about 1 MB) rather than named, so a resume needs no other
    file and cannot pick up one that changed since. ``history``: ``{"progress": rows,
    "best": {"update", "model"} or None}`` (see the module docstring)."""
    payload = policy_payload(net, rules, meta={"update": update, "global_step": global_step})
    payload.update(
        optimizer=optimizer.state_dict(),
        rng={"numpy": rng.bit_generator.state, "torch": torch.get_rng_state()},
        pool=pool.state(),
        behaviour=behaviour,
        reference=reference,
        history=history,
        update=int(update),
        global_step=int(global_step),
        args=dict(args),
    )
    write_checkpoint_file(path, payload)


def load_training_checkpoint(path: str | os.PathLike,
                             expect_rules: RuleConfig | None = None) -> dict[str, Any]:
    """Read a training checkpoint and check it can continue here (see the module doc)."""
    payload = read_checkpoint_file(path)
    check_encoding(payload["encoding"], path)
    missing = [k for k in TRAINING_KEYS if k not in payload]
    if missing:
        raise CheckpointError(f"{path}: a policy-only file (no {', '.join(missing)}); it can "
                              f"start a run with --init-from but cannot be resumed")
    stored = RuleConfig.from_dict(payload["rules"])
    if expect_rules is not None and stored != expect_rules:
        raise CheckpointError(f"{path}: trained under {stored}, not {expect_rules}")
    return payload


def adopt_network(args: Any, given: Collection[str], net_config: dict[str, Any], source: str,
                  hint: str, may_add_oracle: bool = False) -> Any:
    """``args`` with the network fields of ``net_config`` (a checkpoint's; those of
    ``NET_FIELDS`` that ``args`` has); a field in ``given`` (typed by the user) with another
    value is a ``ValueError`` naming the flag, ``source`` and ``hint`` (what to do instead) —
    except ``--oracle-critic`` on a network without one when ``may_add_oracle``."""
    stored = {**net_config, "oracle_critic": bool(net_config.get("oracle", 0))}
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


def load_init_checkpoint(spec: str, rules: RuleConfig) -> dict[str, Any]:
    """The payload of ``--init-from SPEC`` (a file, ``ppo:PATH`` or ``ppo:pretrained``), checked
    for this code's encoding and for ``rules``."""
    from agents.registry import policy_file

    try:
        path = policy_file(spec)
        payload = read_checkpoint_file(path)
        check_encoding(payload["encoding"], path)
    except ValueError as exc:
        raise CheckpointError(f"--init-from {spec}: {exc}") from None
    stored = RuleConfig.from_dict(payload["rules"])
    if stored != rules:
        raise CheckpointError(f"--init-from {spec}: trained under {stored}, not {rules}")
    return payload
