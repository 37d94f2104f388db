"""Duplicate play: what the 1-vs-3 evaluation (``training.evaluate``) and the league
(``training.arena``) share — seeds, seating, playing one rotation of a deal, game logs, faults
of external programs, and running groups of deals over worker processes.

A *group* is one deal (or, for the evaluation's match mode, one match) played in four
*rotations* on the same wall, each agent taking every seat once. Deal ``i`` is the wall
shuffled from ``deal_seed(seed, i)``, played as one hand with seat 0 dealing in the East round;
the agent in seat ``s`` is reseeded from ``agent_seed(seed, i, s)`` before it plays, in every
rotation. Results are therefore a function of ``(seed, i)`` alone: processes only split the
list of groups, and results come back in group order.

Common random numbers. A seat's seed belongs to the seat, not to the agent sitting there: the
four rotations of a deal share the wall *and* each seat's random numbers (tie-breaks, sampled
actions). Every rotation is still a fair draw of its own (its seeds are as random as before),
so no expectation changes; what changes is that agents playing alike play the same game. Four
copies of one agent play one game four times, and the candidate reads exactly 0 — the
harness's symmetry is an identity, tested, not a statistical claim. An agent that differs from
its opponents only now and then (a search over the opponents' own policy) sees its deals differ
only where it deviates, which is most of the variance of its score gone.

Hands are played by ``mjenv.env.play.play``, the one loop of the package.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from mjenv.rules import RuleConfig


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run: ``report`` holds what was played before it (a valid, partial
    report: fewer groups done than asked)."""

    def __init__(self, report: dict) -> None:
        super().__init__("interrupted")
        self.report = report


def deal_seed(seed: int, index: int) -> int:
    """The wall (deal mode) or match (match mode) seed of group ``index``."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)[0])


def agent_seed(seed: int, index: int, seat: int) -> int:
    """The seed of whichever agent sits in ``seat`` of group ``index``, in every rotation
    (common random numbers: see the module docstring)."""
    return int(np.random.SeedSequence([seed, index, seat, 2]).generate_state(
        1, np.uint64)[0])


def reseed(agents: Sequence, seed: int, index: int) -> None:
    """Reseed the agents in the seats of group ``index`` (those that have ``reseed``)."""
    for s, agent in enumerate(agents):
        fn = getattr(agent, "reseed", None)
        if fn is not None:
            fn(agent_seed(seed, index, s))


def play_rotation(agents: Sequence, rules: RuleConfig, seed: int, index: int,
                  play_one: Callable[[Any], Any], *, match: bool = False,
                  log: tuple[Any, str] | None = None) -> tuple[list, Any]:
    """Play one rotation of group ``index`` with ``agents[seat]`` in each seat:
    ``play_one(hand)`` plays each hand (one, or a match's in turn) and its results are
    returned with the finished ``Hand`` or ``Match``; ``log``: a ``mjenv.game.LogFolder`` and
    the name its event log is saved under (what ``mjenv replay`` verifies)."""
    from mjenv.game import Hand, Match
    reseed(agents, seed, index)
    if match:
        game = Match(rules, seed=deal_seed(seed, index))
        played = [play_one(game.hand)]
        while not game.over:
            played.append(play_one(game.next_hand()))
    else:
        game = Hand(rules, seed=deal_seed(seed, index))
        played = [play_one(game)]
    if log is not None:
        folder, name = log
        folder.save(name, game.log)
    return played, game


def hand_faults(agents: Sequence) -> tuple[tuple[int, str, str], ...]:
    """``(seat, agent, reason)`` for each agent that had a fault in the hand just played
    (external programs: ``agents.external``), cleared for the next hand."""
    out = []
    for seat, agent in enumerate(agents):
        take = getattr(agent, "take_fault", None)
        reason = take() if take is not None else None
        if reason is not None:
            out.append((seat, str(getattr(agent, "name", agent)), reason))
    return tuple(out)


def check_output_dir(path: str | None, what: str) -> Path | None:
    """``path`` made a directory now (parents included), so that a bad one is one error line
    before any work: ``ValueError`` naming ``what`` when it cannot be."""
    if path is None:
        return None
    p = Path(path)
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"{what} {path}: cannot create the directory "
                         f"({exc.strerror or exc})") from None
    return p


def check_output_file(path: str | None, what: str) -> None:
    """``ValueError`` unless ``path``'s directory exists (a report written at the end must not
    fail after the work)."""
    if path is None:
        return
    parent = Path(path).resolve().parent
    if Path(path).is_dir():
        raise ValueError(f"{what} {path}: is a directory, give a file name")
    if not parent.is_dir():
        raise ValueError(f"{what} {path}: directory {parent} does not exist")


# ---- running groups ------------------------------------------------------------------------

@contextlib.contextmanager
def _term_as_interrupt() -> Iterator[None]:
    """Within: SIGTERM raises ``KeyboardInterrupt`` (in the main thread, where handlers live),
    so ``kill`` keeps what was played as Ctrl-C does."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(*_) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


# Per-process state of a worker: what its initializer built (agents are built once and
# reseeded per hand).
WORKER: dict = {}


def _start_worker(init: Callable, args: tuple) -> None:
    from agents.external import close_all
    # pool.terminate() sends SIGTERM: end the external programs this worker started, then
    # the worker. Not with a Python handler: it runs in the main thread once that thread
    # wakes, and a signal the kernel hands to another thread (torch's pool) left a main
    # thread asleep on the task queue and terminate() waiting on it for good. SIGTERM is
    # blocked in every thread instead (threads inherit the mask) and one thread waits for it.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})

    def on_term() -> None:
        signal.sigwait({signal.SIGTERM})
        close_all()
        os._exit(1)

    threading.Thread(target=on_term, name="sigterm", daemon=True).start()
    multiprocessing.util.Finalize(None, close_all, exitpriority=10)
    init(*args)


def run_groups(tasks: Sequence, fn: Callable[[Any], Any], init: Callable, init_args: tuple,
               workers: int = 1) -> Iterator:
    """``fn(task)`` for each task, yielded in task order, after ``init(*init_args)`` has set up
    each process (``WORKER``). With ``workers`` > 1 a pool of processes runs them; the workers
    ignore SIGINT, so a Ctrl-C reaches only this process: it raises ``KeyboardInterrupt`` here
    and the pool is ended (close the generator to end it when you stop early). A SIGTERM
    (``kill``) stops it the same way."""
    from agents.external import close_all
    with _term_as_interrupt():
        if workers <= 1:
            init(*init_args)
            try:
                for task in tasks:
                    yield fn(task)
            finally:
                close_all()
            return
        yield from _pooled(tasks, fn, init, init_args, workers)


def _pooled(tasks: Sequence, fn: Callable[[Any], Any], init: Callable, init_args: tuple,
            workers: int) -> Iterator:
    # A forked child of a process whose torch thread pool has started (a PPO agent was loaded
    # above) can hang in its first parallel op: start fresh interpreters then.
    context = multiprocessing.get_context("spawn" if "torch" in sys.modules else None)
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)    # inherited by the workers
        try:
            pool = context.Pool(workers, initializer=_start_worker, initargs=(init, init_args))
        finally:
            signal.signal(signal.SIGINT, previous)
    else:
        pool = context.Pool(workers, initializer=_start_worker, initargs=(init, init_args))
    try:
        yield from pool.imap(fn, tasks, chunksize=1)
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.close()
        pool.join()
