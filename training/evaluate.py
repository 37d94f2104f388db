"""Duplicate evaluation: one candidate agent against three copies of an opponent.

Method (docs/agents.md), on the harness shared with the league (``training.duplicate``).
Deal mode: deal ``i`` is the wall shuffled from ``deal_seed(seed, i)``, played as one hand with
seat 0 dealing in the East round (repeat 0, scores 0). It is replayed four times with the
candidate in seat 0, 1, 2 and 3 and the opponents in the other seats, so every seat's tiles —
the luck of the wall — are played once by the candidate. Match mode (``match=True``): group
``i`` is a whole match from the match seed ``deal_seed(seed, i)``, again played four times with
the candidate rotated through the seats.
Paired mode (``paired=True``), for quick comparisons of an agent with the one it deviates
from: deal ``i`` is played once with the candidate in seat ``i mod 4``, and once more with a
fourth opponent in that seat instead (the *baseline* game, the same seeds in every seat). The
report's ``gain`` is the candidate's score less the baseline's in the same seat, with its
interval over deals; ``same_game_rate`` the share of deals the two games were move for move the
same. A full duplicate evaluation is four such pairs a deal (the baselines of the four seats
sum to 0), so the two agree in expectation: paired mode trades the rotations for more deals.

Statistics (``training.stats``). Every number is about the candidate's hands. The four
rotations of a group share the wall and are correlated, so they are averaged first; the mean
score and its 95 % confidence interval come from the per-group means (``ci95_rough`` under
``ROUGH_BELOW`` groups: a t-interval over few groups of a skewed score is only a rough guide).
Win and deal-in rates get Wilson intervals with the groups' design effect
(``training.stats.rate_ci95``). Rates are fractions of the candidate's hands; ``yaku_freq`` and
``mean_points_per_win`` are over its wins (points ``P`` as scored, the dealer bonus excluded).
``faults`` / ``vs_faults`` count the hands in which the candidate / an opponent, being an
external program, failed (``agents.external``).

Determinism. Every hand seeds its agents from ``(seed, group, seat)`` and the walls from
``(seed, group)``; workers only split the list of groups and results are folded in group
order, so the report is identical for any ``workers``. A seat's seed is the same in all four
rotations (common random numbers, ``training.duplicate``): an agent against three copies of
itself plays one game four times and reads exactly 0.
"""

from __future__ import annotations

import importlib
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence, TextIO

from mjenv.rules import RuleConfig
from mjenv.game import LogFolder
from training.duplicate import (WORKER, Interrupted, agent_seed, check_output_dir, deal_seed,
                                hand_faults, play_rotation, run_groups)
from training.stats import ROUGH_BELOW, clustered_ci95, mean_ci95, rate_ci95


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
    faults: tuple[tuple[int, str, str], ...] = ()    # (seat, agent, reason), any seat


@dataclass(frozen=True)
class GroupStats:
    """One deal (or match) played in all four rotations: hands per rotation, and in match mode
    the candidate's final rank (1–4) and score per rotation. In paired mode one rotation, the
    candidate's ``seats``, the ``baseline`` opponent's score in that seat and whether the two
    games were the ``same``."""

    hands: tuple[tuple[HandStats, ...], ...]
    ranks: tuple[int, ...] = ()
    finals: tuple[int, ...] = ()
    seats: tuple[int, ...] = (0, 1, 2, 3)
    baseline: tuple[int, ...] = ()
    same: tuple[bool, ...] = ()


# --- playing ----------------------------------------------------------------------------


