"""Agents: random, heuristic and PPO policies behind one protocol (``agents.base.Agent``)."""
