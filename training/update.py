"""The PPO update, CleanRL's: GAE, minibatches, the clipped loss and the epochs of minibatch
steps over one rollout, with the schedules of the learning rate and of the KL to the starting
policy. Small functions, each unit-tested (``tests/training/test_ppo_math.py``).

``ppo_update`` reads the PPO fields of the trainer's ``Args`` (``training.ppo``): ``gamma``,
``gae_lambda``, ``update_epochs``, ``num_minibatches``, ``clip_coef``, ``vf_coef``,
``ent_coef``, ``max_grad_norm``, ``norm_adv``, ``clip_vloss``, ``value_norm``,
``reward_scale``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

import numpy as np
import torch
from torch import nn

from agents.network import PolicyNet, masked_logits

if TYPE_CHECKING:
    from training.ppo import Args
    from training.selfplay import Rollout


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


def ppo_update(net: PolicyNet, optimizer: torch.optim.Optimizer, rollout: Rollout, args: Args,
               rng: np.random.Generator, reference: PolicyNet | None = None,
               kl_coef: float = 0.0) -> dict[str, float]:
    """GAE, then ``update_epochs`` passes of minibatch gradient steps; the masks stored in the
    rollout are re-applied to the new logits, and an oracle critic reads the rollout's oracle
    planes. With a ``reference`` policy the loss adds ``kl_coef`` × ``kl_to_reference``
    (``kl_ref`` in the stats, whatever the weight). Returns the update's statistics (the
    ``losses/`` of the run's log)."""
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
    b_ref = (None if reference is None else
             reference_log_probs(reference, b_obs, b_masks, -(-len(adv) // args.num_minibatches)))
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


@torch.no_grad()
def reference_log_probs(reference: PolicyNet, obs: torch.Tensor, masks: torch.Tensor,
                        size: int) -> torch.Tensor:
    """The frozen reference policy's log-probabilities of the whole rollout, computed once in
    minibatch-sized pieces."""
    return torch.cat([torch.log_softmax(masked_logits(reference.policy(o)[0], m), -1)
                      for o, m in zip(obs.split(size), masks.split(size))])


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


