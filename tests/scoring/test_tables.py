"""The scorer's import-time look-up tables against their plain definitions.

``tile_facts`` reads the hand-wide masks from per-suit presence tables; the candidate masks
(``_MEETS_*``) pick the decomposition and placement yaku whose declared minimums a reading
meets; ``decompositions`` reads a hand's decompositions and placements from the per-suit
tables. All are checked here on every key or on many seeded random keys.
"""

from __future__ import annotations

import importlib
import random
from collections import Counter
from itertools import combinations

from mjenv.analysis.decompose import decompose_key
from mjenv.scoring.reading import DRAGON, SUIT_M, SUIT_P, SUIT_S, WIND, decompositions, tile_facts
from mjenv.scoring import score_hand
from mjenv.scoring.yaku import GROUPS, PLACEMENT, YAKU
from mjenv.scoring.yaku.base import PLACEMENTS
from tests.scale import n

score_module = importlib.import_module("mjenv.scoring.score")


def _plain_facts(counts: list[int]) -> tuple:
    kinds = tuple(k for k in range(34) if counts[k])
    suits = 0
    for k in kinds:
        suits |= (SUIT_M, SUIT_P, SUIT_S)[k // 9] if k < 27 else WIND if k < 31 else DRAGON
    ranks = 0
    for k in kinds:
        if k < 27:
            ranks |= 1 << (k % 9 + 1)
    return suits, ranks, tuple(k for k in range(34) if counts[k] == 4)


def test_tile_facts_match_the_plain_definition() -> None:
    rng = random.Random(7)
    for _ in range(n(3000, 30000)):
        counts = [0] * 34
        for t in rng.sample(range(136), rng.randint(0, 18)):
            counts[t // 4] += 1
        assert tile_facts(bytes(counts)) == _plain_facts(counts), counts


def test_tile_facts_on_every_single_suit_pattern() -> None:
    for base, width in ((0, 9), (9, 9), (18, 9), (27, 7)):
        for mask in range(1 << width):
            counts = [0] * 34
            for r in range(width):
                if mask >> r & 1:
                    counts[base + r] = 1 + r % 4
            assert tile_facts(bytes(counts)) == _plain_facts(counts), (base, mask)


def _span(ranks: int) -> int:
    """Ranks from the lowest to the highest of the ``Reading.ranks`` bits."""
    shown = [k for k in range(1, 10) if ranks >> k & 1]
    return shown[-1] - shown[0] + 1 if shown else 0


def _plain_candidates(chows: int, honors: int, kongs: int, quads: int, ranks: int,
                      pair: int, twins: int, adjacent: int, suit_bits: int, placement: str,
                      concealed: int, single: bool, chow_bits: int
                      ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    suits = bin(suit_bits & 7).count("1")
    per_suit = [bin(chow_bits >> 9 * s & 0x1FF).count("1") for s in range(3)]
    chosen = [y for y in YAKU.values() if y.scope in (GROUPS, PLACEMENT)
              and y.chows <= chows and y.pungs <= 4 - chows
              and y.wind_pungs <= (honors & 15).bit_count()
              and y.dragon_pungs <= (honors >> 4).bit_count()
              and y.kongs <= kongs and y.quads <= quads and y.suits <= suits
              and ranks & y.ranks == y.ranks and y.pairs >> pair & 1
              and y.twin_chows <= twins and y.adjacent_pungs <= adjacent
              and y.concealed_pungs <= concealed and not (y.several_waits and single)
              and y.chow_suits <= sum(1 for k in per_suit if k)
              and (y.suit_chows <= max(per_suit) or y.suit_chows <= 2)
              and ranks & ~y.within_ranks == 0 and _span(ranks) <= y.rank_span
              and suit_bits & ~y.within_suits == 0
              and bin(suit_bits & 7).count("1") <= y.most_suits and placement in y.placements]
    return (tuple(y.id for y in chosen if y.scope == GROUPS),
            tuple(y.id for y in chosen if y.scope == PLACEMENT))


def test_candidate_masks_match_the_declared_minimums() -> None:
    s = score_module
    rng = random.Random(11)
    for _ in range(n(3000, 30000)):
        chows, honors = rng.randint(0, 4), rng.randrange(1 << 7)
        kongs, quads = rng.randint(0, 4), rng.randint(0, 3)
        ranks, pair = rng.randrange(0, 1 << 10, 2), rng.randrange(34)
        twins, adjacent, suit_bits = rng.randint(0, 3), rng.randint(0, 3), rng.randrange(32)
        placement = rng.choice(sorted(PLACEMENTS))
        concealed, single = rng.randint(0, 4), rng.random() < 0.5
        chow_bits = sum(rng.randrange(1 << 7) << 9 * s for s in range(3) if rng.random() < 0.6)
        spread = sum(s._CHOW_SUIT[chow_bits >> 9 * k & 127] for k in range(3))
        mask = (s._MEETS_CHOWS[chows] & s._MEETS_HONOR_PUNGS[honors]
                & s._MEETS_KONGS[kongs] & s._MEETS_QUADS[quads] & s._MEETS_SUITS[suit_bits]
                & s._MEETS_RANKS[ranks] & s._MEETS_PAIR[pair] & s._MEETS_TWIN_CHOWS[twins]
                & s._MEETS_ADJACENT_PUNGS[adjacent] & s._MEETS_PLACEMENT[placement]
                & s._MEETS_CONCEALED[concealed] & s._MEETS_WAITS[single]
                & s._MEETS_SPREAD[spread])
        chosen = [y.id for i, y in enumerate(s._STANDARD_ONLY) if mask >> i & 1]
        got = (tuple(i for i in chosen if YAKU[i].scope == GROUPS),
               tuple(i for i in chosen if YAKU[i].scope == PLACEMENT))
        assert mask & s._GROUP_BITS | mask & s._PLACEMENT_BITS == mask
        assert got == _plain_candidates(chows, honors, kongs, quads, ranks, pair,
                                        twins, adjacent, suit_bits, placement, concealed, single,
                                        chow_bits)


def _plain_placements(pair: int, groups: tuple, win: int) -> tuple:
    """RULES.md §7 placements of one decomposition, straight from the definitions."""
    out, seen = [], set()
    if pair == win:
        out.append(("dandiao", None))
    for i, g in enumerate(groups):
        if g.kind == "pung":
            if g.first != win:
                continue
            p = "shuangpeng"
        else:
            pos, rank = win - g.first, g.first % 9 + 1
            if not 0 <= pos <= 2:
                continue
            p = ("kanzhang" if pos == 1 else
                 "liangmian" if (rank <= 6 if pos == 0 else rank >= 2) else "bianzhang")
        if (p, g.first) not in seen:
            seen.add((p, g.first))
            out.append((p, i))
    return tuple(out)


def test_decompositions_match_the_analysis_and_the_plain_placements() -> None:
    """The scorer's table-driven decompositions are ``decompose_standard``'s readings, in its
    order, with the groups, chow/pung bits and placements their definitions give."""
    rng = random.Random(5)
    seen = 0
    for _ in range(n(3000, 30000)):
        counts = [0] * 34
        melds = rng.randint(0, 4)
        for _ in range(4 - melds):              # mostly complete hands, some broken ones
            t = rng.randrange(34)
            if rng.random() < 0.6 and t < 27 and t % 9 <= 6:
                for k in (t, t + 1, t + 2):
                    counts[k] += 1
            else:
                counts[t] += 3
        counts[rng.randrange(34)] += 2
        if rng.random() < 0.2:
            counts[rng.randrange(34)] += 1
            counts[rng.randrange(34)] -= 1
        if min(counts) < 0 or max(counts) > 4:
            continue
        win = rng.choice([t for t in range(34) if counts[t]])
        got = decompositions(bytes(counts), win)
        want = decompose_key(bytes(counts))
        assert [(d.pair, tuple((g.kind, g.first) for g in d.groups)) for d in got] == want
        for d in got:
            seen += 1
            assert d.chows == tuple(g.first for g in d.groups if g.kind == "chow")
            assert d.pungs == tuple(g.first for g in d.groups if g.kind == "pung")
            assert d.chow_bits == sum(1 << t for t in set(d.chows))
            assert d.pung_bits == sum(1 << t for t in set(d.pungs))
            assert all(g.source == "hand" and g.concealed for g in d.groups)
            assert d.placements == _plain_placements(d.pair, d.groups, win)
    assert seen > 1000


def test_tiles_and_hand_masks_match_the_declared_maxima() -> None:
    s = score_module
    ids = tuple(YAKU)
    for ranks in range(0, 1 << 10, 2):
        for suit_bits in range(32):
            allowed = s._WITHIN_RANKS[ranks | suit_bits >> 3 << 10] & s._WITHIN_SUITS[suit_bits]
            numbers = bin(ranks).count("1") + bin(suit_bits >> 3).count("1")
            assert allowed == sum(1 << i for i, y in enumerate(YAKU.values())
                                  if ranks & ~y.within_ranks == 0
                                  and _span(ranks) <= y.rank_span
                                  and suit_bits & ~y.within_suits == 0
                                  and bin(suit_bits & 7).count("1") <= y.most_suits
                                  and numbers <= y.most_numbers), (ranks, suit_bits)
    for shape, mask in s._TILES_MASK.items():
        assert {ids[i] for i in range(len(ids)) if mask >> i & 1} == \
            {y.id for y in YAKU.values() if y.scope == "tiles" and shape in y.shapes}


def test_suits_table_holds_what_the_predicates_say() -> None:
    """The import-time SUITS table against each predicate on real readings' shape and suits."""
    s = score_module
    blank = s.Reading._make([None] * len(s.Reading._fields))
    for suit_bits in range(32):
        for code, shape in enumerate(s.SHAPES):
            r = blank._replace(shape=shape, suits=suit_bits)
            want = sum(1 << s._BIT[y.id] for y in YAKU.values()
                       if y.scope == "suits" and shape in y.shapes and y.predicate(r))
            assert s._SUITS_HOLD[suit_bits << 2 | code] == (want, ()), (shape, suit_bits)
    assert {y.id for y in YAKU.values() if y.scope == "suits"} >= {
        "qingyise", "hunyise", "ziyise", "wumenqi", "quemen", "qiduizi"}


# --- the bit-test yaku against their plain definitions (tuples of first tiles) -------------

def _plain_one_in_each_suit(firsts: tuple[int, ...], steps: tuple[int, ...]) -> bool:
    numbers = [t for t in firsts if t < 27]
    for a, b, c in combinations(numbers, 3):
        if a // 9 != b // 9 != c // 9 != a // 9:
            x, y, z = sorted((a % 9, b % 9, c % 9))
            if y - x == z - y and y - x in steps:
                return True
    return False


def _plain_runs(p: tuple[int, ...], length: int) -> list[int]:
    return [p[j] for j in range(len(p) - length + 1)
            if p[j + length - 1] - p[j] == length - 1 and p[j + length - 1] < 27
            and p[j] // 9 == p[j + length - 1] // 9]


def _plain_extends(pair: int, t: int, length: int) -> bool:
    return (t % 9 > 0 and pair == t - 1) or (t % 9 + length < 9 and pair == t + length)


def _plain_stepped(chows: tuple[int, ...], n: int) -> bool:
    c = set(chows)
    return any(t + k in c and t + 2 * k in c and (n == 3 or t + 3 * k in c)
               and t % 9 + (n - 1) * k <= 6 for t in c for k in (1, 2))


PLAIN = {
    "sanse_tongke": lambda c, p, pair: _plain_one_in_each_suit(p, (0,)),
    "sanse_lianke": lambda c, p, pair: _plain_one_in_each_suit(p, (1,)),
    "sanxiangfeng": lambda c, p, pair: _plain_one_in_each_suit(c, (0,)),
    "sanse_sanbugao": lambda c, p, pair: _plain_one_in_each_suit(c, (1, 2)),
    "hualong": lambda c, p, pair: _plain_one_in_each_suit(c, (3,)),
    "sanse_xiao_tongke": lambda c, p, pair: pair < 27 and all(
        b + pair % 9 in p for b in (0, 9, 18) if b != pair - pair % 9),
    "xiao_sanlianke": lambda c, p, pair: any(_plain_extends(pair, t, 2)
                                             for t in _plain_runs(p, 2)),
    "sanlianke": lambda c, p, pair: bool(_plain_runs(p, 3)),
    "xiao_silianke": lambda c, p, pair: any(_plain_extends(pair, t, 3)
                                            for t in _plain_runs(p, 3)),
    "silianke": lambda c, p, pair: bool(_plain_runs(p, 4)),
    "yise_sanbugao": lambda c, p, pair: _plain_stepped(c, 3),
    "yise_sibugao": lambda c, p, pair: _plain_stepped(c, 4),
    "jingtong": lambda c, p, pair: len(set(c)) > len({t % 9 for t in c}),
    "tai_bangao": lambda c, p, pair: any(c[i] == c[i + 2] for i in range(len(c) - 2)),
    "ertongke": lambda c, p, pair: len(p) == 4 and p[-1] < 27 and all(
        v == 2 for v in Counter(t % 9 for t in p).values()),
    "sanyuanpai": lambda c, p, pair: sum(1 for t in p if t >= 31),
    "da_sanfeng": lambda c, p, pair: sum(1 for t in p if 27 <= t <= 30) >= 3,
    "quandai": lambda c, p, pair: pair < 27 and all(t % 9 <= pair % 9 <= t % 9 + 2 for t in c)
    and all(t < 27 and t % 9 == pair % 9 for t in p),
    "hunquan": lambda c, p, pair: _plain_outside(pair) and all(t % 9 in (0, 6) for t in c)
    and all(_plain_outside(t) for t in p),
    "yitiaolong": lambda c, p, pair: any({b, b + 3, b + 6} <= set(c) for b in (0, 9, 18)),
    "laoshao": lambda c, p, pair: any(_plain_laoshao(c, p)),
    "fengyao": lambda c, p, pair: min(_plain_laoshao(c, p)) >= 1,
    "laoshao_shuangshun": lambda c, p, pair: _plain_laoshao(c, p)[0] >= 2,
    "laoshao_shuangdui": lambda c, p, pair: _plain_laoshao(c, p)[1] >= 2,
}


def _plain_outside(t: int) -> bool:
    return t >= 27 or t % 9 in (0, 8)


def _plain_laoshao(c: tuple[int, ...], p: tuple[int, ...]) -> tuple[int, int]:
    """(老少顺, 老少刻) counts: per suit, 123+789 chow couples and a 111+999 pung couple."""
    return (sum(min(c.count(b), c.count(b + 6)) for b in (0, 9, 18)),
            sum(1 for b in (0, 9, 18) if b in p and b + 8 in p))


def test_bit_test_yaku_match_their_plain_definitions() -> None:
    """Yaku that read ``chow_bits``/``pung_bits`` agree with the tuple definitions they
    replaced, on random sorted chow and pung sets (four melds, any pair)."""
    base = score_hand("456p789s111z2z", "2z", "chi:234m").reading
    rng = random.Random(13)
    all_chows = [t for t in range(27) if t % 9 <= 6]
    terminal_chows = [t for t in all_chows if t % 9 in (0, 6)]      # half the time: the
    terminal_pungs = [t for t in range(27) if t % 9 in (0, 8)]       # 老少 family shows up
    for _ in range(n(20000, 200000)):
        k = rng.randint(0, 4)
        outside = rng.random() < 0.5
        chows = tuple(sorted(rng.choice(terminal_chows if outside else all_chows)
                             for _ in range(k)))
        pungs = tuple(sorted(rng.sample(terminal_pungs if outside else range(34), 4 - k)))
        pair = rng.randrange(34)
        r = base._replace(chows=chows, pungs=pungs, pair=pair,
                          chow_bits=sum(1 << t for t in set(chows)),
                          pung_bits=sum(1 << t for t in pungs))
        for yid, plain in PLAIN.items():
            assert int(YAKU[yid].predicate(r)) == int(plain(chows, pungs, pair)), \
                (yid, chows, pungs, pair)
