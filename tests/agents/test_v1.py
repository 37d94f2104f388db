"""``heuristic:v1`` is the frozen reference: it makes every recorded decision of the heuristic
as it stood when it was first measured, and the analysis planes of the shipped network
(``analysis-v1``) stay bit-identical (fixture: ``tests/agents/v1_fixture.py``)."""

import json
import subprocess
import sys
from pathlib import Path

from tests.agents.helpers import play
from tests.agents.recording import replay
from tests.agents.v1_fixture import SPECS, load

ROOT = Path(__file__).resolve().parents[2]


def _check(kinds, bad):
    assert not bad, f"{len(bad)} decisions differ from the recording, first: {bad[:3]}"
    v1 = {kind: c for (spec, kind), c in kinds.items() if spec == "heuristic"}
    assert sum(v1.values()) >= 5000
    # every phase of the game is in the recording
    for kind in ("discard", "pass", "chi", "pon", "minkan", "ankan", "kakan", "ron", "tsumo"):
        assert v1.get(kind, 0) > 0, kind


def test_v1_replays_the_recorded_decisions_after_other_heuristics_ran():
    """In this process the tuned default and its variants play first: whatever they leave in
    caches must not change a single decision or plane of v1."""
    from agents import make_agent
    from agents.features import Analyst
    for spec in ("heuristic", "heuristic:nodefence", "heuristic:efficiency"):
        play([make_agent(spec, seed=s) for s in range(4)], seed=31)
    _check(*replay(load(), SPECS, analyst=Analyst("analysis-v1")))


def test_v1_replays_the_recorded_decisions_in_a_fresh_process():
    code = ("import json; from tests.agents.recording import replay; "
            "from tests.agents.v1_fixture import SPECS, load; "
            "kinds, bad = replay(load(), SPECS); "
            "print(json.dumps([sorted([list(k), c] for k, c in kinds.items()), bad]))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    kinds, bad = json.loads(out.stdout)
    _check({tuple(k): c for k, c in kinds}, bad)
