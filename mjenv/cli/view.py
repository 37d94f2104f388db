"""``mjenv view LOG [-o page.html] [--seat N]``: a logged hand or match as one self-contained
HTML page to step through in a browser (``mjenv.viewer``).

The log is what ``mjenv replay`` reads (JSON lines or a JSON array of ``Hand.log`` /
``Match.log`` events), verified by the engine the same way first. The page goes to ``-o``
(default: the log's path with ``.html``). An existing file there is replaced only if ``mjenv
view`` wrote it; anything else is left alone and the command stops, unless ``--force``.
Exit status 2 when the log cannot be read or does not replay, or the page cannot be written
there; one line naming why.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", help="game log: JSON lines (Hand.log / Match.log) or a JSON array")
    parser.add_argument("-o", "--output", metavar="PAGE", default=None,
                        help="the HTML file to write (default: LOG with .html)")
    parser.add_argument("--seat", type=int, choices=range(4), default=None,
                        help="open the page as this seat saw the game (default: all hands "
                             "open; the page can switch)")
    parser.add_argument("--force", action="store_true",
                        help="replace PAGE even if it is not a page mjenv view wrote")


def _written_by_us(path: Path) -> bool:
    from mjenv.viewer import GENERATOR
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return GENERATOR in f.read(4096)
    except OSError:
        return False


def run(args: argparse.Namespace) -> int:
    from mjenv.game import ReplayError, read_log
    from mjenv.viewer import page

    log = Path(args.log)
    out = Path(args.output) if args.output else log.with_suffix(".html")
    if out.exists() and (out.resolve() == log.resolve() or out.is_dir()
                         or not (args.force or _written_by_us(out))):
        why = "is the log itself" if out.resolve() == log.resolve() else \
            "is a directory" if out.is_dir() else \
            "exists and is not a page mjenv view wrote (--force replaces it)"
        print(f"mjenv view: {out} {why}; choose another -o", file=sys.stderr)
        return 2
    try:
        events = read_log(str(log))
        text = page(events, title=log.name, seat=args.seat)
    except (OSError, ValueError) as exc:              # ReplayError is a ValueError
        kind = "does not replay" if isinstance(exc, ReplayError) else "cannot be read"
        print(f"mjenv view: {log} {kind}: {exc}", file=sys.stderr)
        return 2
    tmp = out.with_name(f".{out.name}.tmp{os.getpid()}")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, out)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        print(f"mjenv view: cannot write {out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    hands = sum(1 for ev in events if ev.get("type") == "deal")
    print(f"wrote {out}: {hands} hand(s), {len(events)} events; open it in a browser")
    return 0
