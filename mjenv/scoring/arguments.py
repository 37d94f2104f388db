"""Type checks of ``score_hand``'s public arguments, kept apart from the scorer so that its hot
path pays only an ``isinstance`` per argument: each function here runs only for an argument
that is not already of the plain type the scorer reads.

A wrong type is a ``TypeError`` naming the argument, what it takes and what it got (a wrong
value of the right type stays the scorer's ``ValueError``).
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import Any

import numpy as np

FLAGS = ("tsumo", "lingshang", "haidi", "hedi", "qianggang", "juezhang", "tianhu", "dihu",
         "renhu")


def hand_argument(hand: Any) -> tuple:
    """A hand that is neither text nor a list/tuple: any other sequence of tile indices as a
    tuple (a NumPy array, a range …); a ``TypeError`` for everything else."""
    if not isinstance(hand, (bytes, bytearray, Mapping, Set)):
        try:
            return tuple(hand)
        except TypeError:
            pass
    raise TypeError(f"hand must be mpsz text such as '123m456p789s1122z' or a sequence of tile "
                    f"indices 0–33, got {type(hand).__name__}")


def tile_argument(tile: Any) -> int:
    """A winning tile that is neither text nor an int: a NumPy integer as an int; a
    ``TypeError`` for everything else."""
    if isinstance(tile, np.integer):
        return int(tile)
    raise TypeError(f"win_tile must be mpsz text such as '5s' or a tile index 0–33, got "
                    f"{type(tile).__name__}")


def check_flags(values: tuple) -> None:
    """``values`` in ``FLAGS`` order: each a bool (``numpy.bool_`` too), else a ``TypeError``
    naming the flag — ``tsumo="no"`` must not score as a tsumo."""
    for name, value in zip(FLAGS, values):
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False, got {value!r}")
