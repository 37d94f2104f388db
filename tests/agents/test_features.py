"""Analysis planes (agents/features.py): values agree with the heuristic's own decisions, ranges
hold on real game states, and the network input / checkpoint plumbing carries them."""

import math
from dataclasses import asdict, replace
from pathlib import Path

import numpy as np
import pytest
import torch

from agents.features import (FEATURES_VERSION, VERSIONS, Analyst, feature_version,
                             markdown_table)
from agents.heuristic import HeuristicAgent, params_for
from agents.heuristic.evaluator import Evaluator
from agents.checkpoint_file import (CheckpointError, read_checkpoint_file, save_policy_file,
                                    write_checkpoint_file)
from agents.network import NetConfig, build_net
from agents.ppo import PPOAgent
from mjenv.env.actions import decode_action, legal_mask
from mjenv.env.observation import NUM_PLANES, encode
from mjenv.game import Hand
from mjenv.rules import RuleConfig
from mjenv.tiles import parse_tiles
from tests.agents.helpers import view_of
from tests.scale import n

IDX = feature_version("analysis-v2").index      # v1's planes are v2's first rows
V1, V2 = "analysis-v1", "analysis-v2"
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("version", [V1, V2])
def test_discard_planes_of_a_ready_hand(version):
    # 123m 456m 789m 11z + 23p and a stray 9s: discarding 9s leaves a 1p/4p wait worth
    # 一气通贯-level points (yitiaolong 6 + more), so 9s is the only ready discard.
    v = view_of("123456789m23p11z9s")
    planes = Analyst(version).planes(v)
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


def test_v2_adds_the_points_of_a_ready_discard():
    """The points plane is what the tuned evaluators give the ready discard's legal wins, on
    the log scale; v1's planes are v2's first rows and v1 has no points plane."""
    v = view_of("123456789m23p11z9s")
    planes = Analyst(V2).planes(v)
    assert planes.shape == (len(feature_version(V1).planes) + 1, 34)
    s9 = parse_tiles("9s")[0]
    counts = [0] * 34
    for t in v.hand:
        counts[t] += 1
    e = Evaluator(VERSIONS[V2].evaluation).discards(counts, (), v, [s9])[s9]
    assert e.ready and e.points > v.rules.min_points
    expect = min(math.log(e.points / v.rules.min_points) / 3.0, 1.0)
    assert planes[IDX["discard_points"], s9] == pytest.approx(expect, rel=1e-6)
    assert np.count_nonzero(planes[IDX["discard_points"]]) == 1


def test_v2_sees_the_knitted_plan_where_v1_does_not():
    """147m 258p 36s 12345z + 5m: throwing the 5m leaves a ready knitted hand (十三不搭), which
    v2's evaluators plan and v1's do not."""
    v = view_of("147m258p36s12345z5m")
    m5 = parse_tiles("5m")[0]
    two = Analyst(V2).planes(v)
    assert two[IDX["discard_ready"], m5] == 1.0 and two[IDX["discard_best"]].sum() == 1.0
    assert two[IDX["discard_points"], m5] > 0
    one = Analyst(V1).planes(v)
    assert one[IDX["discard_ready"]].sum() == 0.0 and one[IDX["discard_distance"], m5] > 1 / 8


@pytest.mark.parametrize("version", [V1, V2])
def test_claim_planes_are_empty_without_a_legal_call(version):
    v = view_of("55m67m123p456p11z9s", phase="claim", target="5m", target_from=3,
                legal=["pass", "pon", "chi 567m"])
    assert (Analyst(version).planes(v)[IDX["call_legal"]] == 1.0).all()
    planes = Analyst(version).planes(view_of("55m67m123p456p11z9s", phase="claim", target="5m",
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


@pytest.mark.parametrize("version", [V1, V2])
def test_ranges_and_the_nodefence_heuristic_agrees_with_the_planes(version):
    """Without defence a heuristic of the planes' evaluators (v1's; for v2 the default with
    v2's evaluator settings) discards at the best distance and calls exactly when the call
    brings the hand closer: the planes carry what it decides on."""
    analyst = Analyst(version)
    base = params_for("v1" if version == V1 else "")
    nodefence = HeuristicAgent(replace(base, defence=False,
                                       **asdict(VERSIONS[version].evaluation)), seed=1)
    turns = claims = 0
    for view in _states(n(3, 30)):
        planes = analyst.planes(view)
        assert planes.shape == (analyst.num_planes, 34) and planes.dtype == np.float32
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


@pytest.mark.parametrize("version", [V1, V2])
def test_analysis_is_deterministic(version):
    views = list(_states(1))[:40]
    a = np.stack([Analyst(version).planes(v) for v in views])
    b = np.stack([Analyst(version).planes(v) for v in views])
    assert np.array_equal(a, b)


@pytest.mark.parametrize("version", [V1, V2])
def test_a_features_network_plays_and_round_trips_its_input_config(tmp_path, version):
    torch.manual_seed(0)
    config = NetConfig(NUM_PLANES, channels=8, blocks=1, features=version)
    assert config.input_planes == NUM_PLANES + len(VERSIONS[version].planes)
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


def test_unknown_network_input_is_refused(tmp_path):
    with pytest.raises(ValueError, match="unknown"):
        NetConfig(NUM_PLANES, features="analysis-v0")
    # a file that names it (made by a later version) is refused as a checkpoint, naming it
    path = tmp_path / "later.pt"
    save_policy_file(path, build_net(NetConfig(NUM_PLANES, channels=4, blocks=1)), RuleConfig())
    payload = read_checkpoint_file(path)
    payload["net_config"]["features"] = "analysis-v9"
    write_checkpoint_file(path, payload)
    with pytest.raises(CheckpointError, match=f"{path}: network input 'analysis-v9' is unknown"):
        PPOAgent.load(path)


def test_docs_list_the_planes():
    assert FEATURES_VERSION == V2
    assert markdown_table() in (ROOT / "docs" / "agents.md").read_text()
