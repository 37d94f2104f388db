"""Self-play rollouts: an opponent pool and batched inference over many concurrent deals
(``collect_rollout``; the processes that play them: ``training.workers``).

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

from dataclasses import dataclass, field
from typing import Any, NamedTuple, Sequence

import numpy as np
import torch

from agents.network import InputBuilder, PolicyNet, masked_logits, sample_masked
from mjenv.env.actions import decode_action, legal_mask
from mjenv.env.observation import encode
from mjenv.env.oracle import encode_oracle
from mjenv.game import Hand
from mjenv.game.view import PlayerView
from mjenv.rules import RuleConfig

LATEST = -1                       # controller id of the latest weights (learner or opponent)
_NO_ORACLE = np.zeros((0, 34), dtype=np.float32)     # a recorded step's planes without one


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


class Step(NamedTuple):
    """One recorded decision of a trained seat."""

    obs: np.ndarray            # the network's input (C, 34)
    oracle: np.ndarray         # the oracle critic's planes (K, 34); K = 0 without one
    mask: np.ndarray           # bool (110,)
    action: int
    logprob: float
    value: float
    potential: float           # the shaping potential Φ of the decision (0 without shaping)


class Episode(NamedTuple):
    """One trained seat's deal, as the rollout's statistics count it."""

    score: float               # the seat's raw score delta
    won: bool
    dealt_in: bool
    baseline: float            # the shadow deal's score (0 without pairing)
    primary: bool              # the learner's own seat


@dataclass
class _Deal:
    """One concurrent deal of a rollout: the hand (and its shadow when paired), who plays each
    seat, and the steps its trained seats have recorded so far."""

    hand: Hand
    learner: int
    trained: tuple[int, ...]              # the seats whose decisions are recorded
    controllers: tuple[Any, ...]          # per seat: LATEST, snapshot index, or fixed spec
    agents: tuple[dict[int, Any], ...]    # per copy (deal, shadow): seat -> fixed agent
    shadow: Hand | None = None            # the same deal, network seats greedy (paired)
    steps: dict[int, list[Step]] = field(default_factory=dict)

    @property
    def over(self) -> bool:
        return self.hand.over and (self.shadow is None or self.shadow.over)

    def copies(self) -> list[tuple[int, Hand]]:
        """``(copy, hand)``: the deal (0) and its shadow (1) when paired."""
        return [(0, self.hand)] + ([] if self.shadow is None else [(1, self.shadow)])


@dataclass
class _Decision:
    """A pending decision of one seat of one copy of a deal, gathered for its controller."""

    deal: _Deal
    hand: Hand
    copy: int
    seat: int
    view: PlayerView
    obs: np.ndarray
    mask: np.ndarray

    def trained(self, key: Any) -> bool:
        """Whether the decision is recorded: a trained seat of the deal itself (not its
        shadow), played by the latest weights (``key``, its controller)."""
        return key == LATEST and self.copy == 0 and self.seat in self.deal.trained


class _Answer(NamedTuple):
    decision: _Decision
    action: int
    step: Step | None          # what is recorded, for a trained seat


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
    return _SelfPlay(net, snapshots, settings, seed).play(target_steps)


class _SelfPlay:
    """One rollout in the making: its concurrent deals, one tick at a time (gather every
    pending decision, answer them by controller, apply the answers), and what the deals that
    ended have recorded."""

    def __init__(self, net: PolicyNet, snapshots: Sequence[PolicyNet],
                 settings: RolloutSettings, seed: Sequence[int] | int) -> None:
        self.net, self.settings = net, settings
        self.rng = np.random.default_rng(seed)
        self.gen = torch.Generator().manual_seed(int(self.rng.integers(2**62)))
        self.device = next(net.parameters()).device
        self.fixed = FixedAgents()
        self.nets: dict[Any, PolicyNet] = {LATEST: net, **dict(enumerate(snapshots))}
        self.inputs = InputBuilder(net.config)   # snapshots are copies of the learner: same input
        self.steps: list[Step] = []
        self.rewards: list[float] = []
        self.dones: list[float] = []
        self.episodes: list[Episode] = []
        self.decisions = 0          # every decision of every seat (engine work done)
        self.pending = 0            # trained decisions inside deals still running

    def play(self, target_steps: int) -> Rollout:
        deals: list[_Deal | None] = [None] * self.settings.num_envs
        while True:
            for i, deal in enumerate(deals):
                if deal is not None and deal.over:
                    self.pending -= sum(map(len, deal.steps.values()))
                    self.finish(deal)
                    deal = deals[i] = None
                if deal is None and len(self.steps) + self.pending < target_steps:
                    deals[i] = self.new_deal(i)
            live = [d for d in deals if d is not None]
            if not live:
                return self.rollout()
            self.apply(self.answers(self.gather(live)))

    def new_deal(self, slot: int) -> _Deal:
        """A deal for concurrent slot ``slot``: the learner's seat, the other seats'
        controllers, the wall's seed and the round wind, drawn in that order."""
        rng, settings = self.rng, self.settings
        learner = int(rng.integers(4))
        controllers = tuple(LATEST if s == learner else
                            sample_opponent(rng, settings, len(self.nets) - 1)
                            for s in range(4))
        trained = tuple(s for s in range(4) if s == learner or (
            settings.train_latest_seats and controllers[s] == LATEST))
        seed, wind = int(rng.integers(2**62)), int(rng.integers(2))
        hand = Hand(settings.rules, seed=seed, dealer=0, round_wind=wind)
        shadow = (Hand(settings.rules, seed=seed, dealer=0, round_wind=wind)
                  if settings.paired_baseline else None)
        agents = tuple({s: self.fixed.get(c, slot, copy, s, opponent_seed(seed, s))
                        for s, c in enumerate(controllers) if isinstance(c, str)}
                       for copy in range(2 if shadow is not None else 1))
        return _Deal(hand, learner, trained, controllers, agents, shadow,
                     {s: [] for s in trained})

    def finish(self, deal: _Deal) -> None:
        """Record an ended deal: each trained seat's episode and its steps' rewards (the
        shaping between decisions, the scaled score less its baseline on the last one)."""
        settings, result = self.settings, deal.hand.result
        for seat in deal.trained:
            delta = float(result.deltas[seat])
            baseline = 0.0 if deal.shadow is None else float(deal.shadow.result.deltas[seat])
            self.episodes.append(Episode(delta, seat in result.winners,
                                         result.discarder == seat, baseline,
                                         seat == deal.learner))
            steps = deal.steps[seat]
            pots = [step.potential for step in steps] + [0.0]
            for i, step in enumerate(steps):
                r = settings.gamma * pots[i + 1] - pots[i] if settings.shaping_coef else 0.0
                last = i == len(steps) - 1
                if last:
                    r += (delta - baseline) * settings.reward_scale
                self.steps.append(step)
                self.rewards.append(r)
                self.dones.append(1.0 if last else 0.0)

    def gather(self, live: list[_Deal]) -> dict[Any, list[_Decision]]:
        """Every pending decision of the live deals, grouped by controller."""
        groups: dict[Any, list[_Decision]] = {}
        for deal in live:
            for copy, hand in deal.copies():
                for seat in hand.to_act:
                    view = hand.view(seat)
                    groups.setdefault(deal.controllers[seat], []).append(
                        _Decision(deal, hand, copy, seat, view, encode(view), legal_mask(view)))
        return groups

    def answers(self, groups: dict[Any, list[_Decision]]) -> list[_Answer]:
        """Each group's answers: one forward pass per network, one ``act_batch`` per fixed
        agent instance; networks first, then fixed agents, each in a fixed order."""
        out: list[_Answer] = []
        for key in sorted(groups, key=lambda k: (isinstance(k, str), str(k))):
            items = groups[key]
            obs = np.stack([d.obs for d in items]).astype(np.float32, copy=False)
            masks = np.stack([d.mask for d in items]).astype(bool)
            if key in self.nets:
                out += self.network_answers(key, items, obs, masks)
            else:
                out += self.fixed_answers(items, obs, masks)
        return out

    def network_answers(self, key: Any, items: list[_Decision], obs: np.ndarray,
                        masks: np.ndarray) -> list[_Answer]:
        """Sampled actions of network ``key``; with pairing, only trained seats sample (the
        rest, and the shadow, play greedily). Values (and oracle planes) only where a
        decision is recorded."""
        obs = self.inputs(obs, [d.view for d in items])
        mask_t = torch.as_tensor(masks, device=self.device)
        logits, z = self.nets[key].policy(torch.as_tensor(obs, device=self.device))
        logits = masked_logits(logits, mask_t)
        acts = sample_masked(logits, self.gen)
        trained = [d.trained(key) for d in items]
        if self.settings.paired_baseline:
            acts = torch.where(torch.tensor(trained, device=self.device), acts,
                               logits.argmax(-1))
        logps = torch.log_softmax(logits, -1).gather(1, acts[:, None]).squeeze(1)
        acts_np, logps_np = acts.cpu().numpy(), logps.cpu().numpy()
        rows = [j for j, t in enumerate(trained) if t]
        oracle, values = self.values(items, rows, z)
        coef = self.settings.shaping_coef
        out = []
        for j, d in enumerate(items):
            step = None
            if trained[j]:
                step = Step(obs[j], oracle[j], masks[j], int(acts_np[j]), float(logps_np[j]),
                            float(values[j]), potential(d.view, coef) if coef else 0.0)
            out.append(_Answer(d, int(acts_np[j]), step))
        return out

    def values(self, items: list[_Decision], rows: list[int],
               z: torch.Tensor) -> tuple[dict[int, np.ndarray], np.ndarray]:
        """The oracle planes (by row) and the learner's values of the decisions ``rows``."""
        if self.net.config.oracle:
            oracle = {j: encode_oracle(items[j].hand, items[j].seat) for j in rows}
        else:
            oracle = {j: _NO_ORACLE for j in rows}
        values = np.zeros(len(items), dtype=np.float32)
        if rows:
            oracle_t = (torch.as_tensor(np.stack([oracle[j] for j in rows]), device=self.device)
                        if self.net.config.oracle else None)
            values[rows] = self.net.value(z[rows], oracle_t).cpu().numpy()
        return oracle, values

    def fixed_answers(self, items: list[_Decision], obs: np.ndarray,
                      masks: np.ndarray) -> list[_Answer]:
        """One ``act_batch`` per fixed agent instance over its decisions."""
        by_agent: dict[int, tuple[Any, list[int]]] = {}
        for j, d in enumerate(items):
            agent = d.deal.agents[d.copy][d.seat]
            by_agent.setdefault(id(agent), (agent, []))[1].append(j)
        acts = np.empty(len(items), dtype=np.int64)
        for agent, js in by_agent.values():
            acts[js] = agent.act_batch(obs[js], masks[js], [items[j].view for j in js])
        return [_Answer(d, int(a), None) for d, a in zip(items, acts)]

    def apply(self, answers: list[_Answer]) -> None:
        """Step every hand by its answers (claims are simultaneous: all were chosen from the
        views before any is applied)."""
        for d, action, step in answers:
            if d.seat not in d.hand.to_act:   # the window closed before this seat's turn
                continue
            d.hand.step(d.seat, decode_action(action, d.view))
            self.decisions += 1
            if step is not None:
                d.deal.steps[d.seat].append(step)
                self.pending += 1

    def rollout(self) -> Rollout:
        if not self.steps:
            raise RuntimeError("rollout collected no learner decision")
        steps, episodes = self.steps, self.episodes
        return Rollout(
            obs=np.stack([s.obs for s in steps]).astype(np.float32),
            oracle=np.stack([s.oracle for s in steps]).astype(np.float32),
            masks=np.stack([s.mask for s in steps]),
            actions=np.array([s.action for s in steps], dtype=np.int64),
            logprobs=np.array([s.logprob for s in steps], dtype=np.float32),
            values=np.array([s.value for s in steps], dtype=np.float32),
            rewards=np.array(self.rewards, dtype=np.float32),
            dones=np.array(self.dones, dtype=np.float32),
            scores=np.array([e.score for e in episodes], dtype=np.float64),
            won=np.array([e.won for e in episodes], dtype=bool),
            dealt_in=np.array([e.dealt_in for e in episodes], dtype=bool),
            baselines=np.array([e.baseline for e in episodes], dtype=np.float64),
            primary=np.array([e.primary for e in episodes], dtype=bool),
            decisions=self.decisions,
        )
