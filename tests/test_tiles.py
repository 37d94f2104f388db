import pytest

from mjenv.game.actions import Action
from mjenv.rules import RuleConfig
from mjenv.tiles import (Meld, TILE_NAMES, TILE_UNICODE, counts34, parse_meld, parse_melds,
                         parse_tile, parse_tiles, parse_wind, tile_name, tiles_to_str)


def test_index_order_matches_rulebook():
    assert TILE_NAMES[0] == "1m" and TILE_NAMES[8] == "9m"
    assert TILE_NAMES[9] == "1p" and TILE_NAMES[18] == "1s"
    assert TILE_NAMES[27:] == ("1z", "2z", "3z", "4z", "5z", "6z", "7z")
    assert len(set(TILE_UNICODE)) == 34


@pytest.mark.parametrize("text", ["123m456p789s1122z", "1z", "19m19p19s1234567z"])
def test_round_trip(text):
    tiles = parse_tiles(text)
    assert tiles_to_str(tiles) == tiles_to_str(parse_tiles(tiles_to_str(tiles)))
    assert sorted(parse_tiles(tiles_to_str(tiles))) == sorted(tiles)


def test_every_tile_round_trips():
    for i, name in enumerate(TILE_NAMES):
        assert parse_tile(name) == i and tile_name(i) == name


def test_order_written_is_kept_and_counts():
    assert parse_tiles("5s1m") == [22, 0]
    assert counts34(parse_tiles("111m"))[0] == 3


@pytest.mark.parametrize("bad, part", [
    ("8z", '"8z" is not a tile: honors are 1z–7z'),
    ("0m", '"0m" is not a tile'),
    ("123x", "unknown suit 'x'"),
    ("123", "'123'"),
    ("m123", "'m123' in"),
    ("12m3", "'3'"),
])
def test_bad_notation_names_the_part(bad, part):
    with pytest.raises(ValueError) as e:
        parse_tiles(bad)
    assert part in str(e.value)


def test_parse_tile_single():
    with pytest.raises(ValueError, match="single tile"):
        parse_tile("12m")
    with pytest.raises(ValueError):
        tile_name(34)


@pytest.mark.parametrize("text, kind, kong", [
    ("chi:234s", "chi", False), ("pon:777z", "pon", False), ("minkan:5555m", "minkan", True),
    ("kakan:5555m", "kakan", True), ("ankan:9999p", "ankan", True),
])
def test_meld_notation(text, kind, kong):
    m = parse_meld(text)
    assert m.kind == kind and m.is_kong == kong and str(m) == text
    assert m.is_open == (kind != "ankan")


@pytest.mark.parametrize("bad, msg", [
    ("chi:246s", "not a chow"), ("chi:123z", "not a chow"), ("pon:667z", "3 identical"),
    ("ankan:999p", "4 identical"), ("peng:777z", "not a meld kind"), ("777z", "kind:tiles"),
    ("pon:7z7", "not mpsz"),
])
def test_bad_melds(bad, msg):
    with pytest.raises(ValueError, match=msg):
        parse_meld(bad)


def test_parse_melds_forms():
    assert parse_melds("pon:777z,chi:234s") == (parse_meld("pon:777z"), parse_meld("chi:234s"))
    assert parse_melds(None) == () and parse_melds("") == ()
    assert parse_melds([Meld("pon", (0, 0, 0))])[0].first == 0


def test_winds():
    assert [parse_wind(w) for w in "ESWN"] == [0, 1, 2, 3]
    assert parse_wind("3z") == 2 and parse_wind(1) == 1
    with pytest.raises(ValueError, match="not a wind"):
        parse_wind("X")


@pytest.mark.parametrize("text", ["discard 5m", "tsumo", "ankan 9p", "kakan 1z", "ron", "pon",
                                  "minkan", "chi 345m", "pass"])
def test_action_text_round_trip(text):
    assert str(Action.parse(text)) == text


@pytest.mark.parametrize("bad, msg", [("chi 8m", "three tiles"), ("discard", "one tile"),
                                      ("pon 5m", "takes no tile"), ("fly", "not an action kind")])
def test_bad_actions(bad, msg):
    with pytest.raises(ValueError, match=msg):
        Action.parse(bad)
    with pytest.raises(ValueError, match="lowest tile"):
        Action("chi", 7)


def test_rule_config_validation_and_round_trip():
    assert RuleConfig().min_points == 6 and RuleConfig().rounds == 2
    assert RuleConfig.from_dict(RuleConfig(rounds=1).to_dict()) == RuleConfig(rounds=1)
    with pytest.raises(ValueError, match="rounds"):
        RuleConfig(rounds=5)
    with pytest.raises(ValueError, match="unknown RuleConfig option"):
        RuleConfig.from_dict({"min_point": 3})
