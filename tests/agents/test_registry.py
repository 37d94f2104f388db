import sys

import numpy as np
import pytest

import agents
from agents import make_agent
from agents.random_agent import RandomAgent
from tests.agents.helpers import view_of


@pytest.mark.parametrize("spec", ["random", "heuristic", "heuristic:efficiency",
                                  "heuristic:nodefence"])
def test_specs_build_named_agents(spec):
    agent = make_agent(spec, seed=1)
    assert agent.name == spec
    assert agent.needs_observation is False


@pytest.mark.parametrize("spec", ["", "heuristics", "heuristic:fast", "ppo:", 3, "Random"])
def test_unknown_specs_raise_value_error(spec):
    with pytest.raises(ValueError):
        make_agent(spec)


def test_package_import_does_not_load_torch():
    code = ("import sys, agents; agents.make_agent('heuristic'); agents.make_agent('random'); "
            "print('torch' in sys.modules)")
    import subprocess
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=agents.__path__[0] + "/..")
    assert out.stdout.strip() == "False"


def test_random_agent_is_uniform_over_the_mask_and_seeded():
    mask = np.zeros(110, dtype=np.int8)
    mask[[3, 17, 109]] = 1
    a, b = RandomAgent(7), RandomAgent(7)
    picks = [a.act(None, mask, None) for _ in range(3000)]
    assert picks == [b.act(None, mask, None) for _ in range(3000)]
    counts = np.bincount(picks, minlength=110)
    assert set(np.flatnonzero(counts)) == {3, 17, 109}
    assert counts[[3, 17, 109]].min() > 850          # ~1000 each
    a.reseed(7)
    assert a.act(None, mask, None) == picks[0]


def test_random_agent_rejects_an_empty_mask():
    with pytest.raises(ValueError):
        RandomAgent(0).act(None, np.zeros(110, dtype=np.int8), None)


def test_act_batch_matches_act():
    views = [view_of("123m456p789s1122z3z"), view_of("1199m2288p3377s14z")]
    from mjenv.env.actions import legal_mask
    masks = np.stack([legal_mask(v) for v in views])
    batch = make_agent("heuristic", seed=3).act_batch([None, None], masks, views)
    agent = make_agent("heuristic", seed=3)      # same seed: same tie-breaks
    assert list(batch) == [agent.act(None, m, v) for m, v in zip(masks, views)]


def test_ppo_spec_naming_a_directory_is_one_line(tmp_path, capsys):
    from agents.checkpoint_file import CheckpointError
    from mjenv.cli import main

    with pytest.raises(CheckpointError, match=r"is a directory, not a checkpoint file$"):
        make_agent(f"ppo:{tmp_path}")
    (tmp_path / "latest.pt").write_bytes(b"x")
    (tmp_path / "bc.pt").write_bytes(b"x")
    with pytest.raises(CheckpointError, match=r"it holds latest.pt, bc.pt: e.g. .*latest.pt"):
        make_agent(f"ppo:{tmp_path}")
    assert main(["eval", "--agent", f"ppo:{tmp_path}", "--deals", "1", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a directory" in err and "Traceback" not in err
