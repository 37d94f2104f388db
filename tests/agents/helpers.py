"""Hand-built ``PlayerView``s for decision tests, and a game driver for property tests."""

from __future__ import annotations

from typing import Sequence

from mjenv.game import Action, Hand, PlayerView, PondTile
from mjenv.rules import RuleConfig
from mjenv.tiles import Meld, parse_meld, parse_tiles


def view_of(hand: str, *, seat: int = 0, melds: Sequence[Sequence[str]] = ((), (), (), ()),
            ponds: Sequence[str] = ("", "", "", ""), phase: str = "turn",
            target: str | None = None, target_from: int | None = None,
            legal: Sequence[str] | None = None, live: int = 50, dealer: int = 0,
            rules: RuleConfig = RuleConfig()) -> PlayerView:
    """A view with the given tiles; ``legal`` defaults to one discard per kind held."""
    tiles = tuple(sorted(parse_tiles(hand)))
    meld_objs = tuple(tuple(parse_meld(m) for m in ms) for ms in melds)
    pond_objs = _ponds(ponds, dealer)
    seen = [0] * 34
    for t in tiles:
        seen[t] += 1
    for ms in meld_objs:
        for m in ms:
            for t in m.tiles:
                seen[t] += 1
    for p in pond_objs:
        for pt in p:
            seen[pt.tile] += 1
    if legal is None:
        actions = tuple(Action("discard", t) for t in sorted(set(tiles)))
    else:
        actions = tuple(sorted(Action.parse(a) for a in legal))
    target_tile = parse_tiles(target)[0] if target else None
    return PlayerView(
        seat=seat, hand=tiles, melds=meld_objs, ponds=pond_objs,
        unseen=tuple(4 - c for c in seen), dealer=dealer, round_wind=0,
        seat_wind=(seat - dealer) % 4, repeat=0, live_wall_left=live, scores=(0, 0, 0, 0),
        furiten=False, phase=phase, target_tile=target_tile,
        target_from=seat if target_from is None and phase == "turn" else target_from,
        legal=actions, rules=rules)


def _ponds(ponds: Sequence[str], dealer: int) -> tuple[tuple[PondTile, ...], ...]:
    """The ponds, numbered as turns pass without claims: the dealer's first discard, then the
    next seat's first, and so on round the table (a seat whose pond is done is skipped)."""
    tiles = [parse_tiles(p) for p in ponds]
    made = sorted((i, (s - dealer) % 4, s) for s in range(4) for i in range(len(tiles[s])))
    order = {(s, i): n for n, (i, _, s) in enumerate(made)}
    return tuple(tuple(PondTile(t, False, False, order[s, i]) for i, t in enumerate(tiles[s]))
                 for s in range(4))


def play(agents: Sequence, seed: int, on_decision=None) -> Hand:
    """Play one hand (``mjenv.env.play``: a masked action raises). ``on_decision(seat, view,
    aid)`` is called for each decision."""
    from mjenv.env.play import play as play_deal
    hand = Hand(RuleConfig(), seed=seed)
    play_deal(hand, agents, on_step=on_decision and (
        lambda step: on_decision(step.seat, step.view, step.action_id)))
    return hand


def meld(text: str) -> Meld:
    return parse_meld(text)
