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
    # the evaluation plays single hands: no wind-round count beside the one-round match
    assert "rules {'min_points': 6}" in out and "rounds" not in out
    assert main(["eval", "--agent", "random", "--vs", "random", "--deals", "1", "--match",
                 "--rounds", "1", "--no-progress"]) == 0
    assert "rules {'min_points': 6, 'rounds': 1}" in capsys.readouterr().out


def test_eval_save_writes_the_report(tmp_path, capsys):
    path = tmp_path / "report.json"
    assert main(["eval", "--agent", "random", "--vs", "random", "--deals", "2",
                 "--no-progress", "--json", "--save", str(path)]) == 0
    saved = json.loads(path.read_text())
    assert saved == json.loads(capsys.readouterr().out)
    assert saved["deals_done"] == saved["deals"] == 2


def test_eval_save_into_a_missing_directory_is_one_line_before_any_work(capsys, tmp_path):
    target = tmp_path / "missing" / "x.json"
    assert main(["eval", "--deals", "50", "--save", str(target)]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "does not exist" in captured.err
    assert "deals" not in captured.err and captured.out == ""      # no bar: nothing was played
    assert not target.parent.exists()


def test_eval_rejects_a_bad_timeout_and_an_unusable_log_dir(capsys, tmp_path):
    assert main(["eval", "--deals", "1", "--timeout", "-1", "--no-progress"]) == 2
    assert "--timeout must be > 0, got -1.0" in capsys.readouterr().err
    blocker = tmp_path / "file"
    blocker.write_text("mine")
    assert main(["eval", "--deals", "1", "--log", str(blocker / "logs"), "--no-progress"]) == 2
    assert "cannot create the directory" in capsys.readouterr().err
    assert blocker.read_text() == "mine"


def test_eval_log_writes_one_verified_log_per_hand_or_match(capsys, tmp_path):
    from mjenv.game import Hand, Match, read_log, replay
    logs = tmp_path / "new" / "logs"
    assert main(["eval", "--agent", "heuristic", "--vs", "random", "--deals", "2",
                 "--no-progress", "--log", str(logs)]) == 0
    names = sorted(p.name for p in logs.iterdir())
    assert names == [f"deal{d:05d}-seat{s}.jsonl" for d in range(2) for s in range(4)]
    for name in names:
        assert main(["replay", "--verify-only", str(logs / name)]) == 0
        assert isinstance(replay(read_log(str(logs / name)), require_hand_end=True), Hand)
    matches = tmp_path / "matches"
    # heuristic tables end a one-round match in a few hands (random ones draw and repeat)
    assert main(["eval", "--agent", "heuristic", "--vs", "heuristic", "--deals", "1",
                 "--match", "--rounds", "1", "--no-progress", "--log", str(matches)]) == 0
    for s in range(4):
        game = replay(read_log(str(matches / f"match00000-seat{s}.jsonl")),
                      require_hand_end=True)
        assert isinstance(game, Match) and game.over
    capsys.readouterr()


def test_ctrl_c_stops_eval_cleanly_with_a_valid_partial_save(tmp_path):
    import sys
    import time

    from tests.interrupt import interrupt, start
    save = tmp_path / "partial.json"
    proc = start([sys.executable, "-m", "mjenv", "eval", "--agent", "heuristic", "--vs", "random",
                  "--deals", "5000", "--workers", "2", "--json", "--save", str(save)])
    time.sleep(8)
    interrupt(proc)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "interrupted after" in err
    report = json.loads(out)
    assert json.loads(save.read_text()) == report
    assert report["deals_done"] < report["deals"] == 5000
    assert report["hands"] == 4 * report["deals_done"]


def test_eval_refuses_a_program_that_never_answers_and_keeps_faults_in_play(capsys):
    import shlex
    import sys
    from pathlib import Path

    bot = Path(__file__).resolve().parents[1] / "agents" / "bots" / "fault_bot.py"
    missing = "cmd:" + shlex.join([sys.executable, "no_such_bot_script.py"])
    assert main(["eval", "--agent", missing, "--deals", "1", "--no-progress"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith(f"mjenv eval: {missing!r} failed its first decision")
    later = "cmd:" + shlex.join([sys.executable, str(bot), "crash", "2"])
    assert main(["eval", "--agent", later, "--deals", "1", "--no-progress", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["faults"] == 4     # every hand, finished
