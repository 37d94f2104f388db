"""Behaviour cloning: a warm start for PPO from games of a teacher agent (the heuristic).

PPO from random weights spends its first hours learning what any rule-based player knows
(keep pairs and runs, discard isolated honours, call ron). Cloning the heuristic first gets a
policy near the heuristic's strength in minutes, and PPO then improves on it.

Data. ``hands`` deals with the teacher in all four seats, kept as *game records* (JSON lines:
the deal's seed and round wind and every decision as ``[seat, "action text"]``), not as
observations: the teacher is the slow part, records are tiny, and replaying a record through
the engine re-creates every view, so the same games serve any later observation encoding.
A teacher with ``options`` (the heuristic agents: the actions it rates equally best, which its
seeded tie-break draws from) also has them recorded where it had several — ``[seat, "action
text", ["option text", …]]`` — and the record says ``"options": true``; record files made
before that (or by another teacher) have plain decisions only and clone with hard targets.
``records_to_data`` replays them and keeps each decision with at least two legal actions
(observation as float16 — planes are small integers or fractions — mask, teacher's action id,
target distribution).

Targets. Soft (the default): the teacher's options, each entry an equal share — its own policy,
since it plays each of them equally often. The heuristic ties at about a third of the decisions
with a choice (2.8 options on average), and fitting the one option it happened to draw teaches
the clone a confident preference the teacher does not have: with hard targets the clone's
entropy was 0.055 nats and PPO, sampling from it, hardly explored. Soft targets keep the
clone's probability spread where the teacher is unsure (``docs/training.md``). Hard
(``--no-soft-targets``): the action played.
The value head is fitted at the same time to the deciding seat's discounted, scaled deal score
(``gamma**k * reward_scale * delta``, k = that seat's later decisions), the target PPO's value
head starts from — except an oracle critic's (``NetConfig.oracle``), which reads the hidden
state the records do not keep: its network is cloned for the policy only.

Loss: cross-entropy of the masked logits (illegal actions at -1e8, as in PPO) to the targets
plus ``vf_coef`` times the value MSE. A 5 % hold-out reports the agreement (the clone's argmax
is one of the targets' actions) and the clone's mean entropy.
"""

from __future__ import annotations

import dataclasses
import json
import multiprocessing as mp
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np
import torch
from torch import nn

from agents.checkpoint_file import save_policy_file
from agents.network import InputBuilder, NetConfig, PolicyNet, masked_entropy, masked_logits
from mjenv.env.actions import NUM_ACTIONS, encode_action
from mjenv.game import Action
from mjenv.rules import RuleConfig
from training.args import LocalArgs, TrainerArgs, arg, explicit_fields


@dataclass
class BCData:
    obs: np.ndarray          # float16 (N, C, 34)
    masks: np.ndarray        # bool (N, 110)
    actions: np.ndarray      # int64 (N,): the teacher's action
    targets: np.ndarray      # float32 (N, 110): the distribution fitted (``decision_target``)
    returns: np.ndarray      # float32 (N,)

    def __len__(self) -> int:
        return len(self.actions)


def play_teacher_games(hands: int, seed: Sequence[int] | int, rules: RuleConfig,
                       teacher: str = "heuristic") -> list[dict]:
    """``hands`` deals with the ``teacher`` in every seat, as game records (with the teacher's
    options where it has ``options``: the module doc)."""
    from agents import make_agent
    from mjenv.env.play import play
    from mjenv.game import Hand

    rng = np.random.default_rng(seed)
    agent = make_agent(teacher, seed=int(rng.integers(2**31)))
    options = getattr(agent, "options", None)
    records = []
    for _ in range(hands):
        deal_seed, round_wind = int(rng.integers(2**62)), int(rng.integers(2))
        decisions: list[list] = []

        def note(step) -> None:
            decision = [step.seat, str(step.action)]
            if options is not None:
                # asked again after the move: its ratings are a function of the view alone
                tied = options(step.view, step.view.legal)
                if len(tied) > 1:
                    decision.append([str(a) for a in tied])
            decisions.append(decision)

        play(Hand(rules, seed=deal_seed, dealer=0, round_wind=round_wind), [agent] * 4,
             on_step=note)
        records.append({"seed": deal_seed, "round_wind": round_wind, "decisions": decisions,
                        **({"options": True} if options is not None else {})})
    return records


def _play_worker(args) -> list[dict]:
    torch.set_num_threads(1)
    return play_teacher_games(*args)


