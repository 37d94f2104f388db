"""The heuristic's decisions on hand-built views, and properties over played hands."""

import numpy as np
import pytest

from agents import make_agent
from dataclasses import replace

from agents.heuristic import HeuristicAgent, HeuristicParams
from agents.heuristic.models import risk
from agents.heuristic.params import V1, default
from agents.heuristic.defence import DefenceParams, threats, tile_dangers
from mjenv.analysis import wait_kinds
from mjenv.env.actions import PASS, PON, RON, TSUMO, decode_action, legal_mask
from mjenv.scoring import WinContext, score
from mjenv.tiles import parse_tiles
from tests.agents.helpers import play, view_of
from tests.scale import n


def choose(spec, view, seed=0):
    return decode_action(make_agent(spec, seed=seed).act(None, legal_mask(view), view), view)


@pytest.mark.parametrize("spec", ["heuristic", "heuristic:efficiency", "heuristic:nodefence"])
def test_always_takes_a_legal_win(spec):
    tiles = "123m456p789s11z22z3z"
    turn = view_of(tiles, legal=["discard 1m", "discard 3z", "tsumo"], target="3z")
    agent = make_agent(spec)
    assert agent.act(None, legal_mask(turn), turn) == TSUMO
    claim = view_of("123m456p789s11z22z", phase="claim", target="1z", target_from=2,
                    legal=["ron", "pon", "pass"])
    assert agent.act(None, legal_mask(claim), claim) == RON
    rob = view_of("123m456p789s11z22z", phase="rob", target="1z", target_from=2,
                  legal=["ron", "pass"])
    assert agent.act(None, legal_mask(rob), rob) == RON


def test_a_mask_narrower_than_the_rules_is_obeyed():
    # the tsumo masked out: the agent plays one of the discards left, not its usual win
    turn = view_of("123m456p789s11z22z3z", legal=["discard 1m", "discard 3z", "tsumo"],
                   target="3z")
    mask = legal_mask(turn)
    mask[TSUMO] = 0
    aid = make_agent("heuristic").act(None, mask, turn)
    assert mask[aid] == 1 and decode_action(aid, turn).kind == "discard"
    with pytest.raises(ValueError, match="no legal action in the mask"):
        make_agent("heuristic").act(None, np.zeros_like(mask), turn)


def test_pons_a_dragon_that_makes_a_valuable_ready_hand():
    # after pon 5z and discarding 3p: 12345678m 11z, ready on 3-6-9m with 混一色 (≥ 6)
    view = view_of("12345678m1155z3p", phase="claim", target="5z", target_from=3,
                   legal=["pon", "pass"])
    assert make_agent("heuristic").act(None, legal_mask(view), view) == PON


def test_does_not_break_a_ready_seven_pairs_hand_to_pon():
    view = view_of("1199m2288p3377s4z", phase="claim", target="9m", target_from=2,
                   legal=["pon", "pass"])
    assert make_agent("heuristic").act(None, legal_mask(view), view) == PASS


def _flush_threat_view(live):
    # seat 1 shows three melds in p (a flush) late in the hand and has discarded 5m and 8m
    return view_of("456m3457p258s99s27z", melds=((), ("pon:111p", "chi:678p", "pon:999p"),
                                                 (), ()),
                   ponds=("", "5m8m", "", ""), live=live)


def test_v1_defence_folds_against_a_visible_flush():
    view = _flush_threat_view(live=12)
    p = DefenceParams()
    danger = tile_dangers(view, threats(view, p), p)
    defended = choose("heuristic:v1", view)
    pushed = decode_action(HeuristicAgent(replace(V1, defence=False)).act(
        None, legal_mask(view), view), view)
    assert defended.tile // 9 != 1                      # never a tile of the flush suit
    assert danger[defended.tile] < danger[pushed.tile]
    assert danger[defended.tile] == min(danger[t] for t in set(view.hand))


