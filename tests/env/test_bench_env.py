"""The ``benchmarks/bench_env.py`` commands of docs/game.md run as written (with tiny budgets:
speed figures come from the script, never from tests) and print every section they promise."""

from __future__ import annotations

import importlib.util
import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["--seconds", "0.05", "--repeats", "1", "--num-envs", "2", "--no-pin"]


def _bench():
    spec = importlib.util.spec_from_file_location("bench_env", ROOT / "benchmarks" / "bench_env.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _commands() -> list[list[str]]:
    text = (ROOT / "docs" / "game.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", text, re.S)
    return [shlex.split(line)[2:] for block in blocks for line in block.splitlines()
            if line.startswith("python benchmarks/bench_env.py")]


def test_the_docs_commands_print_every_section(capsys):
    commands = _commands()
    assert commands, "docs/game.md shows no bench_env.py command"
    bench = _bench()
    for argv in commands:
        assert bench.main(argv + SMALL) == 0
        out = capsys.readouterr().out
        assert 'mjenv gym.make("Mahjong-v0")' in out and "MahjongSingle-v0" in out
        if "--no-peers" not in argv:
            for peer in ("RiichiEnv", "pymahjong"):
                assert peer in out                     # measured, or named as not installed
        if "--no-vector" not in argv:
            assert "native ÷ SyncVectorEnv" in out
        if "--layers" in argv:
            assert all(name in out for name in bench.LAYERS)


def test_a_bad_budget_is_one_line_and_exit_2(capsys):
    bench = _bench()
    try:
        bench.main(["--seconds", "0"])
    except SystemExit as exc:
        assert exc.code == 2
    assert "--seconds must be > 0" in capsys.readouterr().err
