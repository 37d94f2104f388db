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
