"""Worlds rebuilt from a view (``mjenv.game.world``): with the true hidden part they are the
real hand and play on move for move; with a sampled one they show the seat the same view."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from agents import make_agent
from mjenv.env.play import decide
from mjenv.game import Hand
from mjenv.game.world import Hidden, hidden_of, sample_hidden, world
from mjenv.rules import RuleConfig
from mjenv.tiles import parse_tile
from tests.scale import n

# state a world may hold differently without playing differently: how the wall lays out the
# tiles already out, the seed and log, and the waits of the seat on turn (recomputed before any
# read: at its discard or kan) are compared apart
_APART = {"_wall", "seed", "log", "_waits", "_rons"}


def _forks(seed: int, every: int, spec: str = "heuristic"):
    """Each ``every``-th decision of a played hand: the hand before it and the deciding seat."""
    hand = Hand(RuleConfig(), seed=seed)
    agents = [make_agent(spec, seed=seed * 4 + s) for s in range(4)]
    k = 0
    while not hand.over:
        seat = hand.to_act[0]
        if k % every == 0:
            yield hand, seat
        k += 1
        step = decide(agents[seat], hand.view(seat))
        hand.step(seat, step.action)


def _play_out(hand: Hand, seed: int) -> None:
    agents = [make_agent("heuristic", seed=seed + s) for s in range(4)]
    while not hand.over:
        seat = hand.to_act[0]
        hand.step(seat, decide(agents[seat], hand.view(seat)).action)


def _continues_alike(hand: Hand, seat: int, seed: int) -> Hand:
    """The world of ``hand``'s true hidden part for ``seat``: the same state as a copy of the
    real hand, and played on by identically seeded players, the same moves and end."""
    real = copy.deepcopy(hand)
    w = world(hand.view(seat), hidden_of(hand, seat))
    _same_state(real, w, seat)
    assert w.view(seat) == real.view(seat)
    start = len(real.log)
    _play_out(real, seed)
    _play_out(w, seed)
    assert w.log[1:] == real.log[start:]
    assert w.result == real.result
    return w


def _same_state(real: Hand, w: Hand, seat: int) -> None:
    for name, value in vars(real).items():
        if name not in _APART:
            assert getattr(w, name) == value, name
    assert w.live_tiles() == real.live_tiles() and w.dead_tiles() == real.dead_tiles()
    on_turn = real.phase in ("turn", "rob") and real._turn_seat
    for s in range(4):
        if s != on_turn:
            assert w.waits(s) == real.waits(s), s
    for s, r in real._rons.items():          # a seat that passed its ron is furiten now
        if s in w._legal or real._answers.get(s, None) is not None and \
                real._answers[s].kind == "ron":
            assert w._rons[s] == r


@pytest.mark.parametrize("seed", range(n(6, 40)))
def test_a_world_of_the_true_hidden_part_is_the_real_hand_and_plays_on_alike(seed):
    forks = 0
    for hand, seat in _forks(seed, every=7):
        _continues_alike(hand, seat, 1000 + forks)
        forks += 1
    assert forks          # a deal won early has few decision points, but never none


def test_claim_and_rob_windows_with_answers_already_given_are_rebuilt():
    """Open windows where a seat answered before the viewer decides: the world keeps its
    answer, asks the rest, and resolves as the real hand does."""
    seen = {"claim": 0, "rob": 0}
    for seed in range(n(60, 200)):
        for hand, seat in _forks(seed, every=1):
            if hand.phase == "turn" or not hand._answers:
                continue
            seen[hand.phase] += 1
            _continues_alike(hand, seat, 7)
        if seen["claim"] >= 20:
            break
    assert seen["claim"] >= 20


@pytest.mark.parametrize("seed", range(n(4, 20)))
def test_a_sampled_world_shows_the_seat_its_own_view_and_plays_to_the_end(seed):
    rng = np.random.default_rng(seed)
    for hand, seat in _forks(seed, every=5):
        view = hand.view(seat)
        for _ in range(3):
            hidden = sample_hidden(view, rng)
            w = world(view, hidden)
            assert w.view(seat) == view
            w.check_invariants()
            assert hidden.concealed[(seat + 1) % 4] != hand.concealed((seat + 1) % 4) or \
                hidden.live != hand.live_tiles()
            _play_out(w, seed)
            w.check_invariants()
            assert w.over and sum(w.result.deltas) == 0


def test_a_hidden_part_that_does_not_fit_the_view_is_refused():
    hand = Hand(RuleConfig(), seed=3)
    view = hand.view(0)
    true = hidden_of(hand, 0)
    short = ((), true.concealed[1][1:], true.concealed[2], true.concealed[3])
    with pytest.raises(ValueError, match="concealed tiles"):
        world(view, Hidden(short, true.live, true.dead))
    with pytest.raises(ValueError, match="walls hold"):
        world(view, Hidden(true.concealed, true.live[1:], true.dead))
    other = next(t for t in range(34) if t != true.concealed[1][0])
    changed = ((), (other,) + true.concealed[1][1:], true.concealed[2], true.concealed[3])
    with pytest.raises(ValueError, match="unseen"):
        world(view, Hidden(changed, true.live, true.dead))
    with pytest.raises(ValueError, match="turn"):
        world(hand.view(1), hidden_of(hand, 1))


def test_worlds_after_kans_keep_the_replacement_draw_and_the_live_draws():
    """Forks on the turn a kan's replacement was drawn, and after open kans (whose turns begin
    without a live draw): the world's state is the real one and it plays on alike."""
    kinds = set()
    after = 0
    for seed in range(n(150, 400)):
        for hand, seat in _forks(seed, every=1):
            melds = {m.kind for ms in (hand.melds(s) for s in range(4)) for m in ms}
            if not (hand.view(seat).kan_draw or melds & {"minkan", "kakan", "ankan"}):
                continue
            kinds |= melds & {"minkan", "kakan", "ankan"}
            after += hand.view(seat).kan_draw
            _continues_alike(hand, seat, 3)
        if after >= 10 and len(kinds) == 3:
            break
    assert after >= 10 and kinds == {"minkan", "kakan", "ankan"}


