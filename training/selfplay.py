"""Self-play rollouts: an opponent pool, batched inference over many concurrent deals, and
worker processes.

One rollout = complete deals (``mjenv.game.Hand``) until the learner has made the requested
number of decisions. Every deal draws, independently:

- the learner's seat (uniform over the four seats) and the round wind (东 or 南);
- a controller for each of the three other seats from the pool: the latest weights
  (``latest_share``, default 50 %), a frozen past snapshot (``past_share``, 30 %; falls back to
  the latest while the pool is empty) or a fixed agent (``fixed_share``, 20 %, drawn from
  ``fixed_opponents``: heuristic and random by default).

Only the learner's decisions are recorded and trained on; a "latest" opponent runs the same
weights but its decisions are not (it is part of the environment, like a frozen snapshot).

Rewards. The learner's hand score delta times ``reward_scale`` (default 1/40: a typical
10-point ron is +30 for the winner, so rewards are mostly within ±1), given on the learner's
last decision of the deal, which is also where the episode ends. Optional potential-based
shaping (Ng et al. 1999), off by default: ``Φ(s) = −shaping_coef · shanten(s)`` over the
learner's concealed tiles, added as ``γ·Φ(s') − Φ(s)`` between consecutive learner decisions
with ``Φ = 0`` after the last one, which leaves the optimal policy unchanged.

Paired baseline (``paired_baseline``, off by default). Most of a deal's score is luck: the
tiles. With the option on, every deal is also played a second time from the same seed — the
same wall, the same opponents — with the learner's seat on the latest weights acting greedily,
and the learner's terminal reward becomes its score minus that shadow score. Network-played
opponents then act greedily in both copies, so the two differ only where the learner's sampled
actions do. The shadow deal shares the deal's luck but not those actions, so subtracting it is
a baseline in the policy-gradient sense (Williams 1992; common random numbers, as in TRPO's
"vine" estimates): the gradient stays unbiased and its variance drops, for about twice the
engine work per learner step. Fixed agents that break ties at random (the heuristic) make the
copies drift apart on their own: against them the pairing gains little (docs/training.md).

Batching. Each tick gathers every pending decision of every concurrent deal, groups them by
controller (one forward pass for all seats on the latest weights, one per snapshot, one
``act_batch`` per fixed agent) and then applies the answers. Claim windows ask several seats
at once; since claims are simultaneous (RULES.md §3) every answer is chosen from the view
before any is applied.

Determinism. A rollout's randomness comes only from its ``seed`` (``[run seed, update, worker]``
in training), so resuming a run with the same ``--workers`` repeats it exactly.
"""

from __future__ import annotations

import multiprocessing as mp
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import torch

from agents.ppo import (InputBuilder, NetConfig, PolicyNet, build_net, masked_logits,
                        sample_masked)
from mjenv.rules import RuleConfig

LATEST = -1                       # controller id of the latest weights (learner or opponent)


@dataclass(frozen=True)
class RolloutSettings:
    """Everything a worker needs to play a rollout (picklable, sent once per worker)."""

    rules: RuleConfig = RuleConfig()
    num_envs: int = 16
    reward_scale: float = 1 / 40
    shaping_coef: float = 0.0
    gamma: float = 0.997
    latest_share: float = 0.5
    past_share: float = 0.3
    fixed_share: float = 0.2
    fixed_opponents: tuple[tuple[str, float], ...] = (("heuristic", 3.0), ("random", 1.0))
    paired_baseline: bool = False

    def __post_init__(self) -> None:
        shares = (self.latest_share, self.past_share, self.fixed_share)
        if min(shares) < 0 or sum(shares) <= 0:
            raise ValueError(f"opponent shares must be >= 0 with a positive sum, got {shares}")
        if self.fixed_share > 0 and not self.fixed_opponents:
            raise ValueError("fixed_share > 0 needs at least one fixed opponent")
        if self.num_envs < 1:
            raise ValueError(f"num_envs must be >= 1, got {self.num_envs}")


def parse_fixed_opponents(text: str) -> tuple[tuple[str, float], ...]:
    """``"heuristic:3,random:1"`` → ``(("heuristic", 3.0), ("random", 1.0))`` (relative weights;
    an agent spec may itself contain a colon, so the weight is the part after the last one)."""
    out = []
    for item in filter(None, (s.strip() for s in text.split(","))):
        spec, _, weight = item.rpartition(":")
        try:
            w = float(weight)
        except ValueError:
            spec, w = item, 1.0
        if w <= 0:
            raise ValueError(f"fixed opponent {item!r}: weight must be > 0")
        out.append((spec, w))
    return tuple(out)


