"""Scripted hands on explicit walls, one rule of RULES.md §2–§6 per test.

Most deals use "quiet" hands for the seats that do not matter: knitted number tiles (no two
tiles of a suit within 2 ranks, so they can never chi) plus honor pairs that nobody discards.
"""

from __future__ import annotations

import itertools
import random

import pytest

from mjenv.game import Action, Hand, IllegalActionError
from mjenv.scoring.settle import settle_ron
from mjenv.tiles import TILE_NAMES, parse_tiles

from tests.game.helpers import autoplay, build_wall, legal, play, scenario_hand

W16 = "123456789m123p5s"          # tanki on 5s: ron 16, tsumo 19 (RULES.md §10 example 1)
Q1, Q2, Q3 = "147p258s1122334z", "258p369s4455667z", "369p147s5566777z"


# ---- chi ------------------------------------------------------------------------------------

def test_chi_only_from_the_previous_seat() -> None:
    hand, _ = scenario_hand("chi_low_position")
    # seats 2 and 3 also hold 45m, seat 2 also 12m: only seat 1 (next after 0) is asked.
    play(hand, "0 discard 3m")
    assert hand.to_act == (1,)
    assert legal(hand, 1) == {"chi 345m", "pass"}
    assert hand.legal_actions(2) == hand.legal_actions(3) == ()
    play(hand, "1 pass")
    assert hand.to_act == (1,) and hand.phase == "turn"    # seat 1 draws: the window closed
    assert hand.melds(2) == hand.melds(3) == ()


def test_chi_offers_every_chow_position() -> None:
    hand, _ = scenario_hand("chi_three_choices_no_kuikae")
    play(hand, "0 discard 4m")
    assert legal(hand, 1) == {"chi 234m", "chi 345m", "chi 456m", "pass"}


def test_no_kuikae_after_chi() -> None:
    hand, _ = scenario_hand("chi_three_choices_no_kuikae")
    play(hand, "0 discard 4m", "1 chi 234m")
    assert {"discard 4m", "discard 1m"} <= legal(hand, 1)
    play(hand, "1 discard 4m")
    assert hand.to_act == (2,)
    assert [str(m) for m in hand.melds(1)] == ["chi:234m"]


def test_after_chi_or_pon_only_discard() -> None:
    hand, _ = scenario_hand("no_kan_right_after_pon")
    play(hand, "0 discard 3z", "2 pon")
    acts = hand.legal_actions(2)
    assert acts and all(a.kind == "discard" for a in acts)   # no ankan 4s, kakan 3z, tsumo
    assert hand.view(2).target_tile is None


# ---- claim priority and simultaneity --------------------------------------------------------

@pytest.mark.parametrize("order", list(itertools.permutations(["3 ron", "2 pon", "1 chi 456p"])))
def test_ron_beats_pon_beats_chi_in_any_answer_order(order: tuple[str, ...]) -> None:
    hand, steps = scenario_hand("ron_beats_pon_and_chi")
    play(hand, *steps[:5])
    assert hand.to_act == (1, 2, 3)
    for i, answer in enumerate(order):
        play(hand, answer)
        if i < 2:           # nothing resolves until every asked seat has answered
            assert not hand.over and hand.phase == "claim"
            assert hand.melds(1) == hand.melds(2) == ()
    assert hand.result.kind == "ron" and hand.result.winners == (3,)


@pytest.mark.parametrize("order", list(itertools.permutations(["3 pass", "2 pon", "1 chi 456p"])))
def test_pon_beats_chi(order: tuple[str, ...]) -> None:
    hand, steps = scenario_hand("ron_beats_pon_and_chi")
    play(hand, *steps[:5], *order)
    assert [str(m) for m in hand.melds(2)] == ["pon:555p"]
    assert hand.melds(1) == ()
    assert hand.to_act == (2,) and all(a.kind == "discard" for a in hand.legal_actions(2))
    assert hand.pond(0)[-1].called


def test_passing_seat_not_asked_twice() -> None:
    hand, steps = scenario_hand("ron_beats_pon_and_chi")
    play(hand, *steps[:5], "2 pass")
    assert hand.legal_actions(2) == ()
    with pytest.raises(IllegalActionError, match="not to act"):
        play(hand, "2 pon")


