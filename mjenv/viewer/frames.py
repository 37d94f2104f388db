"""A verified game log as frames: the table after every event, for the replay viewer.

The engine produces the states: each hand of the log is dealt again from its ``deal`` event
and driven by its ``decide`` events, and every event the engine appends to ``hand.log`` is
recorded together with the table at that moment (``_Recorder``). A ``decide`` event is logged
before its action takes effect, so its frame shows the decision about to be made (the tile
about to be discarded is marked) and the next frame its outcome. Nothing about the rules is
written here a second time: tiles, melds, rivers and the wall come from the engine's own
read-only state, and the texts only name what the events say.

Every event of the log is a frame, a match's header (``match``, before its first deal) too,
so the page steps through as many events as ``mjenv view`` and ``mjenv replay`` count.

A frame is ``{"text", "kind", "seats", "state"}`` plus, where they apply, ``"private"`` and
``"public"`` (the seats that see all of the event, and the text for the others: a draw),
``"seen"``
(the only seats that see the event at all: claim windows and claim answers, which nobody else
learns), ``"pick"`` (the tile a discard or kan decision takes from the hand) and ``"settle"``
(the yaku breakdown and payments, on ``win``/``exhaustive_draw``/``end``/``match_end``).
``state`` holds only what changed since the previous frame of the hand (keys ``h0``–``h3``
concealed tiles, ``d`` the drawn tile per seat, ``m0``–``m3`` melds, ``p0``–``p3`` rivers,
``wall``, ``scores``, ``furiten``); the page carries it forward.
"""

from __future__ import annotations

from typing import Any, Callable

from mjenv.env.render import WIND_NAMES
from mjenv.game import Action, Hand, Match, ReplayError, replay
from mjenv.rules import RuleConfig
from mjenv.scoring.yaku import YAKU
from mjenv.tiles import TILE_NAMES


class _Recorder(list):
    """``hand.log`` that also records the table each time the engine appends an event."""

    def __init__(self, events: list[dict], on_event: Callable[[dict], None]) -> None:
        super().__init__(events)
        self._on_event = on_event

    def append(self, event: dict) -> None:
        super().append(event)
        self._on_event(event)


def _state(hand: Hand) -> dict[str, Any]:
    """The whole table, as plain JSON data (per-seat keys, so unchanged seats diff away)."""
    state: dict[str, Any] = {"wall": hand.live_wall_left, "scores": list(hand.scores_after),
                             "furiten": [hand.furiten(s) for s in range(4)]}
    drawn = [None] * 4
    if hand.result is None and hand.phase == "turn":
        seat = hand.view(0).target_from          # whose turn it is (public)
        tile = hand.view(seat).target_tile       # None after a call; gone after a kan of it
        drawn[seat] = tile if tile in hand.concealed(seat) else None
    state["d"] = drawn
    for s in range(4):
        state[f"h{s}"] = list(hand.concealed(s))
        state[f"m{s}"] = [{"kind": m.kind, "tiles": list(m.tiles), "called": m.called,
                           "from": m.from_seat} for m in hand.melds(s)]
        state[f"p{s}"] = [[p.tile, int(p.tsumogiri), int(p.called)] for p in hand.pond(s)]
    return state


def _diff(state: dict[str, Any], last: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if last.get(k) != v}


def _seats(seats: list[int]) -> str:
    return f"seat{'s' if len(seats) > 1 else ''} {', '.join(map(str, seats))}"


def _decide_text(ev: dict, hand: Hand) -> tuple[str, int | None]:
    """(text, tile taken from the hand) of a decision, read from the action it names."""
    seat, action = ev["seat"], Action.parse(ev["action"])
    declined = " (declining a win)" if ev.get("declined_win") else ""
    tile = TILE_NAMES[action.tile] if action.tile is not None else ""
    texts = {
        "discard": f"seat {seat} discards {tile}",
        "ankan": f"seat {seat} declares a concealed kan of {tile}",
        "kakan": f"seat {seat} adds {tile} to its pon",
        "tsumo": f"seat {seat} declares tsumo",
        "ron": f"seat {seat} declares ron",
        "chi": f"seat {seat} answers chi {ev['action'].split()[-1]}",
        "pon": f"seat {seat} answers pon",
        "minkan": f"seat {seat} answers open kan",
        "pass": f"seat {seat} passes",
    }
    pick = action.tile if action.kind in ("discard", "ankan", "kakan") else None
    return texts[action.kind] + declined, pick


def _yaku_rows(yaku: dict[str, int]) -> list[list[Any]]:
    rows = []
    for yid, points in yaku.items():
        y = YAKU.get(yid)
        rows.append([yid, y.name_zh if y else "", y.name_en if y else yid, points])
    return rows


