"""Masked PPO with self-play, CleanRL-style: one readable file, every hyper-parameter an
``Args`` field (and a ``mjenv train ppo`` flag).

Order, as in CleanRL's ``ppo.py``: ``Args`` → the pieces (GAE, minibatches, the loss, one
update — small functions so they can be unit-tested) → ``train`` (rollout, GAE, minibatch
epochs, logging, evaluation, checkpoint). The network and masked sampling live in
``agents/ppo.py``; the opponent pool and rollout workers in ``training/selfplay.py``.

One *step* is one decision of a trained seat (the learner's, and by default every other seat
the latest weights play: ``training.selfplay``); ``--total-steps`` counts those. Logs (CleanRL's names): TensorBoard under ``OUT/tb`` and the same scalars in
``OUT/progress.csv``: ``charts/learning_rate``, ``charts/SPS``, ``charts/score`` (mean raw score
delta of the learner per deal in the rollout), ``losses/value_loss``, ``losses/policy_loss``,
``losses/entropy``, ``losses/approx_kl``, ``losses/old_approx_kl``, ``losses/clipfrac``,
``losses/explained_variance``, ``losses/return_std`` (s.d. of the rollout's value targets, in
return units); with ``--kl-ref-coef``, ``losses/kl_ref`` and ``charts/kl_ref_coef``
(``kl_to_reference``); and per evaluation ``eval/vs_SPEC`` for each ``--eval-vs`` field (``:``
written ``_``) and ``eval/vs_best`` (duplicate evaluation, mean score per hand, with ``_ci95``),
``eval/best_update`` (the update whose weights are in ``OUT/best.pt``, the policy to ship).
"""

from __future__ import annotations

import csv
import dataclasses
import json
import math
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

import numpy as np
import torch
from torch import nn

from agents.ppo import (NetConfig, PolicyNet, build_net, load_weights, masked_logits,
                        pick_device)
from mjenv.rules import RuleConfig
from training.args import LocalArgs, PPOArgs, TrainerArgs, arg, explicit_fields

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


# --------------------------------------------------------------------------- PPO pieces


