"""Scoring throughput: ``mjenv.score_hand`` against the ``mahjong`` package, same run, same hands.

    python benchmarks/bench_scoring.py [--hands 5000] [--seed 2026] [--repeats 5] [--profile]

A fixed-seed set of distinct random winning hands (``mjenv.scoring.generate``) is scored by
``score_hand`` (the public string-level API) twice over:

- cold: every ``functools`` cache and memo in ``mjenv.analysis`` and ``mjenv.scoring`` cleared
  before each repeat, so memoised results are rebuilt as the run goes (the first call of a
  fresh process; only the import-time tables, which depend on no hand, stay);
- warm: the same pass again with the caches as the previous pass left them.

The peer is ``mahjong.hand_calculating.hand.HandCalculator.estimate_hand_value`` on the hands of
those kinds it can read (standard shape, seven pairs, thirteen orphans), converted to its
136-tile format with the same melds, winds and tsumo flag; its own division cache is cleared for
its cold pass too. mjenv is timed on exactly that subset as well, so the ratio compares like with
like, and the two run in alternating blocks of ``--block`` hands (each side's cold pass goes on
from block to block) so that both see the same machine. Rates are medians over the repeats, one
core, in one process, timed in process CPU time; the ratio is the median of the per-repeat
ratios, with their range.
Warm means the same hands scored a second time, so it is an upper bound for hands already seen.
``--profile`` adds a cProfile of one cold and one warm mjenv pass (top functions by own time).
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import io
import pkgutil
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mjenv.scoring.generate import GeneratedHand, generate_hands  # noqa: E402


def clear_mjenv_caches() -> int:
    """Clear every ``functools`` cache of ``mjenv.analysis`` and ``mjenv.scoring`` modules,
    then call both packages' ``clear_caches`` (which also empty their plain-dict memos);
    returns how many ``functools`` caches were cleared."""
    cleared = 0
    for pkg_name in ("mjenv.analysis", "mjenv.scoring"):
        pkg = importlib.import_module(pkg_name)
        names = [pkg_name] + [m.name for m in pkgutil.walk_packages(pkg.__path__, pkg_name + ".")]
        for name in names:
            module = importlib.import_module(name)
            for value in list(vars(module).values()):
                targets = [value] + (list(vars(value).values()) if isinstance(value, type) else [])
                for obj in targets:
                    fn = getattr(obj, "__func__", obj)  # staticmethod / classmethod
                    if callable(getattr(fn, "cache_clear", None)) \
                            and getattr(fn, "__module__", "").startswith("mjenv."):
                        fn.cache_clear()
                        cleared += 1
    for pkg_name in ("mjenv.analysis", "mjenv.scoring"):
        importlib.import_module(pkg_name).clear_caches()
    return cleared


def clear_mahjong_caches() -> None:
    from mahjong.hand_calculating.divider import HandDivider

    HandDivider._divide_hand_impl.cache_clear()


def to_mahjong(h: GeneratedHand):
    """(tiles136, win136, melds, config) for ``HandCalculator.estimate_hand_value``."""
    from mahjong.constants import EAST
    from mahjong.hand_calculating.hand_config import HandConfig
    from mahjong.meld import Meld as MjMeld

    used = [0] * 34

    def take(kind: int) -> int:
        tid = kind * 4 + used[kind]
        used[kind] += 1
        return tid

    melds = []
    tiles: list[int] = []
    for m in h.melds:
        ids = [take(t) for t in m.tiles]
        tiles += ids
        kind = {"chi": MjMeld.CHI, "pon": MjMeld.PON,
                "kakan": MjMeld.SHOUMINKAN}.get(m.kind, MjMeld.KAN)
        melds.append(MjMeld(meld_type=kind, tiles=ids, opened=m.kind != "ankan"))
    tiles += [take(t) for t in h.hand]
    win = take(h.win_tile)
    tiles.append(win)
    config = HandConfig(is_tsumo=h.tsumo, player_wind=EAST + h.seat_wind,
                        round_wind=EAST + h.round_wind, is_rinshan=h.lingshang,
                        is_haitei=h.haidi, is_houtei=h.hedi, is_chankan=h.qianggang)
    return tiles, win, melds, config


def _time(fn: Callable[[], object]) -> float:
    """CPU seconds of this process spent in ``fn``: on a shared machine, other processes
    inflate wall time far more than CPU time."""
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=5000, help="distinct hands (default 5000)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--block", type=int, default=250,
                    help="hands per alternating block of the side-by-side passes (default 250)")
    ap.add_argument("--profile", action="store_true", help="cProfile one cold and one warm pass")
    args = ap.parse_args(argv)

    from mahjong.hand_calculating.hand import HandCalculator

    from mjenv.scoring import score_hand

    hands = generate_hands(args.hands, args.seed, distinct=True)
    queries = [h.kwargs() for h in hands]
    shapes = [score_hand(**q).shape for q in queries]
    peer_idx = [i for i, s in enumerate(shapes) if s != "knitted"]
    peer_queries = [queries[i] for i in peer_idx]
    peer_args = [to_mahjong(hands[i]) for i in peer_idx]
    n_std = sum(1 for s in shapes if s == "standard")

    def run_mjenv(qs: list[dict]) -> None:
        for q in qs:
            score_hand(**q)

    def run_mahjong(items: list[tuple]) -> None:
        for tiles, win, melds, config in items:
            HandCalculator.estimate_hand_value(tiles, win, melds=melds, config=config)

    def side_by_side() -> tuple[float, float]:
        """CPU seconds of mjenv and of mahjong over the subset, in alternating blocks so that
        both see the same machine (a shared box's speed drifts within a pass)."""
        spent = [0.0, 0.0]
        for lo in range(0, len(peer_queries), args.block):
            spent[0] += _time(lambda: run_mjenv(peer_queries[lo:lo + args.block]))
            spent[1] += _time(lambda: run_mahjong(peer_args[lo:lo + args.block]))
        return spent[0], spent[1]

    n_caches = clear_mjenv_caches()
    rates: dict[str, list[float]] = {k: [] for k in
                                     ("cold", "warm", "cold_sub", "warm_sub", "mj_cold", "mj_warm")}
    n = len(peer_queries)
    for _ in range(args.repeats):
        clear_mjenv_caches()
        rates["cold"].append(len(queries) / _time(lambda: run_mjenv(queries)))
        rates["warm"].append(len(queries) / _time(lambda: run_mjenv(queries)))
        clear_mjenv_caches()
        clear_mahjong_caches()
        for label in ("cold", "warm"):
            ours, theirs = side_by_side()
            rates[f"{label}_sub"].append(n / ours)
            rates[f"mj_{label}"].append(n / theirs)
    med = {k: statistics.median(v) for k, v in rates.items()}

    print(f"python benchmarks/bench_scoring.py --hands {args.hands} --seed {args.seed} "
          f"--repeats {args.repeats} --block {args.block}")
    print(f"hands: {len(queries)} distinct ({n_std} standard, "
          f"{shapes.count('seven_pairs')} seven pairs, {shapes.count('knitted')} knitted, "
          f"{shapes.count('thirteen_orphans')} thirteen orphans); "
          f"{len(peer_queries)} readable by mahjong; {n_caches} mjenv caches cleared when cold")
    print(f"medians of {args.repeats} repeats, hands per CPU-second, one core:")
    print(f"  mjenv score_hand, all hands      cold {med['cold']:9.0f}   warm {med['warm']:9.0f}")
    print(f"  mjenv score_hand, mahjong subset cold {med['cold_sub']:9.0f}   "
          f"warm {med['warm_sub']:9.0f}")
    print(f"  mahjong estimate_hand_value      cold {med['mj_cold']:9.0f}   "
          f"warm {med['mj_warm']:9.0f}")
    # The ratio of each repeat (its two sides ran in alternating blocks), median and range:
    # a shared machine's speed drifts between repeats more than within one.
    ratios = {label: sorted(o / m for o, m in zip(rates[f"{label}_sub"], rates[f"mj_{label}"]))
              for label in ("cold", "warm")}
    print(f"  ratio mjenv / mahjong            cold {statistics.median(ratios['cold']):9.2f}x  "
          f"warm {statistics.median(ratios['warm']):9.2f}x   (per repeat: cold "
          f"{ratios['cold'][0]:.2f}–{ratios['cold'][-1]:.2f}x, warm "
          f"{ratios['warm'][0]:.2f}–{ratios['warm'][-1]:.2f}x)")

    if args.profile:
        for label, clear in (("cold", True), ("warm", False)):
            if clear:
                clear_mjenv_caches()
            prof = cProfile.Profile()
            prof.enable()
            run_mjenv(queries)
            prof.disable()
            out = io.StringIO()
            pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(15)
            print(f"\n--- cProfile, {label} pass over {len(queries)} hands (by own time) ---")
            print("\n".join(out.getvalue().splitlines()[4:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
