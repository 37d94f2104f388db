"""The heuristic tuner: a tiny search runs, resumes bit for bit, and refuses to overwrite."""

import json
from pathlib import Path

import pytest

from agents.heuristic.models import RiskModel
from agents.heuristic.params import HeuristicParams, load_params, save_params
from mjenv.cli import main
from training.calibrate import collect, fit
from training.tune import SPACE, TuneConfig, Tuner, field_score, values_of, with_values


@pytest.fixture(scope="module")
def start(tmp_path_factory) -> Path:
    """A starting parameter file fitted on a few self-play hands."""
    m = fit(collect("heuristic:v1", 12, seed=5, share=1.0))
    path = tmp_path_factory.mktemp("init") / "init.json"
    save_params(path, HeuristicParams(loose_tables=False, defence_model="risk", win=m.win,
                                      gain=m.gain, risk=RiskModel(m.ready, m.tile, m.value)))
    return path


def _config(out: Path, start: Path, rounds: int) -> TuneConfig:
    return TuneConfig(out=str(out), rounds=rounds, candidates=2, deals=1, confirm_deals=1,
                      init=str(start), seed=3)


def test_values_map_onto_the_parameters(start):
    base = load_params(start)
    values = values_of(base)
    assert set(values) == {d.name for d in SPACE}
    moved = with_values(base, {**values, "risk_weight": 7.5, "soft_margin": 2.4})
    assert moved.risk_weight == 7.5 and moved.soft_margin == 2


def test_field_score_is_deterministic(start):
    params = load_params(start).to_dict()
    rules = TuneConfig().rules
    assert field_score(params, 0, 1, rules) == field_score(params, 0, 1, rules)


def test_a_resumed_search_equals_an_uninterrupted_one(tmp_path, start):
    whole = Tuner(_config(tmp_path / "whole", start, 2), log=lambda m: None)
    (tmp_path / "whole").mkdir()
    whole.start()
    whole.run(progress=False)

    first = Tuner(_config(tmp_path / "split", start, 1), log=lambda m: None)
    (tmp_path / "split").mkdir()
    first.start()
    first.run(progress=False)                           # "interrupted" after one round
    second = Tuner(_config(tmp_path / "split", start, 2), log=lambda m: None)
    second.load()
    second.run(progress=False)
    assert second.state["curve"] == whole.state["curve"]
    assert load_params(tmp_path / "split" / "params.json") == \
        load_params(tmp_path / "whole" / "params.json")
    lines = (tmp_path / "whole" / "curve.csv").read_text().splitlines()
    assert len(lines) == 3 and lines[0].startswith("round,winner")


def test_the_command_runs_confirms_and_refuses_to_overwrite(tmp_path, start, capsys):
    out = tmp_path / "run"
    args = ["tune", "heuristic", "--out", str(out), "--rounds", "1", "--candidates", "2",
            "--deals", "1", "--confirm-deals", "1", "--init", str(start), "--no-progress"]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "vs_v1:" in printed and "vs_nodefence:" in printed
    confirm = json.loads((out / "confirm.json").read_text())
    assert confirm["vs_v1"]["deals"] == 1
    note = json.loads((out / "params.json").read_text())["note"]
    assert note["confirm"]["vs_v1"]["deals"] == 1 and note["rounds_done"] == 1
    before = (out / "state.json").read_text()
    assert main(args) == 2                              # an existing run: refused
    err = capsys.readouterr().err
    assert "--resume" in err and err.count("\n") == 1
    assert (out / "state.json").read_text() == before
    assert main(["tune", "heuristic", "--out", str(tmp_path / "new"), "--candidates",
                 "1"]) == 2
    assert "--candidates must be >= 2" in capsys.readouterr().err
