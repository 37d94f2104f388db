"""Parameter files of the agents that take one (``heuristic:PATH``, ``search:PATH``): JSON
``{"params": {...}, "note": {...}}``, ``params`` holding fields of the agent's parameters
dataclass (those left out keep their defaults), ``note`` free (what a tuning measured)."""

from __future__ import annotations

import json
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any, Callable, TypeVar

T = TypeVar("T")


def known_fields(cls: type, data: dict) -> dict:
    """``data`` itself where every key names a field of the dataclass ``cls``; else a
    ``ValueError`` naming the unknown keys."""
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"unknown field(s) {', '.join(unknown)} (known: "
                         f"{', '.join(sorted(known))})")
    return data


def read_params(path: str | Path, spec: str, build: Callable[[dict], T]) -> T:
    """The parameters ``build`` makes of the ``params`` object of the file at ``path``; a
    one-line ``ValueError`` that names ``spec:path`` and what is wrong (no such file, not a
    parameter file, or what ``build`` refused)."""
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise ValueError(f"{spec}:{path}: no such parameter file") from None
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"{spec}:{path}: not a parameter file ({e})") from None
    params = data.get("params") if isinstance(data, dict) else None
    if not isinstance(params, dict):
        raise ValueError(f"{spec}:{path}: not a parameter file (no 'params' object)")
    try:
        return build(params)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{spec}:{path}: {e}") from None


def write_params(path: str | Path, params: Any, note: dict | None = None) -> None:
    """Write the dataclass ``params`` (and ``note``) as a parameter file."""
    Path(path).write_text(json.dumps({"params": asdict(params), "note": note or {}},
                                     indent=1) + "\n")
