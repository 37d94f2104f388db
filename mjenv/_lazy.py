"""Lazy package exports (PEP 562): a package lists which module holds each public name, and a
name's module is imported only when the name is first used, so ``import mjenv`` (or ``agents``)
stays cheap and never imports what a script does not use (gymnasium, torch)."""

from __future__ import annotations

import importlib
from typing import Any, Callable


def lazy_exports(package: str, exports: dict[str, str], namespace: dict[str, Any]
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package`` (``namespace``: its ``globals()``,
    where a loaded name is kept so the next use is a plain look-up)."""
    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = namespace[name] = getattr(importlib.import_module(module), name)
        return value

    def __dir__() -> list[str]:
        return list(namespace.get("__all__", sorted(exports)))

    return __getattr__, __dir__
