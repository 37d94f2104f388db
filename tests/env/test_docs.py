"""The committed docs and the env's manual match the code they describe, and every snippet in
README.md and docs/*.md runs as a user would paste it.

The snippet tests (``test_doc_snippets_run``) run each doc's code blocks and inline calls in
the order a reader meets them (``tests.snippets`` says what counts as a snippet and how a block
is marked as not run), in one temporary folder per doc, laid out like a clone (``agents``,
``benchmarks``, ``mjenv``, ``training`` linked in) so that later commands find the files earlier
ones wrote. Python runs in this process, one namespace per doc, with an empty standard input;
an expression statement followed by a comment that is a Python literal (``r.points  # 16``)
must equal it. Shell commands run with bash; ``mjenv`` and ``python SCRIPT`` there are the
capped ones of ``tests.docs_cli`` (every integer option at most 2), and a command must exit 0
or with the status its prose gives (``(exit status 1)``). A console block's shown output must be
the command's, unless capping changed the command. Python passes its integer arguments of 1,000
or more (counts of hands and steps) as 2.

A doc whose snippets train or tune (``mjenv train``, ``mjenv tune``) runs in the full run only
(``MJENV_FULL=1 python -m pytest -m full``, as CI does): each such command costs 15-20 s even
capped.
"""

from __future__ import annotations

import ast
import contextlib
import io
import os
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

from mjenv.env import actions, gym_env, observation, oracle
from tests import snippets

ROOT = snippets.ROOT
DOCS = ROOT / "docs"
CAP = 2
CLONE_DIRS = ("agents", "benchmarks", "mjenv", "training")
SLOW = re.compile(r"(^|[\s;&|(])mjenv (train|tune)\b")


def test_observation_doc_is_generated_from_planes():
    assert (DOCS / "observation.md").read_text(encoding="utf-8") == observation.markdown(), \
        "docs/observation.md is stale; regenerate: python -c \"from mjenv.env import " \
        "observation as m; open('docs/observation.md', 'w').write(m.markdown())\""


def test_oracle_doc_is_generated_from_planes():
    assert (DOCS / "oracle.md").read_text(encoding="utf-8") == oracle.markdown(), \
        "docs/oracle.md is stale; regenerate: python -c \"from mjenv.env import " \
        "oracle as m; open('docs/oracle.md', 'w').write(m.markdown())\""


def test_actions_doc_is_generated():
    assert (DOCS / "actions.md").read_text(encoding="utf-8") == actions.markdown(), \
        "docs/actions.md is stale; regenerate: python -c \"from mjenv.env import " \
        "actions as m; open('docs/actions.md', 'w').write(m.markdown())\""


def test_gym_docstring_plane_table_matches_the_encoder():
    rows = re.findall(r"^(\d+)(?:–(\d+))?\s+``(\w+)", gym_env.__doc__, flags=re.M)
    covered = []
    for start, stop, name in rows:
        start = int(start)
        stop = int(stop) if stop else start
        names = [p.name for p in observation.PLANES[start:stop + 1]]
        if name.endswith("_"):                        # a block: ``self_*`` …
            assert all(n.startswith(name) for n in names), (start, name)
        else:
            assert names[0] == name, (start, name)
        covered.extend(range(start, stop + 1))
    assert covered == list(range(observation.NUM_PLANES))
    assert "(NUM_PLANES, 34)" in gym_env.__doc__


# --- snippets -----------------------------------------------------------------------------


def _slow(doc: Path) -> bool:
    try:
        found = snippets.snippets(doc)
    except ValueError:              # test_every_doc_reads_as_snippets says why
        return False
    return any(s.kind == "shell" and not s.not_run and SLOW.search(s.code)
               and not s.code.endswith(" --help") for s in found)


def _docs(slow: bool) -> list[Path]:
    return [d for d in snippets.doc_files() if _slow(d) == slow]


def test_every_doc_reads_as_snippets():
    """Every code block names its language, none is indented, and a marked block says why."""
    for doc in snippets.doc_files():
        for s in snippets.snippets(doc):      # raises for an unfenced or unnamed block
            assert s.not_run is None or len(s.not_run.split()) >= 3, \
                f"{s.where}: say what stops the block from running: {s.not_run!r}"


