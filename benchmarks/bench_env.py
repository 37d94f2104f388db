"""Environment throughput under random legal play, beside the compiled peers in one run.

Every decision of ours builds what a learner pays for: the observation planes and the action
mask (``gym.make("mjenv/Mahjong-v0")``, the PettingZoo AEC env, and
``gym.make("mjenv/MahjongSingle-v0", opponents="random")``, whose opponents' decisions count
too). The peers, each when installed (``pip install -e ".[bench]"``), are played the same way:

- RiichiEnv (Rust core via pyo3): ``obs.encode()`` (74×34 float32) and ``obs.mask()`` on
  every decision, a random legal id picked from the mask and found with ``obs.find_action``;
- pymahjong (C++ core): ``get_obs`` (93×34) and ``get_valid_actions`` on every decision;
- RLCard's ``mahjong`` through ``env.run`` with its ``RandomAgent``.

Each runner plays whole episodes for ``--seconds`` of this process's CPU time; the runners
alternate repeat by repeat (the machine drifts, so ratios come from one run) in a process
pinned to one core, and the table gives medians over ``--repeats``. ``dec/CPU-s`` is the fair
one-core rate on a shared machine.

``--layers`` times a Mahjong-v0 decision layer by layer (the engine alone, then the view, the
mask, the planes, the whole env), the differences being what each part costs.

The vector section steps ``--num-envs`` single-agent envs with ``--vector-opponents`` (random
by default; ``ppo:pretrained`` shows the batching of a network's decisions) and a random
learner, through ``gym.make_vec(..., vectorization_mode="vector_entry_point")`` (our native
vector env) and through Gymnasium's ``SyncVectorEnv`` over the same id, and compares learner
steps per CPU-second.

    python benchmarks/bench_env.py --seconds 2 --repeats 5 --layers
    python benchmarks/bench_env.py --seconds 0.2 --repeats 1 --no-peers --num-envs 2

The rules differ: ours scores every win by the full yaku table and asks only seats with a
legal claim; RiichiEnv and pymahjong play riichi (one hand: ``4p-red-single``, pymahjong's
default hand); RLCard's game ends at any complete shape without scoring.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from importlib.util import find_spec
from typing import Callable, NamedTuple

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Rate(NamedTuple):
    """One repeat of one runner: decisions and episodes per CPU-second and per wall second."""

    decisions_cpu: float
    episodes_cpu: float
    decisions_wall: float
    per_episode: float


class Budget:
    """A runner's CPU-time budget and its counters; ``rate()`` once it is spent."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.decisions = 0
        self.episodes = 0
        self.wall = time.perf_counter()
        self.cpu = time.process_time()

    def left(self) -> bool:
        return time.process_time() - self.cpu < self.seconds

    def rate(self) -> Rate:
        cpu = time.process_time() - self.cpu
        wall = time.perf_counter() - self.wall
        return Rate(self.decisions / cpu, self.episodes / cpu, self.decisions / wall,
                    self.decisions / max(self.episodes, 1))


def run_gym(seconds: float, seed: int) -> Rate:
    """``gym.make("mjenv/Mahjong-v0")``: four seats, every decision a step."""
    import gymnasium as gym

    import mjenv  # noqa: F401  (registers the ids)

    env = gym.make("mjenv/Mahjong-v0")
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    b = Budget(seconds)
    while b.left():
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, terminated, _, _ = env.step(int(legal[rng.integers(legal.size)]))
        b.decisions += 1
        if terminated:
            b.episodes += 1
            obs, _ = env.reset()
    return b.rate()


def run_aec(seconds: float, seed: int) -> Rate:
    """The same through PettingZoo's AEC API (``agent_iter``/``last``/``step``)."""
    import mjenv.pettingzoo

    env = mjenv.pettingzoo.env()
    rng = np.random.default_rng(seed)
    b = Budget(seconds)
    while b.left():
        env.reset(seed=seed + b.episodes)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(legal.size)]))
            b.decisions += 1
        b.episodes += 1
    return b.rate()


def run_single(seconds: float, seed: int) -> Rate:
    """``gym.make("mjenv/MahjongSingle-v0", opponents="random")``: decisions of all four
    seats (the opponents' are played inside ``step``), counted from the hand's log."""
    import gymnasium as gym

    import mjenv  # noqa: F401

    env = gym.make("mjenv/MahjongSingle-v0", opponents="random")
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    b = Budget(seconds)
    while b.left():
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, _, info = env.step(int(legal[rng.integers(legal.size)]))
        if terminated:
            b.episodes += 1
            b.decisions += sum(e["type"] == "decide" for e in env.unwrapped.table.hand.log)
            _, info = env.reset()
    return b.rate()


