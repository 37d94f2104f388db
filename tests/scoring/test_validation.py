"""Bad queries raise ValueError naming the problem (issue 2's list of flag conflicts, tile
counts, hand size); a non-winning hand raises NotWinningHand, itself a ValueError."""

from __future__ import annotations

import pytest

from mjenv.scoring import NotWinningHand, WinContext, score, score_hand
from mjenv.tiles import parse_meld, parse_tile, parse_tiles

PINGHU = "23m456p234789s55p"   # + 1m


def call(hand=PINGHU, win="1m", melds="", **opts):
    return score_hand(hand, win, melds, **{"seat_wind": "S", **opts})


@pytest.mark.parametrize("opts, words", [
    (dict(haidi=True), ["haidi", "tsumo"]),
    (dict(lingshang=True), ["lingshang", "tsumo"]),
    (dict(tianhu=True, seat_wind="E"), ["tianhu", "tsumo"]),
    (dict(dihu=True), ["dihu", "tsumo"]),
    (dict(tsumo=True, hedi=True), ["hedi", "tsumo"]),
    (dict(tsumo=True, qianggang=True), ["qianggang", "tsumo"]),
    (dict(tsumo=True, renhu=True), ["renhu", "tsumo"]),
    (dict(hedi=True, qianggang=True), ["hedi", "qianggang"]),
    (dict(tsumo=True, lingshang=True, haidi=True), ["lingshang", "haidi"]),
    (dict(tsumo=True, tianhu=True, dihu=True, seat_wind="E"), ["tianhu", "dihu"]),
    (dict(tsumo=True, dihu=True, haidi=True), ["dihu", "haidi"]),
    (dict(renhu=True, hedi=True), ["renhu", "hedi"]),
    (dict(renhu=True, qianggang=True), ["renhu", "qianggang"]),
    (dict(tsumo=True, tianhu=True), ["tianhu", "East"]),
    (dict(tsumo=True, dihu=True, seat_wind="E"), ["dihu", "East"]),
    (dict(renhu=True, seat_wind="E"), ["renhu", "East"]),
])
def test_flag_conflicts(opts: dict, words: list[str]) -> None:
    with pytest.raises(ValueError) as err:
        call(**opts)
    assert not isinstance(err.value, NotWinningHand)
    for w in words:
        assert w in str(err.value)


@pytest.mark.parametrize("hand, win, melds, opts, words", [
    ("23m456p789s55p", "1m", "pon:777z", dict(tsumo=True, lingshang=True), ["lingshang", "kan"]),
    ("23m456p789s55p", "1m", "chi:234s", dict(renhu=True), ["renhu", "meld"]),
    ("23m456p789s55p", "1m", "ankan:1111z", dict(tsumo=True, tianhu=True, seat_wind="E"),
     ["tianhu", "meld"]),
    ("23m456p789s55p", "1m", "chi:234s", dict(tsumo=True, dihu=True), ["dihu", "meld"]),
    ("1m3m456p234789s55p", "1m", "", dict(juezhang=True), ["juezhang", "1m"]),
    ("123m456p234789s5p", "5p", "", dict(qianggang=True), ["qianggang", "5p"]),
    ("23m456p789s55p", "1m", "chi:123m", dict(qianggang=True), ["qianggang", "1m"]),
])
def test_conflicts_with_the_tiles(hand, win, melds, opts, words) -> None:
    with pytest.raises(ValueError) as err:
        call(hand, win, melds, **opts)
    for w in words:
        assert w in str(err.value)


def test_juezhang_and_qianggang_allowed_when_consistent() -> None:
    r = call(juezhang=True, qianggang=True)
    assert "qianggang" in r.yaku and "juezhang" not in r.yaku


def test_five_of_a_kind() -> None:
    with pytest.raises(ValueError, match="more than four of 5p"):
        call("23m456m789s55p", "1m", "pon:555p")


def test_hand_size() -> None:
    with pytest.raises(ValueError, match="13"):
        call("23m456p234789s5p", "1m")
    with pytest.raises(ValueError, match="10"):
        call(PINGHU, "1m", "chi:123s")
    with pytest.raises(ValueError, match="at most 4"):
        score(parse_tiles("5p"), parse_tile("5p"),
              [parse_meld(m) for m in ("chi:123m",) * 5], WinContext())


