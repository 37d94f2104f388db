"""PPOAgent on real game states: legal, deterministic when greedy, batched like single calls."""

import numpy as np
import pytest
import torch

from agents.checkpoint_file import save_policy_file
from agents.network import NetConfig, build_net
from agents.ppo import PPOAgent
from mjenv.env.actions import decode_action, legal_mask
from mjenv.env.observation import NUM_PLANES, encode
from mjenv.game import Hand
from mjenv.rules import RuleConfig
from tests.scale import n


def random_net(seed):
    torch.manual_seed(seed)
    net = build_net(NetConfig(NUM_PLANES, channels=8, blocks=1))
    with torch.no_grad():   # large random logits, so that masking is what keeps actions legal
        for p in net.parameters():
            p.normal_(0, 1.0)
    return net


@pytest.mark.parametrize("greedy", [True, False])
def test_agent_plays_whole_deals_legally(greedy):
    agent = PPOAgent(random_net(1), rules=RuleConfig(), greedy=greedy, seed=3, device="cpu")
    for deal in range(n(3, 20)):
        hand = Hand(seed=100 + deal)
        while not hand.over:
            seats = hand.to_act
            views = [hand.view(s) for s in seats]
            obs = np.stack([encode(v) for v in views])
            masks = np.stack([legal_mask(v) for v in views])
            actions = agent.act_batch(obs, masks, views)
            for s, v, m, a in zip(seats, views, masks, actions):
                assert m[a] == 1
                hand.step(s, decode_action(int(a), v))   # raises on an illegal action


def test_greedy_is_the_masked_argmax_and_batch_equals_single(tmp_path):
    net = random_net(2)
    path = tmp_path / "p.pt"
    save_policy_file(path, net, RuleConfig())
    agent = PPOAgent.load(path, device="cpu")
    hand = Hand(seed=7)
    views, obs, masks = [], [], []
    while not hand.over and len(views) < 12:
        s = hand.to_act[0]
        v = hand.view(s)
        views.append(v)
        obs.append(encode(v))
        masks.append(legal_mask(v))
        hand.step(s, v.legal[0])
    batch = agent.act_batch(np.stack(obs), np.stack(masks), views)
    single = [agent.act(o, m, v) for o, m, v in zip(obs, masks, views)]
    assert batch.tolist() == single
    with torch.no_grad():
        logits, _ = net(torch.as_tensor(np.stack(obs)))
    logits[~torch.as_tensor(np.stack(masks)).bool()] = -np.inf
    assert batch.tolist() == logits.argmax(-1).tolist()


def test_other_rules_are_refused_unless_allowed():
    agent = PPOAgent(random_net(3), rules=RuleConfig(min_points=8), device="cpu")
    hand = Hand(seed=1)
    v = hand.view(hand.to_act[0])
    with pytest.raises(ValueError, match="trained under"):
        agent.act(encode(v), legal_mask(v), v)
    agent.allow_other_rules = True
    assert legal_mask(v)[agent.act(encode(v), legal_mask(v), v)] == 1


@pytest.mark.parametrize("which", ["pretrained", "pretrained-bc"])
def test_the_shipped_checkpoints_load_and_play(which):
    """agents/pretrained/ppo.pt and bc.pt must match the current observation/action encoding:
    this fails (with the checkpoint's clear message) when the encoding changes without
    retraining. Their specs name them."""
    from agents import make_agent
    from agents.registry import policy_file
    agent = PPOAgent.pretrained(which, device="cpu")
    assert agent.name == f"ppo:{which}" == make_agent(f"ppo:{which}").name
    assert policy_file(f"ppo:{which}").name == {"pretrained": "ppo.pt",
                                                "pretrained-bc": "bc.pt"}[which]
    hand = Hand(seed=11)
    while not hand.over:
        seat = hand.to_act[0]
        v = hand.view(seat)
        hand.step(seat, decode_action(agent.act(encode(v), legal_mask(v), v), v))