def play_hand(hand, agents: Sequence, candidate: int) -> HandStats:
    """Drive ``hand`` (a ``mjenv.game.Hand``) to its end with ``agents[seat]`` deciding for each
    seat (``mjenv.env.play.play``), and return the outcome of seat ``candidate``.

    The candidate's ``below_min`` is set when a tile it drew, or another seat discarded or added
    to a kan, completed its hand but the win was not offered because it scored below
    ``min_points`` (wins withheld by same-turn furiten are told apart with the scorer).
    ``faults``: every seat's fault in the hand (external programs), cleared on the agents.
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
        faults=hand_faults(agents),
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


def _init_worker(agent: str, vs: str, rules: RuleConfig, seed: int, mode: str,
                 options: dict, log_dir: Path | None) -> None:
    from agents import make_agent
    WORKER.clear()
    WORKER.update(candidate=make_agent(agent, **options),
                  opponents=[make_agent(vs, **options) for _ in range(3)],
                  baseline=make_agent(vs, **options) if mode == "paired" else None,
                  rules=rules, seed=seed, match=mode == "match",
                  logs=None if log_dir is None else LogFolder(log_dir))


def _run_group(index: int) -> GroupStats:
    w = WORKER
    if w["baseline"] is not None:
        return _run_pair(index)
    hands, ranks, finals = [], [], []
    for rotation in range(4):
        agents = _seat_agents(w["candidate"], w["opponents"], rotation)
        log = None
        if w["logs"] is not None:
            log = (w["logs"], f"{'match' if w['match'] else 'deal'}{index:05d}-seat{rotation}")
        played, game = play_rotation(agents, w["rules"], w["seed"], index,
                                     lambda hand: play_hand(hand, agents, rotation),
                                     match=w["match"], log=log)
        hands.append(tuple(played))
        if w["match"]:
            ranks.append(game.ranking().index(rotation) + 1)
            finals.append(int(game.scores[rotation]))
    return GroupStats(tuple(hands), tuple(ranks), tuple(finals))


def _run_pair(index: int) -> GroupStats:
    """Paired mode: the candidate's game in seat ``index % 4`` and the baseline's."""
    w = WORKER
    seat = index % 4
    games = []
    for player in (w["candidate"], w["baseline"]):
        agents = _seat_agents(player, w["opponents"], seat)
        log = None
        if w["logs"] is not None and player is w["candidate"]:
            log = (w["logs"], f"deal{index:05d}-seat{seat}")
        games.append(play_rotation(agents, w["rules"], w["seed"], index,
                                   lambda hand: play_hand(hand, agents, seat), log=log))
    (played, game), (_, base) = games
    return GroupStats((tuple(played),), seats=(seat,),
                      baseline=(int(base.result.deltas[seat]),), same=(game.log == base.log,))


# --- report -----------------------------------------------------------------------------


@dataclass
class EvalReport:
    """Aggregated results for the candidate (``to_json`` gives the machine form)."""

    agent: str
    vs: str
    seed: int
    deals: int
    rules: RuleConfig
    mode: str
    groups: list[GroupStats] = field(default_factory=list)

    def _seated(self):
        """``(candidate seat, hand)`` for every hand played."""
        return [(r, h) for g in self.groups for r, rot in zip(g.seats, g.hands) for h in rot]

    def to_json(self) -> dict:
        hands = [h for g in self.groups for rot in g.hands for h in rot]
        n = len(hands)
        wins = [h for h in hands if h.won]
        per_group = [[h for rot in g.hands for h in rot] for g in self.groups]

        def group_mean(metric: Callable[[HandStats], float]) -> tuple[float, list[float]]:
            return clustered_ci95([[metric(h) for h in g] for g in per_group])

        mean_score, ci = group_mean(lambda h: h.delta)
        win_rate, win_ci = rate_ci95([[h.won for h in g] for g in per_group])
        deal_in, deal_in_ci = rate_ci95([[h.dealt_in for h in g] for g in per_group])
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
            "mode": self.mode,
            "rules": self.rules.to_dict(),
            "hands": n,
            "mean_score": mean_score,
            "ci95": ci,
            "ci95_rough": len(self.groups) < ROUGH_BELOW,
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
            "faults": sum(f[0] == c for c, h in self._seated() for f in h.faults),
            "vs_faults": sum(f[0] != c for c, h in self._seated() for f in h.faults),
        }
        if self.mode == "paired":
            out["gain"], out["gain_ci95"] = mean_ci95(
                [h.delta - b for g in self.groups for (h,), b in zip(g.hands, g.baseline)])
            out["same_game_rate"] = sum(s for g in self.groups for s in g.same) / max(
                1, len(self.groups))
        if self.mode == "match":
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
    done = report["deals"] if report["deals_done"] == report["deals"] else \
        f"{report['deals_done']} of {report['deals']} (interrupted)"
    seats = "1 seat (paired)" if report["mode"] == "paired" else "4 seats"
    # a deal is one hand: the number of wind rounds a match lasts does not apply to it
    rules = {k: v for k, v in report["rules"].items()
             if report["mode"] == "match" or k != "rounds"}
    lines = [
        f"{report['agent']} vs 3× {report['vs']} — {done} "
        f"{'matches' if report['mode'] == 'match' else 'deals'} × {seats}, "
        f"{report['hands']} hands, seed {report['seed']}, rules {rules}",
        f"  mean score / hand   {report['mean_score']:+8.3f}   CI95 [{ci[0]:+.3f}, {ci[1]:+.3f}]"
        + (f"  (rough: under {ROUGH_BELOW} deals)" if report["ci95_rough"] else ""),
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
    if report["mode"] == "paired":
        g = report["gain_ci95"]
        lines.insert(1, f"  gain over {report['vs']} in the same seat {report['gain']:+8.3f}   "
                        f"CI95 [{g[0]:+.3f}, {g[1]:+.3f}]   same game in "
                        f"{100 * report['same_game_rate']:.1f} % of deals")
    if report["mode"] == "match":
        rc = report["rank_ci95"]
        lines.append(f"  mean rank           {report['mean_rank']:8.3f}   CI95 "
                     f"[{rc[0]:.3f}, {rc[1]:.3f}]")
    if report["faults"] or report["vs_faults"]:
        lines.append(f"  faults              {report['faults']} (candidate), "
                     f"{report['vs_faults']} (opponents): hands finished by the fallback")
    top = list(report["yaku_freq"].items())[:10]
    if top:
        lines.append("  top yaku (share of wins): "
                     + ", ".join(f"{y} {100 * f:.0f}%" for y, f in top))
    return "\n".join(lines)


class Progress:
    """Progress on a text stream (stderr): on a terminal one bar redrawn at most 5 times a
    second; elsewhere (a file, a pipe, CI) one line at most every 10 seconds and at the end,
    so a log reads line by line instead of piling redraws on one line."""

    def __init__(self, total: int, stream: TextIO | None = None, label: str = "deals") -> None:
        self.total, self.stream, self.label = total, stream or sys.stderr, label
        self.start = self.last = time.monotonic()
        self.done = 0
        isatty = getattr(self.stream, "isatty", None)
        self.tty = bool(isatty and isatty())

    def update(self, done: int) -> None:
        self.done = done
        now = time.monotonic()
        if done < self.total and now - self.last < (0.2 if self.tty else 10.0):
            return
        self.last = now
        rate = done / max(now - self.start, 1e-9)
        eta = (self.total - done) / rate if rate > 0 else 0.0
        text = f"{done}/{self.total} {self.label}  {rate:.2f}/s  ETA {eta:.0f}s"
        if self.tty:
            width = 30
            fill = int(width * done / max(self.total, 1))
            self.stream.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {text} ")
            if done >= self.total:
                self.stream.write("\n")
        else:
            self.stream.write(text + "\n")
        self.stream.flush()


def evaluate(agent: str, vs: str, deals: int, seed: int = 0, rules: RuleConfig | None = None,
             *, match: bool = False, paired: bool = False, workers: int = 1,
             progress: bool = False,
             snapshot: Callable[[dict], None] | None = None, snapshot_every: int = 50,
             log_dir: str | None = None, timeout: float | None = None,
             stderr_dir: str | None = None, progress_label: str | None = None) -> dict:
    """Run the duplicate evaluation and return the JSON-able report (see the module docstring).

    ``agent``/``vs``: agent specs (``agents.make_agent``). ``deals``: groups of four rotations
    (whole matches with ``match``; one rotation and its baseline with ``paired``). ``snapshot``:
    called with the report of the groups done so
    far every ``snapshot_every`` groups (long runs can be read while they go; a partial report
    has ``deals_done`` < ``deals``). ``log_dir``: a directory (created) that gets every game's
    event log, ``deal00012-seat2.jsonl`` for deal 12 with the candidate in seat 2
    (``match…`` with ``match``). ``timeout`` / ``stderr_dir``: for ``cmd:`` programs.
    ``progress``: a ``Progress`` line on stderr, counting ``progress_label`` (default
    ``deals``, or ``matches``).
    Raises ``ValueError`` for an unknown spec or bad counts, before anything is played, and
    :class:`Interrupted` (a ``KeyboardInterrupt`` carrying the partial report) on Ctrl-C.
    """
    from agents import make_agent
    from agents.external import check_programs
    rules = rules or RuleConfig()
    if not isinstance(deals, int) or deals < 1:
        raise ValueError(f"deals must be an int >= 1, got {deals!r}")
    if not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be an int >= 1, got {workers!r}")
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be an int >= 0, got {seed!r}")
    if match and paired:
        raise ValueError("paired mode plays single deals: give --match or --paired, not both")
    mode = "match" if match else "paired" if paired else "deal"
    options = {"timeout": timeout, "stderr_dir": stderr_dir}
    make_agent(agent, **options)   # fail fast, in this process, on a bad spec
    make_agent(vs, **options)
    check_programs((agent, vs), timeout, stderr_dir)      # and on a program that never answers
    logs = check_output_dir(log_dir, "--log")
    # load the engine before forking workers: every process then runs the same code
    for module in ("mjenv.game", "mjenv.env.actions", "mjenv.env.observation"):
        importlib.import_module(module)
    report = EvalReport(agent, vs, seed, deals, rules, mode)
    label = progress_label or ("matches" if match else "deals")
    bar = Progress(deals, label=label) if progress else None
    groups = run_groups(range(deals), _run_group, _init_worker,
                        (agent, vs, rules, seed, mode, options, logs), min(workers, deals))
    try:
        for g in groups:
            report.groups.append(g)
            if bar is not None:
                bar.update(len(report.groups))
            if snapshot is not None and len(report.groups) % snapshot_every == 0 \
                    and len(report.groups) < deals:
                snapshot(report.to_json())
    except KeyboardInterrupt:
        groups.close()
        raise Interrupted(report.to_json()) from None
    return report.to_json()


__all__ = ["EvalReport", "GroupStats", "HandStats", "Interrupted", "Progress", "agent_seed",
           "deal_seed", "evaluate", "format_table", "mean_ci95", "play_hand"]