def run_riichienv(seconds: float, seed: int) -> Rate:
    """RiichiEnv, one hand per episode, encoded and masked on every decision."""
    from riichienv import RiichiEnv

    rng = np.random.default_rng(seed)
    b = Budget(seconds)
    while b.left():
        env = RiichiEnv(game_mode="4p-red-single", seed=seed * 1_000_003 + b.episodes)
        obs_dict = env.reset()
        while not env.done():
            actions = {}
            for pid, obs in obs_dict.items():
                np.frombuffer(obs.encode(), dtype=np.float32)
                legal = np.flatnonzero(np.frombuffer(obs.mask(), dtype=np.uint8))
                actions[pid] = obs.find_action(int(legal[rng.integers(legal.size)]))
                b.decisions += 1
            obs_dict = env.step(actions)
        b.episodes += 1
    return b.rate()


def run_pymahjong(seconds: float, seed: int) -> Rate:
    """pymahjong's multi-agent ``MahjongEnv``, observed on every decision."""
    import pymahjong

    env = pymahjong.MahjongEnv()
    rng = np.random.default_rng(seed)
    b = Budget(seconds)
    while b.left():
        env.reset()
        while not env.is_over():
            pid = env.get_curr_player_id()
            env.get_obs(pid)
            legal = env.get_valid_actions()
            env.step(pid, int(legal[rng.integers(len(legal))]))
            b.decisions += 1
        b.episodes += 1
    return b.rate()


