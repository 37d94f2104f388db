"""Hand reading: what each opponent holds, as far as the public record tells.

For each of the three other seats the model gives P(ready) — its 13 tiles win by ron on some
kind, at ``rules.min_points`` or more (same-turn furiten aside: it lasts a turn) —, P(kind t is
one of its winning tiles | ready) for each of the 34 kinds, and the expected points of its win
(the mean over its winning tiles). A search draws or weighs its worlds by it: a uniform draw of
the unseen tiles makes the opponents' hands random, and rollouts would under-rate danger.

Input: the viewing seat's observation planes (``mjenv.env.observation``), turned to face the
opponent read — its meld and pond blocks first, the others' in turn order after it, the seats
of the constant planes counted from it — plus the kinds that passed its unchanged hand
(``passed_tiles``: no win can be on them) and its ``opponent_features``. One network reads all
three seats, so each deal teaches it three times. Score and repeat planes are left out: within
a deal the agents it learns from do not read them, and a model fitted on single deals, where
they are all 0, would meet values at play that it never saw.

Views are kept as :class:`Packed` rows (about 1 KB a view: the 0/1 planes as bits, the count
planes as nibbles, the constant planes as one value each), the form training stores millions of
and ``read`` packs one view into: the same code makes the network's input in both.
Trained by ``training.reading`` (``mjenv train reading``); docs/search.md, "Hand reading".
"""

from __future__ import annotations

import warnings
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, NamedTuple, Sequence

import numpy as np
import torch
from torch import nn

from agents.heuristic.models import OPPONENT_FEATURES, opponent_features, passed_by
from agents.checkpoint_file import (CheckpointError, check_encoding, encoding_signature,
                                    read_checkpoint_file, write_checkpoint_file)
from mjenv.env import observation as obs
from mjenv.game.view import PlayerView
from mjenv.rules import RuleConfig
from mjenv.tiles import NUM_KINDS

SHIPPED = Path(__file__).resolve().parent.parent / "pretrained" / "reading.pt"
KIND = "reading"                  # a model file's payload says which model it holds

# --- the planes, split by how they are stored ------------------------------------------------
TILED = obs.PHASE                 # planes before it run over the 34 kinds; from it on constant
COUNTS = np.array([i for i in range(TILED) if obs.PLANES[i].high > 1])  # small counts, 0–4
BINARY = np.array([i for i in range(TILED) if i not in COUNTS])      # 0/1
_BITS = len(BINARY) * NUM_KINDS
_HALF = NUM_KINDS // 2            # counts stored two to a byte

# Constant planes, as columns of ``Packed.consts`` (counted from ``TILED``).
_PHASE = slice(0, 3)
_FROM = obs.TARGET_FROM - TILED
_DEALER = obs.DEALER - TILED
_LIVE = obs.LIVE_WALL - TILED


def _facing(r: int) -> np.ndarray:
    """Plane order of the tiled planes seen from the opponent ``r`` seats to the viewer's right:
    the viewer's hand and the table planes stay, the seats' meld and pond blocks start at it."""
    order = np.arange(TILED)
    for blocks, size in ((obs.MELD_BLOCK, obs.MELD_PLANES), (obs.POND_BLOCK, obs.POND_PLANES)):
        for k in range(4):
            order[blocks[k]:blocks[k] + size] = np.arange(size) + blocks[(r + k) % 4]
    return order


def _focus(r: int) -> np.ndarray:
    """The tiled planes the ``focused`` input keeps for the opponent ``r`` seats to the
    viewer's right: the viewer's hand and target, the opponent's melds and pond, which kinds
    each other seat discarded, the unseen counts and the round wind."""
    return np.concatenate([
        np.arange(obs.MELD_BLOCK[0]),
        np.arange(obs.MELD_PLANES) + obs.MELD_BLOCK[r],
        np.arange(obs.POND_PLANES) + obs.POND_BLOCK[r],
        [obs.POND_BLOCK[(r + k) % 4] + _DISCARDED for k in (1, 2, 3)],
        np.arange(4) + obs.UNSEEN, [obs.ROUND_WIND]])


