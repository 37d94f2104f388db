"""``mjenv train``: no lost runs, one line (exit 2) for every mistake before any work starts,
progress that reads well in a log, and ``--init-from`` taking specs."""

import csv
import hashlib
import io
import json
import re

import pytest
import torch

from mjenv.cli import main

TINY = ["--total-steps", "500", "--num-steps", "256", "--num-envs", "2", "--channels", "8",
        "--blocks", "1", "--num-minibatches", "2", "--update-epochs", "1", "--eval-every", "0",
        "--fixed-opponents", "random:1", "--device", "cpu", "--threads", "1", "--seed", "3"]


def snapshot(folder) -> dict[str, str]:
    """Every file under ``folder`` with the SHA-256 of its bytes."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """A finished tiny PPO run (``--out D``), its progress lines and its files' digests."""
    folder = tmp_path_factory.mktemp("train") / "D"
    import contextlib
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["train", "ppo", "--out", str(folder), *TINY]) == 0
    return folder, err.getvalue(), snapshot(folder)


# --------------------------------------------------------------------------- no lost work


def test_a_second_run_into_the_same_folder_is_refused_and_the_folder_unchanged(run_dir, capsys):
    folder, _, before = run_dir
    assert main(["train", "ppo", "--out", str(folder), *TINY]) == 2
    line = one_line_error(capsys)
    assert f"--out {folder} already holds a run" in line and "--resume" in line \
        and "--force" in line
    assert snapshot(folder) == before


def test_force_moves_the_old_run_aside_and_never_deletes_it(tmp_path, capsys):
    folder = tmp_path / "a"
    assert main(["train", "ppo", "--out", str(folder), *TINY, "--no-progress"]) == 0
    first = snapshot(folder)
    (folder / "notes.txt").write_text("mine")
    assert main(["train", "ppo", "--out", str(folder), *TINY, "--no-progress",
                 "--seed", "4"]) == 2             # refused without --force
    assert main(["train", "ppo", "--out", str(folder), *TINY, "--no-progress", "--seed", "4",
                 "--force"]) == 0
    err = capsys.readouterr().err
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("a.old-")]
    assert len(aside) == 1 and f"moved the previous run in {folder} to {aside[0]}" in err
    assert snapshot(aside[0]) == {**first, "notes.txt": snapshot(aside[0])["notes.txt"]}
    assert (aside[0] / "notes.txt").read_text() == "mine"
    assert json.loads((folder / "args.json").read_text())["seed"] == 4
    assert not (folder / "notes.txt").exists()


def test_the_default_folder_is_a_new_numbered_one(tmp_path, monkeypatch):
    from training.rundir import new_numbered_dir, prepare_run_dir

    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs" / "ppo-7").mkdir(parents=True)
    (tmp_path / "runs" / "ppo-x").mkdir()
    first = prepare_run_dir("", prefix="ppo", run_files=("latest.pt",))
    second = prepare_run_dir("", prefix="ppo", run_files=("latest.pt",))
    assert (first.as_posix(), second.as_posix()) == ("runs/ppo-8", "runs/ppo-9")
    assert first.is_dir() and second.is_dir()
    assert new_numbered_dir(tmp_path / "runs", "bc").name == "bc-1"


def test_a_folder_with_other_files_is_used_as_it_is(tmp_path):
    """A PPO run may start in the folder of the BC run it starts from."""
    from training.rundir import prepare_run_dir

    (tmp_path / "bc.pt").write_bytes(b"x")
    assert prepare_run_dir(str(tmp_path), prefix="ppo", run_files=("latest.pt",)) == tmp_path
    assert (tmp_path / "bc.pt").read_bytes() == b"x"


# --------------------------------------------------------------------------- one line, exit 2


