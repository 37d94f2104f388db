"""``mjenv`` itself: the version, the package metadata it comes from, and the one wording of
a value out of bounds across its commands."""

import re
import subprocess
import sys
from importlib.metadata import version

import pytest

import mjenv
from mjenv.cli import main


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == f"mjenv {mjenv.__version__}\n"
    # one place for the number: the installed metadata reads mjenv.__version__
    assert version("mjenv") == mjenv.__version__


def test_version_from_the_console_script():
    out = subprocess.run([sys.executable, "-m", "mjenv", "--version"], capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == f"mjenv {mjenv.__version__}"


@pytest.mark.parametrize("argv", [
    ["eval", "--deals", "0"], ["eval", "--workers", "0"], ["eval", "--seed", "-1"],
    ["eval", "--min-points", "-1"], ["eval", "--rounds", "5"], ["eval", "--timeout", "0"],
    ["arena", "random", "heuristic", "heuristic:v1", "heuristic:efficiency", "--deals", "0"],
    ["arena", "--card", "random", "--workers", "0"],
    ["demo", "--deals", "0"], ["demo", "--rounds", "0"], ["play", "--hands", "0"],
    ["audit", "--hands", "0"], ["audit", "--workers", "0"],
    ["replay", "any.jsonl", "--delay", "-1"],
    ["score", "123m456m789m123p5s", "--win", "5s", "--dealer", "4"],
    ["score", "123m456m789m123p5s", "--win", "5s", "--dealer", "0", "--repeat", "-1"],
    ["train", "ppo", "--total-steps", "0"], ["tune", "heuristic", "--rounds", "0"],
])
def test_a_value_out_of_bounds_is_one_line_in_one_wording_and_exit_2(capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert re.fullmatch(rf"mjenv {argv[0]}( \w+)?: (bad input: )?--[a-z-]+ "
                        rf"must be (>=|<=|>) -?\d+, got -?[\d.]+\n", err), err
