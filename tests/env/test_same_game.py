"""The engine's fast paths leave the game as it was: hands played by a fixed-seed eager agent
(every call, kan and win taken half of the time) produce the same event logs and the same
views of every seat at every decision as the engine before them (digests recorded at commit
56276e6, before the speed work of issue 37)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import FrozenInstanceError, fields

import pytest

from mjenv.game import PlayerView

from tests.env.test_encoder_reference import eager_states

HANDS = 120
LOG_DIGEST = "a9581994079e957e9f90a9fcec9ef9dd3265061cf552ea6b070f7b536c89ce92"
VIEW_DIGEST = "779903bfd193ee81f5fb5e22d5c20e0e363243566048c2c174d3b691bbc04f6f"


def _as_recorded(view: PlayerView) -> dict:
    """The view's ``to_dict`` as the digest was recorded: without the pond tiles' ``order``,
    added since (``tests/game/test_hand.py`` checks it against the log)."""
    data = view.to_dict()
    data["ponds"] = [[{k: v for k, v in p.items() if k != "order"} for p in pond]
                     for pond in data["ponds"]]
    return data


def _digests() -> tuple[str, str]:
    logs = hashlib.sha256()
    views = hashlib.sha256()
    last = None
    for hand, _ in eager_states(7, HANDS):
        if last is not None and hand is not last:
            logs.update(json.dumps(last.log, sort_keys=True).encode())
        last = hand
        for seat in range(4):
            views.update(json.dumps(_as_recorded(hand.view(seat)), sort_keys=True).encode())
    logs.update(json.dumps(last.log, sort_keys=True).encode())
    return logs.hexdigest(), views.hexdigest()


def test_logs_and_views_are_those_of_the_engine_before_the_fast_paths():
    assert _digests() == (LOG_DIGEST, VIEW_DIGEST)


def test_engine_views_equal_constructed_views():
    """``PlayerView.trusted`` (the engine's constructor) makes exactly the dataclass's fields:
    equal, same hash, same field set as ``PlayerView(**fields)``."""
    names = [f.name for f in fields(PlayerView)]
    for hand, seat in eager_states(3, 5):
        for s in range(4):
            view = hand.view(s)
            assert list(vars(view)) == names
            built = PlayerView(**{name: getattr(view, name) for name in names})
            assert view == built and hash(view) == hash(built) and repr(view) == repr(built)
    with pytest.raises(FrozenInstanceError):
        view.seat = 0
