"""The viewer in a real browser: headless Chromium driven by Selenium as a reader would —
load the page, step forward and back with keys and buttons, jump hands, switch to one seat's
view, and at the end read the scores the page shows, which must be the log's.

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs both) and the
``selenium`` package (``[dev]``); without them the test is skipped, except in CI.
"""

from __future__ import annotations

import pytest

from mjenv.cli import main
from mjenv.tiles import TILE_NAMES
from mjenv.viewer import build
from tests.requirements import require_module, require_program
from tests.viewer.helpers import played_match, write_log

require_module("selenium", 'pip install -e ".[dev]"')
BROWSER = require_program("chromium", "chromium-browser", "google-chrome",
                          install="apt-get install chromium chromium-driver")
DRIVER = require_program("chromedriver", install="apt-get install chromium-driver")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402


@pytest.fixture(scope="module")
def browser():
    options = Options()
    options.binary_location = BROWSER
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """A match log written with the engine's log API, and its page from ``mjenv view``."""
    tmp = tmp_path_factory.mktemp("view")
    match = played_match(seed=3)
    log = write_log(match.log, tmp / "match.jsonl")
    assert main(["view", str(log), "-o", str(tmp / "match.html")]) == 0
    return tmp / "match.html", match, build(match.log)


def _pos(driver) -> str:
    return driver.find_element(By.ID, "pos").text


def _shown_scores(driver) -> list[int]:
    texts = [driver.find_element(By.CSS_SELECTOR, f"#seat{s} .score").text for s in range(4)]
    return [int(t.replace("\u2212", "-")) for t in texts]


def test_step_jump_and_final_scores_in_chromium(browser, page):
    path, match, data = page
    frames = [f for h in data["hands"] for f in h["frames"]]
    total = len(frames)
    browser.get(path.as_uri())
    body = browser.find_element(By.TAG_NAME, "body")
    assert _pos(browser) == f"event 1 / {total} · hand 1 / {len(match.hands)}"
    assert browser.find_element(By.ID, "event").text == frames[0]["text"]

    for _ in range(5):
        body.send_keys(Keys.ARROW_RIGHT)
    assert _pos(browser).startswith(f"event 6 / {total}")
    assert browser.find_element(By.ID, "event").text == frames[5]["text"]
    body.send_keys(Keys.ARROW_LEFT)
    body.send_keys(Keys.ARROW_LEFT)
    assert _pos(browser).startswith("event 4 /")
    browser.find_element(By.ID, "next").click()
    assert _pos(browser).startswith("event 5 /")
    browser.find_element(By.ID, "prev").click()
    assert _pos(browser).startswith("event 4 /")
    assert browser.find_element(By.ID, "wall").text.startswith("live wall ")

    body.send_keys(Keys.PAGE_DOWN)                           # the next hand's deal
    second = len(data["hands"][0]["frames"]) + 1
    assert _pos(browser) == f"event {second} / {total} · hand 2 / {len(match.hands)}"
    assert browser.find_element(By.ID, "event").text.startswith("hand 2:")
    browser.find_element(By.ID, "prevHand").click()
    assert _pos(browser).startswith("event 1 /")

    body.send_keys(Keys.END)                                 # the match's end
    assert _pos(browser).startswith(f"event {total} / {total}")
    assert _shown_scores(browser) == list(match.scores) == data["final_scores"]
    final = browser.find_element(By.ID, "final").text
    assert final.startswith("final scores:") and "ranking" in final
    browser.find_element(By.ID, "first").click()
    assert _pos(browser).startswith("event 1 /")
    assert _shown_scores(browser) == [0, 0, 0, 0]

    severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert severe == []


def test_a_seat_view_hides_the_other_hands(browser, page):
    path, _, data = page
    browser.get(path.as_uri())
    Select(browser.find_element(By.ID, "view")).select_by_value("0")
    own = [e.get_attribute("data-tile")
           for e in browser.find_elements(By.CSS_SELECTOR, "#seat0 .hand svg")]
    dealt = data["hands"][0]["frames"][0]["state"]["h0"]
    assert sorted(own) == sorted(TILE_NAMES[t] for t in dealt)
    for seat in (1, 2, 3):
        others = browser.find_elements(By.CSS_SELECTOR, f"#seat{seat} .hand svg")
        assert others and all(e.get_attribute("data-tile") == "" for e in others)
    # other seats' claim windows and answers are not among the steps of seat 0's view
    shown = int(_pos(browser).split(" / ")[1].split(" ")[0])
    hidden = sum(1 for h in data["hands"] for f in h["frames"]
                 if "seen" in f and 0 not in f["seen"])
    assert shown == sum(len(h["frames"]) for h in data["hands"]) - hidden > 0


def test_a_log_written_by_eval_opens_in_chromium(browser, tmp_path):
    """Issue 17: ``mjenv eval … --log DIR`` then ``mjenv view DIR/<log> -o x.html``."""
    from mjenv.game import read_log
    logs = tmp_path / "logs"
    assert main(["eval", "--agent", "heuristic", "--vs", "random", "--deals", "1",
                 "--no-progress", "--log", str(logs)]) == 0
    log = logs / "deal00000-seat2.jsonl"
    page = tmp_path / "x.html"
    assert main(["view", str(log), "-o", str(page)]) == 0
    events = read_log(str(log))
    browser.get(page.as_uri())
    body = browser.find_element(By.TAG_NAME, "body")
    assert _pos(browser).startswith("event 1 / ")
    body.send_keys(Keys.END)
    assert _shown_scores(browser) == events[-1]["scores"]
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_yaku_names_never_show_as_empty_boxes(browser, page):
    """The Chinese yaku names are shown where the browser has a CJK font (the page names a
    fallback list); without one they are hidden and the romanised names remain, with a note:
    no visible text needs a glyph the reader's fonts lack. (CI's Chromium has no CJK font,
    so there the fallback is what is checked.)"""
    import re

    path, match, data = page
    frames = [f for h in data["hands"] for f in h["frames"]]
    win = next(i for i, f in enumerate(frames) if f["kind"] == "win")
    browser.get(path.as_uri())
    browser.execute_script(f"for (let k = 0; k < {win}; k++) "
                           f"document.getElementById('next').click();")
    settle = browser.find_element(By.ID, "settle").text
    rows = frames[win]["settle"]["wins"][0]["yaku"]
    assert all(yid in settle for yid, *_ in rows)              # the romanised names
    family = browser.execute_script(
        "const s = document.createElement('span'); s.className = 'zh'; "
        "document.body.appendChild(s); return getComputedStyle(s).fontFamily;")
    assert "Noto Sans CJK SC" in family
    if "no-cjk" in browser.find_element(By.TAG_NAME, "body").get_attribute("class"):
        visible = browser.find_element(By.TAG_NAME, "body").text
        assert not re.search(r"[\u3400-\u9fff]", visible)
        assert "romanised names are shown" in settle
    else:
        assert all(zh in settle for _, zh, *_ in rows)