class _NoCalls:
    """The heuristic, passing every chi, pon and open kan (it still wins when it can)."""

    def __init__(self, seed: int) -> None:
        self.agent = make_agent("heuristic", seed=seed)

    def choose(self, view, legal):
        if view.phase != "turn" and not any(a.kind == "ron" for a in legal):
            return next(a for a in legal if a.kind == "pass")
        return self.agent.choose(view, legal)


class _Tsumogiri:
    """Throws the tile it drew (else its first discard) and passes every window: quick."""

    def choose(self, view, legal):
        if view.phase != "turn":
            return next(a for a in legal if a.kind == "pass")
        drawn = [a for a in legal if a.kind == "discard" and a.tile == view.target_tile]
        return (drawn or [a for a in legal if a.kind == "discard"])[0]


def _play_with(hand: Hand, players, steps: int = 10 ** 6) -> None:
    while not hand.over and steps:
        steps -= 1
        seat = hand.to_act[0]
        view = hand.view(seat)
        hand.step(seat, players[seat].choose(view, view.legal))


@pytest.mark.parametrize("seed", range(n(4, 12)))
def test_seat_streams_deal_the_plain_walls_order_when_nobody_calls(seed):
    rng = np.random.default_rng(seed)
    for hand, seat in _forks(seed, every=9):
        view = hand.view(seat)
        if view.phase == "rob":
            continue
        hidden = sample_hidden(view, rng)
        plain, streamed = world(view, hidden), world(view, hidden, streams=True)
        assert streamed.view(seat) == view and streamed.live_tiles() == hidden.live
        # a call in the open window is refused to keep the play call-free
        if view.phase == "claim":
            first = next(a for a in view.legal if a.kind in ("pass", "ron"))
            plain.step(seat, first)
            streamed.step(seat, first)
        _play_with(plain, [_NoCalls(s) for s in range(4)])
        _play_with(streamed, [_NoCalls(s) for s in range(4)])
        assert streamed.log == plain.log
        streamed.check_invariants()


def test_seat_streams_keep_each_seats_draws_across_a_call_and_draw_uniformly():
    """With or without a chi, every seat draws the head of its own stream (what the plain
    wall would give it if nobody called: kan shifts take only the streams' tails), and the
    first draw after the chi is a uniform tile among the unseen ones."""
    view = None
    for hand, seat in _forks(3, every=1):
        if hand.phase == "claim" and any(a.kind == "chi" for a in hand.legal_actions(seat)):
            view = hand.view(seat)
            break
    assert view is not None
    first_drawer = (view.target_from + 1) % 4
    rng = np.random.default_rng(0)
    firsts = np.zeros(34)
    for _ in range(n(1000, 4000)):
        hidden = sample_hidden(view, rng)
        streams = [[t for j, t in enumerate(hidden.live) if (first_drawer + j) % 4 == s]
                   for s in range(4)]
        for answer in ("chi", "pass"):
            w = world(view, hidden, streams=True)
            w.step(seat, next(a for a in view.legal if a.kind == answer))
            _play_with(w, [_Tsumogiri()] * 4, steps=30)
            kans = sum(e["type"] == "draw" and e["dead"] for e in w.log)
            for s in range(4):
                mine = [parse_tile(e["tile"]) for e in w.log
                        if e["type"] == "draw" and e["seat"] == s and not e["dead"]]
                k = min(len(mine), len(streams[s]) - kans)
                assert mine[:k] == streams[s][:k]
            if answer == "chi":
                firsts[parse_tile(next(e for e in w.log if e["type"] == "draw")["tile"])] += 1
    expected = firsts.sum() * np.array(view.unseen) / sum(view.unseen)
    seen = expected > 0
    chi2 = (((firsts - expected) ** 2)[seen] / expected[seen]).sum()
    assert chi2 < 70          # 33 degrees of freedom: p < 0.0002 by chance
