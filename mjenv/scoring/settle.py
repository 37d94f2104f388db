"""Settlement: the payments of RULES.md §6, as pure functions of P, seats and the repeat count.

``P`` is the hand's points without the dealer bonus; the bonus ``D = 1 + repeat`` (庄家) is
added here, never by the scorer, because it depends on who paid, not on the tiles. Each
function returns the four seats' score changes, which always sum to zero.
"""

from __future__ import annotations

from typing import Mapping

BYSTANDER_RON_PAYMENT = 6   # each non-discarding loser pays a ron winner this much (§6)


def _check_seat(name: str, seat: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise ValueError(f"{name} must be a seat 0–3, got {seat!r}")


def _check_common(dealer: int, repeat: int) -> int:
    _check_seat("dealer", dealer)
    if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 0:
        raise ValueError(f"repeat must be an int >= 0, got {repeat!r}")
    return 1 + repeat


def _check_points(seat: int, points: int) -> None:
    if isinstance(points, bool) or not isinstance(points, int) or points < 0:
        raise ValueError(f"points of seat {seat} must be an int >= 0, got {points!r}")


def settle_ron(points: Mapping[int, int], discarder: int, dealer: int,
               repeat: int) -> tuple[int, int, int, int]:
    """Ron by one, two or three winners (``points``: winner seat → P) on ``discarder``'s tile.

    Each winner gets ``3P'``, with ``P' = P + D`` when the winner is the dealer or the dealer
    discarded, else ``P' = P``. One winner: the two bystanders pay 6 each and the discarder
    ``3P' − 12``. Two winners: the one bystander pays 6 to each winner, the discarder the rest.
    Three winners: the discarder pays everything. A robbed kan settles the same way with the
    kan's declarer as ``discarder``.
    """
    bonus = _check_common(dealer, repeat)
    _check_seat("discarder", discarder)
    if not 1 <= len(points) <= 3:
        raise ValueError(f"ron needs 1–3 winners, got {len(points)}")
    for seat, p in points.items():
        _check_seat("winner", seat)
        _check_points(seat, p)
    if discarder in points:
        raise ValueError(f"seat {discarder} cannot win on its own discard")
    bystanders = [s for s in range(4) if s != discarder and s not in points]
    deltas = [0, 0, 0, 0]
    for winner, p in points.items():
        gain = 3 * (p + bonus if dealer in (winner, discarder) else p)
        deltas[winner] += gain
        for b in bystanders:
            deltas[b] -= BYSTANDER_RON_PAYMENT
        deltas[discarder] -= gain - BYSTANDER_RON_PAYMENT * len(bystanders)
    return (deltas[0], deltas[1], deltas[2], deltas[3])


def settle_tsumo(winner: int, points: int, dealer: int, repeat: int) -> tuple[int, int, int, int]:
    """Self-drawn win: a dealer winner collects ``P + D`` from each seat; a non-dealer winner
    collects ``P + D`` from the dealer and ``P`` from the other two."""
    bonus = _check_common(dealer, repeat)
    _check_seat("winner", winner)
    _check_points(winner, points)
    deltas = [0, 0, 0, 0]
    for s in range(4):
        if s != winner:
            pay = points + bonus if dealer in (winner, s) else points
            deltas[s] -= pay
            deltas[winner] += pay
    return (deltas[0], deltas[1], deltas[2], deltas[3])
