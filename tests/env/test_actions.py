"""The action codec: fixed ids, round trips, and mask ⇔ engine acceptance."""

import copy

import numpy as np
import pytest

from mjenv.env import actions as A
from mjenv.game import Action, IllegalActionError
from mjenv.tiles import parse_tile
from tests.env.helpers import random_states
from tests.scale import n


def test_ranges_partition_the_space():
    ids = sorted(i for r in A.ACTION_RANGES.values() for i in r)
    assert ids == list(range(A.NUM_ACTIONS)) and A.NUM_ACTIONS == 110


def test_contract_ids():
    assert A.encode_action(Action("discard", parse_tile("5m"))) == 4
    assert A.encode_action(Action("ankan", parse_tile("1z"))) == 34 + 27
    assert A.encode_action(Action("kakan", 0)) == 68
    assert [A.encode_action(Action(k)) for k in ("tsumo", "ron", "pon", "minkan", "pass")] == \
        [102, 103, 107, 108, 109]
    # chi 345m claimed 3m / 4m / 5m → low / mid / high
    chi = Action.parse("chi 345m")
    assert [A.encode_action(chi, parse_tile(t)) for t in ("3m", "4m", "5m")] == [104, 105, 106]


@pytest.mark.parametrize("claimed", range(34))
def test_round_trip_every_id(claimed):
    for aid in range(A.NUM_ACTIONS):
        try:
            action = A.decode_action(aid, claimed)
        except ValueError:
            # only chi positions that leave the suit (or honors) fail to decode
            assert aid in A.ACTION_RANGES["chi"]
            low = claimed - (aid - A.CHI_LOW)
            assert claimed >= 27 or low < 0 or low // 9 != claimed // 9 or low % 9 > 6
            continue
        assert A.encode_action(action, claimed) == aid
        if action.kind == "chi":
            assert action.tile <= claimed <= action.tile + 2


def test_bad_input():
    with pytest.raises(ValueError, match="not an action id"):
        A.decode_action(110)
    with pytest.raises(ValueError, match="not an action id"):
        A.decode_action(-1)
    with pytest.raises(ValueError, match="needs a claimed tile"):
        A.decode_action(A.CHI_LOW, None)
    with pytest.raises(ValueError, match="no chow"):
        A.decode_action(A.CHI_HIGH, parse_tile("2m"))
    with pytest.raises(ValueError, match="does not contain"):
        A.encode_action(Action.parse("chi 345m"), parse_tile("7m"))
    with pytest.raises(ValueError, match="claimed tile"):
        A.encode_action(Action.parse("chi 345m"))


def test_mask_bit_iff_engine_accepts():
    """For every id in many random states: mask bit set ⇔ the engine accepts the action."""
    checked = accepted = 0
    rng = np.random.default_rng(0)
    for hand, seat in random_states(seed=7, hands=n(6, 40)):
        if rng.random() > 0.35:           # a sample of the states keeps the copies affordable
            continue
        view = hand.view(seat)
        mask = A.legal_mask(view)
        assert mask.dtype == np.int8 and mask.shape == (A.NUM_ACTIONS,)
        for aid in range(A.NUM_ACTIONS):
            try:
                action = A.decode_action(aid, view)
            except ValueError:
                assert mask[aid] == 0
                continue
            if mask[aid]:
                trial = copy.deepcopy(hand)
                trial.step(seat, action)          # must not raise
                accepted += 1
            else:
                with pytest.raises(IllegalActionError):
                    hand.step(seat, action)       # refused, state untouched
            checked += 1
        # the other seats' masks are all zero, and the engine refuses them everything
        for other in set(range(4)) - set(hand.to_act):
            assert not A.legal_mask(hand.view(other)).any()
    assert accepted > 0 and checked > accepted
