"""The leaderboard of a league and the pages it is shown on (terminal, Markdown, HTML), and the
standard card's table; the numbers come from ``training.stats``.

Per agent, over every hand it played at a table of the agents named (``deal`` records of the
league file, ``training.arena``): ``mean`` score change per hand against the field with ``ci95``
(clustered by deal: one wall's hands are correlated, across rotations and tables), ``win_rate``,
``deal_in_rate``, ``tsumo_rate`` (hands won by tsumo), ``hands``, ``faults`` (hands in which its
external program failed; they count, played by the fallback from the fault on); and a
Plackett–Luce rating (``rating`` = μ, ``sigma`` = σ, openskill) from one four-player game per
table and deal, ranked by each agent's score summed over the deal's four rotations, the games
taken in a canonical order (deal, then the table's sorted specs) so that a resumed or extended
league rates exactly as one played at once.

Order: best ``mean`` first — the game's objective, and what ``mjenv eval`` measures one against
three. The rating measures the order of finish instead; the two can disagree where one agent
loses a little in most deals and another loses much in a few.
"""

from __future__ import annotations

import html
from typing import Iterable, Sequence

from training.stats import clustered_ci95, plackett_luce


def leaderboard(records: Iterable[dict], agents: Sequence[str]) -> list[dict]:
    """One entry per agent of ``agents`` from the league's ``deal`` records of tables among
    them (module docstring), best first."""
    named = set(agents)
    records = sorted((r for r in records if named.issuperset(r["table"])),
                     key=lambda r: (r["deal"], sorted(r["table"])))
    per_agent: dict[str, dict] = {a: {"deals": {}, "hands": []} for a in agents}
    games = []
    for record in records:
        totals = {a: 0 for a in record["table"]}
        for h in record["hands"]:
            faulted = {seat for seat, _ in h["faults"]}
            for seat, spec in enumerate(h["seats"]):
                delta = h["deltas"][seat]
                totals[spec] += delta
                won = seat in h["winners"]
                row = (delta, won, won and h["kind"] == "tsumo",
                       h["kind"] == "ron" and h["discarder"] == seat, seat in faulted)
                per_agent[spec]["hands"].append(row)
                per_agent[spec]["deals"].setdefault(record["deal"], []).append(row)
        games.append((record["table"], [totals[a] for a in record["table"]]))
    ratings = plackett_luce(games)
    board = []
    for a in agents:
        hands, clusters = per_agent[a]["hands"], list(per_agent[a]["deals"].values())
        mean, ci = clustered_ci95([[row[0] for row in c] for c in clusters])
        n = len(hands)
        mu, sigma = ratings.get(a, (25.0, 25 / 3))
        board.append({
            "agent": a, "rating": mu, "sigma": sigma, "mean": mean, "ci95": ci,
            "win_rate": sum(r[1] for r in hands) / n if n else 0.0,
            "deal_in_rate": sum(r[3] for r in hands) / n if n else 0.0,
            "tsumo_rate": sum(r[2] for r in hands) / n if n else 0.0,
            "hands": n, "faults": sum(r[4] for r in hands),
        })
    board.sort(key=lambda e: (-e["mean"], -e["rating"], e["agent"]))
    return board


