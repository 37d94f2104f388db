"""Optional test dependencies: skipped on a developer's machine that lacks them, a failure in CI.

The README's test command installs every Python package the suite needs (the ``[train,dev,sb3]``
extras), and ``.ci/run`` also installs Debian's ``chromium`` and ``chromium-driver`` and sets
``MJENV_CI=1``. There a missing dependency must fail loudly instead of turning into a quiet skip.
"""

from __future__ import annotations

import importlib.util
import os
import shutil

import pytest

CI = os.environ.get("MJENV_CI") == "1"


def missing(reason: str) -> None:
    """Skip the calling test (or module) with ``reason``; in CI, fail with it."""
    if CI:
        pytest.fail(f"MJENV_CI=1 but {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def require_module(name: str, install: str) -> None:
    if importlib.util.find_spec(name) is None:
        missing(f"{name} is not installed ({install})")


def require_program(*names: str, install: str) -> str:
    """The path of the first of ``names`` on PATH."""
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    missing(f"none of {', '.join(names)} is on PATH ({install})")
    raise AssertionError("unreachable")
