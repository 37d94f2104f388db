"""``mjenv view``: one self-contained page per log; one line and a non-zero exit otherwise; no
file it did not write is replaced without --force."""

from __future__ import annotations

import json
import re

from mjenv.cli import main
from mjenv.viewer import GENERATOR
from tests.viewer.helpers import played_hand, played_match, write_log


def test_writes_one_self_contained_page(tmp_path, capsys):
    log = write_log(played_match(seed=3).log, tmp_path / "match.jsonl")
    assert main(["view", str(log)]) == 0
    page = tmp_path / "match.html"                          # default: beside the log
    said = capsys.readouterr().out
    assert f"wrote {page}" in said
    text = page.read_text(encoding="utf-8")
    assert GENERATOR in text and len(re.findall(r'<symbol id="t\d+"', text)) == 34
    # nothing is fetched: no external scripts, styles, images or fonts
    assert not re.search(r"<(script|link|img|iframe)[^>]*\b(src|href)=", text)
    assert "@import" not in text and "url(" not in text
    assert re.findall(r"https?://[^\s\"'<)]+", text) == ["http://www.w3.org/2000/svg"]
    data = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>',
                                text, re.S).group(1))
    assert data["match"] and len(data["hands"]) >= 4
    steps = sum(len(h["frames"]) for h in data["hands"])     # what the page counts, open view
    assert f"{len(data['hands'])} hand(s), {steps} events" in said
    assert main(["replay", "--verify-only", str(log)]) == 0
    assert f"{len(data['hands'])} hand(s), {steps} events" in capsys.readouterr().out


def test_json_array_logs_seat_option_and_output_path(tmp_path):
    hand = played_hand(seed=11)
    log = tmp_path / "hand.json"
    log.write_text(json.dumps(hand.log), encoding="utf-8")
    out = tmp_path / "sub" / "page.html"
    out.parent.mkdir()
    assert main(["view", str(log), "-o", str(out), "--seat", "2"]) == 0
    assert '"view":2' in out.read_text(encoding="utf-8")


def test_pages_it_did_not_write_are_kept(tmp_path, capsys):
    log = write_log(played_hand(seed=11).log, tmp_path / "hand.jsonl")
    mine = tmp_path / "notes.html"
    mine.write_text("<p>my notes</p>", encoding="utf-8")
    assert main(["view", str(log), "-o", str(mine)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a page mjenv view wrote" in err
    assert mine.read_text(encoding="utf-8") == "<p>my notes</p>"
    assert main(["view", str(log), "-o", str(log)]) == 2          # never the log itself
    assert "is the log itself" in capsys.readouterr().err
    assert main(["view", str(log), "-o", str(mine), "--force"]) == 0
    assert main(["view", str(log), "-o", str(mine)]) == 0         # its own page: replaced


def test_bad_logs_are_one_line(tmp_path, capsys):
    hand = played_hand(seed=11)
    bad = [dict(ev) for ev in hand.log]
    bad[-1] = {**bad[-1], "scores": [9, 9, 9, 9]}
    cases = {"missing.jsonl": None, "tampered.jsonl": bad, "notjson.jsonl": "oops"}
    for name, content in cases.items():
        path = tmp_path / name
        if isinstance(content, list):
            write_log(content, path)
        elif content is not None:
            path.write_text(content, encoding="utf-8")
        assert main(["view", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("mjenv view: ")
        assert ("does not replay" if name == "tampered.jsonl" else "cannot be read") in err
        assert not (tmp_path / name).with_suffix(".html").exists()
