"""The observation encoder as it stood before the incremental encoder (commit 56276e6), kept
as the reference the faster encoders are compared with bit for bit.

Only its pond cache is left out (a cached block is the same ``_add_discard`` writes made
earlier, so the planes are those of this plain loop). The plane layout (indices) is the
module's: ``docs/observation.md`` is generated from it and ``tests/env/test_docs.py`` keeps
the two identical, so a layout change cannot pass unseen.
"""

from __future__ import annotations

import numpy as np

from mjenv.env.observation import (
    DEALER, FURITEN, HAND, LIVE_WALL, LIVE_WALL_FULL, MELD_BLOCK, NUM_PLANES, PHASE, POND_BLOCK,
    POND_ORDER, REPEAT, REPEAT_CAP, ROUND_WIND, SCORE, SCORE_CLIP, SCORE_SCALE, SEAT_WIND,
    TARGET, TARGET_FROM, UNSEEN)
from mjenv.game.view import PlayerView
from mjenv.tiles import NUM_KINDS

_CHI, _PON, _MINKAN, _KAKAN, _ANKAN = range(5)
_MELD_ROW = {"pon": _PON, "minkan": _MINKAN, "kakan": _KAKAN, "ankan": _ANKAN}
_CALLED_FROM = 5
_DISCARDED = POND_ORDER
_TSUMOGIRI_SEQ = POND_ORDER + 1
_CALLED_SEQ = POND_ORDER + 2
_PHASE_ROW = {"turn": PHASE, "claim": PHASE + 1, "rob": PHASE + 2}


def reference_encode(view: PlayerView) -> np.ndarray:
    """The planes of ``view``, written one value at a time."""
    obs = np.zeros((NUM_PLANES, NUM_KINDS), dtype=np.float32)
    seat = view.seat
    held = [0] * NUM_KINDS
    for t in view.hand:
        obs[HAND + held[t], t] = 1.0
        held[t] += 1
    if view.target_tile is not None:
        obs[TARGET, view.target_tile] = 1.0
    obs[SEAT_WIND, 27 + view.seat_wind] = 1.0
    obs[ROUND_WIND, 27 + view.round_wind] = 1.0
    for r in range(4):
        owner = (seat + r) % 4
        base = MELD_BLOCK[r]
        for meld in view.melds[owner]:
            if meld.kind == "chi":
                for t in meld.tiles:
                    obs[base + _CHI, t] += 1.0
            else:
                obs[base + _MELD_ROW[meld.kind], meld.tiles[0]] = 1.0
            if meld.from_seat is not None and meld.called is not None:
                src = (meld.from_seat - owner) % 4
                obs[base + _CALLED_FROM + src - 1, meld.called] += 1.0
        block = POND_BLOCK[r]
        for j, p in enumerate(view.ponds[owner]):
            obs[block + min(j, POND_ORDER - 1), p.tile] += 1.0
            obs[block + _DISCARDED, p.tile] = 1.0
            if j < NUM_KINDS:
                if p.tsumogiri:
                    obs[block + _TSUMOGIRI_SEQ, j] = 1.0
                if p.called:
                    obs[block + _CALLED_SEQ, j] = 1.0
    for t, u in enumerate(view.unseen):
        for k in range(4):
            if u >= k + 1:
                obs[UNSEEN + k, t] = 1.0
    phase_row = _PHASE_ROW.get(view.phase)
    if phase_row is not None:
        obs[phase_row] = 1.0
    if view.target_from is not None and view.target_from != seat:
        obs[TARGET_FROM + (view.target_from - seat) % 4 - 1] = 1.0
    obs[DEALER + (view.dealer - seat) % 4] = 1.0
    if view.repeat:
        obs[REPEAT] = min(view.repeat, REPEAT_CAP) / REPEAT_CAP
    obs[LIVE_WALL] = view.live_wall_left / LIVE_WALL_FULL
    for r in range(4):
        score = view.scores[(seat + r) % 4]
        if score:
            obs[SCORE + r] = min(max(score / SCORE_SCALE, -SCORE_CLIP), SCORE_CLIP)
    if view.furiten:
        obs[FURITEN] = 1.0
    return obs
