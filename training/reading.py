"""Training the hand-reading model (``agents.search.reading``) on self-play with exact labels.

Data. ``hands`` deals of an agent (the tuned heuristic, the opponents a search meets) in all
four seats; at every turn and claim decision of every seat the deciding seat's view is kept
(``Packed``), and for each other seat what was true at that moment, read from the engine: its
winning tiles (``training.calibrate.winning_tiles``: the waits of its 13 tiles that score at
least ``min_points`` by ron; same-turn furiten aside) and their mean points. The labels are
read as the agent decides, before its action changes the hand, so the agents play through a
wrapper that records and then asks them (``play``'s ``on_step`` comes after the step).
The last ``holdout`` share of the deals is held out; for its views today's logistic models
(``agents.heuristic.models``, fitted by ``training.calibrate``, as the tuned heuristic carries
them) are asked too, so the comparison runs on the same samples.

Loss: binary cross-entropy of P(ready) over every opponent, of P(t | ready) over the 34 kinds
of every ready opponent, and the squared error of its points (a mean, so squared error).

Report (``metrics.json``, ``calibration.png``): AUC of P(ready); AUC of P(t | ready) over the
kinds of the deciding seat's hand that did not pass the opponent's unchanged hand (the tiles
it weighs discarding: the protocol of today's figures), and over every kind with an unseen
copy; the mean absolute error of the points; a reliability diagram of both probabilities.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, NamedTuple, Sequence

import numpy as np

from mjenv.rules import RuleConfig, rules_from_flags
from training.args import Arguments, arg, check_rules, explicit_fields, flag

RUN_FILES = ("reading.pt", "metrics.json", "calibration.png", "data.npz")
BINS = 20                         # reliability diagram bins (equal width) …
LEAST = 100                       # … drawn where they hold this many samples
HEADLINE = ("ready_auc", "tile_auc_hand", "tile_auc_unseen", "points_mae")


@dataclass
class Labels:
    """The truth about each opponent of each view (``Packed`` order): ``ready``, its winning
    kinds (packed bits, ``wins``), the mean points of its win (0 when not ready) and its
    concealed tiles (counts per kind, ``nibbles``)."""

    ready: np.ndarray     # bool (N, 3)
    wins: np.ndarray      # uint8 (N, 3, 5)
    points: np.ndarray    # float32 (N, 3)
    held: np.ndarray      # uint8 (N, 3, 17)

    def kinds(self, rows: np.ndarray | slice = slice(None)) -> np.ndarray:
        """bool (N, 3, 34): the winning kinds (of ``rows``)."""
        return np.unpackbits(self.wins[rows], axis=-1, count=34).astype(bool)


@dataclass
class Baseline:
    """Today's logistic models' answers for the same opponents: P(ready), P(t | ready) (0 for
    a kind that passed its hand, as the heuristic counts it) and the points of its win."""

    ready: np.ndarray     # float32 (N, 3)
    tiles: np.ndarray     # float32 (N, 3, 34)
    points: np.ndarray    # float32 (N, 3)


@dataclass
class ReadingData:
    """Views and labels of a set of deals; ``baseline`` for held-out deals only."""

    views: Any            # agents.search.reading.Packed
    labels: Labels
    deal: np.ndarray      # int32 (N,): the deal's index
    baseline: Baseline | None = None

    def __len__(self) -> int:
        return len(self.deal)

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        out = {**self.views.arrays(prefix + "view_"), prefix + "deal": self.deal}
        for part, name in ((self.labels, "label_"), (self.baseline, "base_")):
            if part is not None:
                out.update({prefix + name + f.name: getattr(part, f.name) for f in fields(part)})
        return out

    @classmethod
    def from_arrays(cls, a: Any, prefix: str) -> "ReadingData":
        from agents.search.reading import Packed

        def part(kind: type, name: str) -> Any:
            keys = [prefix + name + f.name for f in fields(kind)]
            return kind(*(np.asarray(a[k]) for k in keys)) if keys[0] in a else None

        return cls(Packed.from_arrays(a, prefix + "view_"), part(Labels, "label_"),
                   np.asarray(a[prefix + "deal"]), part(Baseline, "base_"))

    @classmethod
    def concat(cls, parts: Sequence["ReadingData"]) -> "ReadingData":
        from agents.search.reading import Packed

        def cat(kind: type, attr: str) -> Any:
            got = [getattr(p, attr) for p in parts]
            if any(g is None for g in got):
                return None
            return kind(*(np.concatenate([getattr(g, f.name) for g in got])
                          for f in fields(kind)))

        return cls(Packed.concat([p.views for p in parts]), cat(Labels, "labels"),
                   np.concatenate([p.deal for p in parts]), cat(Baseline, "baseline"))


# --- data ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Task:
    agent: str
    rules: RuleConfig
    seed: int
    first: int            # deal indexes first … first + count - 1
    count: int
    baseline: bool
    share: float


class Row(NamedTuple):
    """A recorded decision: the view, and for each of the viewer's opponents (``opponents``
    order) its winning tiles with their points and its concealed tiles, at that moment."""

    view: Any
    wins: list[dict[int, int]]
    concealed: list[tuple[int, ...]]


class _Recorder:
    """An agent that first records the view it is asked about (turn and claim decisions; each
    with the probability ``share``, drawn from ``rng``) with the truth about the viewer's
    opponents, read from ``hand`` at that moment."""

    def __init__(self, agent: Any, hand: Any, out: list, truth: dict, share: float,
                 rng: np.random.Generator) -> None:
        self.agent, self.hand, self.out, self.truth = agent, hand, out, truth
        self.share, self.rng = share, rng
        self.name = getattr(agent, "name", "agent")
        self.needs_observation = getattr(agent, "needs_observation", True)

    def act(self, observation: Any, mask: np.ndarray, view: Any) -> int:
        if view.phase in ("turn", "claim") and (self.share >= 1 or
                                                 self.rng.random() < self.share):
            from agents.search.reading import opponents
            seats = opponents(view.seat)
            self.out.append(Row(view, [self._truth(o) for o in seats],
                                [self.hand.concealed(o) for o in seats]))
        return self.agent.act(observation, mask, view)

    def _truth(self, seat: int) -> dict[int, int]:
        """``winning_tiles`` of ``seat``, kept while its hand stands (it seldom changes)."""
        from training.calibrate import winning_tiles
        key = (seat, self.hand.concealed(seat), self.hand.melds(seat))
        if key not in self.truth:
            self.truth[key] = winning_tiles(self.hand, seat)
        return self.truth[key]


def record(hand: Any, agents: Sequence[Any], share: float = 1.0, seed: int | Sequence[int] = 0
           ) -> list[Row]:
    """Play ``hand`` to its end with ``agents[seat]`` deciding for each seat; its turn and
    claim views (each with the probability ``share``, drawn from ``seed``) as ``Row``s."""
    from mjenv.env.play import play

    rows: list[Row] = []
    truth: dict = {}
    rng = np.random.default_rng(seed)
    play(hand, [_Recorder(a, hand, rows, truth, share, rng) for a in agents])
    return rows


def _init_worker() -> None:
    import torch
    torch.set_num_threads(1)


def _collect(task: _Task) -> ReadingData:
    """The views and labels of the task's deals (the deal index fixes seed, dealer and round
    wind; the agents are reseeded per deal like ``training.duplicate``'s)."""
    from agents import make_agent
    from agents.search.reading import nibbles, pack
    from mjenv.game import Hand
    from training.duplicate import deal_seed, reseed

    agents = [make_agent(task.agent) for _ in range(4)]
    rows: list[Row] = []
    deals: list[int] = []
    for index in range(task.first, task.first + task.count):
        reseed(agents, task.seed, index)
        hand = Hand(task.rules, seed=deal_seed(task.seed, index), dealer=index % 4,
                    round_wind=index // 4 % 4)
        played = record(hand, agents, task.share, [task.seed, index, 0x5EE])
        rows += played
        deals += [index] * len(played)
    views = [row.view for row in rows]
    kinds = np.zeros((len(rows), 3, 34), bool)
    points = np.zeros((len(rows), 3), np.float32)
    held = np.zeros((len(rows), 3, 34), np.uint8)
    for i, row in enumerate(rows):
        for j, (wins, concealed) in enumerate(zip(row.wins, row.concealed)):
            np.add.at(held[i, j], list(concealed), 1)
            if wins:
                kinds[i, j, list(wins)] = True
                points[i, j] = np.mean(list(wins.values()))
    labels = Labels(kinds.any(-1), np.packbits(kinds, axis=-1), points, nibbles(held))
    return ReadingData(pack(views), labels, np.array(deals, np.int32),
                       baseline_of(views) if task.baseline else None)


def baseline_of(views: Sequence[Any]) -> Baseline:
    """Today's models' answers (the tuned heuristic's ``RiskModel``) for the views'
    opponents, computed as the heuristic computes them (``agents.heuristic.models``)."""
    from agents.heuristic.models import _logistic, field, tile_features
    from agents.heuristic.params import TUNED, load_params
    from agents.search.reading import opponents

    model = load_params(TUNED).risk
    kinds = list(range(34))
    n = len(views)
    ready = np.zeros((n, 3), np.float32)
    tiles = np.zeros((n, 3, 34), np.float32)
    points = np.zeros((n, 3), np.float32)
    for i, view in enumerate(views):
        seen = field(view, model)
        rows = tile_features(view, [o.seat for o in seen], kinds, [o.features for o in seen])
        by_seat = {o.seat: (o, seat_rows) for o, seat_rows in zip(seen, rows)}
        for j, seat in enumerate(opponents(view.seat)):
            o, seat_rows = by_seat[seat]
            ready[i, j], points[i, j] = o.ready, o.points
            tiles[i, j] = [0.0 if t in o.passed else _logistic(model.tile, x)
                           for t, x in zip(kinds, seat_rows)]
    return Baseline(ready, tiles, points)


def collect(agent: str, hands: int, seed: int, rules: RuleConfig, holdout: float,
            workers: int = 1, share: float = 1.0, chunk: int = 25, log=print
            ) -> tuple[ReadingData, ReadingData]:
    """(training data, held-out data) of ``hands`` self-play deals of ``agent``, ``share`` of
    their views: the last ``holdout`` share of the deals (at least one) is held out, with
    today's models' answers."""
    from training.duplicate import run_groups

    held = min(hands - 1, max(1, round(hands * holdout)))
    tasks = [_Task(agent, rules, seed, a, min(chunk, end - a), base, share)
             for start, end, base in ((0, hands - held, False), (hands - held, hands, True))
             for a in range(start, end, chunk)]
    parts: dict[bool, list[ReadingData]] = {False: [], True: []}
    done = 0
    for task, part in zip(tasks, run_groups(tasks, _collect, _init_worker, (), workers)):
        parts[task.baseline].append(part)
        done += task.count
        log(f"reading: {done}/{hands} deals played")
    return ReadingData.concat(parts[False]), ReadingData.concat(parts[True])


# --- training --------------------------------------------------------------------------------

POINTS_WEIGHT = 0.5              # the points head's squared error (in POINTS_SCALE units)


def _batch_loss(net: Any, data: ReadingData, rows: np.ndarray, held_weight: float) -> Any:
    import torch
    import torch.nn.functional as F
    from agents.search.reading import POINTS_SCALE, inputs, unnibble

    tiled, scalars = inputs(data.views.take(rows), net.shape.features)
    ready, tiles, points, held = net(torch.from_numpy(tiled), torch.from_numpy(scalars))
    lab = data.labels
    is_ready = torch.from_numpy(lab.ready[rows].reshape(-1))
    loss = F.binary_cross_entropy_with_logits(ready, is_ready.float())
    if held_weight:
        counts = torch.from_numpy(unnibble(lab.held[rows]).reshape(-1, 34).astype(np.int64))
        loss = loss + held_weight * F.cross_entropy(held, counts)
    if bool(is_ready.any()):
        wins = torch.from_numpy(lab.kinds(rows).reshape(-1, 34)[is_ready.numpy()]).float()
        target = torch.from_numpy(lab.points[rows].reshape(-1)[is_ready.numpy()]) / POINTS_SCALE
        loss = loss + F.binary_cross_entropy_with_logits(tiles[is_ready], wins)
        loss = loss + POINTS_WEIGHT * F.mse_loss(points[is_ready], target)
    return loss


def train(net: Any, data: ReadingData, *, epochs: int, lr: float, batch_size: int, seed: int,
          held_weight: float = 0.0, test: ReadingData | None = None, log=print) -> list[dict]:
    """Fit ``net`` (Adam, learning rate decaying linearly to 0; the count of each kind in the
    opponent's hand weighs ``held_weight`` in the loss); per epoch its mean training loss,
    and the held-out ready and tile AUC where ``test`` is given."""
    import torch

    rng = np.random.default_rng([seed, 0x4EAD])
    steps = epochs * max(1, -(-len(data) // batch_size))
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda i: 1 - i / steps)
    history = []
    for epoch in range(epochs):
        net.train()
        losses = []
        order = rng.permutation(len(data))
        for a in range(0, len(order), batch_size):
            loss = _batch_loss(net, data, np.sort(order[a:a + batch_size]), held_weight)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            losses.append(float(loss.detach()))
        net.eval()
        entry = {"epoch": epoch + 1, "train_loss": float(np.mean(losses))}
        if test is not None:
            m = scores(test, *_predict(net, test))
            entry.update(ready_auc=m["ready_auc"], tile_auc=m["tile_auc_hand"])
        log("reading: " + ", ".join(f"{k} {v:.4f}" if isinstance(v, float) else f"{k} {v}"
                                         for k, v in entry.items()))
        history.append(entry)
    return history


def _predict(net: Any, data: ReadingData) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    from agents.search.reading import predict
    return predict(net, data.views)


# --- evaluation ------------------------------------------------------------------------------

def auc(score: np.ndarray, label: np.ndarray) -> float:
    """Area under the ROC curve: P(a positive scores above a negative), ties counting half
    (Mann-Whitney, with midranks); NaN without both classes."""
    score, label = np.asarray(score, float).ravel(), np.asarray(label, bool).ravel()
    pos = int(label.sum())
    neg = len(label) - pos
    if not pos or not neg:
        return float("nan")
    _, inverse, counts = np.unique(score, return_inverse=True, return_counts=True)
    midrank = np.cumsum(counts) - (counts - 1) / 2.0        # 1-based mean rank of each value
    ranks = midrank[inverse]
    return float((ranks[label].sum() - pos * (pos + 1) / 2.0) / (pos * neg))


def reliability(prob: np.ndarray, label: np.ndarray, bins: int = BINS,
                least: int = LEAST) -> list[dict]:
    """Per probability bin of equal width holding at least ``least`` samples (a handful in a
    bin says little, and the tile probabilities rarely run high): its mean prediction, the
    observed rate and the count."""
    prob, label = np.asarray(prob, float).ravel(), np.asarray(label, float).ravel()
    which = np.minimum((prob * bins).astype(int), bins - 1)
    out = []
    for b in range(bins):
        sel = which == b
        if sel.sum() >= least:
            out.append({"predicted": float(prob[sel].mean()), "observed": float(label[sel].mean()),
                        "count": int(sel.sum())})
    return out


@dataclass(frozen=True)
class TileSets:
    """Masks (N, 3, 34) of the tiles the tile AUC is measured over, for ready opponents:
    ``hand``, the kinds of the deciding seat's hand that did not pass the opponent's unchanged
    hand; ``unseen``, every kind with an unseen copy."""

    hand: np.ndarray
    unseen: np.ndarray


def tile_sets(data: ReadingData) -> TileSets:
    from mjenv.env.observation import HAND, UNSEEN
    ready = data.labels.ready[:, :, None]
    held = data.views.binary_plane(HAND)[:, None, :]
    unseen = data.views.binary_plane(UNSEEN)[:, None, :]
    return TileSets(hand=held & ~data.views.passed_kinds() & ready, unseen=unseen & ready)


def scores(data: ReadingData, ready: np.ndarray, tiles: np.ndarray, points: np.ndarray,
           sets: TileSets | None = None) -> dict[str, Any]:
    """The metrics of one model's predictions for ``data``'s opponents (the module doc)."""
    lab = data.labels
    sets = sets or tile_sets(data)
    wins = lab.kinds()
    return {
        "ready_auc": auc(ready, lab.ready),
        "ready_brier": float(np.mean((ready - lab.ready) ** 2)),
        "tile_auc_hand": auc(tiles[sets.hand], wins[sets.hand]),
        "tile_auc_unseen": auc(tiles[sets.unseen], wins[sets.unseen]),
        "points_mae": float(np.mean(np.abs(points - lab.points)[lab.ready])),
        "calibration": {"ready": reliability(ready, lab.ready),
                        "tile_hand": reliability(tiles[sets.hand], wins[sets.hand]),
                        "tile_unseen": reliability(tiles[sets.unseen], wins[sets.unseen])},
    }


def evaluate(model: Any, test: ReadingData) -> dict[str, Any]:
    """The ``ReadingModel``'s and today's models' metrics on the held-out data (same samples),
    with the sample counts."""
    ready, tiles, points = model.predict(test.views)
    sets = tile_sets(test)
    out = {"samples": {"views": len(test), "deals": int(len(np.unique(test.deal))),
                       "opponents": 3 * len(test), "ready": int(test.labels.ready.sum()),
                       "tiles_hand": int(sets.hand.sum()), "tiles_unseen": int(sets.unseen.sum())},
           "model": scores(test, ready, tiles, points, sets)}
    if test.baseline is not None:
        b = test.baseline
        out["today"] = scores(test, b.ready, b.tiles, b.points, sets)
    return out


def plot_calibration(metrics: dict[str, Any], path: Path) -> None:
    """Reliability diagrams of P(ready) and P(t | ready) (the hand tiles), the model's and
    today's, with the AUCs in the legends."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4.6))
    panels = (("ready", "ready_auc", "P(ready)"),
              ("tile_hand", "tile_auc_hand", "P(t wins | ready), tiles of the hand"))
    for ax, (key, auc_key, title) in zip(axes, panels):
        ax.plot([0, 1], [0, 1], color="0.7", lw=1, ls="--", label="perfect")
        for who, style in (("model", "o-"), ("today", "s--")):
            if who not in metrics:
                continue
            bins = metrics[who]["calibration"][key]
            ax.plot([b["predicted"] for b in bins], [b["observed"] for b in bins], style,
                    label=f"{'reading model' if who == 'model' else 'today (logistic)'} "
                          f"AUC {metrics[who][auc_key]:.3f}")
        top = max([1e-3] + [max(b["predicted"], b["observed"]) for who in ("model", "today")
                            if who in metrics for b in metrics[who]["calibration"][key]])
        top = min(1.0, 1.15 * top)
        ax.set(xlim=(0, top), ylim=(0, top), ylabel="observed rate", title=title,
               xlabel=f"predicted (bins of {1 / BINS:g} with {LEAST}+ samples)")
        ax.legend(loc="upper left", fontsize=8)
    n = metrics["samples"]
    fig.suptitle(f"Hand reading on {n['deals']:,} held-out deals ({n['opponents']:,} opponents "
                 f"read, {n['ready']:,} ready)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# --- the command -----------------------------------------------------------------------------

@dataclass
class ReadingArgs(Arguments):
    """Every field is a ``mjenv train reading`` flag."""

    out: str = arg("", "run folder: out/reading.pt (the model), out/metrics.json, "
                       "out/calibration.png and out/data.npz (the views and labels; default: "
                       "a new runs/reading-N)")
    force: bool = arg(False, "start anew even if out/ holds a run: the old run is moved aside "
                             "to OUT.old-TIME first (never deleted)")
    data: str = arg("", "train on this data.npz of an earlier run instead of playing deals")
    hands: int = arg(4000, "self-play deals to learn from", low=2)
    holdout: float = arg(0.1, "share of the deals held out for the report", above=0, high=0.5)
    agent: str = arg("heuristic", "agent spec playing all four seats")
    share: float = arg(0.3, "share of the turn and claim views kept (a deal's views differ by "
                            "a tile or two: more deals teach more than more views of each)",
                       above=0, high=1)
    seed: int = arg(1, "seed of the deals, the initialisation and the batch order")
    workers: int = arg(1, "processes playing deals (1: in this process)", low=1)
    threads: int = arg(1, "torch threads for training (0: one per core)", low=0)
    min_points: int = arg(RuleConfig.min_points, "RuleConfig.min_points of the deals")
    epochs: int = arg(2, "passes over the data", low=1)
    lr: float = arg(2e-3, "Adam learning rate (decays linearly to 0)", above=0)
    batch_size: int = arg(256, "views per batch (three opponents each)", low=1)
    channels: int = arg(32, "network width (conv channels)", low=1)
    blocks: int = arg(2, "residual blocks", low=0)
    reach: int = arg(1, "kinds on each side of a kind that one convolution sees (its width "
                        "is 2 × reach + 1: odd, centred on the kind)", low=0)
    held_weight: float = arg(0.5, "weight in the loss of the count of each kind in the "
                                  "opponent's concealed hand (a training target only; 0: off)",
                             low=0)
    features: str = arg("focused", "the network's input: 'full' (every observation plane, turned "
                                "to face the opponent) or 'focused' (the planes about it, with "
                                "its discards from the hand; agents/search/reading.py)")

    def validate(self) -> None:
        super().validate()
        from agents.search.reading import FEATURES
        if self.features not in FEATURES:
            raise ValueError(f"--features must be one of {', '.join(FEATURES)}, got "
                             f"{self.features!r}")
        check_rules(self)

    def rules(self) -> RuleConfig:
        return rules_from_flags(self)


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def load_data(path: str, rules: RuleConfig) -> tuple[ReadingData, ReadingData, dict]:
    """(training, held-out, header) of a run's data.npz; ``ValueError`` naming the file when
    it is not one or holds deals of other rules."""
    try:
        with np.load(path) as a:
            header = json.loads(str(a["header"]))
            train_data = ReadingData.from_arrays(a, "train_")
            test = ReadingData.from_arrays(a, "test_")
    except (OSError, KeyError, ValueError) as exc:
        raise ValueError(f"--data {path}: not a reading data file ({exc})") from None
    if RuleConfig.from_dict(header["rules"]) != rules:
        raise ValueError(f"--data {path}: deals played under {header['rules']}, not "
                         f"{rules.to_dict()}")
    return train_data, test, header


def command_line(args: ReadingArgs, given: set[str] | None = None) -> str:
    """The ``mjenv train reading`` command of ``args`` (the flags set: ``explicit_fields``),
    which the model file and the metrics keep."""
    words = ["mjenv", "train", "reading"]
    for f in fields(args):
        if f.name in explicit_fields(args, given):
            value = getattr(args, f.name)
            if isinstance(value, bool):
                words.append(flag(f.name) if value else "--no-" + flag(f.name)[2:])
            else:
                words += [flag(f.name), str(value)]
    return " ".join(words)


def run_reading(args: ReadingArgs, given: set[str] | None = None) -> Path:
    """``mjenv train reading``: play (or load) the data, train, evaluate, write the run's
    files (``RUN_FILES``); returns out/reading.pt. ``given``: the flags the user typed."""
    import os

    import torch

    from agents.search.reading import NetShape, ReadingModel, ReadingNet
    from training.rundir import prepare_run_dir

    rules = args.rules()
    if args.data:
        train_data, test, header = load_data(args.data, rules)
    else:
        from agents import make_agent
        make_agent(args.agent)                    # a bad spec fails before anything is made
    out = prepare_run_dir(args.out, prefix="reading", run_files=RUN_FILES, force=args.force)
    timing: dict[str, float] = {}
    start = time.perf_counter()
    if not args.data:
        _log(f"reading: playing {args.hands} deals of {args.agent} self-play …")
        train_data, test = collect(args.agent, args.hands, args.seed, rules, args.holdout,
                                   args.workers, args.share, log=_log)
        header = {"rules": rules.to_dict(), "agent": args.agent, "hands": args.hands,
                  "seed": args.seed, "holdout": args.holdout, "share": args.share}
        np.savez_compressed(out / "data.npz", header=json.dumps(header),
                            **train_data.arrays("train_"), **test.arrays("test_"))
        timing["generate_s"] = round(time.perf_counter() - start, 1)
    _log(f"reading: {len(train_data):,} views to learn from, {len(test):,} held out")
    if not len(train_data) or test.baseline is None:
        raise ValueError("no views to learn from or none held out: play more --hands")
    torch.set_num_threads(args.threads if args.threads > 0 else max(1, os.cpu_count() or 1))
    torch.manual_seed(args.seed)
    net = ReadingNet(NetShape(args.channels, args.blocks, 2 * args.reach + 1, args.features))
    start = time.perf_counter()
    history = train(net, train_data, epochs=args.epochs, lr=args.lr,
                    batch_size=args.batch_size, seed=args.seed, held_weight=args.held_weight,
                    test=test, log=_log)
    timing["train_s"] = round(time.perf_counter() - start, 1)
    model = ReadingModel(net, rules)
    metrics = {"command": command_line(args, given), "data": header, "args": asdict(args),
               "train_views": len(train_data), "timing": timing, "history": history,
               **evaluate(model, test)}
    model.meta.update({k: metrics[k] for k in ("command", "data", "args")},
                      metrics={k: metrics["model"][k] for k in HEADLINE})
    path = out / "reading.pt"
    model.save(path)
    (out / "metrics.json").write_text(json.dumps(metrics, indent=1) + "\n")
    plot_calibration(metrics, out / "calibration.png")
    m, t = metrics["model"], metrics.get("today", {})
    for name in HEADLINE:
        _log(f"reading: {name} {m[name]:.4f} (today's models {t.get(name, float('nan')):.4f})")
    return path