# ---- several winners and settlement -------------------------------------------------------

def test_double_ron_payments() -> None:
    hand, steps = scenario_hand("double_ron_dealer_and_nondealer")
    play(hand, *steps)
    r = hand.result
    assert r.winners == (0, 3) and r.discarder == 1
    p0, p3 = r.scores[0].points, r.scores[3].points
    d = 1 + hand.repeat
    # dealer winner gets 3(P+D), seat 3 gets 3P; bystander 2 pays 6 to each; 1 pays the rest
    assert r.deltas == (3 * (p0 + d), -(3 * (p0 + d) - 6) - (3 * p3 - 6), -12, 3 * p3)


def _triple_ron_hand() -> Hand:
    wall = build_wall({0: "123456789m123p1z", 1: "2233445566771z", 2: "123456789p123s1z",
                       3: "123456789s123m1z"}, draws="9m9m9p9s9p6m")
    return Hand(wall=wall)


def test_triple_ron_payments() -> None:
    hand = _triple_ron_hand()
    play(hand, "0 discard 9m", "1 discard 9m", "2 discard 9p", "3 discard 9s", "0 discard 9p",
         "1 discard 1z")
    assert hand.to_act == (0, 2, 3)
    play(hand, "3 ron", "0 ron", "2 ron")
    r = hand.result
    assert r.winners == (0, 2, 3) and r.discarder == 1
    pts = {s: res.points for s, res in r.scores.items()}
    assert all("renhu" not in res.yaku for res in r.scores.values())
    d = 1
    # three winners: the discarder pays each winner 3P' (the dealer's own P' has the bonus)
    assert r.deltas == (3 * (pts[0] + d), -(3 * (pts[0] + d) + 3 * pts[2] + 3 * pts[3]),
                        3 * pts[2], 3 * pts[3])
    assert sum(r.deltas) == 0


def test_one_of_several_ron_passes() -> None:
    hand = _triple_ron_hand()
    play(hand, "0 discard 9m", "1 discard 9m", "2 discard 9p", "3 discard 9s", "0 discard 9p",
         "1 discard 1z", "0 pass", "2 ron", "3 ron")
    r = hand.result
    assert r.winners == (2, 3)
    assert hand.furiten(0)
    # two winners, bystander 0 (the dealer) pays 6 to each; no bonus (dealer not involved)
    p2, p3 = r.scores[2].points, r.scores[3].points
    assert r.deltas == (-12, -(3 * p2 - 6) - (3 * p3 - 6), 3 * p2, 3 * p3)


@pytest.mark.parametrize("case", ["dealer_tsumo", "dealer_ron", "nondealer_ron_on_dealer",
                                  "nondealer_tsumo", "nondealer_ron_on_nondealer"])
def test_dealer_bonus(case: str) -> None:
    """The four cases of RULES.md §6 (dealer wins; dealer dealt in; non-dealer tsumo;
    non-dealer ron on a non-dealer: no bonus), each at repeat n = 2 (D = 3)."""
    n, d = 2, 3
    if case == "dealer_tsumo":
        hand, steps = scenario_hand("dealer_bonus_dealer_tsumo", repeat=n)
        play(hand, *steps)
        p = hand.result.scores[0].points
        assert hand.result.deltas == (3 * (p + d), -(p + d), -(p + d), -(p + d))
    elif case == "dealer_ron":
        hand, steps = scenario_hand("double_ron_dealer_and_nondealer", repeat=n)
        play(hand, *steps[:6], "3 pass", "0 ron")
        p = hand.result.scores[0].points
        assert hand.result.deltas == (3 * (p + d), -(3 * (p + d) - 12), -6, -6)
    elif case == "nondealer_ron_on_dealer":
        hand, steps = scenario_hand("dealer_bonus_nondealer_ron_on_dealer", repeat=n)
        play(hand, *steps)
        p = hand.result.scores[2].points
        assert hand.result.deltas == (-(3 * (p + d) - 12), -6, 3 * (p + d), -6)
    elif case == "nondealer_tsumo":
        hand, steps = scenario_hand("dihu_lost_after_pon", repeat=n)
        play(hand, *steps)
        p = hand.result.scores[3].points
        assert hand.result.deltas == (-(p + d), -p, -p, 3 * p + d)
    else:
        hand, steps = scenario_hand("double_ron_dealer_and_nondealer", repeat=n)
        play(hand, *steps[:6], "0 pass", "3 ron")
        p = hand.result.scores[3].points
        assert hand.result.deltas == (-6, -(3 * p - 12), -6, 3 * p)
    assert sum(hand.result.deltas) == 0


