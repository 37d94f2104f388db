"""Start a command the way a terminal would, for the Ctrl-C tests.

A shell without job control starts background commands with SIGINT ignored, and children
inherit that: a test run launched with ``cmd &`` (or ``nohup``) would send its Ctrl-C into the
void and read the command's normal exit as a failure. The child gets SIGINT's default
disposition back before it starts, so Python installs its own handler as under a terminal.
"""

from __future__ import annotations

import os
import signal
import subprocess


def start(cmd: list[str], **kwargs) -> subprocess.Popen:
    """``Popen`` in a process group of its own (``interrupt`` signals the whole group, as a
    terminal does), SIGINT at its default, text pipes for stdout and stderr."""
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
                            **kwargs)


def interrupt(proc: subprocess.Popen) -> None:
    """Ctrl-C: SIGINT to the command and every process it started."""
    os.killpg(proc.pid, signal.SIGINT)