def compute_gae(rewards: np.ndarray, values: np.ndarray, dones: np.ndarray, gamma: float,
                lam: float, last_value: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Generalised advantage estimation over episodes stored back to back.

    ``dones[t] = 1`` when transition ``t`` is the last of its episode: nothing is bootstrapped
    across it. A final transition that does not end an episode bootstraps from
    ``last_value`` (required then). Returns ``(advantages, returns)``, returns = adv + values.
    """
    rewards = np.asarray(rewards, dtype=np.float64)
    values = np.asarray(values, dtype=np.float64)
    dones = np.asarray(dones, dtype=np.float64)
    if not (len(rewards) == len(values) == len(dones)):
        raise ValueError("rewards, values and dones must have the same length")
    n = len(rewards)
    if n and not dones[-1] and last_value is None:
        raise ValueError("the last transition does not end an episode: pass last_value")
    adv = np.zeros(n)
    gae = 0.0
    for t in range(n - 1, -1, -1):
        if dones[t]:
            next_value, gae = 0.0, 0.0
        else:
            next_value = values[t + 1] if t + 1 < n else float(last_value)
        delta = rewards[t] + gamma * next_value - values[t]
        gae = delta + gamma * lam * gae
        adv[t] = gae
    return adv.astype(np.float32), (adv + values).astype(np.float32)


def minibatch_indices(n: int, num_minibatches: int, rng: np.random.Generator) -> Iterator[np.ndarray]:
    """A fresh permutation of ``range(n)`` cut into ``num_minibatches`` near-equal parts
    (rollouts end on deal boundaries, so ``n`` varies a little between updates)."""
    yield from np.array_split(rng.permutation(n), num_minibatches)


def ppo_loss(new_logprob: torch.Tensor, old_logprob: torch.Tensor, advantages: torch.Tensor,
             new_value: torch.Tensor, old_value: torch.Tensor, returns: torch.Tensor,
             entropy: torch.Tensor, *, clip_coef: float, vf_coef: float, ent_coef: float,
             clip_vloss: bool, norm_adv: bool,
             value_scale: float = 1.0) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
    """CleanRL's clipped objective. Returns the total loss and its parts (detached).

    ``value_scale``: the unit the value loss and its clip range are measured in (values and
    returns stay in return units, as GAE needs them): 1 is CleanRL's, which assumes returns of
    about unit scale; ``return_scale`` makes the loss the same whatever the reward scale."""
    logratio = new_logprob - old_logprob
    ratio = logratio.exp()
    with torch.no_grad():
        old_approx_kl = (-logratio).mean()
        approx_kl = ((ratio - 1) - logratio).mean()
        clipfrac = ((ratio - 1.0).abs() > clip_coef).float().mean()
    if norm_adv and advantages.numel() > 1:
        advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    pg_loss = torch.max(-advantages * ratio,
                        -advantages * torch.clamp(ratio, 1 - clip_coef, 1 + clip_coef)).mean()
    if clip_vloss:
        clip = clip_coef * value_scale
        v_clipped = old_value + torch.clamp(new_value - old_value, -clip, clip)
        v_loss = 0.5 * torch.max((new_value - returns) ** 2, (v_clipped - returns) ** 2).mean()
    else:
        v_loss = 0.5 * ((new_value - returns) ** 2).mean()
    v_loss = v_loss / value_scale ** 2
    entropy_loss = entropy.mean()
    loss = pg_loss - ent_coef * entropy_loss + vf_coef * v_loss
    return loss, {"policy_loss": pg_loss.detach(), "value_loss": v_loss.detach(),
                  "entropy": entropy_loss.detach(), "approx_kl": approx_kl,
                  "old_approx_kl": old_approx_kl, "clipfrac": clipfrac}


def kl_to_reference(ref_log_probs: torch.Tensor, log_probs: torch.Tensor,
                    mask: torch.Tensor) -> torch.Tensor:
    """Mean over the batch of KL(π_ref || π_θ) = Σ_a π_ref(a) (log π_ref(a) − log π_θ(a)) over
    the legal actions: the penalty for leaving the policy the run started from.

    Why this direction. The start is a clone, near-deterministic where its teacher was sure and
    spread where it was unsure (soft BC targets). KL(π_ref || π_θ) is the clone's cross-entropy
    under π_θ (less a constant): it asks π_θ to keep probability on every action the reference
    plays — moving a share ε off a sure action costs about ε, so PPO may still try actions the
    reference never plays, and it cannot collapse a spread the teacher's ties left onto one
    option (−log π_θ grows without bound). The other direction, KL(π_θ || π_ref), charges
    π_θ(a)·(−log π_ref(a)) for every action the reference rules out — 16 nats per unit of
    probability where the clone gives 1e-7 — so it forbids exactly the exploration it is meant
    to allow, and lets π_θ drop all but one of k tied options (mode-seeking) for log k at most.
    Its gradient in π_θ's logits is π_θ − π_ref: toward the reference, and zero there."""
    p_ref = ref_log_probs.exp()
    kl = torch.where(mask.bool(), p_ref * (ref_log_probs - log_probs), torch.zeros_like(p_ref))
    return kl.sum(-1).mean()


def return_scale(returns: np.ndarray, reward_scale: float) -> float:
    """The unit of the value loss with ``--value-norm``: the s.d. of the rollout's returns,
    at least one point of score (``reward_scale``) so that a rollout of near-equal returns
    does not blow the loss up. Per rollout, like the advantages' normalisation per minibatch:
    it has no state, so a resumed run computes it alike."""
    return max(float(np.std(returns)), reward_scale)


def explained_variance(pred: np.ndarray, target: np.ndarray) -> float:
    var = float(np.var(target))
    return float("nan") if var == 0 else 1.0 - float(np.var(target - pred)) / var


def ppo_update(net: PolicyNet, optimizer: torch.optim.Optimizer, rollout, args: Args,
               rng: np.random.Generator, reference: PolicyNet | None = None,
               kl_coef: float = 0.0) -> dict[str, float]:
    """GAE, then ``update_epochs`` passes of minibatch gradient steps; the masks stored in the
    rollout are re-applied to the new logits, and an oracle critic reads the rollout's oracle
    planes. With a ``reference`` policy the loss adds ``kl_coef`` × ``kl_to_reference``
    (``kl_ref`` in the stats, whatever the weight)."""
    device = next(net.parameters()).device
    adv, returns = compute_gae(rollout.rewards, rollout.values, rollout.dones, args.gamma,
                               args.gae_lambda)
    value_scale = return_scale(returns, args.reward_scale) if args.value_norm else 1.0
    b_obs = torch.as_tensor(rollout.obs, device=device)
    b_oracle = torch.as_tensor(rollout.oracle, device=device) if net.config.oracle else None
    b_masks = torch.as_tensor(rollout.masks, device=device)
    b_actions = torch.as_tensor(rollout.actions, device=device)
    b_logprobs = torch.as_tensor(rollout.logprobs, device=device)
    b_values = torch.as_tensor(rollout.values, device=device)
    b_adv = torch.as_tensor(adv, device=device)
    b_returns = torch.as_tensor(returns, device=device)
    b_ref = None
    if reference is not None:          # frozen: its log-probabilities once, in minibatch sizes
        with torch.no_grad():
            size = -(-len(adv) // args.num_minibatches)
            b_ref = torch.cat([torch.log_softmax(masked_logits(reference.policy(o)[0], m), -1)
                               for o, m in zip(b_obs.split(size), b_masks.split(size))])
    net.train()
    sums: dict[str, float] = {}
    count = 0
    for _ in range(args.update_epochs):
        for mb in minibatch_indices(len(adv), args.num_minibatches, rng):
            mb_t = torch.as_tensor(mb, device=device)
            _, newlogprob, entropy, newvalue, log_probs = net.get_action_and_value(
                b_obs[mb_t], b_masks[mb_t], b_actions[mb_t],
                oracle=None if b_oracle is None else b_oracle[mb_t])
            loss, parts = ppo_loss(newlogprob, b_logprobs[mb_t], b_adv[mb_t], newvalue,
                                   b_values[mb_t], b_returns[mb_t], entropy,
                                   clip_coef=args.clip_coef, vf_coef=args.vf_coef,
                                   ent_coef=args.ent_coef, clip_vloss=args.clip_vloss,
                                   norm_adv=args.norm_adv, value_scale=value_scale)
            if b_ref is not None:
                kl_ref = kl_to_reference(b_ref[mb_t], log_probs, b_masks[mb_t])
                loss = loss + kl_coef * kl_ref
                parts["kl_ref"] = kl_ref.detach()
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), args.max_grad_norm)
            optimizer.step()
            for k, v in parts.items():
                sums[k] = sums.get(k, 0.0) + float(v)
            count += 1
    # Like CleanRL, KL and clip fraction describe the whole update (mean over minibatches).
    stats = {k: v / count for k, v in sums.items()}
    stats["explained_variance"] = explained_variance(rollout.values, returns)
    stats["return_std"] = float(np.std(returns))
    return stats


