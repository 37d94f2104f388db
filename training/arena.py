"""The league (``mjenv arena``): any number of agents, tables of four, every deal in four
rotations, a leaderboard with ratings and intervals; and the standard card of one agent.

Tables (``schedule``). The first ``FULL_SIZE`` agents of the roster (6) play every set of four
among them. Each later agent ``k`` (0-based) plays ``k`` tables: with every three roster
neighbours ``i, i+1, i+2`` (mod ``k``) among the agents before it, so it meets each of them at
three tables, and a league of ``n`` agents has about ``n²/2`` tables instead of ``C(n, 4)``.
The roster is the order in which agents joined the league, so adding an agent later plays only
its new tables.

Deals (``training.duplicate``). Every table plays deals ``0 … N−1`` of the league's seed, the
same walls at every table; each deal in four rotations, the table's agents shifted one seat
each time (agent ``j`` of the table sits in seat ``(j + r) mod 4`` in rotation ``r``), so each
agent plays every seat's tiles once. Agents are reseeded per hand from the seed, the deal, the
rotation and the seat: a league is a function of its seed.

League file (``--league FILE``, JSON lines). A ``league`` header (``version``, ``seed``,
``deals``, ``rules``); an ``agents`` line each time agents join (the roster, in order); then one
``deal`` record per table and deal as it is played: ``table`` (its four specs), ``deal``, and
``hands`` — per rotation ``seats`` (the spec in each seat), ``kind``, ``winners``,
``discarder``, ``deltas`` and ``faults`` (``[seat, reason]`` for each seat whose external program
failed: that hand is *marked*). Records are appended and flushed one by one, so an interrupted
league keeps every finished deal; ``resume`` plays only the missing ones.

Leaderboard (``training.stats``). For each agent, over every hand it played at a table of the
agents named now: ``mean`` score change per hand against the field with ``ci95`` (clustered by
deal, since one wall's hands are correlated), ``win_rate``, ``deal_in_rate``, ``tsumo_rate``
(hands won by tsumo), ``hands``, ``faults`` (hands in which its program failed; those hands
count, played by the fallback from the fault on); and a Plackett–Luce rating (``rating`` = μ,
``sigma`` = σ) from one four-player game per table and deal, ranked by each agent's score summed
over the four rotations, games taken in the canonical order (deal, then table by its sorted
specs) so that a resumed or extended league rates exactly as one played at once. Best first by
rating.
"""

from __future__ import annotations

import html
import itertools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from mjenv.rules import RuleConfig
from training.duplicate import WORKER, hand_faults, play_rotation, run_groups
from training.stats import clustered_ci95, plackett_luce

LEAGUE_VERSION = 1
FULL_SIZE = 6
#: The standard card: fixed fields, deals and seed, so cards are comparable between users.
CARD_FIELDS = ("random", "heuristic:v1", "heuristic", "ppo:pretrained")
CARD_DEALS = 2000
CARD_SEED = 20260101


class LeagueError(ValueError):
    """A league file or arguments that do not fit (one line, for the CLI)."""


def schedule(n: int) -> list[tuple[int, int, int, int]]:
    """The tables of a roster of ``n`` agents, as sorted roster indices (module docstring)."""
    tables = list(itertools.combinations(range(min(n, FULL_SIZE)), 4))
    for k in range(FULL_SIZE, n):
        tables += [tuple(sorted((i, (i + 1) % k, (i + 2) % k, k))) for i in range(k)]
    return tables


def seating(table: Sequence[str], rotation: int) -> list[str]:
    """The spec in each seat in ``rotation``: table member ``j`` sits in seat ``(j + r) % 4``."""
    return [table[(s - rotation) % 4] for s in range(4)]


# ---- playing -------------------------------------------------------------------------------

def _init_worker(rules: RuleConfig, seed: int, options: dict, log_dir: Path | None) -> None:
    WORKER.clear()
    WORKER.update(rules=rules, seed=seed, options=options, log_dir=log_dir, agents={})


