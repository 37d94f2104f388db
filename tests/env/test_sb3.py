"""Stable-Baselines3: MaskablePPO trains on the registered single-agent id through
``make_vec_env``, exactly as ``docs/sb3.md`` shows (the test runs the page's example)."""

import re
import warnings
from pathlib import Path

import numpy as np

from tests.requirements import require_module

require_module("sb3_contrib", 'pip install -e ".[sb3]"')

import torch  # noqa: E402

from mjenv.env import IllegalActionWarning  # noqa: E402

DOC = Path(__file__).resolve().parents[2] / "docs" / "sb3.md"


def _example() -> str:
    """The python block of docs/sb3.md that trains MaskablePPO."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    return next(code for code in blocks if "MaskablePPO(" in code)


def test_the_docs_example_trains_maskable_ppo():
    code = _example()
    assert 'make_vec_env("mjenv/MahjongSingle-v0", n_envs=4' in code
    assert 'env_kwargs={"opponents": "heuristic"}' in code and "MaskablePPO(\"MlpPolicy\"" in code
    torch.manual_seed(0)
    scope: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error", IllegalActionWarning)   # a masked action would end here
        exec(compile(code, str(DOC), "exec"), scope)
    model, vec_env, actions = scope["model"], scope["vec_env"], scope["actions"]
    try:
        assert model.num_timesteps >= 256
        assert model._n_updates > 0                      # gradient steps were taken
        assert len(model.ep_info_buffer) > 0             # and hands were played to their end
        assert all(abs(ep["r"]) < 10 for ep in model.ep_info_buffer)   # score / 100 per hand
        assert vec_env.observation_space.shape == (168, 34)
        masks = np.stack(vec_env.env_method("action_masks"))
        assert masks.shape == (4, 110) and masks[np.arange(4), actions].all()
        assert {type(o).__name__ for o in vec_env.get_attr("opponents")[0]} == {"HeuristicAgent"}
    finally:
        vec_env.close()