class OpponentPool:
    """Frozen snapshots of past weights, oldest dropped first once ``size`` is reached."""

    def __init__(self, size: int) -> None:
        if size < 0:
            raise ValueError(f"pool size must be >= 0, got {size}")
        self.size = size
        self.snapshots: list[tuple[int, dict[str, torch.Tensor]]] = []

    def add(self, update: int, state_dict: dict[str, torch.Tensor]) -> None:
        if self.size == 0:
            return
        self.snapshots.append((update, {k: v.detach().cpu().clone() for k, v in state_dict.items()}))
        del self.snapshots[:-self.size]

    def state(self) -> dict[str, Any]:
        return {"size": self.size, "updates": [u for u, _ in self.snapshots],
                "weights": [w for _, w in self.snapshots]}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> "OpponentPool":
        pool = cls(int(state["size"]))
        pool.snapshots = list(zip((int(u) for u in state["updates"]), state["weights"]))
        return pool


@dataclass
class Rollout:
    """The learner's transitions, episodes contiguous and in order (``dones[t]`` marks the last
    decision of a deal), plus per-deal statistics."""

    obs: np.ndarray            # float32 (T, C, 34)
    masks: np.ndarray          # bool (T, 110)
    actions: np.ndarray        # int64 (T,)
    logprobs: np.ndarray       # float32 (T,)
    values: np.ndarray         # float32 (T,)
    rewards: np.ndarray        # float32 (T,)
    dones: np.ndarray          # float32 (T,)
    scores: np.ndarray         # float64 (deals,): the learner's raw score delta
    won: np.ndarray            # bool (deals,)
    dealt_in: np.ndarray       # bool (deals,)
    baselines: np.ndarray      # float64 (deals,): the shadow deal's score (0 without pairing)
    decisions: int = 0         # every decision of every seat (engine work done)

    def __len__(self) -> int:
        return len(self.actions)

    @staticmethod
    def concat(parts: Sequence["Rollout"]) -> "Rollout":
        names = ("obs", "masks", "actions", "logprobs", "values", "rewards", "dones", "scores",
                 "won", "dealt_in", "baselines")
        return Rollout(**{n: np.concatenate([getattr(p, n) for p in parts]) for n in names},
                       decisions=sum(p.decisions for p in parts))


@dataclass
class _Deal:
    hand: Any
    learner: int
    controllers: tuple[Any, ...]          # per seat: LATEST, snapshot index, or fixed spec
    shadow: Any = None                    # the same deal, the learner's seat greedy (paired)
    steps: list[tuple] = field(default_factory=list)
    potentials: list[float] = field(default_factory=list)


def _potential(view, coef: float) -> float:
    from mjenv.analysis import shanten_counts

    counts = [0] * 34
    for t in view.hand:
        counts[t] += 1
    return -coef * float(shanten_counts(counts, len(view.melds[view.seat])))


def sample_opponent(rng: np.random.Generator, settings: RolloutSettings,
                    n_snapshots: int) -> int | str:
    """The controller of one opponent seat, drawn with ``settings``' shares: ``LATEST`` (the
    latest weights), a snapshot index 0 … ``n_snapshots`` − 1, or a fixed agent spec of
    ``fixed_opponents`` (by weight). With no snapshot yet the past share goes to the latest
    weights. The one opponent draw of self-play, here and in the RLlib environment."""
    shares = np.array([settings.latest_share, settings.past_share if n_snapshots else 0.0,
                       settings.fixed_share], dtype=np.float64)
    if shares.sum() == 0:      # only past snapshots were asked for and the pool is still empty
        shares[0] = 1.0
    kind = rng.choice(3, p=shares / shares.sum())
    if kind == 0:
        return LATEST
    if kind == 1:
        return int(rng.integers(n_snapshots))
    weights = np.array([w for _, w in settings.fixed_opponents])
    return settings.fixed_opponents[rng.choice(len(weights), p=weights / weights.sum())][0]


