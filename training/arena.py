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
agent plays every seat's tiles once. Agents are reseeded per hand from the seed, the deal and
the seat (the same in every rotation: common random numbers, ``training.duplicate``): a league
is a function of its seed.

League file (``--league FILE``, JSON lines). A ``league`` header (``version``, ``seed``,
``deals``, ``rules``); an ``agents`` line each time agents join (the roster, in order); then one
``deal`` record per table and deal as it is played: ``table`` (its four specs), ``deal``, and
``hands`` — per rotation ``seats`` (the spec in each seat), ``kind``, ``winners``,
``discarder``, ``deltas`` and ``faults`` (``[seat, reason]`` for each seat whose external program
failed: that hand is *marked*). Records are appended and flushed one by one, so an interrupted
league keeps every finished deal; ``resume`` plays only the missing ones.

The leaderboard and its pages: ``training.leaderboard``.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from mjenv.game import LogFolder
from mjenv.rules import RuleConfig
from training.duplicate import WORKER, hand_faults, play_rotation, run_groups

LEAGUE_VERSION = 2      # 2: agents seeded per seat, not per rotation (1 played other games)
FULL_SIZE = 6
#: The standard card: fixed fields, deals and seed, so cards are comparable between users.
CARD_FIELDS = ("random", "heuristic:v1", "heuristic", "ppo:pretrained")
CARD_DEALS = 2000
CARD_SEED = 20260101


class LeagueError(ValueError):
    """A league file or arguments that do not fit (one line, for the CLI)."""


def schedule(n: int) -> list[tuple[int, int, int, int]]:
    """The tables of a roster of ``n`` agents, as sorted roster indices, numbered in the
    order agents joined (so a table keeps its number when agents are added; module
    docstring)."""
    tables = []
    for k in range(3, n):              # the tables agent k joins, after those of agents < k
        if k < FULL_SIZE:
            tables += [(*three, k) for three in itertools.combinations(range(k), 3)]
        else:
            tables += [tuple(sorted((i, (i + 1) % k, (i + 2) % k, k))) for i in range(k)]
    return tables


def seating(table: Sequence[str], rotation: int) -> list[str]:
    """The spec in each seat in ``rotation``: table member ``j`` sits in seat ``(j + r) % 4``."""
    return [table[(s - rotation) % 4] for s in range(4)]


# ---- playing -------------------------------------------------------------------------------

def _init_worker(rules: RuleConfig, seed: int, options: dict, log_dir: Path | None) -> None:
    WORKER.clear()
    WORKER.update(rules=rules, seed=seed, options=options, agents={},
                  logs=None if log_dir is None else LogFolder(log_dir))


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
        if w["logs"] is not None:
            log = (w["logs"], f"table{t:03d}-deal{deal:05d}-rot{rotation}")
        (played,), _ = play_rotation(seated, w["rules"], w["seed"], deal,
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
                    raise LeagueError(f"{path}: not a league file of version {LEAGUE_VERSION} "
                                      f"(a league of another version cannot be resumed: "
                                      f"start a new file)")
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
        # read to the end, so that the pool is closed and joined rather than terminated (a
        # zip would stop at the last task and leave the generator to be collected)
        for (t, _, _), record in zip(tasks, groups, strict=True):
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


def summary(league: League, agents: Sequence[str], complete: bool) -> dict:
    """The league's facts printed above the table and with ``--json``."""
    tables = league.tables(agents)
    done = sum((table, d) in league.records for _, table in tables for d in range(league.deals))
    return {"seed": league.seed, "deals": league.deals, "rules": league.rules.to_dict(),
            "agents": len(agents), "tables": len(tables), "deals_played": done,
            "deals_total": len(tables) * league.deals, "complete": complete}


# ---- the standard card ---------------------------------------------------------------------

def card(spec: str, *, deals: int = CARD_DEALS, seed: int = CARD_SEED, workers: int = 1,
         progress: bool = False, log_dir: str | None = None, timeout: float | None = None,
         stderr_dir: str | None = None) -> dict:
    """``spec`` against each fixed field (3× each of ``CARD_FIELDS``) on the card's deals: one
    1-vs-3 duplicate evaluation per field (``training.evaluate``). Raises
    ``training.evaluate.Interrupted`` carrying the partial card on Ctrl-C."""
    from training.duplicate import Interrupted
    from training.evaluate import evaluate
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


def check_agents(agents: Sequence[str], timeout: float | None, stderr_dir: str | None) -> None:
    """``LeagueError`` unless ``agents`` are at least four distinct, buildable specs, and
    ``ValueError`` for a ``cmd:`` program that does not answer (``check_programs``)."""
    from agents import make_agent
    from agents.external import check_programs
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
    check_programs(agents, timeout, stderr_dir)                  # ... or a silent program


def check_card(spec: str, timeout: float | None, stderr_dir: str | None) -> None:
    """``ValueError`` unless ``spec`` and the card's fields can be built here (and a ``cmd:``
    program answers)."""
    from agents import make_agent
    from agents.external import check_programs
    make_agent(spec, timeout=timeout, stderr_dir=stderr_dir)
    check_programs([spec], timeout, stderr_dir)
    for name in CARD_FIELDS:
        try:
            make_agent(name)
        except ImportError as exc:
            raise ValueError(f"the card's field {name} cannot be built ({exc}): install the "
                             f"[train] extra (pip install -e \".[train]\")") from None


__all__ = ["CARD_DEALS", "CARD_FIELDS", "CARD_SEED", "FULL_SIZE", "League", "LeagueError",
           "card", "check_agents", "check_card", "open_league", "play_table_deal", "run_league",
           "schedule", "seating", "summary"]
