"""Masked PPO with self-play, CleanRL-style: ``Args`` (every hyper-parameter, each a ``mjenv
train ppo`` flag), then ``train``, one loop a reader follows top to bottom:

- set up (``training.start``): a new run, or the run in ``--out`` resumed from its checkpoint;
- per update: take the rollout (``training.selfplay``, played by ``training.workers``; with
  ``--overlap`` the next one starts before the update), the PPO update (``training.update``),
  the log (``training.runlog``), the periodic evaluation (``training.run_eval``) and the
  checkpoint (``training.checkpoint``).

One *step* is one decision of a trained seat (the learner's, and by default every other seat
the latest weights play: ``training.selfplay``); ``--total-steps`` counts those. The network and
masked sampling are ``agents.network``.
"""

from __future__ import annotations

import dataclasses
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agents.network import NetConfig, cpu_weights
from training.args import LocalArgs, PPOArgs, TrainerArgs, arg, explicit_fields
from training.checkpoint import History, Snapshot, save_training_checkpoint
from training.run_eval import RunEvaluations
from training.runlog import Progress, RunLog, evaluation_plan, update_scalars, update_summary
from training.start import Run, start_run
from training.update import annealed_kl_ref_coef, annealed_lr, ppo_update
from training.workers import RolloutWorkers

if TYPE_CHECKING:
    from training.selfplay import RolloutSettings


@dataclass
class Args(TrainerArgs, LocalArgs, PPOArgs):
    """Every field is a ``mjenv train ppo`` flag (the groups shared with the other trainers:
    ``training.args``)."""

    out: str = arg("", "run folder: latest.pt, progress.csv, tb/ (TensorBoard), args.json "
                       "(default: a new runs/ppo-N)")
    total_steps: int = arg(1_000_000, "learner decisions to train on in all (the last update "
                                      "collects what is left when it is not a multiple of "
                                      "num_steps)", low=1)
    num_steps: int = arg(16384, "trained decisions collected per update (over all workers; "
                                "about 1,000 seat-deals)", low=1)
    num_envs: int = arg(32, "concurrent deals per worker (the inference batch)", low=1)
    anneal_lr: bool = arg(True, "decay the learning rate linearly to 0 over total_steps")
    num_minibatches: int = arg(16, "minibatches per epoch (16 of a 16,384-step update: ~1,024 "
                                   "samples each; on CPU a 4,096-sample minibatch costs twice "
                                   "as much per sample)", low=1)
    norm_adv: bool = arg(True, "normalise advantages per minibatch")
    clip_vloss: bool = arg(True, "clip the value update around the rollout's values too")
    value_norm: bool = arg(True, "measure the value loss and its clip range in units of the "
                                 "rollout's return s.d. (at least one point of score): the "
                                 "critic's weight does not depend on --reward-scale")
    oracle_critic: bool = arg(False, "the value head also reads the hidden state (every hand "
                                     "and the wall, docs/oracle.md); the policy never does")
    train_latest_seats: bool = arg(True, "train on every seat the latest weights play, not only "
                                         "the learner's")
    paired_baseline: bool = arg(False, "replay each deal from the same seed with the learner's "
                                       "seat greedy; reward = score minus that shadow score "
                                       "(unbiased, lower variance, ~2x engine work per step)")
    overlap: bool = arg(True, "play the next rollout in worker processes while the learner "
                              "updates: its behaviour policy is then one update old (PPO's "
                              "ratio is taken against it)")
    pool_size: int = arg(8, "most snapshots kept (oldest dropped first)", low=0)
    eval_every: int = arg(20, "updates between duplicate evaluations (0: never)", low=0)
    eval_deals: int = arg(500, "deals per evaluation (each played from all four seats), the "
                               "same ones every time", low=1)
    eval_vs: str = arg("heuristic:v1", "fixed opponents of each evaluation, comma-separated "
                                       "specs (the run's best policy is always played too)")
    bc_warmstart: bool = arg(False, "behaviour-clone the heuristic agent first (training/bc.py)")
    bc_hands: int = arg(2000, "deals of heuristic self-play for the BC data", low=1)
    bc_epochs: int = arg(4, "BC passes over its data", low=1)
    bc_lr: float = arg(1e-3, "BC learning rate", above=0)
    bc_soft_targets: bool = arg(True, "BC fits the heuristic's options (the actions it rates "
                                      "equally best) instead of the one it played")
    kl_ref_coef: float = arg(0.0, "weight of KL(start || policy), the penalty for leaving the "
                                  "policy the run started from (--init-from or --bc-warmstart; "
                                  "0: off)", low=0)
    kl_ref_fraction: float = arg(0.5, "share of total_steps over which --kl-ref-coef decays "
                                      "linearly to 0 (0: it never decays)", low=0, high=1)

    def net_config(self, num_planes: int) -> NetConfig:
        from mjenv.env.oracle import NUM_ORACLE_PLANES

        return NetConfig(num_planes=num_planes, channels=self.channels, blocks=self.blocks,
                         features=self.features,
                         oracle=NUM_ORACLE_PLANES if self.oracle_critic else 0)

    def validate(self) -> None:
        super().validate()
        if self.eval_every and not self.eval_specs():
            raise ValueError("--eval-vs: give at least one opponent spec (or --eval-every 0)")
        if self.num_steps < self.num_minibatches:
            raise ValueError("--num-steps must be at least --num-minibatches")
        if self.kl_ref_coef > 0 and not (self.resume or self.init_from or self.bc_warmstart):
            raise ValueError("--kl-ref-coef needs a policy to stay near: give --init-from or "
                             "--bc-warmstart")
        self.settings()          # the fixed opponents' weights

    def settings(self, **extra: Any) -> RolloutSettings:
        return super().settings(num_envs=self.num_envs, paired_baseline=self.paired_baseline,
                                train_latest_seats=self.train_latest_seats, **extra)

    def run_files(self) -> tuple[str, ...]:
        """What a run writes into ``out`` (``training.rundir``)."""
        bc = ("bc.pt", "bc_games.jsonl") if self.bc_warmstart else ()
        return ("latest.pt", "best.pt", "progress.csv", "args.json", "tb") + bc

    def eval_specs(self) -> list[str]:
        return [spec.strip() for spec in self.eval_vs.split(",") if spec.strip()]

    def update_target(self, global_step: int) -> int:
        """Learner decisions the next update collects after ``global_step``: ``num_steps``, or
        what is left of ``total_steps`` (at least one per minibatch) — ``total_steps`` is
        honoured, not rounded to whole updates. A rollout ends on deal boundaries, so it
        collects a little more than it is asked for; training stops at the first update that
        reaches ``total_steps``."""
        return max(self.num_minibatches, min(self.num_steps, self.total_steps - global_step))


