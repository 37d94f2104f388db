import json

from mjenv.cli import main


def test_eval_json_is_one_object_with_the_issue_fields(capsys):
    assert main(["eval", "--agent", "heuristic", "--vs", "random", "--deals", "2",
                 "--seed", "0", "--json"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    for key in ("deals", "hands", "mean_score", "ci95", "win_rate", "deal_in_rate",
                "mean_points_per_win", "draw_rate", "tsumo_share", "below_min_complete_rate",
                "yaku_freq"):
        assert key in report
    assert report["deals"] == 2 and report["hands"] == 8
    assert "2/2 deals" in captured.err                 # the progress bar went to stderr


def test_eval_table_and_quiet_progress(capsys):
    assert main(["eval", "--agent", "random", "--vs", "random", "--deals", "1",
                 "--no-progress", "--min-points", "8"]) == 0
    captured = capsys.readouterr()
    assert "random vs 3× random" in captured.out and "'min_points': 8" in captured.out
    assert captured.err == ""


def test_eval_rejects_bad_input(capsys):
    assert main(["eval", "--agent", "nobody", "--deals", "1", "--no-progress"]) == 2
    assert "nobody" in capsys.readouterr().err
    assert main(["eval", "--deals", "0", "--no-progress"]) == 2


def test_demo_plays_a_match_then_shows_the_evaluation(capsys):
    assert main(["demo", "--ascii", "--deals", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "=== hand 1 ===" in out and "Final: #1 seat" in out
    assert "heuristic vs 3× random — 2 deals" in out


def test_eval_save_writes_the_report(tmp_path, capsys):
    path = tmp_path / "report.json"
    assert main(["eval", "--agent", "random", "--vs", "random", "--deals", "2",
                 "--no-progress", "--json", "--save", str(path)]) == 0
    saved = json.loads(path.read_text())
    assert saved == json.loads(capsys.readouterr().out)
    assert saved["deals_done"] == saved["deals"] == 2
