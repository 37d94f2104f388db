"""How much of a deal's score a critic can explain: the run's critic, refitted ones, and the
oracle's share.

    python benchmarks/critic_ceiling.py runs/p17/latest.pt [--steps 16384] [--epochs 12]

Plays two rollouts (``training.selfplay.collect_rollout``, the run's own settings, no past
snapshots) with the checkpoint's weights — one to fit, one to test, seeds 101 and 202 — and
reports the explained variance of the test rollout's Monte-Carlo returns (λ = 1) by: the
critic as trained; its value head and oracle encoder refitted at several learning rates (the
trunk frozen, its features computed once); a fresh value head; the refit with the oracle planes
zeroed; and a small MLP on the shanten of all four hidden hands (one-hot) and the live wall's
size, alone and with the trunk features. Each refit prints its held-out explained variance
after every epoch; a fit that keeps rising on its own data while the held-out one stalls is
over-fitting. Needs a network with an oracle critic (``--oracle-critic``).
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.checkpoint_file import read_checkpoint_file  # noqa: E402
from agents.network import NetConfig, PolicyNet, build_net  # noqa: E402
from mjenv.analysis.shanten import shanten_counts  # noqa: E402
from mjenv.env.oracle import CONCEALED, LIVE  # noqa: E402
from training.ppo import Args  # noqa: E402
from training.selfplay import collect_rollout  # noqa: E402
from training.start import resumed_args  # noqa: E402
from training.update import compute_gae, explained_variance  # noqa: E402


@dataclasses.dataclass
class Part:
    """One rollout as the fits read it: trunk features, oracle planes, MC returns."""

    z: torch.Tensor
    oracle: torch.Tensor
    returns: torch.Tensor
    values: torch.Tensor


def play(net: PolicyNet, args: Args, seed: int, steps: int) -> Part:
    r = collect_rollout(net, [], dataclasses.replace(args.settings(), past_share=0.0), seed,
                        steps)
    _, returns = compute_gae(r.rewards, r.values, r.dones, args.gamma, 1.0)
    with torch.no_grad():
        z = torch.cat([net.policy(torch.as_tensor(o))[1] for o in np.array_split(r.obs, 64)])
    return Part(z, torch.as_tensor(r.oracle), torch.as_tensor(returns),
                torch.as_tensor(r.values))


def explained(pred: torch.Tensor, target: torch.Tensor) -> float:
    """``training.update.explained_variance`` (the run's ``losses/explained_variance``) of
    tensors."""
    return explained_variance(pred.detach().numpy(), target.numpy())


def hand_features(oracle: torch.Tensor) -> torch.Tensor:
    """Per decision: each seat's shanten (−1…7, one-hot, from its concealed counts and the
    melds they imply) and the live wall's size."""
    planes = oracle.numpy()
    out = np.zeros((len(planes), 4 * 9 + 1), np.float32)
    for i, p in enumerate(planes):
        for s in range(4):
            counts = p[CONCEALED + s].astype(int).tolist()
            sh = shanten_counts(counts, (14 - sum(counts)) // 3)
            out[i, s * 9 + min(max(sh, -1), 7) + 1] = 1.0
        out[i, -1] = p[LIVE].sum() / 70.0
    return torch.as_tensor(out)


def refit(net: PolicyNet, fit: Part, test: Part, lr: float, epochs: int, *, fresh: bool = False,
          zero_oracle: bool = False) -> list[float]:
    """The value head and oracle encoder trained on ``fit``; held-out EV per epoch."""
    m = copy.deepcopy(net)
    heads = list(m.value_head) + list(m.oracle_encoder)
    if fresh:
        for layer in heads:
            if hasattr(layer, "reset_parameters"):
                layer.reset_parameters()
    opt = torch.optim.Adam([p for layer in heads for p in layer.parameters()], lr=lr, eps=1e-5)
    scale = float(fit.returns.std())

    def oracle(part: Part, idx=slice(None)) -> torch.Tensor:
        o = part.oracle[idx]
        return torch.zeros_like(o) if zero_oracle else o

    out = []
    for _ in range(epochs):
        for mb in torch.randperm(len(fit.returns)).split(1024):
            loss = ((m.value(fit.z[mb], oracle(fit, mb)) - fit.returns[mb]) / scale).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            out.append(explained(m.value(test.z, oracle(test)), test.returns))
    return out


def mlp_fit(x_fit: torch.Tensor, y_fit: torch.Tensor, x_test: torch.Tensor,
            y_test: torch.Tensor, epochs: int) -> list[float]:
    m = torch.nn.Sequential(torch.nn.Linear(x_fit.shape[1], 128), torch.nn.ReLU(),
                            torch.nn.Linear(128, 1))
    opt = torch.optim.Adam(m.parameters(), lr=1e-3)
    out = []
    for _ in range(epochs):
        for mb in torch.randperm(len(y_fit)).split(512):
            loss = (m(x_fit[mb]).squeeze(-1) - y_fit[mb]).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            out.append(explained(m(x_test).squeeze(-1), y_test))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkpoint", help="a training checkpoint of a run with --oracle-critic")
    ap.add_argument("--steps", type=int, default=16384, help="learner decisions per rollout")
    ap.add_argument("--epochs", type=int, default=12)
    opts = ap.parse_args(argv)
    torch.set_num_threads(1)
    torch.manual_seed(0)
    state = read_checkpoint_file(opts.checkpoint)
    if "args" not in state or not state["net_config"].get("oracle"):
        print(f"{opts.checkpoint}: not a training checkpoint with an oracle critic",
              file=sys.stderr)
        return 2
    net = build_net(NetConfig(**state["net_config"]), state["model"]).eval()
    args, _ = resumed_args(Args(), set(), state["args"])        # the run's own settings
    fit, test = (play(net, args, seed, opts.steps) for seed in (101, 202))
    print(f"{len(fit.returns)} / {len(test.returns)} decisions; held-out explained variance "
          f"of MC returns: the critic as trained {explained(test.values, test.returns):.3f}")

    def show(name: str, evs: list[float]) -> None:
        print(f"{name:34} {' '.join(f'{e:.3f}' for e in evs)}", flush=True)

    for lr in (3e-5, 3e-4, 1e-3):
        show(f"refit, lr {lr:g}", refit(net, fit, test, lr, opts.epochs))
    show("fresh value head, lr 0.001", refit(net, fit, test, 1e-3, opts.epochs, fresh=True))
    show("oracle planes zeroed, lr 0.001", refit(net, fit, test, 1e-3, opts.epochs,
                                                 zero_oracle=True))
    h_fit, h_test = hand_features(fit.oracle), hand_features(test.oracle)
    show("MLP: hidden hands' shanten", mlp_fit(h_fit, fit.returns, h_test, test.returns,
                                               opts.epochs))
    show("MLP: trunk + hidden hands' shanten",
         mlp_fit(torch.cat([fit.z, h_fit], 1), fit.returns, torch.cat([test.z, h_test], 1),
                 test.returns, opts.epochs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
