"""The ``Yaku`` record and the ``yaku`` decorator every category module uses.

A yaku is its RULES.md §8 row — id, 中文名, English name, points, shapes, exclusions — and one
predicate whose docstring is the rulebook's definition (the yaku table of ``docs/rules.md`` is
generated from it) and whose body says the same in code, with the words of
``mjenv.scoring.yaku.words``. The predicate returns how many times the yaku holds (0 or False:
not at all; only 三元牌 returns more than 1, once per dragon pung). It is the whole definition:
its parameter's annotation says what of the reading it reads (``Reading``, or a narrow view of
``mjenv.scoring.views``), and the scorer learns nothing else about a yaku.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, get_type_hints

from mjenv.scoring.reading import KNITTED, SEVEN_PAIRS, SHAPES, STANDARD, THIRTEEN_ORPHANS, Reading
from mjenv.scoring.views import VIEWS

# RULES.md §8 shape column: S, 7, K, O, any.
S = frozenset({STANDARD})
P7 = frozenset({SEVEN_PAIRS})
K = frozenset({KNITTED})
O = frozenset({THIRTEEN_ORPHANS})
ANY = frozenset(SHAPES)


@dataclass(frozen=True)
class Yaku:
    """One row of RULES.md §8 and the predicate that decides it."""

    id: str
    name_zh: str
    name_en: str
    points: int
    shapes: frozenset[str]
    excludes: frozenset[str]
    predicate: Callable[[Reading], int]
    # What the predicate reads: its parameter's annotation, ``Reading`` or one of the narrow
    # views of ``mjenv.scoring.views`` (derived, never written twice).
    view: type = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        hints = get_type_hints(self.predicate)
        view = next((t for name, t in hints.items() if name != "return"), None)
        if view is not Reading and view not in VIEWS:
            raise ValueError(f"{self.id}: the predicate's parameter must be annotated with "
                             f"Reading or a view of mjenv.scoring.views, got {view!r}")
        object.__setattr__(self, "view", view)

    def __call__(self, reading: Reading) -> int:
        """Times the yaku holds for ``reading`` (0 when the shape does not qualify)."""
        return int(self.predicate(reading)) if reading.shape in self.shapes else 0


def yaku(id: str, name_zh: str, name_en: str, points: int, shapes: frozenset[str], *,
         excludes: Iterable[str] = ()) -> Callable[[Callable[[Reading], int]], Yaku]:
    """Decorator turning a predicate into its ``Yaku`` record."""
    def wrap(fn: Callable[[Reading], int]) -> Yaku:
        return Yaku(id, name_zh, name_en, points, shapes, frozenset(excludes), fn)

    return wrap