# ---- kans --------------------------------------------------------------------------------

def test_qianggang_robs_added_kan_only_before_it_completes() -> None:
    hand, steps = scenario_hand("qianggang_robbing_added_kan")
    play(hand, *steps[:-1])
    assert hand.phase == "rob" and hand.to_act == (3,)
    assert [str(m) for m in hand.melds(1)] == ["pon:666p"]       # not completed yet
    live = hand.live_wall_left
    play(hand, "3 ron")
    r = hand.result
    assert r.robbed and r.discarder == 1 and "qianggang" in r.scores[3].yaku
    assert hand.live_wall_left == live                            # no replacement drawn
    p = r.scores[3].points
    assert r.deltas == settle_ron({3: p}, 1, 0, 0)


def test_passed_rob_completes_the_kan_and_sets_furiten() -> None:
    hand, steps = scenario_hand("qianggang_robbing_added_kan")
    play(hand, *steps[:-1])
    live = hand.live_wall_left
    play(hand, "3 pass")
    assert hand.furiten(3)
    assert [str(m) for m in hand.melds(1)] == ["kakan:6666p"]
    assert hand.to_act == (1,) and hand.live_wall_left == live - 1
    assert hand.log[-1] == {"type": "draw", "seat": 1, "tile": hand.log[-1]["tile"], "dead": True}


def test_concealed_kan_cannot_be_robbed() -> None:
    hand, _ = scenario_hand("ankan_cannot_be_robbed")
    assert 0 in hand.waits(1)                    # seat 1 waits on 1m only (thirteen orphans)
    play(hand, "0 ankan 1m")
    assert hand.phase == "turn" and hand.to_act == (0,)
    assert not any(e["type"] == "rob_window" for e in hand.log)


def test_kans_shift_the_live_wall_into_the_dead_wall() -> None:
    hand, _ = scenario_hand("two_kans_live_wall_count")
    wall = hand.wall
    assert hand.live_wall_left == 69
    play(hand, "0 ankan 2m")
    assert hand.live_wall_left == 68
    play(hand, "0 ankan 3p")
    assert hand.live_wall_left == 67
    play(hand, "0 discard 1z")
    autoplay(hand)
    assert hand.result.kind == "draw" and hand.live_wall_left == 0
    draws = [e for e in hand.log if e["type"] == "draw"]
    live = [parse_tiles(e["tile"])[0] for e in draws if not e["dead"]]
    dead = [parse_tiles(e["tile"])[0] for e in draws if e["dead"]]
    assert dead == [wall[122], wall[123]]        # replacements from the dead wall's front
    assert live == list(wall[52:120])            # two kans: wall[120:122] moved to the dead wall


def test_several_kans_in_one_turn() -> None:
    hand, _ = scenario_hand("two_kans_live_wall_count")
    assert {"ankan 2m", "ankan 3p"} <= legal(hand, 0)
    play(hand, "0 ankan 2m")
    assert "ankan 3p" in legal(hand, 0)
    play(hand, "0 ankan 3p")
    assert [str(m) for m in hand.melds(0)] == ["ankan:2222m", "ankan:3333p"]


def test_no_kan_when_the_live_wall_is_empty() -> None:
    hand, steps = scenario_hand("final_discard_ron_only_hedi")
    play(hand, *steps[:77])
    assert hand.live_wall_left == 0
    assert hand.concealed(1).count(parse_tiles("8p")[0]) == 4
    assert "ankan 8p" not in legal(hand, 1)


