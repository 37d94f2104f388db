"""偶然胡牌型 chance (RULES.md §8): each is one of the ``WinContext`` flags.

The flags' consistency (岭上开花 needs tsumo and a kan, …) is checked before scoring.
"""

from __future__ import annotations

from mjenv.scoring.views import Situation
from mjenv.scoring.yaku.base import ANY, Yaku


def _flag(id: str, name_zh: str, name_en: str, points: int, definition: str,
          excludes: tuple[str, ...] = ()) -> Yaku:
    """The yaku that holds exactly when the ``WinContext`` flag named ``id`` is set."""
    def predicate(r: Situation) -> bool:
        return getattr(r.ctx, id)

    predicate.__name__ = predicate.__qualname__ = id
    predicate.__doc__ = definition
    return Yaku(id, name_zh, name_en, points, ANY, frozenset(excludes), predicate)


YAKU = (
    _flag("lingshang", "岭上开花", "After a Kong", 6, "Self-draw on a kan replacement tile.",
          ("zimo",)),
    _flag("haidi", "海底捞月", "Last Tile Draw", 6, "Self-draw on a wall draw that empties "
          "the live wall (a kan replacement draw never is).", ("zimo",)),
    _flag("hedi", "河底捞鱼", "Last Tile Claim", 6,
          "Ron on a discard made when the live wall is empty."),
    _flag("qianggang", "抢杠", "Robbing the Kong", 6, "Ron on a tile being added to a pung.",
          ("juezhang",)),
    _flag("juezhang", "绝张", "Last Tile", 2, "The winning tile is the last of its kind: the "
          "other three are visible on the table (discards and melds, the winner's own melds "
          "included), none in the winner's concealed hand."),
    _flag("renhu", "人胡", "Blessing of Man", 20, "Ron before the winner's first draw, with no "
          "call (chi, pon, any kan) by anyone before.", ("menqing",)),
    _flag("dihu", "地胡", "Blessing of Earth", 40, "A non-dealer's self-draw on its first "
          "live-wall draw, with no call (chi, pon, any kan) by anyone before.",
          ("buqiuren", "menqing", "zimo")),
    _flag("tianhu", "天胡", "Blessing of Heaven", 40, "The dealer's first 14 tiles (13 dealt + "
          "first draw) win, declared before any concealed kan.", ("buqiuren", "menqing", "zimo")),
)
