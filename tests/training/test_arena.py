"""The league (``training.arena``, ``mjenv arena``): schedule, seating, the league file,
resuming after Ctrl-C, agents added later, faults of external programs, the card."""

from __future__ import annotations

import itertools
import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mjenv.cli import main
from mjenv.game import read_log, replay
from tests.interrupt import interrupt, start
from training.arena import FULL_SIZE, schedule, seating

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "tests" / "agents" / "bots"
EXAMPLE = "cmd:" + shlex.join([sys.executable, str(ROOT / "agents" / "example_bot.py")])
CHEAP = ["random", "heuristic", "heuristic:nodefence", EXAMPLE]


def fault_bot(mode: str) -> str:
    return "cmd:" + shlex.join([sys.executable, str(BOTS / "fault_bot.py"), mode])


def arena(capsys, *args: str) -> tuple[int, dict]:
    code = main(["arena", *args, "--json", "--no-progress"])
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip() else {}


def test_schedule_every_four_then_three_meetings_per_newcomer():
    assert schedule(4) == [(0, 1, 2, 3)]
    assert len(schedule(5)) == 5 and len(schedule(FULL_SIZE)) == 15
    for n in range(4, 14):
        tables = schedule(n)
        assert tables == schedule(n + 1)[:len(tables)]          # later agents add tables only
        assert len(set(tables)) == len(tables)
        assert all(len(set(t)) == 4 and list(t) == sorted(t) for t in tables)
        for a, b in itertools.combinations(range(n), 2):        # every pair meets somewhere
            assert any(a in t and b in t for t in tables)
        for k in range(FULL_SIZE, n):
            mine = [t for t in tables if max(t) == k]
            assert len(mine) == k
            assert all(sum(i in t for t in mine) == 3 for i in range(k))


def test_every_agent_plays_every_seat_of_every_deal(capsys, tmp_path):
    league = tmp_path / "league.jsonl"
    code, out = arena(capsys, *CHEAP, "--deals", "2", "--league", str(league), "--seed", "4")
    assert code == 0
    lines = [json.loads(line) for line in league.read_text().splitlines()]
    assert lines[0] == {"type": "league", "version": 2, "seed": 4, "deals": 2,
                        "rules": {"min_points": 6, "rounds": 2}}
    assert lines[1] == {"type": "agents", "agents": CHEAP}
    records = lines[2:]
    assert [(r["table"], r["deal"]) for r in records] == [(CHEAP, 0), (CHEAP, 1)]
    for r in records:
        assert [h["seats"] for h in r["hands"]] == [seating(CHEAP, k) for k in range(4)]
        for spec in CHEAP:                                     # each agent in each seat once
            assert sorted(h["seats"].index(spec) for h in r["hands"]) == [0, 1, 2, 3]
        for h in r["hands"]:
            assert sum(h["deltas"]) == 0 and h["faults"] == []
    board = out["leaderboard"]
    assert sorted(e["agent"] for e in board) == sorted(CHEAP)
    assert [e["mean"] for e in board] == sorted((e["mean"] for e in board), reverse=True)
    for e in board:
        assert {"agent", "rating", "sigma", "mean", "ci95", "hands", "faults", "win_rate",
                "deal_in_rate", "tsumo_rate"} <= set(e)
        assert e["hands"] == 8 and e["faults"] == 0 and e["ci95"][0] <= e["mean"] <= e["ci95"][1]
    assert abs(sum(e["mean"] for e in board)) < 1e-9               # zero-sum at one table
    assert out["league"]["complete"] and out["league"]["deals_played"] == 2


@pytest.mark.parametrize("mode, reason", [
    ("crash", "exited"), ("hang", "did not answer within"), ("garbage", "not a JSON object"),
    ("illegal", "illegal action")])
