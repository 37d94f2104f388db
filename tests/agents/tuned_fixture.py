"""The tuned heuristic's recorded decisions (``tests/data/heuristic_tuned.json.gz``): the
safety net under every change to ``agents/heuristic`` that means to change no decision.

About a thousand hands, most of them self-play of ``heuristic`` (the tuned default) at
``min_points`` 6, some at 8 and 3, some against ``heuristic:nodefence``,
``heuristic:efficiency`` and random play, and the hands of one-round matches (other dealers,
round winds, repeat counters, scores): over 50,000 decisions of the default in every phase.
``tests/agents/test_decisions.py`` replays them (``recording.replay``) and fails at the first
decision that differs. The hands against the variants also carry the digests of the
``analysis-v2`` planes (every fourth decision), which networks read.

A change meant to change decisions (a rule of RULES.md, a retuned ``tuned.json``) re-records
it after the review that docs/agents.md ("Recorded decisions") describes:
``python -m tests.agents.tuned_fixture diff``, then ``… record``. Recording is
deterministic: the same code writes the same bytes.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

from tests.agents.recording import Fixture, Table, cli, dumps, record_tables

PATH = Path(__file__).resolve().parents[1] / "data" / "heuristic_tuned.json.gz"
SPECS = {s: s for s in ("heuristic", "heuristic:nodefence", "heuristic:efficiency")}
PLANES = "analysis-v2"

TABLES = (
    Table(("heuristic",) * 4, 860),
    Table(("heuristic",) * 4, 40, min_points=8),
    Table(("heuristic",) * 4, 30, min_points=3),
    Table(("heuristic", "random", "heuristic", "random"), 20),
    Table(("heuristic",) * 4, 8, match=True),
)
# with the digests of the planes
PLANE_TABLES = (
    Table(("heuristic", "heuristic:nodefence", "heuristic", "heuristic:efficiency"), 40),
    Table(("heuristic:efficiency", "heuristic", "heuristic:nodefence", "heuristic"), 4,
          match=True),
)


def load(path: Path = PATH) -> list[dict]:
    return json.loads(gzip.decompress(path.read_bytes()))["hands"]


def record() -> dict:
    """The tables played by the code as it stands."""
    from agents.features import Analyst
    hands = record_tables(TABLES, 8_000_000)
    hands += record_tables(PLANE_TABLES, 8_500_000, analyst=Analyst(PLANES))
    return {"planes": PLANES, "hands": hands}


def save(data: dict, path: Path = PATH) -> None:
    """Write the fixture, gzip'd with no timestamp (the same recording, the same bytes)."""
    path.write_bytes(gzip.compress(dumps(data).encode(), compresslevel=9, mtime=0))


FIXTURE = Fixture("tests.agents.tuned_fixture", PATH, SPECS, PLANES, load, record, save)

if __name__ == "__main__":
    sys.exit(cli(FIXTURE))
