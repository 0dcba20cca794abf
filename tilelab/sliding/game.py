"""A sliding-puzzle session: deal, play, count, undo, the Hint/Solve plan, save/load.

The same shape as :class:`tilelab.game2048.Game` and :class:`tilelab.match3.Game`: ``play(move)``
returns a :class:`~tilelab.protocol.Turn` (its ``events`` is the :class:`Slide` that
:func:`tilelab.sliding.play` returns),
``legal_moves()``, ``undo()`` to any depth, ``hint()``, ``over``/``won``, ``seed``/``rng`` and an
exact ``to_json()``/``from_json()``. Its own extras: the move counter in both metrics (one rule,
:func:`count_moves`'s) and the solver plan Hint and Solve follow.

>>> game = Game(3, rng=1)
>>> print(game.board)
7 . 1
4 2 5
8 6 3
>>> turn = game.play("up")        # the tile below the blank moves up
>>> bool(turn), turn.events.tiles, game.move_count
(True, (2,), MoveCount(single=1, multi=1))
>>> game.play(6).events.tiles, game.move_count    # 6 slides up the same line: still one multi-tile move
((6,), MoveCount(single=2, multi=1))
>>> from tilelab.sliding import count_moves
>>> game.move_count == count_moves(game.start, game.played)
True
>>> game.undo(), game.move_count, Game.from_json(game.to_json()).board == game.board
(True, MoveCount(single=1, multi=1), True)
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

import numpy as np

from tilelab.inputs import short_repr
from tilelab.protocol import (
    SessionBase,
    Turn,
    check_saved_header,
    dump_json,
    generator_from_state,
    rng_state_to_save,
    saved_field,
    saved_fields,
)
from tilelab.randomness import RngLike, seeded_generator
from tilelab.sliding.core import Board
from tilelab.sliding.human import human_first_move
from tilelab.sliding.moves import Move, MoveCount, Slide, parse_move, play
from tilelab.sliding.shuffle import METHODS, shuffle

__all__ = ["Game", "MAX_MOVES", "OPTIMAL_SOLVE_MAX_CELLS", "PLAN_SECONDS", "Plan"]

JSON_FORMAT = "tilelab.sliding"
JSON_VERSION = 1
#: Most single-tile moves a game holds (its ``moves.single``; each slide moves one or more tiles): a save
#: replays them all, in time linear in the tiles moved, so loading the largest save takes well under a second.
#: A Solve by the human strategy from a 30x30 deal plays about 85,000.
MAX_MOVES = 200_000
OPTIMAL_SOLVE_MAX_CELLS = 16  #: Hint/Solve look for an optimal solution up to 4x4 (within the budget)
PLAN_SECONDS = 3.0  #: the optimal search's budget; past it Hint and Solve use the human strategy
_WARMED: set[tuple[int, int, str]] = set()


class Plan(NamedTuple):
    """The solution Hint and Solve follow: the tiles to slide and whether it is optimal."""

    moves: list[int]
    optimal: bool

    def describe(self) -> str:
        """One short line for a status bar (fits a 300 px board).

        >>> Plan([1, 2], True).describe(), Plan([1] * 158, False).describe()
        ('optimal: 2 moves', 'human strategy: 158 moves, not shortest')
        """
        if self.optimal:
            return f"optimal: {len(self.moves)} moves"
        return f"human strategy: {len(self.moves)} moves, not shortest"


class _Snapshot(NamedTuple):
    """What undo needs of the position before a slide: four ints and a word, never a copy of the board."""

    blank: int  # the blank's index before the slide: sliding the tile now there takes the slide back
    single: int
    multi: int
    direction: str | None


def _solver(name: str) -> Callable[..., Any]:
    """``tilelab.sliding.solvers.solve`` (or ``hint``), looked up when needed (tests may replace it)."""
    from tilelab.sliding import solvers

    found: Callable[..., Any] | None = getattr(solvers, name, None)
    if found is None:
        raise RuntimeError(f"Hint and Solve need tilelab.sliding.solvers.{name}")
    return found


def _warm_solver(solve: Any, rows: int, cols: int, heuristic: str) -> None:
    """Solve a one-move board once per shape and heuristic, so compiling (numba, a cold cache on a
    fresh machine: seconds) never eats the ``PLAN_SECONDS`` search budget of a Hint or Solve."""
    if (rows, cols, heuristic) in _WARMED:
        return
    goal = Board.goal(rows, cols)
    solve(goal.slide(next(iter(goal.legal_moves()))), method="idastar", heuristic=heuristic)
    _WARMED.add((rows, cols, heuristic))


def _replay(game: "Game", played: list[Any]) -> None:
    """Play the saved slides from the deal, checking each, in time linear in the tiles moved.

    Works on a list of cells and a list of tile positions: a slide costs a slice copy of the segment
    and a few steps per tile moved (never a board copy), and keeps four ints of undo history.
    """
    board = game.board
    rows, cols, n = board.rows, board.cols, board.cell_count
    cells = list(board.tiles)
    where = [0] * n  # where[tile] = its cell
    for cell, tile in enumerate(cells):
        where[tile] = cell
    wrong = sum(cell != (tile - 1) % n for cell, tile in enumerate(cells))  # cells not as in the goal; 0: solved
    blank, count, last = where[0], MoveCount(0, 0), None
    history = game._history
    for i, tile in enumerate(played):
        if wrong == 0:
            raise ValueError(f"saved game field 'played[{i}]' comes after the puzzle was solved")
        cell = where[tile] if type(tile) is int and 0 < tile < n else -1
        if cell < 0 or (cell // cols != blank // cols and cell % cols != blank % cols):
            raise ValueError(f"saved game field 'played[{i}]' = {short_repr(tile)} is not a legal slide there (legal: "
                             f"the tiles in the blank's row and column, {list(Board(cells, rows, cols).legal_moves())})")
        step = 1 if cell // cols == blank // cols else cols
        if cell > blank:  # the tiles between move one cell toward the blank: left or up
            cells[blank:cell:step] = cells[blank + step:cell + 1:step]
            direction, shift = ("left" if step == 1 else "up"), -step
        else:
            cells[cell + step:blank + 1:step] = cells[cell:blank:step]
            direction, shift = ("right" if step == 1 else "down"), step
        cells[cell] = 0
        for old in range(cell, blank, shift):  # each moved tile: its new cell, and is it home now?
            moved = cells[old + shift]
            where[moved] = old + shift
            wrong += (old + shift != moved - 1) - (old != moved - 1)
        wrong += (cell != n - 1) - (blank != n - 1)  # the blank
        where[0] = cell
        history.append(_Snapshot(blank, count.single, count.multi, last))
        count = count.after(abs(cell - blank) // step, direction, last)
        if count.single > MAX_MOVES:
            raise ValueError(f"saved game field 'played' moves more than MAX_MOVES={MAX_MOVES:,} tiles, the most a "
                             "game holds; this is not a save tilelab wrote")
        blank, last = cell, direction
    game._played = list(played)
    game.board = Board(cells, rows, cols)  # checked once more, in one pass over the cells
    game.move_count, game._direction = count, last


class Game(SessionBase):
    """A sliding puzzle in play: the deal, the tiles slid, both move counts, undo, hints, save/load.

    ``rng`` is a seed or a numpy Generator: the deals draw from it, nothing else
    does (a slide has no chance step). ``method`` is how a deal is shuffled (see
    :data:`tilelab.sliding.METHODS`); ``board=`` starts from a given board instead.
    """

    def __init__(self, rows: int = 4, cols: int | None = None, *, rng: RngLike = None,
                 method: str = "uniform", board: Board | None = None) -> None:
        if method not in METHODS:
            raise ValueError(f"method must be one of {list(METHODS)}, got {short_repr(method)}")
        self.method = method
        #: the seed the game was made from: a fresh one from OS entropy when none was given, so it can be replayed
        self._rng, self.seed = seeded_generator(rng)
        self._plan: tuple[list[int], bool, dict[tuple[int, ...], int]] | None = None
        if board is not None:
            if not isinstance(board, Board):
                raise TypeError(f"board must be a Board, got {type(board).__name__}; e.g. Board.parse('1 2\\n3 .')")
            self._start(board)
        else:
            self._start(self._deal(rows, rows if cols is None else cols))

    # ------------------------------------------------------------------ state
    def _deal(self, rows: int, cols: int) -> Board:
        board = shuffle(rows, cols, rng=self._rng, method=self.method)
        while board.is_goal():  # a new game is never already solved
            board = shuffle(rows, cols, rng=self._rng, method=self.method)
        return board

    def _start(self, board: Board) -> None:
        self.start = board  #: the board the game was dealt
        self.board = board  #: the board now (the same attribute as game2048.Game.board and match3.Game.board)
        self.move_count = MoveCount(0, 0)  #: tiles moved (single) and multi-tile moves (multi), count_moves's rule
        self._direction: str | None = None
        self._played: list[int] = []
        self._history: list[_Snapshot] = []
        self._plan = None

    def restart(self, rows: int | None = None, cols: int | None = None, method: str | None = None) -> None:
        """Deal a new board (same size and shuffle unless given); the generator carries on."""
        if method is not None:
            if method not in METHODS:
                raise ValueError(f"method must be one of {list(METHODS)}, got {short_repr(method)}")
            self.method = method
        rows = self.board.rows if rows is None else rows
        cols = (self.board.cols if rows == self.board.rows else rows) if cols is None else cols
        self._start(self._deal(rows, cols))

    @property
    def rng(self) -> np.random.Generator:
        """The game's random generator (deals draw from it)."""
        return self._rng

    @property
    def shape(self) -> tuple[int, int]:
        return self.board.shape

    @property
    def over(self) -> bool:
        """True when the puzzle is solved (no more moves)."""
        return self.board.is_goal()

    @property
    def won(self) -> bool:
        """True when the puzzle is solved (the same as :attr:`over`: solving is winning)."""
        return self.board.is_goal()

    @property
    def played(self) -> tuple[int, ...]:
        """The tiles slid since the deal, in order (undone moves left out)."""
        return tuple(self._played)

    @property
    def moves_played(self) -> int:
        """Moves played, tile by tile (the puzzle's usual count; ``move_count.multi`` is the other metric)."""
        return self.move_count.single

    def legal_moves(self) -> list[int]:
        """The tiles that may slide now (every tile in the blank's row or column)."""
        return [] if self.over else list(self.board.legal_moves())

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """The chance step the OpenSpiel way: none (only the deal is random; a slide always does the same).

        As in OpenSpiel's deterministic games the list is always empty, and :meth:`apply_chance` refuses.
        """
        return []

    def apply_chance(self, outcome: object) -> None:
        """Refused: the sliding puzzle never waits at a chance step (:meth:`chance_outcomes` is empty)."""
        raise ValueError(f"the sliding puzzle has no chance step, so {short_repr(outcome)} cannot be applied: "
                         "game.chance_outcomes() is always empty; play a move with game.play(tile)")

    # ------------------------------------------------------------------ actions
    def play(self, move: Move) -> Turn[Move, Slide]:
        """Slide a tile (an int: it and the tiles between it and the blank) or move a direction.

        A direction (``"up"``...) slides the blank's neighbour that way, as an arrow key does; at
        the edge, or once solved, nothing moves and the Turn counts as False. A tile outside the
        blank's row and column is refused (ValueError naming the legal tiles).
        """
        tile = parse_move(self.board, move)  # the one place a move is read (a direction: None at the edge)
        shown: Move = move if isinstance(move, str) or tile is None else tile  # a tile as a plain int
        if tile is None or self.over:
            return Turn(shown, False, None, over=self.over, won=self.won)
        event = play(self.board, tile)
        count = self.move_count
        if count.single + event.single_moves > MAX_MOVES:
            raise ValueError(f"this game has moved {count.single:,} tiles; MAX_MOVES={MAX_MOVES:,} is the most a game "
                             "holds (a save replays every one): start a new game with game.restart()")
        self._history.append(_Snapshot(self.board.blank_index, count.single, count.multi, self._direction))
        self.board = event.after
        self._played.append(tile)
        self.move_count = self.move_count.after(event.single_moves, event.direction, self._direction)  # count_moves's rule
        self._direction = event.direction
        return Turn(shown, True, event, 0, (), self.over, self.won)

    def undo(self) -> bool:
        """Take back the last slide (the counters too); False when there is nothing to take back."""
        if not self._history:
            return False
        snap = self._history.pop()
        self.board = self.board.slide(self.board.tiles[snap.blank])  # the same segment slides back
        self.move_count, self._direction = MoveCount(snap.single, snap.multi), snap.direction
        self._played.pop()
        return True

    # ------------------------------------------------------------------ hint and solve
    def heuristic(self) -> str:
        """The strongest heuristic ready at once: a pattern database if built (3x3 builds in a blink)."""
        from tilelab.sliding.pdb import DEFAULT_PATTERNS, pattern_database

        rows, cols = self.shape
        if self.shape in DEFAULT_PATTERNS and pattern_database(
                rows, cols, build=self.shape == (3, 3), progress=False) is not None:
            return "pdb"
        return "linear-conflict"

    @property
    def solver_ready(self) -> bool:
        """False until the solver for this board size has been compiled (the first plan takes seconds)."""
        rows, cols = self.shape
        return self.board.cell_count > OPTIMAL_SOLVE_MAX_CELLS or any(key[:2] == (rows, cols) for key in _WARMED)

    def plan(self, seconds: float | None = None) -> Plan:
        """The solution Hint and Solve follow from here: ``(moves, optimal)``.

        An optimal one when IDA* finds it within ``seconds`` (default :data:`PLAN_SECONDS`; boards
        up to 4x4), else the human strategy's. Computed once per game: while the player follows
        it (or comes back onto it), it is reused.
        """
        tiles = tuple(self.board.tiles)
        if self._plan is not None and tiles in self._plan[2]:
            moves, optimal, index = self._plan
            return Plan(moves[index[tiles]:], optimal)
        if self.over:
            return Plan([], True)
        solve = _solver("solve")
        found: list[int] | None = None
        optimal = False
        if self.board.cell_count <= OPTIMAL_SOLVE_MAX_CELLS:
            from tilelab.sliding.solvers import Budget

            heuristic = self.heuristic()
            _warm_solver(solve, *self.shape, heuristic)  # compile first: the budget is for searching
            budget = Budget(seconds=PLAN_SECONDS if seconds is None else seconds)
            result = solve(self.board, method="idastar", heuristic=heuristic, budget=budget)
            if getattr(result, "complete", True) and self.board.play_all(result.moves).is_goal():
                found, optimal = [int(t) for t in result.moves], bool(getattr(result, "optimal", True))
        if found is None:
            found = [int(t) for t in solve(self.board, method="human").moves]
        index, board = {}, self.board
        for i, tile in enumerate(found):
            index.setdefault(tuple(board.tiles), i)
            board = board.slide(tile)
        index.setdefault(tuple(board.tiles), len(found))
        if not board.is_goal():
            raise RuntimeError("the solver's moves do not reach the goal")
        self._plan = (found, optimal, index)
        return Plan(list(found), optimal)

    def hint(self) -> int | None:
        """The tile to slide next: the first move of :meth:`plan` (None once solved).

        On a board past :data:`~tilelab.sliding.solvers.MAX_HUMAN_CELLS`, where no whole plan is made, the human
        strategy's first move, found alone (what its plan would start with).
        """
        from tilelab.sliding.solvers import MAX_HUMAN_CELLS

        if self.board.cell_count > MAX_HUMAN_CELLS:
            return None if self.over else human_first_move(self.board)
        moves = self.plan().moves
        return moves[0] if moves else None

    # ------------------------------------------------------------------ save / load
    def to_dict(self) -> dict[str, Any]:
        """Everything needed to continue exactly: settings, the deal, the tiles slid, the random state."""
        return {
            "format": JSON_FORMAT, "version": JSON_VERSION,
            "rows": self.board.rows, "cols": self.board.cols, "method": self.method, "seed": self.seed,
            "start": list(self.start.tiles), "played": list(self._played),
            "rng": rng_state_to_save(self._rng),
        }

    def to_json(self) -> str:
        """The game as JSON; :meth:`from_json` restores it with its undo history and random state."""
        return dump_json(self.to_dict())

    @classmethod
    def from_dict(cls, data: Any) -> "Game":
        """Rebuild a game saved by :meth:`to_dict` (the slides are replayed, so each is checked)."""
        data = saved_fields(check_saved_header(data, JSON_FORMAT, JSON_VERSION),
                            ("format", "version", "rows", "cols", "method", "seed", "start", "played", "rng"))
        rows, cols = saved_field(data, "rows", int), saved_field(data, "cols", int)
        start = saved_field(data, "start", list)
        try:
            start_board = Board(start, rows, cols)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"saved game field 'start' is not a {rows}x{cols} puzzle: {exc}") from None
        seed = data.get("seed")
        if seed is not None:
            seed = saved_field(data, "seed", int)
        method = saved_field(data, "method", str)
        if method not in METHODS:
            raise ValueError(f"saved game field 'method' must be one of {list(METHODS)}, not {short_repr(method)}")
        game = cls(board=start_board, method=method, rng=0)
        game.seed = seed
        game._rng = generator_from_state(saved_field(data, "rng", dict))
        played = saved_field(data, "played", list)
        if len(played) > MAX_MOVES:  # every slide moves a tile: refused before replaying any
            raise ValueError(f"saved game field 'played' holds {len(played):,} slides, past MAX_MOVES={MAX_MOVES:,} "
                             "(the most tiles a game moves); this is not a save tilelab wrote")
        _replay(game, played)
        return game

    def __repr__(self) -> str:
        state = "solved" if self.over else "playing"
        return (f"<sliding.Game {self.board.rows}x{self.board.cols} moves={self.move_count.single} "
                f"(multi {self.move_count.multi}) {state}>")

    def __str__(self) -> str:
        count = self.move_count
        return f"{self.board}\n{count.single} moves ({count.multi} multi-tile)" + ("  (solved)" if self.over else "")

