"""The observation encoder: planes of hand-built views, ranges over random states, and the
property that nothing hidden leaks into the planes or the view."""

import random

import numpy as np
import pytest

from mjenv.env import observation as O
from mjenv.game import Action, Hand, PlayerView, PondTile
from mjenv.rules import RuleConfig
from mjenv.tiles import Meld, parse_meld, parse_tile, parse_tiles
from tests.env.helpers import random_states
from tests.scale import n

T = parse_tile


def plane(obs, name):
    return obs[O.PLANE_INDEX[name]]


def at(*tiles):
    """A 34-vector with 1 at the given tiles (counts add up)."""
    v = np.zeros(34, dtype=np.float32)
    for t in tiles:
        v[T(t)] += 1
    return v


def make_view(**changes) -> PlayerView:
    chi = Meld("chi", tuple(parse_tiles("234s")), called=T("3s"), from_seat=0)
    pon = Meld("pon", (T("7z"),) * 3, called=T("7z"), from_seat=1)
    long_pond = tuple(PondTile(t, False, False, 3 + i)
                      for i, t in enumerate(parse_tiles("11112222333344445555666777m")))
    fields = dict(
        seat=1,
        hand=tuple(parse_tiles("1123m55p")),
        melds=((), (chi,), (parse_meld("ankan:9999p"),), (pon,)),
        ponds=((PondTile(T("1z"), True, False, 0), PondTile(T("3s"), False, True, 2)),
               (PondTile(T("7z"), False, True, 1),),
               long_pond,
               ()),
        unseen=tuple([4, 2, 3, 4, 4, 4, 4, 4, 4] + [4] * 25),
        dealer=0, round_wind=1, seat_wind=1, repeat=3, live_wall_left=35,
        scores=(10, -20, 30, -20), furiten=True, phase="claim",
        target_tile=T("5p"), target_from=3, legal=(Action("pon"), Action("pass")),
        rules=RuleConfig())
    fields.update(changes)
    return PlayerView(**fields)


def test_shape_and_names():
    assert len(O.PLANES) == O.NUM_PLANES
    assert len({p.name for p in O.PLANES}) == O.NUM_PLANES
    obs = O.encode(make_view())
    assert obs.shape == (O.NUM_PLANES, 34) and obs.dtype == np.float32


def test_planes_of_a_hand_built_view():
    obs = O.encode(make_view())
    assert (plane(obs, "hand_ge1") == at("1m", "2m", "3m", "5p")).all()
    assert (plane(obs, "hand_ge2") == at("1m", "5p")).all()
    assert not plane(obs, "hand_ge3").any()
    assert (plane(obs, "target") == at("5p")).all()
    assert (plane(obs, "phase_claim") == 1).all() and not plane(obs, "phase_turn").any()
    # seat 3 offered the target: from seat 1 that is the seat across... (3 − 1) % 4 = 2
    assert (plane(obs, "target_from_across") == 1).all()
    assert not plane(obs, "target_from_left").any() and not plane(obs, "target_from_right").any()
    # own chi 234s claimed from seat 0 = the owner's left
    assert (plane(obs, "self_chi") == at("2s", "3s", "4s")).all()
    assert (plane(obs, "self_called_from_left") == at("3s")).all()
    # seat 2 (right of seat 1) has a concealed kan of 9p
    assert (plane(obs, "right_ankan") == at("9p")).all()
    # seat 3 (across) pon 7z from seat 1: relative to seat 3 that is across
    assert (plane(obs, "across_pon") == at("7z")).all()
    assert (plane(obs, "across_called_from_across") == at("7z")).all()
    # seat 0 is left: discards 1z (tsumogiri) then 3s (claimed)
    assert (plane(obs, "left_discard_1") == at("1z")).all()
    assert (plane(obs, "left_discard_2") == at("3s")).all()
    assert (plane(obs, "left_discarded") == at("1z", "3s")).all()
    assert plane(obs, "left_tsumogiri_seq")[:3].tolist() == [1, 0, 0]
    assert plane(obs, "left_called_seq")[:3].tolist() == [0, 1, 0]
    assert (plane(obs, "self_called_seq")[:2] == [1, 0]).all()
    # 26 discards of seat 2: 23 ordered planes, the 24th–26th counted together
    assert (plane(obs, "right_discard_23") == at("6m")).all()
    assert (plane(obs, f"right_discard_{O.POND_ORDER}+") == at("7m", "7m", "7m")).all()
    assert plane(obs, "right_tsumogiri_seq").sum() == 0
    assert (plane(obs, "unseen_ge3") == 1 - at("2m")).all()
    assert (plane(obs, "unseen_ge4") == 1 - at("2m", "3m")).all()
    assert (plane(obs, "seat_wind") == at("2z")).all()
    assert (plane(obs, "round_wind") == at("2z")).all()
    assert (plane(obs, "dealer_left") == 1).all() and not plane(obs, "dealer_self").any()
    assert np.allclose(plane(obs, "repeat"), 3 / O.REPEAT_CAP)
    assert np.allclose(plane(obs, "live_wall"), 35 / O.LIVE_WALL_FULL)
    assert np.allclose([plane(obs, f"score_{w}")[0] for w in O.RELATIVE], [-0.2, 0.3, -0.2, 0.1])
    assert (plane(obs, "furiten") == 1).all()


