"""One table played by a learner seat against three agents: the part of
``mjenv.env.single.SingleAgentEnv`` that its native vector env (``mjenv.env.vector``) runs N
times over, written once.

:class:`LearnerTable` deals (and re-deals a hand that ends before the learner decides), plays
the learner's actions, hands out the opponents' pending decisions and applies their answers,
and adds up the score changes the learner is rewarded with. Who asks the opponents is the
caller's choice: the single env asks each at once (:func:`advance`); the vector env gathers
the pending decisions of all its tables and asks an agent shared by several of them once
(``act_batch``).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from mjenv.env.core import Decision, Outcome, Table, as_id, illegal_message
from mjenv.env.play import show_log
from mjenv.game import HandResult, IllegalActionError


class LearnerTable:
    """``table`` seen by one learner seat (``learner_seat``, or random per deal when None)
    against ``opponents`` (``opponents[k]`` plays the seat ``k + 1`` places after it)."""

    def __init__(self, table: Table, opponents: list[Any], learner_seat: int | None,
                 max_redeals: int) -> None:
        self.table = table
        self.opponents = opponents
        self.learner_seat = learner_seat
        self.seat = learner_seat if learner_seat is not None else 0
        self.max_redeals = max_redeals
        self._deltas = [0, 0, 0, 0]        # score changes since the learner's last decision
        self._result: HandResult | None = None
        self._observers: list = []

    # ---- dealing -----------------------------------------------------------------------------

    def deal(self, rng: np.random.Generator, options: Mapping[str, Any], seat: int | None
             ) -> None:
        """A new hand (or match) from ``rng``: the learner's seat (``seat``, else drawn when
        the table has no fixed one), the deal, every opponent with ``reseed`` reseeded."""
        self.seat = seat if seat is not None else int(rng.integers(4))
        self.table.reset(rng, options)
        for opponent in self.opponents:
            reseed = getattr(opponent, "reseed", None)
            if reseed is not None:
                reseed(int(rng.integers(2**63)))
        self._observers = [((self.seat + k + 1) % 4, o.observe)
                           for k, o in enumerate(self.opponents) if hasattr(o, "observe")]
        show_log(self.table.hand, self._observers)
        self._deltas = [0, 0, 0, 0]
        self._result = None

    def dealt(self, options: Mapping[str, Any], redeals: int) -> bool:
        """Once the opponents have played up to the learner: True when the learner has a
        decision. Else the episode ended first (a 天胡, a ron on the first discards): False,
        the caller deals again; ``ValueError`` when the wall was given (it would repeat),
        ``RuntimeError`` past ``max_redeals``. The score changes so far stay for the
        learner's first reward (match mode), not the result."""
        self._result = None
        if not self.table.done:
            return True
        if "wall" in options:
            raise ValueError("the hand dealt from options['wall'] ends before the learner "
                             f"(seat {self.seat}) decides anything; choose another wall")
        if redeals + 1 > self.max_redeals:
            raise RuntimeError(f"{redeals + 1} hands in a row ended before the learner's "
                               f"first decision")
        return False

    # ---- decisions ---------------------------------------------------------------------------

    def pending(self) -> Decision | None:
        """The decision of the opponent to act, or None when the learner is (or the episode
        is over)."""
        table = self.table
        if table.done:
            return None
        decision = table.decision()
        return None if decision.seat == self.seat else decision

    def opponent(self, seat: int) -> Any:
        return self.opponents[(seat - self.seat) % 4 - 1]

    def answer(self, decision: Decision, aid: Any) -> None:
        """Apply an opponent's answer to ``decision``; ``IllegalActionError`` naming the
        opponent for an id outside its mask (nothing changes)."""
        i = as_id(aid)
        if i is None or i not in decision.actions:
            opponent = self.opponent(decision.seat)
            raise IllegalActionError(f"opponent {getattr(opponent, 'name', opponent)!s} "
                                     f"(seat {decision.seat}): "
                                     f"{illegal_message(decision.view, aid)}")
        self._add(self.table.play(i))

    def play(self, action: Any) -> Outcome:
        """The learner's action (``Table.play``: an illegal id is refused per the table's
        policy, ``Outcome.illegal``)."""
        out = self.table.play(action)
        if not out.illegal:
            self._add(out)
        else:
            show_log(self.table.hand, self._observers)
        return out

    def _add(self, out: Outcome) -> None:
        show_log(self.table.hand, self._observers)
        if out.hand_over:
            self._deltas = [a + b for a, b in zip(self._deltas, out.deltas)]
            self._result = out.result

    def take(self) -> tuple[list[int], HandResult | None]:
        """The score changes (seats 0–3) and the last hand result since the last take."""
        deltas, result = self._deltas, self._result
        self._deltas, self._result = [0, 0, 0, 0], None
        return deltas, result


def needs_observation(agent: Any) -> bool:
    return getattr(agent, "needs_observation", True)


def advance(game: LearnerTable) -> None:
    """Let the opponents act, each asked at once, until the learner must decide or the
    episode ends."""
    table = game.table
    while (decision := game.pending()) is not None:
        agent = game.opponent(decision.seat)
        planes = table.planes(decision.view) if needs_observation(agent) else None
        game.answer(decision, agent.act(planes, decision.mask, decision.view))


def make_opponents(opponents: str | Sequence[Any]) -> list[Any]:
    """Three agents from one spec (``"heuristic"``) or a list of three specs or agent objects;
    specs go through ``agents.make_agent`` (imported here, when asked for: the env layer does
    not depend on the agents package otherwise)."""
    if isinstance(opponents, str):
        opponents = [opponents] * 3
    try:
        items = list(opponents)
    except TypeError:
        items = []
    if len(items) != 3:
        raise ValueError(f"opponents must be one agent spec or three specs/agents, got "
                         f"{opponents!r}")
    agents = []
    for item in items:
        if isinstance(item, str):
            from agents import make_agent
            item = make_agent(item)
        elif not callable(getattr(item, "act", None)):
            raise ValueError(f"opponent {item!r} is neither an agent spec nor an agent with "
                             f"act(observation, mask, view)")
        agents.append(item)
    return agents


def check_seat(seat: Any) -> None:
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, (int, np.integer))
                             or not 0 <= seat <= 3):
        raise ValueError(f"learner_seat must be None or a seat 0–3, got {seat!r}")