def test_the_risk_defence_weighs_the_risk_against_what_the_hand_stands_to_win():
    """Against seat 1's three melds late in the hand, with a risk weight (the default's own is
    what tuning found; this checks the trade-off itself): of the four discards the twin without
    defence rates equally best (2m, 8m, 1p, 9s: it throws any of them), a far hand takes the one
    the model finds safest; a ready hand worth a legal win (一条龙) pushes the one discard that
    keeps it ready, a tile of seat 1's suit."""
    params = replace(default(), risk_weight=3.0)
    assert params.defence_model == "risk"
    far = view_of("2458m14466p12569s", melds=((), ("pon:111p", "chi:678p", "pon:999p"), (),
                                              ()),
                  ponds=("", "5m8m", "", ""), live=12)

    def pick(p, view):
        return decode_action(HeuristicAgent(p, seed=0).act(None, legal_mask(view), view), view)

    defended = HeuristicAgent(params).options(far, far.legal)
    pushed = HeuristicAgent(replace(params, defence=False)).options(far, far.legal)
    assert len(defended) == 1 and len(pushed) == 4
    loss = risk(far, params.risk, sorted(set(far.hand)))
    at = {t: x for t, x in zip(sorted(set(far.hand)), loss)}
    assert at[defended[0].tile] < min(at[a.tile] for a in pushed if a != defended[0])
    ready = view_of("123456789m55s77z4p", melds=((), ("pon:111p", "chi:678p", "pon:999p"),
                                                (), ()),
                    ponds=("", "5m8m", "", ""), live=12)
    assert pick(params, ready).tile == parse_tiles("4p")[0]


def test_no_threat_means_no_defence():
    view = view_of("456m3457p258s99s27z", live=60)
    assert choose("heuristic", view) == choose("heuristic:nodefence", view)


def test_efficiency_variant_switches_value_planning_and_defence_off():
    p = HeuristicParams.efficiency_only()
    assert not p.value_planning and not p.defence
    assert make_agent("heuristic:nodefence").params.value_planning


def _legal_ready(hand_counts, melds, view):
    """Whether these 13 tiles wait on some unseen tile that is a legal win (ron or tsumo)."""
    hand = [t for t in range(34) for _ in range(hand_counts[t])]
    for w in wait_kinds(hand_counts, melds):
        if view.unseen[w] == 0:
            continue
        for tsumo in (False, True):
            ctx = WinContext(tsumo=tsumo, seat_wind=view.seat_wind, round_wind=view.round_wind)
            if score(hand, w, melds, ctx).points >= view.rules.min_points:
                return True
    return False


def test_value_planning_keeps_a_legal_wait_whenever_one_is_available():
    """Without defence, whenever some discard leaves a ready hand with a legal winning tile
    still unseen, the heuristic's discard does too (value planning checks waits with the
    scorer); the count of such decisions shows the property was exercised."""
    checked = 0

    def check(seat, view, aid):
        nonlocal checked
        if view.phase != "turn" or aid >= 34:
            return
        counts = [0] * 34
        for t in view.hand:
            counts[t] += 1
        melds = view.melds[seat]
        options = {}
        for a in view.legal:
            if a.kind == "discard":
                counts[a.tile] -= 1
                options[a.tile] = _legal_ready(counts, melds, view)
                counts[a.tile] += 1
        if any(options.values()):
            checked += 1
            assert options[aid], f"seat {seat} discarded {aid} and left no legal wait"

    agents = [make_agent("heuristic:nodefence", seed=s) for s in range(4)]
    for seed in range(n(6, 30)):
        play(agents, seed=1000 + seed, on_decision=check)
    assert checked >= 5


def test_same_seed_same_play():
    logs = []
    for _ in range(2):
        agents = [make_agent("heuristic", seed=s) for s in range(4)]
        logs.append(play(agents, seed=7).log)
    assert logs[0] == logs[1]


@pytest.mark.parametrize("spec", ["heuristic", "heuristic:v1"])
def test_options_are_what_the_tie_break_draws_from(spec):
    # three isolated guest winds: whichever goes, the same hand is left up to their symmetry
    view = view_of("123m456p789s55m234z")
    options = make_agent(spec).options(view, view.legal)
    assert sorted(map(str, options)) == ["discard 2z", "discard 3z", "discard 4z"]
    assert {str(choose(spec, view, seed)) for seed in range(40)} == set(map(str, options))
    # one option where it is sure: a win
    win = view_of("123m456p789s11z22z3z", legal=["discard 1m", "discard 3z", "tsumo"],
                  target="3z")
    assert [str(a) for a in make_agent(spec).options(win, win.legal)] == ["tsumo"]


