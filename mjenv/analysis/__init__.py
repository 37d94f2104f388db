"""Hand analysis: standard readings, special shapes, waits and shanten (RULES.md §7).

No game state here: every function is pure over tile counts (``counts``: 34 ints) or, for the
string-level helpers ``waits``/``shanten``, over mpsz text and meld notation.
"""

from mjenv.analysis.decompose import (decompose_standard, is_knitted, is_seven_pairs,
                                      is_thirteen_orphans)
from mjenv.analysis.shanten import (knitted_cover, knitted_masks, knitted_need, shanten,
                                    shanten_counts, shanten_knitted, shanten_orphans,
                                    shanten_seven_pairs, shanten_standard)
from mjenv.analysis.tables import clear_caches
from mjenv.analysis.waits import structural_waits, wait_kinds, waits

__all__ = ["clear_caches", "decompose_standard", "is_knitted", "is_seven_pairs",
           "is_thirteen_orphans", "knitted_cover", "knitted_masks", "knitted_need", "shanten",
           "shanten_counts", "shanten_knitted", "shanten_orphans", "shanten_seven_pairs",
           "shanten_standard", "structural_waits", "wait_kinds", "waits"]