@pytest.mark.parametrize("argv, expected", [
    (["bc", "--epochs", "0"], "--epochs must be >= 1, got 0"),
    (["bc", "--records", "missing.jsonl"], "record file missing.jsonl: cannot be read"),
    (["bc", "--device", "tpu"], "--device tpu: not a device"),
    (["bc", "--teacher", "random"], "--teacher random: it does not report its options"),
    (["ppo", "--device", "tpu"], "--device tpu: not a device"),
    (["ppo", "--latest-share", "0.9", "--past-share", "0.9"],
     "opponent shares --latest-share, --past-share and --fixed-share must sum to 1, "
     "got 0.9 + 0.9 + 0.2 = 2"),
    (["ppo", "--latest-share", "1.5"], "--latest-share must be <= 1, got 1.5"),
    (["ppo", "--gamma", "1.5"], "--gamma must be <= 1, got 1.5"),
    (["ppo", "--gamma", "nan"], "--gamma must be a number"),
    (["ppo", "--learning-rate", "0"], "--learning-rate must be > 0, got 0.0"),
    (["ppo", "--bc-lr", "-1"], "--bc-lr must be > 0"),
    (["ppo", "--kl-ref-coef", "0.1"], "--kl-ref-coef needs a policy to stay near"),
    (["ppo", "--kl-ref-fraction", "2"], "--kl-ref-fraction must be <= 1"),
    (["bc", "--lr", "-1"], "--lr must be > 0, got -1.0"),
    (["ppo", "--min-points", "-1"], "--min-points"),
    (["ppo", "--fixed-opponents", "heurstic:1"], "unknown agent spec 'heurstic'"),
    (["ppo", "--init-from", "heuristic"], "rule-based agent, not a trained network"),
    (["ppo", "--init-from", "ppo:missing.pt"], "--init-from ppo:missing.pt: missing.pt: no such"),
    (["ppo", "--resume"], "--resume needs --out"),
    (["ppo", "--out", "nowhere", "--resume"], "nowhere/latest.pt does not exist"),
    (["ppo", "--out", "x", "--resume", "--force"], "give one of them"),
])
def test_mistakes_are_one_line_before_any_work(argv, expected, tmp_path, monkeypatch, capsys):
    import training.bc
    import training.ppo

    def no_work(*args, **kwargs):
        raise AssertionError("work started before the arguments were checked")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(training.bc, "generate_records", no_work)
    monkeypatch.setattr(training.ppo, "RunLog", no_work)
    assert main(["train", *argv]) == 2
    line = one_line_error(capsys)
    assert line.startswith(f"mjenv train {argv[0]}: ") and expected in line, line
    assert list(tmp_path.iterdir()) == []              # nothing made


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks a machine without CUDA")
@pytest.mark.parametrize("algo", ["ppo", "bc"])
def test_cuda_without_cuda_is_one_line(algo, capsys):
    assert main(["train", algo, "--device", "cuda"]) == 2
    assert "--device cuda: " in one_line_error(capsys)


def test_bad_record_files_are_named(tmp_path, monkeypatch, capsys):
    from mjenv.rules import RuleConfig
    from training.bc import save_records

    monkeypatch.chdir(tmp_path)
    (tmp_path / "junk.jsonl").write_text("not json\n")
    assert main(["train", "bc", "--records", str(tmp_path / "junk.jsonl")]) == 2
    assert "junk.jsonl: not a game-record file" in one_line_error(capsys)
    save_records(tmp_path / "other.jsonl", [], RuleConfig(min_points=8), "heuristic")
    assert main(["train", "bc", "--records", str(tmp_path / "other.jsonl")]) == 2
    assert "games played under" in one_line_error(capsys)
    save_records(tmp_path / "empty.jsonl", [], RuleConfig(), "heuristic")
    assert main(["train", "bc", "--records", str(tmp_path / "empty.jsonl")]) == 2
    assert "no game records" in one_line_error(capsys)
    # a file from before options were recorded: the moves only
    old = {"seed": 1, "round_wind": 0, "decisions": [[0, "discard 1m"]]}
    save_records(tmp_path / "old.jsonl", [old], RuleConfig(), "heuristic")
    assert main(["train", "bc", "--records", str(tmp_path / "old.jsonl")]) == 2
    assert "old.jsonl: it holds the teacher's moves but not its options" in one_line_error(capsys)
    assert not (tmp_path / "runs").exists()


def test_resume_names_the_flag_that_disagrees_with_the_checkpoint(run_dir, capsys):
    folder, _, before = run_dir
    assert main(["train", "ppo", "--out", str(folder), "--resume", "--channels", "32"]) == 2
    line = one_line_error(capsys)
    assert "--channels 32 differs from" in line and "(channels 8)" in line
    assert main(["train", "ppo", "--out", str(folder), "--resume", "--init-from",
                 "ppo:pretrained"]) == 2
    assert "--init-from applies when a run starts" in one_line_error(capsys)
    assert main(["train", "ppo", "--out", str(folder), "--resume"]) == 2
    assert "give a larger --total-steps" in one_line_error(capsys)
    assert main(["train", "ppo", "--out", str(folder), "--resume", "--kl-ref-coef", "0.1"]) == 2
    assert "started from no policy" in one_line_error(capsys)
    assert snapshot(folder) == before


# --------------------------------------------------------------------------- progress


