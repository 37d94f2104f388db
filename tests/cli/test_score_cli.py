"""``mjenv score``: reading, yaku, totals, payments, refusals and exit codes (issue 2 item 6)."""

import json

import pytest

from mjenv.cli import main
from mjenv.scoring import YAKU, score_hand
from mjenv.scoring.settle import settle_ron, settle_tsumo

EX1 = ["score", "123m456m789m123p5s", "--win", "5s", "--seat", "S", "--round", "E"]


def _run(capsys, argv):
    rc = main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_worked_example_1_reading_yaku_total(capsys):
    rc, out, _ = _run(capsys, EX1)
    assert rc == 0
    assert "shape: standard" in out
    assert "reading: 123m 456m 789m 123p  pair 55s*" in out
    assert "单吊" in out
    expected = score_hand("123m456m789m123p5s", "5s", seat_wind="S").yaku
    assert set(expected) == {"yitiaolong", "jingtong", "dutin", "menqing", "jiangyan"}
    for yid, pts in expected.items():
        line = next(ln for ln in out.splitlines() if ln.split() and ln.split()[0] == yid)
        assert YAKU[yid].name_zh in line and line.split()[-1] == str(pts)
    assert "total P = 16" in out
    assert "payments" not in out  # no --dealer given


def test_ron_payments_one_line_per_discarder(capsys):
    rc, out, _ = _run(capsys, EX1 + ["--dealer", "3", "--repeat", "1"])
    assert rc == 0
    winner = (3 + 1) % 4  # seat wind S sits one after the dealer
    lines = [ln for ln in out.splitlines() if "ron from seat" in ln]
    assert len(lines) == 3
    for d in (s for s in range(4) if s != winner):
        deltas = settle_ron({winner: 16}, d, 3, 1)
        cells = "  ".join(f"seat {s}: {v:+d}" for s, v in enumerate(deltas))
        assert any(f"ron from seat {d}" in ln and ln.endswith(cells) for ln in lines)
    # RULES.md §10 example 1, no dealer involved (winner 0, discarder 1): +48 / −36 / −6 / −6
    assert any(ln.startswith("  ron from seat 1") and
               ln.endswith("seat 0: +48  seat 1: -36  seat 2: -6  seat 3: -6") for ln in lines)


def test_worked_example_2_tsumo_payments(capsys):
    rc, out, _ = _run(capsys, ["score", "1122334455667p", "--win", "7p", "--seat", "S",
                               "--tsumo", "--dealer", "0"])
    assert rc == 0
    assert "shape: seven_pairs" in out and "total P = 64" in out
    assert "tsumo            seat 0: -65  seat 1: +193  seat 2: -64  seat 3: -64" in out
    assert settle_tsumo(1, 64, 0, 0) == (-65, 193, -64, -64)


def test_worked_example_3_below_min_points(capsys):
    argv = ["score", "567m345p8p", "--win", "8p", "--seat", "S", "--melds", "pon:777z,chi:234s"]
    rc, out, _ = _run(capsys, argv + ["--dealer", "0"])
    assert rc == 1
    assert "total P = 4" in out
    assert "below min_points 6" in out and "payments" not in out
    rc, out, _ = _run(capsys, argv + ["--min-points", "4"])
    assert rc == 0 and "below" not in out


def test_not_a_win_explains_why(capsys):
    rc, out, err = _run(capsys, ["score", "567m345p9p", "--win", "8p", "--seat", "S",
                                 "--melds", "pon:777z,chi:234s"])
    assert rc == 1 and out == ""
    assert "not a win" in err and "no winning shape" in err


@pytest.mark.parametrize("argv, bad", [
    (["score", "123m456m789m123p5s", "--win", "8z"], "8z"),
    (["score", "123m456m789m123x5s", "--win", "5s"], "hand"),
    (["score", "567m345p8p", "--win", "8p", "--melds", "pon:778z,chi:234s"], "--melds"),
    (["score", "123m456m789m123p5s", "--win", "5s", "--seat", "Q"], "--seat"),
    (["score", "123m456m789m123p5s", "--win", "5s", "--hedi", "--tsumo"], "hedi"),
    (["score", "123m456m789m123p5s", "--win", "5s", "--repeat", "2"], "--repeat needs --dealer"),
    (["score", "123m456m789m123p5s", "--win", "5s", "--dealer", "4"], "--dealer"),
    (["score", "123m456m789m123p", "--win", "5s"], "13"),
])
def test_bad_input_names_the_part_and_exits_2(capsys, argv, bad):
    rc, out, err = _run(capsys, argv)
    assert rc == 2
    assert "bad input" in err and bad in err


def test_missing_win_tile_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["score", "123m456m789m123p5s"])
    assert exc.value.code == 2
    assert "--win" in capsys.readouterr().err


def test_json_output(capsys):
    rc, out, _ = _run(capsys, EX1 + ["--json", "--dealer", "0"])
    assert rc == 0
    data = json.loads(out)
    r = score_hand("123m456m789m123p5s", "5s", seat_wind="S")
    assert data["points"] == r.points == 16
    assert data["yaku"] == r.yaku and data["shape"] == "standard" and data["legal"] is True
    assert data["reading"] == {"groups": ["123m", "456m", "789m", "123p"], "pair": "55s",
                               "placement": "dandiao", "win_group": None}
    assert data["payments"]["winner"] == 1
    assert data["payments"]["ron"]["0"] == list(settle_ron({1: 16}, 0, 0, 0))
    rc, out, _ = _run(capsys, ["score", "123m", "--win", "5s", "--json"])
    assert rc == 2 and json.loads(out)["error"] == "bad input"


def test_melds_and_placement_shown(capsys):
    rc, out, _ = _run(capsys, ["score", "23m456p789s55z", "--win", "1m", "--tsumo",
                               "--melds", "ankan:9999p", "--min-points", "0"])
    assert rc == 0
    assert "ankan:9999p" in out and "123m*" in out and "两面" in out