def annealed_lr(args: Args, global_step: int) -> float:
    """Linear decay from ``learning_rate`` at step 0 towards 0 at ``total_steps`` (by steps, not
    updates: the last update may be shorter than the others)."""
    if not args.anneal_lr:
        return args.learning_rate
    return args.learning_rate * max(0.0, 1.0 - global_step / args.total_steps)


def annealed_kl_ref_coef(args: Args, global_step: int) -> float:
    """``kl_ref_coef`` decaying linearly to 0 at ``kl_ref_fraction × total_steps`` (by steps,
    as the learning rate), constant with a fraction of 0: the clone holds PPO near it while the
    value head and the first updates are still noisy, then lets go."""
    if args.kl_ref_fraction == 0:
        return args.kl_ref_coef
    return args.kl_ref_coef * max(0.0, 1.0 - global_step / (args.kl_ref_fraction
                                                             * args.total_steps))


# --------------------------------------------------------------------------- logging


class RunLog:
    """The same scalars to ``progress.csv`` (one row per update) and TensorBoard."""

    def __init__(self, out: Path, resume_update: int | None,
                 rows: list[dict[str, Any]] | None = None) -> None:
        """``rows``: the resumed run's rows as its checkpoint holds them (its history), which
        replace the file's; without them (older checkpoints) the file's are kept."""
        self.path = out / "progress.csv"
        self.rows: list[dict[str, Any]] = list(rows or [])
        if resume_update is not None and rows is None and self.path.exists():
            with open(self.path, newline="") as f:
                # rows written after the checkpoint belong to the lost part of the run
                self.rows = [r for r in csv.DictReader(f) if int(r["update"]) <= resume_update]
        self.writer = None
        try:
            from torch.utils.tensorboard import SummaryWriter
            self.writer = SummaryWriter(str(out / "tb"), purge_step=None if resume_update is None
                                        else resume_update + 1)
        except ImportError:
            print("note: tensorboard is not installed (pip install 'mjenv[train]'); "
                  "logging to progress.csv only", file=sys.stderr)
        self._write_csv()

    def log(self, update: int, global_step: int, scalars: dict[str, float]) -> None:
        row = {"update": update, "global_step": global_step, **scalars}
        self.rows.append(row)
        if self.writer is not None:
            for k, v in scalars.items():
                if v is not None and not (isinstance(v, float) and math.isnan(v)):
                    self.writer.add_scalar(k, v, global_step)
            self.writer.flush()
        self._write_csv()

    def _write_csv(self) -> None:
        keys: list[str] = []
        for row in self.rows:
            keys.extend(k for k in row if k not in keys)
        tmp = self.path.with_suffix(".csv.tmp")
        with open(tmp, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=keys, restval="")
            w.writeheader()
            w.writerows(self.rows)
        os.replace(tmp, self.path)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


