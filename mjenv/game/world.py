"""Worlds: a playable :class:`Hand` rebuilt from one seat's view and a guess at what it hides.

A seat's ``PlayerView`` shows everything public; what it hides is the :class:`Hidden` part —
the other seats' concealed tiles, the live wall's order, the dead wall, the other seats'
same-turn furiten, and the answers other seats already gave in an open claim window.
``world(view, hidden)`` puts the two together into a ``Hand`` that plays on exactly as the real
hand would if ``hidden`` is the truth (``hidden_of(hand, seat)``; tested move for move), and as
a consistent alternative when it is a sample (``sample_hidden``: a uniform deal of the unseen
tiles). Searching agents play candidate actions out on such worlds (``agents.search``).

The rebuilt state is the engine's own: counts, melds, ponds, the kan-shifted wall, each seat's
live draws and the calls so far (for 天胡/地胡/人胡), the waits, and the legal actions and
wins computed by the engine's own methods — nothing here decides a rule. A world can be
rebuilt from the view of the seat on turn, or of any seat while a claim or rob window is open.

Seat streams (``world(..., streams=True)``). The live wall of a sampled world is a uniform
shuffle that nobody has seen, so it may as well be dealt as each seat's own stream of draws:
the tiles the plain wall would give a seat if nobody called, in that order, whoever calls.
Each draw is still a uniformly random tile among those not yet drawn — which stream position
is read next depends only on the play so far, never on the tiles still hidden — so a world
plays with the very same odds; but two worlds that differ by a chi or a pon now deal every seat
the same tiles instead of shifting the whole wall by a turn. A search comparing a call with a
pass on such worlds (common random numbers) sees their difference, not the luck of the shift.
With no call the streams deal exactly the plain wall's order.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from mjenv.analysis import wait_kinds
from mjenv.game.actions import Action
from mjenv.game.hand import CLAIM, ROB, TURN, Hand
from mjenv.game.view import PlayerView
from mjenv.game.wall import DEAD_SIZE, Wall

@dataclass(frozen=True)
class Hidden:
    """What a seat's view does not show. ``concealed``: every seat's concealed tiles (the
    viewing seat's entry is ignored: its view has them); ``live``: the live wall still to draw,
    in order; ``dead``: the dead wall, front (the next kan replacement) first; ``furiten``:
    each seat's same-turn furiten (the viewer's own is in its view); ``answers``: ``(seat,
    action)`` already given in the open claim or rob window by other seats."""

    concealed: tuple[tuple[int, ...], ...]
    live: tuple[int, ...]
    dead: tuple[int, ...]
    furiten: tuple[bool, ...] = (False, False, False, False)
    answers: tuple[tuple[int, Action], ...] = ()


def hidden_of(hand: Hand, seat: int) -> Hidden:
    """The true hidden part of ``hand`` for ``seat`` (tests, and oracles that may see it)."""
    return Hidden(
        concealed=tuple(() if s == seat else hand.concealed(s) for s in range(4)),
        live=hand.live_tiles(), dead=hand.dead_tiles(),
        furiten=tuple(hand.furiten(s) for s in range(4)),
        answers=tuple(sorted(hand._answers.items())))


def concealed_sizes(view: PlayerView) -> tuple[int, ...]:
    """How many concealed tiles each seat holds: 13 less 3 a meld, one more on turn."""
    on_turn = view.target_from if view.phase == TURN else None
    return tuple(13 - 3 * len(view.melds[s]) + (s == on_turn) for s in range(4))


def sample_hidden(view: PlayerView, rng: np.random.Generator) -> Hidden:
    """A hidden part drawn uniformly from those the view allows: the unseen tiles shuffled
    and dealt to the other seats, the live wall and the dead wall. Nobody is furiten and no
    answer is given yet (the other seats of an open window decide again)."""
    pool = np.repeat(np.arange(34), view.unseen)
    rng.shuffle(pool)
    tiles = pool.tolist()
    sizes = concealed_sizes(view)
    concealed, at = [], 0
    for s in range(4):
        n = 0 if s == view.seat else sizes[s]
        concealed.append(tuple(sorted(tiles[at:at + n])))
        at += n
    live = tuple(tiles[at:at + view.live_wall_left])
    return Hidden(tuple(concealed), live, tuple(tiles[at + len(live):]))


class SeatStreams:
    """A live wall dealt as seat streams (see the module docstring), with the plain wall's
    dead wall and kan shift: ``live`` in the plain wall's draw order, whose first tile goes to
    ``first`` (the seat that draws next if nobody calls)."""

    __slots__ = ("_streams", "_dead", "_left")

    def __init__(self, live: Sequence[int], dead: Sequence[int], first: int) -> None:
        self._streams: list[deque[tuple[int, int]]] = [deque() for _ in range(4)]
        for j, t in enumerate(live):
            self._streams[(first + j) % 4].append((j, t))
        self._dead = deque(dead)
        self._left = len(live)

    @property
    def live_left(self) -> int:
        return self._left

    def draw(self, seat: int) -> int:
        """The next tile of the seat's stream (once it has run dry, the next tile in the plain
        wall's order)."""
        if not self._left:
            raise RuntimeError("draw from an empty live wall")
        stream = self._streams[seat] or min((s for s in self._streams if s),
                                            key=lambda s: s[0][0])
        self._left -= 1
        return stream.popleft()[1]

    def draw_replacement(self) -> int:
        """A kan replacement from the dead wall's front; the live tile last in the plain
        wall's order joins its back."""
        if not self._left:
            raise RuntimeError("kan with an empty live wall")
        t = self._dead.popleft()
        last = max((s for s in self._streams if s), key=lambda s: s[-1][0])
        self._dead.append(last.pop()[1])
        self._left -= 1
        return t

    def live_tiles(self) -> tuple[int, ...]:
        """The tiles not yet drawn, in the plain wall's order."""
        return tuple(t for _, t in sorted(x for s in self._streams for x in s))

    def dead_tiles(self) -> tuple[int, ...]:
        return tuple(self._dead)