_DISCARDED = obs.POND_ORDER                      # offsets in a pond block (observation.py)
_DRAWN_SEQ = obs.POND_ORDER + 1
_ORDERED = obs.POND_ORDER - 1                    # discard planes holding one kind each
_LAST = 3                                        # the last discards from the hand kept
#: The tiled planes of each input, per opponent (``_ORDER[features][r - 1]``), ahead of the
#: planes made for it (``_extra``): ``full``, all of them turned to face the opponent;
#: ``focused``, the ones that speak of it.
_ORDER = {"full": tuple(_facing(r) for r in (1, 2, 3)),
          "focused": tuple(_focus(r) for r in (1, 2, 3))}
_EXTRA = {"full": 2, "focused": 4 + _LAST}
FEATURES = tuple(_ORDER)
#: Per opponent: the tiled inputs of each feature set, and the scalars (``_scalars``).
TILE_INPUTS = {f: len(_ORDER[f][0]) + _EXTRA[f] for f in FEATURES}
SCALAR_INPUTS = 3 + 4 + 4 + 1 + 3 + len(OPPONENT_FEATURES)


@dataclass(frozen=True)
class Packed:
    """Views, compactly, one row each (``pack``); opponents in the order right, across, left
    of the viewer. ``bits``: the 0/1 planes (``BINARY``), packed; ``counts``: the count planes
    (``COUNTS``), two kinds to a byte; ``consts``: the value of each constant plane;
    ``opp``: each opponent's ``opponent_features``; ``passed``: the kinds that passed each
    one's unchanged hand, packed."""

    bits: np.ndarray      # uint8 (N, ceil(len(BINARY)·34 / 8))
    counts: np.ndarray    # uint8 (N, len(COUNTS), 17)
    consts: np.ndarray    # float32 (N, NUM_PLANES - TILED)
    opp: np.ndarray       # float32 (N, 3, len(OPPONENT_FEATURES))
    passed: np.ndarray    # uint8 (N, 3, 5)

    def __len__(self) -> int:
        return len(self.bits)

    def take(self, rows: np.ndarray | slice) -> "Packed":
        return Packed(*(getattr(self, f.name)[rows] for f in fields(self)))

    @classmethod
    def concat(cls, parts: Sequence["Packed"]) -> "Packed":
        return cls(*(np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(cls)))

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        """Its arrays by name (``np.savez``), each name after ``prefix``."""
        return {prefix + f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_arrays(cls, arrays: Any, prefix: str) -> "Packed":
        return cls(*(np.asarray(arrays[prefix + f.name]) for f in fields(cls)))

    def planes(self) -> np.ndarray:
        """float32 (N, TILED, 34): the tiled planes as ``encode`` made them."""
        n = len(self)
        out = np.zeros((n, TILED, NUM_KINDS), np.float32)
        out[:, BINARY] = np.unpackbits(self.bits, axis=1, count=_BITS).reshape(n, -1, NUM_KINDS)
        out[:, COUNTS] = unnibble(self.counts)
        return out

    def binary_plane(self, plane: int) -> np.ndarray:
        """bool (N, 34): one of the 0/1 planes, unpacked alone."""
        start = int(np.flatnonzero(BINARY == plane)[0]) * NUM_KINDS
        first = start // 8
        bits = np.unpackbits(self.bits[:, first:(start + NUM_KINDS + 7) // 8 + 1], axis=1)
        return bits[:, start - 8 * first:start - 8 * first + NUM_KINDS].astype(bool)

    def passed_kinds(self) -> np.ndarray:
        """bool (N, 3, 34): the kinds that passed each opponent's unchanged hand."""
        return np.unpackbits(self.passed, axis=-1, count=NUM_KINDS).astype(bool)


def nibbles(counts: np.ndarray) -> np.ndarray:
    """Counts 0–15 over the 34 kinds (last axis), two kinds to a byte (``unnibble``)."""
    c = counts.astype(np.uint8)
    return c[..., 0::2] | (c[..., 1::2] << 4)


def unnibble(packed: np.ndarray) -> np.ndarray:
    """The counts ``nibbles`` packed, as uint8 over the 34 kinds."""
    out = np.empty(packed.shape[:-1] + (NUM_KINDS,), np.uint8)
    out[..., 0::2], out[..., 1::2] = packed & 15, packed >> 4
    return out


def opponents(seat: int) -> tuple[int, int, int]:
    """The seats a view of ``seat`` reads, in ``Packed`` order: right, across, left."""
    return (seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4


def pack(views: Sequence[PlayerView]) -> Packed:
    """The ``Packed`` rows of ``views`` (everything read from the views alone)."""
    n = len(views)
    full = np.zeros((n, obs.NUM_PLANES, NUM_KINDS), np.float32)
    opp = np.zeros((n, 3, len(OPPONENT_FEATURES)), np.float32)
    passed = np.zeros((n, 3, NUM_KINDS), bool)
    for i, view in enumerate(views):
        obs.encode(view, out=full[i])
        seats = opponents(view.seat)
        for j, (o, kinds) in enumerate(zip(seats, passed_by(view, seats))):
            opp[i, j] = opponent_features(view, o)
            passed[i, j, list(kinds)] = True
    return Packed(bits=np.packbits(full[:, BINARY].astype(bool).reshape(n, -1), axis=1),
                  counts=nibbles(full[:, COUNTS]),
                  consts=full[:, TILED:, 0].copy(), opp=opp,
                  passed=np.packbits(passed, axis=-1))


_TURNED = tuple((np.arange(4) + r) % 4 for r in range(4))


def _turned(v: np.ndarray, r: int) -> np.ndarray:
    """A per-seat vector (N, 4) counted from the viewer, counted from the seat ``r`` to its
    right instead."""
    return v[:, _TURNED[r]]


def _scalars(p: Packed, r: int) -> np.ndarray:
    """(N, SCALAR_INPUTS) for the opponent ``r`` seats right of the viewer: phase, who offered
    the target and who deals (counted from the opponent), the wall, where the viewer sits,
    the opponent's features."""
    c = p.consts
    offered = np.concatenate([1.0 - c[:, _FROM:_FROM + 3].sum(1, keepdims=True),
                              c[:, _FROM:_FROM + 3]], axis=1)
    viewer = np.zeros((len(p), 3), np.float32)
    viewer[:, 3 - r] = 1.0                        # the viewer sits 4 - r seats right of it
    return np.concatenate([c[:, _PHASE], _turned(offered, r),
                           _turned(c[:, _DEALER:_DEALER + 4], r), c[:, _LIVE:_LIVE + 1],
                           viewer, p.opp[:, r - 1]], axis=1)


def _from_hand(pond: np.ndarray) -> np.ndarray:
    """(N, 2 + _LAST, 34) of a seat's pond block (N, POND_PLANES, 34): the kinds it threw from
    its hand, those it threw as drawn, and its last ``_LAST`` discards from the hand, latest
    first. A ready hand throws what it draws, and its wait often sits beside what it let go
    last: the pond planes hold both, but the time of a discard sits in a column of one plane
    and its kind in another, which a convolution over the kinds cannot join."""
    kinds = pond[:, :_ORDERED]                                  # (N, j, 34)
    present = kinds.max(2)
    drawn = pond[:, _DRAWN_SEQ, :_ORDERED] * present
    hand = present - drawn
    latest = np.flip(np.cumsum(np.flip(hand, 1), 1), 1) * hand  # 1 = the last from the hand
    weights = np.stack([hand, drawn] + [latest == m for m in range(1, _LAST + 1)], axis=1)
    return np.minimum(np.einsum("nwj,njk->nwk", weights.astype(np.float32), kinds), 1.0)


def inputs(p: Packed, features: str = "full") -> tuple[np.ndarray, np.ndarray]:
    """The network's input for every opponent of every row: tiled (3N, TILE_INPUTS[features],
    34) — the planes of ``_ORDER``, the kinds that passed the opponent's unchanged hand, its
    seat wind, and for ``focused`` its ``_from_hand`` planes — and scalars (3N,
    SCALAR_INPUTS), row 3i + j for the opponent j (``opponents``) of view i."""
    n = len(p)
    planes = p.planes()
    passed = p.passed_kinds()
    wind = planes[:, obs.SEAT_WIND, 27:31].argmax(1)        # the viewer's seat wind
    size = len(_ORDER[features][0])
    tiled = np.zeros((n, 3, TILE_INPUTS[features], NUM_KINDS), np.float32)
    scalars = np.empty((n, 3, SCALAR_INPUTS), np.float32)
    rows = np.arange(n)
    for j, r in enumerate((1, 2, 3)):
        tiled[:, j, :size] = planes[:, _ORDER[features][j]]
        tiled[:, j, size] = passed[:, j]
        tiled[rows, j, size + 1, 27 + (wind + r) % 4] = 1.0
        if features == "focused":
            block = obs.POND_BLOCK[r]
            tiled[:, j, size + 2:] = _from_hand(planes[:, block:block + obs.POND_PLANES])
        scalars[:, j] = _scalars(p, r)
    return (tiled.reshape(3 * n, -1, NUM_KINDS), scalars.reshape(3 * n, SCALAR_INPUTS))


# --- the network -----------------------------------------------------------------------------

POINTS_SCALE = 16.0               # the points head is fitted to points / POINTS_SCALE


@dataclass(frozen=True)
class NetShape:
    """The network: a stem, ``blocks`` residual blocks of two 1-D convolutions (``kernel``
    wide) over the 34 kinds with ``channels`` channels, and a pooled summary that feeds the
    ready and points heads and goes back to every kind for the tile head."""

    channels: int = 64
    blocks: int = 3
    kernel: int = 3
    features: str = "full"


class _Block(nn.Module):
    def __init__(self, channels: int, kernel: int) -> None:
        super().__init__()
        self.a = nn.Conv1d(channels, channels, kernel, padding=kernel // 2)
        self.b = nn.Conv1d(channels, channels, kernel, padding=kernel // 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + self.b(torch.relu(self.a(x))))


class Heads(NamedTuple):
    """What ``ReadingNet`` gives per opponent: logits of P(ready) (B,) and of P(t | ready) (B,
    34), points / POINTS_SCALE (B,), and logits (B, 5, 34) of how many of each kind its
    concealed hand holds — a target for training only: the hand says far more per sample
    than the few tiles it waits on, and knowing it is most of knowing the waits."""

    ready: torch.Tensor
    tiles: torch.Tensor
    points: torch.Tensor
    held: torch.Tensor


class ReadingNet(nn.Module):
    """(tiled, scalars) → ``Heads``."""

    def __init__(self, shape: NetShape = NetShape()) -> None:
        super().__init__()
        ch = shape.channels
        self.shape = shape
        self.stem = nn.Conv1d(TILE_INPUTS[shape.features], ch, shape.kernel,
                              padding=shape.kernel // 2)
        self.scalar = nn.Linear(SCALAR_INPUTS, ch)
        # the convolution does not know where it is: honours, terminals, the suits' edges
        self.position = nn.Parameter(torch.zeros(ch, NUM_KINDS))
        self.blocks = nn.Sequential(*(_Block(ch, shape.kernel) for _ in range(shape.blocks)))
        self.summary = nn.Sequential(nn.Linear(2 * ch, ch), nn.ReLU())
        self.context = nn.Linear(ch, ch)
        self.tile = nn.Conv1d(ch, 1 + 5, 1)      # the tile's logit, its count's 5 logits
        self.heads = nn.Linear(ch, 2)             # ready logit, points

    def forward(self, tiled: torch.Tensor, scalars: torch.Tensor) -> Heads:
        x = self.stem(tiled) + self.scalar(scalars)[:, :, None] + self.position
        x = self.blocks(torch.relu(x))
        s = self.summary(torch.cat([x.mean(2), x.amax(2)], dim=1))
        per_kind = self.tile(torch.relu(x + self.context(s)[:, :, None]))
        ready, points = self.heads(s).unbind(1)
        return Heads(ready, per_kind[:, 0], points, per_kind[:, 1:])


# --- the model a search reads ----------------------------------------------------------------

@dataclass(frozen=True)
class OpponentRead:
    """One opponent as a seat reads it."""

    seat: int                # absolute seat 0-3
    ready: float             # P(ready)
    tiles: np.ndarray        # float64 (34,), P(kind t wins for it | ready)
    points: float            # expected points of its win, given ready


class ReadingModel:
    """A trained ``ReadingNet`` with the rules it was trained under. ``read`` costs a few
    milliseconds (``benchmarks/bench_reading.py``); torch runs on one thread, in inference
    mode."""

    def __init__(self, net: ReadingNet, rules: RuleConfig, meta: dict | None = None) -> None:
        self.net = net.eval()
        self.rules = rules
        self.meta = dict(meta or {})

    @classmethod
    def load(cls, path: str | Path) -> "ReadingModel":
        """A model file written by ``mjenv train reading`` (``CheckpointError`` naming what is
        wrong with one that is not)."""
        payload = read_checkpoint_file(path)
        if payload.get("kind") != KIND:
            raise CheckpointError(f"{path}: not a hand-reading model (a "
                                  f"{payload.get('kind', 'policy')} checkpoint)")
        check_encoding(payload["encoding"], path)
        torch.set_num_threads(1)                  # a read is small: threads only add overhead
        net = ReadingNet(NetShape(**payload["shape"]))
        net.load_state_dict(payload["model"])
        return cls(net, RuleConfig.from_dict(payload["rules"]), payload["meta"])

    @classmethod
    def shipped(cls) -> "ReadingModel":
        """The model shipped as ``agents/pretrained/reading.pt`` (docs/search.md says how it
        was made)."""
        if not SHIPPED.exists():
            raise CheckpointError(f"{SHIPPED}: the shipped reading model is missing from this "
                                  f"installation")
        return cls.load(SHIPPED)

    def save(self, path: str | Path) -> None:
        write_checkpoint_file(path, {
            "format": 1, "kind": KIND, "encoding": encoding_signature(),
            "rules": self.rules.to_dict(), "shape": asdict(self.net.shape),
            "model": {k: v.detach().cpu().clone() for k, v in self.net.state_dict().items()},
            "meta": self.meta})

    def read(self, view: PlayerView) -> tuple[OpponentRead, ...]:
        """The three other seats of ``view``, in ascending seat order."""
        return self.read_batch([view])[0]

    def read_batch(self, views: Sequence[PlayerView]) -> list[tuple[OpponentRead, ...]]:
        """``read`` of each view, in one pass of the network."""
        for view in views:
            # the match length (rounds) does not change a deal
            if replace(view.rules, rounds=self.rules.rounds) != self.rules:
                raise ValueError(f"the reading model was trained under {self.rules}; seat "
                                 f"{view.seat} plays under {view.rules}")
        if not views:
            return []
        ready, tiles, points = self.predict(pack(views))
        out = []
        for i, view in enumerate(views):
            reads = [OpponentRead(o, float(ready[i, j]), tiles[i, j], float(points[i, j]))
                     for j, o in enumerate(opponents(view.seat))]
            out.append(tuple(sorted(reads, key=lambda r: r.seat)))
        return out

    def predict(self, p: Packed) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """P(ready) (N, 3), P(t | ready) float64 (N, 3, 34) and expected points (N, 3) of the
        opponents of ``p``'s rows, in ``Packed`` order."""
        ready, tiles, points = predict(self.net, p)
        return ready, tiles, np.maximum(points, float(self.rules.min_points))


SMALL = 16       # views: a batch this small runs torch's own convolution, not oneDNN's
# Switching oneDNN for a read restores its TF32 flag, which makes torch warn on every CPU build.
warnings.filterwarnings("ignore", message="TF32 acceleration on top of oneDNN")


def predict(net: ReadingNet, p: Packed, batch: int = 2048
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``net``'s probabilities and points for the rows of ``p`` (float64; points unclipped), in
    batches of ``batch`` views. oneDNN's convolution spends much of a read of one view setting
    itself up (torch's own takes about three quarters of its time: 2.5 against 3.3 ms a read
    here), and wins on large batches."""
    parts = []
    with torch.inference_mode(), torch.backends.mkldnn.flags(enabled=len(p) > SMALL):
        for a in range(0, len(p), batch):
            tiled, scalars = inputs(p.take(slice(a, a + batch)), net.shape.features)
            r, t, v, _ = net(torch.from_numpy(tiled), torch.from_numpy(scalars))
            parts.append((torch.sigmoid(r).double().numpy(), torch.sigmoid(t).double().numpy(),
                          v.double().numpy() * POINTS_SCALE))
    n = len(p)
    return (np.concatenate([x[0] for x in parts]).reshape(n, 3),
            np.concatenate([x[1] for x in parts]).reshape(n, 3, NUM_KINDS),
            np.concatenate([x[2] for x in parts]).reshape(n, 3))