class Progress:
    """One report per update on stderr (no dependency): on a terminal a bar redrawn in place,
    otherwise (a pipe, a log file) one line per update, so nothing piles up on one line.

    The steps/s shown is the update's ``charts/SPS`` (learner decisions over the time of its
    rollout and update, as progress.csv has it); the ETA divides what is left by the run's
    wall-clock rate, evaluations and checkpoints included, so it is the honest one.
    """

    def __init__(self, total: int, start: int = 0, stream=None) -> None:
        self.total, self.start, self.t0 = total, start, time.time()
        self.stream = stream if stream is not None else sys.stderr
        isatty = getattr(self.stream, "isatty", None)
        self.tty = bool(isatty and isatty())

    def show(self, update: int, done: int, sps: float, extra: str = "") -> None:
        frac = min(1.0, done / self.total)
        wall_rate = (done - self.start) / max(1e-9, time.time() - self.t0)
        eta = max(0, self.total - done) / wall_rate if wall_rate > 0 else float("inf")
        eta_s = duration(eta) if math.isfinite(eta) else "?"
        # a rollout ends on deal boundaries: the last one passes the total, which is then done
        steps = (f"{done:,} of {self.total:,} steps ({100 * frac:.0f}%)" if done < self.total
                 else f"done: {done:,} steps ({self.total:,} asked, the last rollout's deals "
                      f"played out)")
        text = (f"{steps} {sps:,.0f} steps/s ETA {eta_s}" + (f" | {extra}" if extra else ""))
        if self.tty:
            bar = "#" * int(30 * frac) + "-" * (30 - int(30 * frac))
            self.stream.write(f"\r\x1b[K[{bar}] {text}")
        else:
            self.stream.write(f"update {update}: {text}\n")
        self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def evaluation_plan(args: Args, update0: int, global_step: int) -> str:
    """When the run's duplicate evaluations come (the first line a run prints): a run shorter
    than one ``--eval-every`` period learns it here, not after minutes of silence."""
    fields = ", ".join(args.eval_specs()) + " and the best policy so far"
    left = math.ceil(max(0, args.total_steps - global_step) / args.num_steps)
    first = "now (the starting weights)" if update0 == 0 else \
        f"at update {(update0 // args.eval_every + 1) * args.eval_every}"
    text = (f"evaluations ({args.eval_deals} deals each vs {fields}): {first}, then every "
            f"{args.eval_every} updates and after the last")
    if left < args.eval_every:
        text += (f"; this run has about {left} update{'s' if left != 1 else ''} to go, fewer "
                 f"than --eval-every {args.eval_every}: the next one comes at its end")
    return text


