"""A match-3 session: deal, swap, score, reshuffle a dead board, undo, hints, save/load.

The same shape as :class:`tilelab.game2048.Game` and :class:`tilelab.sliding.Game`: ``play(move)``
returns a :class:`~tilelab.protocol.Turn` (``events`` is the engine's swap result, ``chance`` the
refills with their probabilities, ``reshuffle`` the new deal when the swap left the board dead),
``legal_moves()``, ``undo()`` to any depth (the random state too), ``hint()``, ``seed``/``rng``
and an exact ``to_json()``/``from_json()``.

The engine-level move is :func:`play` (``play(board, (a, b), rng=...)``): one swap on a plain or a
special board, by the rules that board's type plays; the game plays through the same rules objects.

The rules are an object passed to the game: :data:`PLAIN` (matches only) or :data:`WITH_SPECIALS`
(striped, wrapped and colour-bomb candies). Everything that differs between them -- the board
type, the swap, the legal moves, dead boards, reshuffles, the hint and the score table -- is a
method of the rules, so no caller ever asks "are specials on?".

>>> game = Game(4, 5, 3, rng=7)
>>> print(game.board)
12200
20220
00112
12212
>>> turn = game.play(((0, 0), (1, 0)))          # 1 2 2 -> 2 2 2 in row 0, then a long cascade
>>> bool(turn), turn.events.cascades, turn.score, game.score, game.moves_played
(True, 6, 2400, 2400, 1)
>>> len(turn.chance), turn.chance[0]              # each refilled candy, with its probability
(23, (((0, 0), 0), 0.3333333333333333))
>>> game.undo(), game.score, Game.from_json(game.to_json()).board == game.board
(True, 0, True)
"""

from __future__ import annotations

from itertools import islice
from typing import TYPE_CHECKING, Any, Iterable, NamedTuple, cast, overload

import numpy as np

from tilelab.inputs import short_repr
from tilelab.protocol import (
    SessionBase,
    Turn,
    check_saved_header,
    dump_json,
    generator_from_state,
    jsonable,
    rng_state_to_save,
    saved_field,
    saved_fields,
    saved_rng_state,
)
from tilelab.randomness import seeded_generator
from tilelab.match3.cascade import ChosenRefills, MAX_CASCADES, RefillSource, SwapResult, refill_outcomes, refill_source, swap
from tilelab.match3.moves import hint
from tilelab.match3.board import SHAPE_POINTS, Board, Cell, Move
from tilelab.match3.generate import Reshuffle, new_board, reshuffle_report
from tilelab.match3.special_board import SpecialBoard

if TYPE_CHECKING:
    from tilelab.match3.special_rules import SpecialSwapResult

__all__ = ["Game", "PLAIN", "PlainRules", "Rules", "SpecialRules", "WITH_SPECIALS", "as_rules", "play"]

JSON_FORMAT = "tilelab.match3"
JSON_VERSION = 2  #: 2: the number of moves is saved as ``moves_played`` (version 1 said ``moves``: still read)


# ----------------------------------------------------------------------------- rules


