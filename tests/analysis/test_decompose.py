"""Standard readings and the special-shape predicates."""

import numpy as np
import pytest

from mjenv.analysis import decompose_standard, is_knitted, is_seven_pairs, is_thirteen_orphans
from mjenv.tiles import counts34, parse_tiles
from tests.analysis.helpers import random_standard_win
from tests.scale import n


def c(text: str) -> list[int]:
    return counts34(parse_tiles(text))


def t(text: str) -> int:
    return parse_tiles(text)[0]


def test_pungs_and_chows_are_both_read():
    readings = decompose_standard(c("111222333m12344p"))
    assert readings == [
        (t("4p"), (("chow", t("1m")), ("chow", t("1m")), ("chow", t("1m")), ("chow", t("1p")))),
        (t("4p"), (("pung", t("1m")), ("pung", t("2m")), ("pung", t("3m")), ("chow", t("1p")))),
    ]


def test_single_reading_and_meld_order():
    assert decompose_standard(c("123m456m789m123p55s")) == [
        (t("5s"), (("chow", t("1m")), ("chow", t("4m")), ("chow", t("7m")), ("chow", t("1p"))))]
    # chow before pung on the same first tile
    (pair, melds), = decompose_standard(c("111123m456p789s22z"))
    assert pair == t("2z")
    assert melds == (("chow", t("1m")), ("pung", t("1m")), ("chow", t("4p")), ("chow", t("7s")))


def test_seven_pairs_hand_also_has_standard_readings():
    readings = decompose_standard(c("11223344556677p"))
    assert {p for p, _ in readings} == {t("1p"), t("4p"), t("7p")}
    assert len(readings) == len(set(readings)) == 3
    assert is_seven_pairs(c("11223344556677p"))


def test_honors_only_pungs_and_pairs():
    assert decompose_standard(c("111222333z44455z")) == [
        (t("5z"), tuple(("pung", t(f"{r}z")) for r in (1, 2, 3, 4)))]
    assert decompose_standard(c("123z456m789m123p55s")) == []


def test_smaller_hands_with_called_melds():
    assert decompose_standard(c("22m")) == [(t("2m"), ())]
    assert decompose_standard(c("234m55p")) == [(t("5p"), (("chow", t("2m")),))]
    assert decompose_standard(c("23m555p")) == []


@pytest.mark.parametrize("hand", [
    "13579m2468p13579s", "19m19p19s12345677z", "11m22m33m44m55m66m7m8m"])
def test_no_reading(hand):
    assert decompose_standard(c(hand)) == []


def test_four_pairs_across_suits_is_not_standard():
    # every suit reads as melds + one pair, but four pairs is no hand
    assert decompose_standard(c("11123m11p11s11z")) == []


@pytest.mark.parametrize("hand", ["123m456m789m123p5s", "123m", "1m", "123456m1234p"])
def test_size_not_3k_plus_2(hand):
    with pytest.raises(ValueError, match="3k\\+2"):
        decompose_standard(c(hand))


def test_bad_counts():
    with pytest.raises(ValueError, match="34"):
        decompose_standard([0] * 33)
    bad = c("123m456m789m123p5s")
    bad[5] = 5
    with pytest.raises(ValueError, match=r"6m \(kind 5\) has 5"):
        decompose_standard(bad)
    bad[5] = -1
    with pytest.raises(ValueError, match=r"6m \(kind 5\) has -1"):
        decompose_standard(bad)


def test_seven_pairs():
    assert is_seven_pairs(c("1122m3344p5566s77z"))
    assert not is_seven_pairs(c("1111m3344p5566s77z"))      # four of a kind is not two pairs
    assert not is_seven_pairs(c("1122m3344p5566s7z"))       # 13 tiles
    assert not is_seven_pairs(c("1122m3344p556s777z"))


def test_knitted():
    assert is_knitted(c("147m258p369s12345z"))
    assert is_knitted(c("14m9m25p36s1234567z"))              # 1-4-9 is fine: gaps ≥ 3
    assert is_knitted(c("1m4m9m19p19s1234567z"))
    assert not is_knitted(c("13m9m25p36s1234567z"))          # 1m and 3m too close
    assert not is_knitted(c("147m258p369s1234z"))             # 13 tiles
    assert not is_knitted(c("147m258p369s11234z"))            # a repeat


def test_thirteen_orphans():
    assert is_thirteen_orphans(c("19m19p19s12345677z"))
    assert is_thirteen_orphans(c("119m19p19s1234567z"))
    assert not is_thirteen_orphans(c("19m19p19s1234567z"))    # 13 tiles
    assert not is_thirteen_orphans(c("19m19p19s1234566z"))    # 7z missing
    assert not is_thirteen_orphans(c("129m19p19s1234567z"))   # 2m is no orphan


def test_readings_rebuild_the_hand():
    """Every reading uses exactly the hand's tiles, melds are sorted, no reading repeats."""
    rng = np.random.default_rng(17)
    seen_multi = 0
    for _ in range(n(2000, 10_000)):
        got = random_standard_win(rng)
        if got is None:
            continue
        counts = got[0]
        readings = decompose_standard(counts)
        assert readings and len(readings) == len(set(readings))
        seen_multi += len(readings) > 1
        for pair, melds in readings:
            rebuilt = [0] * 34
            rebuilt[pair] += 2
            for kind, first in melds:
                if kind == "pung":
                    rebuilt[first] += 3
                else:
                    assert first < 27 and first % 9 <= 6
                    for t in (first, first + 1, first + 2):
                        rebuilt[t] += 1
            assert rebuilt == counts
            assert list(melds) == sorted(melds, key=lambda m: (m[1], m[0]))
    assert seen_multi > 0


def test_import_time_suit_tables_match_the_search():
    """The per-suit tables built at import give exactly what the recursive search gives, for
    every key they hold and for random keys (five copies and more than 14 tiles included):
    readings, completeness and the ranks that complete a suit."""
    from mjenv.analysis import tables

    for suit, table in ((0, tables.NUMBER_TABLE), (3, tables.HONOR_TABLE)):
        for key in table:
            assert tables.suit_readings(suit, key) == tables._search(suit, key)
    rng = np.random.default_rng(7)
    for _ in range(n(3000, 30000)):
        suit = int(rng.integers(4))
        key = bytes(rng.choice([0, 0, 0, 1, 1, 2, 3, 4, 5], size=9 if suit < 3 else 7).tolist())
        assert tables.suit_readings(suit, key) == tables._search(suit, key), (suit, list(key))
        assert tables.suit_complete(suit, key) == bool(tables._search(suit, key))
        base = tables.SUIT_SLICES[suit][0]
        waits = tuple(base + r for r in range(len(key))
                      if tables._search(suit, key[:r] + bytes([key[r] + 1]) + key[r + 1:]))
        assert tables.suit_wait_ranks(suit, key) == waits, (suit, list(key))
