"""Random winning hands for scoring tests (seeded; every shape, melds, flags).

Hands are drawn from random *palettes* (all tiles, one suit, one suit plus honors, honors,
terminals and honors, a few ranks …) so that rare yaku appear often enough to be tested.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from mjenv.scoring import WinContext
from mjenv.tiles import Meld

ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_KNIT_PATTERNS = ((0, 3, 6), (1, 4, 7), (2, 5, 8))


@dataclass(frozen=True)
class Win:
    hand: tuple[int, ...]
    win_tile: int
    melds: tuple[Meld, ...]
    ctx: WinContext


def _palette(rng: random.Random) -> list[int]:
    suit = rng.randrange(3) * 9
    choice = rng.randrange(9)
    if choice == 0:
        return list(range(suit, suit + 9))
    if choice == 1:
        return list(range(suit, suit + 9)) + list(range(27, 34))
    if choice == 2:
        return list(range(27, 34))
    if choice == 3:
        return list(ORPHANS)
    if choice == 4:
        ranks = rng.sample(range(9), rng.randrange(2, 6))
        return [s * 9 + r for s in range(3) for r in ranks]
    if choice == 5:
        return [t for t in range(27) if t % 9 in (0, 1, 2, 6, 7, 8)] + [suit + 4]
    return list(range(34))


def _groups(rng: random.Random, palette: list[int]) -> tuple[list[tuple[str, int]], int]:
    pal = set(palette)
    starts = [t for t in palette if t < 27 and t % 9 <= 6 and t + 1 in pal and t + 2 in pal]
    groups = []
    for _ in range(4):
        if starts and rng.random() < 0.5:
            groups.append(("chow", rng.choice(starts)))
        else:
            groups.append(("pung", rng.choice(palette)))
    return groups, rng.choice(palette)


def _standard(rng: random.Random) -> tuple[list[int], tuple[Meld, ...]]:
    groups, pair = _groups(rng, _palette(rng))
    n_melds = rng.choice((0, 0, 0, 1, 1, 2, 2, 3, 4))
    melds = []
    concealed = [pair, pair]
    for i, (kind, first) in enumerate(groups):
        if i < n_melds:
            if kind == "chow":
                melds.append(Meld("chi", (first, first + 1, first + 2)))
            else:
                mk = rng.choice(("pon", "pon", "minkan", "kakan", "ankan"))
                melds.append(Meld(mk, (first,) * (3 if mk == "pon" else 4)))
        else:
            concealed += [first, first + 1, first + 2] if kind == "chow" else [first] * 3
    return concealed, tuple(melds)


def _seven_pairs(rng: random.Random) -> list[int]:
    if rng.random() < 0.1:
        start = rng.randrange(3) * 9 + rng.randrange(3)
        kinds = list(range(start, start + 7))
    else:
        palette = _palette(rng)
        kinds = rng.sample(palette if len(palette) >= 7 else list(range(34)), 7)
    return [k for k in kinds for _ in range(2)]


def _knitted(rng: random.Random) -> list[int]:
    pattern = rng.sample(_KNIT_PATTERNS, 3)
    numbers = [s * 9 + r for s in range(3) for r in pattern[s]]
    if rng.random() < 0.2:
        same = rng.choice(_KNIT_PATTERNS)
        numbers = [s * 9 + r for s in range(3) for r in same]
    n_honors = rng.randrange(5, 8)
    numbers = rng.sample(numbers, 14 - n_honors)
    return numbers + rng.sample(range(27, 34), n_honors)


def _orphans(rng: random.Random) -> list[int]:
    return list(ORPHANS) + [rng.choice(ORPHANS)]


def random_win(rng: random.Random) -> Win:
    """One random winning hand (the tiles always form a winning shape)."""
    while True:
        u = rng.random()
        if u < 0.85:
            concealed, melds = _standard(rng)
        elif u < 0.93:
            concealed, melds = _seven_pairs(rng), ()
        elif u < 0.97:
            concealed, melds = _knitted(rng), ()
        else:
            concealed, melds = _orphans(rng), ()
        total = [0] * 34
        for t in concealed:
            total[t] += 1
        for m in melds:
            for t in m.tiles:
                total[t] += 1
        if max(total) > 4:
            continue
        win = rng.choice(concealed)
        hand = list(concealed)
        hand.remove(win)
        rng.shuffle(hand)
        return Win(tuple(hand), win, melds, _random_ctx(rng, hand, win, melds, total))


def _random_ctx(rng: random.Random, hand: list[int], win: int, melds: tuple[Meld, ...],
                total: list[int]) -> WinContext:
    tsumo = rng.random() < 0.5
    seat, round_ = rng.randrange(4), rng.randrange(4)
    flags: dict[str, bool] = {}
    if not melds and rng.random() < 0.06:
        if tsumo:
            flags["tianhu" if seat == 0 else "dihu"] = True
        elif seat != 0:
            flags["renhu"] = True
    elif tsumo:
        if any(m.is_kong for m in melds) and rng.random() < 0.3:
            flags["lingshang"] = True
        elif rng.random() < 0.08:
            flags["haidi"] = True
    else:
        if total[win] == 1 and rng.random() < 0.15:
            flags["qianggang"] = True
        elif rng.random() < 0.08:
            flags["hedi"] = True
    if win not in hand and rng.random() < 0.15:
        flags["juezhang"] = True
    return WinContext(tsumo=tsumo, seat_wind=seat, round_wind=round_, **flags)


def random_wins(seed: int, n: int) -> list[Win]:
    rng = random.Random(seed)
    return [random_win(rng) for _ in range(n)]