def test_a_failing_bot_completes_the_league_with_its_faults_counted(capsys, tmp_path, mode,
                                                                      reason):
    bad = fault_bot(mode)
    agents = ["random", "heuristic", EXAMPLE, bad]
    league = tmp_path / "league.jsonl"
    started = time.monotonic()
    code, out = arena(capsys, *agents, "--deals", "2", "--timeout", "0.5", "--league",
                      str(league), "--bot-logs", str(tmp_path / "bots"))
    assert code == 0 and out["league"]["complete"]
    board = {e["agent"]: e for e in out["leaderboard"]}
    assert board[bad]["faults"] == 8                # it fails in every hand, every hand restarts
    assert all(board[a]["faults"] == 0 for a in agents if a != bad)
    assert all(e["hands"] == 8 for e in board.values())
    for line in league.read_text().splitlines()[2:]:
        for h in json.loads(line)["hands"]:
            (seat, why), = h["faults"]                     # the hand is marked, on its seat
            assert h["seats"][seat] == bad and reason in why
    logs = list((tmp_path / "bots").glob("*fault_bot.py*.log"))    # the check before play,
    assert len(logs) == 2                                           # then the league's
    assert sum(log.read_text().count(f"fault_bot {mode} started") for log in logs) == 1 + 8
    if mode == "hang":                              # at most one timeout per hand
        assert time.monotonic() - started < 8 * 0.5 + 60


def _leaderboard_of(path: Path) -> list[dict]:
    code = subprocess.run([sys.executable, "-m", "mjenv", "arena", *FIVE, "--deals", "3",
                           "--league", str(path), "--resume", "--json", "--no-progress"],
                          capture_output=True, text=True, cwd=ROOT)
    assert code.returncode == 0, code.stderr
    return json.loads(code.stdout)["leaderboard"]


FIVE = CHEAP + ["heuristic:v1"]


def test_resume_after_ctrl_c_gives_the_uninterrupted_league(capsys, tmp_path):
    whole = tmp_path / "whole.jsonl"
    code, uninterrupted = arena(capsys, *FIVE, "--deals", "3", "--league", str(whole))
    assert code == 0
    path = tmp_path / "stopped.jsonl"
    proc = start([sys.executable, "-m", "mjenv", "arena", *FIVE, "--deals", "3", "--league",
                  str(path), "--workers", "2", "--json"], cwd=ROOT)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:     # Ctrl-C once a deal is kept (14 of 15 still to play)
        if path.exists() and '"type":"deal"' in path.read_text():
            break
        time.sleep(0.05)
    interrupt(proc)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130
    assert "Traceback" not in err and "interrupted after" in err and "--resume" in err
    partial = json.loads(out)
    assert not partial["league"]["complete"]
    kept = path.read_text()
    assert kept.endswith("\n") and 1 <= kept.count('"type":"deal"') < 15
    board = _leaderboard_of(path)
    assert board == uninterrupted["leaderboard"]
    records = lambda p: sorted(line for line in p.read_text().splitlines()  # noqa: E731
                               if '"type":"deal"' in line)
    assert records(path) == records(whole)


def test_an_agent_added_later_plays_only_its_tables(capsys, tmp_path):
    path = tmp_path / "league.jsonl"
    assert arena(capsys, *CHEAP, "--deals", "2", "--league", str(path))[0] == 0
    before = path.read_text()
    code, grown = arena(capsys, *FIVE, "--deals", "2", "--league", str(path), "--resume")
    assert code == 0
    after = path.read_text()
    assert after.startswith(before)
    added = [json.loads(line) for line in after[len(before):].splitlines()]
    assert added[0] == {"type": "agents", "agents": ["heuristic:v1"]}
    assert len(added) == 1 + 4 * 2 and all("heuristic:v1" in r["table"] for r in added[1:])
    fresh = tmp_path / "fresh.jsonl"
    code, at_once = arena(capsys, *FIVE, "--deals", "2", "--league", str(fresh))
    assert grown["leaderboard"] == at_once["leaderboard"]
    # a subset of the roster: only the tables among them, nothing played
    code, subset = arena(capsys, *CHEAP, "--deals", "2", "--league", str(path), "--resume")
    assert path.read_text() == after and all(e["hands"] == 8 for e in subset["leaderboard"])


