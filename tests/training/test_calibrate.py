"""Calibration on self-play: labels read from the engine, fits that recover what they fit."""

import numpy as np

from agents.heuristic.models import OPPONENT_FEATURES, TILE_FEATURES, WIN_FEATURES
from mjenv.game import Hand
from training.calibrate import collect, fit, least_squares, logistic, ron_tiles


def test_logistic_and_least_squares_recover_known_coefficients():
    rng = np.random.default_rng(0)
    x = np.column_stack([np.ones(20000), rng.normal(size=(20000, 2))])
    w = np.array([-1.0, 2.0, -0.5])
    y = rng.random(20000) < 1 / (1 + np.exp(-x @ w))
    assert np.allclose(logistic(x, y, ridge=0), w, atol=0.1)
    assert np.allclose(least_squares(x, x @ w + rng.normal(0, .1, 20000), ridge=0), w,
                       atol=0.01)


def test_ron_tiles_are_the_engine_s_legal_rons():
    """In every claim window, a discard among a seat's ron tiles is offered to it as a ron;
    the labels leave out only the rare flags (绝张, 河底, 人胡) that lift a hand to min_points."""
    from agents import make_agent

    class Checker:
        name, needs_observation = "checker", False

        def __init__(self, seat):
            self.agent = make_agent("heuristic:v1", seed=seat)

        def act(self, observation, mask, view):
            if view.phase == "claim":
                offered = any(a.kind == "ron" for a in view.legal)
                labelled = view.target_tile in ron_tiles(hand, view.seat)
                assert offered or not labelled
                agree.append(offered == labelled)
            return self.agent.act(observation, mask, view)

    from mjenv.env.play import play
    agree = []
    for seed in range(8):
        hand = Hand(seed=seed)
        play(hand, [Checker(s) for s in range(4)])
    assert len(agree) > 30 and np.mean(agree) > 0.97


def test_collect_and_fit_shapes():
    samples = collect("heuristic:v1", 6, seed=1, share=1.0)
    x, y = samples.x, samples.y
    assert len(x["ready"]) == len(y["ready"]) > 0
    assert len(x["ready"][0]) == len(OPPONENT_FEATURES)
    assert len(x["win"][0]) == len(WIN_FEATURES)
    assert set(y["ready"]) <= {0.0, 1.0}
    if x["tile"]:
        assert len(x["tile"][0]) == len(TILE_FEATURES)
    models = fit(samples)
    assert len(models.ready) == len(OPPONENT_FEATURES) and len(models.win) == len(WIN_FEATURES)
