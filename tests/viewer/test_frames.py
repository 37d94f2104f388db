"""The viewer's frames: one per event, every state the engine's, the private parts marked."""

from __future__ import annotations

import copy

import pytest

from mjenv.game import ReplayError
from mjenv.viewer import build
from tests.viewer.helpers import played_hand, played_match


def _full_states(hand_data: dict) -> list[dict]:
    state, out = {}, []
    for frame in hand_data["frames"]:
        state = {**state, **frame["state"]}
        out.append(state)
    return out


def test_a_frame_per_event_and_the_last_state_is_the_engines():
    match = played_match(seed=3)
    data = build(match.log)
    frames = [f for h in data["hands"] for f in h["frames"]]
    assert len(frames) == len(match.log)                     # every event, the header too
    assert [f["kind"] for f in frames] == [ev["type"] for ev in match.log]
    assert frames[0]["text"].startswith("match: 1 wind round, min_points 6")
    assert data["match"] and not data["cut"] and data["final_scores"] == list(match.scores)
    assert len(data["hands"]) == len(match.hands)
    for hand_data, hand in zip(data["hands"], match.hands):
        last = _full_states(hand_data)[-1]
        for s in range(4):
            assert last[f"h{s}"] == list(hand.concealed(s))
            assert [m["tiles"] for m in last[f"m{s}"]] == [list(m.tiles) for m in hand.melds(s)]
            assert last[f"p{s}"] == [[p.tile, int(p.tsumogiri), int(p.called)]
                                     for p in hand.pond(s)]
        assert last["wall"] == hand.live_wall_left and last["scores"] == list(hand.scores_after)
    assert frames[-1]["settle"]["scores"] == list(match.scores)


def test_decisions_show_the_state_before_them_and_mark_the_tile():
    hand = played_hand(seed=11)
    frames = build(hand.log)["hands"][0]["frames"]
    states = _full_states(build(hand.log)["hands"][0])
    discards = [i for i, f in enumerate(frames) if f["text"].startswith("seat ")
                and " discards " in f["text"]]
    assert discards
    for i in discards:
        seat, tile = frames[i]["pick"]
        assert tile in states[i][f"h{seat}"]                      # still in the hand
        assert states[i + 1][f"p{seat}"][-1][0] == tile           # in the river next frame


def test_private_parts_are_marked():
    hand = played_hand(seed=11)
    frames = build(hand.log)["hands"][0]["frames"]
    for ev, frame in zip(hand.log, frames):
        if ev["type"] == "draw":
            assert frame["private"] == [ev["seat"]] and ev["tile"] not in frame["public"]
        if ev["type"] in ("claim_window", "rob_window"):
            assert frame["seen"] == ev["asked"]
        if ev["type"] == "decide" and ev["action"] in ("pass", "pon", "ron") \
                and frame["kind"] == "decide" and "seen" in frame:
            assert frame["seen"] == [ev["seat"]]
    assert any("seen" in f and f["kind"] == "decide" for f in frames)


def test_settlement_has_the_yaku_breakdown_and_payments():
    hand = played_hand(seed=11)
    frames = build(hand.log)["hands"][0]["frames"]
    win = next(ev for ev in hand.log if ev["type"] == "win")
    settle = next(f["settle"] for f in frames if f["kind"] == "win")
    assert settle["deltas"] == win["deltas"] == list(hand.result.deltas)
    rows = settle["wins"][0]["yaku"]
    assert {r[0]: r[3] for r in rows} == win["wins"][0]["yaku"]
    assert all(r[1] and r[2] for r in rows)                       # 中文名 and English name
    assert sum(r[3] for r in rows) == settle["wins"][0]["points"]


def test_a_tampered_log_is_refused_and_a_cut_one_is_marked():
    hand = played_hand(seed=11)
    bad = copy.deepcopy(hand.log)
    next(ev for ev in bad if ev["type"] == "end")["scores"][0] += 1
    with pytest.raises(ReplayError):
        build(bad)
    cut = [i for i, ev in enumerate(hand.log) if ev["type"] == "decide"][10]
    data = build(hand.log[:cut])
    assert data["cut"] and len(data["hands"][0]["frames"]) == cut
