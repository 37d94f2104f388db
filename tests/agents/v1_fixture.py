"""The frozen reference ``heuristic:v1``: its recorded decisions (``tests/data/heuristic_v1.json``).

The hands were played by the heuristic (and its efficiency-only variant) as they stood when
issue 14 opened (commit 18c10c7), mixed with other agents so that every phase occurs —
discards, chi/pon/open kans, concealed and added kans, ron, tsumo, passes — in deal mode and
inside matches (other dealers, round winds, repeat counters, scores). In the file, spec
``heuristic`` names the recorded v1; ``tests/agents/test_v1.py`` replays every hand
(``recording.replay``) and asks ``heuristic:v1`` for each of its decisions and
``heuristic:efficiency`` for each of its namesake's.

The analysis planes of the shipped network (``analysis-v1``) are recorded too, as a SHA-256
of the float32 bytes for every fourth decision of every seat, so the network's input is
checked bit for bit.

v1 is its parameters and tables, not a copy of old code, so a change of the rules (RULES.md)
may change its decisions; then the file is re-recorded, ``heuristic:v1`` playing the
``heuristic`` seats, after the review that docs/agents.md ("Recorded decisions") describes:
``python -m tests.agents.v1_fixture diff``, then ``… record``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.agents.recording import Fixture, Table, cli, dumps, record_tables

PATH = Path(__file__).resolve().parents[1] / "data" / "heuristic_v1.json"
SPECS = {"heuristic": "heuristic:v1", "heuristic:efficiency": "heuristic:efficiency"}
PLANES = "analysis-v1"

TABLES = (
    Table(("heuristic",) * 4, 50),
    Table(("heuristic", "random", "heuristic", "random"), 30),
    Table(("random", "heuristic", "heuristic:efficiency", "heuristic:nodefence"), 24),
    Table(("heuristic",) * 4, 8, min_points=8),
    Table(("heuristic", "random", "heuristic", "heuristic:efficiency"), 8, min_points=3),
    Table(("heuristic", "heuristic:nodefence", "heuristic", "heuristic:efficiency"), 4,
          match=True),
)


def load(path: Path = PATH) -> list[dict]:
    return json.loads(path.read_text())["hands"]


def record() -> dict:
    """The tables played now, ``heuristic:v1`` in the ``heuristic`` seats."""
    from agents.features import Analyst
    return {"hands": record_tables(TABLES, 7_000_000, play_as={"heuristic": "heuristic:v1"},
                                   analyst=Analyst(PLANES))}


def save(data: dict, path: Path = PATH) -> None:
    path.write_text(dumps(data))


FIXTURE = Fixture("tests.agents.v1_fixture", PATH, SPECS, PLANES, load, record, save)

if __name__ == "__main__":
    sys.exit(cli(FIXTURE))
