"""Every yaku of RULES.md §8, one module per rulebook category, in rulebook order.

``YAKU`` maps each stable id to its ``Yaku`` record (points, shapes, exclusions, predicate);
``YAKU[id].points`` is the one place a yaku's points are written.
The exclusion table of §9 is the ``excludes`` field of each record; ``EXCLUDES`` gathers it.
"""

from __future__ import annotations

from mjenv.scoring.yaku import (basic, chance, four_kind, honors, identical_chows, kongs,
                                numbers, pung_runs, situation, special, steps, suits,
                                terminals, three_suits)
from mjenv.scoring.yaku.base import Yaku

# RULES.md §8 order: 基本, 特殊, 情况, 偶然, 花色, 幺九, 数字, 字牌, 三色, 连刻, 步步高, 般高,
# 开杠/暗刻, 归一.
CATEGORIES: tuple[tuple[str, str, tuple[Yaku, ...]], ...] = (
    ("basic", "基本胡牌型", basic.YAKU),
    ("special", "特殊胡牌型", special.YAKU),
    ("situation", "胡牌情况型", situation.YAKU),
    ("chance", "偶然胡牌型", chance.YAKU),
    ("suits", "花色型", suits.YAKU),
    ("terminals", "幺九型", terminals.YAKU),
    ("numbers", "数字型", numbers.YAKU),
    ("honors", "字牌型", honors.YAKU),
    ("three_suits", "三色型", three_suits.YAKU),
    ("pung_runs", "连刻型", pung_runs.YAKU),
    ("steps", "步步高型", steps.YAKU),
    ("identical_chows", "般高型", identical_chows.YAKU),
    ("kongs", "开杠型/暗刻型", kongs.YAKU),
    ("four_kind", "归一型", four_kind.YAKU),
)

YAKU: dict[str, Yaku] = {y.id: y for _, _, group in CATEGORIES for y in group}

EXCLUDES: dict[str, frozenset[str]] = {y.id: y.excludes for y in YAKU.values() if y.excludes}


def _check_table() -> None:
    """Fail at import on a duplicated id or an exclusion naming no yaku (a typo in a table)."""
    if len(YAKU) != sum(len(g) for _, _, g in CATEGORIES):
        raise RuntimeError("duplicate yaku id in mjenv.scoring.yaku")
    for y in YAKU.values():
        unknown = y.excludes - YAKU.keys()
        if unknown:
            raise RuntimeError(f"{y.id} excludes unknown yaku {sorted(unknown)}")


_check_table()

__all__ = ["YAKU", "EXCLUDES", "CATEGORIES", "Yaku"]
