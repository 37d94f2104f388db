"""``mjenv score``: score one winning hand and show the reading, the yaku and the payments.

    mjenv score 123m456m789m123p5s --win 5s --seat S --round E [--tsumo]
                [--melds pon:777z,chi:234s] [--lingshang --haidi --hedi --qianggang
                --juezhang --tianhu --dihu --renhu] [--min-points P]
                [--dealer SEAT --repeat N] [--json]

Exit status: 0 for a legal win, 1 when the tiles do not win or the hand scores below
``--min-points`` (the output says which), 2 for malformed input (the message names the bad part).
With ``--dealer`` (the dealer's absolute seat 0–3) the winner sits at
``(dealer + seat wind) % 4`` and the payments of all four seats are printed: for a ron, one line
per possible discarder; for a tsumo, one line.
"""

from __future__ import annotations

import argparse
import json
import sys

from mjenv.cli.options import add_rule_flags

FLAGS = ("lingshang", "haidi", "hedi", "qianggang", "juezhang", "tianhu", "dihu", "renhu")
WIND_LETTERS = "ESWN"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hand", help="concealed tiles before the win, mpsz "
                                     "(e.g. 123m456m789m123p5s)")
    parser.add_argument("--win", required=True, metavar="TILE", help="the winning tile (e.g. 5s)")
    parser.add_argument("--seat", default="E", metavar="WIND", help="seat wind E/S/W/N (default E)")
    parser.add_argument("--round", default="E", metavar="WIND",
                        help="round wind E/S/W/N (default E)")
    parser.add_argument("--tsumo", action="store_true", help="self-drawn win (default: ron)")
    parser.add_argument("--melds", default="", metavar="LIST",
                        help="declared melds, comma-separated: chi:234s,pon:777z,minkan:5555m,"
                             "kakan:5555m,ankan:9999p")
    for flag in FLAGS:
        parser.add_argument(f"--{flag}", action="store_true", help=f"situation flag {flag}")
    add_rule_flags(parser, ("min_points",))
    parser.add_argument("--dealer", type=int, default=None, metavar="SEAT",
                        help="the dealer's seat 0–3: also print every seat's payments")
    parser.add_argument("--repeat", type=int, default=None, metavar="N",
                        help="the dealer's repeat counter n (bonus D = 1 + n; needs --dealer)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    from mjenv.rules import rules_from_flags
    from mjenv.scoring import NotWinningHand, WinContext, score
    from mjenv.cli.options import check_bounds
    from mjenv.tiles import parse_meld, parse_tile, parse_tiles, parse_wind, tiles_to_str

    try:
        hand = _named("hand", args.hand, parse_tiles)
        win = _named("--win", args.win, parse_tile)
        melds = tuple(_named("--melds", m, parse_meld) for m in args.melds.split(",")
                      if m.strip())
        seat = _named("--seat", args.seat, parse_wind)
        rnd = _named("--round", args.round, parse_wind)
        check_bounds(args, dealer={"low": 0, "high": 3}, repeat={"low": 0})
        min_points = rules_from_flags(args).min_points
        if args.repeat is not None and args.dealer is None:
            raise ValueError("--repeat needs --dealer (the bonus is paid by or to the dealer)")
        ctx = WinContext(tsumo=args.tsumo, seat_wind=seat, round_wind=rnd,
                         **{f: getattr(args, f) for f in FLAGS})
        result = score(hand, win, melds, ctx)
    except NotWinningHand as exc:
        return _fail(args, 1, "not a win", str(exc))
    except ValueError as exc:
        return _fail(args, 2, "bad input", str(exc))

    legal = result.points >= min_points
    payments = None
    if args.dealer is not None and legal:
        payments = _payments(result.points, args.tsumo, seat, args.dealer, args.repeat or 0)
    if args.json:
        _print_json(result, legal, min_points, payments)
    else:
        header = (f"hand {tiles_to_str(hand)} + {tiles_to_str((win,))} "
                  f"({'tsumo' if args.tsumo else 'ron'}), seat {WIND_LETTERS[seat]}, "
                  f"round {WIND_LETTERS[rnd]}, melds {','.join(map(str, melds)) or 'none'}")
        flags = [f for f in FLAGS if getattr(args, f)]
        _print_text(result, header + (f", {' '.join(flags)}" if flags else ""), legal,
                    min_points, payments)
    return 0 if legal else 1


def _named(what: str, text: str, parse):
    """Parse ``text``, prefixing any error with the argument it came from."""
    try:
        return parse(text)
    except ValueError as exc:
        raise ValueError(f"{what} {text!r}: {exc}") from None


def _fail(args: argparse.Namespace, code: int, kind: str, message: str) -> int:
    if args.json:
        print(json.dumps({"error": kind, "message": message}, ensure_ascii=False))
    else:
        print(f"mjenv score: {kind}: {message}", file=sys.stderr)
    return code


def _payments(points: int, tsumo: bool, seat_wind: int, dealer: int, repeat: int) -> dict:
    """Every seat's score change: ``{"winner": seat, "tsumo": deltas}`` or
    ``{"winner": seat, "ron": {discarder: deltas}}``."""
    from mjenv.scoring.settle import settle_ron, settle_tsumo

    winner = (dealer + seat_wind) % 4
    out: dict = {"winner": winner, "dealer": dealer, "repeat": repeat}
    if tsumo:
        out["tsumo"] = list(settle_tsumo(winner, points, dealer, repeat))
    else:
        out["ron"] = {d: list(settle_ron({winner: points}, d, dealer, repeat))
                      for d in range(4) if d != winner}
    return out


def _yaku_rows(result) -> list[tuple[str, str, int]]:
    from mjenv.scoring.yaku import YAKU

    return [(yid, YAKU[yid].name_zh, pts) for yid, pts in result.yaku.items()]


def _reading_lines(result) -> list[str]:
    """The chosen standard reading: groups (declared melds marked by kind), the pair, and the
    group the winning tile completed (marked ``*``) with its placement."""
    from mjenv.scoring.reading import PLACEMENT_ZH
    from mjenv.tiles import tiles_to_str

    if result.shape != "standard":
        return []
    groups = [str(g) + ("*" if i == result.win_group else "")
              for i, g in enumerate(result.groups)]
    pair = tiles_to_str((result.pair, result.pair)) + ("*" if result.win_group is None else "")
    return [f"reading: {' '.join(groups)}  pair {pair}",
            f"winning tile {tiles_to_str((result.win_tile,))}: "
            f"{PLACEMENT_ZH[result.placement]} ({result.placement}), completing the part "
            f"marked *"]


def _print_text(result, header: str, legal: bool, min_points: int,
                payments: dict | None) -> None:
    print(header)
    print(f"shape: {result.shape}")
    for line in _reading_lines(result):
        print(line)
    rows = _yaku_rows(result)
    width = max((len(y) for y, _, _ in rows), default=0)
    zh_width = max((len(zh) for _, zh, _ in rows), default=0)
    for yid, zh, pts in rows:  # pad 中文 names with ideographic spaces so columns line up
        print(f"  {yid:<{width}}  {zh}{chr(0x3000) * (zh_width - len(zh))}  {pts:>3}")
    print(f"total P = {result.points}")
    if not legal:
        print(f"not a legal win: {result.points} points is below min_points {min_points}")
        return
    if payments is not None:
        w = payments["winner"]
        bonus = 1 + payments["repeat"]
        print(f"payments (winner seat {w}, dealer seat {payments['dealer']}, "
              f"dealer bonus D = {bonus}):")
        lines = ([("tsumo", payments["tsumo"])] if "tsumo" in payments else
                 [(f"ron from seat {d}", deltas) for d, deltas in payments["ron"].items()])
        for label, deltas in lines:
            cells = "  ".join(f"seat {s}: {v:+d}" for s, v in enumerate(deltas))
            print(f"  {label:<16} {cells}")


def _print_json(result, legal: bool, min_points: int, payments: dict | None) -> None:
    from mjenv.tiles import tiles_to_str

    out = {
        "points": result.points,
        "yaku": dict(result.yaku),
        "shape": result.shape,
        "legal": legal,
        "min_points": min_points,
        "yaku_zh": {yid: zh for yid, zh, _ in _yaku_rows(result)},
    }
    if result.shape == "standard":
        out["reading"] = {"groups": [str(g) for g in result.groups],
                          "pair": tiles_to_str((result.pair, result.pair)),
                          "placement": result.placement, "win_group": result.win_group}
    if payments is not None:
        out["payments"] = payments
    print(json.dumps(out, ensure_ascii=False))