def world(view: PlayerView, hidden: Hidden, *, streams: bool = False) -> Hand:
    """The hand ``view`` is a view of, with ``hidden`` for what it hides (see the module
    docstring); ``streams``: its live wall dealt as seat streams. ``ValueError`` when the view
    is not one a world is rebuilt from (another seat's turn, a finished hand) or ``hidden``
    does not fit it (counts, wall sizes)."""
    _check(view, hidden)
    hand = Hand.__new__(Hand)
    for name, value in _public_state(view).items():
        setattr(hand, name, value)
    counts = [[0] * 34 for _ in range(4)]
    for s in range(4):
        for t in (view.hand if s == view.seat else hidden.concealed[s]):
            counts[s][t] += 1
    hand._counts = counts
    out = [t for c in counts for t in range(34) for _ in range(c[t])]
    out += [t for t in range(34) for _ in range(hand._visible[t])]
    if streams:
        hand._wall = SeatStreams(hidden.live, hidden.dead, (view.target_from + 1) % 4)
    else:
        hand._wall = Wall.resumed(out, hidden.live, hidden.dead)
    hand._furiten = [view.furiten if s == view.seat else bool(hidden.furiten[s])
                     for s in range(4)]
    hand._waits = [frozenset(wait_kinds(*_last_thirteen(hand, view, s))) for s in range(4)]
    _open_decisions(hand, view, dict(hidden.answers))
    return hand


def _check(view: PlayerView, hidden: Hidden) -> None:
    if view.phase == TURN and view.target_from != view.seat:
        raise ValueError(f"seat {view.seat}'s view on seat {view.target_from}'s turn: a world "
                         f"is rebuilt from the seat on turn or from a claim or rob window")
    if not view.legal and view.phase == TURN:
        raise ValueError("the view has nothing to decide: is the hand over?")
    sizes = concealed_sizes(view)
    for s in range(4):
        if s != view.seat and len(hidden.concealed[s]) != sizes[s]:
            raise ValueError(f"seat {s} holds {sizes[s]} concealed tiles, the hidden part "
                             f"gives {len(hidden.concealed[s])}")
    if len(hidden.live) != view.live_wall_left or len(hidden.dead) != DEAD_SIZE:
        raise ValueError(f"the walls hold {view.live_wall_left} live and {DEAD_SIZE} dead "
                         f"tiles, the hidden part gives {len(hidden.live)} and "
                         f"{len(hidden.dead)}")
    unseen = [0] * 34
    for s in range(4):
        if s != view.seat:
            for t in hidden.concealed[s]:
                unseen[t] += 1
    for t in hidden.live + hidden.dead:
        unseen[t] += 1
    if tuple(unseen) != tuple(view.unseen):
        raise ValueError("the hidden part is not the view's unseen tiles")