def train(args: Args, given: set[str] | None = None, progress: bool = True,
          stop_after: int | None = None) -> Path:
    """Run (or resume) PPO self-play training; returns the path of ``latest.pt``.

    ``given``: the ``Args`` fields the user set explicitly (default: those that differ from
    their defaults). On ``--resume`` the stored run's values are kept for all others; on a new
    run with ``init_from`` the network's shape and input come from that checkpoint unless
    given. Everything is checked before the run folder is touched (``training.rundir``).
    ``stop_after``: leave after this many updates, as if killed right after a checkpoint (tests
    of ``--resume`` and the benchmark use it)."""
    run = start_run(args, explicit_fields(args, given))
    args = run.args
    log = RunLog(run.out, run.history.progress, resumed_at=run.update or None)
    bar = Progress(args.total_steps, run.global_step) if progress else None
    evaluate = RunEvaluations(run.out, run.rules, args.eval_specs(), args.eval_deals, args.seed,
                              args.workers, run.history.best, run.net.config, progress)
    first = run.update
    try:
        if bar is not None and args.eval_every:
            print(evaluation_plan(args, run.update, run.global_step), file=sys.stderr,
                  flush=True)
        if args.eval_every and run.update == 0:
            log.log(0, 0, evaluate(run.net, 0))    # the starting point (random or BC weights)
        with RolloutWorkers(args.workers, run.settings, run.net.config,
                            background=args.overlap) as workers:
            # a new run plays its weights; a resumed one replays the rollout it had in flight
            start_rollout(workers, run, run.in_flight or latest(run, run.update))
            while run.global_step < args.total_steps:
                run.update += 1
                t0 = time.time()
                lr, kl_coef = anneal(run)
                rollout = workers.result()
                run.global_step += len(rollout)
                last = run.global_step >= args.total_steps
                run.in_flight = None
                if args.overlap and not last:     # plays while this update runs
                    run.in_flight = start_rollout(workers, run, latest(run, run.update - 1))
                stats = ppo_update(run.net, run.optimizer, rollout, args, run.rng,
                                   run.reference, kl_coef)
                if not args.overlap and not last:
                    start_rollout(workers, run, latest(run, run.update))
                scalars = update_scalars(rollout, stats, lr, kl_coef if run.reference else None,
                                         time.time() - t0)
                if args.eval_every and (run.update % args.eval_every == 0 or last):
                    scalars.update(evaluate(run.net, run.update))
                log.log(run.update, run.global_step, scalars)
                stopping = stop_after is not None and run.update - first >= stop_after
                if run.update % args.save_every == 0 or last or stopping:
                    save_checkpoint(run, History(log.rows, evaluate.best))
                if bar is not None:
                    bar.show(run.update, run.global_step, scalars["charts/SPS"],
                             update_summary(scalars, evaluate.summary))
                if stopping:
                    break
    finally:
        if bar is not None:
            bar.close()
        log.close()
    return run.out / "latest.pt"


def latest(run: Run, version: int) -> Snapshot:
    """The learner's weights now, as the policy after ``version`` updates."""
    return Snapshot(version, cpu_weights(run.net.state_dict()))


def start_rollout(workers: RolloutWorkers, run: Run, policy: Snapshot) -> Snapshot:
    """Start rollout ``run.update + 1``, played by ``policy``; a policy joins the opponent pool
    when it first plays (every ``--snapshot-every``-th version, 0 included)."""
    args = run.args
    if (policy.update % args.snapshot_every == 0
            and policy.update not in [u for u, _ in run.pool.snapshots]):
        run.pool.add(policy.update, policy.model)
    workers.submit(policy.model, run.pool, args.seed, run.update + 1,
                   args.update_target(run.global_step))
    return policy


def anneal(run: Run) -> tuple[float, float]:
    """Set the optimizer's learning rate for the next update; returns it and the weight of the
    KL to the starting policy (both decay by steps, ``training.update``)."""
    lr = annealed_lr(run.args, run.global_step)
    for group in run.optimizer.param_groups:
        group["lr"] = lr
    return lr, annealed_kl_ref_coef(run.args, run.global_step)


def save_checkpoint(run: Run, history: History) -> None:
    """``latest.pt``: everything the run continues from (``training.checkpoint``)."""
    save_training_checkpoint(run.out / "latest.pt", net=run.net, optimizer=run.optimizer,
                             rules=run.rules, args=dataclasses.asdict(run.args),
                             update=run.update, global_step=run.global_step, rng=run.rng,
                             pool=run.pool, in_flight=run.in_flight, start=run.start,
                             history=history)
