"""A PPO run's set-up: a new run (random weights, ``--init-from``'s, or a behaviour clone's) or
one resumed from its checkpoint, everything checked before the run folder is touched.

``start_run`` returns a ``Run``: the arguments (on ``--resume`` the stored run's, with the
flags given on the command line over them), the folder, the learner and its optimizer, and
everything else the run's checkpoint holds. The network's shape and input come from the
checkpoint a run resumes or starts from (``training.checkpoint.adopt_network``).
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import torch

from agents.network import PolicyNet, Weights, build_net, cpu_weights, load_weights, pick_device
from mjenv.rules import RuleConfig
from mjenv.env.observation import NUM_PLANES
from training.checkpoint import (Checkpoint, History, Snapshot, adopt_network,
                                 load_init_checkpoint, load_training_checkpoint)
from training.rundir import prepare_run_dir
from training.selfplay import OpponentPool, RolloutSettings

if TYPE_CHECKING:
    from agents.checkpoint_file import Policy
    from training.ppo import Args

#: Fields that only matter when a run starts: on ``--resume`` a new value would be ignored.
STARTING_ONLY = ("init_from", "bc_warmstart", "bc_hands", "bc_epochs", "bc_lr",
                 "bc_soft_targets")


@dataclass
class Run:
    """A PPO run between two updates: its arguments, folder, rules and rollout settings, the
    learner, and the state its checkpoint keeps (``training.checkpoint``)."""

    args: Args
    out: Path
    rules: RuleConfig
    settings: RolloutSettings
    net: PolicyNet
    optimizer: torch.optim.Optimizer
    rng: np.random.Generator           # the minibatch order
    pool: OpponentPool
    update: int = 0                    # updates done
    global_step: int = 0               # learner decisions trained on
    start: Weights | None = None       # the weights the run started from, if it did
    reference: PolicyNet | None = None         # those, frozen, when --kl-ref-coef is on
    in_flight: Snapshot | None = None  # the policy of the rollout playing (overlap)
    history: History = field(default_factory=History)


def start_run(args: Args, given: set[str]) -> Run:
    """Set a run up: resume the run in ``args.out`` (``--resume``) or start a new one; ``given``:
    the fields the user set (on ``--resume`` they override the stored run's)."""
    checkpoint = init = None
    if args.resume:
        checkpoint, args = resumed(args, given)
    elif args.init_from:
        init = load_init_checkpoint(args.init_from, args.rules())
        args = adopt_network(args, given, init.config, f"--init-from {args.init_from}",
                             "leave the flag out to take the checkpoint's", may_add_oracle=True)
    settings = args.settings()
    check_specs(settings, args.eval_specs())
    device = pick_device(args.device)
    out = Path(args.out) if checkpoint else prepare_run_dir(
        args.out, prefix="ppo", run_files=args.run_files(), force=args.force)
    args = dataclasses.replace(args, out=str(out), force=False)
    set_threads(args.threads)
    (out / "args.json").write_text(json.dumps(dataclasses.asdict(args), indent=2) + "\n")

    torch.manual_seed(args.seed)
    config = args.net_config(NUM_PLANES)
    source = checkpoint.policy if checkpoint else init
    if source:        # its shape (hidden width too); the oracle as adopt_network settled it
        config = dataclasses.replace(source.config, oracle=config.oracle)
    net = build_net(config).to(device)
    run = Run(args, out, args.rules(), settings, net,
              torch.optim.Adam(net.parameters(), lr=args.learning_rate, eps=1e-5),
              np.random.default_rng([args.seed, 0x5EED]),
              OpponentPool(args.pool_size if args.past_share > 0 else 0))  # none played: none kept
    if checkpoint:
        restore(run, checkpoint)
    else:
        initialise(run, init)
    if args.kl_ref_coef > 0:
        run.reference = build_net(config, run.start).to(device).eval().requires_grad_(False)
    return run


def resumed(args: Args, given: set[str]) -> tuple[Checkpoint, Args]:
    """The checkpoint of the run in ``args.out`` and the arguments it continues with, checked:
    the same rules and network, a KL reference only where the run has one, steps left."""
    out = prepare_run_dir(args.out, prefix="ppo", run_files=args.run_files(), resume=True,
                          resume_from="latest.pt", force=args.force)
    checkpoint = load_training_checkpoint(out / "latest.pt")
    args, overridden = resumed_args(args, given, checkpoint.args)
    if args.rules() != checkpoint.policy.rules:
        raise ValueError(f"--min-points {args.min_points} differs from the run's rules "
                         f"{checkpoint.policy.rules.to_dict()}")
    args = adopt_network(args, given, checkpoint.policy.config, str(out / "latest.pt"),
                         "a resumed run keeps its network")
    if args.kl_ref_coef > 0 and checkpoint.start is None:
        raise ValueError(f"--kl-ref-coef: {out} started from no policy (no --init-from or "
                         f"--bc-warmstart), so it has none to stay near")
    if checkpoint.global_step >= args.total_steps:
        raise ValueError(f"--resume: {out} has trained {checkpoint.global_step:,} steps of its "
                         f"--total-steps {args.total_steps:,}; give a larger --total-steps to "
                         f"continue it")
    if overridden:
        print(f"resume: overriding stored {', '.join(overridden)}", file=sys.stderr)
    return checkpoint, args


def resumed_args(args: Args, given: set[str], stored: dict[str, Any]) -> tuple[Args, list[str]]:
    """The stored run's ``Args`` with the fields the user gave (``given``) overriding them, and
    the names of those that changed (``out`` aside); a given field that cannot take effect on a
    resumed run is a ``ValueError``."""
    cls = type(args)
    known = {f.name: f.default for f in dataclasses.fields(cls)}
    stored = {k: v for k, v in stored.items() if k in known}
    changed = {k for k in given - {"resume", "force"}
               if getattr(args, k) != stored.get(k, known[k])}
    for name in STARTING_ONLY:
        if name in changed:
            raise ValueError(f"--{name.replace('_', '-')} applies when a run starts; --resume "
                             f"continues from the run's latest.pt")
    return (cls(**{**stored, **{k: getattr(args, k) for k in changed}, "resume": True,
                   "force": False}), sorted(changed - {"out"}))


def check_specs(settings: RolloutSettings, eval_specs: list[str]) -> None:
    """Make every agent the run will play once: an unknown spec or an unreadable file is said
    now, before the run folder is touched."""
    from agents import make_agent

    for spec in [s for s, _ in settings.fixed_opponents] + eval_specs:
        make_agent(spec)


def set_threads(threads: int) -> None:
    """Rollout workers pin themselves to one thread each (``training.workers``). The learner
    uses ``--threads``: the default 1 because this network is small and, on a machine shared
    with other work, one thread beat two by 4x in the update (fwd+bwd of 1,024 observations,
    1.1 s vs 4.0 s at load 7 on 2 cores); 0 = one per core, for an idle many-core machine."""
    torch.set_num_threads(threads if threads > 0 else max(1, os.cpu_count() or 1))


def restore(run: Run, checkpoint: Checkpoint) -> None:
    """Bring a freshly built run to the state its checkpoint holds."""
    run.net.load_state_dict(checkpoint.policy.model)
    run.optimizer.load_state_dict(checkpoint.optimizer)
    run.rng.bit_generator.state = checkpoint.rng["numpy"]
    torch.set_rng_state(checkpoint.rng["torch"])
    run.pool = checkpoint.pool
    run.update, run.global_step = checkpoint.update, checkpoint.global_step
    run.in_flight, run.start = checkpoint.in_flight, checkpoint.start
    run.history = checkpoint.history


def initialise(run: Run, init: Policy | None) -> None:
    """A new run's weights: ``--init-from``'s (extended with a fresh oracle critic if asked),
    then the behaviour clone of ``--bc-warmstart``; the run starts from them (``run.start``)."""
    args = run.args
    if init is not None:
        load_weights(run.net, init.model)
    if args.bc_warmstart:
        from training.bc import behaviour_clone
        behaviour_clone(run.net, run.rules, hands=args.bc_hands, epochs=args.bc_epochs,
                        lr=args.bc_lr, seed=args.seed, reward_scale=args.reward_scale,
                        out=run.out / "bc.pt", workers=args.workers,
                        soft_targets=args.bc_soft_targets)
    if init is not None or args.bc_warmstart:
        run.start = cpu_weights(run.net.state_dict())