def duration(seconds: float) -> str:
    """``H:MM:SS``, with the days in front past one (``2d 03:04:05``), never wrapped."""
    days, rest = divmod(int(seconds), 86400)
    hms = time.strftime("%H:%M:%S", time.gmtime(rest))
    return f"{days}d {hms}" if days else hms


def readable(x: float) -> str:
    """Three significant digits, in exponent form when small: a KL of 1e-5 reads ``1e-05``,
    not ``0.0000``."""
    return f"{x:.3g}"


# --------------------------------------------------------------------------- evaluation


def evaluate_policy(net: PolicyNet, rules: RuleConfig, opponent: str, deals: int, seed: int,
                    workers: int = 1, progress: str | None = None) -> dict[str, float]:
    """Duplicate evaluation (``training.evaluate``) of the greedy policy against three
    ``opponent`` agents: mean score per hand and its CI95 half-width. The harness takes agent
    specs, so the weights go through a temporary policy file (``ppo:PATH``). ``progress``: what
    the evaluation's progress line counts (None: no line)."""
    import tempfile

    from agents.ppo import save_policy_file
    from training.evaluate import evaluate

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "eval.pt"
        save_policy_file(path, net, rules)
        report = evaluate(f"ppo:{path}", opponent, deals, seed=seed, rules=rules, workers=workers,
                          progress=progress is not None, progress_label=progress)
    low, high = report["ci95"]
    return {"mean": float(report["mean_score"]), "ci95": float(high - low) / 2}


# --------------------------------------------------------------------------- training


def set_threads(args: Args) -> None:
    """Rollout workers pin themselves to one thread each (``training.selfplay``). The learner
    uses ``--threads``: the default 1 because this network is small and, on a machine shared
    with other work, one thread beat two by 4x in the update (fwd+bwd of 1,024 observations,
    1.1 s vs 4.0 s at load 7 on 2 cores); 0 = one per core, for an idle many-core machine."""
    torch.set_num_threads(args.threads if args.threads > 0 else max(1, os.cpu_count() or 1))


