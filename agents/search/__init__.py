"""The search agent: the heuristic corrected by playing options out on sampled worlds
(``agents.search.agent``; docs/search.md)."""

from agents.search.agent import SearchAgent, SearchStats
from agents.search.params import SearchParams, load_search_params

__all__ = ["SearchAgent", "SearchParams", "SearchStats", "load_search_params"]
