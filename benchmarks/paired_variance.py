"""How much the paired baseline (``--paired-baseline``) cuts the variance of the learner's reward.

    python benchmarks/paired_variance.py [--agent agents/pretrained/ppo.pt] [--opponent ppo:pretrained]
        [--latest-share 0.0] [--steps 2500] [--seed 1]

Plays one rollout of paired deals (``training.selfplay.collect_rollout``) with the policy file
as the learner and reports, over its deals, the variance of the learner's score, of the shadow
deal's score and of their difference (the paired reward, in points), their correlation and the
share of deals whose two copies ended alike. Opponents: ``--opponent`` on the fixed seats and
the learner's own weights (greedy under pairing) on ``--latest-share`` of them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.ppo import PPOAgent  # noqa: E402
from training.selfplay import RolloutSettings, collect_rollout  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agent", default="agents/pretrained/ppo.pt",
                    help="policy or training checkpoint (default: the shipped policy)")
    ap.add_argument("--opponent", default="ppo:pretrained", help="agent spec, fixed seats")
    ap.add_argument("--latest-share", type=float, default=0.0)
    ap.add_argument("--steps", type=int, default=2500, help="learner decisions to collect")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    net = PPOAgent.load(args.agent).net.eval()
    settings = RolloutSettings(num_envs=16, latest_share=args.latest_share, past_share=0.0,
                               fixed_share=1.0 - args.latest_share,
                               fixed_opponents=((args.opponent, 1.0),), paired_baseline=True)
    r = collect_rollout(net, [], settings, seed=[args.seed], target_steps=args.steps)
    s, b = r.scores, r.baselines
    print(f"{len(s)} deals vs {args.opponent} (latest share {args.latest_share}): "
          f"var score {s.var():.1f}, var shadow {b.var():.1f}, var paired reward "
          f"{(s - b).var():.1f} (points²); correlation {np.corrcoef(s, b)[0, 1]:.2f}; "
          f"{(s == b).mean():.0%} of deals alike")
    return 0


if __name__ == "__main__":
    sys.exit(main())
