"""Lazy package exports (PEP 562): a package lists which module holds each public name, and a
name's module is imported only when the name is first used, so ``import mjenv`` (or ``agents``)
stays cheap and never imports what a script does not use (gymnasium, torch).

A package's submodules load the same way: ``import mjenv`` then ``mjenv.pettingzoo.env()``
works as the README writes it, without an ``import mjenv.pettingzoo`` first.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any, Callable


def lazy_exports(package: str, exports: dict[str, str], namespace: dict[str, Any]
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package`` (``namespace``: its ``globals()``,
    where a loaded name is kept so the next use is a plain look-up). A name that is neither an
    export nor a submodule is an ``AttributeError``, as for any module."""
    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is not None:
            value = namespace[name] = getattr(importlib.import_module(module), name)
            return value
        if not name.startswith("_") and importlib.util.find_spec(f"{package}.{name}"):
            return importlib.import_module(f"{package}.{name}")   # binds itself as an attribute
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return list(namespace.get("__all__", sorted(exports)))

    return __getattr__, __dir__
