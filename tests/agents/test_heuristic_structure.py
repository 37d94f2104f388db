"""The heuristic stays readable (issue 36): every function fits a screen, and the speed tricks
that made it hard to change do not come back — process-wide memo tables keyed on hand-picked
parameters, shortcuts whose correctness lived in prose, byte-level digit masks."""

import ast
import re
from pathlib import Path

import pytest

SOURCES = sorted((Path(__file__).parents[2] / "agents" / "heuristic").glob("*.py"))
LONGEST = 60

# each name as a whole word: ``_CHOW_WAITS`` is not ``_WAITS``
GONE = ("tuple.__new__", "bytes.translate", "_BYTE_ONES", "_EVALS", "_WAITS", "_PLAN_LISTS",
        "_COMPILED", "_Memo", "calls_fall_short", "risk_bound")


def mentions(text: str, name: str) -> bool:
    """Whether ``text`` names ``name`` as a whole word (not inside a longer name)."""
    return re.search(r"(?<![\w.])" + re.escape(name) + r"(?!\w)", text) is not None


def test_the_sources_are_found():
    assert {p.name for p in SOURCES} >= {"agent.py", "evaluator.py", "plans.py", "tables.py"}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_no_function_is_longer_than_a_screen(path):
    long = [f"{node.name}: {node.end_lineno - node.lineno + 1} lines"
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > LONGEST]
    assert not long, long


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_the_removed_tricks_stay_gone(path):
    text = path.read_text()
    found = [name for name in GONE if mentions(text, name)]
    assert not found, found


def test_the_trick_check_finds_what_it_looks_for():
    assert mentions("x = _WAITS[k]", "_WAITS") and not mentions("_CHOW_WAITS[t]", "_WAITS")
    assert mentions("return tuple.__new__(cls, x)", "tuple.__new__")
