"""Self-play PPO on a Ray cluster with RLlib's new API stack (``mjenv train rllib``): the trainer
over ``mjenv.integrations.rllib``'s environment and module (Ray itself is imported only when a
run starts).

The same game, observation, action ids, network (``agents.network.PolicyNet``), opponent mix
(``training.selfplay.RolloutSettings``) and rewards as the single-machine trainer; RLlib runs
the env runners (remote actors, possibly on other machines) and the PPO learner (in this
process). See ``mjenv.integrations.rllib`` for the env and module, ``docs/scaling.md`` for
clusters.

Opponent pool. ``pool_size`` frozen modules ``past0``… exist from the start (copies of the
initial weights); every ``snapshot_every`` iterations the oldest slot is overwritten with the
current ``main`` weights on the learner and on every env runner. Fixed agents (heuristic,
random) play inside the env.

Output (``--out runs/NAME``): ``metrics.jsonl`` (one line per iteration, CleanRL-style names),
``rllib/`` (RLlib's own algorithm checkpoint, for resuming or RLlib tooling) and
``policy.pt`` (a policy file: ``mjenv eval --agent ppo:runs/NAME/policy.pt``).
"""

from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.network import NetConfig
from training.args import PPOArgs, TrainerArgs, arg


#: What a run writes into its folder (``training.rundir``).
RUN_FILES = ("rllib", "metrics.jsonl", "policy.pt")


@dataclass
class RLlibArgs(TrainerArgs, PPOArgs):
    """One RLlib run; every field is a ``mjenv train rllib`` flag (named as ``training.ppo``'s;
    the groups shared with the other trainers: ``training.args``)."""

    out: str = arg("", "run folder: metrics.jsonl, rllib/ (RLlib checkpoint), policy.pt "
                       "(a policy file) (default: a new runs/rllib-N)")
    total_steps: int = arg(200_000, "env steps to sample in all (one step: one decision, or a "
                                    "claim window's answers)", low=1)
    num_env_runners: int = arg(0, "remote sampling actors, 1 CPU each (0: sample in this "
                                  "process)", low=0)
    address: str = arg("", "existing Ray cluster: auto or HOST:PORT (empty: start a local one)")
    num_envs_per_env_runner: int = arg(4, "deals stepped together per env runner (the inference "
                                          "batch)", low=1)
    steps_per_iter: int = arg(2048, "env steps per PPO update (train_batch_size_per_learner)",
                              low=1)
    minibatch_size: int = arg(512, "SGD minibatch size", low=1)
    max_iterations: int = arg(0, "stop after this many updates even before total_steps (0: no "
                                 "limit)", low=0)
    threads: int = arg(0, "torch threads of this process: the learner, and the sampling with "
                          "--num-env-runners 0 (0: torch's default, one per core; use 1 on a "
                          "machine shared with other jobs). Remote env runners always use one "
                          "thread each (Ray sets OMP_NUM_THREADS=1 per CPU).", low=0)
    pool_size: int = arg(4, "frozen snapshot modules past0… (0: none; their share goes to the "
                            "latest weights)", low=0)
    save_every: int = arg(10, "updates between RLlib checkpoints (and always at the end)",
                          low=1)

    def validate(self) -> None:
        super().validate()
        if self.minibatch_size > self.steps_per_iter:
            raise ValueError(f"--minibatch-size ({self.minibatch_size}) is larger than "
                             f"--steps-per-iter ({self.steps_per_iter})")
        self.settings()          # validates rules, shares and opponents

    def net_config(self) -> NetConfig:
        from mjenv.env.observation import NUM_PLANES

        return NetConfig(num_planes=NUM_PLANES, channels=self.channels, blocks=self.blocks)


