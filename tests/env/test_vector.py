"""The native vector env (``gym.make_vec("mjenv/MahjongSingle-v0", num_envs=N)``): the same
episodes as Gymnasium's SyncVectorEnv over the same id, step for step, in both autoreset modes;
partial resets; opponents that read the planes answered in batches; argument errors."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.vector import AutoresetMode

import mjenv  # noqa: F401  (registers the ids)
from mjenv.env.actions import NUM_ACTIONS
from mjenv.env.observation import NUM_PLANES
from mjenv.env.vector import MahjongVectorEnv, table_opponents
from tests.env.helpers import RandomAgent, pick
from tests.env.reference_encoder import reference_encode
from tests.requirements import require_module
from tests.scale import n

ID = "mjenv/MahjongSingle-v0"


def pair(num_envs: int, **kwargs):
    """The native vector env and SyncVectorEnv over the same id and keyword arguments."""
    native = gym.make_vec(ID, num_envs=num_envs, **kwargs)
    sync = gym.make_vec(ID, num_envs=num_envs, vectorization_mode="sync", **kwargs)
    return native, sync


def same_info(a: dict, b: dict) -> None:
    """Native info arrays against SyncVectorEnv's merged per-env dicts."""
    assert np.array_equal(a["action_mask"], b["action_mask"])
    assert a["action_mask"].shape == (len(a["seat"]), NUM_ACTIONS)
    assert np.array_equal(a["seat"], b["seat"])
    assert np.array_equal(a["rewards"], np.array([list(r) for r in b["rewards"]]))
    assert all(x == y for x, y in zip(a["view"], b["view"]))
    for key in ("result", "redeals"):
        assert np.array_equal(a.get(f"_{key}", []), b.get(f"_{key}", []))
        if f"_{key}" in a:
            mask = a[f"_{key}"]
            assert list(a[key][mask]) == list(b[key][mask])


@pytest.mark.parametrize("observation", ["planes", "dict"])
def test_same_episodes_as_sync_vector_env(observation):
    native, sync = pair(3, opponents="random", hand_context="random", observation=observation,
                        min_points=0)               # wins of any size: rewards to compare
    assert isinstance(native.unwrapped, MahjongVectorEnv)
    assert native.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert native.observation_space == sync.observation_space
    assert native.action_space == sync.action_space
    rng = np.random.default_rng(0)
    (a, ia), (b, ib) = native.reset(seed=11), sync.reset(seed=11)
    ended = won = 0
    while True:
        if observation == "planes":
            assert a.shape == (3, NUM_PLANES, 34) and np.array_equal(a, b)
        else:
            assert all(np.array_equal(a[k], b[k]) for k in ("observation", "action_mask"))
        same_info(ia, ib)
        assert np.array_equal(native.unwrapped.action_masks(), ia["action_mask"].astype(bool))
        if ended >= n(6, 40) and won:
            break
        actions = np.array([pick(rng, m) for m in ia["action_mask"]])
        a, ra, ta, tra, ia = native.step(actions)
        b, rb, tb, trb, ib = sync.step(actions)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb) and not tra.any()
        ended += int(ta.sum())
        won += int((ra != 0).sum())
    native.close()
    sync.close()


def test_observations_are_the_reference_planes_of_the_views():
    env = MahjongVectorEnv(2, opponents="random")
    rng = np.random.default_rng(1)
    obs, info = env.reset(seed=3)
    for _ in range(n(60, 400)):
        for i in range(2):
            assert np.array_equal(obs[i], reference_encode(info["view"][i]))
        obs, _, _, _, info = env.step(np.array([pick(rng, m) for m in info["action_mask"]]))


def test_same_step_autoreset_matches_sync_vector_env():
    kw = dict(opponents="random", learner_seat=2)
    native = gym.make_vec(ID, num_envs=2, autoreset_mode="SameStep", **kw)
    sync = gym.make_vec(ID, num_envs=2, vectorization_mode="sync",
                        vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP}, **kw)
    assert native.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    rng = np.random.default_rng(2)
    (a, ia), (b, ib) = native.reset(seed=5), sync.reset(seed=5)
    finals = 0
    while finals < n(3, 12):
        actions = np.array([pick(rng, m) for m in ia["action_mask"]])
        a, ra, ta, _, ia = native.step(actions)
        b, rb, tb, _, ib = sync.step(actions)
        assert np.array_equal(a, b) and np.array_equal(ra, rb) and np.array_equal(ta, tb)
        same_info(ia, ib)
        assert ia["action_mask"].any(axis=1).all()          # every table is playable again
        if ta.any():
            finals += int(ta.sum())
            done = np.flatnonzero(ta)
            assert np.array_equal(ia["_final_obs"], ib["_final_obs"])
            for i in done:
                assert np.array_equal(ia["final_obs"][i], ib["final_obs"][i])
                assert not ia["final_info"]["action_mask"][i].any()
                assert ia["final_info"]["view"][i] == ib["final_info"]["view"][i]


