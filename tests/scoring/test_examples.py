"""The worked examples of RULES.md §10 (seat South, round East, min_points 6)."""

from __future__ import annotations

from mjenv.rules import RuleConfig
from mjenv.scoring import WinContext, counted, holding_yaku, readings, score_hand
from mjenv.scoring.settle import settle_ron, settle_tsumo
from mjenv.tiles import parse_tile, parse_tiles

# Seat 1 is South when seat 0 deals; seats 2 and 3 are the other non-dealers.
WINNER, DEALER = 1, 0


def test_example_1_pure_straight_ron() -> None:
    r = score_hand("123m456m789m123p5s", "5s", seat_wind="S", round_wind="E")
    assert r.yaku == {"yitiaolong": 6, "jingtong": 6, "dutin": 2, "menqing": 1, "jiangyan": 1}
    assert r.points == 16
    assert r.shape == "standard"
    # 老少 (123m + 789m) holds but 一条龙 excludes it
    assert "laoshao" not in r.yaku
    assert settle_ron({WINNER: r.points}, discarder=2, dealer=DEALER, repeat=0) \
        == (-6, 48, -36, -6)


def test_example_2_seven_shifted_pairs_beat_the_standard_reading() -> None:
    r = score_hand("1122334455667p", "7p", tsumo=True, seat_wind="S", round_wind="E")
    assert r.shape == "seven_pairs"
    assert r.yaku == {"lian_qidui": 60, "buqiuren": 4}
    assert r.points == 64
    assert settle_tsumo(WINNER, r.points, dealer=DEALER, repeat=0) == (-65, 193, -64, -64)


def test_example_2_standard_reading_scores_36() -> None:
    """The rulebook's comparison: 11 234 234 567 567 alone is worth 36."""
    hand = parse_tiles("1122334455667p")
    ctx = WinContext(tsumo=True, seat_wind=1, round_wind=0)
    standard = [counted(holding_yaku(r)) for r in readings(hand, parse_tile("7p"), (), ctx)
                if r.shape == "standard"]
    assert max(sum(y.values()) for y in standard) == 36
    assert {"pinghu": 2, "buqiuren": 4, "qingyise": 20, "liang_bangao": 10} in standard


def test_example_3_below_min_points() -> None:
    r = score_hand("567m345p8p", "8p", melds="pon:777z,chi:234s", seat_wind="S", round_wind="E")
    assert r.yaku == {"sanyuanpai": 1, "dutin": 2, "jiangyan": 1}
    assert r.points == 4 < RuleConfig().min_points


def test_example_4_dealer_bonus_on_the_dealers_discard() -> None:
    # n = 1, so D = 2: P' = 10, the winner gets 30, the dealer pays 18, bystanders 6 each.
    assert settle_ron({WINNER: 8}, discarder=DEALER, dealer=DEALER, repeat=1) == (-18, 30, -6, -6)