def build_config(args: RLlibArgs):
    """The ``PPOConfig`` of a run (no Ray needed to build it)."""
    from ray.rllib.algorithms.ppo import PPOConfig

    from mjenv.integrations import rllib as rl

    settings = args.settings()
    return (
        PPOConfig()
        .api_stack(enable_rl_module_and_learner=True, enable_env_runner_and_connector_v2=True)
        .framework("torch")
        # RLlib's env checker steps unmasked random actions, which the env refuses by design.
        .environment(rl.MahjongMultiAgentEnv,
                     env_config={"settings": settings, "num_past": args.pool_size},
                     disable_env_checking=True)
        .env_runners(num_env_runners=args.num_env_runners,
                     num_envs_per_env_runner=args.num_envs_per_env_runner,
                     num_cpus_per_env_runner=1,
                     rollout_fragment_length="auto")
        .learners(num_learners=0)
        .multi_agent(policies=set(rl.module_ids(args.pool_size)),
                     policy_mapping_fn=rl.agent_to_module,
                     policies_to_train=[rl.MAIN])
        .rl_module(rl_module_spec=rl.multi_module_spec(args.net_config(), settings.rules,
                                                       args.pool_size))
        .training(train_batch_size_per_learner=args.steps_per_iter,
                  minibatch_size=args.minibatch_size, num_epochs=args.update_epochs,
                  lr=args.learning_rate,
                  gamma=args.gamma, lambda_=args.gae_lambda, clip_param=args.clip_coef,
                  entropy_coeff=args.ent_coef, vf_loss_coeff=args.vf_coef,
                  grad_clip=args.max_grad_norm, grad_clip_by="global_norm",
                  use_kl_loss=False)
        .callbacks(rl.MahjongCallbacks)
        .debugging(seed=args.seed, log_level="WARN")
    )


def connect(address: str | None, num_env_runners: int) -> bool:
    """``ray.init`` for the run; returns whether this call started Ray (and must stop it).

    With an ``address`` the mjenv packages travel to the cluster as ``py_modules``, so worker
    nodes need only the third-party dependencies (``pip install "mjenv[ray]"`` installs them).
    Without one a local single-node cluster sized to this machine is started.
    """
    import ray

    if ray.is_initialized():
        return False
    common: dict[str, Any] = {"include_dashboard": False, "logging_level": "warning",
                              "log_to_driver": True}
    if address:
        import agents
        import mjenv
        import training

        modules = [str(Path(m.__file__).parent) for m in (mjenv, agents, training)]
        ray.init(address=address, runtime_env={"py_modules": modules}, **common)
    else:
        # "local": a new single-node instance even if `ray start` runs on this machine
        # (address=None would silently join that cluster).
        ray.init(address="local", num_cpus=max(os.cpu_count() or 1, num_env_runners), **common)
    return True


def _metrics(result: dict[str, Any], elapsed: float) -> dict[str, Any]:
    """The numbers worth a line in ``metrics.jsonl``, under CleanRL's names.

    ``charts/SPS`` is sampled env steps per second of sampling (RLlib's sampling timer, so it
    leaves out the learner update); ``main_steps`` counts the decisions of ``main`` seats —
    what the learner trains on.
    """
    env = result.get("env_runners", {})
    learner = result.get("learners", {}).get("main", {})
    sample_s = result.get("timers", {}).get("env_runner_sampling_timer")
    steps = int(env.get("num_env_steps_sampled", 0))
    row = {
        "iteration": int(result.get("training_iteration", 0)),
        "global_step": int(env.get("num_env_steps_sampled_lifetime", 0)),
        "main_steps": int(env.get("num_module_steps_sampled_lifetime", {}).get("main", 0)),
        "episodes": int(env.get("num_episodes_lifetime", 0)),
        "time": round(elapsed, 3),
        "charts/SPS": round(steps / sample_s, 1) if sample_s else None,
        "charts/learner_score": env.get("learner_score"),
        "charts/learner_win_rate": env.get("learner_win_rate"),
        "charts/masked_actions_sampled": int(env.get("masked_actions_sampled", 0)),
        "losses/policy_loss": learner.get("policy_loss"),
        "losses/value_loss": learner.get("vf_loss"),
        "losses/entropy": learner.get("entropy"),
        "losses/explained_variance": learner.get("vf_explained_var"),
    }
    clean = {}
    for k, v in row.items():
        v = v.item() if hasattr(v, "item") else v     # numpy scalars -> JSON numbers
        clean[k] = None if isinstance(v, float) and math.isnan(v) else v
    return clean


