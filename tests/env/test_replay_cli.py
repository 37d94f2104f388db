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


def test_replay_match_json_array(tmp_path, capsys):
    match = Match(RuleConfig(rounds=1), seed=5)
    rng = np.random.default_rng(0)
    while True:
        hand = match.hand
        while not hand.over:
            seat = hand.to_act[0]
            legal = hand.legal_actions(seat)
            hand.step(seat, legal[int(rng.integers(len(legal)))])
        if match.over:
            break
        match.next_hand()
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
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 1
