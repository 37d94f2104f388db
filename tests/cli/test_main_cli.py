"""``mjenv`` itself: the version, and the package metadata it comes from."""

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
