"""The game as a sequence of single decisions: what the three environment APIs share.

:class:`Table` owns a running :class:`~mjenv.game.Hand` (or :class:`~mjenv.game.Match`), the
choice of the seat to act, the deal options, the illegal-action policy and the reward scale,
so Gymnasium, PettingZoo and the single-agent wrapper cannot disagree on any of them
(``mjenv.env.display.TableEnv`` makes one from their common arguments).

Claim windows are serialised: the engine asks every seat that has a legal claim (and only
those) and resolves once all have answered; the environments present these seats one at a
time in ascending seat order. No answer is revealed before resolution, so the order is
invisible to the players.
"""

from __future__ import annotations

import warnings
from typing import Any, Mapping, NamedTuple

import numpy as np
from gymnasium.error import ResetNeeded

from mjenv.env.actions import NUM_ACTIONS, describe, legal_ids, mask_of
from mjenv.env.observation import Encoder
from mjenv.env.render import render_table
from mjenv.game import Action, Hand, HandResult, IllegalActionError, Match, PlayerView
from mjenv.rules import RuleConfig

#: Scalar rewards are game-score changes times this (one reward unit = 100 points).
REWARD_SCALE = 0.01
#: Scalar reward of a seat that sends an illegal action id (``illegal_action="penalize"``).
ILLEGAL_PENALTY = -1.0

EPISODES = ("hand", "match")
HAND_CONTEXTS = ("fixed", "random")
ILLEGAL_POLICIES = ("penalize", "raise")
HAND_OPTIONS = ("wall", "dealer", "round_wind", "repeat", "scores")


class IllegalActionWarning(UserWarning):
    """An illegal action id was sent and the episode was ended with a penalty."""


class Outcome(NamedTuple):
    """What one decision did.

    deltas: game-score change of seats 0–3 caused by this step (zero-sum; non-zero only when a
    hand was settled). hand_over: a hand ended. done: the episode ended (hand mode: with the
    hand; match mode: with the match; or at an illegal action). illegal: the action was
    refused under the ``penalize`` policy (``deltas`` are then zero). result: the engine's
    result of the hand this step ended.
    """

    seat: int
    deltas: tuple[int, int, int, int]
    hand_over: bool
    done: bool
    illegal: bool = False
    result: HandResult | None = None


_ZERO = (0, 0, 0, 0)


