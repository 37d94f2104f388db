"""How a hand was won: the situation flags of RULES.md §8 and the winds (``WinContext``)."""

from __future__ import annotations

from dataclasses import dataclass, field


FLAG_NAMES = ("tsumo", "lingshang", "haidi", "hedi", "qianggang", "juezhang", "tianhu", "dihu",
              "renhu")


@dataclass(frozen=True)
class WinContext:
    """How the hand was won: RULES.md §8 situation flags plus the winds (ints 0–3, E S W N).

    Flags that contradict each other on their own raise ``ValueError`` here (issue 2's list);
    the conflicts that also need the tiles are checked by ``score``.
    """

    tsumo: bool = False
    seat_wind: int = 0
    round_wind: int = 0
    lingshang: bool = False
    haidi: bool = False
    hedi: bool = False
    qianggang: bool = False
    juezhang: bool = False
    tianhu: bool = False
    dihu: bool = False
    renhu: bool = False
    # The nine flags as bits of one int, bit i for the i-th of ``FLAG_NAMES`` (tsumo 1, …
    # renhu 256), derived: a cheap key for the scorer's memo of the situation's yaku.
    flags: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("seat_wind", "round_wind"):
            v = getattr(self, name)
            if type(v) is not int or not 0 <= v <= 3:
                raise ValueError(f"{name} must be 0–3 (E S W N), got {v!r}")
        if (self.lingshang or self.haidi or self.hedi or self.qianggang or self.tianhu
                or self.dihu or self.renhu):
            self._check_flags()
        object.__setattr__(self, "flags", sum(1 << i for i, name in enumerate(FLAG_NAMES)
                                              if getattr(self, name)))

    def _check_flags(self) -> None:
        """Issue 2's list of contradictions among the flags alone."""
        on = {n for n in ("lingshang", "haidi", "hedi", "qianggang", "tianhu", "dihu", "renhu")
              if getattr(self, n)}
        if self.tsumo:
            for name in ("hedi", "qianggang", "renhu"):
                if name in on:
                    raise ValueError(f"{name} is a win on a discard: it cannot be combined "
                                     f"with tsumo")
        else:
            for name in ("haidi", "lingshang", "tianhu", "dihu"):
                if name in on:
                    raise ValueError(f"{name} is a self-drawn win: it needs tsumo")
        if {"hedi", "qianggang"} <= on:
            raise ValueError("hedi and qianggang conflict: a robbed kan is not a discard")
        if {"lingshang", "haidi"} <= on:
            raise ValueError("lingshang and haidi conflict: a kan replacement is never the "
                             "last live-wall draw")
        heaven = [n for n in ("tianhu", "dihu", "renhu") if n in on]
        if len(heaven) > 1:
            raise ValueError(f"{' and '.join(heaven)} conflict: at most one of tianhu, dihu, "
                             f"renhu")
        if heaven:
            others = [n for n in ("lingshang", "haidi", "hedi", "qianggang") if n in on]
            if others:
                raise ValueError(f"{heaven[0]} conflicts with {', '.join(others)}: it is a "
                                 f"first-turn win")
            if self.tianhu and self.seat_wind != 0:
                raise ValueError("tianhu needs the East seat (the dealer)")
            if not self.tianhu and self.seat_wind == 0:
                raise ValueError(f"{heaven[0]} is a non-dealer's win: not on the East seat")