def train(args: Args, given: set[str] | None = None, progress: bool = True,
          stop_after: int | None = None) -> Path:
    """Run (or resume) PPO self-play training; returns the path of ``latest.pt``.

    ``given``: the ``Args`` fields the user set explicitly (default: those that differ from
    their defaults). On ``--resume`` the stored run's values are kept for all others; on a new
    run with ``init_from`` the network's shape and input come from that checkpoint unless
    given. Everything is checked before the run folder is touched (``training.rundir``).
    ``stop_after``: leave after this many updates, as if killed right after a checkpoint (tests
    of ``--resume`` and the benchmark use it)."""
    from agents import make_agent
    from agents.ppo import read_checkpoint_file, save_policy_file
    from mjenv.env.observation import NUM_PLANES
    from training.checkpoint import (adopt_network, load_init_checkpoint,
                                     load_training_checkpoint, save_training_checkpoint)
    from training.rundir import prepare_run_dir
    from training.selfplay import OpponentPool, RolloutWorkers, half_weights

    given = explicit_fields(args, given)
    state = init = None
    if args.resume:
        out = prepare_run_dir(args.out, prefix="ppo", run_files=args.run_files(), resume=True,
                              resume_from="latest.pt", force=args.force)
        state = load_training_checkpoint(out / "latest.pt", expect_rules=None)
        args, overridden = resumed_args(args, given, state["args"])
        if args.rules() != RuleConfig.from_dict(state["rules"]):
            raise ValueError(f"--min-points {args.min_points} differs from the run's rules "
                             f"{state['rules']}")
        args = adopt_network(args, given, state["net_config"], str(out / "latest.pt"),
                             "a resumed run keeps its network")
        if args.kl_ref_coef > 0 and state.get("reference") is None:
            raise ValueError(f"--kl-ref-coef: {out} started from no policy (no --init-from or "
                             f"--bc-warmstart), so it has none to stay near")
        if int(state["global_step"]) >= args.total_steps:
            raise ValueError(f"--resume: {out} has trained {int(state['global_step']):,} steps "
                             f"of its --total-steps {args.total_steps:,}; give a larger "
                             f"--total-steps to continue it")
        if overridden:
            print(f"resume: overriding stored {', '.join(overridden)}", file=sys.stderr)
    elif args.init_from:
        init = load_init_checkpoint(args.init_from, args.rules())
        args = adopt_network(args, given, init["net_config"], f"--init-from {args.init_from}",
                             "leave the flag out to take the checkpoint's", may_add_oracle=True)
    settings = args.settings()
    for spec in [s for s, _ in settings.fixed_opponents] + args.eval_specs():
        make_agent(spec)                     # an unknown spec or unreadable file: say so now
    device = pick_device(args.device)
    rules = args.rules()
    if state is None:
        out = prepare_run_dir(args.out, prefix="ppo", run_files=args.run_files(),
                              force=args.force)
    args = dataclasses.replace(args, out=str(out), force=False)
    ckpt_path = out / "latest.pt"
    set_threads(args)
    (out / "args.json").write_text(json.dumps(dataclasses.asdict(args), indent=2) + "\n")

    torch.manual_seed(args.seed)
    source = state or init
    config = args.net_config(NUM_PLANES)
    if source:        # its shape (hidden width too); the oracle as adopt_network settled it
        config = dataclasses.replace(NetConfig(**source["net_config"]), oracle=config.oracle)
    net = build_net(config).to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate, eps=1e-5)
    rng = np.random.default_rng([args.seed, 0x5EED])
    pool = OpponentPool(args.pool_size if args.past_share > 0 else 0)   # none played: none kept
    update0, global_step = 0, 0
    behaviour = None      # (version, weights) of the rollout in flight when the run stopped
    start = None          # the weights the run started from, when it did (--kl-ref-coef's)

    def weights() -> dict[str, torch.Tensor]:
        return {k: v.detach().cpu().clone() for k, v in net.state_dict().items()}

    if state is not None:
        net.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        rng.bit_generator.state = state["rng"]["numpy"]
        torch.set_rng_state(state["rng"]["torch"])
        pool = OpponentPool.from_state(state["pool"])
        update0, global_step = int(state["update"]), int(state["global_step"])
        if state.get("behaviour") is not None:
            behaviour = (int(state["behaviour"]["update"]), state["behaviour"]["model"])
        start = state.get("reference")
    else:
        if init is not None:
            load_weights(net, init["model"])     # extended with a fresh oracle critic if asked
        if args.bc_warmstart:
            from training.bc import behaviour_clone
            behaviour_clone(net, rules, hands=args.bc_hands, epochs=args.bc_epochs, lr=args.bc_lr,
                            seed=args.seed, reward_scale=args.reward_scale, out=out / "bc.pt",
                            workers=args.workers, soft_targets=args.bc_soft_targets)
        if init is not None or args.bc_warmstart:
            start = weights()
    reference = None
    if args.kl_ref_coef > 0:
        reference = build_net(config, start).to(device).eval().requires_grad_(False)

    history = state.get("history") if state is not None else None
    log = RunLog(out, update0 if state is not None else None,
                 None if history is None else history["progress"])
    bar = Progress(args.total_steps, global_step) if progress else None
    last_eval = ""

    best_path = out / "best.pt"
    # the best policy's update and float16 weights, kept in the checkpoint's history
    best = None if history is None else history["best"]
    if best is not None and not best_path.exists():       # a run carried to a new machine
        save_policy_file(best_path, build_net(config, best["model"]), rules,
                         meta={"update": best["update"]})
    elif best is None and state is not None and best_path.exists():   # an older checkpoint
        stored = read_checkpoint_file(best_path)
        best = {"update": int(stored["meta"]["update"]), "model": half_weights(stored["model"])}

    def run_evals(update: int) -> dict[str, float]:
        """The greedy policy against each ``--eval-vs`` field and against the run's best policy
        (``best.pt``), on the same deals every time; it becomes the best when it beats the best
        on average (the first evaluation's weights are the first best)."""
        nonlocal last_eval, best
        scalars: dict[str, float] = {}
        def label(vs: str) -> str | None:
            return None if bar is None else f"deals vs {vs}, evaluation at update {update}"

        for spec in args.eval_specs():
            res = evaluate_policy(net, rules, spec, args.eval_deals, seed=args.seed,
                                  workers=args.workers, progress=label(spec))
            key = f"eval/vs_{spec.replace(':', '_')}"
            scalars[key], scalars[f"{key}_ci95"] = res["mean"], res["ci95"]
        if best_path.exists():
            res = evaluate_policy(net, rules, f"ppo:{best_path}", args.eval_deals,
                                  seed=args.seed, workers=args.workers, progress=label("best"))
            scalars["eval/vs_best"], scalars["eval/vs_best_ci95"] = res["mean"], res["ci95"]
        if not best_path.exists() or scalars["eval/vs_best"] > 0:
            save_policy_file(best_path, net, rules, meta={"update": update})
            best = {"update": update, "model": half_weights(net.state_dict())}
        scalars["eval/best_update"] = float(best["update"])      # best.pt's, as kept above
        last_eval = "".join(f" vs {k[len('eval/vs_'):]} {v:+.2f}" for k, v in scalars.items()
                            if k.startswith("eval/vs_") and not k.endswith("_ci95"))
        return scalars

    if bar is not None and args.eval_every:
        print(evaluation_plan(args, update0, global_step), file=sys.stderr, flush=True)
    if args.eval_every and update0 == 0:
        log.log(0, 0, run_evals(0))           # the starting point (random or BC weights)

    try:
        with RolloutWorkers(args.workers, settings, net.config,
                            background=args.overlap) as workers:

            def submit(update: int, version: int, state: dict[str, torch.Tensor],
                       done: int) -> tuple[int, dict[str, torch.Tensor]]:
                """Start rollout ``update`` with the weights of ``version`` (the updates
                behind them); each version joins the pool when it first plays (every
                ``snapshot_every``-th, 0 included)."""
                if version % args.snapshot_every == 0 and version not in [u for u, _ in pool.snapshots]:
                    pool.add(version, state)
                workers.submit(state, pool, args.seed, update, args.update_target(done))
                return version, state

            update = update0
            if behaviour is None:         # a new run, or a run saved without a rollout in flight
                behaviour = submit(update + 1, update, weights(), global_step)
            else:                         # replay the rollout that was in flight, as it was
                workers.submit(behaviour[1], pool, args.seed, update + 1,
                               args.update_target(global_step))
            while global_step < args.total_steps:
                update += 1
                t0 = time.time()
                lr = annealed_lr(args, global_step)
                kl_coef = annealed_kl_ref_coef(args, global_step)
                for group in optimizer.param_groups:
                    group["lr"] = lr
                rollout = workers.result()
                global_step += len(rollout)
                last = global_step >= args.total_steps
                behaviour = None
                if args.overlap and not last:      # plays while this update runs
                    behaviour = submit(update + 1, update - 1, weights(), global_step)
                stats = ppo_update(net, optimizer, rollout, args, rng, reference, kl_coef)
                if not args.overlap and not last:
                    behaviour = submit(update + 1, update, weights(), global_step)
                elapsed = time.time() - t0
                primary = rollout.primary
                scalars = {"charts/learning_rate": lr,
                           "charts/SPS": len(rollout) / elapsed,
                           "charts/decisions_per_s": rollout.decisions / rollout.seconds,
                           # the learner's own seats: its score against the field
                           "charts/score": float(rollout.scores[primary].mean()),
                           "charts/win_rate": float(rollout.won[primary].mean()),
                           "charts/deal_in_rate": float(rollout.dealt_in[primary].mean()),
                           **{f"losses/{k}": v for k, v in stats.items()}}
                if reference is not None:
                    scalars["charts/kl_ref_coef"] = kl_coef
                if args.eval_every and (update % args.eval_every == 0 or last):
                    scalars.update(run_evals(update))
                log.log(update, global_step, scalars)
                stopping = stop_after is not None and update - update0 >= stop_after
                if update % args.save_every == 0 or last or stopping:
                    in_flight = (None if behaviour is None or not args.overlap else
                                 {"update": behaviour[0], "model": behaviour[1]})
                    save_training_checkpoint(ckpt_path, net=net, optimizer=optimizer, rules=rules,
                                             args=dataclasses.asdict(args), update=update,
                                             global_step=global_step, rng=rng, pool=pool,
                                             behaviour=in_flight, reference=start,
                                             history={"progress": log.rows, "best": best})
                if bar is not None:
                    bar.show(update, global_step, scalars["charts/SPS"],
                             f"kl {readable(stats['approx_kl'])} "
                             f"ent {readable(stats['entropy'])} "
                             f"score {scalars['charts/score']:+.1f}"
                             + (f" | eval{last_eval}" if last_eval else ""))
                if stopping:
                    break
    finally:
        if bar is not None:
            bar.close()
        log.close()
    return ckpt_path


#: Fields that only matter when a run starts: on ``--resume`` a new value would be ignored.
STARTING_ONLY = ("init_from", "bc_warmstart", "bc_hands", "bc_epochs", "bc_lr",
                 "bc_soft_targets")


def resumed_args(args: Args, given: set[str],
                 stored: dict[str, Any]) -> tuple[Args, list[str]]:
    """The stored run's ``Args`` with the fields the user gave (``given``) overriding them, and
    the names of those that changed (``out`` aside); a given field that cannot take effect on a
    resumed run is a ``ValueError``."""
    known = {f.name: f.default for f in dataclasses.fields(Args)}
    stored = {k: v for k, v in stored.items() if k in known}
    changed = {k for k in given - {"resume", "force"}
               if getattr(args, k) != stored.get(k, known[k])}
    for name in STARTING_ONLY:
        if name in changed:
            raise ValueError(f"--{name.replace('_', '-')} applies when a run starts; --resume "
                             f"continues from the run's latest.pt")
    return (Args(**{**stored, **{k: getattr(args, k) for k in changed}, "resume": True,
                    "force": False}), sorted(changed - {"out"}))