@torch.no_grad()
def collect_rollout(net: PolicyNet, snapshots: Sequence[PolicyNet], settings: RolloutSettings,
                    seed: Sequence[int] | int, target_steps: int,
                    fixed_agents: dict[str, Any] | None = None) -> Rollout:
    """Play deals until the learner has made ``target_steps`` decisions (deals already running
    then finish; no new ones start), and return its transitions."""
    from agents import make_agent
    from mjenv.env.actions import decode_action, legal_mask
    from mjenv.env.observation import encode
    from mjenv.game import Hand

    rng = np.random.default_rng(seed)
    gen = torch.Generator().manual_seed(int(rng.integers(2**62)))
    device = next(net.parameters()).device
    if fixed_agents is None:
        fixed_agents = {spec: make_agent(spec, seed=int(rng.integers(2**31)))
                        for spec, _ in settings.fixed_opponents}
    nets: dict[Any, PolicyNet] = {LATEST: net, **dict(enumerate(snapshots))}
    inputs = InputBuilder(net.config)    # snapshots are copies of the learner: same input

    deals: list[_Deal | None] = [None] * settings.num_envs
    out_steps: list[tuple] = []
    rewards: list[float] = []
    dones: list[float] = []
    scores, won, dealt_in, baselines = [], [], [], []
    decisions = 0
    pending_steps = 0            # learner decisions inside deals still running

    def new_deal() -> _Deal:
        learner = int(rng.integers(4))
        controllers = tuple(LATEST if s == learner else sample_opponent(rng, settings, len(snapshots))
                            for s in range(4))
        seed, wind = int(rng.integers(2**62)), int(rng.integers(2))
        hand = Hand(settings.rules, seed=seed, dealer=0, round_wind=wind)
        shadow = (Hand(settings.rules, seed=seed, dealer=0, round_wind=wind)
                  if settings.paired_baseline else None)
        return _Deal(hand, learner, controllers, shadow)

    def over(deal: _Deal) -> bool:
        return deal.hand.over and (deal.shadow is None or deal.shadow.over)

    def finish(deal: _Deal) -> None:
        res = deal.hand.result
        delta = float(res.deltas[deal.learner])
        baseline = 0.0 if deal.shadow is None else float(deal.shadow.result.deltas[deal.learner])
        scores.append(delta)
        baselines.append(baseline)
        won.append(deal.learner in res.winners)
        dealt_in.append(res.discarder == deal.learner)
        n = len(deal.steps)
        if n == 0:                # the deal ended before the learner ever decided (天胡)
            return
        pots = deal.potentials + [0.0]
        for i, step in enumerate(deal.steps):
            r = settings.gamma * pots[i + 1] - pots[i] if settings.shaping_coef else 0.0
            if i == n - 1:
                r += (delta - baseline) * settings.reward_scale
            out_steps.append(step)
            rewards.append(r)
            dones.append(1.0 if i == n - 1 else 0.0)

    while True:
        for i, deal in enumerate(deals):
            if deal is not None and over(deal):
                pending_steps -= len(deal.steps)
                finish(deal)
                deal = deals[i] = None
            if deal is None and len(out_steps) + pending_steps < target_steps:
                deals[i] = new_deal()
        live = [d for d in deals if d is not None]
        if not live:
            break
        # Gather every pending decision, grouped by controller.
        groups: dict[Any, list[tuple]] = {}
        for deal in live:
            for hand in (deal.hand, deal.shadow):
                if hand is None:
                    continue
                for seat in hand.to_act:
                    view = hand.view(seat)
                    groups.setdefault(deal.controllers[seat], []).append(
                        (deal, hand, seat, view, encode(view), legal_mask(view)))
        answers: list[tuple] = []        # (hand, seat, view, action id, deal, record or None)
        for key in sorted(groups, key=lambda k: (isinstance(k, str), str(k))):
            items = groups[key]
            obs = np.stack([it[4] for it in items]).astype(np.float32, copy=False)
            masks = np.stack([it[5] for it in items]).astype(bool)
            if key in nets:
                obs = inputs(obs, [it[3] for it in items])
                obs_t = torch.as_tensor(obs, device=device)
                mask_t = torch.as_tensor(masks, device=device)
                logits, values = nets[key](obs_t)
                logits = masked_logits(logits, mask_t)
                acts = sample_masked(logits, gen)
                if settings.paired_baseline:   # only the learner samples (the shadow's is greedy)
                    sampled = torch.tensor([key == LATEST and hand is deal.hand and seat == deal.learner
                                            for deal, hand, seat, *_ in items], device=device)
                    acts = torch.where(sampled, acts, logits.argmax(-1))
                logps = torch.log_softmax(logits, -1).gather(1, acts[:, None]).squeeze(1)
                acts_np, logps_np, values_np = acts.cpu().numpy(), logps.cpu().numpy(), values.cpu().numpy()
                for j, (deal, hand, seat, view, _, _) in enumerate(items):
                    record = None
                    if key == LATEST and hand is deal.hand and seat == deal.learner:
                        record = (obs[j], masks[j], int(acts_np[j]), float(logps_np[j]), float(values_np[j]),
                                  _potential(view, settings.shaping_coef) if settings.shaping_coef else 0.0)
                    answers.append((hand, seat, view, int(acts_np[j]), deal, record))
            else:
                acts_np = np.asarray(fixed_agents[key].act_batch(obs, masks, [it[3] for it in items]))
                answers.extend((hand, seat, view, int(a), deal, None)
                               for (deal, hand, seat, view, _, _), a in zip(items, acts_np))
        for hand, seat, view, aid, deal, record in answers:
            if seat not in hand.to_act:   # the window closed before this seat's turn
                continue
            hand.step(seat, decode_action(aid, view))
            decisions += 1
            if record is not None:
                deal.steps.append(record[:5])
                deal.potentials.append(record[5])
                pending_steps += 1

    c = len(out_steps)
    if c == 0:
        raise RuntimeError("rollout collected no learner decision")
    return Rollout(
        obs=np.stack([s[0] for s in out_steps]).astype(np.float32),
        masks=np.stack([s[1] for s in out_steps]),
        actions=np.array([s[2] for s in out_steps], dtype=np.int64),
        logprobs=np.array([s[3] for s in out_steps], dtype=np.float32),
        values=np.array([s[4] for s in out_steps], dtype=np.float32),
        rewards=np.array(rewards, dtype=np.float32),
        dones=np.array(dones, dtype=np.float32),
        scores=np.array(scores, dtype=np.float64),
        won=np.array(won, dtype=bool),
        dealt_in=np.array(dealt_in, dtype=bool),
        baselines=np.array(baselines, dtype=np.float64),
        decisions=decisions,
    )


