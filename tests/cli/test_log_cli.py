"""``--log DIR`` on ``mjenv play`` and ``mjenv demo``: the folder is made, the match's log is
written after every hand, and ``mjenv replay`` verifies it and ``mjenv view`` opens it."""

import io

from mjenv.cli import main
from mjenv.cli.play import play_session
from mjenv.game import LogFolder, Match, read_log, replay


def test_play_logs_the_match_hand_by_hand(tmp_path, capsys):
    logs = LogFolder(tmp_path / "new" / "logs")            # parents made
    out = io.StringIO()
    done = play_session(seat=2, vs="random", seed=11, hands=2, style="ascii",
                        inp=io.StringIO("1\n" * 2000), out=out, logs=logs)
    assert done == 2
    path = tmp_path / "new" / "logs" / "play-11.jsonl"
    assert f"game log: {path} (2 hand(s)" in out.getvalue()
    events = read_log(str(path))
    match = replay(events, require_hand_end=True)
    assert isinstance(match, Match) and len(match.hands) == 2 and match.hand.over
    assert main(["replay", "--verify-only", str(path)]) == 0
    assert "verified: 2 hand(s)" in capsys.readouterr().out
    assert main(["view", str(path), "-o", str(tmp_path / "page.html")]) == 0
    assert (tmp_path / "page.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_leaving_mid_hand_keeps_the_finished_hands(tmp_path, capsys):
    first = io.StringIO()
    play_session(seat=0, vs="random", seed=4, hands=1, style="ascii",
                 inp=io.StringIO("1\n" * 2000), out=first)
    answers = first.getvalue().count("Your move:")       # the person's decisions in hand 1
    out = io.StringIO()
    play_session(seat=0, vs="random", seed=4, style="ascii", out=out,
                 inp=io.StringIO("1\n" * (answers + 1) + "q\n"), logs=LogFolder(tmp_path))
    assert "leaving the table" in out.getvalue()
    assert main(["replay", "--verify-only", str(tmp_path / "play-4.jsonl")]) == 0
    assert "verified: 1 hand(s)" in capsys.readouterr().out


def test_play_and_demo_refuse_a_log_folder_that_is_a_file(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("mine")
    assert main(["play", "--log", str(blocker), "--seed", "1"]) == 2
    assert main(["demo", "--log", str(blocker / "sub")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(f"--log {blocker}" in line for line in err)
    assert blocker.read_text() == "mine"


def test_demo_logs_its_match(tmp_path, capsys):
    assert main(["demo", "--deals", "1", "--ascii", "--log", str(tmp_path / "d")]) == 0
    path = tmp_path / "d" / "demo-0.jsonl"
    assert f"game log: {path}" in capsys.readouterr().out
    match = replay(read_log(str(path)), require_hand_end=True)
    assert isinstance(match, Match) and match.over
    assert main(["view", str(path)]) == 0 and path.with_suffix(".html").exists()