class Rules:
    """What a match-3 game's rules decide. Subclasses: :class:`PlainRules`, :class:`SpecialRules`."""

    name = "rules"
    specials = False  #: True when boards carry special candies

    def deal(self, rows: int, cols: int, kinds: int, *, rng: np.random.Generator) -> Any:
        """A fresh board: no run, at least one legal move."""
        raise NotImplementedError

    def swap(self, board: Any, a: Cell, b: Cell, *, rng: RefillSource) -> Any:
        """The engine's swap (a ``SwapResult`` or ``SpecialSwapResult``)."""
        raise NotImplementedError

    def legal_moves(self, board: Any) -> list[Move]:
        raise NotImplementedError

    def is_dead(self, board: Any) -> bool:
        raise NotImplementedError

    def reshuffle(self, board: Any, *, rng: np.random.Generator) -> Reshuffle[Any]:
        """The same candies in new places: no run and a move (a new deal if none exists)."""
        raise NotImplementedError

    def hint(self, board: Any) -> Move | None:
        raise NotImplementedError

    def score_table(self) -> tuple[tuple[str, int, bool], ...]:
        """``(what, points, times the cascade index?)`` for every way to score."""
        raise NotImplementedError

    def special_at(self, board: Any, cell: Cell) -> int:
        """The special candy's code at ``cell`` (0: none; a widget draws what the rules say, never guesses)."""
        return 0

    def activations(self, step: Any) -> tuple[Any, ...]:
        """The special candies a cascade step set off, wave by wave (none under plain rules)."""
        return ()

    def board_to_dict(self, board: Any) -> dict[str, Any]:
        return {"grid": [list(row) for row in board.grid], "kinds": board.kinds}

    def board_from_dict(self, data: Any) -> Any:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<match-3 rules: {self.name}>"


class PlainRules(Rules):
    """Matches of three or more clear, cascades follow; no special candies.

    >>> PLAIN.hint(Board.parse("0120\\n1201\\n0012\\n2102"))
    ((2, 2), (3, 2))
    """

    name = "plain"
    specials = False

    def deal(self, rows: int, cols: int, kinds: int, *, rng: np.random.Generator) -> Board:
        return new_board(rows, cols, kinds, rng=rng)

    def swap(self, board: Board, a: Cell, b: Cell, *, rng: RefillSource) -> SwapResult:
        return swap(board, a, b, rng=rng)

    def legal_moves(self, board: Board) -> list[Move]:
        from tilelab.match3.fast.plain import legal_moves_fast  # the compiled twin of moves.legal_moves (tested equal)

        return legal_moves_fast(board)

    def is_dead(self, board: Board) -> bool:
        from tilelab.match3.fast.plain import is_dead_fast

        return is_dead_fast(board)

    def reshuffle(self, board: Board, *, rng: np.random.Generator) -> Reshuffle[Board]:
        return reshuffle_report(board, rng=rng)

    def hint(self, board: Board) -> Move | None:
        """The largest immediate score; ties: the lowest move, then reading order (:func:`~tilelab.match3.moves.hint`)."""
        return hint(board)

    def score_table(self) -> tuple[tuple[str, int, bool], ...]:
        return tuple((f"group shaped {shape}", points, True) for shape, points in SHAPE_POINTS.items())

    def board_from_dict(self, data: Any) -> Board:
        saved_fields(data, ("grid", "kinds"))
        return Board(saved_field(data, "grid", list), saved_field(data, "kinds", int))  # Board reads no row too many


