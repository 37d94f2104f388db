"""The duplicate harness: determinism, worker independence, the four rotations, statistics."""

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import training.evaluate as ev
from mjenv.rules import RuleConfig
from training.evaluate import deal_seed, evaluate, format_table, mean_ci95

KEYS = {"deals", "hands", "mean_score", "ci95", "win_rate", "deal_in_rate",
        "mean_points_per_win", "draw_rate", "tsumo_share", "below_min_complete_rate",
        "yaku_freq", "agent", "vs", "seed", "rules"}


def test_report_has_the_issue_fields_and_echoes_the_setup():
    r = evaluate("heuristic", "random", deals=3, seed=11, rules=RuleConfig(min_points=6))
    assert KEYS <= set(r)
    assert (r["agent"], r["vs"], r["seed"], r["deals"]) == ("heuristic", "random", 11, 3)
    assert r["rules"] == RuleConfig().to_dict()
    assert r["hands"] == 12
    low, high = r["ci95"]
    assert low <= r["mean_score"] <= high
    for key in ("win_rate", "deal_in_rate", "draw_rate", "tsumo_share",
                "below_min_complete_rate"):
        assert 0.0 <= r[key] <= 1.0
    assert all(0.0 < f <= 1.0 for f in r["yaku_freq"].values())
    assert "mean score / hand" in format_table(r)


def test_same_seed_same_report_and_any_worker_count():
    one = evaluate("heuristic:efficiency", "random", deals=4, seed=3)
    assert evaluate("heuristic:efficiency", "random", deals=4, seed=3) == one
    assert evaluate("heuristic:efficiency", "random", deals=4, seed=3, workers=2) == one
    assert evaluate("heuristic:efficiency", "random", deals=4, seed=4) != one


def test_every_deal_is_played_in_all_four_seats_on_the_same_wall(monkeypatch):
    calls = []
    real = ev.play_hand

    def spy(hand, agents, candidate):
        calls.append((hand.wall, candidate, [a.name for a in agents], hand.dealer))
        return real(hand, agents, candidate)

    monkeypatch.setattr(ev, "play_hand", spy)
    report = evaluate("heuristic", "random", deals=3, seed=2)
    assert report["hands"] == len(calls) == 12
    for d in range(3):
        group = calls[4 * d:4 * d + 4]
        assert {c[0] for c in group} == {group[0][0]}                # one wall per deal
        assert [c[1] for c in group] == [0, 1, 2, 3]                  # candidate rotates
        for wall, cand, names, dealer in group:
            assert names[cand] == "heuristic" and names.count("random") == 3
            assert dealer == 0
    assert len({calls[4 * d][0] for d in range(3)}) == 3              # deals differ
    from mjenv.game import Hand
    assert calls[0][0] == Hand(seed=deal_seed(2, 0)).wall