def generate_records(hands: int, seed: int, rules: RuleConfig, *, teacher: str = "heuristic",
                     workers: int = 1) -> list[dict]:
    """``play_teacher_games`` split over ``workers`` processes (seeds ``[seed, 0xBC, w]``)."""
    workers = max(1, min(workers, hands))
    shares = [hands // workers + (w < hands % workers) for w in range(workers)]
    jobs = [(shares[w], [seed, 0xBC, w], rules, teacher) for w in range(workers)]
    if workers == 1:
        return _play_worker(jobs[0])
    with mp.get_context("spawn").Pool(workers) as pool:
        return [r for part in pool.map(_play_worker, jobs) for r in part]


def save_records(path: str | Path, records: Iterable[dict], rules: RuleConfig, teacher: str) -> None:
    """JSON lines: a header ``{"rules": …, "teacher": …}`` then one record per deal."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        f.write(json.dumps({"rules": rules.to_dict(), "teacher": teacher}) + "\n")
        for r in records:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")


def load_records(paths: Sequence[str | Path], rules: RuleConfig) -> list[dict]:
    """Records of one or more files; ``ValueError`` naming the file for one that cannot be read,
    is not a record file (``save_records``) or was made under other rules."""
    records = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                try:
                    header = json.loads(f.readline())
                    stored = RuleConfig.from_dict(header["rules"])
                except (ValueError, KeyError, TypeError):
                    raise ValueError(f"record file {path}: not a game-record file (its first "
                                     f"line should be the header {{\"rules\": …, "
                                     f"\"teacher\": …}})") from None
                if stored != rules:
                    raise ValueError(f"record file {path}: games played under {stored}, "
                                     f"not {rules}")
                for n, line in enumerate(f, 2):
                    if line.strip():
                        try:
                            records.append(json.loads(line))
                        except ValueError:
                            raise ValueError(f"record file {path}: line {n} is not JSON") from None
        except OSError as exc:
            raise ValueError(f"record file {path}: cannot be read "
                             f"({exc.strerror or exc})") from None
    return records


def decision_target(decision: list, view, soft: bool) -> np.ndarray:
    """(110,) float32: the distribution behaviour cloning fits at a recorded ``decision`` made
    from ``view`` — with ``soft``, an equal share for each entry of the teacher's options (an
    option listed twice gets two shares: the teacher plays it twice as often); otherwise, or
    where the teacher had one option, all of it on the action played."""
    texts = decision[2] if soft and len(decision) > 2 else [decision[1]]
    target = np.zeros(NUM_ACTIONS, np.float32)
    for text in texts:
        target[encode_action(Action.parse(text), view)] += 1.0 / len(texts)
    return target


def records_to_data(records: Sequence[dict], rules: RuleConfig, reward_scale: float = 0.025,
                    gamma: float = 0.997, config: NetConfig | None = None,
                    soft: bool = True) -> BCData:
    """Replay the records and encode every decision that had a choice (see the module doc),
    as the input of a network of ``config`` (default: observation planes only), with soft or
    hard targets (``decision_target``). Soft targets need records with the teacher's options:
    a ``ValueError`` for one without."""
    from mjenv.env.observation import NUM_PLANES, encode
    from mjenv.env.play import play
    from mjenv.game import Hand

    config = config or NetConfig(NUM_PLANES)
    inputs = InputBuilder(config)
    obs, masks, actions, targets, returns = [], [], [], [], []
    for rec in records:
        if soft and not rec.get("options"):
            raise ValueError(f"record of deal seed {rec['seed']}: {NO_OPTIONS}")
        hand = Hand(rules, seed=rec["seed"], dealer=0, round_wind=rec["round_wind"])
        per_seat: list[list[int]] = [[], [], [], []]
        decisions = iter(rec["decisions"])

        def keep(step) -> None:
            decision = next(decisions)          # play reports every decision, in order
            if int(step.mask.sum()) > 1:
                per_seat[step.seat].append(len(actions))
                obs.append(inputs(encode(step.view)[None], [step.view])[0].astype(np.float16))
                masks.append(step.mask.astype(bool))
                actions.append(step.action_id)
                targets.append(decision_target(decision, step.view, soft))
                returns.append(0.0)

        play(hand, [_Replay(rec)] * 4, on_step=keep)
        for seat in range(4):
            target = reward_scale * float(hand.result.deltas[seat])
            for k, i in enumerate(reversed(per_seat[seat])):
                returns[i] = target * gamma ** k
    n = len(actions)
    return BCData(np.stack(obs) if n else np.zeros((0, config.input_planes, 34), np.float16),
                  np.stack(masks) if n else np.zeros((0, NUM_ACTIONS), bool),
                  np.array(actions, dtype=np.int64),
                  np.stack(targets) if n else np.zeros((0, NUM_ACTIONS), np.float32),
                  np.array(returns, dtype=np.float32))


#: Why a record cannot give soft targets (the end of a one-line error).
NO_OPTIONS = ("it holds the teacher's moves but not its options (recorded before they were, or "
              "by a teacher without options()); clone it with --no-soft-targets")


class _Replay:
    """Plays a game record's decisions back, in order, for every seat."""

    name = "record"
    needs_observation = False

    def __init__(self, record: dict) -> None:
        self.record, self.next = record, iter(record["decisions"])

    def act(self, observation, mask, view) -> int:
        decision = next(self.next, None)
        if decision is None:
            raise ValueError(f"record of deal seed {self.record['seed']} ends before the deal "
                             f"does")
        seat, text = decision[:2]
        if seat != view.seat:
            raise ValueError(f"record of deal seed {self.record['seed']}: seat {seat} decides "
                             f"where seat {view.seat} must")
        return encode_action(Action.parse(text), view)


