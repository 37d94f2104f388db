"""Wait sets (RULES.md §7).

A kind is a wait of a 13-tile hand (each called meld counting as 3) if adding it makes any
winning shape — standard, or with no melds seven pairs, knitted or thirteen orphans — unless the
player already holds all four of it (concealed plus melds; a kong meld holds four).

``structural_waits`` leaves out that last rule: it is the tile-shape answer (a fifth copy
allowed) that matches shanten 0.
"""

from __future__ import annotations

import operator
from typing import Iterable, Sequence

from mjenv.analysis.decompose import counts_key
from mjenv.analysis.tables import (
    HONOR_TABLE,
    KNIT_VALID,
    NUMBER_TABLE,
    SUIT_SLICES,
    cached,
    suit_wait_ranks,
)
from mjenv.tiles import ORPHANS, TILE_NAMES, Meld, counts34, parse_meld, parse_melds, parse_tiles


def normalize_melds(melds: Sequence[Meld | str] | str | None) -> tuple[Meld, ...]:
    """Melds as ``Meld`` objects: accepts ``Meld``s, meld strings or one comma-separated string."""
    if isinstance(melds, str) or melds is None:
        return parse_melds(melds)
    try:
        return tuple(parse_meld(m) for m in melds)
    except TypeError:
        raise ValueError(f"melds must be meld strings or Meld objects, got {melds!r}") from None


def held_counts(key: bytes, melds: Sequence[Meld]) -> bytes | list[int]:
    """Copies of each kind held in the concealed hand plus melds; more than four is an error."""
    if not melds and max(key) <= 4:
        return key
    held = list(key)
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    worst = max(held)
    if worst > 4:
        t = held.index(worst)
        raise ValueError(f"{TILE_NAMES[t]} is held {worst} times counting melds "
                         f"(a kind has only 4 tiles)")
    return held


def check_size(total: int, n_melds: int, sizes: tuple[int, ...], what: str) -> None:
    """Raise unless concealed ``total`` + 3 per meld is one of ``sizes`` (13 and/or 14)."""
    if not 0 <= n_melds <= 4:
        raise ValueError(f"a hand has 0–4 melds, got {n_melds}")
    if total + 3 * n_melds not in sizes:
        need = " or ".join(str(s - 3 * n_melds) for s in sizes)
        raise ValueError(f"{what} needs {need} concealed tiles with {n_melds} meld(s), "
                         f"got {total}")


def hand_counts(hand: str | Sequence[int]) -> list[int]:
    """Counts of an mpsz string or a sequence of tile ints (0–33), checked."""
    if isinstance(hand, str):
        return counts34(parse_tiles(hand))
    if isinstance(hand, (bytes, bytearray)) or not isinstance(hand, Iterable):
        raise ValueError(f"a hand is an mpsz string or a sequence of tile ints, got {hand!r}")
    tiles = []
    for t in hand:
        try:
            i = operator.index(t)           # ints and numpy integers, not floats
        except TypeError:
            i = -1
        if isinstance(t, bool) or not 0 <= i < 34:
            raise ValueError(f"{t!r} is not a tile index (0–33)")
        tiles.append(i)
    return counts34(tiles)


def structural_waits(counts: Sequence[int], n_melds: int = 0) -> list[int]:
    """Kinds whose addition makes a winning shape, a fifth copy allowed (shanten 0 ⇔ non-empty).

    ``counts``: concealed tiles, 13 − 3·``n_melds`` in total. The four-held rule is not applied.
    """
    key = counts_key(counts)
    check_size(sum(key), n_melds, (13,), "a wait set")
    return list(_structural_waits(key, n_melds, True))


# Per suit: (suit, first kind, last kind + 1, complete-suit table).
_SUITS = tuple((suit, lo, hi, HONOR_TABLE if suit == 3 else NUMBER_TABLE)
               for suit, (lo, hi) in enumerate(SUIT_SLICES))


