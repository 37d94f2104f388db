"""``mjenv`` and ``python SCRIPT`` as the documentation test runs them: the real command line,
with every integer option capped at ``CAP``. ``python -m tests.docs_cli ARGS`` is ``mjenv
ARGS`` made small, ``python -m tests.docs_cli --script SCRIPT ARGS`` is ``python SCRIPT ARGS``.

A command the docs show (``mjenv train ppo --total-steps 1000000``, ``mjenv eval --deals
2000``, ``python benchmarks/bench_agents.py``) is pasted by a user as it is, but a test cannot
play that long. The rule is mechanical and the same for every command: an integer option,
whether written on the line or left at its default, is at most ``CAP`` (``MJENV_DOCS_CAP``,
default 2): deals, hands, steps, environments, network width, seeds (not below a flag's own
lower bound; the rule options, whose help names ``RuleConfig``, are left alone). That covers
the plain ``argparse`` options (``type=int``; a default of ``None`` worked out later counts as
the number its help gives, "(default 100") and the trainers' dataclass flags
(``training.args``, whose defaults live in the dataclass: capped values are passed as if left
at their default, so ``--resume`` and ``--init-from`` still read what was not typed from the
run or the checkpoint).

When anything was capped, the file named by ``MJENV_DOCS_CAPPED`` (if set) is created: the
test then does not compare the command's output with the one the docs show.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import sys
from pathlib import Path

CAP = int(os.environ.get("MJENV_DOCS_CAP", "2"))
#: An option whose help names ``RuleConfig`` (``--min-points``, a match's ``--rounds``) is a
#: rule: never capped, since it changes the game, not its size (and a policy trained under
#: other rules than it is evaluated under is refused).
RULES = "RuleConfig"


def _capped() -> None:
    """Note that a value was capped (see the module docstring)."""
    marker = os.environ.get("MJENV_DOCS_CAPPED")
    if marker:
        Path(marker).touch()


class _Default(int):
    """An option's default, capped: told apart from a typed value once parsed."""


def _cap_int(text: str) -> int:
    value = int(text)
    if value > CAP:
        _capped()
        return CAP
    return value


_cap_int.__name__ = "int"          # argparse names the type in its errors: "invalid int value"
_add_argument = argparse._ActionsContainer.add_argument


def _add_capped_argument(self, *names, **kwargs):
    if kwargs.get("type") is int and RULES not in (kwargs.get("help") or ""):
        kwargs["type"] = _cap_int
        default = kwargs.get("default")
        if default is None:          # worked out later: the number its help gives, if any
            said = re.search(r"\(default (\d[\d,]*)", kwargs.get("help") or "")
            default = int(said.group(1).replace(",", "")) if said else None
        if type(default) is int and default > CAP:
            kwargs["default"] = _Default(CAP)
    return _add_argument(self, *names, **kwargs)


_parse_known_args = argparse.ArgumentParser.parse_known_args


def _parse_noting_defaults(self, *args, **kwargs):
    namespace, rest = _parse_known_args(self, *args, **kwargs)
    if any(isinstance(v, _Default) for v in vars(namespace).values()):
        _capped()
    return namespace, rest


def _is_int_field(f: dataclasses.Field) -> bool:
    return (f.type in (int, "int") and type(f.default) is int
            and RULES not in f.metadata.get("help", ""))


def main(argv: list[str]) -> int:
    argparse._ActionsContainer.add_argument = _add_capped_argument
    argparse.ArgumentParser.parse_known_args = _parse_noting_defaults
    import training.args as targs

    from_namespace = targs.args_from_namespace

    def capped_from_namespace(ns: argparse.Namespace, cls: type):
        """The trainers' flags: a large default runs capped, and still counts as not given."""
        given = {f.name for f in dataclasses.fields(cls) if hasattr(ns, f.name)}
        small = {f.name: max(CAP, f.metadata.get("low") or 0) for f in dataclasses.fields(cls)
                 if f.name not in given and _is_int_field(f) and f.default > CAP}
        if small:
            _capped()
        args, _ = from_namespace(argparse.Namespace(**vars(ns), **small), cls)
        return args, given

    targs.args_from_namespace = capped_from_namespace
    if argv[:1] == ["--script"]:
        import runpy

        sys.argv = argv[1:]
        sys.path.insert(0, os.path.dirname(os.path.abspath(argv[1])))
        runpy.run_path(argv[1], run_name="__main__")
        return 0
    from mjenv.cli import main as mjenv_main

    return mjenv_main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
