"""Run folders: where a trainer writes, and the rules that keep one run from destroying another.

- No ``--out``: a new numbered folder, ``runs/ppo-1``, ``runs/ppo-2``, … (one past the highest
  number there), claimed with an exclusive ``mkdir`` so two runs started together never share
  one.
- ``--out DIR`` that holds any file the trainer writes (its *run files*: for PPO ``latest.pt``,
  ``progress.csv``, ``args.json``, ``tb/``, …) is refused unless ``--resume`` (continue that run)
  or ``--force`` (start anew: the old folder is first renamed to ``DIR.old-YYYYmmdd-HHMMSS``,
  never deleted). Other files there are left alone, so a PPO run may start in the folder of the
  BC run it starts from (``--init-from runs/a/bc.pt --out runs/a``).
- ``--resume`` needs the file it resumes from, and cannot be combined with ``--force``.

``prepare_run_dir`` applies them; the trainers call it after their arguments are checked and
before they write anything.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Sequence

RUNS = Path("runs")


class RunDirError(ValueError):
    """A run folder that cannot be used as asked; the message says what to do instead."""


def prepare_run_dir(out: str, *, prefix: str, run_files: Sequence[str], resume: bool = False,
                    resume_from: str | None = None, force: bool = False) -> Path:
    """The folder this run writes to, made ready by the rules of the module docstring.

    ``prefix``: the name of numbered folders (``ppo`` → ``runs/ppo-N``). ``run_files``: names
    inside the folder that belong to a run of this trainer. ``resume_from``: the name whose
    presence makes the folder resumable (``latest.pt``).
    """
    if resume and force:
        raise RunDirError("--resume continues the run in --out and --force moves it aside: "
                          "give one of them")
    if not out:
        if resume:
            raise RunDirError("--resume needs --out: the folder of the run to continue")
        return new_numbered_dir(RUNS, prefix)
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise RunDirError(f"--out {out}: is a file, not a run folder")
    if resume:
        if resume_from is None:
            raise RunDirError("this trainer cannot resume a run")
        if not (path / resume_from).exists():
            raise RunDirError(f"--resume: {path / resume_from} does not exist (no run to "
                              f"continue in {out})")
        return path
    held = sorted(name for name in run_files if (path / name).exists())
    if held:
        if not force:
            raise RunDirError(f"--out {out} already holds a run ({', '.join(held)}): add "
                              f"--resume to continue it, --force to move it aside and start "
                              f"anew, or choose another --out")
        moved = move_aside(path)
        print(f"moved the previous run in {out} to {moved}", file=sys.stderr)
    path.mkdir(parents=True, exist_ok=True)
    return path


def move_aside(path: Path) -> Path:
    """Rename ``path`` to ``path.old-YYYYmmdd-HHMMSS`` (``-2``, ``-3`` … if that is taken)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for k in range(1, 1000):
        target = path.with_name(f"{path.name}.old-{stamp}" + (f"-{k}" if k > 1 else ""))
        if not target.exists():
            os.rename(path, target)
            return target
    raise RunDirError(f"cannot find a free name to move {path} aside")


def new_numbered_dir(parent: Path, prefix: str) -> Path:
    """Create and return ``parent/prefix-N``, N one past the highest number already there."""
    parent.mkdir(parents=True, exist_ok=True)
    taken = [int(p.name[len(prefix) + 1:]) for p in parent.glob(f"{prefix}-*")
             if p.name[len(prefix) + 1:].isdigit()]
    number = max(taken, default=0) + 1
    while True:
        path = parent / f"{prefix}-{number}"
        try:
            path.mkdir()
        except FileExistsError:          # another run claimed it first
            number += 1
            continue
        print(f"run folder: {path}", file=sys.stderr)
        return path