def _public_state(view: PlayerView) -> dict:
    """The hand's attributes that the view shows (all but counts, wall, furiten, waits and the
    decisions open now)."""
    visible = [0] * 34
    for pond in view.ponds:
        for p in pond:
            visible[p.tile] += not p.called
    for melds in view.melds:
        for m in melds:
            for t in m.tiles:
                visible[t] += 1
    if view.phase == ROB:                   # the tile being added is out of the hand
        visible[view.target_tile] += 1
    on_turn = view.target_from if view.phase in (TURN, ROB) else None
    return dict(
        rules=view.rules, seed=None, dealer=view.dealer, round_wind=view.round_wind,
        repeat=view.repeat, scores_before=tuple(view.scores), result=None,
        log=[{"type": "world", "seat": view.seat, "phase": view.phase}],
        _melds=[list(m) for m in view.melds], _ponds=[list(p) for p in view.ponds],
        _visible=visible,
        _live_draws=[_live_draws(view, s, s == on_turn) for s in range(4)],
        _calls=sum(1 + (m.kind == "kakan") for ms in view.melds for m in ms),
        _phase=view.phase, _turn_seat=view.target_from,
        _drawn=view.target_tile if view.phase == TURN else None,
        _kan_draw=view.phase == TURN and view.kan_draw,
        _tsumo=None, _target=None if view.phase == TURN else view.target_tile,
        _target_from=None if view.phase == TURN else view.target_from,
        _rons={}, _answers={}, _legal={})


def _live_draws(view: PlayerView, seat: int, on_turn: bool) -> int:
    """Turns a seat began with a live draw: every turn ends in a discard or a concealed or
    added kan, or is the one going on; turns begin with a live draw, a kan's replacement, or
    a chi or pon (an added kan's pon among them)."""
    melds = view.melds[seat]
    kans = sum(m.kind in ("ankan", "minkan", "kakan") for m in melds)
    ended_in_kan = sum(m.kind in ("ankan", "kakan") for m in melds)
    called = sum(m.kind in ("chi", "pon", "kakan") for m in melds)
    return len(view.ponds[seat]) + ended_in_kan + on_turn - kans - called


def _last_thirteen(hand: Hand, view: PlayerView, seat: int) -> tuple[list[int], tuple]:
    """The seat's tiles and melds as of its last 13-tile state, which its waits are of: the
    seat on turn before its draw, or before its chi or pon."""
    counts, melds = list(hand._counts[seat]), tuple(hand._melds[seat])
    if view.phase != TURN or seat != view.target_from:
        return counts, melds
    if view.target_tile is not None:
        counts[view.target_tile] -= 1
        return counts, melds
    call = melds[-1]                        # the chi or pon this turn began with
    for t in call.tiles:
        counts[t] += 1
    counts[call.called] -= 1
    return counts, melds[:-1]


def _open_decisions(hand: Hand, view: PlayerView, answers: dict[int, Action]) -> None:
    """The decisions open now, computed by the engine: the turn's legal actions and tsumo, or
    the window's askers and rons less the seats that already answered."""
    if view.phase == TURN:
        seat, drawn = view.seat, view.target_tile
        if drawn is not None:
            hand._tsumo = hand._tsumo_result(seat, drawn, view.kan_draw)
        hand._legal = {seat: hand._turn_legal(
            seat, can_kan=drawn is not None and view.live_wall_left > 0)}
    else:
        options = hand._claim_options if view.phase == CLAIM else hand._rob_options
        legal, hand._rons = options(view.target_from, view.target_tile)
        hand._answers = answers
        hand._legal = {s: acts for s, acts in legal.items() if s not in hand._answers}
    if view.legal and tuple(hand._legal.get(view.seat, ())) != tuple(view.legal):
        raise ValueError(f"the view's legal actions {[str(a) for a in view.legal]} are not "
                         f"those of the hand it shows")


__all__ = ["Hidden", "SeatStreams", "concealed_sizes", "hidden_of", "sample_hidden", "world"]
