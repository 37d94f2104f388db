"""Tricky readings (RULES.md §6–§7): shapes compete, melds split several ways, the winning
tile's placement decides the wait yaku and 暗刻."""

from __future__ import annotations

from mjenv.scoring import score_hand


def score(hand: str, win: str, melds: str = "", **opts):
    return score_hand(hand, win, melds, **{"seat_wind": "S", "round_wind": "E", **opts})


# --- seven pairs against the standard shape -------------------------------------------------

def test_seven_pairs_wins_when_worth_more() -> None:
    r = score("1122334455667p", "7p", tsumo=True)
    assert (r.shape, r.points) == ("seven_pairs", 64)


def test_standard_wins_when_worth_more() -> None:
    # 11 22 33 m 44 55 66 p 77 s is seven pairs (10), but 123 123 456 456 + 77: 两般高 10 +
    # 门清 1 + 独听 2 = 13.
    r = score("112233m445566p7s", "7s")
    assert (r.shape, r.points) == ("standard", 13)
    assert r.yaku == {"menqing": 1, "dutin": 2, "liang_bangao": 10}


# --- 111222333: pungs or chows --------------------------------------------------------------

def test_111222333_read_as_pungs() -> None:
    # pungs: 三连刻 10 + 三暗刻 10 beat 太般高 10 of 123 123 123
    r = score("111222333m123p5s", "5s")
    assert [g.kind for g in r.groups[:3]] == ["pung", "pung", "pung"]
    assert {"sanlianke", "san_anke"} <= r.yaku.keys() and "tai_bangao" not in r.yaku
    assert r.points == 24


def test_111222333_read_as_chows() -> None:
    # chows 123 ×3 + chi 123 = 四海一家 40; the pungs reading (十二归三 30, the 333 completed
    # by ron is no 暗刻) is worth less.
    r = score("11122233m99p", "3m", "chi:123m")
    assert all(g.kind == "chow" for g in r.groups)
    assert "sihai_yijia" in r.yaku and r.points == 48


# --- waits ---------------------------------------------------------------------------------

def test_dutin_single_wait_edge() -> None:
    r = score("12m456p234789s55p", "3m")
    assert r.placement == "bianzhang"
    assert "dutin" in r.yaku and "jiadu" not in r.yaku and "pinghu" not in r.yaku


def test_jiadu_pair_wait_with_two_waits() -> None:
    r = score("1234m456p234789s", "4m")     # waits 1m and 4m
    assert r.placement == "dandiao"
    assert "jiadu" in r.yaku and "dutin" not in r.yaku


def test_jiadu_closed_wait_with_two_waits() -> None:
    r = score("1113m456p234789s", "2m")     # 2m (11 + 123) and 3m (111 + 33)
    assert r.placement == "kanzhang"
    assert "jiadu" in r.yaku and "dutin" not in r.yaku


def test_duipeng_dual_pung() -> None:
    r = score("11m22p345678999s", "1m")
    assert r.placement == "shuangpeng"
    assert "duipeng" in r.yaku and not {"dutin", "jiadu", "pinghu"} & r.yaku.keys()


def test_pinghu_two_sided() -> None:
    r = score("23m456p234789s55p", "1m")
    assert r.placement == "liangmian"
    assert "pinghu" in r.yaku and not {"dutin", "jiadu"} & r.yaku.keys()


def test_pinghu_needs_a_guest_pair() -> None:
    assert "pinghu" in score("23m456p234789s33z", "1m").yaku           # West: guest
    assert "pinghu" not in score("23m456p234789s11z", "1m").yaku       # East: round wind
    assert "pinghu" not in score("23m456p234789s55z", "1m").yaku       # a dragon


def test_best_placement_is_chosen() -> None:
    # The ron tile 1m completes 111m (not a 暗刻 then) or the chow 123m (two-sided): the chow
    # placement keeps three concealed pungs.
    r = score("11123m222p333s55s", "1m")
    assert r.placement == "liangmian"
    assert "san_anke" in r.yaku


def test_ron_pung_is_not_concealed_but_tsumo_is() -> None:
    assert "san_anke" not in score("111456m222p33s55s", "3s").yaku
    assert "san_anke" in score("111456m222p33s55s", "3s", tsumo=True).yaku


def test_seat_and_round_wind_both_count() -> None:
    r = score("123m456p789s111z5p", "5p", seat_wind="E", round_wind="E")
    assert r.yaku["menfeng"] == 1 and r.yaku["quanfeng"] == 1


def test_tianhu_keeps_wait_yaku() -> None:
    r = score("12m456p234789s55p", "3m", tsumo=True, tianhu=True, seat_wind="E")
    assert {"tianhu", "dutin"} <= r.yaku.keys()
    assert not {"zimo", "buqiuren", "menqing"} & r.yaku.keys()