def _frame(ev: dict, hand: Hand, number: int) -> dict[str, Any]:
    """Text and extras of one event (its state is added by the caller)."""
    kind = ev.get("type")
    frame: dict[str, Any] = {"kind": kind, "seats": []}
    if kind == "deal":
        frame["text"] = (f"hand {number}: {WIND_NAMES[ev['round_wind']]} round, dealer seat "
                         f"{ev['dealer']}, repeat {ev['repeat']} (dealer bonus "
                         f"D = {1 + ev['repeat']})")
        frame["seats"] = [ev["dealer"]]
    elif kind == "draw":
        seat = ev["seat"]
        what = "a replacement tile" if ev["dead"] else ""
        frame["text"] = f"seat {seat} draws {what + ' ' if what else ''}{ev['tile']}"
        frame["public"] = f"seat {seat} draws {what or 'a tile'}"
        frame["private"] = [seat]
        frame["seats"] = [seat]
    elif kind == "decide":
        frame["text"], pick = _decide_text(ev, hand)
        frame["seats"] = [ev["seat"]]
        if pick is not None:
            frame["pick"] = [ev["seat"], pick]
        if hand.phase != "turn":            # a claim answer: nobody else learns it
            frame["seen"] = [ev["seat"]]
    elif kind in ("claim_window", "rob_window"):
        what = "discard" if kind == "claim_window" else "added kan"
        frame["text"] = (f"{_seats(ev['asked'])} may claim seat {ev['from']}'s {what} "
                         f"{ev['tile']}")
        frame["seen"] = frame["seats"] = list(ev["asked"])
    elif kind in ("call", "kan"):
        seat = ev["seat"]
        meld = ev["meld"]
        source = f" from seat {ev['from']}" if "from" in ev else ""
        frame["text"] = f"seat {seat} {'calls' if kind == 'call' else 'declares'} {meld}{source}"
        frame["seats"] = [seat]
    elif kind == "win":
        winners = [w["seat"] for w in ev["wins"]]
        source = "" if ev["kind"] == "tsumo" else \
            f" on seat {ev['discarder']}'s {'added kan' if ev['robbed'] else 'discard'}"
        frame["text"] = f"{ev['kind']}: {_seats(winners)} win{'s' if len(winners) == 1 else ''}" \
                        f" with {ev['tile']}{source}"
        frame["seats"] = winners
        frame["settle"] = {"kind": ev["kind"], "tile": ev["tile"], "discarder": ev["discarder"],
                           "wins": [{"seat": w["seat"], "points": w["points"],
                                     "shape": w["shape"], "yaku": _yaku_rows(w["yaku"])}
                                    for w in ev["wins"]],
                           "deltas": ev["deltas"], "bonus": 1 + hand.repeat,
                           "dealer": hand.dealer}
    elif kind == "exhaustive_draw":
        frame["text"] = "exhaustive draw (liuju): the live wall is empty"
        frame["settle"] = {"kind": "draw", "wins": [], "deltas": [0, 0, 0, 0]}
    elif kind == "end":
        frame["text"] = ("hand over · payments " + " ".join(f"{d:+d}" for d in ev["deltas"])
                         + " · scores " + " ".join(f"{s:+d}" for s in ev["scores"]))
        frame["settle"] = {"deltas": ev["deltas"], "scores": ev["scores"]}
    else:
        frame["text"] = f"{kind}"
    return frame


def _hand_frames(rules: RuleConfig, events: list[dict], number: int) -> list[dict[str, Any]]:
    """Frames of one hand's slice of a verified log."""
    deal = events[0]
    hand = Hand(rules, wall=deal["wall"], dealer=deal["dealer"], round_wind=deal["round_wind"],
                repeat=deal["repeat"], scores=tuple(deal["scores"]))
    frames: list[dict[str, Any]] = []
    last: dict[str, Any] = {}

    def record(ev: dict) -> None:
        nonlocal last
        frame = _frame(ev, hand, number)
        state = _state(hand)
        frame["state"] = _diff(state, last)
        last = state
        frames.append(frame)

    for ev in hand.log:                     # the deal and the dealer's first draw
        record(ev)
    hand.log = _Recorder(hand.log, record)
    for ev in events[len(frames):]:
        if ev.get("type") == "decide":
            hand.step(ev["seat"], Action.parse(ev["action"]))
    if len(frames) != len(events):         # the engine logged other than the verified log
        raise ReplayError(f"hand {number}: {len(frames)} events recorded, the log has "
                          f"{len(events)}")
    return frames


def build(events: list[dict], *, title: str = "") -> dict[str, Any]:
    """The viewer's data for a hand or match log: every event verified by the engine
    (``mjenv.game.replay``, a ``ReplayError`` at the first that disagrees), then framed."""
    result = replay(events)
    is_match = isinstance(result, Match)
    first = 1 if is_match else 0
    tail = 1 if is_match and events[-1].get("type") == "match_end" else 0
    starts = [i for i in range(first, len(events) - tail) if events[i].get("type") == "deal"]
    rules = result.rules
    hands = []
    for number, (b, e) in enumerate(zip(starts, starts[1:] + [len(events) - tail]), 1):
        deal = events[b]
        hands.append({"number": number, "dealer": deal["dealer"],
                      "round": WIND_NAMES[deal["round_wind"]], "repeat": deal["repeat"],
                      "frames": _hand_frames(rules, events[b:e], number)})
    last_hand = result.hand if is_match else result
    if is_match:                            # the match's header is a step too, before the deal
        first_frames = hands[0]["frames"]
        head = events[0]
        first_frames.insert(0, {
            "kind": head.get("type"), "seats": [], "state": first_frames[0]["state"],
            "text": f"match: {rules.rounds} wind round{'s' if rules.rounds > 1 else ''}, "
                    f"min_points {rules.min_points}, seed {head.get('seed')}"})
        first_frames[1]["state"] = {}
    if tail:
        end = events[-1]
        hands[-1]["frames"].append({
            "kind": "match_end", "seats": [end["ranking"][0]], "state": {},
            "text": "match over · final scores " + " ".join(f"{s:+d}" for s in end["scores"])
                    + " · ranking " + " > ".join(f"seat {s}" for s in end["ranking"]),
            "settle": {"scores": end["scores"], "ranking": end["ranking"]}})
    final = list(result.scores if is_match else result.scores_after)
    return {
        "title": title, "rules": rules.to_dict(), "match": is_match,
        "cut": not last_hand.over, "final_scores": final, "wind_names": list(WIND_NAMES),
        "tile_names": list(TILE_NAMES), "hands": hands,
    }