def _agent(spec: str):
    from agents import make_agent
    agents = WORKER["agents"]
    if spec not in agents:
        agents[spec] = make_agent(spec, **WORKER["options"])
    return agents[spec]


def _play_hand(hand, agents: Sequence) -> dict:
    from mjenv.env.play import play
    play(hand, agents)
    r = hand.result
    return {"kind": r.kind, "winners": list(r.winners), "discarder": r.discarder,
            "deltas": list(r.deltas),
            "faults": [[seat, reason] for seat, _, reason in hand_faults(agents)]}


def play_table_deal(task: tuple[int, tuple[str, ...], int]) -> dict:
    """One ``deal`` record: table number ``t`` (for log names), its specs, the deal index."""
    t, table, deal = task
    w = WORKER
    agents = [_agent(spec) for spec in table]
    hands = []
    for rotation in range(4):
        seated = seating(agents, rotation)
        log = None
        if w["log_dir"] is not None:
            log = w["log_dir"] / f"table{t:03d}-deal{deal:05d}-rot{rotation}.jsonl"
        (played,), _ = play_rotation(seated, w["rules"], w["seed"], deal, rotation,
                                     lambda hand: _play_hand(hand, seated), log=log)
        hands.append({"seats": seating(table, rotation), **played})
    return {"type": "deal", "table": list(table), "deal": deal, "hands": hands}


@dataclass
class League:
    """A league's roster, settings and records (what the league file holds)."""

    seed: int
    deals: int
    rules: RuleConfig
    roster: list[str] = field(default_factory=list)
    records: dict[tuple[tuple[str, ...], int], dict] = field(default_factory=dict)

    def header(self) -> dict:
        return {"type": "league", "version": LEAGUE_VERSION, "seed": self.seed,
                "deals": self.deals, "rules": self.rules.to_dict()}

    def tables(self, agents: Sequence[str]) -> list[tuple[int, tuple[str, ...]]]:
        """``(table number, specs)`` of the schedule whose members are all in ``agents``."""
        named = set(agents)
        out = []
        for t, idx in enumerate(schedule(len(self.roster))):
            table = tuple(self.roster[i] for i in idx)
            if named.issuperset(table):
                out.append((t, table))
        return out

    def missing(self, agents: Sequence[str]) -> list[tuple[int, tuple[str, ...], int]]:
        """Tasks still to play for ``agents``: deal-major, so a stopped league is balanced."""
        tables = self.tables(agents)
        return [(t, table, d) for d in range(self.deals) for t, table in tables
                if (table, d) not in self.records]