def test_league_file_mistakes_are_one_line_and_touch_nothing(capsys, tmp_path):
    path = tmp_path / "league.jsonl"
    path.write_text("my notes\n")
    assert main(["arena", *CHEAP, "--league", str(path)]) == 2
    assert "exists; add --resume" in capsys.readouterr().err
    assert path.read_text() == "my notes\n"
    assert main(["arena", *CHEAP, "--league", str(path), "--resume"]) == 2
    assert "line 1 is not a league record" in capsys.readouterr().err
    assert main(["arena", *CHEAP, "--league", str(tmp_path / "none.jsonl"), "--resume"]) == 2
    assert "no such league file" in capsys.readouterr().err
    good = tmp_path / "good.jsonl"
    assert arena(capsys, *CHEAP, "--deals", "1", "--league", str(good))[0] == 0
    assert main(["arena", *CHEAP, "--deals", "1", "--seed", "5", "--league", str(good),
                 "--resume"]) == 2
    assert "played with --seed 0, not 5" in capsys.readouterr().err
    # a record cut by a hard stop is dropped and played again
    text = good.read_text()
    good.write_text(text + text.splitlines()[-1][:40])
    code, out = arena(capsys, *CHEAP, "--deals", "1", "--league", str(good), "--resume")
    assert code == 0 and good.read_text() == text


@pytest.mark.parametrize("argv, message", [
    (["random", "heuristic", "heuristic:v1"], "at least 4 agents"),
    (["random", "heuristic", "heuristic:v1", "random"], "given twice"),
    (["random", "heuristic", "heuristic:v1", "nobody"], "unknown agent spec 'nobody'"),
    (["random", "heuristic", "heuristic:v1", "cmd:no-such-bot-x"], "not found"),
    (CHEAP + ["--deals", "0"], "--deals must be >= 1"),
    (CHEAP + ["--timeout", "0"], "--timeout must be > 0, got 0.0"),
    (CHEAP + ["--resume"], "--resume needs --league"),
    (CHEAP + ["--html", "/no/such/dir/x.html"], "does not exist"),
    (["--card", "random", "heuristic"], "not both"),
    ([], "name the agents"),
])
def test_argument_mistakes_are_one_line_before_any_work(capsys, argv, message):
    assert main(["arena", *argv, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and err.startswith("mjenv arena: ")


def test_pages_and_logs(capsys, tmp_path):
    html, md, logs = tmp_path / "board.html", tmp_path / "board.md", tmp_path / "logs" / "a"
    assert main(["arena", *CHEAP, "--deals", "1", "--html", str(html), "--markdown", str(md),
                 "--log", str(logs), "--no-progress"]) == 0
    table = capsys.readouterr().out
    assert "rating" in table and all(spec in table for spec in CHEAP)
    page = html.read_text()
    assert page.startswith("<!doctype html>") and "http" not in page.split("<body>")[0]
    assert all(f"<code>{spec.replace('&', '&amp;')}</code>" in page for spec in ["random"])
    assert md.read_text().count("\n| ") == 1 + 4
    index = [json.loads(line) for line in (logs / "index.jsonl").read_text().splitlines()]
    assert [e["rotation"] for e in index] == [0, 1, 2, 3]
    for entry in index:
        game = replay(read_log(str(logs / entry["file"])), require_hand_end=True)
        assert game.over


def test_the_card_plays_the_fixed_fields(capsys):
    code, out = arena(capsys, "--card", "random", "--deals", "1")
    assert code == 0
    card = out["card"]
    assert card["agent"] == "random" and not card["standard"]
    assert [r["field"] for r in card["rows"]] == ["3× random", "3× heuristic:v1", "3× heuristic",
                                                  "3× ppo:pretrained"]
    assert all(r["hands"] == 4 and r["ci95"][0] <= r["mean"] <= r["ci95"][1]
               for r in card["rows"])
    assert main(["arena", "--card", "random", "--deals", "1", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "NOT the standard card" in text and "3× ppo:pretrained" in text


def test_a_finished_league_closes_its_pool_rather_than_terminating_it(capsys, monkeypatch):
    """``Pool.terminate`` is for an interrupted league: a league that ran to its end reads
    every result, so that its pool of workers is closed and joined. (Reading one result
    short left the pool to be terminated when the generator was collected, and a worker's
    SIGTERM handed to one of its torch threads could leave that terminate waiting for good.)"""
    import multiprocessing.pool
    terminated = []
    terminate = multiprocessing.pool.Pool.terminate
    monkeypatch.setattr(multiprocessing.pool.Pool, "terminate",
                        lambda pool: (terminated.append(pool), terminate(pool))[1])
    code, out = arena(capsys, "random", "heuristic", "heuristic:nodefence", "heuristic:efficiency",
                      "--deals", "2", "--workers", "2")
    assert code == 0 and out["league"]["deals_played"] > 0
    assert terminated == []
