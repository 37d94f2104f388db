"""The exclusion audit (RULES.md §9), its report, and the generated yaku table of docs/rules.md."""

import dataclasses
from pathlib import Path

import pytest

from mjenv.cli import main
from mjenv.scoring import YAKU, WinContext
from mjenv.scoring import audit as audit_mod
from mjenv.scoring.audit import (RULES_TABLE_BEGIN, RULES_TABLE_END, audit_hands, candidates,
                                 exclusion_rows, render_report, rules_table, run_audit)
from mjenv.scoring.generate import GeneratedHand
from mjenv.tiles import parse_tile, parse_tiles
from tests.scale import n

ROOT = Path(__file__).resolve().parents[2]
N_AUDIT = n(400, 5000)


@pytest.fixture(scope="module")
def stats():
    return run_audit(N_AUDIT, seed=3)


def _hand(hand: str, win: str, tsumo: bool = False) -> GeneratedHand:
    """A concealed hand, seat South, round East."""
    return GeneratedHand(tuple(sorted(parse_tiles(hand))), parse_tile(win), (),
                         WinContext(tsumo, 1, 0))


def test_exclusion_counts_are_consistent(stats):
    rows = exclusion_rows(stats)
    assert len(rows) == sum(len(y.excludes) for y in YAKU.values())
    for r in rows:
        assert r.with_a == stats.hold[r.a]
        assert r.a_without_b + stats.co[r.a, r.b] == stats.hold[r.a], (r.a, r.b)
        assert r.a_without_b == sum(r.by_shape.values())
        assert 0 <= r.unexpected <= r.a_without_b
    assert stats.hands == N_AUDIT
    assert stats.readings >= stats.hands
    assert sum(stats.shapes.values()) == stats.hands
    for a in YAKU:  # holding is per reading, counted per hand
        assert stats.counted[a] <= stats.hold[a]


def test_shape_bound_exclusion_is_reported_where_shapes_differ():
    """字一色 → 对对胡: a seven-pairs 字一色 holds without 对对胡 (expected, not flagged)."""
    st = audit_hands([_hand("1122334455667z", "7z")])
    row = next(r for r in exclusion_rows(st) if (r.a, r.b) == ("ziyise", "duiduihu"))
    assert row.a_without_b == 1 and row.by_shape == {"seven_pairs": 1} and row.unexpected == 0


def test_candidate_found_when_an_exclusion_is_missing(monkeypatch):
    """Remove 两般高 → 一般高 from the table: the audit must propose it again."""
    hands = [_hand("112233m445566p9s", "9s"), _hand("223344s667788m1z", "1z", tsumo=True)]
    pair = ("liang_bangao", "yibangao")
    assert pair not in {(c.a, c.b) for c in candidates(audit_hands(hands))}
    patched = dict(YAKU)
    patched["liang_bangao"] = dataclasses.replace(YAKU["liang_bangao"], excludes=frozenset())
    monkeypatch.setattr(audit_mod, "YAKU", patched)
    found = {(c.a, c.b): c for c in candidates(audit_hands(hands))}
    assert pair in found and found[pair].with_a == 2 and not found[pair].covered_by


def test_report_structure(stats):
    text = render_report(stats, "mjenv audit --hands 400 --seed 3", 3)
    for heading in ("# Exclusion audit", "## (b) Candidates", "## (a) Listed exclusions",
                    "## Counts per yaku"):
        assert heading in text
    assert "mjenv audit --hands 400 --seed 3" in text
    assert f"{stats.hands:,} generated winning hands" in text
    for y in YAKU.values():
        assert f"| {y.id} | {y.name_zh} | {y.points} |" in text


def test_workers_do_not_change_the_result():
    one = run_audit(120, seed=8)
    two = run_audit(120, seed=8, workers=2)
    assert (one.hold, one.co, one.a_not_b, one.counted) == (two.hold, two.co, two.a_not_b,
                                                            two.counted)


def test_cli_writes_the_report(tmp_path, capsys):
    out = tmp_path / "exclusions.md"
    rc = main(["audit", "--hands", "150", "--seed", "2", "--out", str(out)])
    printed = capsys.readouterr().out
    assert out.read_text(encoding="utf-8").startswith("# Exclusion audit")
    assert "(b) candidates for a missing exclusion" in printed
    assert rc == 1 and "reached fewer than 30" in printed  # 150 hands cannot reach every yaku


def test_cli_writes_docs_only_when_asked_and_says_why_it_fails(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    mine = tmp_path / "docs" / "exclusions.md"
    mine.write_text("my notes\n", encoding="utf-8")
    assert main(["audit", "--hands", "150", "--seed", "2"]) == 1
    captured = capsys.readouterr()
    assert mine.read_text(encoding="utf-8") == "my notes\n"            # untouched
    assert "report not written (--write updates docs/exclusions.md" in captured.out
    last = captured.err.strip().splitlines()
    assert len(last) == 1 and last[0].startswith("mjenv audit: exit status 1: the audit is "
                                                 "incomplete") and "raise --hands" in last[0]
    assert main(["audit", "--hands", "150", "--seed", "2", "--write"]) == 1
    text = mine.read_text(encoding="utf-8")
    assert text.startswith("# Exclusion audit")
    assert "mjenv audit --hands 150 --seed 2 --write" in text
    with pytest.raises(SystemExit) as exc:          # argparse: one or the other
        main(["audit", "--write", "--out", "x.md"])
    assert exc.value.code == 2


def test_committed_rules_table_matches_the_registry():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    start = text.index(RULES_TABLE_BEGIN)
    end = text.index(RULES_TABLE_END) + len(RULES_TABLE_END)
    assert text[start:end] == rules_table(), \
        "docs/rules.md is stale: paste `python -m mjenv.scoring.audit --rules-table`"
    for y in YAKU.values():
        assert f"| {y.id} | {y.name_zh} |" in text


def test_committed_exclusion_report_covers_the_current_table():
    """docs/exclusions.md lists exactly the registry's exclusions (rerun `mjenv audit --write`
    if not)."""
    text = (ROOT / "docs" / "exclusions.md").read_text(encoding="utf-8")
    section = text[text.index("## (a)"):text.index("## Counts per yaku")]
    rows = {tuple(cell.split()[0] for cell in line.split("|")[1:3])
            for line in section.splitlines() if line.startswith("| ") and "readings" not in line}
    assert rows == {(a, b) for a, y in YAKU.items() for b in y.excludes}
    assert "mjenv audit --hands 100000 --seed 0 --write" in text
