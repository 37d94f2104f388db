"""Duplicate evaluation: one candidate agent against three copies of an opponent.

Method (docs/agents.md). Deal mode: deal ``i`` is the wall shuffled from
``deal_seed(seed, i)``, played as one hand with seat 0 dealing in the East round (repeat 0,
scores 0). It is replayed four times with the candidate in seat 0, 1, 2 and 3 and the
opponents in the other seats, so every seat's tiles — the luck of the wall — are played once by
the candidate. Match mode (``match=True``): group ``i`` is a whole match from the match seed
``deal_seed(seed, i)``, again played four times with the candidate rotated through the seats.

Statistics. Every number is about the candidate's hands. The four rotations of a group share
the wall and are correlated, so they are averaged first; the mean score and its 95 %
confidence interval come from the per-group means (mean ± t·sd/√groups, t the 0.975 quantile
of Student's t with groups − 1 degrees of freedom). Win and deal-in rates get intervals the same
way. Rates are fractions of the candidate's hands; ``yaku_freq`` and ``mean_points_per_win`` are
over its wins (points ``P`` as scored, the dealer bonus excluded).

Determinism. Every hand seeds its agents from ``(seed, group, rotation, seat)`` and the walls
from ``(seed, group)``; workers only split the list of groups and results are folded in group
order, so the report is identical for any ``workers``.
"""

from __future__ import annotations

import importlib
import math
import multiprocessing
import sys
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence, TextIO

import numpy as np

from mjenv.rules import RuleConfig

# Student's t, 0.975 quantile, for 1–29 degrees of freedom; 1.96 (normal) from 30 on.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
         2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
         2.060, 2.056, 2.052, 2.048, 2.045)


def deal_seed(seed: int, index: int) -> int:
    """The wall (deal mode) or match (match mode) seed of group ``index``."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)[0])


def agent_seed(seed: int, index: int, rotation: int, seat: int) -> int:
    """The seed of the agent in ``seat`` for one rotation of one group."""
    return int(np.random.SeedSequence([seed, index, rotation, seat, 1]).generate_state(
        1, np.uint64)[0])


@dataclass(frozen=True)
class HandStats:
    """The candidate's outcome in one hand."""

    delta: int
    won: bool
    tsumo: bool
    dealt_in: bool
    draw: bool
    points: int
    yaku: tuple[str, ...]
    below_min: bool


@dataclass(frozen=True)
class GroupStats:
    """One deal (or match) played in all four rotations: hands per rotation, and in match mode
    the candidate's final rank (1–4) and score per rotation."""

    hands: tuple[tuple[HandStats, ...], ...]
    ranks: tuple[int, ...] = ()
    finals: tuple[int, ...] = ()


# --- playing ----------------------------------------------------------------------------


def play_hand(hand, agents: Sequence, candidate: int) -> HandStats:
    """Drive ``hand`` (a ``mjenv.game.Hand``) to its end with ``agents[seat]`` deciding for each
    seat (``mjenv.env.play.play``), and return the outcome of seat ``candidate``.

    The candidate's ``below_min`` is set when a tile it drew, or another seat discarded or added
    to a kan, completed its hand but the win was not offered because it scored below
    ``min_points`` (wins withheld by same-turn furiten are told apart with the scorer).
    """
    from mjenv.env.play import play

    watch = _BelowMin(hand, candidate)
    play(hand, agents, on_step=watch)
    r = hand.result
    won = candidate in r.winners
    score = r.scores.get(candidate) if won else None
    return HandStats(
        delta=int(r.deltas[candidate]),
        won=won,
        tsumo=won and r.kind == "tsumo",
        dealt_in=r.kind == "ron" and r.discarder == candidate,
        draw=r.kind == "draw",
        points=int(score.points) if score is not None else 0,
        yaku=tuple(sorted(score.yaku)) if score is not None else (),
        below_min=watch.found,
    )