def _read_league(path: Path) -> tuple[League, int]:
    """The league in ``path`` and the byte length of its complete lines (a line cut by a hard
    stop is dropped when the file is continued)."""
    data = path.read_bytes()
    complete = data[:data.rfind(b"\n") + 1]
    league = None
    for n, line in enumerate(complete.decode("utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            kind = item["type"]
            if n == 1:
                if kind != "league" or item.get("version") != LEAGUE_VERSION:
                    raise LeagueError(f"{path}: not a league file of version {LEAGUE_VERSION}")
                league = League(item["seed"], item["deals"], RuleConfig.from_dict(item["rules"]))
            elif kind == "agents":
                league.roster += [a for a in item["agents"] if a not in league.roster]
            elif kind == "deal":
                league.records[(tuple(item["table"]), item["deal"])] = item
        except LeagueError:
            raise
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise LeagueError(f"{path}: line {n} is not a league record ({exc})") from None
    if league is None:
        raise LeagueError(f"{path}: empty, not a league file")
    return league, len(complete)


def open_league(path: str | None, resume: bool, seed: int, deals: int, rules: RuleConfig
                ) -> tuple[League, Path | None, int]:
    """The league to continue (``resume``) or start; ``LeagueError`` for a file that exists
    without ``resume``, is missing with it, or was played with other settings."""
    if path is None:
        if resume:
            raise LeagueError("--resume needs --league FILE (the league to continue)")
        return League(seed, deals, rules), None, 0
    p = Path(path)
    if not resume:
        if p.exists():
            raise LeagueError(f"--league {path}: the file exists; add --resume to continue "
                              f"that league (or name a new file)")
        if not p.resolve().parent.is_dir():
            raise LeagueError(f"--league {path}: directory {p.resolve().parent} does not exist")
        return League(seed, deals, rules), p, 0
    if not p.is_file():
        raise LeagueError(f"--league {path}: no such league file to resume")
    league, size = _read_league(p)
    for name, mine, theirs in (("--seed", seed, league.seed), ("--deals", deals, league.deals),
                               ("rules", rules.to_dict(), league.rules.to_dict())):
        if mine != theirs:
            raise LeagueError(f"--league {path} was played with {name} {theirs}, not {mine}: "
                              f"give the same settings to continue it")
    return league, p, size


def run_league(league: League, agents: Sequence[str], *, path: Path | None = None,
               valid_bytes: int = 0, workers: int = 1, progress: bool = False,
               log_dir: Path | None = None, timeout: float | None = None,
               stderr_dir: str | None = None) -> bool:
    """Play the missing deals of ``agents``' tables, appending each record to ``path``;
    ``True`` when all were played, ``False`` after a Ctrl-C (what was played is kept)."""
    from training.evaluate import Progress
    new = [a for a in agents if a not in league.roster]
    league.roster += new
    tasks = league.missing(agents)
    out = None
    if path is not None:
        out = open(path, "r+b" if valid_bytes else "wb")
        out.truncate(valid_bytes)
        out.seek(valid_bytes)
        if not valid_bytes:
            _write(out, league.header())
        if new:
            _write(out, {"type": "agents", "agents": new})
    index = open(log_dir / "index.jsonl", "a", encoding="utf-8") if log_dir else None
    bar = Progress(len(tasks), label="deals") if progress and tasks else None
    options = {"timeout": timeout, "stderr_dir": stderr_dir}
    groups = run_groups(tasks, play_table_deal, _init_worker,
                        (league.rules, league.seed, options, log_dir), min(workers, len(tasks)))
    done = 0
    try:
        for (t, _, _), record in zip(tasks, groups):
            league.records[(tuple(record["table"]), record["deal"])] = record
            if out is not None:
                _write(out, record)
            if index is not None:
                for r, h in enumerate(record["hands"]):
                    index.write(json.dumps({
                        "file": f"table{t:03d}-deal{record['deal']:05d}-rot{r}.jsonl",
                        "deal": record["deal"], "rotation": r, "seats": h["seats"],
                        "faults": h["faults"]}) + "\n")
                index.flush()
            done += 1
            if bar is not None:
                bar.update(done)
    except KeyboardInterrupt:
        groups.close()
        return False
    finally:
        for f in (out, index):
            if f is not None:
                f.close()
    return True


def _write(out, item: dict) -> None:
    out.write((json.dumps(item, ensure_ascii=False, separators=(",", ":")) + "\n").encode())
    out.flush()


# ---- the leaderboard -----------------------------------------------------------------------

def leaderboard(league: League, agents: Sequence[str]) -> list[dict]:
    """One entry per agent (module docstring), best first."""
    named = set(agents)
    records = sorted((r for (table, _), r in league.records.items() if named.issuperset(table)),
                     key=lambda r: (r["deal"], sorted(r["table"])))
    per_agent: dict[str, dict] = {a: {"deals": {}, "hands": []} for a in agents}
    games = []
    for record in records:
        totals = {a: 0 for a in record["table"]}
        for h in record["hands"]:
            faulted = {seat for seat, _ in h["faults"]}
            for seat, spec in enumerate(h["seats"]):
                delta = h["deltas"][seat]
                totals[spec] += delta
                won = seat in h["winners"]
                row = (delta, won, won and h["kind"] == "tsumo",
                       h["kind"] == "ron" and h["discarder"] == seat, seat in faulted)
                per_agent[spec]["hands"].append(row)
                per_agent[spec]["deals"].setdefault(record["deal"], []).append(row)
        games.append((record["table"], [totals[a] for a in record["table"]]))
    ratings = plackett_luce(games)
    board = []
    for a in agents:
        hands, clusters = per_agent[a]["hands"], list(per_agent[a]["deals"].values())
        mean, ci = clustered_ci95([[row[0] for row in c] for c in clusters])
        n = len(hands)
        mu, sigma = ratings.get(a, (25.0, 25 / 3))
        board.append({
            "agent": a, "rating": mu, "sigma": sigma, "mean": mean, "ci95": ci,
            "win_rate": sum(r[1] for r in hands) / n if n else 0.0,
            "deal_in_rate": sum(r[3] for r in hands) / n if n else 0.0,
            "tsumo_rate": sum(r[2] for r in hands) / n if n else 0.0,
            "hands": n, "faults": sum(r[4] for r in hands),
        })
    board.sort(key=lambda e: (-e["rating"], -e["mean"], e["agent"]))
    return board


def summary(league: League, agents: Sequence[str], complete: bool) -> dict:
    """The league's facts printed above the table and with ``--json``."""
    tables = league.tables(agents)
    done = sum((table, d) in league.records for _, table in tables for d in range(league.deals))
    return {"seed": league.seed, "deals": league.deals, "rules": league.rules.to_dict(),
            "agents": len(agents), "tables": len(tables), "deals_played": done,
            "deals_total": len(tables) * league.deals, "complete": complete}


def format_leaderboard(board: list[dict], facts: dict) -> str:
    """The terminal table."""
    width = max([len(e["agent"]) for e in board] + [5])
    lines = ["league: " + _facts_line(facts),
             f"{'#':>2}  {'agent':<{width}}  {'rating':>6} {'±σ':>5}  {'mean/hand':>9}  "
             f"{'CI95':<17}  {'win':>6} {'deal-in':>7} {'tsumo':>6}  {'hands':>6} {'faults':>6}"]
    for k, e in enumerate(board, 1):
        lo, hi = e["ci95"]
        lines.append(
            f"{k:>2}  {e['agent']:<{width}}  {e['rating']:6.2f} {e['sigma']:5.2f}  "
            f"{e['mean']:+9.2f}  [{lo:+6.2f}, {hi:+6.2f}]  {_pct(e['win_rate']):>6} "
            f"{_pct(e['deal_in_rate']):>7} {_pct(e['tsumo_rate']):>6}  {e['hands']:>6} "
            f"{e['faults']:>6}")
    return "\n".join(lines)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def markdown_leaderboard(board: list[dict], facts: dict) -> str:
    """The leaderboard as a Markdown page."""
    lines = ["# League", "", _facts_line(facts), "",
             "| # | agent | rating | σ | mean / hand | CI95 | win | deal-in | tsumo | hands | "
             "faults |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for k, e in enumerate(board, 1):
        lo, hi = e["ci95"]
        lines.append(f"| {k} | `{e['agent']}` | {e['rating']:.2f} | {e['sigma']:.2f} | "
                     f"{e['mean']:+.2f} | [{lo:+.2f}, {hi:+.2f}] | {_pct(e['win_rate'])} | "
                     f"{_pct(e['deal_in_rate'])} | {_pct(e['tsumo_rate'])} | {e['hands']} | "
                     f"{e['faults']} |")
    lines += ["", _METHOD]
    return "\n".join(lines) + "\n"


_METHOD = ("Rating: openskill Plackett–Luce μ and σ, one four-player game per table and deal "
           "(scores summed over the deal's four rotations). Mean: score change per hand "
           "against the field, 95 % interval clustered by deal. Faults: hands in which the "
           "agent's program failed and the fallback finished its seat.")


def _facts_line(facts: dict) -> str:
    tables = f"{facts['tables']} table{'s' if facts['tables'] != 1 else ''}"
    line = (f"{facts['agents']} agents, {tables} × {facts['deals']} deals × 4 rotations, "
            f"seed {facts['seed']}, rules {facts['rules']}")
    if facts["deals_played"] < facts["deals_total"]:
        line += f" ({facts['deals_played']} of {facts['deals_total']} table-deals played)"
    return line


def html_leaderboard(board: list[dict], facts: dict) -> str:
    """The leaderboard as one self-contained HTML page (each CI drawn on a common axis)."""
    lows = [e["ci95"][0] for e in board] + [0.0]
    highs = [e["ci95"][1] for e in board] + [0.0]
    lo, hi = min(lows), max(highs)
    span = (hi - lo) or 1.0

    def x(v: float) -> float:
        return 4 + 152 * (v - lo) / span

    rows = []
    for k, e in enumerate(board, 1):
        a, b = e["ci95"]
        bar = (f'<svg width="160" height="14" role="img" aria-label="CI95">'
               f'<line x1="{x(0):.1f}" y1="0" x2="{x(0):.1f}" y2="14" class="zero"/>'
               f'<line x1="{x(a):.1f}" y1="7" x2="{x(b):.1f}" y2="7" class="ci"/>'
               f'<circle cx="{x(e["mean"]):.1f}" cy="7" r="3" class="mean"/></svg>')
        rows.append(
            f"<tr><td>{k}</td><td><code>{html.escape(e['agent'])}</code></td>"
            f"<td>{e['rating']:.2f}</td><td>{e['sigma']:.2f}</td><td>{e['mean']:+.2f}</td>"
            f"<td>[{a:+.2f}, {b:+.2f}]</td><td>{bar}</td><td>{_pct(e['win_rate'])}</td>"
            f"<td>{_pct(e['deal_in_rate'])}</td><td>{_pct(e['tsumo_rate'])}</td>"
            f"<td>{e['hands']}</td><td>{e['faults']}</td></tr>")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mjenv league</title>
<style>
body {{ font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; }}
th, td {{ padding: 4px 10px; border-bottom: 1px solid #ddd; text-align: right; }}
td:nth-child(2), th:nth-child(2) {{ text-align: left; }}
th {{ background: #f3f3f3; }}
.zero {{ stroke: #999; stroke-dasharray: 2 2; }}
.ci {{ stroke: #2a6fb0; stroke-width: 3; }}
.mean {{ fill: #c0392b; }}
p.note {{ color: #555; max-width: 60em; }}
</style></head><body>
<h1>League</h1>
<p>{html.escape(_facts_line(facts))}</p>
<table>
<tr><th>#</th><th>agent</th><th>rating</th><th>σ</th><th>mean / hand</th><th>CI95</th>
<th>{lo:+.1f} … {hi:+.1f}</th><th>win</th><th>deal-in</th><th>tsumo</th><th>hands</th>
<th>faults</th></tr>
{chr(10).join(rows)}
</table>
<p class="note">{html.escape(_METHOD)}</p>
</body></html>
"""


# ---- the standard card ---------------------------------------------------------------------

def card(spec: str, *, deals: int = CARD_DEALS, seed: int = CARD_SEED, workers: int = 1,
         progress: bool = False, log_dir: str | None = None, timeout: float | None = None,
         stderr_dir: str | None = None) -> dict:
    """``spec`` against each fixed field (3× each of ``CARD_FIELDS``) on the card's deals: one
    1-vs-3 duplicate evaluation per field (``training.evaluate``). Raises
    ``training.evaluate.Interrupted`` carrying the partial card on Ctrl-C."""
    from training.evaluate import Interrupted, evaluate
    out = {"agent": spec, "seed": seed, "deals": deals,
           "standard": deals == CARD_DEALS and seed == CARD_SEED, "rows": []}
    for name in CARD_FIELDS:
        logs = None if log_dir is None else str(Path(log_dir) / name.replace(":", "_"))
        try:
            report = evaluate(spec, name, deals, seed, workers=workers, progress=progress,
                              log_dir=logs, timeout=timeout, stderr_dir=stderr_dir)
        except Interrupted as stop:
            if stop.report["deals_done"]:
                out["rows"].append(_card_row(name, stop.report))
            raise Interrupted(out) from None
        out["rows"].append(_card_row(name, report))
    return out


def _card_row(name: str, report: dict) -> dict:
    return {"field": f"3× {name}", "mean": report["mean_score"], "ci95": report["ci95"],
            "win_rate": report["win_rate"], "win_rate_ci95": report["win_rate_ci95"],
            "deal_in_rate": report["deal_in_rate"],
            "deal_in_rate_ci95": report["deal_in_rate_ci95"],
            "deals": report["deals_done"], "hands": report["hands"],
            "faults": report["faults"]}


def format_card(c: dict) -> str:
    """The card as one terminal table."""
    note = "standard card" if c["standard"] else "NOT the standard card (other deals or seed)"
    lines = [f"card of {c['agent']} — {c['deals']} deals × 4 seats per field, seed {c['seed']}, "
             f"{note}",
             f"{'field':<18} {'mean/hand':>9}  {'CI95':<17}  {'win':>6} {'CI95':<15}  "
             f"{'deal-in':>7} {'CI95':<15}  {'hands':>6} {'faults':>6}"]
    for r in c["rows"]:
        lines.append(
            f"{r['field']:<18} {r['mean']:+9.2f}  [{r['ci95'][0]:+6.2f}, {r['ci95'][1]:+6.2f}]  "
            f"{_pct(r['win_rate']):>6} {_interval(r['win_rate_ci95']):<15}  "
            f"{_pct(r['deal_in_rate']):>7} {_interval(r['deal_in_rate_ci95']):<15}  "
            f"{r['hands']:>6} {r['faults']:>6}")
    return "\n".join(lines)


def markdown_card(c: dict) -> str:
    """The card as a Markdown table."""
    note = "standard card" if c["standard"] else "not the standard card (other deals or seed)"
    lines = [f"Card of `{c['agent']}`: {c['deals']} deals × 4 seats per field, seed {c['seed']}, "
             f"{note}.", "",
             "| field | mean / hand | CI95 | win | deal-in | hands | faults |",
             "|---|---|---|---|---|---|---|"]
    for r in c["rows"]:
        lines.append(f"| {r['field']} | {r['mean']:+.2f} | [{r['ci95'][0]:+.2f}, "
                     f"{r['ci95'][1]:+.2f}] | {_pct(r['win_rate'])} | "
                     f"{_pct(r['deal_in_rate'])} | {r['hands']} | {r['faults']} |")
    return "\n".join(lines) + "\n"


def _interval(ci: Sequence[float]) -> str:
    return f"[{_pct(max(ci[0], 0.0))}, {_pct(ci[1])}]"


def check_agents(agents: Sequence[str], timeout: float | None, stderr_dir: str | None) -> None:
    """``LeagueError`` unless ``agents`` are at least four distinct, buildable specs."""
    from agents import make_agent
    seen = set()
    for a in agents:
        if a in seen:
            raise LeagueError(f"agent {a!r} is given twice: each agent plays once per table")
        seen.add(a)
    if len(agents) < 4:
        raise LeagueError(f"a league needs at least 4 agents (tables of four), got "
                          f"{len(agents)}; for one agent against another use mjenv eval")
    for a in agents:
        make_agent(a, timeout=timeout, stderr_dir=stderr_dir)    # ValueError names a bad one


def check_card(spec: str, timeout: float | None, stderr_dir: str | None) -> None:
    """``ValueError`` unless ``spec`` and the card's fields can be built here."""
    from agents import make_agent
    make_agent(spec, timeout=timeout, stderr_dir=stderr_dir)
    for name in CARD_FIELDS:
        try:
            make_agent(name)
        except ImportError as exc:
            raise ValueError(f"the card's field {name} cannot be built ({exc}): install the "
                             f"[train] extra (pip install -e \".[train]\")") from None


__all__ = ["CARD_DEALS", "CARD_FIELDS", "CARD_SEED", "FULL_SIZE", "League", "LeagueError",
           "card", "check_agents", "check_card", "format_card", "format_leaderboard", "html_leaderboard",
           "leaderboard", "markdown_card", "markdown_leaderboard", "open_league", "play_table_deal", "run_league",
           "schedule", "seating", "summary"]
