"""Self-play rollouts: an opponent pool, batched inference over many concurrent deals, and
worker processes.

One rollout = complete deals (``mjenv.game.Hand``) until the learner has made the requested
number of decisions. Every deal draws, independently:

- the learner's seat (uniform over the four seats) and the round wind (东 or 南);
- a controller for each of the three other seats from the pool: the latest weights
  (``latest_share``, default 50 %), a frozen past snapshot (``past_share``, 30 %; falls back to
  the latest while the pool is empty) or a fixed agent (``fixed_share``, 20 %, drawn from
  ``fixed_opponents``: heuristic and random by default).

Every seat played by the latest weights is trained on (``train_latest_seats``, default on):
each is its own episode with its own reward, so a deal of self-play yields up to four
trajectories for the engine work of one. With the option off only the learner's seat is
recorded and a "latest" opponent is part of the environment, like a frozen snapshot. The
per-episode statistics mark the learner's own episodes (``primary``): the curves of
``charts/score`` read those, the score against a field, not against itself.

Fixed agents are seeded per (deal, seat): each concurrent deal has its own instances, reseeded
from the deal's seed and the seat when the deal starts, so a deal's opponents act alike in any
rollout that plays it (and in its paired shadow) however deals interleave.

Rewards. The learner's hand score delta times ``reward_scale`` (default 1/40: a typical
10-point ron is +30 for the winner, so rewards are mostly within ±1), given on the learner's
last decision of the deal, which is also where the episode ends. Optional potential-based
shaping (Ng et al. 1999), off by default: ``Φ(s) = −shaping_coef · shanten(s)`` over the
learner's concealed tiles, added as ``γ·Φ(s') − Φ(s)`` between consecutive learner decisions
with ``Φ = 0`` after the last one, which leaves the optimal policy unchanged.

Paired baseline (``paired_baseline``, off by default). Most of a deal's score is luck: the
tiles. With the option on, every deal is also played a second time from the same seed — the
same wall, the same opponents, seeded alike — with every network-played seat acting greedily,
and each trained seat's terminal reward becomes its score minus its shadow score. Seats that are
not trained act greedily in both copies, so the two differ only where the trained seats' sampled
actions do. The shadow deal shares the deal's luck but not those actions, so subtracting it is
a baseline in the policy-gradient sense (Williams 1992; common random numbers, as in TRPO's
"vine" estimates): the gradient stays unbiased and its variance drops, for about twice the
engine work per learner step. Fixed agents act alike in both copies (seeded per deal and seat)
until the trained seats' actions make the deals differ.

Oracle critic. With a network whose value reads the oracle planes (``NetConfig.oracle``,
``mjenv.env.oracle``: every concealed hand and the wall), each recorded decision also stores its
seat's oracle planes (``Rollout.oracle``) and records the oracle critic's value. Values and
oracle planes are computed only for recorded decisions: snapshots, fixed agents, shadow deals
and untrained seats only need the policy.

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
    train_latest_seats: bool = True

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


def half_weights(state_dict: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """A copy of ``state_dict`` with its floating-point tensors in float16 (half the bytes of a
    checkpoint's stored policies; ``load_state_dict`` brings them back to float32)."""
    return {k: v.detach().cpu().to(torch.float16) if v.is_floating_point()
            else v.detach().cpu().clone() for k, v in state_dict.items()}


class OpponentPool:
    """Frozen snapshots of past weights, oldest dropped first once ``size`` is reached. The
    floating-point weights are kept in float16: the pool is most of a run's checkpoint, and an
    opponent plays the same with its weights rounded (they are loaded back into float32)."""

    def __init__(self, size: int) -> None:
        if size < 0:
            raise ValueError(f"pool size must be >= 0, got {size}")
        self.size = size
        self.snapshots: list[tuple[int, dict[str, torch.Tensor]]] = []

    def add(self, update: int, state_dict: dict[str, torch.Tensor]) -> None:
        if self.size == 0:
            return
        self.snapshots.append((update, half_weights(state_dict)))
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
    """The trained seats' transitions, episodes contiguous and in order (``dones[t]`` marks the
    last decision of a seat's deal), plus per-episode statistics: one entry per trained seat of
    each deal (a seat that never decided — 天胡 — has an entry but no transitions), in the
    order of the episodes."""

    obs: np.ndarray            # float32 (T, C, 34)
    oracle: np.ndarray         # float32 (T, K, 34): the oracle critic's planes (K = 0 without)
    masks: np.ndarray          # bool (T, 110)
    actions: np.ndarray        # int64 (T,)
    logprobs: np.ndarray       # float32 (T,)
    values: np.ndarray         # float32 (T,)
    rewards: np.ndarray        # float32 (T,)
    dones: np.ndarray          # float32 (T,)
    scores: np.ndarray         # float64 (E,): the seat's raw score delta
    won: np.ndarray            # bool (E,)
    dealt_in: np.ndarray       # bool (E,)
    baselines: np.ndarray      # float64 (E,): the shadow deal's score (0 without pairing)
    primary: np.ndarray        # bool (E,): the learner's own seat (the others: latest weights)
    decisions: int = 0         # every decision of every seat (engine work done)
    seconds: float = 0.0       # wall time of the play (the slowest worker's, once concatenated)

    def __len__(self) -> int:
        return len(self.actions)

    @staticmethod
    def concat(parts: Sequence["Rollout"]) -> "Rollout":
        names = ("obs", "oracle", "masks", "actions", "logprobs", "values", "rewards", "dones", "scores",
                 "won", "dealt_in", "baselines", "primary")
        return Rollout(**{n: np.concatenate([getattr(p, n) for p in parts]) for n in names},
                       decisions=sum(p.decisions for p in parts),
                       seconds=max(p.seconds for p in parts))


@dataclass
class _Deal:
    hand: Any
    learner: int
    trained: tuple[int, ...]              # the seats whose decisions are recorded
    controllers: tuple[Any, ...]          # per seat: LATEST, snapshot index, or fixed spec
    agents: tuple[dict[int, Any], ...]    # per copy (deal, shadow): seat -> fixed agent
    shadow: Any = None                    # the same deal, network seats greedy (paired)
    steps: dict[int, list[tuple]] = field(default_factory=dict)
    potentials: dict[int, list[float]] = field(default_factory=dict)


def potential(view, coef: float) -> float:
    """The shaping potential Φ of a seat's decision: −coef · the shanten of its concealed
    tiles (the one definition, here and in the RLlib environment)."""
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


def opponent_seed(deal_seed: int, seat: int) -> int:
    """The seed of the fixed agent in ``seat`` of the deal dealt from ``deal_seed``."""
    return int(np.random.SeedSequence([deal_seed, seat, 0xA6E]).generate_state(
        1, np.uint64)[0])


class FixedAgents:
    """Instances of the fixed agents, one per (concurrent deal, copy, seat, spec): each deal's
    opponents keep their own random state, reseeded when the deal starts, so what they do
    depends only on the deal. An agent that says its choices need no seed
    (``stochastic = False``: a greedy network) is one instance for all deals, so its
    decisions batch together."""

    def __init__(self) -> None:
        self._shared: dict[str, Any] = {}
        self._made: dict[tuple, Any] = {}

    def get(self, spec: str, slot: int, copy: int, seat: int, seed: int) -> Any:
        from agents import make_agent

        shared = self._shared.get(spec)
        if shared is None:
            shared = self._shared[spec] = make_agent(spec)
        if not getattr(shared, "stochastic", True):
            return shared
        agent = self._made.get((spec, slot, copy, seat))
        if agent is None:
            agent = self._made[(spec, slot, copy, seat)] = make_agent(spec)
        reseed = getattr(agent, "reseed", None)
        if reseed is not None:
            reseed(seed)
        return agent


@torch.no_grad()
def collect_rollout(net: PolicyNet, snapshots: Sequence[PolicyNet], settings: RolloutSettings,
                    seed: Sequence[int] | int, target_steps: int) -> Rollout:
    """Play deals until the trained seats have made ``target_steps`` decisions (deals already
    running then finish; no new ones start), and return their transitions."""
    from mjenv.env.actions import decode_action, legal_mask
    from mjenv.env.observation import encode
    from mjenv.env.oracle import encode_oracle
    from mjenv.game import Hand

    rng = np.random.default_rng(seed)
    gen = torch.Generator().manual_seed(int(rng.integers(2**62)))
    device = next(net.parameters()).device
    fixed = FixedAgents()
    nets: dict[Any, PolicyNet] = {LATEST: net, **dict(enumerate(snapshots))}
    inputs = InputBuilder(net.config)    # snapshots are copies of the learner: same input
    no_oracle = np.zeros((0, 34), dtype=np.float32)

    deals: list[_Deal | None] = [None] * settings.num_envs
    out_steps: list[tuple] = []
    rewards: list[float] = []
    dones: list[float] = []
    episodes: list[tuple[float, bool, bool, float, bool]] = []
    decisions = 0
    pending_steps = 0            # trained decisions inside deals still running

    def new_deal(slot: int) -> _Deal:
        learner = int(rng.integers(4))
        controllers = tuple(LATEST if s == learner else sample_opponent(rng, settings, len(snapshots))
                            for s in range(4))
        trained = tuple(s for s in range(4) if s == learner or (
            settings.train_latest_seats and controllers[s] == LATEST))
        seed, wind = int(rng.integers(2**62)), int(rng.integers(2))
        hand = Hand(settings.rules, seed=seed, dealer=0, round_wind=wind)
        shadow = (Hand(settings.rules, seed=seed, dealer=0, round_wind=wind)
                  if settings.paired_baseline else None)
        agents = tuple({s: fixed.get(c, slot, copy, s, opponent_seed(seed, s))
                        for s, c in enumerate(controllers) if isinstance(c, str)}
                       for copy in range(2 if shadow is not None else 1))
        return _Deal(hand, learner, trained, controllers, agents, shadow,
                     {s: [] for s in trained}, {s: [] for s in trained})

    def over(deal: _Deal) -> bool:
        return deal.hand.over and (deal.shadow is None or deal.shadow.over)

    def finish(deal: _Deal) -> None:
        res = deal.hand.result
        for seat in deal.trained:
            delta = float(res.deltas[seat])
            baseline = 0.0 if deal.shadow is None else float(deal.shadow.result.deltas[seat])
            episodes.append((delta, seat in res.winners, res.discarder == seat, baseline,
                             seat == deal.learner))
            steps = deal.steps[seat]
            pots = deal.potentials[seat] + [0.0]
            for i, step in enumerate(steps):
                r = settings.gamma * pots[i + 1] - pots[i] if settings.shaping_coef else 0.0
                last = i == len(steps) - 1
                if last:
                    r += (delta - baseline) * settings.reward_scale
                out_steps.append(step)
                rewards.append(r)
                dones.append(1.0 if last else 0.0)

    while True:
        for i, deal in enumerate(deals):
            if deal is not None and over(deal):
                pending_steps -= sum(map(len, deal.steps.values()))
                finish(deal)
                deal = deals[i] = None
            if deal is None and len(out_steps) + pending_steps < target_steps:
                deals[i] = new_deal(i)
        live = [d for d in deals if d is not None]
        if not live:
            break
        # Gather every pending decision, grouped by controller.
        groups: dict[Any, list[tuple]] = {}
        for deal in live:
            for copy, hand in enumerate((deal.hand, deal.shadow)):
                if hand is None:
                    continue
                for seat in hand.to_act:
                    view = hand.view(seat)
                    groups.setdefault(deal.controllers[seat], []).append(
                        (deal, hand, seat, view, encode(view), legal_mask(view), copy))
        answers: list[tuple] = []        # (hand, seat, view, action id, deal, record or None)
        for key in sorted(groups, key=lambda k: (isinstance(k, str), str(k))):
            items = groups[key]
            obs = np.stack([it[4] for it in items]).astype(np.float32, copy=False)
            masks = np.stack([it[5] for it in items]).astype(bool)
            if key in nets:
                obs = inputs(obs, [it[3] for it in items])
                obs_t = torch.as_tensor(obs, device=device)
                mask_t = torch.as_tensor(masks, device=device)
                logits, z = nets[key].policy(obs_t)
                logits = masked_logits(logits, mask_t)
                acts = sample_masked(logits, gen)
                trained = [key == LATEST and copy == 0 and seat in deal.trained
                           for deal, _, seat, _, _, _, copy in items]
                if settings.paired_baseline:   # only trained seats sample (the shadow is greedy)
                    acts = torch.where(torch.tensor(trained, device=device), acts,
                                       logits.argmax(-1))
                logps = torch.log_softmax(logits, -1).gather(1, acts[:, None]).squeeze(1)
                acts_np, logps_np = acts.cpu().numpy(), logps.cpu().numpy()
                # Values (and oracle planes) only where a decision is recorded.
                rows = [j for j, t in enumerate(trained) if t]
                oracle = ([encode_oracle(items[j][1], items[j][2]) for j in rows]
                          if net.config.oracle else [no_oracle] * len(rows))
                values_np = np.zeros(len(items), dtype=np.float32)
                if rows:
                    oracle_t = (torch.as_tensor(np.stack(oracle), device=device)
                                if net.config.oracle else None)
                    values_np[rows] = net.value(z[rows], oracle_t).cpu().numpy()
                planes = dict(zip(rows, oracle))
                for j, (deal, hand, seat, view, _, _, _) in enumerate(items):
                    record = None
                    if trained[j]:
                        record = (obs[j], planes[j], masks[j], int(acts_np[j]), float(logps_np[j]),
                                  float(values_np[j]),
                                  potential(view, settings.shaping_coef) if settings.shaping_coef else 0.0)
                    answers.append((hand, seat, view, int(acts_np[j]), deal, record))
            else:
                by_agent: dict[int, tuple[Any, list[int]]] = {}
                for j, (deal, _, seat, _, _, _, copy) in enumerate(items):
                    agent = deal.agents[copy][seat]
                    by_agent.setdefault(id(agent), (agent, []))[1].append(j)
                acts_np = np.empty(len(items), dtype=np.int64)
                for agent, js in by_agent.values():
                    acts_np[js] = agent.act_batch(obs[js], masks[js], [items[j][3] for j in js])
                answers.extend((hand, seat, view, int(a), deal, None)
                               for (deal, hand, seat, view, *_), a in zip(items, acts_np))
        for hand, seat, view, aid, deal, record in answers:
            if seat not in hand.to_act:   # the window closed before this seat's turn
                continue
            hand.step(seat, decode_action(aid, view))
            decisions += 1
            if record is not None:
                deal.steps[seat].append(record[:6])
                deal.potentials[seat].append(record[6])
                pending_steps += 1

    if not out_steps:
        raise RuntimeError("rollout collected no learner decision")
    stats = list(zip(*episodes))
    return Rollout(
        obs=np.stack([s[0] for s in out_steps]).astype(np.float32),
        oracle=np.stack([s[1] for s in out_steps]).astype(np.float32),
        masks=np.stack([s[2] for s in out_steps]),
        actions=np.array([s[3] for s in out_steps], dtype=np.int64),
        logprobs=np.array([s[4] for s in out_steps], dtype=np.float32),
        values=np.array([s[5] for s in out_steps], dtype=np.float32),
        rewards=np.array(rewards, dtype=np.float32),
        dones=np.array(dones, dtype=np.float32),
        scores=np.array(stats[0], dtype=np.float64),
        won=np.array(stats[1], dtype=bool),
        dealt_in=np.array(stats[2], dtype=bool),
        baselines=np.array(stats[3], dtype=np.float64),
        primary=np.array(stats[4], dtype=bool),
        decisions=decisions,
    )


# --------------------------------------------------------------------------- workers


def _collect(net: PolicyNet, cache: dict, settings: RolloutSettings, job: tuple) -> Rollout:
    """Play one job ``(seed, target, weights, snapshots)`` with ``net`` (loaded with the
    weights) and snapshot networks rebuilt only when the pool changed (``cache``)."""
    import time

    seed, target, state, snapshots = job
    net.load_state_dict(state)
    ids = [u for u, _ in snapshots]
    if ids != cache.get("ids"):
        device = next(net.parameters()).device
        cache["nets"] = [build_net(net.config, w).to(device).eval() for _, w in snapshots]
        cache["ids"] = ids
    t0 = time.perf_counter()
    rollout = collect_rollout(net, cache["nets"], settings, seed, target)
    rollout.seconds = time.perf_counter() - t0
    return rollout


def _worker_main(conn, settings: RolloutSettings, net_config: dict) -> None:
    torch.set_num_threads(1)           # one core per worker: no oversubscription
    net = build_net(NetConfig(**net_config)).eval()
    cache: dict = {}
    try:
        while True:
            msg = conn.recv()
            if msg is None:
                return
            try:
                conn.send(("ok", _collect(net, cache, settings, msg)))
            except Exception as exc:  # report to the learner instead of hanging it
                import traceback
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
        self._local: tuple[PolicyNet, dict] | None = None
        self._pending: list[tuple] | None = None
        if workers > 1 or background:
            ctx = mp.get_context("spawn")
            from dataclasses import asdict
            for _ in range(workers):
                parent, child = ctx.Pipe()
                proc = ctx.Process(target=_worker_main, args=(child, settings, asdict(net_config)),
                                   daemon=True)
                proc.start()
                self._conns.append(parent)
                self._procs.append(proc)

    def submit(self, weights: dict[str, torch.Tensor], pool: OpponentPool, seed: int,
               update: int, target_steps: int) -> None:
        """Start a rollout of ``target_steps`` learner decisions with ``weights``, split evenly
        over the workers; worker ``w`` is seeded with ``[seed, update, w]``."""
        if self._pending is not None:
            raise RuntimeError("a rollout is already running: take its result first")
        per_worker = -(-target_steps // self.workers)
        state = {k: v.detach().cpu().clone() for k, v in weights.items()}
        jobs = [([seed, update, w], per_worker, state, pool.snapshots)
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

    def collect(self, weights: dict[str, torch.Tensor], pool: OpponentPool, seed: int,
                update: int, target_steps: int) -> Rollout:
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
