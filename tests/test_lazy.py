"""Lazy package exports (``mjenv._lazy``): names and submodules load on first use."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _fresh(code: str) -> str:
    """``code``'s stdout in a fresh interpreter (nothing imported before it)."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=ROOT).stdout.strip()


def test_a_submodule_is_an_attribute_after_import_mjenv_alone():
    out = _fresh("import sys, mjenv\n"
                 "print('mjenv.pettingzoo' in sys.modules)\n"
                 "env = mjenv.pettingzoo.env()\n"
                 "print(env.possible_agents[0], mjenv.game.LogFolder.__name__)")
    assert out.splitlines() == ["False", "player_0 LogFolder"]


def test_an_unknown_name_is_still_an_attribute_error():
    import agents
    import mjenv
    for package in (mjenv, agents):
        with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
            package.no_such_name
        assert not hasattr(package, "_private")
