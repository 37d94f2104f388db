"""docs/sb3.md's section on the native vector env runs as it stands: the make_vec example and
MaskablePPO through ``mjenv.env.sb3.MahjongVecEnv``; the adapter's SB3 conventions."""

import re
import warnings
from pathlib import Path

import numpy as np

from tests.requirements import require_module

require_module("sb3_contrib", 'pip install -e ".[sb3]"')

import torch  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402

from mjenv.env import IllegalActionWarning  # noqa: E402
from mjenv.env.sb3 import MahjongVecEnv  # noqa: E402

DOC = Path(__file__).resolve().parents[2] / "docs" / "sb3.md"


def _section_blocks() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## The native vector env", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_the_sections_examples_run():
    blocks = _section_blocks()
    assert len(blocks) == 2
    scope: dict = {}
    exec(compile(blocks[0], str(DOC), "exec"), scope)
    assert scope["obs"].shape == (8, 168, 34) and scope["info"]["action_mask"].shape == (8, 110)
    torch.manual_seed(0)
    scope = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error", IllegalActionWarning)   # a masked action would end here
        exec(compile(blocks[1], str(DOC), "exec"), scope)
    model, vec_env = scope["model"], scope["vec_env"]
    assert model.num_timesteps >= 256 and model._n_updates > 0
    assert len(model.ep_info_buffer) > 0 and all(abs(ep["r"]) < 10 for ep in model.ep_info_buffer)
    assert {type(o).__name__ for o in vec_env.get_attr("opponents")[0]} == {"HeuristicAgent"}


def test_sb3_conventions():
    env = MahjongVecEnv(num_envs=3, opponents="random", min_points=0)
    assert is_masking_supported(env)
    env.seed(4)
    obs = env.reset()
    assert obs.shape == (3, 168, 34)
    assert [i["seat"] for i in env.reset_infos] == [g.seat for g in env.venv.games]
    rng = np.random.default_rng(0)
    finished = 0
    while finished < 4:
        masks = get_action_masks(env)
        assert masks.shape == (3, 110) and masks.any(axis=1).all()
        env.step_async(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        obs, rewards, dones, infos = env.step_wait()
        assert rewards.dtype == np.float32 and len(infos) == 3
        for i in np.flatnonzero(dones):
            finished += 1
            terminal = infos[i]["terminal_observation"]
            assert terminal.shape == (168, 34) and not np.array_equal(terminal, obs[i])
    assert env.get_attr("render_mode") == [None] * 3
    assert env.env_is_wrapped(object) == [False] * 3
