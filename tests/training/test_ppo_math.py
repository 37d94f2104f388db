"""PPO pieces on synthetic data: GAE, masked sampling/entropy, the clipped loss, the KL to the
starting policy and its schedule, minibatches."""

import math

import numpy as np
import pytest
import torch

from agents.network import ILLEGAL_LOGIT, masked_entropy, masked_logits, sample_masked
from training.ppo import Args
from training.update import (annealed_kl_ref_coef, compute_gae, explained_variance,
                             kl_to_reference, minibatch_indices, ppo_loss, return_scale)


def naive_gae(rewards, values, dones, gamma, lam):
    """Per episode, A_t = sum_l (gamma*lam)^l * delta_{t+l}, value 0 after the episode."""
    n = len(rewards)
    adv = np.zeros(n)
    start = 0
    for end in [i for i in range(n) if dones[i]]:
        for t in range(start, end + 1):
            total = 0.0
            for l, k in enumerate(range(t, end + 1)):
                nv = 0.0 if k == end else values[k + 1]
                total += (gamma * lam) ** l * (rewards[k] + gamma * nv - values[k])
            adv[t] = total
        start = end + 1
    return adv


@pytest.mark.parametrize("seed", range(5))
def test_gae_matches_the_definition(seed):
    rng = np.random.default_rng(seed)
    n = 40
    rewards = rng.normal(size=n)
    values = rng.normal(size=n)
    dones = (rng.random(n) < 0.2).astype(np.float32)
    dones[-1] = 1
    adv, ret = compute_gae(rewards, values, dones, 0.97, 0.9)
    np.testing.assert_allclose(adv, naive_gae(rewards, values, dones, 0.97, 0.9), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(ret, adv + values, rtol=1e-5, atol=1e-5)


def test_gae_lambda_one_is_discounted_return_to_go():
    rewards = np.array([0.0, 0.0, 1.0, 0.0, -2.0])
    dones = np.array([0, 0, 1, 0, 1])
    values = np.array([0.3, -0.1, 0.5, 0.2, 0.0])
    _, ret = compute_gae(rewards, values, dones, 0.5, 1.0)
    np.testing.assert_allclose(ret, [0.25, 0.5, 1.0, -1.0, -2.0], atol=1e-6)


def test_gae_bootstraps_a_truncated_tail_and_requires_its_value():
    rewards, values, dones = np.zeros(3), np.zeros(3), np.zeros(3)
    with pytest.raises(ValueError, match="last_value"):
        compute_gae(rewards, values, dones, 0.9, 0.9)
    adv, _ = compute_gae(rewards, values, dones, 0.5, 1.0, last_value=8.0)
    np.testing.assert_allclose(adv, [1.0, 2.0, 4.0])


def random_masks(rng, b, n=110):
    masks = rng.random((b, n)) < 0.1
    masks[np.arange(b), rng.integers(n, size=b)] = True   # at least one legal action per row
    return torch.as_tensor(masks)


def test_masked_sampling_never_picks_an_illegal_action():
    rng = np.random.default_rng(0)
    gen = torch.Generator().manual_seed(0)
    for _ in range(20):
        masks = random_masks(rng, 64)
        # adversarial logits: the illegal actions are by far the most likely before masking
        logits = torch.where(masks, torch.zeros(64, 110), torch.full((64, 110), 50.0))
        actions = sample_masked(masked_logits(logits, masks), gen)
        assert bool(masks[torch.arange(64), actions].all())


def test_masked_entropy_counts_legal_actions_only():
    rng = np.random.default_rng(1)
    masks = random_masks(rng, 16)
    logits = masked_logits(torch.zeros(16, 110), masks)
    ent = masked_entropy(logits, masks)
    expected = torch.log(masks.sum(-1).double()).float()
    torch.testing.assert_close(ent, expected)
    assert bool(torch.isfinite(ent).all())
    log_probs = torch.log_softmax(logits, -1)
    assert float(log_probs[~masks].max()) < ILLEGAL_LOGIT / 2
    assert float(log_probs.exp()[~masks].sum()) == 0.0


def loss_inputs(n=8, ratio=1.0, adv=None, seed=0):
    g = torch.Generator().manual_seed(seed)
    old = torch.randn(n, generator=g)
    new = (old + math.log(ratio)).requires_grad_(True)
    adv = torch.randn(n, generator=g) if adv is None else adv
    return new, old, adv


def test_ppo_loss_at_ratio_one_has_zero_policy_loss_and_plain_kl():
    new, old, adv = loss_inputs()
    values = torch.zeros(8)
    loss, parts = ppo_loss(new, old, adv, values, values, values, torch.ones(8), clip_coef=0.2,
                           vf_coef=0.5, ent_coef=0.01, clip_vloss=True, norm_adv=True)
    assert abs(float(parts["policy_loss"])) < 1e-6
    assert float(parts["approx_kl"]) == pytest.approx(0.0, abs=1e-7)
    assert float(parts["clipfrac"]) == 0.0
    assert float(loss.detach()) == pytest.approx(-0.01, abs=1e-6)


def test_ppo_loss_clips_the_ratio():
    # Positive advantages with ratio above 1 + clip: the clipped term is active, no gradient.
    new, old, _ = loss_inputs(ratio=1.5)
    adv = torch.ones(8)
    zeros = torch.zeros(8)
    loss, parts = ppo_loss(new, old, adv, zeros, zeros, zeros, zeros, clip_coef=0.2, vf_coef=0.5,
                           ent_coef=0.0, clip_vloss=False, norm_adv=False)
    loss.backward()
    assert float(parts["clipfrac"]) == 1.0
    assert float(parts["policy_loss"]) == pytest.approx(-1.2)
    assert float(new.grad.abs().max()) == 0.0
    # Negative advantages with the same ratio: unclipped (pessimistic) term, gradient flows.
    new2, old2, _ = loss_inputs(ratio=1.5)
    loss2, parts2 = ppo_loss(new2, old2, -adv, zeros, zeros, zeros, zeros, clip_coef=0.2,
                             vf_coef=0.5, ent_coef=0.0, clip_vloss=False, norm_adv=False)
    loss2.backward()
    assert float(parts2["policy_loss"]) == pytest.approx(1.5)
    assert float(new2.grad.abs().min()) > 0


def test_value_clipping_takes_the_larger_error():
    new, old, adv = loss_inputs()
    returns = torch.full((8,), 1.0)
    old_v = torch.zeros(8)
    new_v = torch.full((8,), 0.9)
    kw = dict(clip_coef=0.2, vf_coef=1.0, ent_coef=0.0, norm_adv=False)
    _, plain = ppo_loss(new, old, adv, new_v, old_v, returns, torch.zeros(8), clip_vloss=False, **kw)
    _, clipped = ppo_loss(new, old, adv, new_v, old_v, returns, torch.zeros(8), clip_vloss=True, **kw)
    assert float(plain["value_loss"]) == pytest.approx(0.5 * 0.1 ** 2)
    assert float(clipped["value_loss"]) == pytest.approx(0.5 * 0.8 ** 2)


def test_minibatches_partition_a_permutation():
    rng = np.random.default_rng(3)
    parts = list(minibatch_indices(103, 4, rng))
    assert len(parts) == 4
    assert sorted(np.concatenate(parts).tolist()) == list(range(103))
    assert max(map(len, parts)) - min(map(len, parts)) <= 1


def test_explained_variance():
    y = np.array([1.0, 2.0, 3.0, 4.0])
    assert explained_variance(y, y) == 1.0
    assert explained_variance(np.full(4, 2.5), y) == pytest.approx(0.0)
    assert math.isnan(explained_variance(y, np.ones(4)))


def test_kl_to_reference_is_zero_at_the_reference_positive_elsewhere_and_pulls_back():
    rng = np.random.default_rng(3)
    masks = random_masks(rng, 32)
    g = torch.Generator().manual_seed(3)
    ref = torch.log_softmax(masked_logits(4 * torch.randn(32, 110, generator=g), masks), -1)
    logits = masked_logits(4 * torch.randn(32, 110, generator=g), masks)
    # illegal actions do not count, however the network scores them
    assert float(kl_to_reference(ref, ref, masks)) == pytest.approx(0.0, abs=1e-6)
    logits.requires_grad_(True)
    kl = kl_to_reference(ref, torch.log_softmax(logits, -1), masks)
    expected = (ref.exp() * (ref - torch.log_softmax(logits.detach(), -1)))[masks].sum() / 32
    assert float(kl.detach()) > 0.1
    assert float(kl.detach()) == pytest.approx(float(expected), rel=1e-5)
    kl.backward()
    # the gradient in the logits is (pi - pi_ref) / batch on the legal actions: toward the reference
    grad = (torch.softmax(logits, -1) - ref.exp()).detach() / 32
    torch.testing.assert_close(logits.grad[masks], grad[masks])
    stepped = (logits - 0.5 * 32 * logits.grad).detach()
    assert float(kl_to_reference(ref, torch.log_softmax(stepped, -1), masks)) < float(kl.detach())


def test_kl_to_reference_forgives_exploring_what_a_sure_reference_never_plays():
    # a near-deterministic reference (the clone): moving 10 % of the probability to an action
    # it gives 1e-7 costs about 0.1 nats in this direction, 1.3 in the other
    mask = torch.ones(1, 2, dtype=torch.bool)
    ref = torch.log(torch.tensor([[1 - 1e-7, 1e-7]], dtype=torch.float64))
    explore = torch.log(torch.tensor([[0.9, 0.1]], dtype=torch.float64))
    assert float(kl_to_reference(ref, explore, mask)) == pytest.approx(-math.log(0.9), abs=1e-5)
    assert float(kl_to_reference(explore, ref, mask)) == pytest.approx(1.287, abs=1e-3)


@pytest.mark.parametrize("fraction, steps, expected", [
    (0.5, 0, 0.2), (0.5, 250, 0.1), (0.5, 500, 0.0), (0.5, 900, 0.0),
    (1.0, 250, 0.15), (1.0, 1000, 0.0), (0.0, 900, 0.2)])
def test_the_kl_weight_decays_linearly_to_zero_at_its_fraction_of_the_run(fraction, steps,
                                                                          expected):
    args = Args(total_steps=1000, kl_ref_coef=0.2, kl_ref_fraction=fraction,
                init_from="ppo:pretrained", fixed_opponents="random:1")
    assert annealed_kl_ref_coef(args, steps) == pytest.approx(expected)


def test_the_kl_needs_a_starting_policy():
    with pytest.raises(ValueError, match="--kl-ref-coef needs a policy to stay near"):
        Args(kl_ref_coef=0.1, fixed_opponents="random:1")
    Args(kl_ref_coef=0.1, bc_warmstart=True, fixed_opponents="random:1")


@pytest.mark.parametrize("clip_vloss", [True, False])
def test_value_loss_in_units_of_the_return_scale_is_scale_free(clip_vloss):
    """Scores in points or in any reward scale: the same value loss once measured in its unit
    (the clipped one too, its clip range scaling along)."""
    rng = np.random.default_rng(0)
    b = 64
    score = torch.as_tensor(rng.normal(0, 18, size=b))
    old = torch.as_tensor(rng.normal(0, 18, size=b))
    new = old + torch.as_tensor(rng.normal(0, 6, size=b))
    zeros = torch.zeros(b)
    losses = []
    for scale in (1.0, 1 / 40, 1 / 1000):
        returns = score * scale
        unit = return_scale(returns.numpy(), scale)
        _, parts = ppo_loss(zeros, zeros, zeros, new * scale, old * scale, returns, zeros,
                            clip_coef=0.2, vf_coef=0.5, ent_coef=0.0, clip_vloss=clip_vloss,
                            norm_adv=False, value_scale=unit)
        losses.append(float(parts["value_loss"]))
    assert losses == pytest.approx([losses[0]] * 3, rel=1e-9)
    assert losses[0] != pytest.approx(0.5 * float(((new - score) ** 2).mean()), rel=0.01)


def test_return_scale_is_at_least_one_point():
    assert return_scale(np.zeros(10), 1 / 40) == 1 / 40
    assert return_scale(np.array([1.0, -1.0]), 1 / 40) == 1.0