class _BelowMin:
    """``play``'s step hook that looks for a complete hand of ``seat`` whose win was withheld
    for its points (see ``play_hand``)."""

    def __init__(self, hand, seat: int) -> None:
        self.hand, self.seat, self.found = hand, seat, False
        self.waits = hand.waits(seat)       # as they were before the step seen next

    def __call__(self, step) -> None:
        hand, seat, action, view = self.hand, self.seat, step.action, step.view
        if not self.found:
            if step.seat == seat:           # its own draw completed it but no tsumo is offered
                self.found = (view.phase == "turn" and view.target_tile is not None
                              and view.target_tile in self.waits
                              and not any(a.kind == "tsumo" for a in view.legal))
            elif action.kind in ("discard", "kakan") and action.tile in hand.waits(seat):
                self.found = _withheld_for_points(hand, seat, action.tile, action.kind)
        self.waits = hand.waits(seat)


def _withheld_for_points(hand, seat: int, tile: int, kind: str) -> bool:
    """Whether ``tile`` (just discarded or added to a kan by another seat), which completes
    ``seat``'s hand, is not a legal ron for it because it scores below ``min_points``."""
    if any(a.kind == "ron" for a in hand.legal_actions(seat)):
        return False
    if not hand.furiten(seat):
        return True
    from mjenv.scoring import WinContext, score
    ctx = WinContext(tsumo=False, seat_wind=hand.seat_wind(seat), round_wind=hand.round_wind,
                     hedi=kind == "discard" and hand.live_wall_left == 0,
                     qianggang=kind == "kakan")
    try:
        pts = score(hand.concealed(seat), tile, hand.melds(seat), ctx).points
    except ValueError:
        return False
    return pts < hand.rules.min_points


def _seat_agents(candidate, opponents: Sequence, rotation: int) -> list:
    it = iter(opponents)
    return [candidate if s == rotation else next(it) for s in range(4)]


def _reseed(agents: Sequence, seed: int, index: int, rotation: int) -> None:
    for s, agent in enumerate(agents):
        reseed = getattr(agent, "reseed", None)
        if reseed is not None:
            reseed(agent_seed(seed, index, rotation, s))


# Per-process state of a worker: the agents are built once, then reseeded per hand.
_WORKER: dict = {}


def _init_worker(agent: str, vs: str, rules: RuleConfig, seed: int, match: bool) -> None:
    from agents import make_agent
    _WORKER.clear()
    _WORKER.update(candidate=make_agent(agent), opponents=[make_agent(vs) for _ in range(3)],
                   rules=rules, seed=seed, match=match)


def _run_group(index: int) -> GroupStats:
    from mjenv.game import Hand, Match
    w = _WORKER
    rules, seed = w["rules"], w["seed"]
    hands, ranks, finals = [], [], []
    for rotation in range(4):
        agents = _seat_agents(w["candidate"], w["opponents"], rotation)
        _reseed(agents, seed, index, rotation)
        if not w["match"]:
            hand = Hand(rules, seed=deal_seed(seed, index))
            hands.append((play_hand(hand, agents, rotation),))
            continue
        match = Match(rules, seed=deal_seed(seed, index))
        played = [play_hand(match.hand, agents, rotation)]
        while not match.over:
            played.append(play_hand(match.next_hand(), agents, rotation))
        hands.append(tuple(played))
        ranks.append(match.ranking().index(rotation) + 1)
        finals.append(int(match.scores[rotation]))
    return GroupStats(tuple(hands), tuple(ranks), tuple(finals))


# --- report -----------------------------------------------------------------------------


def mean_ci95(values: Sequence[float]) -> tuple[float, list[float]]:
    """Mean and ``[low, high]`` of a 95 % t-interval (the mean twice for fewer than 2 values)."""
    n = len(values)
    if n == 0:
        return 0.0, [0.0, 0.0]
    mean = math.fsum(values) / n
    if n < 2:
        return mean, [mean, mean]
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    t = _T975[n - 2] if n - 1 < 30 else 1.96
    half = t * sd / math.sqrt(n)
    return mean, [mean - half, mean + half]


