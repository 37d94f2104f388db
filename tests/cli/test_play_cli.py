import io

from mjenv.cli import main
from mjenv.cli.play import play_session


def test_a_scripted_person_plays_a_hand_to_its_end():
    inp = io.StringIO("hello\n0\n" + "1\n" * 400)
    out = io.StringIO()
    done = play_session(seat=1, vs="random", seed=5, hands=1, style="ascii", inp=inp, out=out)
    text = out.getvalue()
    assert done == 1
    assert "Your move:" in text and "   1. " in text
    # both wrong answers bring the menu back
    assert text.count("is not one of the choices") == 2
    assert "'hello' is not one of the choices" in text
    assert "you: " in text and "seat 0: discard" in text
    end = text.rsplit("=== hand 1 ===", 1)[1]
    assert "payments: seat 0" in end
    assert ("wins" in end and "points" in end) or "exhaustive draw" in end


def test_actions_may_be_typed_as_text():
    out = io.StringIO()
    # seat 0 deals: the first menu is its discards; answer with the text of the first one
    first = io.StringIO("")
    play_session(seat=0, vs="random", seed=9, hands=1, style="ascii", inp=first, out=out)
    menu = out.getvalue().split("Your move:\n", 1)[1].splitlines()
    action_text = menu[0].split(". ", 1)[1]
    out2 = io.StringIO()
    play_session(seat=0, vs="random", seed=9, hands=1, style="ascii",
                 inp=io.StringIO(action_text + "\nq\n"), out=out2)
    assert f"you: {action_text}" in out2.getvalue()


def test_end_of_input_leaves_the_table():
    out = io.StringIO()
    assert play_session(seat=0, vs="random", seed=1, inp=io.StringIO(""), out=out) == 0
    assert "leaving the table" in out.getvalue()


def test_cli_rejects_a_bad_agent(capsys):
    assert main(["play", "--vs", "nobody", "--seed", "1"]) == 2
    assert "nobody" in capsys.readouterr().err


def test_a_bare_tile_discards_it():
    out = io.StringIO()
    play_session(seat=0, vs="random", seed=9, hands=1, style="ascii", inp=io.StringIO(""),
                 out=out)
    menu = out.getvalue().split("Your move:\n", 1)[1].splitlines()
    tile = next(line.split("discard ", 1)[1] for line in menu if "discard " in line)
    out2 = io.StringIO()
    play_session(seat=0, vs="random", seed=9, hands=1, style="ascii",
                 inp=io.StringIO(f"{tile}\nq\n"), out=out2)
    assert f"you: discard {tile}" in out2.getvalue()
    assert "is not one of the choices" not in out2.getvalue()
    out3 = io.StringIO()                                 # a tile not in the hand is refused
    play_session(seat=0, vs="random", seed=9, hands=1, style="ascii",
                 inp=io.StringIO("8z\nq\n"), out=out3)
    assert "'8z' is not one of the choices" in out3.getvalue()


def test_opponent_turns_are_not_labelled_after_a_call():
    out = io.StringIO()
    play_session(seat=1, vs="random", seed=5, hands=1, style="ascii",
                 inp=io.StringIO("1\n" * 400), out=out)
    text = out.getvalue()
    calls = text.count(": chi ") + text.count(": pon")
    assert text.count("(after a call: discard only)") <= calls
