"""Agent specs → agents: the one place that maps the strings of the CLI and configs to objects.

Specs: ``random``, ``heuristic`` (the tuned default), ``heuristic:v1`` (the frozen first
version), ``heuristic:efficiency`` (tile efficiency only), ``heuristic:nodefence`` (the default
without defence), ``heuristic:PATH`` (a parameter file), ``ppo:PATH`` (a saved checkpoint),
``ppo:pretrained`` and ``ppo:pretrained-bc`` (the PPO model shipped in ``agents/pretrained/``
and the behaviour clone of the heuristic that self-play starts from), ``search`` and ``search:PATH``
(the heuristic corrected by playing options out on sampled worlds, with the default or a file's
parameters: ``agents.search``) and ``cmd:PROGRAM ARGS…`` (an
external program speaking docs/protocol.md; one argument, split like a shell line). The PPO
specs import ``agents.ppo`` (and torch) only when asked for, so the rule-based agents run
without torch installed.
"""

from __future__ import annotations

from pathlib import Path

from agents.base import Agent

RULE_BASED_SPECS = ("random", "heuristic", "heuristic:v1", "heuristic:efficiency",
                    "heuristic:nodefence")


def make_agent(spec: str, seed: int | None = None, *, timeout: float | None = None,
               stderr_dir: str | None = None) -> Agent:
    """Build the agent named by ``spec``; ``seed`` seeds its own generator (tie-breaks, sampling).
    ``timeout`` (seconds per decision, default 5) and ``stderr_dir`` (where its stderr is
    logged) apply to ``cmd:`` programs (``agents.external``) and are ignored by the others.

    Raises ``ValueError`` naming the spec and the accepted forms when ``spec`` is unknown.
    """
    if not isinstance(spec, str):
        raise ValueError(f"agent spec must be a string, got {type(spec).__name__}")
    if spec == "random":
        from agents.random_agent import RandomAgent
        return RandomAgent(seed)
    if spec == "heuristic" or spec.startswith("heuristic:"):
        from agents.heuristic import HeuristicAgent, params_for
        agent = HeuristicAgent(params_for(spec.partition(":")[2]), seed=seed)
        agent.name = spec
        return agent
    if spec == "search" or spec.startswith("search:"):
        from agents.search import SearchAgent, SearchParams, load_search_params
        path = spec.partition(":")[2]
        agent = SearchAgent(load_search_params(path) if path else SearchParams(), seed=seed)
        agent.name = spec
        return agent
    if spec.startswith("cmd:"):
        from agents.external import DEFAULT_TIMEOUT, ExternalAgent
        return ExternalAgent(spec, seed, timeout=DEFAULT_TIMEOUT if timeout is None else timeout,
                             stderr_dir=stderr_dir)
    if spec.startswith("ppo:"):
        path = policy_file(spec)
        from agents.ppo import PPOAgent
        shipped = spec[4:] if spec[4:] in ("pretrained", "pretrained-bc") else None
        agent = PPOAgent.pretrained(shipped) if shipped else PPOAgent.load(path)
        if seed is not None and hasattr(agent, "reseed"):
            agent.reseed(seed)
        return agent
    raise ValueError(f"unknown agent spec {spec!r}: use one of {', '.join(RULE_BASED_SPECS)}, "
                     f"heuristic:PATH, search, search:PATH, ppo:PATH, ppo:pretrained, "
                     f"ppo:pretrained-bc or cmd:PROGRAM ARGS…")


def policy_file(spec: str) -> Path:
    """The checkpoint file a network is read from: ``ppo:pretrained`` (the shipped model),
    ``ppo:PATH``, or a bare ``PATH`` (what ``--init-from`` takes). ``ValueError`` for a spec of
    an agent that has no network (``heuristic``) or an empty path."""
    if spec in RULE_BASED_SPECS or spec.startswith(("heuristic:", "search")):
        raise ValueError(f"{spec!r} is a rule-based agent, not a trained network: give a "
                         f"checkpoint file, ppo:PATH or ppo:pretrained")
    path = spec[4:] if spec.startswith("ppo:") else spec
    if not path:
        raise ValueError(f"{spec!r}: write ppo:PATH (a checkpoint) or ppo:pretrained")
    from agents.ppo import SHIPPED
    return SHIPPED.get(path, Path(path)) if spec.startswith("ppo:") else Path(path)
