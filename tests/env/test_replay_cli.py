"""``mjenv replay``: verifies a log, plays it back, and refuses a tampered one."""

import json

import numpy as np

from mjenv.cli import main
from mjenv.game import Match, dump_log
from mjenv.rules import RuleConfig
from tests.env.helpers import random_states


def _played_log():
    *_, (hand, _) = list(random_states(seed=4, hands=1))
    while not hand.over:                      # finish the last decision's hand
        seat = hand.to_act[0]
        hand.step(seat, hand.legal_actions(seat)[0])
    return hand.log


def test_replay_plays_back(tmp_path, capsys):
    log = _played_log()
    path = tmp_path / "hand.jsonl"
    with open(path, "w", encoding="utf-8") as fp:
        dump_log(log, fp)
    assert main(["replay", str(path), "--delay", "0", "--ascii"]) == 0
    out = capsys.readouterr().out
    decisions = sum(ev["type"] == "decide" for ev in log)
    assert out.startswith("verified: 1 hand(s)")
    assert out.count("hand 1: seat ") == decisions
    assert ("exhaustive draw" in out) or (" wins " in out)


def _played_match(rounds: int = 1, seed: int = 5):
    match = Match(RuleConfig(rounds=rounds), seed=seed)
    rng = np.random.default_rng(0)
    while True:
        hand = match.hand
        while not hand.over:
            seat = hand.to_act[0]
            legal = hand.legal_actions(seat)
            hand.step(seat, legal[int(rng.integers(len(legal)))])
        if match.over:
            return match
        match.next_hand()


def test_replay_match_json_array(tmp_path, capsys):
    match = _played_match()
    path = tmp_path / "match.json"
    path.write_text(json.dumps(match.log), encoding="utf-8")
    assert main(["replay", str(path), "--verify-only"]) == 0
    out = capsys.readouterr().out
    assert f"verified: {len(match.hands)} hand(s)" in out and "dealt" not in out
    assert main(["replay", str(path), "--delay", "0"]) == 0
    out = capsys.readouterr().out
    assert out.count(": dealt\n") == len(match.hands)
    assert f"hand {len(match.hands)}: dealt" in out


def test_tampered_log_is_refused(tmp_path, capsys):
    log = _played_log()
    end = next(ev for ev in log if ev["type"] == "end")
    end["deltas"] = [d + 1 for d in end["deltas"]]
    path = tmp_path / "bad.jsonl"
    with open(path, "w", encoding="utf-8") as fp:
        dump_log(log, fp)
    assert main(["replay", str(path), "--delay", "0"]) == 1
    assert "does not replay" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2      # a user's mistake


def test_a_match_log_cut_mid_hand_fails(tmp_path, capsys):
    log = _played_match().log
    deals = [i for i, ev in enumerate(log) if ev["type"] == "deal"]
    # cut just before a decision: every event so far is what the engine produced
    cut = next(i for i in range(deals[-1] + 5, len(log)) if log[i]["type"] == "decide")
    path = tmp_path / "cut.jsonl"
    with open(path, "w", encoding="utf-8") as fp:
        dump_log(log[:cut], fp)
    assert main(["replay", str(path), "--verify-only"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "stops in the middle of a hand" in err
    # a match log that stops between two hands is a shorter session, not a damaged file
    with open(path, "w", encoding="utf-8") as fp:
        dump_log(log[:deals[-1]], fp)
    assert main(["replay", str(path), "--verify-only"]) == 0
    out = capsys.readouterr().out
    assert f"verified: {len(deals) - 1} hand(s)" in out and "before its last round" in out


def test_a_file_that_is_not_a_log_is_one_line(tmp_path, capsys):
    for text in ("[1, 2, 3]", "[{", "not json\n"):
        path = tmp_path / "bad.json"
        path.write_text(text, encoding="utf-8")
        assert main(["replay", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "cannot be read" in err


def test_frames_pause_only_on_a_terminal(tmp_path, capsys, monkeypatch):
    """Piped or redirected, playback does not wait between frames (a 6-hand match took 184 s
    piped at 0.5 s a frame); on a terminal it waits ``--delay`` after each."""
    path = tmp_path / "hand.jsonl"
    with open(path, "w", encoding="utf-8") as fp:
        dump_log(_played_log(), fp)
    pauses = []
    monkeypatch.setattr("mjenv.cli.replay.time.sleep", pauses.append)
    assert main(["replay", str(path), "--delay", "0.25"]) == 0
    frames = capsys.readouterr().out.count("hand 1: ")
    assert frames > 10 and pauses == []
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    assert main(["replay", str(path), "--delay", "0.25"]) == 0
    assert pauses == [0.25] * frames
