"""What README.md and docs/*.md show a user to paste, read out of the markdown for
``tests/env/test_docs.py`` to run.

Code blocks. Every block is fenced and names its language: ``python`` (executed), ``bash`` or
``sh`` (each command line run with bash), ``console`` (each ``$ `` line run; the lines after it,
when there are any, are its expected output), ``json`` and ``text`` (data, diagrams and output:
read, not run). An indented code block or a fence without a language is an error, so a new
snippet is never skipped by accident. A block that cannot run in a test (a fresh machine's
install lines, a Ray cluster, a server that never exits) is marked on the line before its fence
with ``<!-- docs-test: not run (WHY) -->``, WHY saying what stops it; the same marker as the
first line of a paragraph, or alone in the paragraph before it (a table), marks the inline
code of that paragraph, and right before a code span that span alone; ``<!-- docs-test: not
run in this section (WHY) -->`` marks everything from it to the next heading (the record of a
past run, whose commands need the run folders they name).

Inline code. A span that is a Python expression whose every name is one of ``INLINE_ROOTS``
(``mjenv.pettingzoo.env()``, ``gym.make("mjenv/Mahjong-v0", min_points=8)``,
``mjenv.game.LogFolder``) is evaluated; one that names anything else (``hand.step(seat,
action)``) is a signature, not code to paste. A span starting with ``mjenv `` or ``python `` is
a command and is run, unless it is the syntax of one: a placeholder in capitals (``LOG``,
``runs/NAME``, ``--agent A``; the wind letters E S W N are values), ``…`` or ``[``. A span of
command words alone (``mjenv eval``, ``mjenv train ppo``) names the command: it is run with
``--help``. Install commands (``pip``, ``apt-get``) are never run.
"""

from __future__ import annotations

import ast
import re
import shlex
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUN_LANGUAGES = ("python", "bash", "sh", "console")
READ_LANGUAGES = ("json", "text")
NOT_RUN = re.compile(r"<!--\s*docs-test:\s*not run\s*\((?P<why>[^)]+)\)\s*-->")
MARKS_NEXT = re.compile(NOT_RUN.pattern + r"\s*$")
SECTION_NOT_RUN = re.compile(r"<!--\s*docs-test:\s*not run in this section\s*\((?P<why>[^)]+)\)"
                             r"\s*-->")
#: The names an inline Python span may use: what ``import gymnasium as gym, mjenv`` (and the
#: agents and training packages) bind.
INLINE_ROOTS = ("mjenv", "gym", "gymnasium", "agents", "training")
ALIASES = {"gym": "gymnasium"}
WIND_LETTERS = ("E", "S", "W", "N")
INSTALLERS = ("pip", "pip3", "apt-get", "apt")


def doc_files() -> list[Path]:
    """README.md and every docs/*.md."""
    return [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))


@dataclass(frozen=True)
class Snippet:
    """One thing to run. ``kind``: ``python`` (a block), ``expr`` (an inline Python span) or
    ``shell`` (one command line); ``expected``: the output a console block shows for it;
    ``not_run``: why a marked block is not run (None: it is run); ``status``: the exit status
    the prose gives a command (``(exit status 1)`` after it), else 0."""

    doc: str
    line: int
    kind: str
    code: str
    expected: str | None = None
    not_run: str | None = None
    status: int = 0

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"


@dataclass(frozen=True)
class Block:
    line: int                # of the opening fence (1-based)
    language: str
    body: list[str]
    not_run: str | None


def blocks(text: str) -> tuple[list[Block], list[str]]:
    """The fenced blocks of a markdown text, and its prose lines (code blocks blanked out, so
    line numbers stay). ``ValueError`` for an indented code block or an unfenced language."""
    lines = text.split("\n")
    found: list[Block] = []
    prose = list(lines)
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            language = line[3:].strip()
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), None)
            if end is None:
                raise ValueError(f"line {i + 1}: a fence that is never closed")
            before = lines[i - 1] if i else ""
            marked = NOT_RUN.search(before)
            found.append(Block(i + 1, language, lines[i + 1:end],
                               marked.group("why").strip() if marked else None))
            for j in range(i, end + 1):
                prose[j] = ""
            i = end + 1
            continue
        if line.startswith("    ") and line.strip() and i and not lines[i - 1].strip() \
                and not _in_list(lines, i):
            raise ValueError(f"line {i + 1}: an indented code block; fence it and name its "
                             f"language ({', '.join(RUN_LANGUAGES + READ_LANGUAGES)})")
        i += 1
    return found, prose


def _in_list(lines: list[str], i: int) -> bool:
    """Whether line ``i`` (indented, after a blank line) continues a list item above it."""
    for j in range(i - 1, -1, -1):
        text = lines[j]
        if not text.strip() or text.startswith("    "):
            continue
        return bool(re.match(r"\s*([-*+]|\d+\.)\s", text))
    return False


def _command_lines(body: list[str]) -> list[tuple[int, str]]:
    """(offset, line) of each command of a shell block: continuation lines joined, blank and
    comment lines dropped."""
    out: list[tuple[int, str]] = []
    pending, start = "", 0
    for k, line in enumerate(body):
        if not pending:
            start = k
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        command = (pending + line).strip()
        pending = ""
        if command and not command.startswith("#"):
            out.append((start, command))
    return out


