"""``mjenv train reading``: labels that are the engine's rons, a run end to end through the CLI,
the AUC it reports."""

import json
from collections import defaultdict

import numpy as np
import pytest

from agents import make_agent
from agents.search.reading import ReadingModel, opponents, unnibble
from mjenv.cli import main
from mjenv.game import Action, Hand
from mjenv.tiles import parse_tiles
from tests.game.helpers import build_wall
from training.reading import auc, record

TINY = ["--hands", "4", "--epochs", "1", "--workers", "1", "--channels", "8", "--blocks", "1",
        "--seed", "5"]


class Script:
    """Plays ``moves`` (action texts) in order, each at the first decision of its kind (a
    discard on a turn, any other in a claim window); otherwise passes or throws the tile
    drawn."""

    name, needs_observation = "script", False

    def __init__(self, moves):
        self.moves = list(moves)

    def act(self, observation, mask, view):
        from mjenv.env.actions import encode_action
        move = Action.parse(self.moves[0]) if self.moves else None
        if move is not None and (move.kind == "discard") == (view.phase == "turn"):
            self.moves.pop(0)
        elif view.phase == "turn":
            move = Action("discard", view.target_tile)
        else:
            move = Action("pass")
        return encode_action(move, view)


def test_a_wait_below_min_points_is_no_winning_tile():
    """Seat 1 waits on 1s (11 points) and 4s (1 point, under min_points 6): its label is 1s
    alone, the engine offers it no ron on 4s and a ron on 1s (after a first go-around of 7z,
    so that no 人胡 lifts the 4s)."""
    wall = build_wall({1: "123m456m789p23s55z"}, draws="7z7z7z7z4s9m1s")
    hand = Hand(wall=wall, dealer=0)
    assert set(hand.waits(1)) == set(parse_tiles("1s4s"))
    offered = []

    class Watch(Script):
        def act(self, observation, mask, view):
            if view.phase == "claim":
                offered.append((view.target_tile, any(a.kind == "ron" for a in view.legal)))
            return super().act(observation, mask, view)

    rows = record(hand, [Script([]), Watch(["pass", "ron"]), Script([]), Script([])])
    one_s, four_s = parse_tiles("1s4s")
    assert offered == [(four_s, False), (one_s, True)]
    for view, truths, concealed in rows:
        if view.seat != 1:
            truth = truths[opponents(view.seat).index(1)]
            assert truth == {one_s: truth[one_s]} and truth[one_s] >= hand.rules.min_points
            assert list(concealed[opponents(view.seat).index(1)]) == parse_tiles(
                "123m456m789p23s55z")
    assert hand.result.winners == (1,)


def test_labels_are_the_rons_the_engine_offers():
    """In every claim window of played deals, each seat's label holds the discard exactly when
    the engine offers that seat a ron on it (the labels read at the views, before any answer;
    the discarder itself aside)."""
    checked = 0
    for deal in range(4):
        agents = [make_agent("heuristic", seed=deal * 4 + s) for s in range(4)]
        rows = record(Hand(seed=100 + deal, dealer=deal % 4), agents)
        windows = defaultdict(dict)          # window → seat → (its view, its truths)
        for view, truths, _ in rows:
            if view.phase == "claim":
                key = (view.target_from, view.target_tile, sum(map(len, view.ponds)))
                windows[key][view.seat] = (view, truths)
        for (discarder, tile, _), asked in windows.items():
            rons = {s for s, (v, _) in asked.items() if any(a.kind == "ron" for a in v.legal)}
            for seat, (view, truths) in asked.items():
                for o, truth in zip(opponents(seat), truths):
                    if o != discarder:
                        assert (tile in truth) == (o in rons), (deal, seat, o, tile)
                        checked += 1
    assert checked > 60


def test_auc_counts_ties_half_and_needs_both_classes():
    assert auc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1]) == 0.75
    assert auc([0.5, 0.5, 0.5], [0, 1, 1]) == 0.5
    assert auc([0.2, 0.9], [0, 1]) == 1.0
    assert np.isnan(auc([0.2, 0.9], [1, 1]))


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reading") / "R"
    assert main(["train", "reading", "--out", str(folder), *TINY]) == 0
    return folder


def test_a_tiny_run_writes_a_loadable_model_metrics_and_a_plot(tiny_run):
    model = ReadingModel.load(tiny_run / "reading.pt")
    metrics = json.loads((tiny_run / "metrics.json").read_text())
    assert metrics["command"] == (f"mjenv train reading --out {tiny_run} --hands 4 --seed 5 "
                                  f"--workers 1 --epochs 1 --channels 8 --blocks 1")
    assert metrics["samples"]["deals"] == 1 and metrics["train_views"] > 10
    for who in ("model", "today"):
        assert set(metrics[who]) >= {"ready_auc", "tile_auc_hand", "tile_auc_unseen",
                                     "points_mae", "calibration"}
    assert model.meta["metrics"]["ready_auc"] == metrics["model"]["ready_auc"]
    assert (tiny_run / "calibration.png").read_bytes()[:4] == b"\x89PNG"
    with np.load(tiny_run / "data.npz") as data:       # opponents hold 13, 10, 7 … tiles
        assert set(unnibble(data["train_label_held"]).sum(-1).ravel() % 3) == {1}


def test_a_run_is_never_overwritten_and_its_data_trains_again(tiny_run, tmp_path, capsys):
    before = (tiny_run / "reading.pt").read_bytes()
    assert main(["train", "reading", "--out", str(tiny_run), *TINY]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "already holds a run" in err
    assert (tiny_run / "reading.pt").read_bytes() == before
    again = tmp_path / "again"
    assert main(["train", "reading", "--out", str(again), "--data",
                 str(tiny_run / "data.npz"), "--epochs", "1", "--channels", "8",
                 "--blocks", "1"]) == 0
    assert json.loads((again / "metrics.json").read_text())["train_views"] == \
        json.loads((tiny_run / "metrics.json").read_text())["train_views"]


@pytest.mark.parametrize("flags, message", [
    (["--reach", "-1"], "--reach must be >= 0"),
    (["--hands", "1"], "--hands must be >= 2"),
    (["--agent", "nobody"], "unknown agent spec"),
    (["--data", "missing.npz"], "--data missing.npz: not a reading data file"),
])
def test_mistakes_are_one_line_and_exit_2(flags, message, tmp_path, capsys):
    assert main(["train", "reading", "--out", str(tmp_path / "x"), *flags]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err, err
