"""A match: hands in sequence with dealer repeat, rotation and round wind (RULES.md §5).

The dealer keeps the deal (连庄, repeat ``n`` + 1) when it is among the winners; otherwise —
another seat wins or the hand is drawn — the deal passes to the next seat and ``n`` resets.
A wind round ends when the deal returns to seat 0; the match ends after ``rules.rounds``
wind rounds. Each hand's wall comes from a sub-seed of the match seed (or from ``walls``, for
scripted matches), so a match seed fixes every deal.
"""

from __future__ import annotations

import secrets
from typing import Iterable, Sequence

from mjenv.game.hand import Hand, HandResult
from mjenv.game.wall import derive_seed
from mjenv.rules import RuleConfig


def next_deal(dealer: int, round_wind: int, repeat: int,
              result: HandResult) -> tuple[int, int, int]:
    """``(dealer, round_wind, repeat)`` of the hand after one that ended with ``result``.

    ``round_wind`` may reach ``rules.rounds`` (or 4): that means the match is over.
    """
    if dealer in result.winners:
        return dealer, round_wind, repeat + 1
    nxt = (dealer + 1) % 4
    return nxt, round_wind + 1 if nxt == 0 else round_wind, 0


def ranking(scores: Sequence[int]) -> tuple[int, ...]:
    """Seats best first by score; a tie goes to the seat first in turn order from seat 0
    (the first dealer), i.e. the lower seat number (RULES.md §5)."""
    if len(scores) != 4:
        raise ValueError(f"ranking needs four scores, got {len(scores)}")
    return tuple(sorted(range(4), key=lambda s: (-scores[s], s)))


class Match:
    """Hands of one match, seat 0 the first dealer, scores starting at 0 (zero-sum).

    ``seed`` derives every hand's wall (a fresh random seed when both it and ``walls`` are
    ``None``; it is logged). ``walls``: explicit walls, one per hand in order, for scripted
    matches. ``match.hand`` is the current :class:`Hand`; drive it to its end, then call
    :meth:`next_hand` until :attr:`over`.
    """

    def __init__(self, rules: RuleConfig = RuleConfig(), *, seed: int | None = None,
                 walls: Iterable[Sequence[int | str] | str] | None = None) -> None:
        if not isinstance(rules, RuleConfig):
            raise ValueError(f"rules must be a RuleConfig, got {type(rules).__name__}")
        if walls is not None and seed is not None:
            raise ValueError("give a match seed or explicit walls, not both")
        if walls is None and seed is None:
            seed = secrets.randbits(64)
        self.rules = rules
        self.seed = seed
        self._walls = iter(walls) if walls is not None else None
        self._done: list[Hand] = []
        self.hand = self._make_hand(0, 0, 0, 0, (0, 0, 0, 0))

    def _make_hand(self, index: int, dealer: int, round_wind: int, repeat: int,
                   scores: tuple[int, ...]) -> Hand:
        kw = dict(dealer=dealer, round_wind=round_wind, repeat=repeat, scores=scores)
        if self._walls is None:
            return Hand(self.rules, seed=derive_seed(self.seed, index), **kw)
        try:
            wall = next(self._walls)
        except StopIteration:
            raise ValueError(f"walls ran out: the match needs hand {index + 1}") from None
        return Hand(self.rules, wall=wall, **kw)

    @property
    def hands(self) -> tuple[Hand, ...]:
        """All hands so far, the current one last."""
        return tuple(self._done) + (self.hand,)

    @property
    def over(self) -> bool:
        h = self.hand
        if h.result is None:
            return False
        return next_deal(h.dealer, h.round_wind, h.repeat, h.result)[1] >= self.rules.rounds

    @property
    def scores(self) -> tuple[int, int, int, int]:
        """Scores after every finished hand (the current one included once it is over)."""
        return self.hand.scores_after

    def next_hand(self) -> Hand:
        """Start the next hand; the current one must be over and the match not."""
        h = self.hand
        if h.result is None:
            raise ValueError("the current hand is not over")
        if self.over:
            raise ValueError("the match is over")
        dealer, round_wind, repeat = next_deal(h.dealer, h.round_wind, h.repeat, h.result)
        new = self._make_hand(len(self._done) + 1, dealer, round_wind, repeat, h.scores_after)
        self._done.append(h)
        self.hand = new
        return new

    def ranking(self) -> tuple[int, ...]:
        """Seats best first by the current scores (see :func:`ranking`)."""
        return ranking(self.scores)

    @property
    def log(self) -> list[dict]:
        """The match header, every hand's events, and a ``match_end`` event once over."""
        events: list[dict] = [{"type": "match", "rules": self.rules.to_dict(), "seed": self.seed}]
        for h in self.hands:
            events.extend(h.log)
        if self.over:
            events.append({"type": "match_end", "scores": list(self.scores),
                           "ranking": list(self.ranking())})
        return events
