"""One deal of 海森林 mahjong as a state machine (RULES.md §2–§6).

The engine is driven by decisions only: ``to_act`` names the seats that must decide,
``legal_actions(seat)`` lists what each may do, and ``step(seat, action)`` applies one choice.
Everything else — draws, replacement draws, the kan shift, claim resolution, scoring and
settlement — happens inside ``step``, so no caller can drive the hand into a state the
rulebook does not allow: an action outside ``legal_actions`` raises
:class:`IllegalActionError` before anything changes.

Phases:

- ``turn``: one seat holds 14 tiles (kans counted as 3) and may discard, declare tsumo,
  concealed kan or added kan (only discard right after chi/pon);
- ``claim``: a discard is on the table; every seat with a legal claim (ron, pon, open kan, chi)
  is asked, answers are collected from all of them before anything resolves (nobody sees
  another's choice), then ron > pon/kan > chi;
- ``rob``: an added kan is declared; seats that can ron the added tile are asked the same way.

Hot path: each seat's wait set is recomputed only when its concealed tiles or melds change
while it holds 13; the scorer runs only when a discard, draw or added kan hits a wait, to
check that the win reaches ``min_points``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import compress, repeat
from operator import is_
from typing import Mapping, Sequence

from mjenv.analysis.waits import held_counts, held_wait_kinds
from mjenv.game.actions import Action
from mjenv.game.view import PlayerView, PondTile
from mjenv.game.wall import WALL_SIZE, Wall, parse_wall, shuffled_wall, wall_to_strings
from mjenv.rules import RuleConfig
from mjenv.scoring import ScoreResult, WinContext, score
from mjenv.scoring.settle import settle_ron, settle_tsumo
from mjenv.tiles import TILE_NAMES, Meld, parse_wind, tile_name

TURN, CLAIM, ROB = "turn", "claim", "rob"

PASS = Action("pass")
RON = Action("ron")
TSUMO = Action("tsumo")
PON = Action("pon")
MINKAN = Action("minkan")
_DISCARD = tuple(Action("discard", t) for t in range(34))
_ANKAN = tuple(Action("ankan", t) for t in range(34))
_KAKAN = tuple(Action("kakan", t) for t in range(34))
_CHI = {t: Action("chi", t) for t in range(27) if t % 9 <= 6}
# The log texts of the actions above (the only ones legal_actions hands out), by object id:
# they live as long as the module, so no other object can share an id with one of them.
_TEXT = {id(a): str(a) for a in (PASS, RON, TSUMO, PON, MINKAN, *_DISCARD, *_ANKAN, *_KAKAN,
                                 *_CHI.values())}


class IllegalActionError(ValueError):
    """An action that ``legal_actions`` does not offer; the hand is left untouched."""


@dataclass(frozen=True)
class HandResult:
    """How a hand ended.

    kind: ``"ron"``, ``"tsumo"`` or ``"draw"`` (exhaustive draw). winners: ascending seats.
    discarder: the seat that dealt in (the kan's declarer for a robbed kan), else ``None``.
    deltas: score change of seats 0–3 (zero-sum). scores: each winner's :class:`ScoreResult`.
    win_tile: the winning tile (``None`` for a draw). robbed: the win robbed an added kan.
    """

    kind: str
    winners: tuple[int, ...]
    discarder: int | None
    deltas: tuple[int, int, int, int]
    scores: Mapping[int, ScoreResult]
    win_tile: int | None = None
    robbed: bool = False


def _seat(name: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise ValueError(f"{name} must be a seat 0–3, got {value!r}")
    return value


@lru_cache(maxsize=1 << 16)
def _suit_held(key: bytes, base: int) -> tuple[int, ...]:
    return tuple(base + r for r, n in enumerate(key) for _ in range(n))


def _held(counts: Sequence[int]) -> tuple[int, ...]:
    """The tiles of 34 counts in tile order, suit by suit from a cache (suit patterns recur)."""
    key = bytes(counts)
    return (_suit_held(key[:9], 0) + _suit_held(key[9:18], 9) + _suit_held(key[18:27], 18)
            + _suit_held(key[27:], 27))


def _win_event(kind: str, result: HandResult) -> dict:
    return {
        "type": "win", "kind": kind, "tile": tile_name(result.win_tile),
        "discarder": result.discarder, "robbed": result.robbed,
        "wins": [{"seat": s, "points": r.points, "shape": r.shape, "yaku": dict(r.yaku)}
                 for s, r in sorted(result.scores.items())],
        "deltas": list(result.deltas),
    }


class Hand:
    """One deal, from the deal to a win or an exhaustive draw.

    ``wall``: an explicit wall (RULES.md §2 order; 136 tile ints or strings), else the wall is
    shuffled from ``seed`` (a fresh random seed when both are ``None``; it is recorded in the
    log so the hand stays reproducible). ``dealer``, ``round_wind`` (0–3 or ``"E"``…),
    ``repeat`` (n of the dealer bonus ``D = 1 + n``) and ``scores`` (before the hand) make any
    hand of a match scriptable.
    """

    def __init__(self, rules: RuleConfig = RuleConfig(), *, wall: Sequence[int | str] | str | None = None,
                 seed: int | None = None, dealer: int = 0, round_wind: int | str = 0,
                 repeat: int = 0, scores: Sequence[int] = (0, 0, 0, 0)) -> None:
        if not isinstance(rules, RuleConfig):
            raise ValueError(f"rules must be a RuleConfig, got {type(rules).__name__}")
        _seat("dealer", dealer)
        rw = parse_wind(round_wind)
        if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 0:
            raise ValueError(f"repeat must be an int >= 0, got {repeat!r}")
        sc = tuple(scores)
        if len(sc) != 4 or any(isinstance(x, bool) or not isinstance(x, int) for x in sc):
            raise ValueError(f"scores must be four ints, got {scores!r}")
        if wall is not None:
            tiles = parse_wall(wall)
            if seed is not None and tiles != shuffled_wall(seed):   # replaying a seeded log
                raise ValueError(f"the wall is not the wall of seed {seed}: give one of them")
        else:
            if seed is None:
                seed = secrets.randbits(64)
            tiles = shuffled_wall(seed)

        self.rules = rules
        self.seed = seed
        self.dealer = dealer
        self.round_wind = rw
        self.repeat = repeat
        self.scores_before: tuple[int, int, int, int] = sc  # type: ignore[assignment]
        self.result: HandResult | None = None
        self.log: list[dict] = []

        self._wall = Wall(tiles)
        self._counts = [[0] * 34 for _ in range(4)]
        self._melds: list[list[Meld]] = [[], [], [], []]
        self._ponds: list[list[PondTile]] = [[], [], [], []]
        self._visible = [0] * 34            # tiles face-up: uncalled discards + all meld tiles
        self._waits: list[frozenset[int]] = [frozenset()] * 4
        self._furiten = [False] * 4
        self._live_draws = [0] * 4          # live-wall draws per seat (人胡/地胡/天胡)
        self._calls = 0                     # chi, pon and kans so far (人胡/地胡)
        self._phase = TURN
        self._turn_seat = dealer
        self._drawn: int | None = None      # tile drawn this turn; None after chi/pon
        self._kan_draw = False              # ... and it came from the dead wall
        self._tsumo: ScoreResult | None = None
        self._target: int | None = None     # discard / added-kan tile under claim
        self._target_from: int | None = None
        self._rons: dict[int, ScoreResult] = {}
        self._answers: dict[int, Action] = {}
        self._legal: dict[int, tuple[Action, ...]] = {}

        self.log.append({
            "type": "deal", "rules": rules.to_dict(), "seed": seed, "dealer": dealer,
            "round_wind": rw, "repeat": repeat, "scores": list(sc),
            "wall": wall_to_strings(tiles),
        })
        for offset in range(4):
            seat = (dealer + offset) % 4
            c = self._counts[seat]
            for t in self._wall.deal(offset):
                c[t] += 1
            self._update_waits(seat)
        self._begin_turn(dealer, replacement=False)

    # ---- public read-only state ----------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def phase(self) -> str:
        """``"turn"``, ``"claim"`` or ``"rob"`` (when over: the phase the hand ended in)."""
        return self._phase

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats that still must decide (ascending); ``()`` once the hand is over."""
        return tuple(sorted(self._legal))

    @property
    def live_wall_left(self) -> int:
        return self._wall.live_left

    @property
    def wall(self) -> tuple[int, ...]:
        """The full wall in RULES.md §2 order (hidden information: for logs and tests)."""
        return self._wall.tiles

    def live_tiles(self) -> tuple[int, ...]:
        """The live wall's tiles not yet drawn, in draw order (hidden information: for the
        oracle critic of ``mjenv.env.oracle`` and tests)."""
        return self._wall.live_tiles()

    def dead_tiles(self) -> tuple[int, ...]:
        """The dead wall, front (the next kan replacement) first (hidden information)."""
        return self._wall.dead_tiles()

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """The seat's legal actions, ``()`` when it is not to act.

        Order (that of the environment's action ids): own turn — discards, concealed kans,
        added kans (each by tile), tsumo; claim — ron, chi with the claimed tile lowest /
        middle / highest, pon, open kan, pass.
        """
        return self._legal.get(seat, ())

    def concealed(self, seat: int) -> tuple[int, ...]:
        return _held(self._counts[_seat("seat", seat)])

    def melds(self, seat: int) -> tuple[Meld, ...]:
        return tuple(self._melds[_seat("seat", seat)])

    def pond(self, seat: int) -> tuple[PondTile, ...]:
        return tuple(self._ponds[_seat("seat", seat)])

    def furiten(self, seat: int) -> bool:
        """Same-turn furiten (RULES.md §4): the seat may not ron until its next turn begins."""
        return self._furiten[_seat("seat", seat)]

    def waits(self, seat: int) -> frozenset[int]:
        """The seat's wait kinds as of its last 13-tile state (RULES.md §7)."""
        return self._waits[_seat("seat", seat)]

    def seat_wind(self, seat: int) -> int:
        return (seat - self.dealer) % 4

    def view(self, seat: int) -> PlayerView:
        """Exactly what ``seat`` may see now (its own drawn tile, never another's)."""
        _seat("seat", seat)
        own = self._counts[seat]
        if self._phase == TURN:
            target = self._drawn if seat == self._turn_seat else None
            target_from = self._turn_seat
        else:
            target, target_from = self._target, self._target_from
        return PlayerView.trusted({
            "seat": seat,
            "hand": _held(own),
            "melds": tuple(map(tuple, self._melds)),
            "ponds": tuple(map(tuple, self._ponds)),
            "unseen": tuple([4 - v - o for v, o in zip(self._visible, own)]),
            "dealer": self.dealer,
            "round_wind": self.round_wind,
            "seat_wind": (seat - self.dealer) % 4,
            "repeat": self.repeat,
            "live_wall_left": self._wall.live_left,
            "scores": self.scores_before,
            "furiten": self._furiten[seat],
            "phase": self._phase,
            "target_tile": target,
            "target_from": target_from,
            "legal": self._legal.get(seat, ()),
            "rules": self.rules,
            "kan_draw": self._phase == TURN and seat == self._turn_seat and self._kan_draw,
        })

    @property
    def scores_after(self) -> tuple[int, int, int, int]:
        """Scores after the hand (``scores_before`` while it is running)."""
        if self.result is None:
            return self.scores_before
        return tuple(a + b for a, b in zip(self.scores_before, self.result.deltas))  # type: ignore[return-value]

    # ---- decisions ---------------------------------------------------------------------

    def step(self, seat: int, action: Action | str) -> None:
        """Apply one decision of ``seat``. Raises :class:`IllegalActionError` (state untouched)
        if the hand is over, the seat is not to act, or ``action`` is not in its legal set."""
        if isinstance(action, str):
            action = Action.parse(action)
        legal = self._legal.get(seat)
        # identity first (the env passes the legal objects back): ``in`` alone calls the
        # dataclass __eq__ of every action before the match
        if legal is None or not (any(map(is_, legal, repeat(action))) or action in legal):
            self._reject(seat, action)
        if self._phase == TURN:
            self._turn_action(seat, action)
        else:
            self._answer(seat, action)

    def _reject(self, seat: object, action: Action) -> None:
        if self.result is not None:
            raise IllegalActionError(f"seat {seat}: {action} refused: the hand is over "
                                     f"({self.result.kind})")
        if seat not in self._legal:
            raise IllegalActionError(
                f"seat {seat}: {action} refused in phase {self._phase}: seat {seat} is not to "
                f"act (to act: {', '.join(map(str, self.to_act))})")
        raise IllegalActionError(
            f"seat {seat}: {action} is not legal in phase {self._phase}; legal: "
            + ", ".join(map(str, self._legal[seat])))

    def _decision_event(self, seat: int, action: Action, declined: bool) -> None:
        ev = {"type": "decide", "seat": seat, "action": _TEXT.get(id(action)) or str(action)}
        if declined:
            ev["declined_win"] = True
        self.log.append(ev)

    def _turn_action(self, seat: int, action: Action) -> None:
        kind = action.kind
        declined = self._tsumo is not None and kind != "tsumo"
        self._decision_event(seat, action, declined)
        if kind == "tsumo":
            self._finish_tsumo(seat)
            return
        if declined:                       # declining a self-drawn win (RULES.md §4)
            self._furiten[seat] = True
        self._tsumo = None
        t = action.tile
        c = self._counts[seat]
        if kind == "discard":
            c[t] -= 1
            made = sum(map(len, self._ponds))          # the hand's discards so far
            self._ponds[seat].append(PondTile(t, t == self._drawn, False, made))
            self._visible[t] += 1
            self._drawn, self._kan_draw = None, False
            self._update_waits(seat)
            self._open_claims(seat, t)
        elif kind == "ankan":
            c[t] -= 4
            meld = Meld("ankan", (t, t, t, t))
            self._melds[seat].append(meld)
            self._visible[t] += 4
            self._calls += 1
            self.log.append({"type": "kan", "seat": seat, "meld": str(meld)})
            self._update_waits(seat)
            self._begin_turn(seat, replacement=True)
        else:                              # kakan: robbing window first (RULES.md §3)
            c[t] -= 1
            self._visible[t] += 1
            self._drawn, self._kan_draw = None, False
            self._open_rob(seat, t)

    # ---- turns ---------------------------------------------------------------------------

    def _begin_turn(self, seat: int, replacement: bool) -> None:
        wall = self._wall
        t = wall.draw_replacement() if replacement else wall.draw(seat)
        if not replacement:
            self._live_draws[seat] += 1
            self._furiten[seat] = False    # the seat's next turn begins (RULES.md §4)
        self._counts[seat][t] += 1
        self._phase = TURN
        self._turn_seat = seat
        self._drawn = t
        self._kan_draw = replacement
        self._target = self._target_from = None
        self.log.append({"type": "draw", "seat": seat, "tile": TILE_NAMES[t], "dead": replacement})
        self._tsumo = self._tsumo_result(seat, t, replacement)
        self._legal = {seat: self._turn_legal(seat, can_kan=wall.live_left > 0)}

    def _tsumo_result(self, seat: int, t: int, replacement: bool) -> ScoreResult | None:
        """The seat's self-drawn win on ``t``, just drawn (a replacement after a kan or not),
        if legal: on a wait and reaching min_points."""
        if t not in self._waits[seat]:
            return None
        first = not replacement and self._live_draws[seat] == 1 and self._calls == 0
        ctx = WinContext(
            tsumo=True, seat_wind=(seat - self.dealer) % 4, round_wind=self.round_wind,
            lingshang=replacement, haidi=not replacement and self._wall.live_left == 0,
            juezhang=self._visible[t] == 3,
            tianhu=first and seat == self.dealer, dihu=first and seat != self.dealer)
        c = self._counts[seat]
        c[t] -= 1
        hand = _held(c)
        c[t] += 1
        result = score(hand, t, tuple(self._melds[seat]), ctx)
        return result if result.points >= self.rules.min_points else None

    def _turn_legal(self, seat: int, can_kan: bool) -> tuple[Action, ...]:
        c = self._counts[seat]
        acts = list(compress(_DISCARD, c))
        if can_kan:
            if 4 in c:
                acts.extend([_ANKAN[t] for t in range(34) if c[t] == 4])
            melds = self._melds[seat]
            if melds:
                pons = sorted(m.first for m in melds if m.kind == "pon" and c[m.first])
                acts.extend(_KAKAN[t] for t in pons)
        if self._tsumo is not None:
            acts.append(TSUMO)
        return tuple(acts)

    def _update_waits(self, seat: int) -> None:
        # wait_kinds without its input checks: the engine's 13-tile hands are valid by
        # construction (check_invariants says so in the tests)
        key = bytes(self._counts[seat])
        melds = self._melds[seat]
        self._waits[seat] = frozenset(held_wait_kinds(key, held_counts(key, melds), len(melds)))

    # ---- claims --------------------------------------------------------------------------

    def _ron_result(self, seat: int, t: int, *, hedi: bool = False,
                    qianggang: bool = False) -> ScoreResult | None:
        """The seat's ron on ``t`` if legal: on a wait, not furiten, and reaching min_points."""
        if t not in self._waits[seat] or self._furiten[seat]:
            return None
        ctx = WinContext(
            tsumo=False, seat_wind=(seat - self.dealer) % 4, round_wind=self.round_wind,
            hedi=hedi, qianggang=qianggang, juezhang=self._visible[t] == 4,
            renhu=self._live_draws[seat] == 0 and self._calls == 0)
        result = score(_held(self._counts[seat]), t, tuple(self._melds[seat]), ctx)
        return result if result.points >= self.rules.min_points else None

    def _open_claims(self, discarder: int, t: int) -> None:
        legal, rons = self._claim_options(discarder, t)
        self._target, self._target_from = t, discarder
        if not legal:
            self._no_claim(discarder)
            return
        self._phase = CLAIM
        self._rons = rons
        self._answers = {}
        self._legal = legal
        self.log.append({"type": "claim_window", "tile": tile_name(t), "from": discarder,
                         "asked": sorted(legal)})

    def _claim_options(self, discarder: int, t: int
                       ) -> tuple[dict[int, tuple[Action, ...]], dict[int, ScoreResult]]:
        """Who may claim discard ``t`` and how (the seats' legal answers), and the rons."""
        final = self._wall.live_left == 0   # the final discard may only be ronned (§3)
        legal: dict[int, tuple[Action, ...]] = {}
        rons: dict[int, ScoreResult] = {}
        for k in (1, 2, 3):
            s = (discarder + k) % 4
            acts: list[Action] = []
            if t in self._waits[s]:
                r = self._ron_result(s, t, hedi=final)
                if r is not None:
                    rons[s] = r
                    acts.append(RON)
            if not final:
                c = self._counts[s]
                if k == 1 and t < 27:
                    r9 = t % 9                     # chow with the claimed tile lowest, middle, highest
                    if r9 <= 6 and c[t + 1] and c[t + 2]:
                        acts.append(_CHI[t])
                    if 1 <= r9 <= 7 and c[t - 1] and c[t + 1]:
                        acts.append(_CHI[t - 1])
                    if r9 >= 2 and c[t - 2] and c[t - 1]:
                        acts.append(_CHI[t - 2])
                if c[t] >= 2:
                    acts.append(PON)
                    if c[t] >= 3:
                        acts.append(MINKAN)
            if acts:
                acts.append(PASS)
                legal[s] = tuple(acts)
        return legal, rons

    def _open_rob(self, declarer: int, t: int) -> None:
        legal, rons = self._rob_options(declarer, t)
        self._target, self._target_from = t, declarer
        if not legal:
            self._complete_kakan(declarer, t)
            return
        self._phase = ROB
        self._rons = rons
        self._answers = {}
        self._legal = legal
        self.log.append({"type": "rob_window", "tile": tile_name(t), "from": declarer,
                         "asked": sorted(legal)})

    def _rob_options(self, declarer: int, t: int
                     ) -> tuple[dict[int, tuple[Action, ...]], dict[int, ScoreResult]]:
        """Who may rob the kan ``t`` being added (ron or pass), and the rons."""
        legal: dict[int, tuple[Action, ...]] = {}
        rons: dict[int, ScoreResult] = {}
        for k in (1, 2, 3):
            s = (declarer + k) % 4
            r = self._ron_result(s, t, qianggang=True)
            if r is not None:
                rons[s] = r
                legal[s] = (RON, PASS)
        return legal, rons

    def _answer(self, seat: int, action: Action) -> None:
        declined = seat in self._rons and action.kind != "ron"
        self._decision_event(seat, action, declined)
        if declined:                       # passing a legal win, or claiming instead (§4)
            self._furiten[seat] = True
        self._answers[seat] = action
        del self._legal[seat]
        if not self._legal:
            self._resolve()

    def _resolve(self) -> None:
        t, source = self._target, self._target_from
        answers = self._answers
        winners = sorted(s for s, a in answers.items() if a.kind == "ron")
        if winners:
            self._finish_ron(winners, source, t, robbed=self._phase == ROB)
            return
        if self._phase == ROB:
            self._complete_kakan(source, t)
            return
        claim = next(((s, a) for s, a in answers.items() if a.kind in ("pon", "minkan")), None)
        if claim is None:
            claim = next(((s, a) for s, a in answers.items() if a.kind == "chi"), None)
        if claim is None:
            self._no_claim(source)
            return
        seat, action = claim
        c = self._counts[seat]
        if action.kind == "chi":
            low = action.tile
            used = [x for x in (low, low + 1, low + 2) if x != t]
            meld = Meld("chi", (low, low + 1, low + 2), called=t, from_seat=source)
        else:
            n = 2 if action.kind == "pon" else 3
            used = [t] * n
            meld = Meld(action.kind, (t,) * (n + 1), called=t, from_seat=source)
        for x in used:
            c[x] -= 1
            self._visible[x] += 1
        pond = self._ponds[source]
        pond[-1] = replace(pond[-1], called=True)
        self._melds[seat].append(meld)
        self._calls += 1
        self._furiten[seat] = False        # a claim of its went through (§4)
        self.log.append({"type": "call", "seat": seat, "meld": str(meld), "from": source})
        self._rons = {}
        self._answers = {}
        if action.kind == "minkan":
            self._update_waits(seat)
            self._begin_turn(seat, replacement=True)
            return
        self._phase = TURN                 # after chi/pon: discard only (§3)
        self._turn_seat = seat
        self._drawn = None
        self._kan_draw = False
        self._tsumo = None
        self._target = self._target_from = None
        self._legal = {seat: self._turn_legal(seat, can_kan=False)}

    def _no_claim(self, discarder: int) -> None:
        self._rons = {}
        self._answers = {}
        if self._wall.live_left == 0:
            self._finish_draw()
        else:
            self._begin_turn((discarder + 1) % 4, replacement=False)

    def _complete_kakan(self, seat: int, t: int) -> None:
        melds = self._melds[seat]
        i = next(i for i, m in enumerate(melds) if m.kind == "pon" and m.first == t)
        melds[i] = Meld("kakan", (t, t, t, t))
        self._calls += 1
        self._rons = {}
        self._answers = {}
        self.log.append({"type": "kan", "seat": seat, "meld": str(melds[i])})
        self._update_waits(seat)
        self._begin_turn(seat, replacement=True)

    # ---- endings -------------------------------------------------------------------------

    def _finish(self, result: HandResult, event: dict) -> None:
        self.result = result
        self._legal = {}
        self.log.append(event)
        self.log.append({"type": "end", "kind": result.kind, "deltas": list(result.deltas),
                         "scores": list(self.scores_after)})

    def _finish_tsumo(self, seat: int) -> None:
        r = self._tsumo
        deltas = settle_tsumo(seat, r.points, self.dealer, self.repeat)
        result = HandResult("tsumo", (seat,), None, deltas, {seat: r}, self._drawn)
        self._finish(result, _win_event("tsumo", result))

    def _finish_ron(self, winners: list[int], discarder: int, t: int, robbed: bool) -> None:
        scores = {s: self._rons[s] for s in winners}
        deltas = settle_ron({s: r.points for s, r in scores.items()}, discarder,
                            self.dealer, self.repeat)
        result = HandResult("ron", tuple(winners), discarder, deltas, scores, t, robbed)
        self._finish(result, _win_event("ron", result))

    def _finish_draw(self) -> None:
        result = HandResult("draw", (), None, (0, 0, 0, 0), {})
        self._finish(result, {"type": "exhaustive_draw"})

    # ---- invariants (tests, soak) ---------------------------------------------------------

    def __repr__(self) -> str:
        state = f"over={self.result.kind}" if self.result else f"to_act={self.to_act}"
        return (f"Hand(phase={self._phase}, {state}, live_wall_left={self._wall.live_left}, "
                f"dealer={self.dealer}, round_wind={self.round_wind}, repeat={self.repeat})")

    def check_invariants(self) -> None:
        """Raise ``RuntimeError`` if the state breaks an invariant: all 136 tiles accounted
        for exactly once, tile counts per seat (14 on turn, 13 otherwise, kans as 3), every
        deciding seat with a legal action, and a zero-sum result."""
        total = [0] * 34
        for s in range(4):
            c = self._counts[s]
            n = sum(c)
            for m in self._melds[s]:
                for x in m.tiles:
                    total[x] += 1
                n += 3
            for k in range(34):
                if c[k] < 0 or c[k] > 4:
                    raise RuntimeError(f"seat {s} holds {c[k]} × {tile_name(k)}")
                total[k] += c[k]
            for p in self._ponds[s]:
                if not p.called:
                    total[p.tile] += 1
            on_turn = self._phase == TURN and s == self._turn_seat and self.result is None
            if self.result is None and n != (14 if on_turn else 13):
                raise RuntimeError(f"seat {s} holds {n} tiles (kans as 3) in phase {self._phase}")
        for x in self._wall.live_tiles():
            total[x] += 1
        for x in self._wall.dead_tiles():
            total[x] += 1
        if self._phase == ROB or (self.result is not None and self.result.robbed):
            total[self._target] += 1       # the added tile: out of the hand, not in a meld
        if sum(total) != WALL_SIZE or any(v != 4 for v in total):
            bad = {tile_name(k): v for k, v in enumerate(total) if v != 4}
            raise RuntimeError(f"tiles not accounted for: {sum(total)} in all, off kinds {bad}")
        if len(self._wall.dead_tiles()) != 14:
            raise RuntimeError("dead wall is not 14 tiles")
        for s, legal in self._legal.items():
            if not legal:
                raise RuntimeError(f"seat {s} is to act with no legal action")
        if self.result is None and not self._legal:
            raise RuntimeError("hand not over but nobody is to act")
        if self.result is not None and sum(self.result.deltas) != 0:
            raise RuntimeError(f"deltas {self.result.deltas} are not zero-sum")
