"""Recorded hands and their replay: the decision fixtures of the heuristic.

A recorded hand is its setting (the wall's seed, ``min_points``, or the match state a hand of
a match starts from), the spec and seed of the agent in each seat, and every action id in
order. :func:`replay` drives the engine through the recorded actions and asks a fresh agent
for each decision of the seats whose spec it is told to check; a decision is a match where
that agent, seeded as recorded, plays the recorded action.

Two fixtures are built on this: ``v1_fixture`` (``heuristic:v1``, with the analysis planes
of ``analysis-v1``) and ``tuned_fixture`` (the tuned default and its variants).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Callable, Iterable, Mapping, NamedTuple, Sequence

from mjenv.game import Hand, Match
from mjenv.rules import RuleConfig


class Table(NamedTuple):
    """Hands played alike: the spec per seat, how many hands, ``min_points``, and whether
    they are the hands of one-round matches (other dealers, round winds, repeats, scores)."""

    specs: tuple[str, ...]
    hands: int
    min_points: int = 6
    match: bool = False


def planes_digest(analyst, view) -> str:
    """The first 16 hex digits of the SHA-256 of ``analyst``'s planes of ``view``."""
    return hashlib.sha256(analyst.planes(view).tobytes()).hexdigest()[:16]


def play_hand(hand: Hand, specs: Iterable[str], seeds: Iterable[int], record: dict,
              play_as: Mapping[str, str] | None = None, analyst=None,
              planes_every: int = 4) -> None:
    """Play ``hand`` with agents of ``specs`` (a spec named in ``play_as`` played by the spec
    it maps to), putting the action ids (and, with ``analyst``, the digest of the planes of
    every ``planes_every``-th decision's view) in ``record``."""
    from agents import make_agent
    from mjenv.env.actions import decode_action, legal_mask
    play_as = play_as or {}
    agents = [make_agent(play_as.get(s, s), seed=seed) for s, seed in zip(specs, seeds)]
    actions, planes = [], {}
    while not hand.over:
        seat = hand.to_act[0]
        view = hand.view(seat)
        aid = int(agents[seat].act(None, legal_mask(view), view))
        if analyst is not None and len(actions) % planes_every == 0:
            planes[str(len(actions))] = planes_digest(analyst, view)
        actions.append(aid)
        hand.step(seat, decode_action(aid, view))
    record["actions"] = actions
    if analyst is not None:
        record["planes"] = planes


def record_tables(tables: Iterable[Table], seed: int, play_as: Mapping[str, str] | None = None,
                  analyst=None) -> list[dict]:
    """Every hand of ``tables``, played as it stands now: table ``t``'s hand ``i`` has wall
    seed ``seed + 1000 t + i`` (a match: match seed ``seed + 1000 t + i``) and seat ``s``
    agent seed ``1000 t + 10 i + s``."""
    hands = []
    for t, table in enumerate(tables):
        for i in range(table.hands):
            seeds = [1000 * t + 10 * i + s for s in range(4)]
            base = {"specs": list(table.specs), "seeds": seeds}
            if not table.match:
                hand = Hand(RuleConfig(min_points=table.min_points), seed=seed + 1000 * t + i)
                rec = {"seed": hand.seed, "min_points": table.min_points, **base}
                play_hand(hand, table.specs, seeds, rec, play_as, analyst)
                hands.append(rec)
                continue
            m = Match(RuleConfig(rounds=1, min_points=table.min_points),
                      seed=seed + 1000 * t + i)
            while True:
                h = m.hand
                rec = {"seed": h.seed, "min_points": table.min_points, "dealer": h.dealer,
                       "round_wind": h.round_wind, "repeat": h.repeat,
                       "scores": list(h.scores_before), "rounds": 1, **base}
                play_hand(h, table.specs, seeds, rec, play_as, analyst)
                hands.append(rec)
                if m.over:
                    break
                m.next_hand()
    return hands


def hand_of(rec: dict) -> Hand:
    """The hand a record starts from."""
    rules = RuleConfig(min_points=rec.get("min_points", 6), rounds=rec.get("rounds", 2))
    return Hand(rules, seed=rec["seed"],
                dealer=rec.get("dealer", 0), round_wind=rec.get("round_wind", 0),
                repeat=rec.get("repeat", 0), scores=rec.get("scores", (0, 0, 0, 0)))


class Mismatch(Exception):
    """A replayed decision differs from the recording (raised with ``stop=True``)."""