def test_progress_is_one_line_per_update_and_matches_progress_csv(run_dir):
    folder, err, _ = run_dir
    assert "\r" not in err                              # stderr was not a terminal
    lines = [ln for ln in err.splitlines() if ln.startswith("update ")]
    with open(folder / "progress.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(lines) == len(rows) == 2                 # 500 = one update of 256+ and the rest
    for line, row in zip(lines, rows):
        shown = re.search(r" ([\d,]+) steps/s ", line).group(1).replace(",", "")
        assert int(shown) == round(float(row["charts/SPS"]))
        step = int(row["global_step"])                  # never "520/500 steps (100%)"
        assert (f"{step:,} of 500 steps (" if step < 500 else
                f"done: {step:,} steps (500 asked") in line and "/500" not in line
        kl = re.search(r"kl (\S+)", line).group(1)
        assert float(kl) == pytest.approx(float(row["losses/approx_kl"]), rel=1e-2)


def test_evaluations_say_when_they_come_and_show_progress(tmp_path, capsys):
    """A run shorter than one --eval-every period says so first; each evaluation writes its
    progress line (off a terminal: at most one every 10 s, and the last)."""
    tiny = [a for a in TINY if a not in ("--eval-every", "0")]
    assert main(["train", "ppo", "--out", str(tmp_path / "e"), *tiny, "--eval-every", "20",
                 "--eval-deals", "1", "--eval-vs", "random"]) == 0
    err = capsys.readouterr().err
    assert err.splitlines()[0] == (
        "evaluations (1 deals each vs random and the best policy so far): now (the starting "
        "weights), then every 20 updates and after the last; this run has about 2 updates to "
        "go, fewer than --eval-every 20: the next one comes at its end")
    lines = err.splitlines()
    for update in (0, 2):
        assert f"1/1 deals vs random, evaluation at update {update}  " in err
    assert "1/1 deals vs best, evaluation at update 2  " in err
    assert lines.index(next(ln for ln in lines if ln.startswith("1/1 deals vs random"))) \
        < lines.index(next(ln for ln in lines if ln.startswith("update 1:")))


def test_total_steps_is_honoured_not_rounded(run_dir):
    """500 is not a multiple of --num-steps 256: the second update collects the rest (a
    rollout ends on deal boundaries, so the first collects a little more than 256)."""
    folder, _, _ = run_dir
    with open(folder / "progress.csv") as f:
        steps = [int(r["global_step"]) for r in csv.DictReader(f)]
    assert 256 <= steps[0] < 500 <= steps[1] < steps[0] + 256


def test_the_bar_on_a_terminal_redraws_one_line_and_small_numbers_read():
    from training.ppo import Progress, readable

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    term = Terminal()
    bar = Progress(1000, stream=term)
    bar.show(1, 500, 123.4, "kl 1e-05")
    bar.show(2, 1000, 130.0)
    bar.close()
    text = term.getvalue()
    assert text.count("\r") == 2 and text.endswith("\n") and text.count("\n") == 1
    assert "123 steps/s" in text and "130 steps/s" in text
    assert (readable(1e-5), readable(0.0123456), readable(2.5)) == ("1e-05", "0.0123", "2.5")


def test_an_eta_past_a_day_keeps_its_days():
    from training.ppo import duration
    assert duration(3725) == "01:02:05"
    assert duration(45 * 3600 + 61) == "1d 21:01:01"


# --------------------------------------------------------------------------- --init-from


def test_init_from_a_spec_takes_the_network_from_the_checkpoint(tmp_path, capsys):
    from agents.ppo import PRETRAINED_PATH, read_checkpoint_file
    from training.checkpoint import load_training_checkpoint

    out = tmp_path / "p"
    assert main(["train", "ppo", "--init-from", "ppo:pretrained", "--out", str(out),
                 "--total-steps", "32", "--num-steps", "32", "--num-envs", "2",
                 "--num-minibatches", "1", "--update-epochs", "1", "--eval-every", "0",
                 "--fixed-opponents", "random:1", "--device", "cpu", "--no-progress",
                 "--snapshot-every", "100"]) == 0
    args = json.loads((out / "args.json").read_text())
    shipped = read_checkpoint_file(PRETRAINED_PATH)
    config = shipped["net_config"]
    assert (args["channels"], args["blocks"], args["features"]) == \
        (config["channels"], config["blocks"], config["features"])
    run = load_training_checkpoint(out / "latest.pt")
    assert run["net_config"] == {"oracle": 0, **config}   # written before NetConfig.oracle
    start = run["pool"]["weights"][0]       # the weights the run started from (in float16)
    assert all(torch.equal(start[k], v.to(start[k].dtype)) for k, v in shipped["model"].items())
    capsys.readouterr()
    assert main(["train", "ppo", "--init-from", "ppo:pretrained", "--channels", "32",
                 "--out", str(tmp_path / "q")]) == 2
    line = one_line_error(capsys)
    assert "--channels 32 differs from --init-from ppo:pretrained's network" in line
    assert not (tmp_path / "q").exists()


def test_bc_starts_from_init_from_and_keeps_its_shape(tmp_path):
    from agents.ppo import NetConfig, build_net, read_checkpoint_file, save_policy_file
    from mjenv.env.observation import NUM_PLANES
    from mjenv.rules import RuleConfig
    from training.bc import BCArgs, play_teacher_games, run_bc, save_records

    start = tmp_path / "start.pt"
    save_policy_file(start, build_net(NetConfig(NUM_PLANES, channels=8, blocks=2)), RuleConfig())
    records = tmp_path / "games.jsonl"
    save_records(records, play_teacher_games(2, 1, RuleConfig()), RuleConfig(), "heuristic")
    path = run_bc(BCArgs(out=str(tmp_path / "bc"), init_from=f"ppo:{start}",
                         records=str(records), epochs=1, device="cpu"))
    assert read_checkpoint_file(path)["net_config"]["channels"] == 8
    assert read_checkpoint_file(path)["net_config"]["blocks"] == 2
