"""External programs as agents (``cmd:`` specs, docs/protocol.md): the messages they get, the
documentation's examples against real messages, and faults taken over by the fallback."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import pytest

from agents import make_agent
from agents.external import ExternalAgent, check_programs
from mjenv.env.play import play
from mjenv.game import Hand
from mjenv.tiles import TILE_NAMES

ROOT = Path(__file__).resolve().parents[2]
BOTS = Path(__file__).resolve().parent / "bots"
PROTOCOL = ROOT / "docs" / "protocol.md"


def bot_spec(name: str, *args: str) -> str:
    return "cmd:" + shlex.join([sys.executable, str(BOTS / name), *args])


def example_spec() -> str:
    return "cmd:" + shlex.join([sys.executable, str(ROOT / "agents" / "example_bot.py")])


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """Messages a recording bot in seat 1 received over six hands against the heuristic, and
    the engine logs of those hands."""
    path = tmp_path_factory.mktemp("record") / "messages.jsonl"
    bot = make_agent(bot_spec("record_bot.py", str(path)), seed=5,
                     stderr_dir=str(path.parent))
    seats = [make_agent("heuristic", seed=s) for s in range(4)]
    seats[1] = bot
    logs = []
    for i in range(6):
        bot.reseed(100 + i)
        hand = Hand(seed=i)
        play(hand, seats)
        assert bot.take_fault() is None
        logs.append(hand.log)
    bot.close()
    messages = [json.loads(line) for line in path.read_text().splitlines()]
    return messages, logs


def test_the_conversation_of_the_protocol(recorded):
    messages, logs = recorded
    assert messages[0] == {"type": "hello", "protocol": 1, "name": messages[0]["name"]}
    hands = []
    for m in messages[1:]:
        if m["type"] == "deal":
            hands.append([])
        hands[-1].append(m)
    assert len(hands) == len(logs) == 6
    for i, (hand, log) in enumerate(zip(hands, logs)):
        deal = hand[0]
        assert deal["seat"] == 1 and deal["rng_seed"] == 100 + i
        assert "wall" not in deal and "seed" not in deal
        assert hand[-1]["type"] == "end" and hand[-1]["deltas"] == log[-1]["deltas"]
        acts = [m for m in hand if "legal" in m]
        assert acts and all(m["type"] == "act" and m["legal"] for m in acts)
        for m in hand:
            assert m["type"] not in ("claim_window", "rob_window")
            if m["type"] == "draw" and m["seat"] != 1:
                assert m["tile"] is None
            if m["type"] == "decide" and m["seat"] != 1:
                assert m["action"].split()[0] in ("discard", "ankan", "kakan", "tsumo")
                assert "declined_win" not in m
        # the bot's answers are its decisions in the engine's log, in order
        mine = [ev["action"] for ev in log if ev["type"] == "decide" and ev["seat"] == 1]
        assert mine == [m["legal"][0] for m in acts]


def test_views_are_the_seats_view_in_the_documented_fields(recorded):
    messages, _ = recorded
    table = PROTOCOL.read_text().split("| field | meaning |")[1].split("\n\n")[0]
    documented = set()
    for row in table.splitlines()[2:]:
        documented |= set(re.findall(r"`([a-z_]+)`", row.split("|")[1]))
    for m in messages:
        if m["type"] == "act":
            view = m["view"]
            assert set(view) == documented
            assert list(view["unseen"]) == list(TILE_NAMES)
            assert len(view["hand"]) + 3 * len(view["melds"][1]) in (13, 14)


def _doc_examples() -> list[dict]:
    examples = []
    for block in re.findall(r"```json\n(.*?)```", PROTOCOL.read_text(), re.S):
        text = block.strip()
        # one object per line, except objects that continue over indented lines
        for chunk in re.split(r"\n(?=\{)", text):
            examples.append(json.loads(chunk))
    return examples


def test_the_documented_examples_have_the_fields_of_real_messages(recorded):
    messages, _ = recorded
    real: dict[str, dict] = {}
    for m in messages:
        real.setdefault(m["type"], m)
    examples = _doc_examples()
    assert {e["type"] for e in examples} >= {"hello", "deal", "draw", "decide", "call", "kan",
                                              "act", "win", "exhaustive_draw", "end"}
    for e in examples:
        if e["type"] in real:
            assert set(e) == set(real[e["type"]]), e["type"]
            if e["type"] == "act":
                assert set(e["view"]) == set(real["act"]["view"])


def test_the_minimal_bot_of_the_docs_plays(tmp_path):
    code = re.search(r"## A minimal bot\n\n```python\n(.*?)```", PROTOCOL.read_text(),
                     re.S).group(1)
    (tmp_path / "minimal.py").write_text(code)
    bot = make_agent("cmd:" + shlex.join([sys.executable, str(tmp_path / "minimal.py")]),
                     stderr_dir=str(tmp_path))
    seats = [bot] + [make_agent("random", seed=s) for s in range(3)]
    for i in range(3):
        play(Hand(seed=i), seats)
        assert bot.take_fault() is None
    bot.close()


@pytest.mark.parametrize("mode, reason", [
    ("crash", "exited with code 3"), ("hang", "did not answer within 0.3 s"),
    ("garbage", "not a JSON object"), ("illegal", "illegal action"),
    ("chatty", "before it was asked")])
def test_a_fault_hands_the_seat_to_the_fallback_and_restarts_next_hand(tmp_path, mode, reason):
    bot = make_agent(bot_spec("fault_bot.py", mode), seed=1, timeout=0.3,
                     stderr_dir=str(tmp_path))
    seats = [make_agent("random", seed=s) for s in range(4)]
    seats[2] = bot
    for i in range(3):
        bot.reseed(i)
        hand = Hand(seed=10 + i)
        play(hand, seats)                   # completes: the fallback answered legally
        assert hand.over
        fault = bot.take_fault()
        assert fault is not None and reason in fault
        assert bot.take_fault() is None     # taken once
    assert bot.faults == 3
    log = bot.stderr_path.read_text()
    assert log.count(f"fault_bot {mode} started") == 3     # restarted for every hand
    assert log.count("[mjenv] fault:") == 3
    bot.close()


def test_the_example_bot_plays_cleanly_and_reproducibly(tmp_path):
    def run() -> list:
        bot = make_agent(example_spec(), stderr_dir=str(tmp_path))
        seats = [bot] + [make_agent("heuristic", seed=s) for s in range(3)]
        out = []
        for i in range(3):
            for s, a in enumerate(seats):
                a.reseed(7 * i + s)
            hand = Hand(seed=i)
            play(hand, seats)
            assert bot.take_fault() is None
            out.append(hand.log)
        bot.close()
        return out

    assert run() == run()


def test_cmd_specs_are_checked_when_built():
    with pytest.raises(ValueError, match="cmd:PROGRAM"):
        make_agent("cmd:")
    with pytest.raises(ValueError, match="not found"):
        make_agent("cmd:no-such-program-mjenv --level 2")
    with pytest.raises(ValueError, match="cannot split"):
        make_agent('cmd:python3 "unclosed')
    with pytest.raises(ValueError, match="timeout"):
        ExternalAgent(example_spec(), timeout=0)


def test_cmd_opponents_in_the_single_agent_env(tmp_path):
    import gymnasium as gym
    path = tmp_path / "messages.jsonl"
    env = gym.make("mjenv/MahjongSingle-v0",
                   opponents=["random", bot_spec("record_bot.py", str(path)), example_spec()])
    obs, info = env.reset(seed=3)
    hands = 0
    for _ in range(400):
        mask = env.unwrapped.action_masks()
        obs, reward, terminated, truncated, info = env.step(int(mask.nonzero()[0][0]))
        if terminated:
            hands += 1
            if hands == 2:
                break
            env.reset()
    env.close()
    for opponent in env.unwrapped.opponents:
        if hasattr(opponent, "close"):
            opponent.close()
    messages = [json.loads(line) for line in path.read_text().splitlines()]
    assert [m["type"] for m in messages].count("deal") >= 2
    assert [m["type"] for m in messages].count("end") >= 1


@pytest.mark.parametrize("command, reason", [
    (["no_such_script.py"], "exited with code 2 before answering"),
    ([str(BOTS / "fault_bot.py"), "hang", "1"], "did not answer within 0.3 s"),
    ([str(BOTS / "fault_bot.py"), "garbage", "1"], "not a JSON object")])
def test_a_program_that_fails_its_first_decision_is_refused_before_play(tmp_path, command,
                                                                        reason):
    spec = "cmd:" + shlex.join([sys.executable, *command])
    with pytest.raises(ValueError, match="failed its first decision, before any play") as err:
        check_programs(["random", spec], timeout=0.3, stderr_dir=str(tmp_path))
    assert reason in str(err.value) and "\n" not in str(err.value)
    if command[0] == "no_such_script.py":           # what the program said, and where
        assert "can't open file" in str(err.value) and str(tmp_path) in str(err.value)


def test_a_program_that_answers_its_first_decision_passes_the_check(tmp_path):
    later = bot_spec("fault_bot.py", "crash", "2")  # fails later: a fault in play, not here
    check_programs([example_spec(), later, "heuristic"], timeout=5, stderr_dir=str(tmp_path))