def test_heuristic_agent_reports_its_needs():
    agent = HeuristicAgent()
    assert agent.needs_observation is False
    with pytest.raises(ValueError):
        agent.act(None, np.zeros(110, dtype=np.int8), view_of("123m456p789s11z22z3z"))


def test_the_final_discard_is_the_safest():
    """With the live wall empty no draw follows the discard: the default throws the tile the
    model finds least likely to deal in, whatever it does to the hand's shape."""
    view = view_of("123456789m55s77z4p", melds=((), ("pon:111p", "chi:678p", "pon:999p"),
                                               (), ()),
                   ponds=("", "5m8m", "", ""), live=0)
    tiles = sorted(set(view.hand))
    loss = dict(zip(tiles, risk(view, default().risk, tiles)))
    assert choose("heuristic", view).tile == min(tiles, key=loss.get)


def _souzu_threat(live):
    return view_of("123m59m117p2233z66z", melds=((), ("pon:111s", "chi:678s", "pon:999s"), (),
                                                  ()),
                   ponds=("", "1m7s6z9m7z", "", ""), live=live)


def test_ties_go_to_the_least_risky_discard():
    """Against seat 1's three souzu melds the twin without defence rates 1m and 9m equally
    best and draws one; the default throws the one the model finds less risky."""
    view = _souzu_threat(live=12)
    params = replace(default(), fold_below=0.0)
    pushed = HeuristicAgent(replace(params, defence=False)).options(view, view.legal)
    assert sorted(a.tile for a in pushed) == parse_tiles("1m9m")
    loss = dict(zip(parse_tiles("1m9m"), risk(view, params.risk, parse_tiles("1m9m"))))
    assert loss[pushed[0].tile] != loss[pushed[1].tile]
    assert [a.tile for a in HeuristicAgent(params).options(view, view.legal)] == \
        [min(loss, key=loss.get)]


def test_a_hopeless_hand_folds():
    """Twelve tiles before the wall ends, four or more tiles from any plan, the hand is under
    `fold_below` likely to win: with the fold on (the default has it off since the knitted
    plan) the heuristic throws the least risky tile of all, although it breaks a pair the
    hand keeps otherwise; early in the hand the same tiles push."""
    params = replace(default(), fold_below=0.05)
    late = _souzu_threat(live=12)
    tiles = sorted(set(late.hand))
    loss = dict(zip(tiles, risk(late, params.risk, tiles)))
    folded = HeuristicAgent(params).options(late, late.legal)
    assert [a.tile for a in folded] == [min(tiles, key=loss.get)]
    pushed = HeuristicAgent(replace(params, fold_below=0.0)).options(late, late.legal)
    assert folded[0] not in pushed
    early = _souzu_threat(live=60)
    assert HeuristicAgent(params).options(early, early.legal) == \
        HeuristicAgent(replace(params, fold_below=0.0)).options(early, early.legal)


def test_the_default_plays_for_the_knitted_shape():
    """147m 258p 36s 12345z + 5m: throwing the 5m leaves a ready knitted hand (waits 9s, 6z,
    7z). The default plans the knitted shape and throws it; v1, whose plans know no knitted
    shape, reads the hand as far from everything and throws an honor."""
    view = view_of("147m258p36s12345z5m")
    assert [a.tile for a in HeuristicAgent(default()).options(view, view.legal)] == \
        parse_tiles("5m")
    left = [0] * 34
    for t in parse_tiles("147m258p36s12345z"):
        left[t] += 1
    assert sorted(wait_kinds(left, ())) == parse_tiles("9s67z")
    assert all(a.tile >= 27 for a in HeuristicAgent(V1).options(view, view.legal))


def _played_turns():
    """The turn views of a few hands of four ``heuristic`` seats."""
    turns = []

    def keep(seat, view, aid):
        if view.phase == "turn":
            turns.append(view)

    for seed in range(n(3, 12)):
        play([make_agent("heuristic", seed=s) for s in range(4)], seed=seed, on_decision=keep)
    return turns