def test_ci_is_computed_from_per_deal_means(monkeypatch):
    # deltas by (deal, rotation): the interval must use the 3 deal means, not the 12 hands
    script = {0: [4, 8, 0, 0], 1: [-4, 0, 0, 0], 2: [12, 0, 0, 0]}
    counter = {"i": 0}

    def fake(hand, agents, candidate):
        i = counter["i"]
        counter["i"] += 1
        d = script[i // 4][i % 4]
        return ev.HandStats(d, d > 0, False, d < 0, d == 0, 8 if d > 0 else 0,
                            ("pinghu",) if d > 0 else (), False)

    monkeypatch.setattr(ev, "play_hand", fake)
    r = evaluate("random", "random", deals=3, seed=0)
    means = [3.0, -1.0, 3.0]
    mean, ci = mean_ci95(means)
    assert r["mean_score"] == pytest.approx(np.mean(means))
    assert r["ci95"] == pytest.approx(ci)
    sd = np.std(means, ddof=1)
    assert ci[1] - mean == pytest.approx(4.303 * sd / math.sqrt(3))   # t, 2 degrees of freedom
    assert r["win_rate"] == pytest.approx(3 / 12)
    assert r["yaku_freq"] == {"pinghu": 1.0}
    assert r["deal_in_rate"] == pytest.approx(1 / 12)


def test_mean_ci95_uses_students_t_at_every_sample_size():
    values = list(range(100))
    mean, (low, high) = mean_ci95(values)
    assert mean == pytest.approx(49.5)
    assert high - mean == pytest.approx(1.9842 * np.std(values, ddof=1) / 10, rel=1e-4)


def test_a_report_of_few_deals_says_its_interval_is_rough():
    few = evaluate("random", "random", deals=2, seed=0)
    assert few["ci95_rough"] and "rough" in format_table(few)
    assert 0.0 <= few["win_rate_ci95"][0] <= few["win_rate_ci95"][1] <= 1.0


def test_match_mode_reports_ranks():
    r = evaluate("heuristic", "random", deals=1, seed=0, rules=RuleConfig(rounds=1),
                 match=True)
    assert r["mode"] == "match"
    assert r["hands"] >= 16                          # 4 rotations × at least 4 hands
    assert 1.0 <= r["mean_rank"] <= 4.0
    assert sum(r["rank_freq"].values()) == pytest.approx(1.0)


@pytest.mark.parametrize("kwargs", [dict(deals=0), dict(workers=0), dict(seed=-1),
                                    dict(agent="nobody")])
def test_bad_arguments_raise_value_error(kwargs):
    args = dict(agent="random", vs="random", deals=2, seed=0) | kwargs
    with pytest.raises(ValueError):
        evaluate(**args)


class _Scripted:
    """Discards the tile just drawn (or ``plan[k]`` on its k-th turn); passes every claim."""

    name = "scripted"
    needs_observation = False

    def __init__(self, plan=None):
        self.plan, self.turns = dict(plan or {}), 0

    def act(self, observation, mask, view):
        from mjenv.env.actions import PASS, encode_action
        from mjenv.game import Action
        if view.phase != "turn":
            return PASS
        self.turns += 1
        tile = self.plan.get(self.turns, view.target_tile)
        if tile is None:
            tile = view.hand[-1]
        return encode_action(Action("discard", tile))


def test_below_min_complete_is_reported_for_a_withheld_ron():
    from mjenv.game import Hand
    from mjenv.tiles import parse_tile
    from tests.game.helpers import build_wall
    # seat 1 waits on 1s (花龙 4 + 门清 1 + 老少 1 = 6: legal) and 4s (花龙 + 门清 = 5: not);
    # seat 0 discards 4s on its second turn (after seat 1's first draw: no 人胡)
    wall = build_wall({0: "4s1m9m1p9p5m7m3p7z6z8s2m6p", 1: "123m456p789s23s55z"},
                      draws="1z2z3z4z1z")
    agents = [_Scripted({2: parse_tile("4s")}), _Scripted(), _Scripted(), _Scripted()]
    stats = ev.play_hand(Hand(RuleConfig(), wall=wall), agents, candidate=1)
    assert stats.below_min and not stats.won
    # the same deal with 6-point hands allowed at 5: the ron is offered (and passed): no flag
    agents = [_Scripted({2: parse_tile("4s")}), _Scripted(), _Scripted(), _Scripted()]
    stats = ev.play_hand(Hand(RuleConfig(min_points=5), wall=wall), agents, candidate=1)
    assert not stats.below_min


def test_snapshots_report_the_groups_done_so_far():
    seen = []
    final = evaluate("random", "random", deals=5, seed=1, snapshot=seen.append,
                     snapshot_every=2)
    assert [s["deals_done"] for s in seen] == [2, 4]
    assert all(s["deals"] == 5 for s in seen) and final["deals_done"] == 5
    assert seen[0] == evaluate("random", "random", deals=2, seed=1) | {"deals": 5}


def test_ppo_agents_evaluate_in_worker_processes():
    """A process that loaded a PPO agent starts its workers fresh (a forked child of a process
    whose torch thread pool is running can hang): same report as in-process, in bounded time."""
    code = ("import json; from training.evaluate import evaluate; "
            "print(json.dumps(evaluate('ppo:pretrained', 'random', deals=2, seed=5, workers=2)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=180, cwd=Path(__file__).resolve().parents[2], check=True)
    assert json.loads(out.stdout) == evaluate("ppo:pretrained", "random", deals=2, seed=5)


def test_progress_is_one_line_per_update_off_a_terminal():
    import io
    from training.evaluate import Progress
    stream = io.StringIO()
    bar = Progress(3, stream=stream)
    for done in (1, 2, 3):
        bar.update(done)
    out = stream.getvalue()            # within 10 s only the last update is written
    assert "\r" not in out and out.count("\n") == 1 and out.startswith("3/3 deals")


@pytest.mark.parametrize("spec", ["random", "heuristic", "heuristic:v1"])
def test_an_agent_against_three_copies_of_itself_reads_exactly_zero(spec, tmp_path):
    """Every rotation of a deal seats the same seeds in the same seats on the same wall, so
    four copies of one agent play one game four times (logs identical byte for byte) and the
    candidate's mean is exactly 0 with an interval of zero width. It fails if a rotation deals
    another wall, seeds a seat differently, or reads the candidate's score from the wrong
    seat; ``random`` draws every action from its seat's generator, so seeds are checked too."""
    deals = 6
    r = evaluate(spec, spec, deals=deals, seed=17, log_dir=str(tmp_path))
    assert r["mean_score"] == 0.0 and r["ci95"] == [0.0, 0.0]
    for d in range(deals):
        logs = {(tmp_path / f"deal{d:05d}-seat{s}.jsonl").read_text() for s in range(4)}
        assert len(logs) == 1
    assert len({(tmp_path / f"deal{d:05d}-seat0.jsonl").read_text()
                for d in range(deals)}) == deals


def test_seats_keep_their_seeds_across_rotations_but_not_across_deals(monkeypatch):
    seen = []
    real = ev.play_hand

    def spy(hand, agents, candidate):
        seen.append([a._rng.bit_generator.state["state"]["state"] for a in agents])
        return real(hand, agents, candidate)

    monkeypatch.setattr(ev, "play_hand", spy)
    evaluate("random", "heuristic", deals=2, seed=5)
    assert seen[0] == seen[1] == seen[2] == seen[3]
    assert seen[4] == seen[7] and seen[4] != seen[0]
    assert len(set(seen[0])) == 4


def test_paired_mode_compares_the_candidate_with_the_baseline_in_the_same_seat(monkeypatch):
    same = evaluate("heuristic", "heuristic", deals=4, seed=9, paired=True)
    assert same["mode"] == "paired" and same["hands"] == 4
    assert same["gain"] == 0.0 and same["gain_ci95"] == [0.0, 0.0]
    assert same["same_game_rate"] == 1.0
    seen = []
    real = ev.play_hand

    def spy(hand, agents, candidate):
        stats = real(hand, agents, candidate)
        seen.append((candidate, [a.name for a in agents], stats.delta))
        return stats

    monkeypatch.setattr(ev, "play_hand", spy)
    r = evaluate("heuristic:nodefence", "heuristic", deals=4, seed=9, paired=True)
    assert [c for c, _, _ in seen] == [0, 0, 1, 1, 2, 2, 3, 3]         # seat i % 4, twice
    gains = []
    for i in range(4):
        (c, names, mine), (_, base_names, base) = seen[2 * i], seen[2 * i + 1]
        assert names[c] == "heuristic:nodefence" and base_names == ["heuristic"] * 4
        gains.append(mine - base)
    assert r["gain"] == pytest.approx(np.mean(gains)) and r["same_game_rate"] < 1.0
    assert "gain over heuristic in the same seat" in format_table(r)
    with pytest.raises(ValueError, match="not both"):
        evaluate("random", "random", deals=1, match=True, paired=True)


def test_progress_off_a_terminal_is_at_most_one_line_per_10_s(monkeypatch):
    """150 s of deals at 1.5 s each: a line every 7 deals (10.5 s), then the last one."""
    import io
    from training.evaluate import Progress
    clock = [0.0]
    monkeypatch.setattr("training.evaluate.time.monotonic", lambda: clock[0])
    stream = io.StringIO()
    bar = Progress(100, stream=stream, label="deals vs random")
    for done in range(1, 101):
        clock[0] += 1.5
        bar.update(done)
    lines = stream.getvalue().splitlines()
    assert [int(line.split("/")[0]) for line in lines] == list(range(7, 99, 7)) + [100]
    assert all(" deals vs random " in line for line in lines)