def test_kan_with_one_live_tile_gives_lingshang_not_haidi() -> None:
    hand, steps = scenario_hand("kan_on_last_live_tile_lingshang_not_haidi")
    play(hand, *steps[:-2])
    assert hand.live_wall_left == 1 and "ankan 9p" in legal(hand, 0)
    assert not hand.view(0).kan_draw
    play(hand, "0 ankan 9p")
    assert hand.live_wall_left == 0
    assert hand.view(0).kan_draw and not hand.view(1).kan_draw   # the view tells lingshang
    play(hand, "0 tsumo")
    y = hand.result.scores[0].yaku
    assert "lingshang" in y and "haidi" not in y


def test_final_discard_can_only_be_ronned() -> None:
    hand, steps = scenario_hand("final_discard_ron_only_hedi")
    play(hand, *steps[:-1])
    # seat 2 could chi 5s (46s), seat 3 could pon it (55s): only the dealer's ron is offered
    assert hand.to_act == (0,) and legal(hand, 0) == {"ron", "pass"}
    play(hand, "0 ron")
    assert "hedi" in hand.result.scores[0].yaku


def test_exhaustive_draw_pays_nothing() -> None:
    hand, steps = scenario_hand("exhaustive_draw")
    play(hand, *steps)
    assert hand.result.kind == "draw" and hand.result.deltas == (0, 0, 0, 0)
    assert hand.log[-2] == {"type": "exhaustive_draw"}


# ---- furiten (RULES.md §4) -------------------------------------------------------------

def test_passed_ron_sets_furiten_until_the_next_draw() -> None:
    hand, steps = scenario_hand("furiten_passed_ron_cleared_by_draw")
    play(hand, *steps[:6])
    assert hand.furiten(3)
    play(hand, "1 discard 4s")               # 4s is also a wait of seat 3: not offered
    assert 3 not in hand.to_act
    play(hand, "2 discard 6s")
    assert hand.to_act == (3,) and not hand.furiten(3)


def _declined_tianhu_hand(replacement: str) -> Hand:
    # dealer: 2222m34m567m888m9m + 9m wins at once (tianhu, 清一色); quiet seats hold no m
    wall = build_wall({0: "2222m34m567m888m9m", 1: Q1, 2: Q2, 3: Q3},
                      draws="9m5m1p2p1s", dead=replacement)
    return Hand(wall=wall)


def test_declined_tsumo_sets_furiten_and_replacement_clears_nothing() -> None:
    hand = _declined_tianhu_hand("9p")
    assert "tsumo" in legal(hand, 0)
    play(hand, "0 ankan 2m")                 # declining the win for a kan (RULES.md §4)
    assert hand.furiten(0)
    assert hand.log[-3]["declined_win"] is True
    play(hand, "0 discard 9p")               # the replacement draw cleared nothing
    assert hand.furiten(0)
    play(hand, "1 discard 5m")               # the dealer's wait: no ron offered
    assert hand.to_act == (2,)
    play(hand, "2 discard 1p", "3 discard 2p")
    assert hand.to_act == (0,) and not hand.furiten(0)     # its next live draw clears it


def test_self_drawn_win_never_blocked_by_furiten() -> None:
    hand = _declined_tianhu_hand("5m")
    play(hand, "0 ankan 2m")
    assert hand.furiten(0) and "tsumo" in legal(hand, 0)
    play(hand, "0 tsumo")
    y = hand.result.scores[0].yaku
    assert "lingshang" in y and "tianhu" not in y


def test_claim_instead_of_ron_keeps_furiten_when_it_loses() -> None:
    wall = build_wall({0: "147m258p369s2255z", 1: "123456789m23p55s", 2: "258m369p147s4466z",
                       3: "369m1447p258s277z"}, draws="4p")
    hand = Hand(wall=wall)
    play(hand, "0 discard 4p")
    assert legal(hand, 1) == {"ron", "chi 234p", "pass"} and legal(hand, 3) == {"pon", "pass"}
    play(hand, "1 chi 234p")
    assert hand.furiten(1)                   # answering chi passes the win
    play(hand, "3 pon")
    assert [str(m) for m in hand.melds(3)] == ["pon:444p"] and hand.furiten(1)