class SpecialRules(Rules):
    """Plain rules plus striped, wrapped and colour-bomb candies (:mod:`tilelab.match3.special_rules`)."""

    name = "specials"
    specials = True

    def deal(self, rows: int, cols: int, kinds: int, *, rng: np.random.Generator) -> SpecialBoard:
        return SpecialBoard.from_board(new_board(rows, cols, kinds, rng=rng))

    def swap(self, board: Any, a: Cell, b: Cell, *, rng: RefillSource) -> "SpecialSwapResult":
        from tilelab.match3.special_rules import swap_specials

        return swap_specials(board, a, b, rng=rng)

    def legal_moves(self, board: Any) -> list[Move]:
        from tilelab.match3.special_rules import legal_moves_specials

        return legal_moves_specials(board)

    def is_dead(self, board: Any) -> bool:
        from tilelab.match3.special_rules import is_dead_specials

        return is_dead_specials(board)

    def reshuffle(self, board: Any, *, rng: np.random.Generator) -> Reshuffle[SpecialBoard]:
        from tilelab.match3.special_reshuffle import reshuffle_specials

        return Reshuffle(reshuffle_specials(board, rng=rng), True, "no moves left, shuffling")

    def hint(self, board: Any) -> Move | None:
        """A special combination first, else any legal swap; ties as :func:`~tilelab.match3.moves.hint` breaks them
        (the lowest move on the board, then reading order)."""
        from tilelab.match3.special_rules import combo_of

        moves = self.legal_moves(board)
        combos = [m for m in moves if combo_of(board, *m) != "none"]
        return min(combos or moves, key=lambda m: (-max(m[0][0], m[1][0]), m), default=None)

    def special_at(self, board: Any, cell: Cell) -> int:
        code: int = board.special_code(cell)
        return code

    def activations(self, step: Any) -> tuple[Any, ...]:
        return tuple(step.activations)

    def score_table(self) -> tuple[tuple[str, int, bool], ...]:
        from tilelab.match3.special_board import SCORE_TABLE

        return tuple(SCORE_TABLE)

    def board_to_dict(self, board: Any) -> dict[str, Any]:
        return {**super().board_to_dict(board), "specials": [list(row) for row in board.specials]}

    def board_from_dict(self, data: Any) -> SpecialBoard:
        saved_fields(data, ("grid", "kinds", "specials"))
        grid, specials = saved_field(data, "grid", list), saved_field(data, "specials", list)
        return SpecialBoard(grid, specials, saved_field(data, "kinds", int))  # it reads no row too many


def _is_dead(rules: Rules, board: Any) -> bool | None:
    """``rules.is_dead(board)``, or None when the board holds a ready run (not settled: the rules refuse to say)."""
    try:
        return rules.is_dead(board)
    except ValueError:
        return None


def _dead_fast(rules: Rules, board: Any) -> bool:
    """``rules.is_dead(board)`` by the compiled twins (tested equal to the rules): a save's undo history is long."""
    if rules.specials:
        from tilelab.match3.fast.specials import is_dead_specials_fast

        return is_dead_specials_fast(board)
    from tilelab.match3.fast.plain import is_dead_fast

    try:
        return is_dead_fast(board)
    except ValueError:  # a ready run: not dead
        return False


def _split_move(move: object) -> Move:
    """``move`` as its two cells (the swap checks the cells themselves); ValueError unless it is a pair."""
    pair = tuple(islice(move, 3)) if isinstance(move, Iterable) else ()
    if len(pair) != 2:
        raise ValueError(f"a move is a pair of neighbouring cells ((r, c), (r2, c2)), not {short_repr(move)}")
    return cast(Cell, pair[0]), cast(Cell, pair[1])


PLAIN = PlainRules()  #: matches only
WITH_SPECIALS = SpecialRules()  #: special candies on
_RULES = {"plain": PLAIN, "specials": WITH_SPECIALS}


def as_rules(rules: "Rules | str | bool") -> Rules:
    """The rules named by ``rules``: a :class:`Rules`, ``"plain"``/``"specials"``, or a bool (specials on?).

    >>> as_rules("specials").name, as_rules(False) is PLAIN
    ('specials', True)
    """
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, bool):
        return WITH_SPECIALS if rules else PLAIN
    if isinstance(rules, str) and rules in _RULES:
        return _RULES[rules]
    raise ValueError(f"rules must be PLAIN, WITH_SPECIALS, 'plain' or 'specials', not {short_repr(rules)}")


# ----------------------------------------------------------------------------- play: one swap, engine level


