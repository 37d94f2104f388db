"""Test sizes: quick by default, the issue's full counts when MJENV_FULL=1 (set by .ci/run)."""

import os

FULL = os.environ.get("MJENV_FULL") == "1"


def n(quick: int, full: int) -> int:
    """``quick`` in the README's test command, ``full`` in CI's full run."""
    return full if FULL else quick
