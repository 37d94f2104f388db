"""Rollout workers: self-play rollouts (``training.selfplay``) played in worker processes, so
that the learner can update its network while the next rollout plays.

A rollout is split evenly over the workers; worker ``w`` of rollout ``update`` is seeded with
``[run seed, update, w]``, so a rollout depends only on the weights, the pool and those numbers
(``--resume`` with the same ``--workers`` repeats it).
"""

from __future__ import annotations

import multiprocessing as mp
import time
import traceback
from dataclasses import asdict
from typing import Any, NamedTuple

import torch

from agents.network import NetConfig, PolicyNet, Weights, build_net, cpu_weights
from training.selfplay import OpponentPool, Rollout, RolloutSettings, collect_rollout


class Job(NamedTuple):
    """One worker's share of a rollout."""

    seed: list[int]                       # [run seed, update, worker]
    target: int                           # learner decisions to collect
    weights: Weights                      # the latest weights, as submitted
    snapshots: list[tuple[int, Weights]]  # the pool's (update, weights)


def _collect(net: PolicyNet, cache: dict[str, Any], settings: RolloutSettings,
             job: Job) -> Rollout:
    """Play ``job`` with ``net`` (loaded with its weights) and snapshot networks rebuilt only
    when the pool changed (``cache``)."""
    net.load_state_dict(job.weights)
    ids = [u for u, _ in job.snapshots]
    if ids != cache.get("ids"):
        device = next(net.parameters()).device
        cache["nets"] = [build_net(net.config, w).to(device).eval() for _, w in job.snapshots]
        cache["ids"] = ids
    t0 = time.perf_counter()
    rollout = collect_rollout(net, cache["nets"], settings, job.seed, job.target)
    rollout.seconds = time.perf_counter() - t0
    return rollout


def _worker_main(conn, settings: RolloutSettings, net_config: dict) -> None:
    torch.set_num_threads(1)           # one core per worker: no oversubscription
    net = build_net(NetConfig(**net_config)).eval()
    cache: dict[str, Any] = {}
    try:
        while True:
            job = conn.recv()
            if job is None:
                return
            try:
                conn.send(("ok", _collect(net, cache, settings, job)))
            except Exception as exc:  # report to the learner instead of hanging it
                conn.send(("error", f"{exc!r}\n{traceback.format_exc()}"))
    except (BrokenPipeError, ConnectionResetError, EOFError):
        return          # the learner is gone (stopped or killed): no one to report to


class RolloutWorkers:
    """``workers`` processes (``spawn``: safe with torch's thread pools), each playing
    ``settings.num_envs`` concurrent deals with its own batched inference.

    A rollout is asked for with :meth:`submit` and taken with :meth:`result`, so the learner
    can update its network while the workers play (``background``). Without ``background``
    and with one worker, the rollout runs in this process when :meth:`result` is called (no
    copying, easy to debug). A job carries copies of the weights, so what the learner does to
    its network after :meth:`submit` does not reach the rollout."""

    def __init__(self, workers: int, settings: RolloutSettings, net_config: NetConfig,
                 background: bool = False) -> None:
        if workers < 1:
            raise ValueError(f"workers must be >= 1, got {workers}")
        self.workers = workers
        self.settings = settings
        self.net_config = net_config
        self._conns = []
        self._procs = []
        self._local: tuple[PolicyNet, dict[str, Any]] | None = None
        self._pending: list[Job] | None = None
        if workers > 1 or background:
            ctx = mp.get_context("spawn")
            for _ in range(workers):
                parent, child = ctx.Pipe()
                proc = ctx.Process(target=_worker_main, args=(child, settings, asdict(net_config)),
                                   daemon=True)
                proc.start()
                self._conns.append(parent)
                self._procs.append(proc)

    def submit(self, weights: Weights, pool: OpponentPool, seed: int, update: int,
               target_steps: int) -> None:
        """Start a rollout of ``target_steps`` learner decisions with ``weights``, split evenly
        over the workers; worker ``w`` is seeded with ``[seed, update, w]``."""
        if self._pending is not None:
            raise RuntimeError("a rollout is already running: take its result first")
        per_worker = -(-target_steps // self.workers)
        state = cpu_weights(weights)
        jobs = [Job([seed, update, w], per_worker, state, pool.snapshots)
                for w in range(self.workers)]
        for conn, job in zip(self._conns, jobs):
            conn.send(job)
        self._pending = jobs

    def result(self) -> Rollout:
        """The rollout last submitted (waits for it)."""
        jobs, self._pending = self._pending, None
        if jobs is None:
            raise RuntimeError("no rollout was submitted")
        if not self._conns:
            if self._local is None:
                self._local = (build_net(self.net_config).eval(), {})
            return _collect(*self._local, self.settings, jobs[0])
        parts = []
        for conn in self._conns:
            status, payload = conn.recv()
            if status != "ok":
                raise RuntimeError(f"rollout worker failed: {payload}")
            parts.append(payload)
        return Rollout.concat(parts)

    def collect(self, weights: Weights, pool: OpponentPool, seed: int, update: int,
                target_steps: int) -> Rollout:
        """:meth:`submit`, then :meth:`result`."""
        self.submit(weights, pool, seed, update, target_steps)
        return self.result()

    def close(self) -> None:
        for conn in self._conns:
            try:
                conn.send(None)
            except (BrokenPipeError, OSError):
                pass
        for proc in self._procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
        self._conns, self._procs = [], []

    def __enter__(self) -> "RolloutWorkers":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
