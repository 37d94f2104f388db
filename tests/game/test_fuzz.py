"""Property/fuzz test: random agents play whole hands; invariants are checked after every
event, and every log must replay (after a JSON round trip) and be reproducible from its seed.

Sizes: ``n(quick, full)`` — the issue's 2,000 hands under ``MJENV_FULL=1``.
"""

from __future__ import annotations

import json
import random

from mjenv.analysis import shanten_counts
from mjenv.game import Action, Hand, Match, replay
from mjenv.rules import RuleConfig

from tests.scale import n

HANDS = n(200, 2000)
MATCHES = n(3, 20)


def choose(hand: Hand, seat: int, rng: random.Random) -> Action:
    """A random legal action, biased so that hands get ready and wins happen (pure random
    play almost always ends drawn): wins are taken most of the time, and most discards keep
    the shanten lowest. Every legal action keeps a chance."""
    acts = hand.legal_actions(seat)
    wins = [a for a in acts if a.kind in ("ron", "tsumo")]
    if wins and rng.random() < 0.8:
        return wins[0]
    kans = [a for a in acts if a.kind in ("ankan", "kakan", "minkan")]
    if kans and rng.random() < 0.5:
        return rng.choice(kans)
    discards = [a for a in acts if a.kind == "discard"]
    if discards and rng.random() < 0.8:
        counts = [0] * 34
        for t in hand.concealed(seat):
            counts[t] += 1
        n_melds = len(hand.melds(seat))
        best, best_s = [], 99
        for a in discards:
            counts[a.tile] -= 1
            s = shanten_counts(counts, n_melds)
            counts[a.tile] += 1
            if s < best_s:
                best, best_s = [a], s
            elif s == best_s:
                best.append(a)
        return rng.choice(best)
    return rng.choice(acts)


def order_key(action: Action, target: int | None) -> int:
    """The environment's action-id layout, which ``legal_actions`` is documented to follow."""
    base = {"discard": 0, "ankan": 34, "kakan": 68}
    if action.kind in base:
        return base[action.kind] + action.tile
    if action.kind == "chi":
        return 104 + target - action.tile
    return {"tsumo": 102, "ron": 103, "pon": 107, "minkan": 108, "pass": 109}[action.kind]


def check_public_state(hand: Hand) -> None:
    """Invariants computed only from the public API (the engine also checks its own)."""
    hand.check_invariants()
    kinds = [0] * 34
    total = hand.live_wall_left + 14 + (hand.phase == "rob" and not hand.over)
    for s in range(4):
        for t in hand.concealed(s):
            kinds[t] += 1
        for m in hand.melds(s):
            for t in m.tiles:
                kinds[t] += 1
        for p in hand.pond(s):
            if not p.called:
                kinds[p.tile] += 1
    total += sum(kinds)
    if hand.over and hand.result.kind == "ron" and hand.result.robbed:
        total += 1
    assert total == 136
    assert max(kinds) <= 4
    if hand.over:
        assert hand.to_act == () and sum(hand.result.deltas) == 0
        assert sum(hand.scores_after) == sum(hand.scores_before)
    else:
        assert hand.to_act
        for s in range(4):
            acts = hand.legal_actions(s)
            assert bool(acts) == (s in hand.to_act)
            view = hand.view(s)
            assert view.legal == acts and view.hand == hand.concealed(s)
            keys = [order_key(a, view.target_tile) for a in acts]
            assert keys == sorted(set(keys))
            if hand.phase == "turn" and s not in hand.to_act:
                assert view.target_tile is None       # another seat's draw stays hidden


def play_random(seed: int, agent_seed: int, check: bool) -> Hand:
    rng = random.Random(agent_seed)
    # every third hand with min_points 0: more wins, of every shape
    rules = RuleConfig(min_points=0 if seed % 3 == 0 else 6)
    hand = Hand(rules, seed=seed, dealer=seed % 4, round_wind=seed % 3,
                repeat=seed % 3, scores=(seed % 7, 0, -(seed % 7), 0))
    if check:
        check_public_state(hand)
    while not hand.over:
        seat = rng.choice(hand.to_act)
        hand.step(seat, choose(hand, seat, rng))
        if check:
            check_public_state(hand)
    return hand


def test_random_hands_keep_every_invariant() -> None:
    kinds = {"ron": 0, "tsumo": 0, "draw": 0}
    for i in range(HANDS):
        hand = play_random(i, 1000 + i, check=True)
        kinds[hand.result.kind] += 1
        log = json.loads(json.dumps(hand.log))
        assert replay(log).log == log
        if i % 4 == 0:
            assert play_random(i, 1000 + i, check=False).log == hand.log
    assert all(kinds.values()), kinds          # wins and draws were all exercised


def test_random_matches_replay() -> None:
    for i in range(MATCHES):
        rng = random.Random(i)
        match = Match(RuleConfig(rounds=1), seed=i)
        while True:
            hand = match.hand
            while not hand.over:
                seat = rng.choice(hand.to_act)
                hand.step(seat, choose(hand, seat, rng))
            if match.over:
                break
            match.next_hand()
        assert sum(match.scores) == 0
        assert len(match.hands) >= 4
        log = json.loads(json.dumps(match.log))
        assert replay(log).log == log
