"""``mjenv plot runs/NAME``: the learning curves of a training run, as a PNG.

Reads ``runs/NAME/progress.csv`` (written by ``mjenv train ppo``; ``metrics.jsonl`` of
``mjenv train rllib`` where there is no ``progress.csv``) and draws four panels against
learner steps (RLlib: env steps): duplicate-evaluation score against each evaluation field
and the run's best policy (``eval/vs_*`` columns: mean score per hand, with CI95 bands)
beside the trained seats' own score in the rollouts (``charts/score``, a running mean of ten
updates), policy entropy over legal actions, approximate KL of each update, and training
throughput (steps/s). Writes ``runs/NAME/curves.png`` unless ``--out``.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", help="run folder holding progress.csv (e.g. runs/NAME)")
    parser.add_argument("--out", help="PNG path (default: RUN/curves.png)")
    parser.add_argument("--title", help="figure title (default: the run folder's name)")


def read_progress(path: Path) -> dict[str, list[tuple[float, float]]]:
    """``progress.csv`` (``mjenv train ppo``) or ``metrics.jsonl`` (``mjenv train rllib``) →
    column → [(global_step, value)] for the non-empty cells; RLlib's
    ``charts/learner_score`` is read as ``charts/score``."""
    series: dict[str, list[tuple[float, float]]] = {}
    if path.suffix == ".jsonl":
        with open(path) as f:
            rows = [json.loads(line) for line in f if line.strip()]
    else:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    for row in rows:
        step = float(row["global_step"])
        for key, value in row.items():
            if key in ("update", "iteration", "global_step") or value in ("", None):
                continue
            key = "charts/score" if key == "charts/learner_score" else key
            series.setdefault(key, []).append((step, float(value)))
    return series


def plot_run(run: str | Path, out: str | Path | None = None, title: str | None = None) -> Path:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    run = Path(run)
    progress = run / "progress.csv"
    if not progress.exists() and (run / "metrics.jsonl").exists():
        progress = run / "metrics.jsonl"
    if not progress.exists():
        raise ValueError(f"{progress} not found: is {run} a training run folder?")
    series = read_progress(progress)
    if not series:
        raise ValueError(f"{progress} has no rows yet")
    fig, axes = plt.subplots(2, 2, figsize=(11, 7.5), constrained_layout=True)

    ax = axes[0, 0]
    fields = [k for k in series if k.startswith("eval/vs_") and not k.endswith("_ci95")]
    for key in fields:
        points = series[key]
        xs, ys = zip(*points)
        ci = dict(series.get(f"{key}_ci95", []))
        lo = [y - ci.get(x, 0.0) for x, y in points]
        hi = [y + ci.get(x, 0.0) for x, y in points]
        line, = ax.plot(xs, ys, "o-", label=f"vs 3 × {key[len('eval/vs_'):]}")
        ax.fill_between(xs, lo, hi, color=line.get_color(), alpha=0.15)
    train = series.get("charts/score", [])
    if train:   # the rollouts' own score, against whatever mix the run trains on: noisy
        xs, ys = zip(*train)
        mean = [sum(ys[max(0, i - 9):i + 1]) / len(ys[max(0, i - 9):i + 1])
                for i in range(len(ys))]
        ax.plot(xs, mean, color="grey", lw=1.2, label="training seats (mean of 10 updates)")
    ax.axhline(0.0, color="grey", lw=0.8)
    ax.set_title("mean score per hand: duplicate evaluations (CI95), training")
    if fields or train:
        ax.legend(loc="best")

    rllib = progress.suffix == ".jsonl"      # RLlib counts env steps and samples in them
    steps = "env steps" if rllib else "learner steps"
    panels = ((axes[0, 1], "losses/entropy", "policy entropy (legal actions)"),
              (axes[1, 0], "losses/approx_kl", "approx. KL per update"),
              (axes[1, 1], "charts/SPS", f"{'sampled ' if rllib else ''}{steps} / s"))
    for ax, key, label in panels:
        points = series.get(key, [])
        if points:
            xs, ys = zip(*points)
            ax.plot(xs, ys, lw=1.2)
        else:
            ax.text(0.5, 0.5, "not recorded by this trainer", ha="center", va="center",
                    transform=ax.transAxes, color="grey")
        ax.set_title(label)
    for ax in axes.flat:
        ax.set_xlabel(steps)
        ax.grid(alpha=0.3)
    fig.suptitle(title or run.name)
    out_path = Path(out) if out else run / "curves.png"
    out_path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out_path, dpi=110)
    plt.close(fig)
    return out_path


def run(args: argparse.Namespace) -> int:
    try:
        path = plot_run(args.run, args.out, args.title)
    except ValueError as exc:
        print(f"mjenv plot: {exc}", file=sys.stderr)
        return 2
    except ImportError:
        print("mjenv plot needs matplotlib: pip install 'mjenv[train]'", file=sys.stderr)
        return 2
    print(f"wrote {path}")
    return 0
