"""The rule-based heuristic player (see ``agents.heuristic.agent`` for the decision outline)."""

from agents.heuristic.agent import HeuristicAgent
from agents.heuristic.params import HeuristicParams, params_for

__all__ = ["HeuristicAgent", "HeuristicParams", "params_for"]
