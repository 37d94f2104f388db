"""The oracle critic: its value reads the hidden state, the policy never does."""

import numpy as np
import pytest
import torch

from agents.features import FEATURES_VERSION
from agents.checkpoint_file import save_policy_file
from agents.network import InputBuilder, NetConfig, build_net, load_weights
from agents.ppo import PPOAgent
from mjenv.env.actions import decode_action, legal_ids, legal_mask
from mjenv.env.observation import NUM_PLANES, encode
from mjenv.env.oracle import NUM_ORACLE_PLANES, encode_oracle
from mjenv.game import Action, Hand
from mjenv.rules import RuleConfig
from tests.env.helpers import random_states

ORACLE = NetConfig(NUM_PLANES, channels=8, blocks=1, features=FEATURES_VERSION,
                   oracle=NUM_ORACLE_PLANES)


def random_net(config: NetConfig, seed: int = 0):
    torch.manual_seed(seed)
    net = build_net(config).eval()
    with torch.no_grad():       # no zero-initialised layer: every input can show
        for p in net.parameters():
            p.normal_(0, 0.3)
    return net


def batch(states, config: NetConfig):
    views = [hand.view(seat) for hand, seat in states]
    obs = InputBuilder(config)(np.stack([encode(v) for v in views]), views)
    oracle = np.stack([encode_oracle(hand, seat) for hand, seat in states])
    return torch.as_tensor(obs), torch.as_tensor(oracle)


def test_policy_logits_do_not_depend_on_the_oracle_planes():
    net = random_net(ORACLE)
    obs, oracle = batch(list(random_states(seed=2, hands=1))[::5], ORACLE)
    noise = oracle + torch.rand_like(oracle) * 4
    logits, value = net(obs, oracle)
    logits2, value2 = net(obs, noise)
    assert torch.equal(logits, logits2) and torch.equal(logits, net.policy(obs)[0])
    assert not torch.allclose(value, value2)            # while the value reads them
    # no path at all from the oracle planes to the logits
    oracle.requires_grad_(True)
    logits, value = net(obs, oracle)
    assert torch.autograd.grad(logits.sum(), oracle, allow_unused=True)[0] is None
    assert torch.autograd.grad(value.sum(), oracle)[0].abs().sum() > 0


def test_the_value_needs_the_oracle_planes_and_a_plain_net_takes_none():
    obs, oracle = batch(list(random_states(seed=2, hands=1))[:3], ORACLE)
    with pytest.raises(ValueError, match="oracle planes"):
        random_net(ORACLE)(obs)
    plain = NetConfig(NUM_PLANES, channels=8, blocks=1, features=FEATURES_VERSION)
    with pytest.raises(ValueError, match="no oracle critic"):
        random_net(plain)(obs, oracle)
    with pytest.raises(ValueError, match="unknown"):
        NetConfig(NUM_PLANES, oracle=3)


def replay(hand: Hand, wall: list[int]) -> Hand:
    """``hand``'s decisions again, on ``wall``."""
    new = Hand(hand.rules, wall=wall, dealer=hand.dealer, round_wind=hand.round_wind)
    for ev in hand.log:
        if ev["type"] == "decide":
            new.step(ev["seat"], Action.parse(ev["action"]))
    return new


def hidden_variants(seed: int):
    """Pairs of (hand, seat to act) that differ only in what that seat cannot see: at the deal,
    the other seats' hands and the undrawn wall shuffled together; later in the deal, the
    undrawn tiles (live and dead wall) shuffled and the same decisions replayed."""
    rng = np.random.default_rng(seed)
    hand = Hand(seed=seed)
    wall = list(hand.wall)
    unseen = list(range(13, 52)) + list(range(53, 136))     # the dealer holds 0–12 and 52
    shuffled = list(wall)
    for p, q in zip(unseen, rng.permutation(unseen)):
        shuffled[p] = wall[q]
    yield (hand, 0), (Hand(wall=shuffled), 0)
    for step in range(200):
        if hand.over:
            return
        seat = hand.to_act[0]
        if step % 10 == 9 and hand.live_wall_left > 8:
            kans = sum(ev["type"] == "draw" and ev["dead"] for ev in hand.log)
            end = 122 - kans
            undrawn = list(range(end - hand.live_wall_left, 122)) + list(range(122 + kans, 136))
            shuffled = list(wall)
            for p, q in zip(undrawn, rng.permutation(undrawn)):
                shuffled[p] = wall[q]
            yield (hand, seat), (replay(hand, shuffled), seat)
        view = hand.view(seat)
        ids = legal_ids(view)
        hand.step(seat, decode_action(ids[int(rng.integers(len(ids)))], view))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_policy_input_carries_no_hidden_tile(seed):
    """States that differ only in hidden tiles: the acting seat's observation and analysis
    planes are identical, so are the logits; the oracle planes (and the value) are not."""
    net = random_net(ORACLE)
    differed = 0
    for (a, seat), (b, _) in hidden_variants(seed):
        assert a.view(seat) == b.view(seat)
        obs_a, oracle_a = batch([(a, seat)], ORACLE)
        obs_b, oracle_b = batch([(b, seat)], ORACLE)
        assert torch.equal(obs_a, obs_b)
        assert torch.equal(net.policy(obs_a)[0], net.policy(obs_b)[0])
        if not torch.equal(oracle_a, oracle_b):
            differed += 1
            assert net(obs_a, oracle_a)[1] != net(obs_b, oracle_b)[1]
    assert differed >= 3


def test_plain_weights_extend_to_an_oracle_critic_and_a_policy_file_keeps_it(tmp_path):
    plain_config = NetConfig(NUM_PLANES, channels=8, blocks=1, features=FEATURES_VERSION)
    plain = random_net(plain_config, seed=1)
    net = build_net(ORACLE).eval()
    load_weights(net, plain.state_dict())
    obs, oracle = batch(list(random_states(seed=4, hands=1))[::7], ORACLE)
    with torch.no_grad():
        logits, value = plain(obs)
        assert torch.equal(net.policy(obs)[0], logits)
        # the oracle's columns start at zero: the extended critic starts as the plain one
        torch.testing.assert_close(net(obs, oracle)[1], value)
        torch.testing.assert_close(net(obs, oracle * 0 + 3)[1], value)
    path = tmp_path / "oracle.pt"
    save_policy_file(path, net, RuleConfig())
    agent = PPOAgent.load(path, device="cpu")
    assert agent.net.config == ORACLE
    for key, value in net.state_dict().items():
        assert torch.equal(agent.net.state_dict()[key], value), key
    reference = PPOAgent(plain, rules=RuleConfig(), device="cpu")
    hand = Hand(seed=8)
    while not hand.over:                   # it plays, and exactly as the plain policy does
        seat = hand.to_act[0]
        view = hand.view(seat)
        action = agent.act(encode(view), legal_mask(view), view)
        assert action == reference.act(encode(view), legal_mask(view), view)
        hand.step(seat, decode_action(action, view))