def test_bad_tiles_and_winds() -> None:
    with pytest.raises(ValueError, match="8z"):
        call("23m456p234789s88z", "1m")
    with pytest.raises(ValueError, match="wind"):
        call(seat_wind="X")
    with pytest.raises(ValueError, match="tile index"):
        score([40] + parse_tiles(PINGHU)[1:], 0, (), WinContext())
    with pytest.raises(ValueError, match="seat_wind"):
        WinContext(seat_wind=4)
    with pytest.raises(ValueError, match="300 tiles"):
        call("1" * 300 + "m", "1m")


def test_not_winning() -> None:
    with pytest.raises(NotWinningHand, match="no winning shape"):
        call(PINGHU, "9m")
    assert issubclass(NotWinningHand, ValueError)


def test_int_and_string_level_agree() -> None:
    ctx = WinContext(tsumo=True, seat_wind=1, round_wind=0)
    r = score(parse_tiles(PINGHU), parse_tile("1m"), (), ctx)
    assert r == call(tsumo=True)


def test_meld_forms_agree() -> None:
    forms = ["pon:777z,chi:234s", " pon:777z , chi:234s ,", ["pon:777z", "chi:234s"],
             [parse_meld("pon:777z"), "chi:234s"]]
    results = [call("567m345p8p", "8p", m) for m in forms]
    assert all(r == results[0] for r in results) and results[0].points == 4


def test_every_spelling_of_a_hand_scores_alike() -> None:
    """The fast mpsz reader (look-ups per four digits) against ``parse_tiles``: compact,
    split and unsorted spellings, long digit groups included."""
    import random
    from mjenv.tiles import tiles_to_str
    ctx = WinContext()
    rng = random.Random(5)
    for _ in range(300):
        tiles = [3, 4] + [rng.choice((0, 8, 9, 17, 18, 26)) for _ in range(11)]
        counts = [tiles.count(t) for t in range(34)]
        if max(counts) > 4:
            continue
        spellings = [tiles_to_str(sorted(tiles)), "".join(tiles_to_str([t]) for t in tiles),
                     " ".join(tiles_to_str([t]) for t in reversed(tiles))]
        try:
            want = score(tiles, 2, (), ctx)
        except NotWinningHand:
            for s in spellings:
                with pytest.raises(NotWinningHand):
                    score_hand(s, "3m")
            continue
        assert all(score_hand(s, "3m") == want for s in spellings)
    assert score_hand("1111222233334m", "4m").points == score(
        parse_tiles("1111222233334m"), parse_tile("4m"), (), ctx).points


# --------------------------------------------------------------------------- argument types


@pytest.mark.parametrize("hand", [12345, None, 1.5, b"123m", {1: 2}, {0, 1, 2}])
def test_a_hand_of_the_wrong_type_is_a_clear_type_error(hand) -> None:
    with pytest.raises(TypeError, match="hand must be mpsz text .* or a sequence of tile "
                                        f"indices 0–33, got {type(hand).__name__}"):
        score_hand(hand, "1m", seat_wind="S")


def test_numpy_integers_are_tiles_like_ints() -> None:
    import numpy as np

    expected = call().points
    tiles = parse_tiles(PINGHU)
    assert score_hand(PINGHU, np.int64(0), seat_wind="S").points == expected
    assert score_hand(np.array(tiles), np.int32(0), seat_wind="S").points == expected
    assert score_hand(tuple(np.int64(t) for t in tiles), 0, seat_wind="S").points == expected
    with pytest.raises(ValueError, match="not a tile index"):
        score_hand(PINGHU, np.int64(40), seat_wind="S")


@pytest.mark.parametrize("tile", [1.0, None, [0]])
def test_a_win_tile_of_the_wrong_type_is_a_clear_type_error(tile) -> None:
    with pytest.raises(TypeError, match=f"win_tile must be .* got {type(tile).__name__}"):
        score_hand(PINGHU, tile, seat_wind="S")


@pytest.mark.parametrize("flag", ["tsumo", "lingshang", "haidi", "hedi", "qianggang",
                                  "juezhang", "tianhu", "dihu", "renhu"])
@pytest.mark.parametrize("value", ["no", 1, 0, None, "False"])
def test_flags_must_be_bools(flag: str, value) -> None:
    with pytest.raises(TypeError, match=f"{flag} must be True or False, got {value!r}"):
        call(**{flag: value})


def test_numpy_bools_are_flags() -> None:
    import numpy as np

    assert call(tsumo=np.bool_(True)).points == call(tsumo=True).points
    assert call(tsumo=np.bool_(False)).points == call().points
