"""The oracle planes hold exactly the hidden state of a deal, seen from the acting seat."""

import numpy as np

from mjenv.env import oracle as O
from mjenv.game import Hand
from tests.env.helpers import random_states
from tests.scale import n


def counts(tiles) -> np.ndarray:
    return np.bincount(np.asarray(tiles, dtype=np.int64), minlength=34)


def test_planes_hold_every_hand_and_the_wall():
    checked = 0
    for hand, _ in random_states(seed=7, hands=n(3, 20)):
        for seat in range(4):
            planes = O.encode_oracle(hand, seat)
            assert planes.shape == (O.NUM_ORACLE_PLANES, 34) and planes.dtype == np.float32
            low = np.array([p.low for p in O.ORACLE_PLANES])[:, None]
            high = np.array([p.high for p in O.ORACLE_PLANES])[:, None]
            assert (planes >= low).all() and (planes <= high).all()
            for r in range(4):
                other = (seat + r) % 4
                np.testing.assert_array_equal(planes[O.CONCEALED + r],
                                              counts(hand.concealed(other)))
                assert planes[O.CONCEALED + r].sum() == len(hand.concealed(other))
            view = hand.view(seat)
            np.testing.assert_array_equal(planes[O.CONCEALED], counts(view.hand))
            assert planes[O.LIVE].sum() == view.live_wall_left
            assert planes[O.DEAD].sum() == 14
            # Everything this seat has not seen is in another hand or in the wall …
            hidden = planes[O.CONCEALED + 1:O.DEAD + 1].sum(0)
            np.testing.assert_array_equal(hidden, view.unseen)
            # … and with the face-up tiles and its own hand, that is all 136.
            face_up = 4 - np.array(view.unseen) - counts(view.hand)
            np.testing.assert_array_equal(face_up + planes[:O.DEAD + 1].sum(0), np.full(34, 4))
            nxt = hand.live_tiles()[:O.NEXT_DRAWS]
            for k in range(O.NEXT_DRAWS):
                row = planes[O.NEXT + k]
                if k < len(nxt):
                    assert row.sum() == 1 and row[nxt[k]] == 1
                else:
                    assert row.sum() == 0
            checked += 1
    assert checked > 100


def test_next_draws_are_the_wall_in_order():
    hand = Hand(seed=11)
    planes = O.encode_oracle(hand, 1)
    wall = hand.wall
    # the dealer has drawn wall[52]; the next four live draws are wall[53:57]
    assert [int(np.argmax(planes[O.NEXT + k])) for k in range(O.NEXT_DRAWS)] == list(wall[53:57])
    np.testing.assert_array_equal(planes[O.DEAD], counts(wall[122:]))
    # seat 1 is the dealer's right: relative to seat 1 the dealer is left
    np.testing.assert_array_equal(planes[O.CONCEALED + 3], counts(hand.concealed(0)))
