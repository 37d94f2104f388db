"""Text rendering of a table or of one seat's view, legible in an 80-column terminal.

Tiles are the Unicode mahjong glyphs (🀇…) of ``mjenv.tiles.TILE_UNICODE`` or, with
``style="ascii"``, mpsz names (``1m``). Terminals disagree on the glyphs' width (Unicode says
"neutral" for all but 🀄, many fonts draw them two cells wide), so the layout budgets two
cells per glyph and puts a space after each: a line never exceeds 80 cells either way.

Pond marks: ``*`` after a tile = tsumogiri (the kind just drawn), ``^`` = claimed by another
seat (the tile shows in that seat's meld). Melds show ``<N`` for the seat they were claimed
from.
"""

from __future__ import annotations

import textwrap
import unicodedata
from typing import Iterable, Sequence

from mjenv.game import Hand, PlayerView, PondTile
from mjenv.tiles import TILE_NAMES, TILE_UNICODE, Meld

TILE_STYLES = ("unicode", "ascii")
WIDTH = 80
POND_PER_LINE = 12
LEGEND = "marks: * tsumogiri · ^ claimed by another seat · <N claimed from seat N"
WIND_NAMES = ("East", "South", "West", "North")


def cell_width(text: str) -> int:
    """Worst-case terminal cells of ``text``: mahjong glyphs and wide characters count 2."""
    return sum(2 if 0x1F000 <= ord(ch) <= 0x1F02F
               or unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def tile_text(tile: int, style: str = "unicode") -> str:
    return TILE_UNICODE[tile] if style == "unicode" else TILE_NAMES[tile]


def tiles_text(tiles: Iterable[int], style: str = "unicode") -> str:
    return " ".join(tile_text(t, style) for t in tiles)


def meld_text(meld: Meld, style: str = "unicode") -> str:
    tiles = "".join(tile_text(t, style) for t in meld.tiles)
    src = f"<{meld.from_seat}" if meld.from_seat is not None else ""
    return f"{meld.kind}:{tiles}{src}"


def pond_lines(pond: Sequence[PondTile], style: str = "unicode") -> list[str]:
    cells = [tile_text(p.tile, style) + ("*" if p.tsumogiri else "") + ("^" if p.called else "")
             for p in pond]
    return [" ".join(cells[i:i + POND_PER_LINE]) for i in range(0, len(cells), POND_PER_LINE)]


def _seat_block(seat: int, *, wind: int, dealer: bool, score: int, concealed: Sequence[int] | None,
                drawn: int | None, melds: Sequence[Meld], pond: Sequence[PondTile],
                furiten: bool, acting: bool, style: str) -> list[str]:
    head = (f"{'>' if acting else ' '} seat {seat} {WIND_NAMES[wind]}"
            f"{' (dealer)' if dealer else ''}  score {score:+d}{'  furiten' if furiten else ''}")
    lines = [head]
    if concealed is not None:
        tiles = list(concealed)
        if drawn is not None and drawn in tiles:     # show the drawn tile apart, at the end
            tiles.remove(drawn)
            lines.append(f"    hand  {tiles_text(tiles, style)}  + {tile_text(drawn, style)}")
        else:
            lines.append(f"    hand  {tiles_text(tiles, style)}")
    if melds:
        lines.append("    melds " + " ".join(meld_text(m, style) for m in melds))
    for i, text in enumerate(pond_lines(pond, style) or ["(no discards)"]):
        lines.append(("    pond  " if i == 0 else "          ") + text)
    return lines


def _header(round_wind: int, dealer: int, repeat: int, live: int) -> str:
    return (f"{WIND_NAMES[round_wind]} round · dealer seat {dealer} · repeat {repeat} · "
            f"live wall {live}")


def _target_line(phase: str, target: int | None, target_from: int | None, style: str,
                 hidden: bool = False) -> str:
    """What is being decided. ``hidden``: another seat's turn seen from one seat's view, whose
    drawn tile it cannot see (so no tile does not mean the turn follows a call)."""
    if phase == "turn":
        if target is None and not hidden:
            return f"turn of seat {target_from} (after a call: discard only)"
        return f"turn of seat {target_from}"
    what = "discard" if phase == "claim" else "added kan"
    return f"{phase}: {what} {tile_text(target, style)} from seat {target_from}"


def render_table(hand: Hand, *, style: str = "unicode", to_act: Sequence[int] = ()) -> str:
    """The whole table (every concealed hand shown: an observer's view for debugging, replays
    and rendering). ``to_act`` marks the seat(s) about to decide with ``>``."""
    if style not in TILE_STYLES:
        raise ValueError(f"style must be one of {TILE_STYLES}, got {style!r}")
    lines = table_status(hand, style)
    drawn_seat, drawn = drawn_tile(hand)
    for seat in range(4):
        lines.append("")
        lines.extend(_seat_block(
            seat, wind=(seat - hand.dealer) % 4, dealer=seat == hand.dealer,
            score=hand.scores_after[seat], concealed=hand.concealed(seat),
            drawn=drawn if seat == drawn_seat else None, melds=hand.melds(seat),
            pond=hand.pond(seat), furiten=hand.furiten(seat), acting=seat in to_act,
            style=style))
    lines += ["", LEGEND]
    return "\n".join(lines)


def table_status(hand: Hand, style: str = "unicode") -> list[str]:
    """The round line, then what is being decided or, once the hand is over, its result."""
    lines = [_header(hand.round_wind, hand.dealer, hand.repeat, hand.live_wall_left)]
    turn_view = hand.view(hand.dealer)   # public fields only: phase, target, scores
    if hand.result is None:
        lines.append(_target_line(hand.phase, _public_target(hand), turn_view.target_from, style))
    else:
        lines.extend(_result_lines(hand, style))
    return lines


def _public_target(hand: Hand) -> int | None:
    if hand.phase == "turn":
        return drawn_tile(hand)[1]
    return hand.view(hand.dealer).target_tile


def drawn_tile(hand: Hand) -> tuple[int | None, int | None]:
    """(seat, tile) of the tile just drawn on the current turn, else (None, None)."""
    if hand.result is not None or hand.phase != "turn" or not hand.to_act:
        return None, None
    seat = hand.to_act[0]
    return seat, hand.view(seat).target_tile


def _result_lines(hand: Hand, style: str) -> list[str]:
    """The result; Chinese text only in the ``unicode`` style (``ascii`` is also what the
    ``rgb_array`` frames draw, with a font that has no CJK glyphs)."""
    r = hand.result
    deltas = "deltas " + " ".join(f"{d:+d}" for d in r.deltas)
    if r.kind == "draw":
        return [f"exhaustive draw{' (流局)' if style == 'unicode' else ''} · {deltas}"]
    src = "" if r.kind == "tsumo" else \
        f" on seat {r.discarder}'s {'added kan' if r.robbed else 'discard'}"
    lines = [f"{r.kind} {tile_text(r.win_tile, 'ascii')}{src} · {deltas}"]
    for seat in r.winners:
        s = r.scores[seat]
        yaku = ", ".join(f"{k} {v}" for k, v in s.yaku.items())
        lines.extend(textwrap.wrap(f"seat {seat} wins {s.points} points ({s.shape}): {yaku}",
                                   width=WIDTH - 2, subsequent_indent="    "))
    return lines


def render_view(view: PlayerView, *, style: str = "unicode") -> str:
    """What one seat sees: its own hand, everybody's melds and ponds, the decision at hand."""
    if style not in TILE_STYLES:
        raise ValueError(f"style must be one of {TILE_STYLES}, got {style!r}")
    lines = [_header(view.round_wind, view.dealer, view.repeat, view.live_wall_left),
             _target_line(view.phase, view.target_tile, view.target_from, style,
                          hidden=view.phase == "turn" and view.target_from != view.seat)]
    drawn = view.target_tile if view.phase == "turn" and view.target_from == view.seat else None
    for k in range(4):
        seat = (view.seat + k) % 4
        lines.append("")
        lines.extend(_seat_block(
            seat, wind=(seat - view.dealer) % 4, dealer=seat == view.dealer,
            score=view.scores[seat], concealed=view.hand if seat == view.seat else None,
            drawn=drawn if seat == view.seat else None, melds=view.melds[seat],
            pond=view.ponds[seat], furiten=view.furiten and seat == view.seat,
            acting=seat == view.seat and bool(view.legal), style=style))
    lines += ["", LEGEND]
    return "\n".join(lines)