def snapshot_into_pool(algo, slot: int) -> None:
    """Copy ``main``'s weights into frozen module ``past{slot}``, learner and env runners."""
    from mjenv.integrations import rllib as rl

    module_id = rl.past_module_id(slot)
    state = algo.get_module(rl.MAIN).get_state()
    algo.learner_group.set_state({"learner": {"rl_module": {module_id: state}}})
    algo.env_runner_group.sync_weights(from_worker_or_learner_group=algo.learner_group,
                                       policies=[module_id], inference_only=True)


@dataclass
class RunSummary:
    iterations: int
    env_steps: int
    masked_actions_sampled: int
    policy_path: Path
    checkpoint_path: Path
    metrics: list[dict[str, Any]]


def train(args: RLlibArgs, log=print) -> RunSummary:
    """Run until ``total_steps`` (or ``max_iterations``); write checkpoints and the policy file.

    Raises ``RuntimeError`` if any sampled action was masked (the env would already have
    refused it; this is the independent recount from the recorded episodes).
    """
    import ray
    import torch

    from mjenv.integrations import rllib as rl

    from training.rundir import prepare_run_dir

    if args.threads:
        torch.set_num_threads(args.threads)
    out = prepare_run_dir(args.out, prefix="rllib", run_files=RUN_FILES, resume=args.resume,
                          resume_from="rllib", force=args.force)
    checkpoint = (out / "rllib").resolve()
    started = connect(args.address or None, args.num_env_runners)
    algo = None
    try:
        algo = build_config(args).build_algo()
        if args.resume:
            algo.restore_from_path(str(checkpoint))
            log(f"resumed {checkpoint} at iteration {algo.iteration}")
        rows: list[dict[str, Any]] = []
        masked = 0
        t0 = time.perf_counter()
        with open(out / "metrics.jsonl", "a", encoding="utf-8") as metrics_file:
            while True:
                result = algo.train()
                row = _metrics(result, time.perf_counter() - t0)
                rows.append(row)
                masked += row["charts/masked_actions_sampled"]
                metrics_file.write(json.dumps(row) + "\n")
                metrics_file.flush()
                log(f"iter {row['iteration']:4d}  steps {row['global_step']:8d}  "
                    f"SPS {row['charts/SPS']}  learner score {row['charts/learner_score']}  "
                    f"masked {row['charts/masked_actions_sampled']}")
                if masked:
                    raise RuntimeError(f"{masked} masked action(s) were sampled: the action "
                                       f"mask is not applied somewhere")
                it = row["iteration"]
                if args.pool_size and it % args.snapshot_every == 0:
                    # the slot follows from the iteration, so a resumed run continues the cycle
                    snapshot_into_pool(algo, (it // args.snapshot_every - 1) % args.pool_size)
                done = (row["global_step"] >= args.total_steps
                        or 0 < args.max_iterations <= it)
                if done or it % args.save_every == 0:
                    algo.save_to_path(str(checkpoint))
                if done:
                    break
        policy = rl.save_policy(algo.get_module(rl.MAIN), out / "policy.pt",
                                {"iterations": rows[-1]["iteration"],
                                 "env_steps": rows[-1]["global_step"], "seed": args.seed})
        return RunSummary(iterations=rows[-1]["iteration"], env_steps=rows[-1]["global_step"],
                          masked_actions_sampled=masked, policy_path=policy,
                          checkpoint_path=checkpoint, metrics=rows)
    finally:
        if algo is not None:
            algo.stop()
        if started:
            ray.shutdown()
