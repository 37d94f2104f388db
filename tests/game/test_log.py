"""Event logs: JSON-serialisable, complete, and verified by replay."""

from __future__ import annotations

import copy
import io
import json

import pytest

from mjenv.game import Hand, Match, ReplayError, dump_log, load_log, replay

from tests.game.helpers import autoplay, play, scenario_hand


def test_log_records_every_decision_and_the_outcome() -> None:
    hand, steps = scenario_hand("ron_beats_pon_and_chi")
    play(hand, *steps)
    types = [e["type"] for e in hand.log]
    assert types[0] == "deal" and types[-2:] == ["win", "end"]
    decisions = [f"{e['seat']} {e['action']}" for e in hand.log if e["type"] == "decide"]
    assert decisions == steps                        # passes and losing claims included
    win = hand.log[-2]
    assert win["wins"][0]["seat"] == 3 and win["wins"][0]["yaku"] == dict(hand.result.scores[3].yaku)
    assert win["deltas"] == list(hand.result.deltas)


def test_declined_wins_are_marked() -> None:
    hand, steps = scenario_hand("furiten_passed_ron_cleared_by_draw")
    play(hand, *steps)
    declined = [e for e in hand.log if e.get("declined_win")]
    assert [(e["seat"], e["action"]) for e in declined] == [(3, "pass")]


def test_replay_after_json_round_trip() -> None:
    hand, steps = scenario_hand("qianggang_robbing_added_kan")
    play(hand, *steps)
    buf = io.StringIO()
    dump_log(hand.log, buf)
    events = load_log(io.StringIO(buf.getvalue()))
    again = replay(events)
    assert again.log == json.loads(json.dumps(hand.log)) and again.result == hand.result


@pytest.mark.parametrize("index_of,change", [
    (lambda log: next(i for i, e in enumerate(log) if e["type"] == "draw" and i > 5),
     lambda e: e.update(tile="1m" if e["tile"] != "1m" else "2m")),
    (lambda log: next(i for i, e in enumerate(log) if e["type"] == "decide" and i > 3),
     lambda e: e.update(declined_win=True)),
    (lambda log: len(log) - 2, lambda e: e["deltas"].reverse()),
])
def test_replay_rejects_a_tampered_log_at_the_first_bad_event(index_of, change) -> None:
    hand, steps = scenario_hand("double_ron_dealer_and_nondealer")
    play(hand, *steps)
    log = copy.deepcopy(hand.log)
    i = index_of(log)
    change(log[i])
    with pytest.raises(ReplayError, match=f"event {i}"):
        replay(log)


def test_replay_checks_the_wall_against_the_seed() -> None:
    from mjenv.game import Hand
    hand = Hand(seed=21)
    log = copy.deepcopy(hand.log)
    wall = log[0]["wall"]
    j = next(j for j, t in enumerate(wall) if t != wall[0])
    wall[0], wall[j] = wall[j], wall[0]
    with pytest.raises(ReplayError, match="event 0"):
        replay(log)


def test_replay_rejects_an_illegal_decision() -> None:
    hand, steps = scenario_hand("chi_low_position")
    play(hand, *steps)
    log = copy.deepcopy(hand.log)
    i = next(i for i, e in enumerate(log) if e.get("action") == "chi 345m")
    log[i]["action"] = "chi 234m"
    with pytest.raises(ReplayError, match=f"event {i}.*not legal"):
        replay(log)


def test_replay_rejects_truncated_and_empty_logs() -> None:
    hand, steps = scenario_hand("tianhu")
    play(hand, *steps)
    with pytest.raises(ReplayError, match="ends"):
        replay(hand.log[:-1])
    with pytest.raises(ReplayError, match="empty"):
        replay([])


def test_match_log_replays() -> None:
    match = Match(seed=3)
    for _ in range(3):
        autoplay(match.hand)
        match.next_hand()
    autoplay(match.hand)
    log = json.loads(json.dumps(match.log))
    again = replay(log)
    assert isinstance(again, Match) and again.log == log
    bad = copy.deepcopy(log)
    deals = [i for i, e in enumerate(bad) if e["type"] == "deal"]
    bad[deals[2]]["scores"] = [1, -1, 0, 0]
    with pytest.raises(ReplayError, match=f"event {deals[2]}"):
        replay(bad)


def test_require_hand_end_refuses_a_log_cut_mid_hand() -> None:
    hand = Hand(seed=8)
    autoplay(hand)
    cut = [i for i, e in enumerate(hand.log) if e["type"] == "decide"][5]
    partial = replay(hand.log[:cut])                  # a game in progress replays as such
    assert isinstance(partial, Hand) and not partial.over
    with pytest.raises(ReplayError, match=f"middle of a hand, after event {cut - 1}"):
        replay(hand.log[:cut], require_hand_end=True)
    assert replay(hand.log, require_hand_end=True).over


def test_log_folder_names_files_predictably_and_never_overwrites(tmp_path) -> None:
    from mjenv.game import LogFolder, read_log

    hand = Hand(seed=3)
    autoplay(hand)
    folder = tmp_path / "a" / "b"
    logs = LogFolder(folder)
    assert folder.is_dir()
    (folder / "taken.jsonl").write_text("someone else's\n")
    first = logs.save("h", hand.log[:5])
    assert first == folder / "h.jsonl"
    assert logs.save("h", hand.log) == first             # the same log, grown: its own file
    assert read_log(str(first)) == hand.log
    assert logs.save("taken", hand.log) == folder / "taken-2.jsonl"
    assert (folder / "taken.jsonl").read_text() == "someone else's\n"
    again = LogFolder(folder)                             # a later session: h is taken now
    assert again.save("h", hand.log) == folder / "h-2.jsonl"
    assert sorted(p.name for p in folder.iterdir()) == [
        "h-2.jsonl", "h.jsonl", "taken-2.jsonl", "taken.jsonl"]          # no temporary left
    with pytest.raises(ValueError, match="plain file name"):
        logs.save("../x", hand.log)
    (tmp_path / "f").write_text("")
    with pytest.raises(NotADirectoryError):
        LogFolder(tmp_path / "f")