def format_leaderboard(board: list[dict], facts: dict) -> str:
    """The terminal table."""
    width = max([len(e["agent"]) for e in board] + [5])
    lines = ["league: " + _facts_line(facts),
             f"{'#':>2}  {'agent':<{width}}  {'mean/hand':>9}  {'CI95':<17}  {'rating':>6} "
             f"{'±σ':>5}  {'win':>6} {'deal-in':>7} {'tsumo':>6}  {'hands':>6} {'faults':>6}"]
    for k, e in enumerate(board, 1):
        lo, hi = e["ci95"]
        lines.append(
            f"{k:>2}  {e['agent']:<{width}}  {e['mean']:+9.2f}  [{lo:+6.2f}, {hi:+6.2f}]  "
            f"{e['rating']:6.2f} {e['sigma']:5.2f}  {_pct(e['win_rate']):>6} "
            f"{_pct(e['deal_in_rate']):>7} {_pct(e['tsumo_rate']):>6}  {e['hands']:>6} "
            f"{e['faults']:>6}")
    return "\n".join(lines)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def markdown_leaderboard(board: list[dict], facts: dict) -> str:
    """The leaderboard as a Markdown page."""
    lines = ["# League", "", _facts_line(facts), "",
             "| # | agent | mean / hand | CI95 | rating | σ | win | deal-in | tsumo | hands | "
             "faults |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for k, e in enumerate(board, 1):
        lo, hi = e["ci95"]
        lines.append(f"| {k} | `{e['agent']}` | {e['mean']:+.2f} | [{lo:+.2f}, {hi:+.2f}] | "
                     f"{e['rating']:.2f} | {e['sigma']:.2f} | {_pct(e['win_rate'])} | "
                     f"{_pct(e['deal_in_rate'])} | {_pct(e['tsumo_rate'])} | {e['hands']} | "
                     f"{e['faults']} |")
    lines += ["", _METHOD]
    return "\n".join(lines) + "\n"


_METHOD = ("Order: mean score change per hand against the field, best first (95 % interval "
           "clustered by deal). Rating: openskill Plackett–Luce μ and σ of the order of finish, "
           "one four-player game per table and deal (scores summed over the deal's four "
           "rotations). Faults: hands in which the agent's program failed and the fallback "
           "finished its seat.")


def _facts_line(facts: dict) -> str:
    tables = f"{facts['tables']} table{'s' if facts['tables'] != 1 else ''}"
    line = (f"{facts['agents']} agents, {tables} × {facts['deals']} deals × 4 rotations, "
            f"seed {facts['seed']}, rules {facts['rules']}")
    if facts["deals_played"] < facts["deals_total"]:
        line += f" ({facts['deals_played']} of {facts['deals_total']} table-deals played)"
    return line


def html_leaderboard(board: list[dict], facts: dict) -> str:
    """The leaderboard as one self-contained HTML page (each CI drawn on a common axis)."""
    lows = [e["ci95"][0] for e in board] + [0.0]
    highs = [e["ci95"][1] for e in board] + [0.0]
    lo, hi = min(lows), max(highs)
    span = (hi - lo) or 1.0

    def x(v: float) -> float:
        return 4 + 152 * (v - lo) / span

    rows = []
    for k, e in enumerate(board, 1):
        a, b = e["ci95"]
        bar = (f'<svg width="160" height="14" role="img" aria-label="CI95">'
               f'<line x1="{x(0):.1f}" y1="0" x2="{x(0):.1f}" y2="14" class="zero"/>'
               f'<line x1="{x(a):.1f}" y1="7" x2="{x(b):.1f}" y2="7" class="ci"/>'
               f'<circle cx="{x(e["mean"]):.1f}" cy="7" r="3" class="mean"/></svg>')
        rows.append(
            f"<tr><td>{k}</td><td><code>{html.escape(e['agent'])}</code></td>"
            f"<td>{e['mean']:+.2f}</td><td>[{a:+.2f}, {b:+.2f}]</td><td>{bar}</td>"
            f"<td>{e['rating']:.2f}</td><td>{e['sigma']:.2f}</td><td>{_pct(e['win_rate'])}</td>"
            f"<td>{_pct(e['deal_in_rate'])}</td><td>{_pct(e['tsumo_rate'])}</td>"
            f"<td>{e['hands']}</td><td>{e['faults']}</td></tr>")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mjenv league</title>
<style>
body {{ font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; }}
th, td {{ padding: 4px 10px; border-bottom: 1px solid #ddd; text-align: right; }}
td:nth-child(2), th:nth-child(2) {{ text-align: left; }}
th {{ background: #f3f3f3; }}
.zero {{ stroke: #999; stroke-dasharray: 2 2; }}
.ci {{ stroke: #2a6fb0; stroke-width: 3; }}
.mean {{ fill: #c0392b; }}
p.note {{ color: #555; max-width: 60em; }}
</style></head><body>
<h1>League</h1>
<p>{html.escape(_facts_line(facts))}</p>
<table>
<tr><th>#</th><th>agent</th><th>mean / hand</th><th>CI95</th><th>{lo:+.1f} … {hi:+.1f}</th>
<th>rating</th><th>σ</th><th>win</th><th>deal-in</th><th>tsumo</th><th>hands</th>
<th>faults</th></tr>
{chr(10).join(rows)}
</table>
<p class="note">{html.escape(_METHOD)}</p>
</body></html>
"""



def format_card(c: dict) -> str:
    """The card as one terminal table."""
    note = "standard card" if c["standard"] else "NOT the standard card (other deals or seed)"
    lines = [f"card of {c['agent']} — {c['deals']} deals × 4 seats per field, seed {c['seed']}, "
             f"{note}",
             f"{'field':<18} {'mean/hand':>9}  {'CI95':<17}  {'win':>6} {'CI95':<15}  "
             f"{'deal-in':>7} {'CI95':<15}  {'hands':>6} {'faults':>6}"]
    for r in c["rows"]:
        lines.append(
            f"{r['field']:<18} {r['mean']:+9.2f}  [{r['ci95'][0]:+6.2f}, {r['ci95'][1]:+6.2f}]  "
            f"{_pct(r['win_rate']):>6} {_interval(r['win_rate_ci95']):<15}  "
            f"{_pct(r['deal_in_rate']):>7} {_interval(r['deal_in_rate_ci95']):<15}  "
            f"{r['hands']:>6} {r['faults']:>6}")
    return "\n".join(lines)


def markdown_card(c: dict) -> str:
    """The card as a Markdown table."""
    note = "standard card" if c["standard"] else "not the standard card (other deals or seed)"
    lines = [f"Card of `{c['agent']}`: {c['deals']} deals × 4 seats per field, seed {c['seed']}, "
             f"{note}.", "",
             "| field | mean / hand | CI95 | win | deal-in | hands | faults |",
             "|---|---|---|---|---|---|---|"]
    for r in c["rows"]:
        lines.append(f"| {r['field']} | {r['mean']:+.2f} | [{r['ci95'][0]:+.2f}, "
                     f"{r['ci95'][1]:+.2f}] | {_pct(r['win_rate'])} | "
                     f"{_pct(r['deal_in_rate'])} | {r['hands']} | {r['faults']} |")
    return "\n".join(lines) + "\n"


def _interval(ci: Sequence[float]) -> str:
    return f"[{_pct(max(ci[0], 0.0))}, {_pct(ci[1])}]"


__all__ = ["format_card", "format_leaderboard", "html_leaderboard", "leaderboard",
           "markdown_card", "markdown_leaderboard"]
