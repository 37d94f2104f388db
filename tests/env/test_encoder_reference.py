"""The encoders against the reference (``tests/env/reference_encoder.py``, the encoder as it
stood before the incremental one), bit for bit, over every seat's view at every decision of
hands played by an agent that calls, kans and wins whenever it may (so melds of every kind,
robbing windows, furiten and long ponds all occur), in random hand contexts."""

from __future__ import annotations

from typing import Iterator

import numpy as np

from mjenv.env.actions import decode_action, legal_ids
from mjenv.env.core import sample_context
from mjenv.env.observation import Encoder, encode
from mjenv.game import Hand
from tests.env.reference_encoder import reference_encode
from tests.game.helpers import scenario_hand, scenarios
from tests.scale import n

EAGER = {"ron", "tsumo", "pon", "chi", "minkan", "ankan", "kakan"}


def eager_states(seed: int, hands: int) -> Iterator[tuple[Hand, int]]:
    """(hand, seat to act) at every decision of ``hands`` hands whose seats take every call,
    kan and win offered (half of the time) and otherwise act uniformly at random."""
    rng = np.random.default_rng(seed)
    for _ in range(hands):
        hand = Hand(seed=int(rng.integers(2**63)), **sample_context(rng))
        while not hand.over:
            seat = hand.to_act[0]
            yield hand, seat
            legal = hand.legal_actions(seat)
            eager = [a for a in legal if a.kind in EAGER]
            pool = eager if eager and rng.random() < 0.5 else legal
            hand.step(seat, pool[int(rng.integers(len(pool)))])


def test_encode_equals_the_reference_for_every_seat():
    kinds: set[str] = set()
    phases: set[str] = set()
    for hand, _ in eager_states(0, n(60, 400)):
        for seat in range(4):
            view = hand.view(seat)
            got = encode(view)
            assert got.dtype == np.float32 and got.shape == (168, 34)
            assert np.array_equal(got, reference_encode(view)), (seat, view)
        phases.add(hand.phase)
        kinds.update(m.kind for s in range(4) for m in hand.melds(s))
    assert phases == {"turn", "claim"} and kinds == {"chi", "pon", "minkan", "kakan", "ankan"}


def test_scenarios_match_the_reference_at_every_step():
    """The conformance scenarios: robbing windows, furiten, kans on the last tile …"""
    phases = set()
    for sc in scenarios():
        hand, steps = scenario_hand(sc["name"])
        for step in steps + [None]:
            for seat in range(4):
                view = hand.view(seat)
                assert np.array_equal(encode(view), reference_encode(view)), (sc["name"], step)
            phases.add(hand.phase)
            if step is not None:
                seat, action = step.split(" ", 1)
                hand.step(int(seat), action)
    assert "rob" in phases


def test_encode_writes_into_out_whatever_it_held():
    out = np.full((168, 34), 7.0, dtype=np.float32)
    for hand, seat in eager_states(1, 3):
        view = hand.view(seat)
        assert encode(view, out) is out
        assert np.array_equal(out, reference_encode(view))


def test_random_play_views_match_the_reference():
    rng = np.random.default_rng(2)
    for _ in range(n(20, 100)):
        hand = Hand(seed=int(rng.integers(2**63)))
        while not hand.over:
            seat = hand.to_act[0]
            view = hand.view(seat)
            assert np.array_equal(encode(view), reference_encode(view))
            ids = legal_ids(view)
            hand.step(seat, decode_action(ids[int(rng.integers(len(ids)))], view))


def test_an_encoder_following_each_seat_equals_the_reference():
    encoders: dict[int, Encoder] = {}
    last = None
    for hand, _ in eager_states(4, n(40, 300)):
        if hand is not last:                      # a new hand: the encoders carry on
            last = hand
        for seat in range(4):
            view = hand.view(seat)
            planes = encoders.setdefault(seat, Encoder()).encode(view)
            assert np.array_equal(planes, reference_encode(view)), (seat, view)


def test_an_encoder_fed_views_in_any_order_equals_the_reference():
    """Views of random seats of interleaved hands: whatever the last view was."""
    rng = np.random.default_rng(5)
    views = [hand.view(int(rng.integers(4))) for hand, _ in eager_states(5, n(8, 40))]
    encoder = Encoder()
    for i in rng.permutation(len(views)):
        assert np.array_equal(encoder.encode(views[i]), reference_encode(views[i]))
    for view in views:                            # in play order, seats mixed
        assert np.array_equal(encoder.encode(view), reference_encode(view))