@overload
def play(board: Board, move: Move, *, rng: RefillSource) -> SwapResult: ...
@overload
def play(board: SpecialBoard, move: Move, *, rng: RefillSource) -> "SpecialSwapResult": ...
def play(board: Board | SpecialBoard, move: Move, *, rng: RefillSource) -> "SwapResult | SpecialSwapResult":
    """Play one swap ``move = (a, b)`` on a board and return what happened: match-3's ``play``.

    The rules follow the board: a :class:`Board` plays the plain rules (a :class:`SwapResult`, as
    :func:`~tilelab.match3.cascade.swap` gives), a :class:`~tilelab.match3.special_board.SpecialBoard`
    the special candies' (a ``SpecialSwapResult``, as ``swap_specials`` gives). Refills draw from
    ``rng`` (a seed or a Generator), or take chosen kinds (:class:`~tilelab.match3.cascade.ChosenRefills`).
    A swap that makes no match is swapped back (``legal`` False).

    >>> board = Board.parse('''
    ... 0120
    ... 1201
    ... 0012
    ... 2102''')
    >>> result = play(board, ((2, 2), (3, 2)), rng=1)   # the 0 moves up: row 2 reads 0 0 0
    >>> print(result.swapped); print(); print(result.board)
    0120
    1201
    0002
    2112
    <BLANKLINE>
    1200
    0121
    1202
    2112
    >>> result.legal, result.score, result.cascades
    (True, 60, 1)
    >>> special = play(SpecialBoard.from_board(board), ((2, 2), (3, 2)), rng=1)
    >>> type(special).__name__, special.board.colours() == result.board
    ('SpecialSwapResult', True)
    """
    a, b = _split_move(move)
    if isinstance(board, SpecialBoard):
        return WITH_SPECIALS.swap(board, a, b, rng=refill_source(rng))
    return PLAIN.swap(board, a, b, rng=refill_source(rng))


# ----------------------------------------------------------------------------- the game


def _from_version_1(data: Any) -> Any:
    """A version 1 save as version 2 says it: its ``moves`` count (and each undo step's) is ``moves_played``.

    Anything else is returned as it is, for :meth:`Game.from_dict` to check.

    >>> _from_version_1({"format": JSON_FORMAT, "version": 1, "moves": 3, "history": [{"moves": 2}]})
    {'format': 'tilelab.match3', 'version': 2, 'moves_played': 3, 'history': [{'moves_played': 2}]}
    """
    if not (isinstance(data, dict) and data.get("format") == JSON_FORMAT and type(data.get("version")) is int
            and data["version"] == 1):
        return data

    def renamed(step: Any) -> Any:
        if not isinstance(step, dict):
            return step
        if "moves_played" in step:
            raise ValueError("this match-3 save says version 1 but counts its moves as 'moves_played', which only "
                             "version 2 writes (version 1 said 'moves'): load the text game.to_json() gave")
        return {("moves_played" if key == "moves" else key): value for key, value in step.items()}

    upgraded = renamed({**data, "version": JSON_VERSION})
    if isinstance(upgraded.get("history"), list):
        upgraded["history"] = [renamed(step) for step in upgraded["history"]]
    return upgraded


_STEP_FIELDS = ("board", "score", "moves_played", "last_cascades", "best_cascades", "rng")  #: a saved position's fields


class _Snapshot(NamedTuple):
    board: Any
    score: int
    moves_played: int
    last_cascades: int
    best_cascades: int
    rng_state: dict[str, Any]


