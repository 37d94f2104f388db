"""Issue 18's first done-when: a league of random, heuristic:efficiency, heuristic,
ppo:pretrained and the example external bot ranks them, with uncertainties shown, in the order
the 1-vs-3 duplicate evaluations give wherever an evaluation's CI95 excludes 0.

Every pair is evaluated once, the costlier agent as the candidate against three of the
cheaper one. Sizes: a quick run in the README's test command, more deals in CI's full run
(where more pairs are decisive). The test cannot pass vacuously: the pairs with random are
decisive at either size, and at least five pairs must be."""

from __future__ import annotations

import itertools
import json
import shlex
import sys
from pathlib import Path

from mjenv.cli import main
from tests.scale import n
from training.evaluate import evaluate

ROOT = Path(__file__).resolve().parents[2]
BOT = "cmd:" + shlex.join([sys.executable, str(ROOT / "agents" / "example_bot.py")])
# cheapest first: each pair is evaluated as the later agent against three of the earlier one
FIELD = ["random", BOT, "heuristic", "heuristic:efficiency", "ppo:pretrained"]
DEALS = n(16, 60)


def test_the_league_ranks_as_the_decisive_one_vs_three_evaluations(capsys):
    assert main(["arena", *FIELD, "--deals", str(DEALS), "--seed", "11", "--workers", "2",
                 "--json", "--no-progress"]) == 0
    board = json.loads(capsys.readouterr().out)["leaderboard"]
    place = {e["agent"]: k for k, e in enumerate(board)}
    assert set(place) == set(FIELD)
    for e in board:                                   # uncertainties shown
        assert e["sigma"] > 0 and e["ci95"][0] < e["mean"] < e["ci95"][1]
        assert e["hands"] == 4 * DEALS * 4 and e["faults"] == 0   # 4 of its 5 tables

    decisive = []
    for cheap, costly in itertools.combinations(FIELD, 2):
        report = evaluate(costly, cheap, DEALS, seed=11, workers=2)
        low, high = report["ci95"]
        if low > 0 or high < 0:
            better, worse = (costly, cheap) if low > 0 else (cheap, costly)
            decisive.append((better, worse, report["mean_score"]))
    assert len(decisive) >= 5
    assert {worse for _, worse, _ in decisive} >= {"random"}
    for better, worse, mean in decisive:
        assert place[better] < place[worse], (better, worse, mean, board)