def test_pon_instead_of_ron_clears_furiten_when_it_goes_through() -> None:
    hand, steps = scenario_hand("pon_instead_of_ron_not_furiten")
    play(hand, "0 discard 7z", "3 pon")
    assert not hand.furiten(3)
    assert any(e.get("declined_win") for e in hand.log)


def test_below_min_points_not_offered_and_passing_it_sets_nothing() -> None:
    hand, steps = scenario_hand("below_min_points_not_offered")
    play(hand, *steps[:5])
    assert parse_tiles("6m")[0] in hand.waits(2)
    assert 2 not in hand.to_act and not hand.furiten(2)
    # the same 6m win is legal once min_points allows it
    low, _ = scenario_hand("below_min_points_not_offered", min_points=3)
    play(low, *steps[:5])
    assert "ron" in legal(low, 2)


# ---- 天胡 地胡 人胡 --------------------------------------------------------------------

def test_tianhu() -> None:
    hand, _ = scenario_hand("tianhu")
    play(hand, "0 tsumo")
    assert "tianhu" in hand.result.scores[0].yaku


def test_tianhu_lost_after_a_concealed_kan() -> None:
    hand = _declined_tianhu_hand("5m")
    play(hand, "0 ankan 2m", "0 tsumo")
    assert "tianhu" not in hand.result.scores[0].yaku


def _dihu_hand(dealer_hand: str, dead: str = "") -> Hand:
    return Hand(wall=build_wall({0: dealer_hand, 1: W16, 2: Q2, 3: Q3}, draws="9s5s", dead=dead))


def test_dihu() -> None:
    hand = _dihu_hand("147p258s1111z223z")
    play(hand, "0 discard 9s", "1 tsumo")
    assert "dihu" in hand.result.scores[1].yaku


def test_dihu_lost_after_the_dealers_concealed_kan() -> None:
    hand = _dihu_hand("147p258s1111z223z", dead="8s")
    play(hand, "0 ankan 1z", "0 discard 8s")
    assert "tsumo" in legal(hand, 1)
    play(hand, "1 tsumo")
    assert "dihu" not in hand.result.scores[1].yaku


def test_dihu_lost_after_pon() -> None:
    hand, steps = scenario_hand("dihu_lost_after_pon")
    play(hand, *steps)
    assert "dihu" not in hand.result.scores[3].yaku


def test_renhu() -> None:
    hand, steps = scenario_hand("renhu")
    play(hand, *steps)
    assert "renhu" in hand.result.scores[2].yaku


def test_renhu_lost_after_a_call() -> None:
    hand, _ = scenario_hand("dihu_lost_after_pon")
    play(hand, "0 discard 7z", "2 pon", "2 discard 5s")
    assert "ron" in legal(hand, 3)
    play(hand, "3 ron")
    assert "renhu" not in hand.result.scores[3].yaku


# ---- chance yaku ----------------------------------------------------------------------

def test_haidi() -> None:
    hand, steps = scenario_hand("haidi_last_draw_tsumo")
    play(hand, *steps)
    assert hand.live_wall_left == 0 and "haidi" in hand.result.scores[1].yaku


def test_juezhang_from_the_ponds() -> None:
    hand, steps = scenario_hand("juezhang_ron_three_in_ponds")
    play(hand, *steps)
    assert "juezhang" in hand.result.scores[3].yaku


def test_no_juezhang_with_a_copy_unseen() -> None:
    hand, steps = scenario_hand("furiten_passed_ron_cleared_by_draw")
    play(hand, *steps)
    assert "juezhang" not in hand.result.scores[3].yaku


# ---- decisions API ------------------------------------------------------------------

def test_illegal_action_leaves_the_state_untouched() -> None:
    hand, _ = scenario_hand("chi_low_position")
    play(hand, "0 discard 3m")
    before = (list(hand.log), hand.to_act, hand.legal_actions(1), hand.concealed(1))
    with pytest.raises(IllegalActionError) as err:
        hand.step(1, Action("chi", parse_tiles("2m")[0]))
    msg = str(err.value)
    assert "seat 1" in msg and "chi 234m" in msg and "chi 345m" in msg and "claim" in msg
    with pytest.raises(IllegalActionError, match="not to act"):
        hand.step(2, Action("pass"))
    assert (hand.log, hand.to_act, hand.legal_actions(1), hand.concealed(1)) == before