def test_snippet_rules_tell_commands_from_their_syntax():
    """The rules of ``tests.snippets`` on the kinds of span the docs use."""
    prose = ["Run `mjenv eval --agent A --vs B --deals N`, `mjenv view LOG [-o page.html]`,",
             "`mjenv plot runs/NAME`, `mjenv score 123m --win 5s --seat S`, `mjenv eval`,",
             "`mjenv.pettingzoo.env()`, `hand.step(seat, action)`, `pip install moviepy` and",
             "`mjenv score 567m --win 8p\n--seat S` (exit status 1), `gym.make(\"x\", a=1)`."]
    got = [(s.line, s.kind, s.code, s.status)
           for s in snippets.inline_snippets("d.md", prose[:3] + prose[3].split("\n"))]
    assert got == [(2, "shell", "mjenv score 123m --win 5s --seat S", 0),
                   (2, "shell", "mjenv eval --help", 0),
                   (3, "expr", "mjenv.pettingzoo.env()", 0),
                   (4, "shell", "mjenv score 567m --win 8p --seat S", 1),
                   (5, "expr", 'gym.make("x", a=1)', 0)]
    with pytest.raises(ValueError, match="indented code block"):
        snippets.blocks("text\n\n    mjenv eval\n")
    with pytest.raises(ValueError, match="needs its language"):
        snippets.snippets_of_text("d.md", "```\nmjenv eval\n```\n")
    marked = snippets.snippets_of_text(
        "d.md", "<!-- docs-test: not run (a fresh machine) -->\n```bash\npip install x\n```\n")
    assert [s.not_run for s in marked] == ["a fresh machine"]
    spans = snippets.inline_snippets("d.md", [
        "Then <!-- docs-test: not run (a benchmark\nof full size) -->`python b.py` and",
        "`mjenv eval --deals 3`."])
    assert [(s.code, s.not_run) for s in spans] == [("python b.py", "a benchmark of full size"),
                                                    ("mjenv eval --deals 3", None)]


@pytest.mark.parametrize("doc", _docs(slow=False), ids=lambda d: d.name)
def test_doc_snippets_run(doc, tmp_path, monkeypatch):
    _run_doc(doc, tmp_path, monkeypatch)


@pytest.mark.full
@pytest.mark.parametrize("doc", _docs(slow=True), ids=lambda d: d.name)
def test_training_doc_snippets_run(doc, tmp_path, monkeypatch):
    from tests.scale import FULL       # imported here: the quick doc tests are not "full"

    if not FULL:
        pytest.skip("a doc that trains runs in the full run: MJENV_FULL=1 python -m pytest "
                    "-m full")
    _run_doc(doc, tmp_path, monkeypatch)


def _run_doc(doc: Path, tmp_path: Path, monkeypatch) -> None:
    work = tmp_path / "work"
    work.mkdir()
    for name in CLONE_DIRS:
        (work / name).symlink_to(ROOT / name, target_is_directory=True)
    env = _shell_env(tmp_path)
    monkeypatch.chdir(work)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    namespace: dict = {"__name__": "__main__"}
    for s in snippets.snippets(doc):
        if s.not_run:
            continue
        if s.kind == "python":
            _exec_block(s, namespace)
        elif s.kind == "expr":
            _eval_inline(s)
        else:
            _run_shell(s, work, env, tmp_path / "capped")


