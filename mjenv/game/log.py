"""Event logs and replay.

Every hand records JSON-serialisable events (dicts): ``deal`` (rules, seed, dealer, winds,
repeat, scores and the full wall), ``draw``, ``decide`` (every decision of every seat, passes
included, ``declined_win`` when the seat passed a legal win), ``claim_window`` /
``rob_window`` (who was asked), ``call``, ``kan``, ``win`` (yaku, points, payments) or
``exhaustive_draw``, and ``end`` (deltas, scores). A match log adds a ``match`` header and a
``match_end`` event. Only the ``deal`` and ``decide`` events drive the engine; the rest are
what the engine must reproduce, so :func:`replay` re-runs the decisions and checks every
event, raising :class:`ReplayError` at the first one that disagrees.

:class:`LogFolder` is where the commands' ``--log DIR`` writes: one JSON-lines file per log,
named by the command, never over a file it did not write itself.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import IO, Iterable

from mjenv.game.actions import Action
from mjenv.game.hand import Hand, IllegalActionError
from mjenv.game.match import Match
from mjenv.rules import RuleConfig


class ReplayError(ValueError):
    """A log the engine does not reproduce; the message names the first bad event."""


def _compare(mine: list[dict], events: list[dict], start: int, base: int) -> None:
    for k in range(start, len(mine)):
        if k >= len(events):
            raise ReplayError(f"the log ends after event {base + len(events) - 1}, but the engine "
                              f"continues with {mine[k]}")
        if mine[k] != events[k]:
            raise ReplayError(f"event {base + k} disagrees: the log has {events[k]}, the engine "
                              f"produced {mine[k]}")


def _drive(hand: Hand, events: list[dict], base: int) -> None:
    """Apply the ``decide`` events of one hand's slice ``events`` and verify the rest."""
    _compare(hand.log, events, 0, base)
    while len(hand.log) < len(events):
        i = len(hand.log)
        ev = events[i]
        if not isinstance(ev, dict) or ev.get("type") != "decide":
            raise ReplayError(f"event {base + i} disagrees: the log has {ev}, but the engine "
                              f"waits for a decision of seat(s) {list(hand.to_act)}")
        try:
            seat, action = ev["seat"], Action.parse(ev["action"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ReplayError(f"event {base + i} is not a valid decision: {ev} ({exc})") from None
        try:
            hand.step(seat, action)
        except IllegalActionError as exc:
            raise ReplayError(f"event {base + i}: {exc}") from None
        _compare(hand.log, events, i, base)


def _hand_from_deal(ev: object, index: int) -> Hand:
    if not isinstance(ev, dict) or ev.get("type") != "deal":
        raise ReplayError(f"event {index} should be a deal, the log has {ev}")
    try:
        kw = dict(dealer=ev["dealer"], round_wind=ev["round_wind"], repeat=ev["repeat"],
                  scores=ev["scores"])
        rules = RuleConfig.from_dict(ev["rules"])
        if ev.get("seed") is not None:
            return Hand(rules, seed=ev["seed"], **kw)
        return Hand(rules, wall=ev["wall"], **kw)
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayError(f"event {index} (deal) cannot start a hand: {exc}") from None


def _split_hands(events: list[dict], start: int) -> list[tuple[int, int]]:
    """(begin, end) index ranges of the hands, each starting at a ``deal`` event."""
    starts = [i for i in range(start, len(events))
              if isinstance(events[i], dict) and events[i].get("type") == "deal"]
    if not starts or starts[0] != start:
        raise ReplayError(f"event {start} should be a deal, the log has "
                          f"{events[start] if start < len(events) else 'nothing'}")
    ends = starts[1:] + [len(events)]
    return list(zip(starts, ends))


def replay(log: Iterable[dict], *, require_hand_end: bool = False) -> Hand | Match:
    """Re-run a hand log (from ``Hand.log``) or a match log (from ``Match.log``) through the
    engine, verifying every event; returns the replayed :class:`Hand` or :class:`Match`.

    Accepts the events as produced or after a JSON round trip. A log may stop after any
    decision (a game in progress) unless ``require_hand_end``: then a log whose last hand has
    not ended — a file cut in the middle of a hand — raises :class:`ReplayError`. A match log
    may still stop between hands (a session that played only some of its hands).
    """
    events = list(log)
    if not events:
        raise ReplayError("the log is empty")
    first = events[0]
    if isinstance(first, dict) and first.get("type") == "match":
        result: Hand | Match = _replay_match(events)
        hand = result.hand
    else:
        result = hand = _hand_from_deal(first, 0)
        _drive(hand, events, 0)
    if require_hand_end and not hand.over:
        raise ReplayError(f"the log stops in the middle of a hand, after event "
                          f"{len(events) - 1} ({events[-1].get('type')}): it was cut short "
                          f"(seat(s) {', '.join(map(str, hand.to_act))} still to act)")
    return result


def read_log(path: str) -> list[dict]:
    """The events of a log file: JSON lines (``dump_log``) or one JSON array of events.
    ``OSError`` if it cannot be opened, ``ValueError`` naming the problem if it is not a log."""
    with open(path, encoding="utf-8") as fp:
        text = fp.read()
    if text.lstrip().startswith("["):
        try:
            events = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"not a JSON array of events: {exc}") from None
    else:
        events = load_log(io.StringIO(text))
    if not isinstance(events, list) or not all(isinstance(ev, dict) for ev in events):
        raise ValueError("a log is JSON lines of event objects or one JSON array of them")
    return events


def _replay_match(events: list[dict]) -> Match:
    header = events[0]
    try:
        rules = RuleConfig.from_dict(header["rules"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayError(f"event 0 (match) is not a valid header: {exc}") from None
    last = events[-1]
    tail = 1 if isinstance(last, dict) and last.get("type") == "match_end" else 0
    ranges = _split_hands(events[:len(events) - tail], 1)
    if header.get("seed") is not None:
        match = Match(rules, seed=header["seed"])
    else:
        match = Match(rules, walls=[events[b].get("wall") for b, _ in ranges])
    if match.log[0] != header:
        raise ReplayError(f"event 0 disagrees: the log has {header}, the engine produced "
                          f"{match.log[0]}")
    for k, (b, e) in enumerate(ranges):
        if k:
            if not match.hand.over or match.over:
                raise ReplayError(f"event {b}: the log deals another hand, but the "
                                  f"{'hand' if not match.hand.over else 'match'} is not over")
            match.next_hand()
        _drive(match.hand, events[b:e], b)
    mine = match.log
    if len(mine) != len(events) or mine[-1] != events[-1]:
        raise ReplayError(f"the log ends with {events[-1]}, the engine with {mine[-1]}")
    return match


# Own-turn decisions are seen by everyone (a discard, a declared kan or tsumo); claim answers
# are not (RULES.md §3): a pass or a losing claim leaves no trace, a winning one shows as the
# ``call`` or ``win`` that follows.
_PUBLIC_DECISIONS = ("discard", "ankan", "kakan", "tsumo")


def public_events(events: Iterable[dict], seat: int) -> list[dict]:
    """The events of a log as ``seat`` may know them, in order: the ``deal`` without its
    ``seed`` and ``wall``, other seats' ``draw`` with ``tile`` null, every seat's own-turn
    decisions but only the seat's own claim answers, no ``claim_window``/``rob_window`` (who
    may claim is private) and no other seat's ``declined_win``; calls, kans, wins, draws and
    ends as they are. What an external program is told (docs/protocol.md)."""
    out = []
    for ev in events:
        kind = ev.get("type")
        if kind == "deal":
            ev = {k: v for k, v in ev.items() if k not in ("seed", "wall")}
        elif kind == "draw" and ev["seat"] != seat:
            ev = {**ev, "tile": None}
        elif kind == "decide" and ev["seat"] != seat:
            if ev["action"].split()[0] not in _PUBLIC_DECISIONS:
                continue
            ev = {k: v for k, v in ev.items() if k != "declined_win"}
        elif kind in ("claim_window", "rob_window"):
            continue
        out.append(ev)
    return out


def dump_log(events: Iterable[dict], fp: IO[str]) -> None:
    """Write events as JSON lines."""
    for ev in events:
        fp.write(json.dumps(ev, ensure_ascii=False, separators=(",", ":")) + "\n")


def load_log(fp: IO[str]) -> list[dict]:
    """Read JSON-lines events (blank lines skipped)."""
    events = []
    for n, line in enumerate(fp, 1):
        if line.strip():
            try:
                events.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise ValueError(f"log line {n} is not JSON: {exc}") from None
    return events


class LogFolder:
    """A folder of game logs, one JSON-lines file per hand or per match (``--log DIR``).

    ``save(name, events)`` writes ``DIR/name.jsonl``; a name already taken by a file this
    object did not write gets ``name-2.jsonl``, ``name-3.jsonl`` … instead, so nothing in the
    folder is ever overwritten, and a log written again under the same name (a match growing
    hand by hand) replaces its own file. Each write is whole: a temporary file renamed into
    place, so a reader (or a run killed mid-write) never sees half a log. The folder is made,
    parents included, when the object is; ``OSError`` if that is impossible (a file is in the
    way, no permission), before any game is played.
    """

    def __init__(self, directory: str | os.PathLike) -> None:
        self.directory = Path(directory)
        if self.directory.exists() and not self.directory.is_dir():
            raise NotADirectoryError(20, "not a folder", str(self.directory))
        self.directory.mkdir(parents=True, exist_ok=True)
        self._paths: dict[str, Path] = {}

    def save(self, name: str, events: Iterable[dict]) -> Path:
        """Write ``events`` as the log ``name`` (see the class docstring); returns its path."""
        path = self._paths.get(name) or self._claim(name)
        tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
        try:
            with open(tmp, "w", encoding="utf-8") as fp:
                dump_log(events, fp)
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
        return path

    def _claim(self, name: str) -> Path:
        """A file name no one holds, created empty at once (two writers never share one)."""
        if not name or "/" in name or os.sep in name or name.startswith("."):
            raise ValueError(f"log name {name!r}: a plain file name is needed")
        for k in range(1, 10_000):
            path = self.directory / (f"{name}.jsonl" if k == 1 else f"{name}-{k}.jsonl")
            try:
                with open(path, "x", encoding="utf-8"):
                    pass
            except FileExistsError:
                continue
            self._paths[name] = path
            return path
        raise FileExistsError(17, "no free log name", str(self.directory / name))