def run_rlcard(seconds: float, seed: int) -> Rate:
    """``rlcard.make("mahjong")`` with its RandomAgents, through ``env.run``."""
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("mahjong", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    b = Budget(seconds)
    while b.left():
        trajectories, _ = env.run(is_training=False)
        b.decisions += sum((len(t) - 1) // 2 for t in trajectories)   # [s0, a0, …, sN]
        b.episodes += 1
    return b.rate()


def run_vector(mode: str, num_envs: int, opponents: str, seconds: float, seed: int) -> float:
    """Learner steps per CPU-second of ``gym.make_vec("mjenv/MahjongSingle-v0", num_envs,
    opponents=opponents)`` in ``mode`` ("vector_entry_point": ours; "sync": Gymnasium's
    SyncVectorEnv over the same id), a random learner picking from ``info["action_mask"]``."""
    import gymnasium as gym

    import mjenv  # noqa: F401

    env = gym.make_vec("mjenv/MahjongSingle-v0", num_envs=num_envs, vectorization_mode=mode,
                       opponents=opponents)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    b = Budget(seconds)
    while b.left():
        actions = np.zeros(num_envs, dtype=np.int64)
        for i, mask in enumerate(info["action_mask"]):
            legal = np.flatnonzero(mask)
            if legal.size:                      # all zero: the step that resets the table
                actions[i] = legal[rng.integers(legal.size)]
        _, _, _, _, info = env.step(actions)
        b.decisions += num_envs
    env.close()
    return b.rate().decisions_cpu


def vector_table(args: argparse.Namespace) -> None:
    """Native vector env against SyncVectorEnv over the same id, alternating repeats."""
    runs: dict[str, list[float]] = {"vector_entry_point": [], "sync": []}
    for k in range(args.repeats):
        for mode in runs:
            runs[mode].append(run_vector(mode, args.num_envs, args.vector_opponents,
                                         args.seconds, args.seed + k))
    native, sync = (statistics.median(runs[m]) for m in ("vector_entry_point", "sync"))
    print(f"\nMahjongSingle-v0, {args.num_envs} envs, opponents {args.vector_opponents!r}: "
          f"learner steps/CPU-s")
    print(f"{'native vector env (vector_entry_point)':<44}{native:>10,.0f}")
    print(f"{'gymnasium SyncVectorEnv':<44}{sync:>10,.0f}")
    print(f"native ÷ SyncVectorEnv: {native / sync:.2f}")


LAYERS = ("engine", "+ view", "+ mask", "+ observation", 'gym.make("Mahjong-v0")')


def run_layer(layer: int, seconds: float, seed: int) -> float:
    """Decisions/CPU-s of random play through the first ``layer`` + 1 of :data:`LAYERS`: the
    engine alone (a random legal action), then each seat's ``PlayerView``, its mask (the
    random id drawn from it, as in the env rows), its planes (``Encoder`` per seat, copied),
    and finally the whole env. Differences between layers are what each part costs."""
    if layer == len(LAYERS) - 1:
        return run_gym(seconds, seed).decisions_cpu
    from mjenv.env.actions import legal_ids, mask_of
    from mjenv.env.observation import Encoder
    from mjenv.game import Hand

    rng = np.random.default_rng(seed)
    encoders = [Encoder() for _ in range(4)]
    b = Budget(seconds)
    while b.left():
        hand = Hand(seed=seed * 1_000_003 + b.episodes)
        while not hand.over:
            seat = hand.to_act[0]
            if layer == 0:
                legal = hand.legal_actions(seat)
                action = legal[rng.integers(len(legal))]
            else:
                view = hand.view(seat)
                action = view.legal[rng.integers(len(view.legal))]
                if layer >= 2:
                    ids = legal_ids(view)
                    legal_id = np.flatnonzero(mask_of(ids))
                    action = view.legal[ids.index(int(legal_id[rng.integers(legal_id.size)]))]
                if layer >= 3:
                    encoders[seat].encode(view).copy()
            hand.step(seat, action)
            b.decisions += 1
        b.episodes += 1
    return b.rate().decisions_cpu


def layer_table(args: argparse.Namespace) -> None:
    """µs per decision of each layer (medians of alternating repeats) and their differences."""
    runs: list[list[float]] = [[] for _ in LAYERS]
    for k in range(args.repeats):
        for layer in range(len(LAYERS)):
            runs[layer].append(run_layer(layer, args.seconds, args.seed + k))
    print("\nwhere a Mahjong-v0 decision goes (µs per decision, CPU; medians)")
    previous = 0.0
    for name, rates in zip(LAYERS, runs):
        us = 1e6 / statistics.median(rates)
        print(f"{name:<26}{us:>8.1f}  {us - previous:+8.1f}")
        previous = us


class Runner(NamedTuple):
    label: str
    run: Callable[[float, int], Rate]
    module: str | None          # the optional package it needs


RUNNERS = (
    Runner('mjenv gym.make("Mahjong-v0")', run_gym, None),
    Runner("mjenv PettingZoo AEC", run_aec, None),
    Runner('mjenv "MahjongSingle-v0" random', run_single, None),
    Runner("RiichiEnv (Rust)", run_riichienv, "riichienv"),
    Runner("pymahjong (C++)", run_pymahjong, "pymahjong"),
    Runner("RLCard mahjong", run_rlcard, "rlcard"),
)
PEERS = ("RiichiEnv (Rust)", "pymahjong (C++)")


def _version(module: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(module)
    except PackageNotFoundError:
        return "?"


def single_table(runners: list[Runner], args: argparse.Namespace) -> dict[str, float]:
    """Run the single-env rows, print their table, return median decisions/CPU-s by label."""
    runs: dict[str, list[Rate]] = {r.label: [] for r in runners}
    for k in range(args.repeats):
        for r in runners:
            runs[r.label].append(r.run(args.seconds, args.seed + 1000 * k))
    print(f"{args.repeats} repeats of {args.seconds:g} CPU-s per env, one core; medians")
    print(f"{'env':<34}{'dec/CPU-s':>11}{'µs/dec':>8}{'dec/s':>9}{'dec/ep':>8}"
          f"{'ep/CPU-s':>10}")
    med: dict[str, float] = {}
    for r in runners:
        rates = runs[r.label]
        d = statistics.median(x.decisions_cpu for x in rates)
        med[r.label] = d
        label = r.label + (f" {_version(r.module)}" if r.module else "")
        print(f"{label:<34}{d:>11,.0f}{1e6 / d:>8.1f}"
              f"{statistics.median(x.decisions_wall for x in rates):>9,.0f}"
              f"{statistics.median(x.per_episode for x in rates):>8.1f}"
              f"{statistics.median(x.episodes_cpu for x in rates):>10.1f}")
    ours = med[RUNNERS[0].label]
    for peer in PEERS:
        if peer in med:
            print(f"Mahjong-v0 ÷ {peer}: {ours / med[peer]:.2f} per decision (CPU)")
    return med


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU-s per runner per repeat")
    parser.add_argument("--repeats", type=int, default=5, help="alternating repeats (median)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-peers", action="store_true",
                        help="skip RiichiEnv, pymahjong and RLCard")
    parser.add_argument("--num-envs", type=int, default=16, help="tables in the vector runs")
    parser.add_argument("--no-vector", action="store_true", help="skip the vector env runs")
    parser.add_argument("--vector-opponents", default="random",
                        help="opponent spec of the vector runs (ppo:pretrained: a network)")
    parser.add_argument("--layers", action="store_true",
                        help="also time Mahjong-v0 layer by layer (engine, view, mask, planes)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to one CPU core")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1 or args.num_envs < 1:
        parser.error("--seconds must be > 0, --repeats and --num-envs >= 1")
    if not args.no_pin and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    runners = []
    for r in RUNNERS:
        if r.module is None:
            runners.append(r)
        elif args.no_peers:
            continue
        elif find_spec(r.module) is None:
            print(f"{r.label}: not installed (pip install -e \".[bench]\"), skipped")
        else:
            runners.append(r)
    single_table(runners, args)
    if not args.no_vector:
        vector_table(args)
    if args.layers:
        layer_table(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
