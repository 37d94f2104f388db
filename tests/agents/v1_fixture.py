"""The frozen reference ``heuristic:v1``: recorded decisions and their replay.

``tests/data/heuristic_v1.json`` holds hands played by the heuristic (and its efficiency-only
variant) as they stood when issue 14 opened (commit 18c10c7), mixed with other agents so that
every phase occurs — discards, chi/pon/open kans, concealed and added kans, ron, tsumo, passes —
in deal mode and inside matches (other dealers, round winds, repeat counters, scores). Each
hand stores its setting, which seats were the recorded heuristic (and their seeds) and every
action id in order. :func:`replay` drives the engine through the recorded actions and asks a fresh agent
of the given spec for each recorded decision: ``heuristic:v1`` must make every one the
heuristic made, ``heuristic:efficiency`` every one its namesake made.

The analysis planes of the shipped network (``analysis-v1``) are recorded too, as a SHA-256
of the float32 bytes for every fourth decision of every seat, so the network's input is
checked bit for bit.

Re-recording (only ever from the reference code) — ``python -m tests.agents.v1_fixture``.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

from mjenv.game import Hand, Match
from mjenv.rules import RuleConfig

PATH = Path(__file__).resolve().parents[1] / "data" / "heuristic_v1.json"
PLANES_EVERY = 4


def _planes_digest(analyst, view) -> str:
    return hashlib.sha256(analyst.planes(view).tobytes()).hexdigest()[:16]


def _play(hand: Hand, specs: list[str], seeds: list[int], record: dict, analyst) -> None:
    """Play ``hand`` with agents of ``specs``, appending actions/digests to ``record``."""
    from agents import make_agent
    from mjenv.env.actions import decode_action, legal_mask
    agents = [make_agent(s, seed=seed) for s, seed in zip(specs, seeds)]
    actions, planes = [], {}
    step = 0
    while not hand.over:
        seat = hand.to_act[0]
        view = hand.view(seat)
        mask = legal_mask(view)
        aid = int(agents[seat].act(None, mask, view))
        if step % PLANES_EVERY == 0:
            planes[str(step)] = _planes_digest(analyst, view)
        actions.append(aid)
        hand.step(seat, decode_action(aid, view))
        step += 1
    record.update(actions=actions, planes=planes)


# (specs by seat, number of hands, min_points, match?) — the heuristic recorded is "heuristic".
_TABLES = (
    (["heuristic"] * 4, 50, 6, False),
    (["heuristic", "random", "heuristic", "random"], 30, 6, False),
    (["random", "heuristic", "heuristic:efficiency", "heuristic:nodefence"], 24, 6, False),
    (["heuristic"] * 4, 8, 8, False),
    (["heuristic", "random", "heuristic", "heuristic:efficiency"], 8, 3, False),
    (["heuristic", "heuristic:nodefence", "heuristic", "heuristic:efficiency"], 4, 6, True),
)


def record() -> dict:
    """Play the tables of ``_TABLES`` with the code as it stands (the reference)."""
    from agents.features import Analyst
    analyst = Analyst("analysis-v1")
    hands = []
    for t, (specs, n, min_points, match) in enumerate(_TABLES):
        for i in range(n):
            seeds = [1000 * t + 10 * i + s for s in range(4)]
            if not match:
                hand = Hand(RuleConfig(min_points=min_points), seed=7_000_000 + 1000 * t + i)
                rec = {"seed": hand.seed, "min_points": min_points, "specs": specs,
                       "seeds": seeds}
                _play(hand, specs, seeds, rec, analyst)
                hands.append(rec)
                continue
            m = Match(RuleConfig(rounds=1), seed=9_000_000 + i)
            while True:
                h = m.hand
                rec = {"seed": h.seed, "dealer": h.dealer, "round_wind": h.round_wind,
                       "repeat": h.repeat, "scores": list(h.scores_before), "rounds": 1,
                       "specs": specs, "seeds": seeds}
                _play(h, specs, seeds, rec, analyst)
                hands.append(rec)
                if m.over:
                    break
                m.next_hand()
    return {"reference": "18c10c7", "hands": hands}


def hand_of(rec: dict) -> Hand:
    rules = RuleConfig(min_points=rec.get("min_points", 6), rounds=rec.get("rounds", 2))
    return Hand(rules, seed=rec["seed"],
                dealer=rec.get("dealer", 0), round_wind=rec.get("round_wind", 0),
                repeat=rec.get("repeat", 0), scores=rec.get("scores", (0, 0, 0, 0)))


def replay(data: dict, specs: dict[str, str], analyst=None) -> tuple[Counter, list[str]]:
    """Replay every recorded hand; ``specs`` maps a recorded spec to the spec that must make
    its decisions (``{"heuristic": "heuristic:v1"}``).

    Returns (decisions checked per (spec, action kind), mismatches as readable lines); with
    ``analyst``, the analysis planes of the recorded views are checked too.
    """
    from agents import make_agent
    from mjenv.env.actions import decode_action, legal_mask
    kinds: Counter = Counter()
    bad: list[str] = []
    for n, rec in enumerate(data["hands"]):
        hand = hand_of(rec)
        agents = {s: make_agent(specs[rec["specs"][s]], seed=rec["seeds"][s])
                  for s in range(4) if rec["specs"][s] in specs}
        for step, aid in enumerate(rec["actions"]):
            seat = hand.to_act[0]
            view = hand.view(seat)
            if seat in agents:
                got = int(agents[seat].act(None, legal_mask(view), view))
                kinds[rec["specs"][seat], decode_action(aid, view).kind] += 1
                if got != aid:
                    bad.append(f"hand {n} step {step} seat {seat} phase {view.phase}: "
                               f"recorded {aid}, got {got}")
            digest = rec["planes"].get(str(step))
            if analyst is not None and digest is not None \
                    and _planes_digest(analyst, view) != digest:
                bad.append(f"hand {n} step {step} seat {seat}: analysis planes differ")
            hand.step(seat, decode_action(aid, view))
        if not hand.over:
            bad.append(f"hand {n}: not over after the recorded actions")
    return kinds, bad


if __name__ == "__main__":
    data = record()
    PATH.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    kinds, bad = replay(data, {s: s for s in ("heuristic", "heuristic:efficiency")})
    print(f"{sum(kinds.values())} decisions in {len(data['hands'])} hands: "
          f"{dict(sorted(kinds.items()))}; self-check mismatches: {len(bad)}")
