"""``mjenv plot``: the curves of a ``mjenv train ppo`` run (progress.csv) or of a ``mjenv train
rllib`` run (metrics.jsonl)."""

import json

from mjenv.cli.plot import plot_run, read_progress


def test_reads_rllib_metrics_and_draws_them(tmp_path):
    run = tmp_path / "rl"
    run.mkdir()
    lines = [{"iteration": i, "global_step": 1000 * i, "main_steps": 900 * i,
              "charts/SPS": 400.0 + i, "charts/learner_score": 0.5 * i,
              "losses/entropy": 2.0 - 0.1 * i} for i in range(1, 4)]
    (run / "metrics.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    series = read_progress(run / "metrics.jsonl")
    assert series["charts/score"] == [(1000.0, 0.5), (2000.0, 1.0), (3000.0, 1.5)]
    assert series["main_steps"][-1] == (3000.0, 2700.0)
    assert "iteration" not in series and "charts/learner_score" not in series
    png = plot_run(run)
    assert png == run / "curves.png" and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_folder_without_a_run_is_one_line(tmp_path, capsys):
    from mjenv.cli import main

    assert main(["plot", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "progress.csv not found" in err
