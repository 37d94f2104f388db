"""The 22 game-flow conformance scenarios (tests/data/game_scenarios.json), run through an
adapter from their canonical action strings to the engine (format:
shared/conformance/README.md)."""

from __future__ import annotations

import pytest

from mjenv.game import Action, Hand
from mjenv.rules import RuleConfig
from mjenv.tiles import parse_tiles

from tests.game.helpers import scenarios

SCENARIOS = scenarios()


def start(sc: dict) -> Hand:
    cfg = sc["config"]
    return Hand(RuleConfig(min_points=cfg["min_points"]), wall=sc["wall"], dealer=cfg["dealer"],
                round_wind=cfg["round_wind"], repeat=cfg["repeat"])


def apply_check(hand: Hand, check: dict, where: str) -> None:
    if "to_act" in check:
        assert set(hand.to_act) == set(check["to_act"]), where
    for seat, acts in check.get("legal", {}).items():
        got = [str(a) for a in hand.legal_actions(int(seat))]
        assert sorted(got) == sorted(acts), f"{where} seat {seat}"
        assert len(got) == len(set(got))
    for seat, acts in check.get("legal_has", {}).items():
        got = {str(a) for a in hand.legal_actions(int(seat))}
        assert set(acts) <= got, f"{where} seat {seat}: {got}"
    for seat, acts in check.get("legal_lacks", {}).items():
        got = {str(a) for a in hand.legal_actions(int(seat))}
        assert not set(acts) & got, f"{where} seat {seat}: {got}"
    if "live_wall_left" in check:
        assert hand.live_wall_left == check["live_wall_left"], where
    for seat, value in check.get("furiten", {}).items():
        assert hand.furiten(int(seat)) is value, f"{where} seat {seat}"
    for seat, tiles in check.get("hand", {}).items():
        assert hand.concealed(int(seat)) == tuple(sorted(parse_tiles(tiles))), f"{where} seat {seat}"
    for seat, melds in check.get("melds", {}).items():
        assert [str(m) for m in hand.melds(int(seat))] == melds, f"{where} seat {seat}"
    if "over" in check:
        assert hand.over is check["over"], where


@pytest.mark.parametrize("sc", SCENARIOS, ids=[s["name"] for s in SCENARIOS])
def test_scenario(sc: dict) -> None:
    hand = start(sc)
    checks: dict[int, list[dict]] = {}
    for c in sc["checks"]:
        checks.setdefault(c["at"], []).append(c)
    steps = sc["steps"]
    for i in range(len(steps) + 1):
        for c in checks.get(i, []):
            apply_check(hand, c, f"{sc['name']} before step {i}")
        if i < len(steps):
            seat, text = steps[i]
            hand.step(seat, Action.parse(text))
        hand.check_invariants()

    expect = sc["expect"]
    if "over" in expect:
        assert hand.over is expect["over"]
    if "kind" not in expect:
        return
    res = hand.result
    assert res is not None and res.kind == expect["kind"]
    assert list(res.winners) == sorted(expect["winners"])
    assert list(res.deltas) == expect["deltas"]
    for seat, p in expect.get("points", {}).items():
        assert res.scores[int(seat)].points == p
    for seat, yaku in expect.get("yaku", {}).items():
        assert dict(res.scores[int(seat)].yaku) == yaku
    for seat, ids in expect.get("yaku_has", {}).items():
        assert set(ids) <= set(res.scores[int(seat)].yaku)
    for seat, ids in expect.get("yaku_lacks", {}).items():
        assert not set(ids) & set(res.scores[int(seat)].yaku)
    if "live_wall_left" in expect:
        assert hand.live_wall_left == expect["live_wall_left"]