@dataclass
class EvalReport:
    """Aggregated results for the candidate (``to_json`` gives the machine form)."""

    agent: str
    vs: str
    seed: int
    deals: int
    rules: RuleConfig
    match: bool
    groups: list[GroupStats] = field(default_factory=list)

    def to_json(self) -> dict:
        hands = [h for g in self.groups for rot in g.hands for h in rot]
        n = len(hands)
        wins = [h for h in hands if h.won]
        per_group = [[h for rot in g.hands for h in rot] for g in self.groups]

        def group_mean(metric: Callable[[HandStats], float]) -> tuple[float, list[float]]:
            return mean_ci95([sum(metric(h) for h in g) / len(g) for g in per_group if g])

        mean_score, ci = group_mean(lambda h: h.delta)
        win_rate, win_ci = group_mean(lambda h: h.won)
        deal_in, deal_in_ci = group_mean(lambda h: h.dealt_in)
        yaku: dict[str, int] = {}
        for h in wins:
            for y in h.yaku:
                yaku[y] = yaku.get(y, 0) + 1
        out = {
            "agent": self.agent,
            "vs": self.vs,
            "seed": self.seed,
            "deals": self.deals,
            "deals_done": len(self.groups),
            "mode": "match" if self.match else "deal",
            "rules": self.rules.to_dict(),
            "hands": n,
            "mean_score": mean_score,
            "ci95": ci,
            "win_rate": win_rate,
            "win_rate_ci95": win_ci,
            "deal_in_rate": deal_in,
            "deal_in_rate_ci95": deal_in_ci,
            "mean_points_per_win": (sum(h.points for h in wins) / len(wins)) if wins else 0.0,
            "draw_rate": sum(h.draw for h in hands) / n if n else 0.0,
            "tsumo_share": sum(h.tsumo for h in wins) / len(wins) if wins else 0.0,
            "below_min_complete_rate": sum(h.below_min for h in hands) / n if n else 0.0,
            "yaku_freq": {y: c / len(wins) for y, c in sorted(yaku.items(),
                                                              key=lambda kv: (-kv[1], kv[0]))},
        }
        if self.match:
            ranks = [r for g in self.groups for r in g.ranks]
            out["mean_rank"], out["rank_ci95"] = mean_ci95(
                [sum(g.ranks) / len(g.ranks) for g in self.groups])
            out["rank_freq"] = {str(k): ranks.count(k) / len(ranks) for k in range(1, 5)}
            out["mean_final_score"] = sum(f for g in self.groups for f in g.finals) / len(ranks)
        return out


def format_table(report: dict) -> str:
    """The human-readable table of a ``to_json`` report."""
    pct = lambda x: f"{100 * x:6.2f} %"  # noqa: E731
    ci = report["ci95"]
    lines = [
        f"{report['agent']} vs 3× {report['vs']} — {report['deals']} "
        f"{'matches' if report['mode'] == 'match' else 'deals'} × 4 seats, "
        f"{report['hands']} hands, seed {report['seed']}, rules {report['rules']}",
        f"  mean score / hand   {report['mean_score']:+8.3f}   CI95 [{ci[0]:+.3f}, {ci[1]:+.3f}]",
        f"  win rate            {pct(report['win_rate'])}   CI95 "
        f"[{pct(report['win_rate_ci95'][0]).strip()}, {pct(report['win_rate_ci95'][1]).strip()}]",
        f"  deal-in rate        {pct(report['deal_in_rate'])}   CI95 "
        f"[{pct(report['deal_in_rate_ci95'][0]).strip()}, "
        f"{pct(report['deal_in_rate_ci95'][1]).strip()}]",
        f"  points per win      {report['mean_points_per_win']:8.2f}",
        f"  draw rate           {pct(report['draw_rate'])}",
        f"  tsumo share of wins {pct(report['tsumo_share'])}",
        f"  complete < min pts  {pct(report['below_min_complete_rate'])}",
    ]
    if report["mode"] == "match":
        rc = report["rank_ci95"]
        lines.append(f"  mean rank           {report['mean_rank']:8.3f}   CI95 "
                     f"[{rc[0]:.3f}, {rc[1]:.3f}]")
    top = list(report["yaku_freq"].items())[:10]
    if top:
        lines.append("  top yaku (share of wins): "
                     + ", ".join(f"{y} {100 * f:.0f}%" for y, f in top))
    return "\n".join(lines)