class Game(SessionBase):
    """A match-3 game in play: the board, score, moves, cascades, reshuffles, undo, hints, save/load.

    ``rng`` (or ``seed``) is a seed or a numpy Generator: deals, refills and reshuffles draw from
    it, nothing else does, so the same seed and moves give the same game. ``rules`` is
    :data:`PLAIN` (default) or :data:`WITH_SPECIALS` (or their names). ``board=`` starts from a
    given board; a dead one is reshuffled at once (drawing from ``rng``), as after a swap that leaves
    the board dead, and one too small ever to have a swap is refused. Match-3 has no end: a dead board
    is reshuffled, so ``over`` and ``won`` stay False.
    """

    def __init__(self, rows: int = 8, cols: int = 8, kinds: int = 6, *, rules: "Rules | str | bool" = PLAIN,
                 rng: int | np.random.Generator | None = None,
                 board: Any = None) -> None:
        self.rules = as_rules(rules)
        #: the seed the game was made from: a fresh one from OS entropy when none was given, so it can be replayed
        self._rng, self.seed = seeded_generator(rng)
        self._history: list[_Snapshot] = []
        if board is None:
            board = self.rules.deal(rows, cols, kinds, rng=self._rng)
        else:
            board = self._check_board(board)
            if _is_dead(self.rules, board):  # a live game never rests on a dead board
                board = self.rules.reshuffle(board, rng=self._rng).board
        self._start(self._check_board(board))

    def _check_board(self, board: object) -> Board | SpecialBoard:
        if self.rules.specials and isinstance(board, Board):
            board = SpecialBoard.from_board(board)
        expected = SpecialBoard if self.rules.specials else Board
        if not isinstance(board, expected):
            raise TypeError(f"the {self.rules.name} rules play on a {expected.__name__}, got {type(board).__name__}")
        return board

    def _start(self, board: Board | SpecialBoard) -> None:
        self.board: Board | SpecialBoard = board
        self.score = 0
        self.moves_played = 0
        self.last_cascades = 0
        self.best_cascades = 0
        self._history.clear()

    def restart(self, rules: "Rules | str | bool | None" = None) -> None:
        """Deal a new board of the same size (under new ``rules`` if given); the generator carries on."""
        if rules is not None:
            self.rules = as_rules(rules)
        self._start(self.rules.deal(self.rows, self.cols, self.kinds, rng=self._rng))

    # ------------------------------------------------------------------ state
    @property
    def rows(self) -> int:
        return self.board.rows

    @property
    def cols(self) -> int:
        return self.board.cols

    @property
    def kinds(self) -> int:
        return self.board.kinds

    @property
    def rng(self) -> np.random.Generator:
        """The game's random generator (deals, refills and reshuffles draw from it)."""
        return self._rng

    @property
    def over(self) -> bool:
        """Always False: a dead board is reshuffled and play goes on."""
        return False

    @property
    def won(self) -> bool:
        """Always False: match-3 here has no target (play for score)."""
        return False

    def legal_moves(self) -> list[Move]:
        """The swaps that make a match (specials on: also special pairs and colour-bomb swaps)."""
        return self.rules.legal_moves(self.board)

    def is_dead(self) -> bool:
        """True when no swap is legal (the game reshuffles such a board itself after a swap)."""
        return self.rules.is_dead(self.board)

    def hint(self) -> Move | None:
        """One legal swap chosen by the rules' stated hint rule (None on a dead board)."""
        return self.rules.hint(self.board)

    def refill_outcomes(self) -> list[tuple[int, float]]:
        """The chance step behind every refilled hole: each kind with its probability (the one rule,
        :func:`~tilelab.match3.cascade.refill_outcomes`)."""
        return refill_outcomes(self.board)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance step the OpenSpiel way: what each refilled hole may become, with its probability.

        A swap's cascade refills every hole it empties with one draw from this list each
        (:attr:`Turn.chance` records every draw); match-3 has no chance step between moves.
        To apply chosen outcomes instead of drawing them, give them to the swap:
        ``play(move, refills=[kind, ...])``, one kind per refilled hole.
        """
        return self.refill_outcomes()

    def apply_chance(self, outcome: object) -> None:
        """Refused between moves: match-3 draws its refills inside a swap's cascade, so apply chosen
        outcomes with the swap itself, ``play(move, refills=[kind, ...])``."""
        raise ValueError(f"match-3 has no chance step between moves, so {short_repr(outcome)} cannot be applied "
                         "now: the refills come inside a swap's cascade; choose them with "
                         "game.play(move, refills=[kind, ...]), one kind per refilled hole")

    def score_table(self) -> tuple[tuple[str, int, bool], ...]:
        """How points are scored under this game's rules."""
        return self.rules.score_table()

    # ------------------------------------------------------------------ actions
    def play(self, move: Move | Cell, b: Cell | None = None, *,
             refills: Iterable[int] | None = None) -> Turn[Move, "SwapResult | SpecialSwapResult"]:
        """Swap two neighbours: ``play(((r, c), (r2, c2)))`` or ``play((r, c), (r2, c2))``.

        A swap that makes no match is swapped back: nothing changes (no random draw) and the Turn
        counts as False. A legal one scores, cascades, and, when it leaves the board dead,
        reshuffles it (``turn.reshuffle``). ``refills`` applies chosen chance outcomes: the holes the
        cascade refills (step by step, in reading order) take these kinds instead of drawing, one
        each, all of them used (ValueError otherwise, and the game is unchanged).
        """
        a, b = _split_move(move) if b is None else (cast(Cell, move), b)
        snapshot = _Snapshot(self.board, self.score, self.moves_played, self.last_cascades, self.best_cascades,
                             dict(self._rng.bit_generator.state))
        chosen = None if refills is None else ChosenRefills(refills)
        result = self.rules.swap(self.board, a, b, rng=self._rng if chosen is None else chosen)
        pair = (result.a, result.b)
        if chosen is not None and chosen.used != len(chosen.kinds):
            raise ValueError(f"this swap refills {chosen.used} holes but {len(chosen.kinds)} kinds were given: "
                             "give one kind per refilled hole")
        if not result.legal:
            return Turn(pair, False, result)
        self._history.append(snapshot)
        self.board = result.board
        self.score += result.score
        self.moves_played += 1
        self.last_cascades = result.cascades
        self.best_cascades = max(self.best_cascades, result.cascades)
        p = dict(self.refill_outcomes())  # the refill rule, read once: every hole draws from it
        chance = tuple((refill, p[refill[1]]) for step in result.steps for refill in step.refills)
        reshuffle = None
        if self.rules.is_dead(self.board):
            reshuffle = self.rules.reshuffle(self.board, rng=self._rng)
            self.board = reshuffle.board
        return Turn(pair, True, result, result.score, chance, reshuffle=reshuffle)

    def undo(self) -> bool:
        """Take back the last legal swap (score, counters and random state too); False if none."""
        if not self._history:
            return False
        snap = self._history.pop()
        self.board, self.score, self.moves_played = snap.board, snap.score, snap.moves_played
        self.last_cascades, self.best_cascades = snap.last_cascades, snap.best_cascades
        self._rng.bit_generator.state = snap.rng_state
        return True

    # ------------------------------------------------------------------ save / load
    def _state(self, snap: _Snapshot) -> dict[str, Any]:
        return {"board": self.rules.board_to_dict(snap.board), "score": snap.score, "moves_played": snap.moves_played,
                "last_cascades": snap.last_cascades, "best_cascades": snap.best_cascades,
                "rng": jsonable(snap.rng_state)}

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to continue exactly: rules, board, counters, random state, undo history."""
        now = _Snapshot(self.board, self.score, self.moves_played, self.last_cascades, self.best_cascades,
                        rng_state_to_save(self._rng))
        return {"format": JSON_FORMAT, "version": JSON_VERSION, "rules": self.rules.name, "seed": self.seed,
                **self._state(now), "history": [self._state(s) for s in self._history]}

    def to_json(self) -> str:
        """The game as JSON; :meth:`from_json` restores it, random state and undo history included."""
        return dump_json(self.to_dict())

    @classmethod
    def _snapshot_from(cls, rules: Rules, data: Any, where: str, like: Any = None) -> _Snapshot:
        """One saved position, each field checked; ``like``: the game's board, whose size and kinds it must have."""
        if where:
            saved_fields(data, _STEP_FIELDS, where)
        try:
            board = rules.board_from_dict(saved_field(data, "board", dict, where))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"saved game field {where}'board' is not a board: {exc}") from None
        if not board.is_full:
            raise ValueError(f"saved game field {where}'board' has holes: a saved board is always refilled")
        if like is not None and (board.rows, board.cols, board.kinds) != (like.rows, like.cols, like.kinds):
            raise ValueError(f"saved game field {where}'board' is {board.rows}x{board.cols} with {board.kinds} kinds, "
                             f"but the game's board is {like.rows}x{like.cols} with {like.kinds}: every undo step "
                             "has the game's size and kinds")
        counts = [saved_field(data, key, int, where) for key in ("score", "moves_played", "last_cascades", "best_cascades")]
        score, moves_played, last_cascades, best_cascades = counts
        if last_cascades > best_cascades or best_cascades > MAX_CASCADES:
            raise ValueError(f"saved game fields {where}'last_cascades' = {last_cascades} and 'best_cascades' = "
                             f"{best_cascades} contradict: the best is the largest of every move's (at most {MAX_CASCADES})")
        if moves_played == 0 and (score or best_cascades):
            raise ValueError(f"saved game field {where}'moves_played' is 0 but the score or cascades are not: nothing "
                             "scores before the first move")
        state = saved_rng_state(saved_field(data, "rng", dict, where), f"{where}rng")
        return _Snapshot(board, score, moves_played, last_cascades, best_cascades, dict(state))

    @classmethod
    def from_dict(cls, data: Any) -> "Game":
        """Rebuild a game saved by :meth:`to_dict`; every field is checked (a version 1 save is read too)."""
        data = saved_fields(check_saved_header(_from_version_1(data), JSON_FORMAT, JSON_VERSION),
                            ("format", "version", "rules", "seed") + _STEP_FIELDS + ("history",))
        rules = as_rules(saved_field(data, "rules", str))
        now = cls._snapshot_from(rules, data, "")
        dead = _is_dead(rules, now.board)
        if dead is None:
            raise ValueError("saved game field 'board' holds a ready run: a game settles every cascade before it saves")
        if dead:
            raise ValueError("saved game field 'board' is dead (no swap makes a match): a game reshuffles a dead board "
                             "at once, so it never saves one")
        game = cls(rules=rules, rng=0, board=now.board)
        seed = data.get("seed")
        game.seed = None if seed is None else saved_field(data, "seed", int)
        game.score, game.moves_played, game.last_cascades, game.best_cascades = now[1:5]
        game._rng = generator_from_state(data["rng"])
        history = saved_field(data, "history", list)
        if len(history) > game.moves_played:
            raise ValueError(f"saved game has {len(history)} undo steps but only {game.moves_played} moves played")
        steps = game._history
        for i in range(len(history) + 1):  # each step checked against the one before, as it is read
            saved = i < len(history)
            step = cls._snapshot_from(rules, history[i], f"history[{i}].", now.board) if saved else now
            if i and (steps[i - 1].moves_played + 1 != step.moves_played or steps[i - 1].score > step.score
                      or step.best_cascades != max(steps[i - 1].best_cascades, step.last_cascades)):
                raise ValueError(f"saved game history[{i - 1}] does not lead to the next position (one move more, "
                                 "never less score, the best cascade the larger of the best before and the last)")
            if i and steps[i - 1].board == step.board:
                raise ValueError(f"saved game field history[{i - 1}].'board' is the very board of the position after "
                                 f"it, yet a move was played (and scored {step.score - steps[i - 1].score}): a swap "
                                 "clears a match, so the board changes")
            if saved:
                if _dead_fast(rules, step.board):
                    raise ValueError(f"saved game field history[{i}].'board' is dead (no swap makes a match), but a "
                                     "move was played from it")
                steps.append(step)
        return game

    def __repr__(self) -> str:
        return (f"<match3.Game {self.rows}x{self.cols} kinds={self.kinds} rules={self.rules.name} "
                f"score={self.score} moves={self.moves_played}>")

    def __str__(self) -> str:
        return f"{self.board}\nscore {self.score}, {self.moves_played} moves"
