"""External programs as agents: the ``cmd:PROGRAM ARGS…`` spec (protocol: docs/protocol.md).

An :class:`ExternalAgent` starts its program on the first message and talks newline-delimited
JSON over the program's stdin/stdout: the seat's public events (``observe``, no answer) and one
``act`` message per decision, answered with one line ``{"action": "<a legal action>"}``. One
program runs per agent object — in ``mjenv eval --vs cmd:…`` one per opponent seat, in the arena
one per agent and worker process — and it is kept from hand to hand.

Faults. A program that exits, does not answer within ``timeout`` seconds, writes a line that is
not such an object, or names an action that is not legal commits a *fault*: the program is
killed, the ``fallback`` agent (random, seeded like the bot) plays the seat for the rest of the
hand, and the program is started again when the next hand begins. So a hang costs at most
``timeout`` once per hand, and nothing a program does can stop or hang its driver.
``take_fault()`` tells the driver what went wrong in the hand just played (and clears it).
The program's stderr is appended to a log file in ``stderr_dir`` (``stderr_path``).

A program that never answers at all (a script that does not exist, one that exits at once) is
not a fault but a mistake in the command: ``check_programs`` asks each program one decision
before a run starts and names what went wrong, so ``mjenv eval`` and ``mjenv arena`` stop
before any play instead of reporting a random player.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
import weakref
from pathlib import Path
from typing import Iterable

import numpy as np

from agents.base import BaseAgent
from agents.random_agent import RandomAgent
from mjenv.env.actions import encode_action
from mjenv.game import public_events
from mjenv.game.view import PlayerView

PROTOCOL_VERSION = 1
DEFAULT_TIMEOUT = 5.0
#: where programs' stderr goes unless a driver says otherwise (``--bot-logs``)
DEFAULT_STDERR_DIR = Path(tempfile.gettempdir()) / "mjenv-bots"
_MAX_LINE = 1 << 20            # an answer longer than this is garbage
_numbers = itertools.count()
_running: "weakref.WeakSet[ExternalAgent]" = weakref.WeakSet()


class BotFault(Exception):
    """What an external program did wrong (the message is the fault's reason)."""


def parse_command(spec: str) -> list[str]:
    """The argv of a ``cmd:`` spec, split like a shell line; ``ValueError`` if it is empty or
    its program is neither on PATH nor an executable file."""
    try:
        argv = shlex.split(spec[4:])
    except ValueError as exc:
        raise ValueError(f"{spec!r}: cannot split the command line ({exc})") from None
    if not argv:
        raise ValueError(f"{spec!r}: write cmd:PROGRAM ARGS…, e.g. \"cmd:python3 bot.py\"")
    program = argv[0]
    if shutil.which(program) is None:
        raise ValueError(f"{spec!r}: program {program!r} not found (not on PATH, or not an "
                         f"executable file)")
    return argv


class ExternalAgent(BaseAgent):
    """An agent played by an external program (module docstring, docs/protocol.md)."""

    needs_observation = False

    def __init__(self, spec: str, seed: int | None = None, *, timeout: float = DEFAULT_TIMEOUT,
                 stderr_dir: str | os.PathLike | None = None) -> None:
        if not timeout > 0:
            raise ValueError(f"timeout must be > 0 seconds, got {timeout!r}")
        self.name = spec
        self.argv = parse_command(spec)
        self.timeout = float(timeout)
        self.stderr_dir = Path(stderr_dir) if stderr_dir is not None else DEFAULT_STDERR_DIR
        slug = re.sub(r"[^A-Za-z0-9._-]+", "_", " ".join(Path(a).name for a in self.argv))[:60]
        self.stderr_path = self.stderr_dir / f"{slug}-{os.getpid()}-{next(_numbers)}.log"
        self.fallback = RandomAgent(seed)
        self.faults = 0                    # over the agent's life
        self._seed = seed
        self._proc: subprocess.Popen | None = None
        self._buffer = b""
        self._fault: str | None = None     # this hand's fault
        self._log: list[dict] | None = None
        self._seat = 0
        self._sent = 0                     # events of self._log already passed on

    # ---- the agent protocol ----------------------------------------------------------------

    def reseed(self, seed: int | None) -> None:
        """The seed sent with the next hand (``rng_seed``) and the fallback's."""
        self._seed = seed
        self.fallback.reseed(seed)

    def observe(self, log: list[dict], seat: int) -> None:
        """Pass on the public events of ``log`` (a hand's, growing) not passed on yet; a new
        log is a new hand: its faults start afresh (and a killed program starts again)."""
        if log is not self._log:
            if self._log is not None and self._sent < len(self._log):
                self.observe(self._log, self._seat)     # the previous hand's end, if unsent
            self._log, self._seat, self._sent, self._fault = log, seat, 0, None
        if self._sent < len(log):
            new, self._sent = log[self._sent:], len(log)
            for event in public_events(new, seat):
                if event["type"] == "deal":             # whose seat, and a seed for the bot
                    event = {**event, "seat": seat, "rng_seed": self._seed}
                self._send_quietly(event)

    def act(self, observation: np.ndarray | None, mask: np.ndarray, view: PlayerView) -> int:
        if self._fault is None:
            try:
                return self._ask(view)
            except BotFault as fault:
                self._set_fault(str(fault))
        return self.fallback.act(observation, mask, view)

    def take_fault(self) -> str | None:
        """The reason of this hand's fault (``None`` if it played cleanly), cleared."""
        fault, self._fault = self._fault, None
        return fault

    def close(self) -> None:
        """End the program (stdin closed, then killed if it lingers)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        _running.discard(self)
        try:
            proc.stdin.close()
            proc.wait(timeout=0.5)
        except (OSError, subprocess.TimeoutExpired):
            _kill(proc)
        proc.stdout.close()

    def __del__(self) -> None:
        if getattr(self, "_proc", None) is not None:
            _kill(self._proc)

    # ---- messages --------------------------------------------------------------------------

    def _send_quietly(self, message: dict) -> None:
        """Send a message that needs no answer; failing to take it is a fault too."""
        if self._fault is None:
            try:
                self._send(message)
            except BotFault as fault:
                self._set_fault(str(fault))

    def _ask(self, view: PlayerView) -> int:
        data = view.to_dict()
        legal = data.pop("legal")
        if self._proc is not None:
            self._refuse_unasked()
        self._send({"type": "act", "legal": legal, "view": data})
        line = self._read_line(time.monotonic() + self.timeout)
        try:
            answer = json.loads(line)
        except ValueError:
            raise BotFault(f"answered {_clip(line)}, not a JSON object") from None
        if not isinstance(answer, dict) or not isinstance(answer.get("action"), str):
            raise BotFault(f"answered {_clip(line)}, not {{\"action\": \"<a legal action>\"}}")
        if answer["action"] not in legal:
            raise BotFault(f"answered the illegal action {answer['action']!r} "
                           f"(legal: {', '.join(legal)})")
        return encode_action(view.legal[legal.index(answer["action"])], view)

    def _send(self, message: dict) -> None:
        proc = self._process()
        data = memoryview((json.dumps(message, ensure_ascii=False, separators=(",", ":"))
                           + "\n").encode())
        fd, deadline = proc.stdin.fileno(), time.monotonic() + self.timeout
        while data:
            if proc.poll() is not None:
                raise BotFault(f"exited with code {proc.returncode}")
            _, ready, _ = select.select([], [fd], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise BotFault(f"did not read its input for {self.timeout:g} s")
            try:
                data = data[os.write(fd, data):]
            except BlockingIOError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                raise BotFault(f"exited (code {proc.wait()})") from None

    def _refuse_unasked(self) -> None:
        """Output written before this decision was asked (stdout is for answers only)."""
        fd = self._proc.stdout.fileno()
        while not self._buffer and select.select([fd], [], [], 0)[0]:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            self._buffer += chunk
        if self._buffer:
            raise BotFault(f"wrote {_clip(self._buffer.decode('utf-8', 'replace'))} before it "
                           f"was asked (standard output is for answers only)")

    def _read_line(self, deadline: float) -> str:
        proc = self._proc
        fd = proc.stdout.fileno()
        while b"\n" not in self._buffer:
            if len(self._buffer) > _MAX_LINE:
                raise BotFault(f"wrote {len(self._buffer)} bytes without a newline")
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise BotFault(f"did not answer within {self.timeout:g} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise BotFault(f"exited with code {proc.wait()} before answering")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace").strip()

    # ---- the process -----------------------------------------------------------------------

    def _process(self) -> subprocess.Popen:
        if self._proc is None:
            self.stderr_dir.mkdir(parents=True, exist_ok=True)
            with open(self.stderr_path, "ab") as err:
                try:
                    # its own session: a Ctrl-C meant for the driver does not reach it
                    self._proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE,
                                                  stdout=subprocess.PIPE, stderr=err,
                                                  start_new_session=True)
                except OSError as exc:
                    raise BotFault(f"could not start: {exc}") from None
            os.set_blocking(self._proc.stdin.fileno(), False)
            self._buffer = b""
            _running.add(self)
            self._send({"type": "hello", "protocol": PROTOCOL_VERSION, "name": self.name})
        return self._proc

    def _set_fault(self, reason: str) -> None:
        self._fault = reason
        self.faults += 1
        proc, self._proc = self._proc, None
        if proc is not None:
            _running.discard(self)
            _kill(proc)
            proc.stdin.close()
            proc.stdout.close()
        with open(self.stderr_path, "a", encoding="utf-8") as err:
            err.write(f"\n[mjenv] fault: {reason}; the fallback plays the rest of the hand, "
                      f"the program restarts with the next one\n")


def check_programs(specs: Iterable[str], timeout: float | None = None,
                   stderr_dir: str | os.PathLike | None = None) -> None:
    """``ValueError`` (one line) for the first ``cmd:`` spec among ``specs`` whose program does
    not answer a first decision legally within ``timeout``: the dealer's first turn of the hand
    dealt from seed 0, after ``hello`` and ``deal`` as in play. The program is ended after it;
    a run starts its own."""
    from mjenv.game import Hand

    for spec in dict.fromkeys(s for s in specs if s.startswith("cmd:")):
        agent = ExternalAgent(spec, 0, timeout=DEFAULT_TIMEOUT if timeout is None else timeout,
                              stderr_dir=stderr_dir)
        hand = Hand(seed=0)
        seat = hand.to_act[0]
        try:
            agent.observe(hand.log, seat)
            if agent._fault is None:
                agent._ask(hand.view(seat))
        except BotFault as fault:
            agent._set_fault(str(fault))
        reason = agent.take_fault()
        agent.close()
        if reason is not None:
            raise ValueError(f"{spec!r} failed its first decision, before any play: {reason}"
                             f"{_last_words(agent.stderr_path)}")


def _last_words(path: Path) -> str:
    """The last line the program wrote to its standard error, and where the rest is."""
    try:
        lines = [line for line in path.read_text(encoding="utf-8", errors="replace")
                 .splitlines() if line.strip() and not line.startswith("[mjenv]")]
    except OSError:
        return ""
    return f"; its standard error{f' ends {_clip(lines[-1], 100)}' if lines else ' is empty'} " \
           f"({path})"


def close_all() -> None:
    """End every external program this process started (workers call it on exit)."""
    for agent in list(_running):
        agent.close()


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)       # the program and anything it started
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


def _clip(line: str, width: int = 60) -> str:
    return repr(line if len(line) <= width else line[:width] + "…")