@cached(1 << 14)
def _structural_waits(key: bytes, n_melds: int, fifth: bool) -> tuple[int, ...]:
    """``structural_waits`` on a checked key (``fifth``: a fifth copy allowed; without it, a
    kind held four times is no wait); cached, the engine asks again for unchanged hands."""
    # Standard: only the suit that gets the tile changes. At most one suit may be incomplete
    # (then the wait lies there); adding turns a suit's count 1→2 mod 3 (it gains the hand's
    # pair: no other suit may hold one) or 2→0 (it loses its pair: exactly one other suit must
    # hold one, as in a two-pair shanpon wait); 0→1 never completes. A suit of this hand
    # (at most 13 tiles, four a kind) reads exactly when its key is in the import-time table.
    bad = -1
    pair_suits = 0
    mods = [0, 0, 0, 0]
    for suit, lo, hi, table in _SUITS:
        sk = key[lo:hi]
        r = sum(sk)
        if not r:
            continue
        r %= 3
        mods[suit] = r
        if r == 2:
            pair_suits += 1
        if r == 1 or sk not in table:
            if bad != -1:
                bad = -2
                break
            bad = suit
    waits: list[int] = []
    if bad != -2:
        for suit in (bad,) if bad >= 0 else range(4):
            r = mods[suit]
            if (r == 1 and pair_suits == 0) or (r == 2 and pair_suits == 2):
                lo, hi = SUIT_SLICES[suit]
                waits += suit_wait_ranks(suit, key[lo:hi], fifth)
    if n_melds == 0 and sum(key) == 13:
        special = _special_waits(key)
        if special:
            return tuple(sorted(set(waits).union(special)))
    return tuple(waits)


_orphan_counts = operator.itemgetter(*ORPHANS)
# The rank mask (bit r: rank r + 1 held) of a number suit's counts, each 0 or 1.
_RANK_MASK = {bytes(m >> r & 1 for r in range(9)): m for m in range(512)}
# Per valid knitted rank mask: the ranks (0-based) one more tile of which keeps it valid.
_KNIT_ADDABLE = {m: tuple(r for r in range(9) if not m >> r & 1 and m | 1 << r in KNIT_VALID)
                 for m in KNIT_VALID}


def _special_waits(key: bytes) -> list[int]:
    """Waits on seven pairs, knitted and thirteen orphans for a fully concealed 13-tile hand."""
    out: list[int] = []
    if key.count(2) == 6 and key.count(1) == 1:
        out.append(key.index(1))
    if max(key) == 1:
        masks = [_RANK_MASK[key[lo:hi]] for lo, hi in SUIT_SLICES[:3]]
        if all(m in KNIT_VALID for m in masks):
            for lo, mask in zip((0, 9, 18), masks):
                out.extend(lo + r for r in _KNIT_ADDABLE[mask])
            out.extend(t for t in range(27, 34) if not key[t])
    if sum(_orphan_counts(key)) == 13:
        missing = [t for t in ORPHANS if not key[t]]
        if not missing:
            out.extend(ORPHANS)
        elif len(missing) == 1:
            out.append(missing[0])
    return out


def wait_kinds(counts: Sequence[int], melds: Sequence[Meld | str] = ()) -> list[int]:
    """The wait set of RULES.md §7 as sorted tile ints.

    ``counts``: 34 counts of the concealed tiles, 13 − 3 per meld in total; ``melds``: the
    called/declared melds (``Meld`` or meld strings). Kinds held four times are excluded.
    """
    key = counts_key(counts)
    ms = normalize_melds(melds)
    check_size(sum(key), len(ms), (13,), "a wait set")
    return held_wait_kinds(key, held_counts(key, ms), len(ms))


def held_wait_kinds(key: bytes, held: Sequence[int], n_melds: int) -> list[int]:
    """``wait_kinds`` for a caller that has checked its input itself (the scorer): ``key`` is
    ``bytes`` of the 34 concealed counts (13 − 3·``n_melds`` tiles), ``held`` the counts of
    every tile held, melds included."""
    return [t for t in _structural_waits(key, n_melds, False) if held[t] < 4]


def waits(hand: str | Sequence[int], melds: Sequence[Meld | str] | str = ()) -> list[str]:
    """The wait set of a hand as tile strings in tile order.

    >>> waits("19m19p19s1234567z")[:5]
    ['1m', '4m', '5m', '6m', '9m']
    """
    return [TILE_NAMES[t] for t in wait_kinds(hand_counts(hand), normalize_melds(melds))]
