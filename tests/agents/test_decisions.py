"""The tuned heuristic makes every recorded decision (fixture: ``tests/agents/tuned_fixture.py``),
and the ``analysis-v2`` planes of the recorded views are bit-identical: a change to
``agents/heuristic`` that means to change no decision is checked here, decision by decision."""

from collections import Counter

from tests.agents.recording import Mismatch, replay
from tests.agents.tuned_fixture import PLANES, SPECS, load


def test_the_tuned_heuristic_makes_every_recorded_decision():
    from agents.features import Analyst
    try:
        kinds, _ = replay(load(), SPECS, analyst=Analyst(PLANES), stop=True)
    except Mismatch as first:
        raise AssertionError(f"a decision differs from the recording (re-record only for a "
                             f"change meant to change decisions: docs/agents.md, \"Recorded "
                             f"decisions\"): {first}") from None
    tuned = Counter({kind: c for (spec, kind), c in kinds.items() if spec == "heuristic"})
    assert sum(tuned.values()) >= 50_000
    assert kinds["heuristic:nodefence", "discard"] and kinds["heuristic:efficiency", "discard"]
    for kind in ("discard", "pass", "chi", "pon", "minkan", "ankan", "kakan", "ron", "tsumo"):
        assert tuned[kind] > 0, kind
