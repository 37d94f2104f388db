"""Heuristic parameter files and presets: heuristic:PATH loads what the tuner writes."""

import json
from dataclasses import replace

import pytest

from agents import make_agent
from agents.heuristic.params import (TUNED, V1, HeuristicParams, default, load_params,
                                     params_for, save_params)
from mjenv.cli import main
from tests.agents.helpers import play


def test_a_parameter_file_round_trips_and_loads_as_a_spec(tmp_path):
    tuned = default()
    changed = replace(tuned, risk_weight=tuned.risk_weight + 1.5, soft_margin=2)
    path = tmp_path / "p.json"
    save_params(path, changed, {"why": "test"})
    assert load_params(path) == changed
    agent = make_agent(f"heuristic:{path}", seed=0)
    assert agent.params == changed
    assert json.loads(path.read_text())["note"] == {"why": "test"}


def test_presets():
    assert params_for("v1") is V1 and V1.defence_model == "v1" and V1.loose_tables
    assert params_for("") == default()
    assert params_for("nodefence") == replace(default(), defence=False)
    assert not params_for("efficiency").value_planning
    if TUNED.exists():                  # the shipped default is the tuned one
        assert default().defence_model == "risk" and not default().loose_tables


@pytest.mark.parametrize("content, message", [
    (None, "no such parameter file"),
    ("{not json", "not a parameter file"),
    ('{"params": 3}', "no 'params' object"),
    ('{"params": {"colour": 1}}', "unknown field(s) colour"),
    ('{"params": {"defence_model": "psychic"}}', "defence_model must be"),
    ('{"params": {"win": [1, 2]}}', "win has 2 coefficients"),
])
def test_bad_parameter_files_are_one_line(tmp_path, capsys, content, message):
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(ValueError, match="heuristic:.*" + message.replace("(", r"\(")
                       .replace(")", r"\)")):
        make_agent(f"heuristic:{path}")
    assert main(["eval", "--agent", f"heuristic:{path}", "--deals", "1",
                 "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


def test_the_risk_model_needs_its_fitted_models():
    with pytest.raises(ValueError, match="needs the fitted"):
        HeuristicParams(defence_model="risk")


def test_the_default_plays_deterministically():
    logs = [play([make_agent("heuristic", seed=s) for s in range(4)], seed=11).log
            for _ in range(2)]
    assert logs[0] == logs[1]
