"""Random winning hands: the sample behind the exclusion audit, the benchmark and property tests.

The audit of RULES.md §9 needs a large set of winning hands that reaches *every* yaku, and
uniformly random hands almost never hold the rare ones (十八罗汉, 四海一家, 九子连环, …). So a
hand is drawn in two stages:

1. a *template* picks the tiles: a plain random hand, or one biased towards a family of yaku
   (one suit, honours, all pungs, restricted ranks or numbers, terminal-heavy, identical or
   stepped chows, dragons, consecutive or same-rank pungs, four-of-a-kind patterns, kongs, and
   the seven-pairs / knitted / thirteen-orphans shapes);
2. a *meld style* decides which groups were called (chi, pon, minkan, kakan) or declared
   concealed (ankan), one concealed tile becomes the winning tile, and the situational flags
   (tsumo, winds, 岭上, 海底, 河底, 抢杠, 绝张, 天胡, 地胡, 人胡) are drawn so that they never
   contradict each other or the tiles (issue 2's conflict list, plus physical sense: 抢杠 implies
   绝张, 天胡 never has 绝张).

Every hand is valid (at most four copies of a kind, melds included) and wins by construction.
All randomness comes from the ``numpy.random.Generator`` passed in, so a seed fixes the sample.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from mjenv.scoring.context import FLAG_NAMES, WinContext
from mjenv.scoring.templates import CONCEALED, STANDARD, STYLE_WEIGHTS, STYLES, TEMPLATES, Draw
from mjenv.scoring.templates import Group
from mjenv.tiles import NUM_KINDS, WIND_LETTERS, Meld, tiles_to_str

__all__ = ["GeneratedHand", "TEMPLATES", "generate_hands", "random_hand", "random_winning_hand"]

_SITUATION = frozenset(f.name for f in fields(WinContext) if f.init)


@dataclass(frozen=True)
class GeneratedHand:
    """One winning hand in the int form of ``mjenv.scoring.score`` plus its situation.

    ``hand`` is the concealed tiles before the win (sorted), ``win_tile`` the winning tile,
    ``ctx`` the situation (whose fields read through: ``h.tsumo`` is ``h.ctx.tsumo``),
    ``template`` the name of the template that drew it (for diagnostics only).
    """

    hand: tuple[int, ...]
    win_tile: int
    melds: tuple[Meld, ...]
    ctx: WinContext
    template: str = ""

    def __getattr__(self, name: str):
        if name in _SITUATION:
            return getattr(self.ctx, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def context(self) -> WinContext:
        return self.ctx

    def kwargs(self) -> dict:
        """The keyword arguments of ``mjenv.scoring.score_hand`` (string form, JSON-able)."""
        return {"hand": tiles_to_str(self.hand), "win_tile": tiles_to_str((self.win_tile,)),
                "melds": [str(m) for m in self.melds],
                "seat_wind": WIND_LETTERS[self.ctx.seat_wind],
                "round_wind": WIND_LETTERS[self.ctx.round_wind],
                **{name: getattr(self.ctx, name) for name in FLAG_NAMES}}

    def key(self) -> tuple:
        """Identity of the scoring query (template excluded), for de-duplication."""
        return self.hand, self.win_tile, self.melds, self.ctx


_ALL = STANDARD + CONCEALED
_CUM: list[float] = []
_acc = 0.0
for _, _, _w in _ALL:
    _acc += _w
    _CUM.append(_acc)
_TOTAL = _acc


def _pick_template(r: Draw):
    x = r.random() * _TOTAL
    for entry, c in zip(_ALL, _CUM):
        if x < c:
            return entry
    return _ALL[-1]


def _pick_style(r: Draw) -> tuple[float, float, bool]:
    x = r.random()
    for name, w in STYLE_WEIGHTS:
        if x < w:
            return STYLES[name]
        x -= w
    return STYLES["open"]


def _group_tiles(g: Group) -> list[int]:
    kind, first = g
    return [first, first + 1, first + 2] if kind == "chow" else [first] * 3


def _assemble(r: Draw, groups: list[Group], pair: int):
    """Turn groups + pair into (concealed 14-3k tiles, melds), or None if over four copies."""
    counts = [0] * NUM_KINDS
    for g in groups:
        for t in _group_tiles(g):
            counts[t] += 1
    counts[pair] += 2
    if max(counts) > 4:
        return None
    p_call, p_kong, concealed_kongs = _pick_style(r)
    concealed = [pair, pair]
    melds: list[Meld] = []
    for g in groups:
        kind, first = g
        if kind == "pung" and counts[first] == 3 and r.chance(p_kong):
            counts[first] = 4
            mk = "ankan" if concealed_kongs else r.choice(("minkan", "kakan", "ankan"))
            melds.append(Meld(mk, (first,) * 4))
        elif r.chance(p_call):
            melds.append(Meld("chi" if kind == "chow" else "pon", tuple(_group_tiles(g))))
        else:
            concealed += _group_tiles(g)
    return concealed, melds


def random_hand(rng: np.random.Generator) -> GeneratedHand:
    """One random winning hand with a consistent situation (see the module docstring)."""
    return _random_hand(Draw(rng))


def _random_hand(r: Draw) -> GeneratedHand:
    while True:
        name, fn, _ = _pick_template(r)
        melds: list[Meld] = []
        if any(name == c for c, _, _ in CONCEALED):
            concealed = fn(r)
            if not concealed:
                continue
        else:
            built = _assemble(r, *fn(r))
            if built is None:
                continue
            concealed, melds = built
        break
    win = r.choice(concealed)
    hand = sorted(concealed)
    hand.remove(win)
    return _situation(r, tuple(hand), win, tuple(melds), name)


def _situation(r: Draw, hand: tuple[int, ...], win: int, melds: tuple[Meld, ...],
               template: str) -> GeneratedHand:
    """Draw tsumo, winds and flags that are consistent with each other and with the tiles."""
    tsumo = r.chance(0.5)
    seat, rnd = r.below(4), r.below(4)
    f = dict.fromkeys(FLAG_NAMES[1:], False)
    in_hand = win in hand
    in_melds = any(win in m.tiles for m in melds)
    special = not melds and r.chance(0.05)
    if special:  # 天胡 (the dealer, East), 地胡 / 人胡 (a non-dealer): winds and tsumo follow
        which = r.choice(("tianhu", "dihu", "renhu"))
        f[which] = True
        tsumo = which != "renhu"
        seat = 0 if which == "tianhu" else 1 + r.below(3)
    if not special:
        if tsumo:
            if any(m.is_kong for m in melds) and r.chance(0.3):
                f["lingshang"] = True
            elif r.chance(0.06):
                f["haidi"] = True
        else:
            if not in_hand and not in_melds and r.chance(0.08):
                f["qianggang"] = True
                f["juezhang"] = True  # the other three sit in the robbed pung
            elif r.chance(0.06):
                f["hedi"] = True
    if not in_hand and not f["tianhu"] and not f["qianggang"] and r.chance(0.08):
        f["juezhang"] = True
    return GeneratedHand(hand, win, melds, WinContext(tsumo, seat, rnd, **f), template)


def random_winning_hand(rng: np.random.Generator) -> dict:
    """One random winning hand as ``score_hand`` keyword arguments."""
    return random_hand(rng).kwargs()


def generate_hands(n: int, seed: int, *, distinct: bool = False) -> list[GeneratedHand]:
    """``n`` hands from ``numpy.random.default_rng(seed)``; ``distinct`` drops repeated queries."""
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    r = Draw(np.random.default_rng(seed))
    out: list[GeneratedHand] = []
    seen: set = set()
    while len(out) < n:
        h = _random_hand(r)
        if distinct:
            k = h.key()
            if k in seen:
                continue
            seen.add(k)
        out.append(h)
    return out
