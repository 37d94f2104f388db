"""What the search agent costs: CPU seconds per searched decision and per deal of its seat, as a
ratio to one decision of its blueprint measured in the same run.

    python benchmarks/bench_search.py [--deals 20] [--params FILE …] [--worlds 4 8 16 32]

For each setting (a ``search:FILE`` parameter file, or the default parameters with ``worlds``
set to each of ``--worlds``: the budget curve) the search agent plays ``--deals`` seeded deals
in seat ``deal % 4`` against three copies of its blueprint; the blueprint's own decisions are
timed on the same deals (the same agent asked without searching), after ``--warm`` deals that
fill the blueprint's caches as a long run has them. Reported per setting: the
decisions it searched per deal, CPU ms per searched decision and its ratio to a blueprint
decision, CPU seconds per deal for the searching seat, and rollouts per searched decision.
Process CPU time, so other work on the machine slows both sides alike.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from agents import make_agent  # noqa: E402
from agents.search import SearchAgent, SearchParams, load_search_params  # noqa: E402
from mjenv.game import Hand  # noqa: E402


def play_deals(agent: SearchAgent, deals: int, first: int) -> tuple[float, int]:
    """Play the deals with ``agent`` in seat ``deal % 4``: (CPU seconds in its decisions, its
    decisions)."""
    own = 0.0
    decisions = 0
    for deal in range(first, first + deals):
        seat = deal % 4
        hand = Hand(seed=deal)
        others = [make_agent(agent.params.blueprint, seed=4 * deal + s) for s in range(4)]
        agent.reseed(deal)
        while not hand.over:
            who = hand.to_act[0]
            view = hand.view(who)
            if who == seat:
                t = time.process_time()
                action = agent.choose(view, view.legal)
                own += time.process_time() - t
                decisions += 1
            else:
                action = others[who].choose(view, view.legal)
            hand.step(who, action)
    return own, decisions


def measure(params: SearchParams, deals: int, first: int) -> dict:
    search = SearchAgent(params)
    own, decisions = play_deals(search, deals, first)
    shut = SearchAgent(dataclasses.replace(params, margin=-1.0, threat=1.0, claims=False))
    base_own, base_decisions = play_deals(shut, deals, first)
    per_blueprint = base_own / base_decisions
    st = search.stats
    per_search = st.seconds / max(1, st.searched)
    return {"searched/deal": st.searched / deals, "ms/search": 1000 * per_search,
            "x blueprint": per_search / per_blueprint, "s/deal": own / deals,
            "rollouts/search": st.rollouts / max(1, st.searched),
            "blueprint ms": 1000 * per_blueprint, "decisions": decisions}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--first", type=int, default=50_000, help="seed of the first deal")
    parser.add_argument("--warm", type=int, default=100,
                        help="uncounted deals of blueprint self-play first (its caches)")
    parser.add_argument("--params", nargs="*", default=[], help="search parameter files")
    parser.add_argument("--worlds", type=int, nargs="*", default=[],
                        help="the default parameters with each of these worlds")
    args = parser.parse_args()
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    settings = [(p, load_search_params(p)) for p in args.params]
    warm = SearchAgent(SearchParams(margin=-1.0, threat=1.0, claims=False))
    play_deals(warm, args.warm, 10 * args.first)
    settings += [(f"worlds={k}", SearchParams(worlds=k, min_worlds=min(k, SearchParams.min_worlds)))
                 for k in args.worlds]
    if not settings:
        settings = [("default", SearchParams())]
    print(f"{'setting':28} {'searched/deal':>13} {'ms/search':>10} {'x blueprint':>12} "
          f"{'s/deal':>7} {'rollouts/search':>16}")
    for name, params in settings:
        m = measure(params, args.deals, args.first)
        print(f"{name:28} {m['searched/deal']:13.2f} {m['ms/search']:10.0f} "
              f"{m['x blueprint']:12.0f} {m['s/deal']:7.2f} {m['rollouts/search']:16.1f}",
              flush=True)


if __name__ == "__main__":
    main()
