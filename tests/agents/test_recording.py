"""The decision fixtures record deterministically: played again by the same code, their hands
come out the same, so a re-record after a change shows only what the change changed."""

import pytest

from tests import scale
from tests.agents import tuned_fixture
from tests.agents.recording import Table, record_tables


def test_the_first_hands_record_again_as_stored():
    first = tuned_fixture.TABLES[0]
    again = record_tables([Table(first.specs, scale.n(3, 30))], 8_000_000)
    assert again == tuned_fixture.load()[:len(again)]


@pytest.mark.skipif(not scale.FULL, reason="records the whole fixture (about two minutes)")
def test_recording_the_tuned_fixture_again_writes_the_same_bytes(tmp_path):
    out = tmp_path / tuned_fixture.PATH.name
    tuned_fixture.save(tuned_fixture.record(), out)
    assert out.read_bytes() == tuned_fixture.PATH.read_bytes()
