"""The committed docs and the env's manual match the code they describe."""

import re
from pathlib import Path

from mjenv.env import actions, gym_env, observation, oracle

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_observation_doc_is_generated_from_planes():
    assert (DOCS / "observation.md").read_text(encoding="utf-8") == observation.markdown(), \
        "docs/observation.md is stale; regenerate: python -c \"from mjenv.env import " \
        "observation as m; open('docs/observation.md', 'w').write(m.markdown())\""


def test_oracle_doc_is_generated_from_planes():
    assert (DOCS / "oracle.md").read_text(encoding="utf-8") == oracle.markdown(), \
        "docs/oracle.md is stale; regenerate: python -c \"from mjenv.env import " \
        "oracle as m; open('docs/oracle.md', 'w').write(m.markdown())\""


def test_actions_doc_is_generated():
    assert (DOCS / "actions.md").read_text(encoding="utf-8") == actions.markdown(), \
        "docs/actions.md is stale; regenerate: python -c \"from mjenv.env import " \
        "actions as m; open('docs/actions.md', 'w').write(m.markdown())\""


def test_gym_docstring_plane_table_matches_the_encoder():
    rows = re.findall(r"^(\d+)(?:–(\d+))?\s+``(\w+)", gym_env.__doc__, flags=re.M)
    covered = []
    for start, stop, name in rows:
        start = int(start)
        stop = int(stop) if stop else start
        names = [p.name for p in observation.PLANES[start:stop + 1]]
        if name.endswith("_"):                        # a block: ``self_*`` …
            assert all(n.startswith(name) for n in names), (start, name)
        else:
            assert names[0] == name, (start, name)
        covered.extend(range(start, stop + 1))
    assert covered == list(range(observation.NUM_PLANES))
    assert "(NUM_PLANES, 34)" in gym_env.__doc__
