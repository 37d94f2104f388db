"""The scorer's memos and tables (``mjenv.scoring.tiers``) against plain evaluation, and the
views the predicates read (``mjenv.scoring.views``).

``score`` evaluates each predicate on the view its parameter names and memoises the result on
the view's values; ``holding_yaku`` calls every predicate on the whole reading. They must agree
on every reading, cold or warm, and a predicate must read nothing its view does not hold.
"""

from __future__ import annotations

import importlib

import pytest

from mjenv.scoring import YAKU, clear_caches, counted, holding_yaku, readings, score
from mjenv.scoring.generate import generate_hands
from mjenv.scoring.reading import Reading
from mjenv.scoring.views import VIEWS, Flags, Situation
from mjenv.scoring.yaku import Yaku
from mjenv.scoring.yaku.base import S, yaku
from tests.scale import n

tiers = importlib.import_module("mjenv.scoring.tiers")
HANDS = generate_hands(n(600, 6000), seed=31)


def _view_of(view: type, r: Reading):
    if view is Situation:
        return Situation(r.shape, Flags(*(getattr(r.ctx, f) for f in Flags._fields)),
                         r.single_wait, r.open_melds)
    return view(*(getattr(r, f) for f in view._fields))


def test_every_predicate_names_a_view_and_reads_only_it():
    assert {y.view for y in YAKU.values()} <= set(VIEWS) | {Reading}
    for h in HANDS:
        for r in readings(h.hand, h.win_tile, h.melds, h.context()):
            for y in YAKU.values():
                if r.shape in y.shapes and y.view is not Reading:
                    assert int(y.predicate(_view_of(y.view, r))) == int(y.predicate(r)), y.id


@pytest.mark.parametrize("cold", [True, False])
def test_memoised_holding_is_the_plain_holding(cold: bool):
    if cold:
        clear_caches()
    for h in HANDS:
        for r in readings(h.hand, h.win_tile, h.melds, h.context()):
            mask, multi = tiers.holding(r)
            times = dict(multi)
            got = {y: times.get(i, 1) for i, y in enumerate(YAKU) if mask >> i & 1}
            assert got == holding_yaku(r), h.kwargs()


def test_tables_hold_what_the_predicates_say():
    for tier in tiers._TIERS:
        for key, (mask, multi) in list(tier.table.items())[::7]:
            view = tier.kind._make(key) if tier.kind is not Situation else None
            if view is None:
                continue
            want = sum(bit for bit, _, p in tier.members[view.shape] if p(view))
            assert mask == want, (tier.kind.__name__, key)
    assert {t.kind.__name__: bool(t.table) for t in tiers._TIERS} == {
        "Suits": True, "Tiles": False, "Situation": False, "Chows": True, "Pungs": True,
        "PungsAndPair": True}


def test_score_is_the_best_reading_of_the_plain_definition():
    for h in HANDS:
        r = score(h.hand, h.win_tile, h.melds, h.context())
        totals = [sum(counted(holding_yaku(x)).values())
                  for x in readings(h.hand, h.win_tile, h.melds, h.context())]
        assert r.points == max(totals), h.kwargs()
        assert r.yaku == counted(holding_yaku(r.reading))


def test_a_predicate_without_a_view_annotation_is_refused():
    with pytest.raises(ValueError, match="annotated"):
        yaku("x", "x", "x", 1, S)(lambda r: True)

    def reads_counts(r: Situation) -> bool:
        return r.counts[0] > 0          # not in its view

    y = yaku("x", "x", "x", 1, S)(reads_counts)
    assert isinstance(y, Yaku) and y.view is Situation
    probe = _view_of(Situation, readings(*_some_win())[0])
    with pytest.raises(AttributeError):
        y.predicate(probe)


def _some_win():
    h = HANDS[0]
    return h.hand, h.win_tile, h.melds, h.context()
