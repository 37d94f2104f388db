"""Shared test configuration.

Tests whose size depends on ``tests.scale.n`` are marked ``full`` automatically, so that
``.ci/run`` can re-run just those with the issue's full counts (``MJENV_FULL=1 pytest -m full``).
"""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tests import scale  # noqa: E402


def pytest_collection_modifyitems(config, items):
    for item in items:
        module = getattr(item, "module", None)
        if module is not None and any(v is scale.n or v is scale for v in vars(module).values()):
            item.add_marker(pytest.mark.full)