def _check_choice(name: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, got {value!r}")
    return value


class Decision(NamedTuple):
    """What the seat to act decides from, built once per decision: its view, its mask (the
    table's own: copy it before handing it out) and, by action id, the engine's own legal
    action objects (``Hand.step`` recognises them by identity)."""

    seat: int
    view: PlayerView
    mask: np.ndarray
    actions: dict[int, Action]


class Table:
    """A hand (``episode="hand"``) or a match (``episode="match"``) driven one decision at a
    time. ``hand_context="random"`` samples dealer, round wind, repeat and scores per hand.
    Each seat's observation planes are kept by an :class:`~mjenv.env.observation.Encoder`
    of its own, so an observation costs what changed since that seat's last one."""

    def __init__(self, rules: RuleConfig = RuleConfig(), *, episode: str = "hand",
                 hand_context: str = "fixed", illegal_action: str = "penalize",
                 reward_scale: float = REWARD_SCALE,
                 illegal_penalty: float = ILLEGAL_PENALTY) -> None:
        if not isinstance(rules, RuleConfig):
            raise ValueError(f"rules must be a RuleConfig, got {type(rules).__name__}")
        self.rules = rules
        self.episode = _check_choice("episode", episode, EPISODES)
        self.hand_context = _check_choice("hand_context", hand_context, HAND_CONTEXTS)
        if episode == "match" and hand_context != "fixed":
            raise ValueError("hand_context='random' applies to episode='hand' only: a match "
                             "plays its own sequence of dealers and winds")
        self.illegal_action = _check_choice("illegal_action", illegal_action, ILLEGAL_POLICIES)
        self.reward_scale = float(reward_scale)
        self.illegal_penalty = float(illegal_penalty)
        self.match: Match | None = None
        self.hand: Hand | None = None
        self.done = True
        self._last_seat = 0
        self._decision: Decision | None = None     # see decision()
        self._encoders = [Encoder() for _ in range(4)]

    # ---- episode start ---------------------------------------------------------------------

    def reset(self, rng: np.random.Generator, options: Mapping[str, Any] | None = None) -> None:
        """Deal a new hand (or start a match) from ``rng``; ``options`` as in ``MahjongEnv``."""
        opts = dict(options or {})
        unknown = set(opts) - set(HAND_OPTIONS)
        if unknown:
            raise ValueError(f"unknown reset option(s) {', '.join(sorted(unknown))}; "
                             f"use {', '.join(HAND_OPTIONS)}")
        seed = int(rng.integers(2**63))
        if self.episode == "match":
            if opts:
                raise ValueError(f"reset options {', '.join(sorted(opts))} apply to "
                                 f"episode='hand' only")
            match = Match(self.rules, seed=seed)
            hand = match.hand
        else:
            kw: dict[str, Any] = sample_context(rng) if self.hand_context == "random" else {}
            kw.update(opts)
            wall = kw.pop("wall", None)
            match = None
            hand = Hand(self.rules, wall=wall, seed=None if wall is not None else seed, **kw)
        self.match, self.hand = match, hand       # only once the deal succeeded
        self.done = False
        self._decision = None

    # ---- state -----------------------------------------------------------------------------

    @property
    def seat(self) -> int:
        """The seat to act now (the lowest of ``to_act``); after the end, the last actor."""
        return self.decision().seat

    def decision(self) -> Decision:
        """The seat to act, its view, mask and legal actions by id (built once per decision;
        after the end: the last actor's view and an all-zero mask)."""
        if self._decision is None:
            hand = self.require_hand()
            to_act = hand.to_act
            seat = to_act[0] if to_act and not self.done else self._last_seat
            view = hand.view(seat)
            ids = legal_ids(view) if not self.done else []
            self._decision = Decision(seat, view, mask_of(ids), dict(zip(ids, view.legal)))
        return self._decision

    def view(self, seat: int | None = None) -> PlayerView:
        """The view of ``seat`` (default: the seat to act, cached until the next step)."""
        decision = self.decision()
        if seat is None or seat == decision.seat:
            return decision.view
        return self.hand.view(seat)

    def require_hand(self) -> Hand:
        """The hand being played; ``ResetNeeded`` (one line) before the first ``reset``."""
        if self.hand is None:
            raise ResetNeeded("the environment has no game yet: call reset() first")
        return self.hand

    def mask(self) -> np.ndarray:
        """A copy of the seat to act's legal-action mask (all zero once the episode is over)."""
        return self.decision().mask.copy()

    def planes(self, view: PlayerView) -> np.ndarray:
        """The observation planes of ``view`` (a view of this table), from its seat's encoder:
        the encoder's own array, valid until that seat is encoded again (copy to keep)."""
        return self._encoders[view.seat].encode(view)

    def render(self, mode: str, style: str) -> str | np.ndarray:
        """The whole table, the seat to act marked: text (``render_table``) for ``"ansi"`` and
        ``"human"``, an RGB array (``mjenv.env.image.draw_table``) for ``"rgb_array"``."""
        hand = self.require_hand()
        to_act = () if self.done else (self.seat,)
        if mode == "rgb_array":
            from mjenv.env.image import draw_table
            return draw_table(hand, to_act=to_act)
        return render_table(hand, style=style, to_act=to_act)

    def observe(self, seat: int | None = None) -> tuple[dict[str, np.ndarray], PlayerView]:
        """``({"observation", "action_mask"}, view)`` of ``seat`` (default: the seat to act).
        The mask is all zero for a seat that is not to act and after the episode ends."""
        decision = self.decision()
        if seat is None or seat == decision.seat:
            view = decision.view
            mask = decision.mask.copy()    # callers may write to theirs; ours validates steps
        else:
            view = self.hand.view(seat)
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": self.planes(view).copy(), "action_mask": mask}, view

    # ---- decisions -------------------------------------------------------------------------

    def play(self, aid: Any) -> Outcome:
        """Apply action id ``aid`` for the seat to act.

        The id is checked against the same ``legal_mask`` the observation carries. An illegal
        id raises ``IllegalActionError`` under ``illegal_action="raise"``; under
        ``"penalize"`` it warns (naming the action and the legal ones), changes nothing in the
        game and ends the episode (``Outcome.illegal``).
        """
        if self.done:
            self.require_hand()
            raise RuntimeError("the episode is over: call reset()")
        seat, view, _, actions = self.decision()
        action = actions.get(aid) if type(aid) is int else None      # the common case
        if action is None:
            i = as_id(aid)
            action = actions.get(i) if i is not None else None
        if action is None:
            self._refuse(seat, view, aid)
            self.done = True
            self._decision = None
            self._last_seat = seat
            return Outcome(seat, _ZERO, False, True, illegal=True)
        hand = self.hand
        hand.step(seat, action)
        self._decision = None
        self._last_seat = seat
        if not hand.over:
            return Outcome(seat, _ZERO, False, False)
        result = hand.result
        if self.match is not None and not self.match.over:
            self.match.next_hand()
            self.hand = self.match.hand
            return Outcome(seat, result.deltas, True, False, result=result)
        self.done = True
        return Outcome(seat, result.deltas, True, True, result=result)

    def _refuse(self, seat: int, view: PlayerView, aid: Any) -> None:
        """Raise or warn about an illegal id, per ``illegal_action``."""
        msg = f"seat {seat}: {illegal_message(view, aid)}"
        if self.illegal_action == "raise":
            raise IllegalActionError(msg)
        warnings.warn(msg + " — episode ended with the illegal-action penalty",
                      IllegalActionWarning, stacklevel=4)

    def scaled(self, deltas: tuple[int, ...]) -> list[float]:
        return [d * self.reward_scale for d in deltas]


def illegal_message(view: PlayerView, aid: Any) -> str:
    """``action … is not legal in phase …; legal: …`` naming ids and engine actions."""
    legal = ", ".join(f"{i} ({describe(i, view)})" for i in legal_ids(view))
    what = f"{aid!r} ({describe(aid, view)})" if as_id(aid) is not None else repr(aid)
    return f"action {what} is not legal in phase {view.phase}; legal: {legal or 'none'}"


def as_id(aid: Any) -> int | None:
    """``aid`` as an action id 0–109 (Python or NumPy integer, or a 0-d integer array)."""
    if isinstance(aid, np.ndarray) and aid.shape == () and aid.dtype.kind in "iu":
        aid = aid.item()
    if isinstance(aid, (int, np.integer)) and not isinstance(aid, bool) \
            and 0 <= aid < NUM_ACTIONS:
        return int(aid)
    return None


def sample_context(rng: np.random.Generator) -> dict[str, Any]:
    """A random hand context for ``hand_context="random"``: dealer and round wind uniform,
    repeat n with P(n) = 0.7 · 0.3ⁿ capped at 5 (the dealer keeps the deal about 30 % of the
    time), scores zero-sum with three seats uniform in [−150, 150]."""
    dealer = int(rng.integers(4))
    round_wind = int(rng.integers(4))
    repeat = min(int(rng.geometric(0.7)) - 1, 5)
    three = rng.integers(-150, 151, size=3)
    scores = tuple(int(x) for x in three) + (int(-three.sum()),)
    return {"dealer": dealer, "round_wind": round_wind, "repeat": repeat, "scores": scores}