def test_penalties_measured_best_first_choose_as_measuring_every_discard(monkeypatch):
    """``penalized_best_first`` measures a discard's risk only where it can matter: on
    played turns the options are those of an agent that measures every discard, and most
    discards are left unmeasured."""
    from agents.heuristic import defence

    best_first = defence.penalized_best_first
    measured = offered = 0

    def every(options, margin, measure):
        pairs = measure(list(range(len(options))))
        return [(u - pen, a) for (u, a), (_, pen) in zip(options, pairs)], \
            [x for x, _ in pairs]

    def counting(options, margin, measure):
        nonlocal measured, offered
        out, loss = best_first(options, margin, measure)
        measured += sum(x is not None for x in loss)
        offered += len(options)
        return out, loss

    agent = HeuristicAgent(default())
    for view in _played_turns():
        monkeypatch.setattr(defence, "penalized_best_first", every)
        everything = agent.options(view, view.legal)
        monkeypatch.setattr(defence, "penalized_best_first", counting)
        assert agent.options(view, view.legal) == everything
    assert 0 < measured < offered // 2


def test_rate_weighs_every_discard_and_ranks_what_the_turn_plays_first():
    """``rate`` (a search's candidates) lists each legal discard once, best first, and a
    discard the turn plays is rated within ``safe_margin`` of the best."""
    rater = make_agent("heuristic")
    margin = rater.params.safe_margin
    turns = []

    def check(seat, view, aid):
        if view.phase != "turn" or len(view.legal) < 2 or any(
                a.kind == "tsumo" for a in view.legal):
            return
        rated = rater.rate(view)
        discards = [a for a in view.legal if a.kind == "discard"]
        assert sorted(r.action for r in rated) == sorted(discards)
        utils = [r.utility for r in rated]
        assert utils == sorted(utils, reverse=True)
        played = decode_action(aid, view)
        if played.kind == "discard":
            u = next(r.utility for r in rated if r.action == played)
            assert u >= utils[0] - margin - 1e-9
            turns.append(u == utils[0])

    for seed in range(n(4, 20)):
        play([make_agent("heuristic", seed=s) for s in range(4)], seed=900 + seed,
             on_decision=check)
    assert len(turns) > 50 and sum(turns) > 0.8 * len(turns)


def test_late_risk_weight_weighs_the_risk_more_in_the_last_draws_only():
    """``late_risk_weight`` multiplies ``risk_weight`` once ``LATE_DRAWS`` draws or fewer are
    left: with a heavy one, some late turns of played hands play differently, and no turn
    with more draws left does; at 1 it is the default exactly."""
    from agents.heuristic.defence import LATE_DRAWS, RiskDefence

    params = default()
    heavy = replace(params, late_risk_weight=20.0)
    assert RiskDefence(heavy).weight(view_of("19m19p19s1234567z", live=LATE_DRAWS)) == \
        20.0 * params.risk_weight
    assert RiskDefence(heavy).weight(view_of("19m19p19s1234567z", live=LATE_DRAWS + 1)) == \
        params.risk_weight
    late = []
    for view in _played_turns():
        if HeuristicAgent(heavy).options(view, view.legal) != \
                HeuristicAgent(params).options(view, view.legal):
            late.append(view.live_wall_left)
    assert late and max(late) <= LATE_DRAWS


def test_after_a_call_the_best_discard_is_found_without_weighing_every_one():
    """``Evaluator.after_call`` weighs a chi's or pon's discards only where the scorer may
    decide or the hand is complete, and no further than the first at 1: at every chi and pon
    of played hands it gives the least distance of all the discards weighed one by one."""
    from agents.heuristic.evaluator import Evaluator
    evaluator = Evaluator(default().evaluation())
    checked = 0

    def check(seat, view, aid):
        nonlocal checked
        counts = [0] * 34
        for t in view.hand:
            counts[t] += 1
        for a in view.legal:
            if a.kind in ("chi", "pon"):
                after, melds = evaluator._called(view, a, counts)
                every = evaluator.discards(after, melds, view, [t for t in range(34) if after[t]],
                                           hard_only=True, ukeire=None)
                assert evaluator.after_call(view, a, counts) == min(e.dist for e in every.values())
                checked += 1

    for seed in range(n(4, 16)):
        play([make_agent("heuristic", seed=s) for s in range(4)], seed=seed, on_decision=check)
    assert checked > 50