def _shell_env(tmp_path: Path) -> dict[str, str]:
    """PATH with the capped ``mjenv`` and ``python`` of ``tests.docs_cli`` in front."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    real = sys.executable
    shims = {
        "mjenv": f'exec "{real}" -m tests.docs_cli "$@"\n',
        "python": f'case "$1" in *.py) exec "{real}" -m tests.docs_cli --script "$@";; esac\n'
                  f'exec "{real}" "$@"\n',
    }
    shims["python3"] = shims["python"]
    for name, body in shims.items():
        path = bin_dir / name
        path.write_text("#!/bin/sh\n" + body)
        path.chmod(0o755)
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(bin_dir), os.path.dirname(real), env.get("PATH", "")])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["MJENV_DOCS_CAP"] = str(CAP)
    env["MJENV_DOCS_CAPPED"] = str(tmp_path / "capped")
    return env


def _run_shell(s: snippets.Snippet, work: Path, env: dict[str, str], capped: Path) -> None:
    capped.unlink(missing_ok=True)
    done = subprocess.run(["bash", "-c", s.code], cwd=work, env=env, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=600)
    assert done.returncode == s.status, (
        f"{s.where}: `{s.code}` exited {done.returncode}, not {s.status}\n"
        f"{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
    if s.expected is not None and not capped.exists():
        shown = [line.rstrip() for line in s.expected.strip("\n").split("\n")]
        assert [line.rstrip() for line in done.stdout.strip("\n").split("\n")] == shown, \
            f"{s.where}: `{s.code}` printed\n{done.stdout}"


class _SmallCounts(ast.NodeTransformer):
    """Integer arguments of 1,000 or more (counts of hands, deals, steps) become ``CAP``."""

    def visit_Call(self, node: ast.Call) -> ast.Call:
        self.generic_visit(node)
        for arg in node.args + [k.value for k in node.keywords]:
            if isinstance(arg, ast.Constant) and type(arg.value) is int and arg.value >= 1000:
                arg.value = CAP
        return node


def _expected_values(code: str) -> dict[int, object]:
    """Line -> the literal in that line's trailing comment, where it is one."""
    out = {}
    for tok in tokenize.generate_tokens(io.StringIO(code).readline):
        if tok.type == tokenize.COMMENT:
            with contextlib.suppress(ValueError, SyntaxError):
                out[tok.start[0]] = ast.literal_eval(tok.string[1:].strip())
    return out


def _exec_block(s: snippets.Snippet, namespace: dict) -> None:
    tree = _SmallCounts().visit(ast.parse(s.code))
    expected = _expected_values(s.code)
    for statement in tree.body:
        where = f"{s.doc}:{s.line + statement.lineno - 1}"
        if isinstance(statement, ast.Expr) and statement.end_lineno in expected:
            value = eval(compile(ast.Expression(statement.value), where, "eval"), namespace)
            assert value == expected[statement.end_lineno], \
                f"{where}: {ast.unparse(statement)} is {value!r}"
        else:
            exec(compile(ast.Module([statement], []), where, "exec"), namespace)


def _eval_inline(s: snippets.Snippet) -> None:
    """An inline span: a call is evaluated after ``import gymnasium as gym, gymnasium, mjenv,
    agents, training`` (the packages load their submodules when first used: ``mjenv._lazy``);
    a dotted name alone (``mjenv.env.play.play``: the module, then the function) must import."""
    import importlib

    tree = ast.parse(s.code, mode="eval")
    try:
        if isinstance(tree.body, ast.Attribute):
            _resolve(s.code)
            return
        namespace = {root: importlib.import_module(snippets.ALIASES.get(root, root))
                     for root in snippets.INLINE_ROOTS}
        eval(compile(_SmallCounts().visit(tree), s.where, "eval"), namespace)
    except Exception as exc:      # noqa: BLE001 — the doc's line is what failed
        pytest.fail(f"{s.where}: `{s.code}` raised {type(exc).__name__}: {exc}", pytrace=False)


def _resolve(dotted: str) -> object:
    """What a dotted name names: a module (found, not imported: it may need an extra, as
    ``mjenv.integrations.rllib`` needs Ray), or its longest importable prefix, then
    attributes."""
    import importlib
    import importlib.util

    parts = dotted.split(".")
    parts[0] = snippets.ALIASES.get(parts[0], parts[0])
    with contextlib.suppress(ImportError):
        spec = importlib.util.find_spec(".".join(parts))
        if spec is not None:
            return spec
    for k in range(len(parts), 0, -1):
        try:
            value = importlib.import_module(".".join(parts[:k]))
        except ImportError:
            continue
        for name in parts[k:]:
            value = getattr(value, name)
        return value
    raise ImportError(f"no module {parts[0]!r}")
