"""Agents: random, heuristic and PPO policies behind one protocol (``agents.base.Agent``).

Names are exported lazily (PEP 562): ``import agents`` never imports torch, and
``agents.make_agent("heuristic")`` loads only the heuristic module.
"""

from __future__ import annotations

from mjenv._lazy import lazy_exports

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
__getattr__, __dir__ = lazy_exports("agents", _EXPORTS, globals())