def test_actions_after_the_end_are_refused() -> None:
    hand, _ = scenario_hand("tianhu")
    play(hand, "0 tsumo")
    assert hand.over and hand.to_act == ()
    with pytest.raises(IllegalActionError, match="over"):
        play(hand, "0 discard 1m")


def test_view_shows_only_what_the_seat_may_see() -> None:
    hand, _ = scenario_hand("chi_low_position")
    v0, v1 = hand.view(0), hand.view(1)
    assert v0.hand == hand.concealed(0) and len(v0.hand) == 14
    assert v0.target_tile == hand.wall[52] and v0.legal == hand.legal_actions(0)
    assert v1.target_tile is None and v1.legal == () and v1.target_from == 0
    assert v1.seat_wind == 1 and v0.seat_wind == 0
    play(hand, "0 discard 3m")
    v1 = hand.view(1)
    assert v1.phase == "claim" and v1.target_tile == parse_tiles("3m")[0] and v1.target_from == 0
    assert v1.legal == hand.legal_actions(1)
    for seat in range(4):
        v = hand.view(seat)
        seen = sum(len(m.tiles) for ms in v.melds for m in ms) + sum(
            not p.called for ps in v.ponds for p in ps) + len(v.hand)
        assert sum(v.unseen) == 136 - seen and min(v.unseen) >= 0


# ---- open kan and turn order -----------------------------------------------------------

def test_open_kan_draws_a_replacement_and_may_act_again() -> None:
    hand, _ = scenario_hand("no_kan_right_after_pon")
    play(hand, "0 discard 3z")
    assert legal(hand, 2) == {"pon", "minkan", "pass"}
    play(hand, "2 minkan")
    assert [str(m) for m in hand.melds(2)] == ["minkan:3333z"]
    assert hand.melds(2)[0].from_seat == 0 and hand.pond(0)[-1].called
    assert hand.log[-1]["type"] == "draw" and hand.log[-1]["dead"] is True
    assert hand.live_wall_left == 68 and hand.to_act == (2,)
    assert hand.view(2).kan_draw
    assert "ankan 4s" in legal(hand, 2)            # after a replacement draw kans are allowed
    play(hand, "2 discard 4s")
    if hand.phase == "claim":
        play(hand, *[f"{s} pass" for s in hand.to_act])
    assert hand.phase == "turn" and not hand.view(hand.to_act[0]).kan_draw


def test_play_continues_after_the_claimer() -> None:
    hand, _ = scenario_hand("no_kan_right_after_pon")
    play(hand, "0 discard 3z", "2 pon", "2 discard 1m")
    assert hand.to_act == (3,)                     # seat 1 is skipped
    assert hand.view(3).target_from == 3


def test_no_chi_on_honors() -> None:
    hand, _ = scenario_hand("chi_low_position")
    assert {parse_tiles(x)[0] for x in ("2z", "3z")} <= set(hand.concealed(1))
    play(hand, "0 discard 1z")                     # seat 1 holds 2z3z: no "chi" of winds
    assert hand.phase == "turn" and hand.to_act == (1,)


def test_the_ponds_keep_the_order_the_discards_were_made_in() -> None:
    # random play (claims included): every view's pond tiles, taken by ``order``, are the
    # log's discards in the order made, a claimed one included
    rng = random.Random(5)
    claimed = 0
    for seed in range(8):
        hand = Hand(seed=seed)
        while not hand.over:
            seat = hand.to_act[0]
            view = hand.view(seat)
            made = [(e["seat"], e["action"].split()[1]) for e in hand.log
                    if e["type"] == "decide" and e["action"].startswith("discard ")]
            ordered = sorted(((s, pt) for s, pond in enumerate(view.ponds) for pt in pond),
                             key=lambda d: d[1].order)
            assert [pt.order for _, pt in ordered] == list(range(len(made)))
            assert [(s, TILE_NAMES[pt.tile]) for s, pt in ordered] == made
            claimed = max(claimed, sum(pt.called for _, pt in ordered))
            hand.step(seat, rng.choice(hand.legal_actions(seat)))
    assert claimed > 0
