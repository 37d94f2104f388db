"""The search agent: the blueprint wherever it does not search or finds nothing better, worlds
from the view alone, SPARTA's rule, and its specs."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents import make_agent
from agents.search import SearchAgent, SearchParams
from agents.search.agent import sparta
from mjenv.env.actions import legal_mask
from mjenv.env.play import decide
from mjenv.game import Hand
from mjenv.game.world import sample_hidden, world
from mjenv.rules import RuleConfig
from training.evaluate import evaluate

QUICK = dict(worlds=4, min_worlds=4, candidates=2, claims=True)


def test_sparta_deviates_only_on_a_gain_clear_of_noise_and_of_the_floor():
    rng = np.random.default_rng(0)
    base = rng.normal(0, 10, size=(64, 1))
    clear = base + 3.0 + rng.normal(0, 1, size=(64, 1))        # +3, se about 0.13
    noisy = base + 3.0 + rng.normal(0, 30, size=(64, 1))       # +3, se about 3.8
    small = base + 0.1 + rng.normal(0, 0.01, size=(64, 1))     # clear of noise, under the floor
    assert sparta(np.hstack([base, clear]), 2.0, 0.25)[0] == 1
    assert sparta(np.hstack([base, noisy]), 2.0, 0.25)[0] == 0
    assert sparta(np.hstack([base, small]), 2.0, 0.25)[0] == 0
    best, gains, errors = sparta(np.hstack([base, noisy, clear]), 2.0, 0.25)
    assert best == 2 and gains.shape == errors.shape == (2,)
    assert sparta(np.hstack([base, base - 1]), 0.0, 0.0)[0] == 0   # a loss is never played


def _against_blueprint(agent, seed: int) -> tuple[Hand, Hand]:
    """The deal of ``seed`` with ``agent`` in seat 1 and the heuristic elsewhere, and the same
    deal with the heuristic in seat 1 too (the same seeds)."""
    from mjenv.env.play import play
    games = []
    for player in (make_agent("heuristic"), agent):
        agents = [make_agent("heuristic") for _ in range(4)]
        agents[1] = player
        for s, a in enumerate(agents):
            a.reseed(100 * seed + s)
        games.append(Hand(RuleConfig(), seed=seed))
        play(games[-1], agents)
    return games[1], games[0]


def test_a_search_stops_early_once_no_alternative_can_clear_the_floor(monkeypatch):
    """Worlds where every candidate scores alike end the search after ``min_worlds``; a gain
    clear of the noise is played out on all ``worlds``."""
    hand = Hand(RuleConfig(), seed=21)
    players = [make_agent("heuristic", seed=s) for s in range(4)]
    while not (hand.phase == "claim" and len(hand.legal_actions(hand.to_act[0])) > 1):
        seat = hand.to_act[0]
        hand.step(seat, decide(players[seat], hand.view(seat)).action)
    view = hand.view(hand.to_act[0])
    agent = SearchAgent(SearchParams(worlds=20, min_worlds=8))
    candidates = [view.legal[0], view.legal[-1]]
    monkeypatch.setattr(agent, "rollout", lambda view, hidden, action, seeds: 0)
    assert agent.search(view, candidates).chosen == candidates[0]
    assert agent.stats.rollouts == 8 * 2
    noise = iter(np.random.default_rng(1).normal(0, 1, 1000))
    monkeypatch.setattr(agent, "rollout", lambda view, hidden, action, seeds:
                        (10 if action == candidates[1] else 0) + next(noise))
    assert agent.search(view, candidates).chosen == candidates[1]
    assert agent.stats.rollouts == 16 + 20 * 2


def test_with_its_gate_shut_it_plays_the_blueprints_very_game():
    shut = SearchAgent(SearchParams(margin=-1.0, threat=1.0, claims=False))
    for seed in range(3):
        hand, base = _against_blueprint(shut, seed)
        assert hand.log == base.log
    assert shut.stats.searched == 0 and shut.stats.decisions > 0


def test_it_searches_claims_and_never_deviates_when_told_to_trust_nothing():
    sceptic = SearchAgent(SearchParams(margin=-1.0, threat=1.0, claims=True, threshold=1e9,
                                       worlds=2, min_worlds=2))
    for seed in range(4):
        hand, base = _against_blueprint(sceptic, seed)
        assert hand.log == base.log
    assert sceptic.stats.searched > 0 and sceptic.stats.deviations == 0
    assert sceptic.stats.rollouts >= 4 * sceptic.stats.searched


def test_a_decision_reads_the_view_alone():
    """Two hands that differ only in hidden tiles but show the seat the same view get the
    same decision from agents seeded alike (the worlds come from the agent's own sampling)."""
    rng = np.random.default_rng(3)
    checked = 0
    hand = Hand(RuleConfig(), seed=21)
    players = [make_agent("heuristic", seed=s) for s in range(4)]
    while not hand.over and checked < 3:
        seat = hand.to_act[0]
        view = hand.view(seat)
        if view.phase == "claim" and len(view.legal) > 1:
            other = world(view, sample_hidden(view, rng))
            assert other.concealed((seat + 1) % 4) != hand.concealed((seat + 1) % 4)
            twin = other.view(seat)
            assert twin == view
            a, b = SearchAgent(SearchParams(**QUICK), seed=5), SearchAgent(
                SearchParams(**QUICK), seed=5)
            assert a.act(None, legal_mask(view), view) == b.act(None, legal_mask(twin), twin)
            assert a.last == b.last and a.last is not None
            checked += 1
        hand.step(seat, decide(players[seat], view).action)
    assert checked >= 1


def test_same_seed_same_game(tmp_path):
    path = tmp_path / "quick.json"
    path.write_text(json.dumps({"params": {"worlds": 2, "min_worlds": 2, "threat": 1.0,
                                           "margin": 0.05}}))
    one = evaluate(f"search:{path}", "heuristic", deals=2, seed=1, paired=True)
    assert evaluate(f"search:{path}", "heuristic", deals=2, seed=1, paired=True) == one


def test_specs_and_parameter_files(tmp_path):
    assert make_agent("search").params == SearchParams()
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"params": {"worlds": 8, "threshold": 3.0}}))
    agent = make_agent(f"search:{path}")
    assert (agent.params.worlds, agent.params.threshold, agent.name) == (8, 3.0, f"search:{path}")
    path.write_text(json.dumps({"params": {"wolds": 8}}))
    with pytest.raises(ValueError, match=r"unknown field\(s\) wolds"):
        make_agent(f"search:{path}")
    with pytest.raises(ValueError, match="no such parameter file"):
        make_agent(f"search:{tmp_path / 'missing.json'}")
    path.write_text(json.dumps({"params": {"worlds": 1}}))
    with pytest.raises(ValueError, match="worlds must be"):
        make_agent(f"search:{path}")


