"""Analysis planes (agents/features.py): values agree with the heuristic's own decisions, ranges
hold on real game states, and the network input / checkpoint plumbing carries them."""

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch

from agents.features import (FEATURES_VERSION, NUM_FEATURE_PLANES, PLANES, Analyst,
                             markdown_table)
from agents.heuristic import HeuristicAgent, params_for
from agents.ppo import CheckpointError, NetConfig, PPOAgent, build_net, save_policy_file
from mjenv.env.actions import decode_action, legal_mask
from mjenv.env.observation import NUM_PLANES, encode
from mjenv.game import Hand
from mjenv.rules import RuleConfig
from mjenv.tiles import parse_tiles
from tests.agents.helpers import view_of
from tests.scale import n

IDX = {p.name: i for i, p in enumerate(PLANES)}
ROOT = Path(__file__).resolve().parents[2]


def test_discard_planes_of_a_ready_hand():
    # 123m 456m 789m 11z + 23p and a stray 9s: discarding 9s leaves a 1p/4p wait worth
    # 一气通贯-level points (yitiaolong 6 + more), so 9s is the only ready discard.
    v = view_of("123456789m23p11z9s")
    planes = Analyst().planes(v)
    s9 = parse_tiles("9s")[0]
    assert planes[IDX["discard_ready"], s9] == 1.0
    assert planes[IDX["discard_best"], s9] == 1.0
    assert planes[IDX["discard_distance"], s9] == pytest.approx(1 / 8)
    held = set(v.hand)
    for t in held - {s9}:
        assert planes[IDX["discard_ready"], t] == 0.0
        assert planes[IDX["discard_distance"], t] > 1 / 8
    # nothing outside the held kinds, no call planes on a turn
    for name in ("discard_distance", "discard_best", "discard_ready", "discard_weight"):
        assert not planes[IDX[name], [t for t in range(34) if t not in held]].any()
    assert not planes[IDX["call_legal"]].any()
    assert planes[IDX["discard_weight"], s9] > 0


def test_claim_planes_are_empty_without_a_legal_call():
    v = view_of("55m67m123p456p11z9s", phase="claim", target="5m", target_from=3,
                legal=["pass", "pon", "chi 567m"])
    assert (Analyst().planes(v)[IDX["call_legal"]] == 1.0).all()
    planes = Analyst().planes(view_of("55m67m123p456p11z9s", phase="claim", target="5m",
                                      target_from=1, legal=["pass"]))
    assert not planes[IDX["call_legal"]].any()
    for name in ("call_gain_chi_low", "call_gain_chi_mid", "call_gain_chi_high",
                 "call_gain_pon", "call_gain_kan", "discard_distance"):
        assert not planes[IDX[name]].any()


def _states(deals: int):
    agent = HeuristicAgent(seed=0)
    for deal in range(deals):
        hand = Hand(seed=500 + deal)
        while not hand.over:
            seat = hand.to_act[0]
            view = hand.view(seat)
            yield view
            hand.step(seat, decode_action(agent.act(None, legal_mask(view), view), view))


def test_ranges_and_the_nodefence_heuristic_agrees_with_the_planes():
    """Without defence the heuristic of the planes' evaluators (v1's) discards at the best
    distance and calls exactly when the call brings the hand closer: the planes carry what
    it decides on."""
    analyst = Analyst()
    nodefence = HeuristicAgent(replace(params_for("v1"), defence=False), seed=1)
    turns = claims = 0
    for view in _states(n(3, 30)):
        planes = analyst.planes(view)
        assert planes.shape == (NUM_FEATURE_PLANES, 34) and planes.dtype == np.float32
        assert np.isfinite(planes).all()
        assert planes.min() >= -1.0 and planes.max() <= 1.0
        if view.phase == "turn" and any(a.kind == "discard" for a in view.legal):
            choice = nodefence.choose(view, view.legal)
            if choice.kind == "discard":
                turns += 1
                assert planes[IDX["discard_best"], choice.tile] == 1.0
        if view.phase == "claim" and planes[IDX["call_legal"], 0] == 1.0:
            choice = nodefence.choose(view, view.legal)
            gains = {a: planes[IDX["call_gain_pon"] if a.kind == "pon" else
                               IDX["call_gain_chi_low"] + view.target_tile - a.tile, 0]
                     for a in view.legal if a.kind in ("chi", "pon")}
            if choice.kind in ("chi", "pon"):
                claims += 1
                assert gains[choice] > 0
            elif choice.kind == "pass":
                assert all(g <= 0 for g in gains.values())
    assert turns > 20 and claims > 0


def test_analysis_is_deterministic():
    views = list(_states(1))[:40]
    a = np.stack([Analyst().planes(v) for v in views])
    b = np.stack([Analyst().planes(v) for v in views])
    assert np.array_equal(a, b)


def test_a_features_network_plays_and_round_trips_its_input_config(tmp_path):
    torch.manual_seed(0)
    config = NetConfig(NUM_PLANES, channels=8, blocks=1, features=FEATURES_VERSION)
    assert config.input_planes == NUM_PLANES + NUM_FEATURE_PLANES
    path = tmp_path / "f.pt"
    save_policy_file(path, build_net(config), RuleConfig())
    agent = PPOAgent.load(path, device="cpu")
    assert agent.net.config == config
    hand = Hand(seed=3)
    while not hand.over:
        seat = hand.to_act[0]
        v = hand.view(seat)
        m = legal_mask(v)
        a = agent.act(encode(v), m, v)
        assert m[a] == 1
        hand.step(seat, decode_action(a, v))


def test_unknown_network_input_is_refused():
    with pytest.raises(CheckpointError, match="unknown"):
        NetConfig(NUM_PLANES, features="analysis-v0")


def test_docs_list_the_planes():
    assert markdown_table() in (ROOT / "docs" / "agents.md").read_text()
