"""Agents: random, heuristic and PPO policies behind one protocol (``agents.base.Agent``).

Names are exported lazily (PEP 562): ``import agents`` never imports torch, and
``agents.make_agent("heuristic")`` loads only the heuristic module.
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "Agent": "agents.base",
    "BaseAgent": "agents.base",
    "make_agent": "agents.registry",
    "RULE_BASED_SPECS": "agents.registry",
    "RandomAgent": "agents.random_agent",
    "HeuristicAgent": "agents.heuristic",
    "HeuristicParams": "agents.heuristic",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'agents' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