def _replay_worker(args) -> BCData:
    torch.set_num_threads(1)
    return records_to_data(*args)


def replay_records(records: Sequence[dict], rules: RuleConfig, reward_scale: float,
                   gamma: float, config: NetConfig, workers: int = 1,
                   soft: bool = True) -> BCData:
    """``records_to_data`` over ``workers`` processes (contiguous chunks, so the result is the
    same for any ``workers``): the analysis planes make the replay the slow part."""
    workers = max(1, min(workers, len(records)))
    if workers == 1:
        return records_to_data(records, rules, reward_scale, gamma, config, soft)
    bounds = np.linspace(0, len(records), workers + 1).astype(int)
    jobs = [(records[a:b], rules, reward_scale, gamma, config, soft)
            for a, b in zip(bounds, bounds[1:])]
    with mp.get_context("spawn").Pool(workers) as pool:
        parts = pool.map(_replay_worker, jobs)
    return BCData(*(np.concatenate([getattr(p, f.name) for p in parts])
                    for f in dataclasses.fields(BCData)))


def train_bc(net: PolicyNet, data: BCData, *, epochs: int = 4, lr: float = 1e-3,
             batch_size: int = 256, vf_coef: float = 0.5, seed: int = 0,
             log=print) -> dict[str, float]:
    """Fit ``net`` to the targets (and value targets). Returns the final training loss, the
    hold-out agreement (share of decisions where the argmax is an action of the target: the
    teacher's, or one of its options) and the clone's mean entropy over the hold-out."""
    if len(data) < 20:
        raise ValueError(f"too little BC data ({len(data)} decisions)")
    device = next(net.parameters()).device
    rng = np.random.default_rng([seed, 0xBC])
    order = rng.permutation(len(data))
    n_val = max(1, len(data) // 20)
    val, train = order[:n_val], order[n_val:]
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    total_batches = epochs * -(-len(train) // batch_size)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda i: 1 - i / total_batches)

    def batch(idx: np.ndarray):
        idx = np.sort(idx)
        return (torch.as_tensor(data.obs[idx], device=device).float(),
                torch.as_tensor(data.masks[idx], device=device),
                torch.as_tensor(data.targets[idx], device=device),
                torch.as_tensor(data.returns[idx], device=device))

    stats: dict[str, float] = {}
    for epoch in range(epochs):
        net.train()
        losses = []
        for idx in np.array_split(rng.permutation(train), max(1, len(train) // batch_size)):
            obs, mask, target, ret = batch(idx)
            logits, z = net.policy(obs)
            ce = nn.functional.cross_entropy(masked_logits(logits, mask), target)
            loss = ce
            if not net.config.oracle:    # an oracle critic reads planes the records lack
                loss = loss + vf_coef * ((net.value(z) - ret) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            losses.append(float(ce.detach()))
        net.eval()
        correct, entropy = 0, 0.0
        with torch.no_grad():
            for idx in np.array_split(val, max(1, len(val) // 1024)):
                obs, mask, target, _ = batch(idx)
                logits = masked_logits(net.policy(obs)[0], mask)
                best = logits.argmax(-1, keepdim=True)
                correct += int((target.gather(1, best) > 0).sum())
                entropy += float(masked_entropy(logits, mask).sum())
        stats = {"epoch": epoch + 1, "train_ce": float(np.mean(losses)),
                 "val_accuracy": correct / len(val), "val_entropy": entropy / len(val)}
        log(f"bc epoch {epoch + 1}/{epochs}: cross-entropy {stats['train_ce']:.4f}, "
            f"hold-out agreement {stats['val_accuracy']:.3f}, "
            f"entropy {stats['val_entropy']:.3f} nats")
    return stats


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def behaviour_clone(net: PolicyNet, rules: RuleConfig, *, hands: int, epochs: int, lr: float,
                    seed: int, reward_scale: float, out: str | Path | None = None,
                    workers: int = 1, teacher: str = "heuristic", gamma: float = 0.997,
                    records: Sequence[dict] = (), soft_targets: bool = True) -> dict:
    """Play the teacher's games (or take the game ``records`` given, ``load_records``), train
    ``net`` in place to soft or hard targets (the module doc) and save it to ``out`` (a policy
    file: the "BC starting point" PPO is compared against); games played are saved beside it as
    ``bc_games.jsonl``."""
    if records:
        games = list(records)
    else:
        _log(f"bc: playing {hands} deals of {teacher} self-play …")
        games = generate_records(hands, seed, rules, teacher=teacher, workers=workers)
        if out is not None:
            save_records(Path(out).with_name("bc_games.jsonl"), games, rules, teacher)
    data = replay_records(games, rules, reward_scale, gamma, net.config, workers, soft_targets)
    _log(f"bc: {len(data):,} decisions with a choice")
    stats = train_bc(net, data, epochs=epochs, lr=lr, seed=seed, log=_log)
    if out is not None:
        save_policy_file(out, net, rules, meta={"bc": {"teacher": teacher, "deals": len(games),
                                                       "decisions": len(data),
                                                       "soft_targets": soft_targets, **stats}})
    return stats


@dataclass
class BCArgs(TrainerArgs, LocalArgs):
    """Every field is a ``mjenv train bc`` flag (the groups shared with the other trainers:
    ``training.args``); the network's shape must match the PPO run that starts from it."""

    out: str = arg("", "run folder: the cloned policy is written to out/bc.pt, the teacher's "
                       "games to out/bc_games.jsonl (default: a new runs/bc-N)")
    hands: int = arg(2000, "deals of teacher self-play to learn from", low=1)
    teacher: str = arg("heuristic", "agent spec of the teacher")
    epochs: int = arg(4, "passes over the data", low=1)
    lr: float = arg(1e-3, "Adam learning rate (decays linearly to 0)", above=0)
    records: str = arg("", "comma-separated game-record files to learn from instead of playing "
                           "new games")
    soft_targets: bool = arg(True, "fit the teacher's options (the actions it rates equally "
                                   "best, an equal share each) instead of the one it played")

    def record_files(self) -> list[str]:
        return [p for p in self.records.split(",") if p.strip()]


def run_bc(args: BCArgs, given: set[str] | None = None) -> Path:
    """``mjenv train bc``: clone the teacher into a fresh network (or into ``--init-from``'s);
    returns out/bc.pt. The inputs (record files, teacher spec, starting checkpoint, device, run
    folder) are all checked before any game is played."""
    import os

    from agents import make_agent
    from agents.network import build_net, pick_device
    from mjenv.env.observation import NUM_PLANES
    from training.checkpoint import adopt_network, load_init_checkpoint
    from training.rundir import prepare_run_dir

    given = explicit_fields(args, given)
    rules = args.rules()
    files = args.record_files()
    games = []
    for path in files:
        part = load_records([path], rules)
        if args.soft_targets and not all(r.get("options") for r in part):
            raise ValueError(f"--records {path}: {NO_OPTIONS}")
        games += part
    if files and not games:
        raise ValueError(f"--records {args.records}: no game records in the file(s)")
    if files:
        _log(f"bc: {len(games)} deals loaded from {len(files)} record file(s)")
    elif args.soft_targets and not hasattr(make_agent(args.teacher), "options"):
        raise ValueError(f"--teacher {args.teacher}: it does not report its options (the "
                         f"heuristic agents do); clone it with --no-soft-targets")
    init = None
    if args.init_from:
        init = load_init_checkpoint(args.init_from, rules)
        args = adopt_network(args, given, init.config, f"--init-from {args.init_from}",
                             "leave the flag out to take the checkpoint's")
    device = pick_device(args.device)
    out = prepare_run_dir(args.out, prefix="bc", run_files=("bc.pt", "bc_games.jsonl"),
                          force=args.force)
    torch.set_num_threads(args.threads if args.threads > 0 else max(1, os.cpu_count() or 1))
    torch.manual_seed(args.seed)
    if init is not None:
        net = init.build()
    else:
        net = build_net(NetConfig(NUM_PLANES, args.channels, args.blocks, features=args.features))
    path = out / "bc.pt"
    behaviour_clone(net.to(device), rules, hands=args.hands, epochs=args.epochs, lr=args.lr,
                    seed=args.seed, reward_scale=args.reward_scale, out=path,
                    workers=args.workers, teacher=args.teacher, gamma=args.gamma,
                    records=games, soft_targets=args.soft_targets)
    return path
