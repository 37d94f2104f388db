"""The shape issue 38 asked of the training code, kept: functions a reader takes in at once,
the trainer's modules reached in one direction, and rule options built in one place."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LONGEST = 80      # lines, decorators and docstring included


def functions(path: Path) -> list[tuple[str, int]]:
    """(name, length in lines) of every function and method in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(node.name, node.end_lineno - node.lineno + 1) for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


@pytest.mark.parametrize("path", sorted((ROOT / "training").glob("*.py"))
                         + [ROOT / "agents" / "ppo.py"], ids=lambda p: p.name)
def test_no_function_is_over_80_lines(path):
    long = [(name, lines) for name, lines in functions(path) if lines > LONGEST]
    assert not long, f"{path.name}: {long}"


def runtime_imports(path: Path) -> set[str]:
    """Modules ``path`` imports when it runs (imports under ``if TYPE_CHECKING:`` left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and getattr(node.test, "id", None) == "TYPE_CHECKING"
                   for n in ast.walk(node)}
    return {node.module for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module and id(node) not in typing_only}


@pytest.mark.parametrize("step", ["start", "workers", "selfplay", "update", "runlog",
                                  "run_eval", "checkpoint"])
def test_the_steps_of_train_never_call_back_into_the_trainer(step):
    """``training.ppo.train`` calls each step; a step may name the trainer's ``Args`` as a type
    but never runs code of ``training.ppo`` (arguments flow forward only)."""
    assert "training.ppo" not in runtime_imports(ROOT / "training" / f"{step}.py")


@pytest.mark.parametrize("path", ["mjenv/cli/play.py", "mjenv/cli/eval.py", "mjenv/cli/arena.py",
                                  "mjenv/cli/score.py", "mjenv/cli/demo.py", "training/args.py",
                                  "training/tune.py", "training/reading.py"])
def test_commands_build_rules_only_through_rules_from_flags(path):
    """No command writes a rule option's value into a RuleConfig itself: each one's flags go
    through ``mjenv.rules.rules_from_flags`` (the defaults stay RuleConfig's alone)."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    built = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call)
             and getattr(node.func, "id", None) == "RuleConfig" and (node.args or node.keywords)]
    assert not built, f"{path}: RuleConfig(...) at lines {built}"
    assert "rules_from_flags" in (ROOT / path).read_text(encoding="utf-8")