def test_reset_mask_resets_only_those_tables():
    env = MahjongVectorEnv(3, opponents="random", learner_seat=0)
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(5):
        obs, _, _, _, info = env.step(np.array([pick(rng, m) for m in info["action_mask"]]))
    before = [v.live_wall_left for v in info["view"]]
    mask = np.array([False, True, False])
    obs2, info2 = env.reset(options={"reset_mask": mask})
    after = [v.live_wall_left for v in info2["view"]]
    assert after[0] == before[0] and after[2] == before[2] and after[1] > before[1]
    assert list(info2["_redeals"]) == [False, True, False]
    assert np.array_equal(obs2[0], obs[0])
    with pytest.raises(ValueError, match="reset_mask"):
        env.reset(options={"reset_mask": np.zeros(3, dtype=bool)})


class BatchedAgent(RandomAgent):
    """A stand-in for a greedy network: reads the planes, one instance for every table."""

    stochastic = False

    def __init__(self) -> None:
        super().__init__(0)
        self.batches: list[int] = []

    def act_batch(self, observations, masks, views):
        self.batches.append(len(views))
        for o, m, v in zip(observations, masks, views):
            assert np.array_equal(o, reference_encode(v))
            assert np.array_equal(m, np.isin(np.arange(NUM_ACTIONS), np.flatnonzero(m)))
        return super().act_batch(observations, masks, views)


def test_opponents_that_read_the_planes_answer_in_batches():
    agent = BatchedAgent()
    env = MahjongVectorEnv(4, opponents=[agent, "random", agent])
    assert env.games[0].opponents[0] is env.games[3].opponents[0] is agent
    assert env.games[0].opponents[1] is not env.games[1].opponents[1]     # a spec: per table
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    for _ in range(n(30, 200)):
        _, _, _, _, info = env.step(np.array([pick(rng, m) for m in info["action_mask"]]))
    assert max(agent.batches) > 1 and sum(agent.batches) > 50


def test_greedy_network_specs_are_built_once():
    require_module("torch", 'pip install -e ".[train]"')
    tables = table_opponents(["ppo:pretrained", "random", "ppo:pretrained"], 3)
    assert tables[0][0] is tables[2][0] and tables[0][2] is tables[1][2]
    assert tables[0][1] is not tables[1][1]


def test_mistakes_are_one_line_errors():
    with pytest.raises(ValueError, match="num_envs"):
        MahjongVectorEnv(0, opponents="random")
    with pytest.raises(ValueError, match="autoreset_mode"):
        MahjongVectorEnv(2, opponents="random", autoreset_mode="sometimes")
    with pytest.raises(ValueError, match="observation"):
        MahjongVectorEnv(2, opponents="random", observation="pixels")
    env = MahjongVectorEnv(2, opponents="random")
    with pytest.raises(ResetNeeded):
        env.step(np.zeros(2, dtype=np.int64))
    env.reset(seed=0)
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros(3, dtype=np.int64))


def test_an_illegal_learner_action_ends_that_episode_with_the_penalty():
    env = MahjongVectorEnv(2, opponents="random", learner_seat=1)
    _, info = env.reset(seed=4)
    bad = [int(np.flatnonzero(m == 0)[0]) for m in info["action_mask"]]
    good = pick(np.random.default_rng(0), info["action_mask"][1])
    with pytest.warns(mjenv.env.IllegalActionWarning):
        _, reward, terminated, _, info = env.step(np.array([bad[0], good]))
    assert reward[0] == -1.0 and terminated[0] and not info["action_mask"][0].any()
    _, reward, terminated, _, info = env.step(np.array([0, pick(np.random.default_rng(1),
                                                                info["action_mask"][1])]))
    assert reward[0] == 0.0 and not terminated[0] and info["action_mask"][0].any()


def test_render_gives_one_frame_per_table():
    env = MahjongVectorEnv(2, opponents="random", render_mode="ansi", tile_style="ascii")
    env.reset(seed=0)
    frames = env.render()
    assert len(frames) == 2 and all(isinstance(f, str) and f for f in frames)