def _console(body: list[str]) -> list[tuple[int, str, str]]:
    """(offset, command, expected output) of each ``$ `` line of a console block."""
    out: list[tuple[int, str, list[str]]] = []
    for k, line in enumerate(body):
        if line.startswith("$ "):
            out.append((k, line[2:].strip(), []))
        elif out:
            out[-1][2].append(line)
        elif line.strip():
            raise ValueError(f"a console block starts with output, not a '$ ' line: {line!r}")
    return [(k, command, "\n".join(expected)) for k, command, expected in out]


def _block_snippets(doc: str, block: Block) -> list[Snippet]:
    first = block.line + 1
    if block.language in READ_LANGUAGES:
        return []
    if block.language not in RUN_LANGUAGES:
        raise ValueError(f"line {block.line}: a code block needs its language, one of "
                         f"{', '.join(RUN_LANGUAGES + READ_LANGUAGES)}; got {block.language!r}")
    if block.language == "python":
        return [Snippet(doc, first, "python", "\n".join(block.body), not_run=block.not_run)]
    if block.language == "console":
        return [Snippet(doc, first + k, "shell", command, expected or None, block.not_run)
                for k, command, expected in _console(block.body)]
    return [Snippet(doc, first + k, "shell", command, not_run=block.not_run)
            for k, command in _command_lines(block.body)]


def is_syntax(command: str) -> bool:
    """Whether an inline command shows the syntax of one (placeholders) rather than one."""
    if "…" in command or "[" in command or "<" in command or re.search(r"\S\|\S", command):
        return True                     # ellipsis, optional parts, alternatives (ppo|bc)
    for token in shlex.split(command):
        for part in re.split(r"[/:=,]", token):
            if re.fullmatch(r"[A-Z][A-Z0-9_]*", part) and part not in WIND_LETTERS:
                return True
    return False


def _inline_expression(span: str) -> bool:
    """Whether an inline span is Python to evaluate (see the module docstring)."""
    try:
        tree = ast.parse(span, mode="eval")
    except SyntaxError:
        return False
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    dotted = any(isinstance(n, (ast.Call, ast.Attribute)) for n in ast.walk(tree))
    return dotted and bool(names) and names <= set(INLINE_ROOTS)


def _paragraphs(prose: list[str]) -> list[tuple[int, str]]:
    """(first line, text) of each paragraph of the prose: a code span may wrap a line, never a
    paragraph."""
    out, start, lines = [], 0, []
    for number, line in enumerate(prose + [""], 1):
        if line.strip():
            if not lines:
                start = number
            lines.append(line)
        elif lines:
            out.append((start, "\n".join(lines)))
            lines = []
    return out


def inline_snippets(doc: str, prose: list[str]) -> list[Snippet]:
    out = []
    carried = None                   # a marker alone in its paragraph marks the next one
    for start, text in _paragraphs(prose):
        marked = NOT_RUN.match(text) or carried
        carried = marked if marked and NOT_RUN.fullmatch(text.strip()) else None
        for match in re.finditer(r"`([^`]+)`", text):
            span = " ".join(match.group(1).split())
            right_before = MARKS_NEXT.search(text, 0, match.start())   # marks this span alone
            why = next((" ".join(m.group("why").split()) for m in (marked, right_before) if m),
                       None)
            line = start + text.count("\n", 0, match.start())
            words = span.split()
            if words[0] in ("mjenv", "python", "python3") and (len(words) > 1 or span == "mjenv"):
                if is_syntax(span):
                    continue
                if re.fullmatch(r"mjenv( [a-z]+)*", span):     # names a command
                    span += " --help"
                after = text[match.end():].split("`", 1)[0]
                status = re.search(r"exit status (\d+)", after)
                out.append(Snippet(doc, line, "shell", span, not_run=why,
                                   status=int(status.group(1)) if status else 0))
            elif words[0] in INSTALLERS:
                continue
            elif _inline_expression(span):
                out.append(Snippet(doc, line, "expr", span, not_run=why))
    return out


def snippets_of_text(doc: str, text: str) -> list[Snippet]:
    """Everything of one doc to run, in the order a reader meets it."""
    try:
        found, prose = blocks(text)
    except ValueError as exc:
        raise ValueError(f"{doc}: {exc}") from None
    out = [s for b in found for s in _block_snippets(doc, b)] + inline_snippets(doc, prose)
    marked = _marked_sections(text.split("\n"))
    out = [s if s.not_run or s.line not in marked else replace(s, not_run=marked[s.line])
           for s in out]
    return sorted(out, key=lambda s: s.line)


def _marked_sections(lines: list[str]) -> dict[int, str]:
    """Line -> why, for the lines from a section marker to the next heading."""
    out, why = {}, None
    for number, line in enumerate(lines, 1):
        if line.startswith("#"):
            why = None
        found = SECTION_NOT_RUN.search(line)
        if found:
            why = found.group("why").strip()
        if why:
            out[number] = why
    return out


def snippets(path: Path) -> list[Snippet]:
    return snippets_of_text(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"))
