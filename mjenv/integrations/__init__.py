"""Bridges to external frameworks, each behind an optional extra (application layer).

Nothing here is imported by ``mjenv`` itself: ``import mjenv.integrations`` is free, and a
framework is imported only by its own module (``mjenv.integrations.rllib`` needs
``pip install "mjenv[ray]"``). A missing extra raises :class:`MissingExtraError`, an
``ImportError`` whose message says what to install, instead of a bare ``ModuleNotFoundError``
from deep inside the framework.
"""

from __future__ import annotations

import importlib.util

#: extra name -> the top-level modules it must provide
EXTRAS: dict[str, tuple[str, ...]] = {
    "ray": ("ray", "torch"),
}


class MissingExtraError(ImportError):
    """An optional dependency is not installed; the message carries the install command."""


def install_hint(extra: str) -> str:
    return f'pip install "mjenv[{extra}]"'


def require_extra(extra: str, feature: str) -> None:
    """Raise :class:`MissingExtraError` unless every module of ``extra`` can be imported.

    Checked with ``importlib.util.find_spec`` so that nothing is imported here: the caller
    imports the framework itself right after, and pays for it only when it is there.
    """
    if extra not in EXTRAS:
        raise ValueError(f"unknown extra {extra!r}: known extras are {', '.join(sorted(EXTRAS))}")
    missing = [m for m in EXTRAS[extra] if importlib.util.find_spec(m) is None]
    if missing:
        raise MissingExtraError(f"{feature} needs {', '.join(missing)}, which "
                                f"{'is' if len(missing) == 1 else 'are'} not installed: "
                                f"{install_hint(extra)}", name=missing[0])