class Progress:
    """A one-line progress bar on a text stream (stderr), redrawn at most 5 times a second."""

    def __init__(self, total: int, stream: TextIO | None = None, label: str = "deals") -> None:
        self.total, self.stream, self.label = total, stream or sys.stderr, label
        self.start = self.last = time.monotonic()
        self.done = 0

    def update(self, done: int) -> None:
        self.done = done
        now = time.monotonic()
        if done < self.total and now - self.last < 0.2:
            return
        self.last = now
        rate = done / max(now - self.start, 1e-9)
        eta = (self.total - done) / rate if rate > 0 else 0.0
        width = 30
        fill = int(width * done / max(self.total, 1))
        self.stream.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {done}/{self.total} "
                          f"{self.label}  {rate:.2f}/s  ETA {eta:.0f}s ")
        if done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


def _groups(agent: str, vs: str, deals: int, seed: int, rules: RuleConfig, match: bool,
            workers: int) -> Iterator[GroupStats]:
    args = (agent, vs, rules, seed, match)
    if workers <= 1:
        _init_worker(*args)
        for i in range(deals):
            yield _run_group(i)
        return
    # A forked child of a process whose torch thread pool has started (a PPO agent was loaded
    # above) can hang in its first parallel op: start fresh interpreters then.
    context = multiprocessing.get_context("spawn" if "torch" in sys.modules else None)
    with context.Pool(workers, initializer=_init_worker, initargs=args) as pool:
        yield from pool.imap(_run_group, range(deals), chunksize=1 if match else 4)


def evaluate(agent: str, vs: str, deals: int, seed: int = 0, rules: RuleConfig | None = None,
             *, match: bool = False, workers: int = 1, progress: bool = False,
             snapshot: Callable[[dict], None] | None = None, snapshot_every: int = 50) -> dict:
    """Run the duplicate evaluation and return the JSON-able report (see the module docstring).

    ``agent``/``vs``: agent specs (``agents.make_agent``). ``deals``: groups of four rotations
    (whole matches with ``match``). ``snapshot``: called with the report of the groups done so
    far every ``snapshot_every`` groups (long runs can be read while they go; a partial report
    has ``deals_done`` < ``deals``). Raises ``ValueError`` for an unknown spec or bad counts.
    """
    from agents import make_agent
    rules = rules or RuleConfig()
    if not isinstance(deals, int) or deals < 1:
        raise ValueError(f"deals must be an int >= 1, got {deals!r}")
    if not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be an int >= 1, got {workers!r}")
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be an int >= 0, got {seed!r}")
    make_agent(agent)   # fail fast, in this process, on a bad spec
    make_agent(vs)
    # load the engine before forking workers: every process then runs the same code
    for module in ("mjenv.game", "mjenv.env.actions", "mjenv.env.observation"):
        importlib.import_module(module)
    report = EvalReport(agent, vs, seed, deals, rules, match)
    bar = Progress(deals, label="matches" if match else "deals") if progress else None
    for g in _groups(agent, vs, deals, seed, rules, match, min(workers, deals)):
        report.groups.append(g)
        if bar is not None:
            bar.update(len(report.groups))
        if snapshot is not None and len(report.groups) % snapshot_every == 0 \
                and len(report.groups) < deals:
            snapshot(report.to_json())
    return report.to_json()


__all__ = ["EvalReport", "GroupStats", "HandStats", "Progress", "agent_seed", "deal_seed",
           "evaluate", "format_table", "mean_ci95", "play_hand"]
