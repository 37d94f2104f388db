"""What a run reports: the scalars of each update (CleanRL's names) to ``progress.csv`` and
TensorBoard, and one progress report per update on stderr.

Scalars. ``charts/learning_rate``, ``charts/SPS`` (learner decisions per second of the update's
rollout and PPO update), ``charts/decisions_per_s`` (every seat's, while the rollout played),
``charts/score``, ``charts/win_rate`` and ``charts/deal_in_rate`` (the learner's own seats: its
result against the field, not against itself), the ``losses/`` of ``training.update``
(``policy_loss``, ``value_loss``, ``entropy``, ``approx_kl``, ``old_approx_kl``, ``clipfrac``,
``explained_variance``, ``return_std``; with ``--kl-ref-coef`` ``kl_ref``, and
``charts/kl_ref_coef``), and per evaluation those of ``training.run_eval``.
"""

from __future__ import annotations

import csv
import math
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from training.ppo import Args
    from training.selfplay import Rollout


def update_scalars(rollout: Rollout, stats: dict[str, float], lr: float,
                   kl_coef: float | None, seconds: float) -> dict[str, float]:
    """The scalars of one update: its rollout's, and the update's ``stats``; ``kl_coef`` is
    logged when the run has a reference policy (``None``: it has none)."""
    primary = rollout.primary
    scalars = {"charts/learning_rate": lr,
               "charts/SPS": len(rollout) / seconds,
               "charts/decisions_per_s": rollout.decisions / rollout.seconds,
               # the learner's own seats: its score against the field
               "charts/score": float(rollout.scores[primary].mean()),
               "charts/win_rate": float(rollout.won[primary].mean()),
               "charts/deal_in_rate": float(rollout.dealt_in[primary].mean()),
               **{f"losses/{k}": v for k, v in stats.items()}}
    if kl_coef is not None:
        scalars["charts/kl_ref_coef"] = kl_coef
    return scalars


class RunLog:
    """The same scalars to ``progress.csv`` (one row per update) and TensorBoard."""

    def __init__(self, out: Path, rows: list[dict[str, Any]], resumed_at: int | None) -> None:
        """``rows``: the run's rows so far (its checkpoint's history), which replace the file's;
        ``resumed_at``: the update a resumed run continues from (TensorBoard forgets what was
        logged after it)."""
        self.path = out / "progress.csv"
        self.rows: list[dict[str, Any]] = list(rows)
        self.writer = None
        try:
            from torch.utils.tensorboard import SummaryWriter
            self.writer = SummaryWriter(str(out / "tb"), purge_step=None if resumed_at is None
                                        else resumed_at + 1)
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
    first = ("now (the starting weights)" if update0 == 0 else
             f"at update {(update0 // args.eval_every + 1) * args.eval_every}")
    text = (f"evaluations ({args.eval_deals} deals each vs {fields}): {first}, then every "
            f"{args.eval_every} updates and after the last")
    if left < args.eval_every:
        updates = "update" if left == 1 else "updates"
        text += (f"; this run has about {left} {updates} to go, fewer "
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


def update_summary(scalars: dict[str, float], evaluation: str) -> str:
    """What the progress report adds after the steps: the update's KL, entropy and score, and
    the last evaluation's readings (``evaluation``, empty before the first)."""
    text = (f"kl {readable(scalars['losses/approx_kl'])} "
            f"ent {readable(scalars['losses/entropy'])} "
            f"score {scalars['charts/score']:+.1f}")
    return text + (f" | eval{evaluation}" if evaluation else "")
