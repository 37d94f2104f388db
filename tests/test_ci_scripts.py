"""The Python that CI's shell scripts run (heredocs in ``.ci/*.sh``) names what the code defines.

Those scripts run last in CI, some only with extras installed (Ray); a name moved to another
module would otherwise fail there, after the whole suite. The check reads the modules' source
(``ast``), so it needs none of the extras.
"""

import ast
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FROM_IMPORT = re.compile(r"^from ((?:mjenv|agents|training)[\w.]*) import ([\w, ]+)$", re.M)


def top_level_names(module: str) -> set[str]:
    """Names a module defines or imports at its top level (inside ``if``/``try`` too)."""
    tree = ast.parse(Path(importlib.util.find_spec(module).origin).read_text(encoding="utf-8"))
    names: set[str] = set()
    statements = list(tree.body)
    while statements:
        node = statements.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.If, ast.Try)):
            statements += node.body + node.orelse + getattr(node, "finalbody", []) + [
                s for handler in getattr(node, "handlers", []) for s in handler.body]
    return names


IMPORTS = [(script.name, module, name.strip())
           for script in sorted((ROOT / ".ci").glob("*.sh"))
           for module, names in FROM_IMPORT.findall(script.read_text(encoding="utf-8"))
           for name in names.split(",")]


def test_the_ci_scripts_import_something_of_ours():
    assert {script for script, _, _ in IMPORTS} >= {"rllib_check.sh"}


@pytest.mark.parametrize("script,module,name", IMPORTS)
def test_a_ci_script_imports_a_name_its_module_defines(script, module, name):
    assert name in top_level_names(module), f"{script}: {module} has no {name}"
