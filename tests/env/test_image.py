"""``render_mode="rgb_array"``: the table as a picture, the same path for the three envs, and
Gymnasium's RecordVideo on top of it."""

import numpy as np
import pytest
from gymnasium.error import ResetNeeded

import mjenv.pettingzoo
from mjenv.env import MahjongEnv, SingleAgentEnv
from mjenv.env.image import HEIGHT, WIDTH, draw_table
from mjenv.game import Hand
from tests.env.helpers import random_states
from tests.requirements import require_module

GOLD = (0xF5, 0xC5, 0x42)            # the outline of the seat to act
EDGE = (0x2F, 0x6B, 0x53)            # the outline of the others
BOTTOM_TOP_EDGE = (474, 640)         # (y, x) on seat 0's panel outline
TOP_BOTTOM_EDGE = (246, 640)         # on seat 2's


def test_frames_are_rgb_arrays_of_every_state():
    for hand, seat in random_states(seed=3, hands=2):
        frame = draw_table(hand, to_act=(seat,))
        assert frame.shape == (HEIGHT, WIDTH, 3) and frame.dtype == np.uint8
    assert hand.over                         # the generator played the last hand out
    assert (draw_table(hand) != frame).any()  # the finished hand: the result in the middle


def test_the_seat_to_act_is_outlined_and_a_discard_changes_the_picture():
    hand = Hand(seed=12)
    before = draw_table(hand, to_act=hand.to_act)
    assert tuple(before[BOTTOM_TOP_EDGE]) == GOLD and tuple(before[TOP_BOTTOM_EDGE]) == EDGE
    assert (draw_table(hand, to_act=hand.to_act) == before).all()       # deterministic
    hand.step(0, hand.legal_actions(0)[0])                               # seat 0 discards
    after = draw_table(hand, to_act=hand.to_act)
    assert tuple(after[BOTTOM_TOP_EDGE]) == EDGE
    changed = np.flatnonzero((after != before).any(axis=(1, 2)))
    assert changed.size and (after[470:] != before[470:]).any()         # seat 0's panel


def test_the_three_envs_share_one_rendering_path():
    gym_env = MahjongEnv(render_mode="rgb_array")
    gym_env.reset(seed=9)
    single = SingleAgentEnv(opponents="random", learner_seat=0, render_mode="rgb_array")
    single.reset(seed=9)
    aec = mjenv.pettingzoo.env(render_mode="rgb_array")
    aec.reset(seed=9)
    frame = gym_env.render()
    assert (single.render() == frame).all() and (aec.render() == frame).all()
    for env in (gym_env, single, aec.unwrapped):
        assert "rgb_array" in env.metadata["render_modes"] and env.metadata["render_fps"] == 4


def test_record_video_writes_an_episode(tmp_path):
    require_module("moviepy", 'pip install -e ".[dev]"')
    import gymnasium
    from gymnasium.wrappers import RecordVideo

    env = RecordVideo(gymnasium.make("mjenv/MahjongSingle-v0", render_mode="rgb_array",
                                     opponents="random", learner_seat=0),
                      str(tmp_path / "videos"), episode_trigger=lambda episode: True,
                      disable_logger=True)
    obs, info = env.reset(seed=1)
    steps = 0
    while True:
        obs, reward, terminated, truncated, info = env.step(
            env.action_space.sample(mask=info["action_mask"]))
        steps += 1
        if terminated or truncated:
            break
    env.close()
    videos = list((tmp_path / "videos").glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 10_000 and steps > 0


def test_no_frame_without_a_game():
    with pytest.raises(ResetNeeded, match="call reset"):
        MahjongEnv(render_mode="rgb_array").render()


def test_the_font_has_every_character_a_frame_draws(monkeypatch):
    """No missing glyph (an empty box) anywhere: every character drawn over hands that end in
    wins and in exhaustive draws is in the font's character map."""
    from fontTools.ttLib import TTFont
    from PIL import ImageDraw

    from mjenv.env import image

    drawn: dict[str, set[str]] = {}
    text = ImageDraw.ImageDraw.text

    def record(self, xy, string, *args, font=None, **kwargs):
        drawn.setdefault(font.path, set()).update(string)
        return text(self, xy, string, *args, font=font, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", record)
    image._tile.cache_clear()
    from agents import make_agent
    from mjenv.env.play import play

    endings = set()
    for seed in range(60):                   # until a win and an exhaustive draw were drawn:
        # heuristic players win most hands, random ones rarely end a hand but by the wall
        agents = [make_agent("heuristic" if seed % 2 else "random", seed=s) for s in range(4)]
        hand = Hand(seed=seed)
        steps = []

        def look(step, hand=hand, steps=steps) -> None:
            steps.append(step)
            if len(steps) % 25 == 1:         # turns and claim windows on the way
                draw_table(hand, to_act=hand.to_act)

        play(hand, agents, on_step=look)
        draw_table(hand)
        endings.add(hand.result.kind)
        if "draw" in endings and endings & {"ron", "tsumo"}:
            break
    assert "draw" in endings and endings & {"ron", "tsumo"}
    for path, chars in drawn.items():
        path.seek(0)
        cmap = TTFont(path).getBestCmap()
        missing = sorted(c for c in chars if not c.isspace() and ord(c) not in cmap)
        assert not missing, f"no glyph for {missing} in the frames' font"