def replay(hands: list[dict], specs: Mapping[str, str], analyst=None, stop: bool = False,
           show: bool = False, on_hand: Callable[[int], None] | None = None
           ) -> tuple[Counter, list[str]]:
    """Replay every recorded hand; ``specs`` maps a recorded spec to the spec that must make
    its decisions (``{"heuristic": "heuristic:v1"}``); seats of other specs play their
    recorded actions unasked.

    Returns (decisions checked per (recorded spec, action kind), mismatches as readable
    lines); with ``analyst``, the digests of the recorded planes are checked too. ``stop``:
    raise ``Mismatch`` at the first mismatch instead of listing them all; ``show``: each
    mismatch with what the seat saw (``describe``).
    """
    from agents import make_agent
    from mjenv.env.actions import decode_action, legal_mask
    kinds: Counter = Counter()
    bad: list[str] = []

    def differs(line: str) -> None:
        if stop:
            raise Mismatch(line)
        bad.append(line)

    for n, rec in enumerate(hands):
        hand = hand_of(rec)
        agents = {s: make_agent(specs[rec["specs"][s]], seed=rec["seeds"][s])
                  for s in range(4) if rec["specs"][s] in specs}
        planes = rec.get("planes", {}) if analyst is not None else {}
        for step, aid in enumerate(rec["actions"]):
            seat = hand.to_act[0]
            view = hand.view(seat)
            if seat in agents:
                got = int(agents[seat].act(None, legal_mask(view), view))
                kinds[rec["specs"][seat], decode_action(aid, view).kind] += 1
                if got != aid:
                    differs(f"hand {n} (seed {rec['seed']}) step {step} seat {seat} "
                            f"({rec['specs'][seat]}) phase {view.phase}: recorded "
                            f"{decode_action(aid, view)}, got {decode_action(got, view)}"
                            + (describe(view, agents[seat]) if show else ""))
            digest = planes.get(str(step))
            if digest is not None and planes_digest(analyst, view) != digest:
                differs(f"hand {n} step {step} seat {seat}: analysis planes differ")
            hand.step(seat, decode_action(aid, view))
        if not hand.over:
            differs(f"hand {n}: not over after the recorded actions")
        if on_hand is not None:
            on_hand(n)
    return kinds, bad


def describe(view, agent) -> str:
    """What a seat saw at a decision, for a reviewer: its hand, melds, the ponds, the wall,
    the tile claimed, and at a turn the discards as the agent rates them now."""
    from mjenv.tiles import tiles_to_str
    lines = [f"hand {tiles_to_str(view.hand)}, live wall {view.live_wall_left}"]
    for s in range(4):
        melds = " ".join(str(m) for m in view.melds[s])
        lines.append(f"seat {s}: pond {tiles_to_str(p.tile for p in view.ponds[s]) or '-'}"
                     + (f", melds {melds}" if melds else ""))
    if view.phase != "turn" and view.target_tile is not None:
        lines.append(f"claimed tile {tiles_to_str([view.target_tile])} from seat "
                     f"{view.target_from}")
    if view.phase == "turn" and hasattr(agent, "rate"):
        lines.append("rated: " + ", ".join(f"{r.action} {r.utility:+.4f}"
                                           for r in agent.rate(view)))
    return "".join("\n    " + line for line in lines)


def dumps(data: dict) -> str:
    """A fixture as compact JSON, one line."""
    return json.dumps(data, separators=(",", ":")) + "\n"


class Fixture(NamedTuple):
    """A recorded-decision fixture: its file, the specs whose decisions it checks (recorded
    spec → the spec that must make them), the analysis planes its digests are of, and how
    it is read, recorded and written."""

    module: str
    path: Path
    specs: Mapping[str, str]
    planes: str
    load: Callable[[Path], list[dict]]
    record: Callable[[], dict]
    save: Callable[[dict, Path], None]


def cli(fixture: Fixture, argv: Sequence[str] | None = None) -> int:
    """``python -m tests.agents.<fixture> diff|record``: list every recorded decision the code
    now makes differently (exit 1 where any does), or record the fixture's hands anew."""
    parser = argparse.ArgumentParser(prog=f"python -m {fixture.module}",
                                     description=cli.__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    diff = sub.add_parser("diff", help="replay the recording; list every decision that differs")
    diff.add_argument("--hands", type=int, help="only the first HANDS hands")
    diff.add_argument("--show", action="store_true",
                      help="with what the seat saw at each decision that differs")
    first = next(iter(fixture.specs))
    diff.add_argument("--agent", metavar="SPEC",
                      help=f"ask SPEC for the decisions of {first} (what a parameter file "
                           f"changes)")
    rec = sub.add_parser("record", help="play the hands with the code as it stands; write them")
    rec.add_argument("--out", type=Path, default=fixture.path,
                     help=f"where to write (default {fixture.path.name} in tests/data)")
    args = parser.parse_args(argv)
    from agents.features import Analyst
    if args.command == "record":
        fixture.save(fixture.record(), args.out)
        hands = fixture.load(args.out)
        print(f"{args.out}: {args.out.stat().st_size:,} bytes, {len(hands)} hands")
    else:
        hands = fixture.load(fixture.path)[:args.hands]
    specs = dict(fixture.specs)
    if args.command == "diff" and args.agent:
        from agents import make_agent
        try:
            make_agent(args.agent)
        except ValueError as e:
            parser.exit(2, f"{parser.prog}: {e}\n")
        specs[first] = args.agent
    kinds, bad = replay(hands, specs, analyst=Analyst(fixture.planes),
                        show=args.command == "diff" and args.show)
    for line in bad:
        print(line)
    print(f"{sum(kinds.values()):,} decisions checked ("
          + ", ".join(f"{s}{'' if specs[s] == s else ' as ' + specs[s]}: "
                      f"{sum(c for (k, _), c in kinds.items() if k == s):,}" for s in specs)
          + f"); {len(bad)} differ")
    return 1 if bad else 0
