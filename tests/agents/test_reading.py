"""The hand-reading model: its input is the view, exactly and alone; the shipped model reads
held-out deals better than a trivial reader."""

import numpy as np
import pytest

from agents import make_agent
from agents.search.reading import (SCALAR_INPUTS, Packed, ReadingModel, ReadingNet, inputs,
                                   opponents, pack)
from mjenv.env import observation as obs
from mjenv.game import Hand
from mjenv.game.world import sample_hidden, world
from mjenv.rules import RuleConfig
from training.reading import auc, collect, record


@pytest.fixture(scope="module")
def views():
    agents = [make_agent("heuristic", seed=s) for s in range(4)]
    return [row.view for row in record(Hand(seed=11, dealer=2, round_wind=1), agents)]


@pytest.fixture(scope="module")
def shipped():
    return ReadingModel.shipped()


def test_packed_views_give_back_the_encoded_planes(views):
    p = pack(views)
    planes = p.planes()
    for i, view in enumerate(views):
        full = obs.encode(view)
        assert np.array_equal(planes[i], full[:obs.PHASE])
        assert np.array_equal(p.consts[i], full[obs.PHASE:, 0])
        assert np.array_equal(p.binary_plane(obs.UNSEEN)[i], full[obs.UNSEEN] > 0)
    halves = Packed.concat([p.take(slice(0, 10)), p.take(slice(10, None))])
    assert all(np.array_equal(a, b) for a, b in zip(halves.arrays("").values(),
                                                      p.arrays("").values()))


def test_each_opponent_is_read_from_its_own_seat(views):
    """The input for an opponent starts with its own melds and pond, and counts the dealer
    and the viewer from it."""
    tiled, scalars = inputs(pack(views))
    dealer = slice(7, 11)                   # phase 3, offered 4, then the dealer's 4
    for i, view in enumerate(views):
        full = obs.encode(view)
        for j, o in enumerate(opponents(view.seat)):
            r = (o - view.seat) % 4
            row = 3 * i + j
            for blocks, size in ((obs.MELD_BLOCK, obs.MELD_PLANES),
                                 (obs.POND_BLOCK, obs.POND_PLANES)):
                assert np.array_equal(tiled[row, blocks[0]:blocks[0] + size],
                                      full[blocks[r]:blocks[r] + size])
            assert np.array_equal(tiled[row, :obs.MELD_BLOCK[0]], full[:obs.MELD_BLOCK[0]])
            assert scalars[row, dealer].argmax() == (view.dealer - o) % 4
    assert scalars.shape[1] == SCALAR_INPUTS


def test_the_focused_input_joins_each_discard_from_the_hand_to_its_kind(views):
    """Its last planes: the kinds the opponent threw from its hand, those it threw as drawn,
    and its last three discards from the hand, latest first."""
    tiled, _ = inputs(pack(views), "focused")
    for i, view in enumerate(views):
        for j, o in enumerate(opponents(view.seat)):
            pond = view.ponds[o]
            hand = [p.tile for p in pond if not p.tsumogiri]
            expected = np.zeros((5, 34))
            expected[0, hand] = 1
            expected[1, [p.tile for p in pond if p.tsumogiri]] = 1
            for m, tile in enumerate(reversed(hand[-3:])):
                expected[2 + m, tile] = 1
            assert np.array_equal(tiled[3 * i + j, -5:], expected)


def test_read_and_read_batch_agree_in_ascending_seats(views, shipped):
    batch = shipped.read_batch(views)
    for view, together in zip(views, batch):
        alone = shipped.read(view)
        assert [r.seat for r in alone] == sorted(set(range(4)) - {view.seat})
        for a, b in zip(alone, together):
            assert a.seat == b.seat and a.ready == pytest.approx(b.ready, abs=1e-6)
            assert np.allclose(a.tiles, b.tiles, atol=1e-6) and a.tiles.dtype == np.float64
            assert a.points == pytest.approx(b.points, abs=1e-4)
            assert 0 <= a.ready <= 1 and a.tiles.shape == (34,)
            assert a.points >= view.rules.min_points
    assert len({round(r[0].ready, 6) for r in batch}) > 10       # it reads, it does not guess


def test_a_read_is_a_function_of_the_view_alone(views, shipped):
    """A world with other hidden tiles but the same view for the seat reads the same."""
    rng = np.random.default_rng(4)
    for view in views[::5]:
        one, two = (world(view, sample_hidden(view, rng)) for _ in range(2))
        assert one.view(view.seat) == two.view(view.seat) == view
        assert any(one.concealed(o) != two.concealed(o) for o in opponents(view.seat))
        for a, b in zip(shipped.read(one.view(view.seat)), shipped.read(two.view(view.seat))):
            assert a.ready == b.ready and np.array_equal(a.tiles, b.tiles)
            assert a.points == b.points


def test_views_of_other_rules_and_other_files_are_refused(views, shipped, tmp_path):
    from dataclasses import replace
    from agents.checkpoint_file import CheckpointError
    from agents.ppo import SHIPPED

    with pytest.raises(ValueError, match="trained under"):
        shipped.read(replace(views[0], rules=RuleConfig(min_points=8)))
    with pytest.raises(CheckpointError, match="not a hand-reading model"):
        ReadingModel.load(SHIPPED["pretrained"])
    path = tmp_path / "r.pt"
    ReadingModel(ReadingNet(), RuleConfig()).save(path)
    assert ReadingModel.load(path).rules == RuleConfig()


def test_the_shipped_model_reads_held_out_deals_better_than_a_trivial_reader(shipped):
    """On deals of a seed it was not trained on: P(ready) ranks ready seats above the wall's
    progress alone, and P(t | ready) ranks winning tiles above chance; both at least as well
    as today's logistic models."""
    _, test = collect("heuristic", 6, seed=990, rules=RuleConfig(), holdout=0.5,
                      log=lambda _: None)
    ready, tiles, _ = shipped.predict(test.views)
    truth = test.labels
    progress = 1 - test.views.consts[:, obs.LIVE_WALL - obs.PHASE]
    trivial = auc(np.repeat(progress, 3), truth.ready)
    assert auc(ready, truth.ready) > max(trivial + 0.05, auc(test.baseline.ready, truth.ready))
    wins, held = truth.kinds(), truth.ready[:, :, None] & ~test.views.passed_kinds()
    assert auc(tiles[held], wins[held]) > max(0.7, auc(test.baseline.tiles[held], wins[held]))
