"""Text rendering: legible in 80 columns whatever width the terminal gives the tile glyphs."""

import unicodedata

import pytest

from mjenv.env.render import WIDTH, cell_width, render_table, render_view
from mjenv.game import Hand
from mjenv.tiles import TILE_NAMES, TILE_UNICODE
from tests.env.helpers import random_states
from tests.scale import n


def test_cell_width_counts_glyphs_as_wide():
    assert cell_width("ab") == 2
    assert cell_width(TILE_UNICODE[0]) == 2                 # neutral per Unicode, wide in fonts
    assert unicodedata.east_asian_width(TILE_UNICODE[33]) == "W"
    assert cell_width(TILE_UNICODE[33] + "x") == 3
    assert cell_width("流局") == 4


@pytest.mark.parametrize("style", ["unicode", "ascii"])
def test_every_line_fits_80_columns(style):
    last = None
    for hand, seat in random_states(seed=9, hands=n(3, 20)):
        for text in (render_table(hand, style=style, to_act=hand.to_act),
                     render_view(hand.view(seat), style=style)):
            for line in text.splitlines():
                assert cell_width(line) <= WIDTH, line
        last = hand
    # the finished hand shows its result
    text = render_table(last, style=style)
    assert all(cell_width(line) <= WIDTH for line in text.splitlines())
    assert ("exhaustive draw" in text) or ("wins" in text)


def test_content():
    hand, seat = next(iter(random_states(seed=1, hands=1)))
    text = render_table(hand, style="ascii", to_act=hand.to_act)
    assert "> seat 0 East (dealer)" in text and "score +0" in text
    for t in hand.concealed(1):
        assert TILE_NAMES[t] in text
    own = render_view(hand.view(1), style="ascii")
    hidden = render_view(hand.view(0), style="ascii").splitlines()
    assert "hand" in own and sum("hand " in line for line in hidden) == 1   # own hand only
    with pytest.raises(ValueError, match="style"):
        render_table(hand, style="emoji")


def test_another_seats_turn_is_not_read_as_after_a_call():
    """A seat cannot see another's drawn tile: its view must not call that turn "after a call"."""
    hand = Hand(seed=3)
    seen = {"other": 0, "own_after_call": 0, "own_drawn": 0}
    while not hand.over:
        seat = hand.to_act[0]
        if hand.phase == "turn":
            other = (seat + 1) % 4
            line = render_view(hand.view(other), style="ascii").splitlines()[1]
            assert line == f"turn of seat {seat}"
            own = render_view(hand.view(seat), style="ascii").splitlines()[1]
            after_call = hand.view(seat).target_tile is None
            assert own.endswith("(after a call: discard only)") == after_call
            seen["other"] += 1
            seen["own_after_call" if after_call else "own_drawn"] += 1
        legal = hand.legal_actions(seat)
        calls = [a for a in legal if a.kind in ("chi", "pon")]
        hand.step(seat, calls[0] if calls else legal[0])
    assert seen["own_after_call"] and seen["own_drawn"] and seen["other"]