def test_own_turn_and_out_buffer():
    view = make_view(phase="turn", target_tile=T("3m"), target_from=1, furiten=False,
                     scores=(0, 5000, -5000, 0))
    out = np.full((O.NUM_PLANES, 34), 7.0, dtype=np.float32)
    obs = O.encode(view, out=out)
    assert obs is out
    assert (plane(obs, "phase_turn") == 1).all()
    assert not obs[O.TARGET_FROM:O.TARGET_FROM + 3].any()
    assert not plane(obs, "furiten").any()
    assert plane(obs, "score_self")[0] == O.SCORE_CLIP                 # clipped
    assert plane(obs, "score_right")[0] == -O.SCORE_CLIP
    np.testing.assert_array_equal(obs, O.encode(view))


def test_values_within_documented_ranges():
    for hand, seat in random_states(seed=3, hands=n(4, 30)):
        for s in range(4):
            obs = O.encode(hand.view(s))
            assert (obs >= O.LOW).all() and (obs <= O.HIGH).all()


def _hidden_positions(hand: Hand, seat: int) -> list[int]:
    """Wall positions holding a tile ``seat`` has not seen: the undrawn live and dead wall, and
    tiles dealt to or drawn by other seats whose kind they still hold concealed."""
    events = hand.log
    dealer = events[0]["dealer"]
    owner = {p: (dealer + p // 13) % 4 for p in range(52)}
    live, dead = 52, 122
    for ev in events:
        if ev["type"] == "draw":
            if ev["dead"]:
                owner[dead] = ev["seat"]
                dead += 1
            else:
                owner[live] = ev["seat"]
                live += 1
    hidden = list(range(live, 122)) + list(range(dead, 136))     # never drawn
    wall = hand.wall
    hidden += [p for p, s in owner.items() if s != seat and wall[p] in hand.concealed(s)]
    return hidden


def _replay_with(hand: Hand, wall: list[int]) -> Hand:
    """Re-run ``hand``'s decisions on ``wall``. A seat asked only in the new game passes; a
    recorded pass of a seat the new game does not ask is skipped."""
    deal = hand.log[0]
    new = Hand(hand.rules, wall=wall, dealer=deal["dealer"], round_wind=deal["round_wind"],
               repeat=deal["repeat"], scores=tuple(deal["scores"]))
    for ev in hand.log:
        if ev["type"] != "decide":
            continue
        seat, action = ev["seat"], Action.parse(ev["action"])
        if seat not in new.to_act and action.kind == "pass":
            continue
        while seat not in new.to_act and new.to_act and new.phase != "turn":
            new.step(new.to_act[0], Action("pass"))
        new.step(seat, action)
    return new


def _public(hand: Hand, seat: int) -> tuple:
    """Everything ``seat`` may know, read through the engine's getters (not the view)."""
    return (tuple(hand.melds(s) for s in range(4)), tuple(hand.pond(s) for s in range(4)),
            hand.live_wall_left, hand.phase, hand.over, hand.concealed(seat),
            hand.furiten(seat), hand.legal_actions(seat))


@pytest.mark.parametrize("seed", range(n(3, 12)))
def test_nothing_hidden_leaks(seed):
    """Exchange two tiles the observer has not seen — another seat's concealed tile and the
    wall, or two wall positions — and replay the same decisions. Whenever everything the
    observer may know comes out the same, its view and planes must be identical."""
    rng = random.Random(seed)
    compared = 0
    for hand, seat in random_states(seed=100 + seed, hands=3):
        if rng.random() > 0.1:
            continue
        view, planes = hand.view(seat), O.encode(hand.view(seat))
        hidden = _hidden_positions(hand, seat)
        for _ in range(10):
            p, q = rng.sample(hidden, 2)
            wall = list(hand.wall)
            if wall[p] == wall[q]:
                continue
            wall[p], wall[q] = wall[q], wall[p]
            try:
                new = _replay_with(hand, wall)
            except ValueError:        # the exchange made a recorded decision illegal
                continue
            if _public(new, seat) != _public(hand, seat):
                continue
            assert new.view(seat) == view
            np.testing.assert_array_equal(O.encode(new.view(seat)), planes)
            compared += 1
    assert compared >= 5


def test_claim_window_does_not_reveal_who_else_is_asked():
    """Seat 1 may chi the dealer's 5m; in one deal seat 2 may also pon it, in the other not.
    Seat 1's view and planes are identical in both."""
    hands = ["5m11p23p99p123789s", "46m11234567z246s", "55m23m78m1234567z", "19m357p258s19m468p"]
    dealt = [parse_tiles(h) for h in hands]
    assert all(len(d) == 13 for d in dealt)
    rest = [t for t in range(34) for _ in range(4)]
    for t in sum(dealt, []):
        rest.remove(t)
    rest.sort(key=lambda t: (t == T("5m"), t))          # the last 5m deep in the wall
    wall_a = sum(dealt, []) + rest
    wall_b = list(wall_a)
    # move seat 2's pair of 5m (wall[26:28]) deep into the live wall
    wall_b[26], wall_b[27], wall_b[118], wall_b[119] = wall_b[118], wall_b[119], T("5m"), T("5m")
    views, to_act = [], []
    for wall in (wall_a, wall_b):
        hand = Hand(wall=wall)
        hand.step(0, Action("discard", T("5m")))
        to_act.append(hand.to_act)
        views.append(hand.view(1))
    assert to_act == [(1, 2), (1,)]
    assert views[0] == views[1]
    np.testing.assert_array_equal(O.encode(views[0]), O.encode(views[1]))