# --------------------------------------------------------------------------- workers


def _worker_main(conn, settings: RolloutSettings, net_config: dict) -> None:
    torch.set_num_threads(1)           # one core per worker: no oversubscription
    config = NetConfig(**net_config)
    net = build_net(config).eval()
    snapshot_nets: list[PolicyNet] = []
    snapshot_ids: list[int] = []
    while True:
        msg = conn.recv()
        if msg is None:
            return
        seed, target, state, snapshots = msg
        try:
            net.load_state_dict(state)
            ids = [u for u, _ in snapshots]
            if ids != snapshot_ids:
                snapshot_nets = [build_net(config, w).eval() for _, w in snapshots]
                snapshot_ids = ids
            conn.send(("ok", collect_rollout(net, snapshot_nets, settings, seed, target)))
        except Exception as exc:  # report to the learner instead of hanging it
            import traceback
            conn.send(("error", f"{exc!r}\n{traceback.format_exc()}"))


class RolloutWorkers:
    """``workers`` processes (``spawn``: safe with torch's thread pools), each playing
    ``settings.num_envs`` concurrent deals with its own batched inference. With
    ``workers == 1`` the rollout runs in this process (no copying, easy to debug)."""

    def __init__(self, workers: int, settings: RolloutSettings, net_config: NetConfig) -> None:
        if workers < 1:
            raise ValueError(f"workers must be >= 1, got {workers}")
        self.workers = workers
        self.settings = settings
        self.net_config = net_config
        self._conns = []
        self._procs = []
        self._local_snapshots: tuple[list[int], list[PolicyNet]] = ([], [])
        if workers > 1:
            ctx = mp.get_context("spawn")
            from dataclasses import asdict
            for _ in range(workers):
                parent, child = ctx.Pipe()
                proc = ctx.Process(target=_worker_main, args=(child, settings, asdict(net_config)),
                                   daemon=True)
                proc.start()
                self._conns.append(parent)
                self._procs.append(proc)

    def collect(self, net: PolicyNet, pool: OpponentPool, seed: int, update: int,
                target_steps: int) -> Rollout:
        """``target_steps`` learner decisions, split evenly over the workers; worker ``w`` is
        seeded with ``[seed, update, w]``."""
        per_worker = -(-target_steps // self.workers)
        if self.workers == 1:
            ids = [u for u, _ in pool.snapshots]
            if ids != self._local_snapshots[0]:
                device = next(net.parameters()).device
                self._local_snapshots = (ids, [build_net(self.net_config, w).to(device).eval()
                                               for _, w in pool.snapshots])
            was_training = net.training
            net.eval()
            try:
                return collect_rollout(net, self._local_snapshots[1], self.settings,
                                       [seed, update, 0], per_worker)
            finally:
                net.train(was_training)
        state = {k: v.detach().cpu() for k, v in net.state_dict().items()}
        for w, conn in enumerate(self._conns):
            conn.send(([seed, update, w], per_worker, state, pool.snapshots))
        parts = []
        for conn in self._conns:
            status, payload = conn.recv()
            if status != "ok":
                raise RuntimeError(f"rollout worker failed: {payload}")
            parts.append(payload)
        return Rollout.concat(parts)

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
