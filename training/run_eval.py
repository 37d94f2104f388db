"""A run's periodic evaluations and its best policy.

Every ``--eval-every`` updates (and before the first), the greedy policy plays ``--eval-deals``
duplicate deals (``training.evaluate``, each deal from all four seats) against three of each
``--eval-vs`` agent and against three copies of the run's best policy, ``OUT/best.pt`` — always
the same deals (seeded by the run's ``--seed``), so the readings compare like with like. The
weights of the first evaluation are the first best; a later policy that beats the best on those
deals (mean > 0) replaces it. ``best.pt`` is a policy file: the checkpoint to ship, where
``latest.pt`` is the one to resume.

Scalars: ``eval/vs_SPEC`` for each ``--eval-vs`` field (``:`` written ``_``) and ``eval/vs_best``,
each with its ``_ci95`` half-width, and ``eval/best_update`` (the update whose weights are in
``best.pt``).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from agents.checkpoint_file import save_policy_file
from agents.network import NetConfig, PolicyNet, build_net
from mjenv.rules import RuleConfig
from training.checkpoint import Snapshot
from training.selfplay import half_weights


def evaluate_policy(net: PolicyNet, rules: RuleConfig, opponent: str, deals: int, seed: int,
                    workers: int = 1, progress: str | None = None) -> dict[str, float]:
    """Duplicate evaluation (``training.evaluate``) of the greedy policy against three
    ``opponent`` agents: mean score per hand and its CI95 half-width. The harness takes agent
    specs, so the weights go through a temporary policy file (``ppo:PATH``). ``progress``: what
    the evaluation's progress line counts (None: no line)."""
    from training.evaluate import evaluate

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "eval.pt"
        save_policy_file(path, net, rules)
        report = evaluate(f"ppo:{path}", opponent, deals, seed=seed, rules=rules, workers=workers,
                          progress=progress is not None, progress_label=progress)
    low, high = report["ci95"]
    return {"mean": float(report["mean_score"]), "ci95": float(high - low) / 2}


class RunEvaluations:
    """The evaluations of one run and its best policy (``best``: its update and float16
    weights, as the run's checkpoint keeps them). A run carried to a new machine in its
    checkpoint alone gets its ``best.pt`` back from ``best`` here."""

    def __init__(self, out: Path, rules: RuleConfig, specs: list[str], deals: int, seed: int,
                 workers: int, best: Snapshot | None, config: NetConfig,
                 show_progress: bool) -> None:
        self.path = out / "best.pt"
        self.rules, self.specs, self.deals, self.seed, self.workers = (rules, specs, deals,
                                                                       seed, workers)
        self.best = best
        self.show_progress = show_progress
        self.summary = ""      # the last evaluation's readings, for the progress report
        if best is not None and not self.path.exists():
            save_policy_file(self.path, build_net(config, best.model), rules,
                             meta={"update": best.update})

    def __call__(self, net: PolicyNet, update: int) -> dict[str, float]:
        """Evaluate ``net`` (the weights after ``update`` updates); it becomes the best when it
        beats the best on average (the first evaluation's weights are the first best)."""
        scalars: dict[str, float] = {}
        for spec in self.specs:
            key = f"eval/vs_{spec.replace(':', '_')}"
            scalars[key], scalars[f"{key}_ci95"] = self._against(net, spec, spec, update)
        if self.path.exists():
            scalars["eval/vs_best"], scalars["eval/vs_best_ci95"] = self._against(
                net, f"ppo:{self.path}", "best", update)
        if not self.path.exists() or scalars["eval/vs_best"] > 0:
            save_policy_file(self.path, net, self.rules, meta={"update": update})
            self.best = Snapshot(update, half_weights(net.state_dict()))
        scalars["eval/best_update"] = float(self.best.update)      # best.pt's, as kept above
        self.summary = "".join(f" vs {k[len('eval/vs_'):]} {v:+.2f}" for k, v in scalars.items()
                               if k.startswith("eval/vs_") and not k.endswith("_ci95"))
        return scalars

    def _against(self, net: PolicyNet, spec: str, name: str, update: int) -> tuple[float, float]:
        label = f"deals vs {name}, evaluation at update {update}" if self.show_progress else None
        res = evaluate_policy(net, self.rules, spec, self.deals, seed=self.seed,
                              workers=self.workers, progress=label)
        return res["mean"], res["ci95"]
