"""Playing a deal with agents: the one loop every driver of whole deals runs.

``play(hand, seats)`` lets the agent of each seat that must decide choose an action id —
``act(observation, mask, view)``, the protocol of ``agents.base.Agent`` — and applies it, until
the deal ends or only seats without an agent (``None``) are left to decide: those are someone
else's to play (RLlib's learners, a person at another screen), and ``play`` is called again once
they have acted. In a claim window every seat decides from its own view; nobody sees another's
answer, since the engine resolves the window only when all have answered (RULES.md §3).

An agent whose ``needs_observation`` is False gets ``None`` instead of the encoded planes
(rule-based agents read the view and the mask). An agent with ``observe(log, seat)`` — the
bridge to an external program, ``agents.external`` — is shown the hand's event log when
``play`` starts, after every step and when it returns (:func:`show_log`). ``on_step`` is called after each decision is
applied, with a :class:`Step`: the hook for logs, checks and statistics. An action id outside
the mask raises :class:`MaskedActionError` naming the agent, seat, phase and legal ids, before
anything changes.

Used by the evaluator (``training.evaluate``), behaviour cloning (``training.bc``), the RLlib
environment's fixed opponents, ``mjenv demo`` and ``mjenv play``, ``benchmarks/bench_agents.py``
and the agent tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from mjenv.env.actions import decode_action, legal_mask
from mjenv.env.core import as_id, illegal_message
from mjenv.env.observation import Encoder, encode
from mjenv.game import Action, Hand, IllegalActionError, PlayerView


class MaskedActionError(IllegalActionError):
    """An agent chose an action id its mask does not allow (the hand is left untouched)."""


@dataclass(frozen=True)
class Step:
    """One decision, as ``play`` applied it: the seat, the view and mask it was made from, the
    action id chosen and the engine action it stands for."""

    seat: int
    view: PlayerView
    mask: np.ndarray
    action_id: int
    action: Action


def decide(agent: Any, view: PlayerView, encoder: Encoder | None = None) -> Step:
    """Ask ``agent`` for its decision in ``view`` (the observation encoded, by ``encoder`` if
    given, only if it needs one); ``MaskedActionError`` for an id outside the mask."""
    mask = legal_mask(view)
    observation = None
    if getattr(agent, "needs_observation", True):
        observation = encode(view) if encoder is None else encoder.encode(view).copy()
    chosen = agent.act(observation, mask, view)
    aid = as_id(chosen)
    if aid is None or not mask[aid]:
        raise MaskedActionError(f"agent {getattr(agent, 'name', agent)!s} in seat {view.seat}: "
                                f"{illegal_message(view, chosen)}")
    return Step(view.seat, view, mask, aid, decode_action(aid, view))


def play(hand: Hand, seats: Sequence[Any], *,
         on_step: Callable[[Step], None] | None = None) -> None:
    """Play ``hand`` with ``seats[s]`` deciding for seat ``s`` until it ends or only seats
    whose agent is ``None`` must decide (see the module docstring)."""
    observers = observers_of(seats)
    show_log(hand, observers)
    encoders = [Encoder() for _ in range(4)]     # each seat's planes follow its views
    while not hand.over:
        seat = next((s for s in hand.to_act if seats[s] is not None), None)
        if seat is None:
            return
        step = decide(seats[seat], hand.view(seat), encoders[seat])
        hand.step(seat, step.action)
        show_log(hand, observers)
        if on_step is not None:
            on_step(step)


def observers_of(seats: Sequence[Any]) -> list[tuple[int, Callable[[list[dict], int], None]]]:
    """``(seat, agent.observe)`` for the agents of ``seats`` that observe the log."""
    return [(s, a.observe) for s, a in enumerate(seats) if hasattr(a, "observe")]


def show_log(hand: Hand, observers: Sequence[tuple[int, Callable[[list[dict], int], None]]]
             ) -> None:
    """Call ``observe(hand.log, seat)`` of each observer (``observers_of``). The log is the
    engine's, hidden events included: an observer passes on only ``public_events`` of it."""
    for seat, observe in observers:
        observe(hand.log, seat)