def test_reading_worlds_make_an_opponent_ready_as_often_as_the_shipped_model_reads_it():
    """``sampler="reading"`` draws a decision's worlds from the shipped reading model's read
    of the view: an opponent it reads as likely ready is ready in about that share of the
    worlds, where a uniform deal of the unseen tiles almost never makes it ready."""
    from agents.search.reading import ReadingModel

    reader = ReadingModel.shipped()
    agent = SearchAgent(SearchParams(sampler="reading", **QUICK), seed=2)
    hand = Hand(RuleConfig(), seed=4)
    players = [make_agent("heuristic", seed=s) for s in range(4)]
    while not hand.over:
        seat = hand.to_act[0]
        view = hand.view(seat)
        read = max(reader.read(view), key=lambda r: r.ready)
        if view.phase == "turn" and read.ready > 0.6:
            break
        hand.step(seat, decide(players[seat], view).action)
    assert not hand.over
    draw, rng, n = agent._sampler(view), np.random.default_rng(0), 60
    worlds = [world(view, draw(rng)) for _ in range(n)]
    assert all(w.view(view.seat) == view for w in worlds)
    ready = sum(bool(w.waits(read.seat)) for w in worlds) / n
    uniform = sum(bool(world(view, sample_hidden(view, rng)).waits(read.seat))
                  for _ in range(n)) / n
    assert abs(ready - read.ready) < 0.2 and uniform < 0.1
