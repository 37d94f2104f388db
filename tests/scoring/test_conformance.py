"""All 1,000 scoring cases of tests/data/scoring_cases.jsonl (format:
/work/shared/conformance/README.md): P must match and the counted yaku must equal one of the
listed tie alternatives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mjenv.scoring import score_hand

CASES = [json.loads(line) for line in
         (Path(__file__).parents[1] / "data" / "scoring_cases.jsonl").read_text().splitlines()
         if line.strip()]

# Cases judged to contradict RULES.md (index -> the rule): none so far.
WRONG: dict[int, str] = {}


def test_case_count() -> None:
    assert len(CASES) == 1000


@pytest.mark.parametrize("index", range(len(CASES)))
def test_case(index: int) -> None:
    if index in WRONG:
        pytest.xfail(WRONG[index])
    case = CASES[index]
    r = score_hand(**case["q"])
    assert (r.points, r.yaku in case["yaku"]) == (case["points"], True), \
        f"got {r.points} {r.yaku}, expected {case['points']} {case['yaku']}"
