"""One entry point for every solver: ``solve(board, method=..., heuristic=...)`` and ``hint``.

=================  ==========================================================  =========
method             what it does                                                optimal?
=================  ==========================================================  =========
``"bfs"``          breadth-first search (boards up to 3x3 without a budget)    yes
``"astar"``        A* with an admissible heuristic                             yes
``"idastar"``      IDA*, compiled with numba (``engine="reference"``: Python)  yes
``"weighted-astar"`` A* ordered by ``g + weight * h`` (``weight > 1``)         no (<= w x)
``"human"``        row by row, column by column (:mod:`tilelab.sliding.human`) no
=================  ==========================================================  =========

Heuristics: ``"misplaced"``, ``"manhattan"``, ``"linear-conflict"`` (any board) and ``"pdb"``
(additive pattern databases, 3x3 and 4x4; built once and cached on disk, see
:mod:`tilelab.sliding.pdb`). Every solver returns a :class:`SolveResult`.

>>> from tilelab.sliding import Board
>>> p = Board.parse('''
... 1 2 3
... 4 . 6
... 7 5 8''')
>>> r = solve(p, heuristic="manhattan")
>>> r.moves, r.optimal, r.length
((5, 8), True, 2)
>>> print(p.play_all(r.moves))
1 2 3
4 5 6
7 8 .
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

from tilelab.inputs import short_repr, as_float, as_int, is_int
from tilelab.sliding.core import Board
from tilelab.sliding.parity import inversions, is_solvable
from tilelab.sliding.heuristics import HEURISTICS
from tilelab.sliding.human import human_moves
from tilelab.sliding.search import astar_reference, bfs_reference, idastar_reference

if TYPE_CHECKING:
    from tilelab.sliding.pdb import PatternDatabase

__all__ = ["Budget", "METHODS", "SOLVER_HEURISTICS", "SolveResult", "hint", "solve"]

METHODS = ("bfs", "astar", "idastar", "weighted-astar", "human")
SOLVER_HEURISTICS = ("misplaced", "manhattan", "linear-conflict", "pdb")
ENGINES = ("fast", "reference")
MAX_BFS_CELLS = 9  # 3x3: 181,440 boards; a 2x5 (1.8 million) is already slow in Python
MAX_SEARCH_CELLS = 16  # 4x4: every 15-puzzle solves optimally in seconds; 5x5 may take days
#: The human strategy's limit (32x32, or 2x512): its move count grows about as cells**1.7, past this it takes minutes.
MAX_HUMAN_CELLS = 1024
PDB_SHAPES = ((3, 3), (4, 4))
DEFAULT_HINT_SECONDS = 0.2
#: Without a budget, a search that is not known to be quick (3x3 boards, and IDA* with a pattern database on 4x4)
#: gets this many seconds; then ``solve`` says so and returns the human strategy's moves instead.
DEFAULT_SOLVE_SECONDS = 10.0


class _DefaultHeuristic(str):
    """The string "pdb", marked as the default so that solve() can tell it from an explicit
    request: by default boards without a pattern database fall back to linear conflict."""


_DEFAULT_HEURISTIC = _DefaultHeuristic("pdb")


@dataclass(frozen=True)
class Budget:
    """A limit for a search: expanded ``nodes`` and/or wall-clock ``seconds``.

    ``solve(..., budget=100_000)`` is short for ``Budget(nodes=100_000)``.
    """

    nodes: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.nodes is None and self.seconds is None:
            raise ValueError("a Budget needs nodes=..., seconds=... or both")
        if self.nodes is not None:
            object.__setattr__(self, "nodes", as_int(self.nodes, "Budget nodes", minimum=1))
        if self.seconds is not None:
            seconds = as_float(self.seconds, "Budget seconds")
            if not seconds > 0:
                raise ValueError(f"Budget seconds must be positive, got {self.seconds!r}")
            object.__setattr__(self, "seconds", seconds)


@dataclass(frozen=True)
class SolveResult:
    """What a solver did. ``moves`` are tile numbers slid into the blank (single-tile metric).

    ``optimal`` is True only when the moves are proven shortest. ``complete`` is False when a
    budget stopped the search before it found a solution (then ``stopped_early`` is True,
    ``moves`` is empty and ``lower_bound`` says how long a solution must at least be).
    """

    board: Board = field(repr=False)
    moves: tuple[int, ...]
    nodes: int
    seconds: float
    optimal: bool
    method: str
    heuristic: str | None
    complete: bool = True
    stopped_early: bool = False
    lower_bound: int | None = None
    message: str = ""

    @property
    def length(self) -> int:
        """Number of single-tile moves."""
        return len(self.moves)

    @property
    def final(self) -> Board:
        """The board after playing every move (the goal when ``complete``)."""
        return self.board.play_all(self.moves)

    def boards(self) -> list[Board]:
        """Every board along the solution, start and goal included."""
        out = [self.board]
        for tile in self.moves:
            out.append(out[-1].slide(tile))
        return out

    def __str__(self) -> str:
        what = f"{self.method}" + (f" + {self.heuristic}" if self.heuristic else "")
        if not self.complete:
            return f"{what}: stopped early after {self.nodes:,} nodes, {self.seconds:.3f} s ({self.message})"
        kind = "optimal" if self.optimal else "not proven optimal"
        note = f" ({self.message})" if self.message else ""
        return f"{what}: {self.length} moves ({kind}), {self.nodes:,} nodes, {self.seconds:.3f} s{note}"


# ------------------------------------------------------------------ checks
def _parity_message(board: Board) -> str:
    inv = inversions(board)
    if board.cols % 2 == 1:
        why = (f"its width {board.cols} is odd, so every move keeps the parity of the inversion count, "
               f"and this board has {inv} inversions (odd) while the goal has 0")
    else:
        row = board.rows - board.blank[0]
        why = (f"its width {board.cols} is even, so inversions + the blank's row counted from the bottom "
               f"must stay odd, and here it is {inv} + {row} = {inv + row} (even)")
    return (f"this {board.rows}x{board.cols} puzzle cannot be solved: {why}. Half of all arrangements "
            "are like this; swap two tiles (not the blank) to get a solvable one")


def _check_board(board: object) -> Board:
    if not isinstance(board, Board):
        raise TypeError(
            f"expected a tilelab.sliding.Board, got {type(board).__name__}; "
            "build one with Board(tiles, rows, cols) or Board.parse(text)"
        )
    if not is_solvable(board):
        raise ValueError(_parity_message(board))
    return board


def _as_budget(budget: object) -> Budget | None:
    if budget is None or isinstance(budget, Budget):
        return budget
    if isinstance(budget, bool):
        raise TypeError("budget must be a number of nodes, a Budget(nodes=, seconds=) or None")
    if is_int(budget):
        return Budget(nodes=int(budget))
    if isinstance(budget, dict):
        unknown = set(budget) - {"nodes", "seconds"}
        if unknown:
            raise ValueError(f"budget dict keys are 'nodes' and 'seconds', not {sorted(map(str, unknown))}")
        return Budget(**budget)
    raise TypeError(
        f"budget must be a whole number of nodes, a dict or a Budget, got {budget!r}; "
        "for a time limit write Budget(seconds=2.0)"
    )


def _heuristics_for(board: Board) -> list[str]:
    names = list(HEURISTICS)
    if board.shape in PDB_SHAPES:
        names.append("pdb")
    return names


def _check_request(
    board: Board, method: str, heuristic: str, weight: float, budget: Budget | None, have_db: bool = False
) -> None:
    if not isinstance(method, str) or method not in METHODS:
        raise ValueError(f"unknown method {short_repr(method)}; choose one of {list(METHODS)}")
    if method in ("astar", "idastar", "weighted-astar"):
        if not isinstance(heuristic, str) or heuristic not in SOLVER_HEURISTICS:
            raise ValueError(f"unknown heuristic {heuristic!r}; choose one of {list(SOLVER_HEURISTICS)}")
        if heuristic == "pdb" and board.shape not in PDB_SHAPES and not have_db:
            raise ValueError(
                f"the 'pdb' heuristic has pattern databases for 3x3 and 4x4 boards, not "
                f"{board.rows}x{board.cols}; on this board use one of {_heuristics_for(board)}"
            )
    weight = as_float(weight, "weight")  # nan and inf are refused here, not deep inside the search
    if weight < 1:
        raise ValueError(f"weight must be a number >= 1, got {weight!r}")
    if method in ("astar", "idastar") and weight != 1:
        raise ValueError(f"weight={weight} turns A* into weighted A*: use method='weighted-astar'")
    cells = board.rows * board.cols
    limit = MAX_BFS_CELLS if method == "bfs" else MAX_SEARCH_CELLS
    if method != "human" and cells > limit and budget is None:
        raise ValueError(
            f"a {board.rows}x{board.cols} board is too large for {method!r} to finish (it handles "
            f"up to {limit} cells): use method='human' for a fast non-optimal solution, or pass "
            "budget=<nodes> or budget=Budget(seconds=...) to search anyway and stop early"
        )


# ------------------------------------------------------------------ solve
def solve(
    board: Board,
    method: str = "idastar",
    heuristic: str = _DEFAULT_HEURISTIC,
    weight: float = 1.0,
    budget: int | Budget | dict[str, float] | None = None,
    *,
    engine: str = "fast",
    pdb: PatternDatabase | None = None,
) -> SolveResult:
    """Solve ``board`` with ``method`` and ``heuristic``; see the module doc for the choices.

    ``heuristic="pdb"`` (the default) is for 3x3 and 4x4 boards; elsewhere the default falls
    back to ``"linear-conflict"``, while asking for ``"pdb"`` explicitly raises. ``budget``
    (nodes, or ``Budget(nodes=, seconds=)``) stops a search early; the result then says so.
    ``engine="reference"`` runs IDA* in plain Python (the lesson's version, slow). ``pdb`` is
    a :class:`~tilelab.sliding.pdb.PatternDatabase` to use instead of the cached default.

    >>> from tilelab.sliding import Board
    >>> solve(Board.parse('1 2\\n. 3'), method="bfs").moves
    (3,)
    """
    board = _check_board(board)
    budget = _as_budget(budget)
    if not isinstance(engine, str) or engine not in ENGINES:
        raise ValueError(f"engine must be one of {list(ENGINES)}, got {short_repr(engine)}")
    if pdb is not None:
        from tilelab.sliding.pdb import PatternDatabase

        if not isinstance(pdb, PatternDatabase):
            raise TypeError(f"pdb must be a PatternDatabase (from tilelab.sliding.pdb.pattern_database), "
                            f"got {type(pdb).__name__}")
    if heuristic is _DEFAULT_HEURISTIC:
        heuristic = "pdb" if pdb is not None or board.shape in PDB_SHAPES else "linear-conflict"
    if pdb is not None:
        if heuristic != "pdb":
            raise ValueError("pdb=... is only used with heuristic='pdb'")
        if (pdb.rows, pdb.cols) != board.shape:
            raise ValueError(f"the pattern database is for {pdb.rows}x{pdb.cols}, the puzzle is {board.rows}x{board.cols}")
    _check_request(board, method, heuristic, weight, budget, have_db=pdb is not None)
    weight = float(weight)
    start = time.perf_counter()
    if method == "human":
        _check_human_size(board)
        moves = human_moves(board)
        return SolveResult(board, moves, 0, time.perf_counter() - start, board.is_goal(), "human", None)
    if budget is None and not _known_quick(board, method, heuristic, engine):
        result = _search(board, method, heuristic, weight, Budget(seconds=DEFAULT_SOLVE_SECONDS), engine, pdb, start)
        return result if result.complete else _human_fallback(result)
    return _search(board, method, heuristic, weight, budget, engine, pdb, start)


def _check_human_size(board: Board) -> None:
    if board.rows * board.cols > MAX_HUMAN_CELLS:
        raise ValueError(f"a {board.rows}x{board.cols} board is past MAX_HUMAN_CELLS={MAX_HUMAN_CELLS} cells, the "
                         "largest the human strategy solves within seconds")


def _known_quick(board: Board, method: str, heuristic: str, engine: str) -> bool:
    """True for the searches that always end within seconds with no budget: 3x3 boards, and compiled
    IDA* with a pattern database on 4x4 (every 15-puzzle)."""
    if board.rows * board.cols <= MAX_BFS_CELLS:
        return True
    return board.shape == (4, 4) and heuristic == "pdb" and method == "idastar" and engine == "fast"


def _human_fallback(stopped: SolveResult) -> SolveResult:
    """The human strategy's moves, for a search that used up the default budget (saying so)."""
    moves = human_moves(stopped.board)
    bound = f" (an optimal solution needs at least {stopped.lower_bound} moves)" if stopped.lower_bound else ""
    message = (f"no optimal answer within {DEFAULT_SOLVE_SECONDS:g} s, the default budget{bound}: these are the "
               "human strategy's moves; pass budget=Budget(seconds=...) to search longer")
    return SolveResult(stopped.board, moves, stopped.nodes, stopped.seconds, False, stopped.method, stopped.heuristic,
                       complete=True, stopped_early=True, lower_bound=stopped.lower_bound, message=message)


def _search(board: Board, method: str, heuristic: str, weight: float, budget: Budget | None, engine: str,
            pdb: PatternDatabase | None, start: float) -> SolveResult:
    """Run the optimal (or weighted) search ``solve`` asked for, within ``budget``."""
    max_nodes = budget.nodes if budget else None
    max_seconds = budget.seconds if budget else None
    if method == "bfs":
        out = bfs_reference(board, max_nodes, max_seconds)
        return _result(board, out.moves, out.nodes, start, "bfs", None, out.found, 0, True)
    if heuristic == "pdb" and pdb is None:
        from tilelab.sliding.pdb import pattern_database

        pdb = pattern_database(board.rows, board.cols, progress=board.shape == (4, 4))  # 3x3: instant
    if method == "idastar" and engine == "fast":
        from tilelab.sliding.fast.idastar import FastIDAStar

        run = FastIDAStar(board, heuristic, pdb).run(max_nodes, max_seconds)
        return _result(board, run.moves, run.nodes, start, method, heuristic, run.found, run.bound, True)
    h = pdb.value if heuristic == "pdb" and pdb is not None else HEURISTICS[heuristic]
    if method == "idastar":
        out = idastar_reference(board, h, max_nodes, max_seconds)
    else:
        out = astar_reference(board, h, weight if method == "weighted-astar" else 1.0, max_nodes, max_seconds)
    # Weighted A* with weight 1 is plain A*, so it is still optimal; any larger weight is not.
    optimal_method = method != "weighted-astar" or weight == 1
    return _result(board, out.moves, out.nodes, start, method, heuristic, out.found, out.bound, optimal_method)


def _result(board: Board, moves: Iterable[int], nodes: int, start: float, method: str, heuristic: str | None,
            found: bool, bound: int, optimal_method: bool) -> SolveResult:
    seconds = time.perf_counter() - start
    if found:
        return SolveResult(board, tuple(moves), int(nodes), seconds, optimal_method, method, heuristic)
    message = f"budget used up; an optimal solution needs at least {bound} moves" if bound else "budget used up"
    return SolveResult(board, (), int(nodes), seconds, False, method, heuristic, complete=False,
                       stopped_early=True, lower_bound=bound or None, message=message)


# ------------------------------------------------------------------ hint
def hint(board: Board, seconds: float = DEFAULT_HINT_SECONDS) -> int | None:
    """The tile to slide next: the first move of an optimal solution if one is found within
    ``seconds``, else the human strategy's next move. ``None`` when the puzzle is solved.

    Never waits for a 15-puzzle pattern database to be built (that can take a minute): on a 4x4
    it uses the cached one when present, else linear conflict (the 3x3 one builds instantly).

    >>> from tilelab.sliding import Board
    >>> hint(Board.parse('1 2 3\\n4 . 6\\n7 5 8'))
    5
    """
    board = _check_board(board)
    seconds = as_float(seconds, "seconds", minimum=0)
    if board.is_goal():
        return None
    _check_human_size(board)
    if board.rows * board.cols <= MAX_SEARCH_CELLS:
        from tilelab.sliding.fast.idastar import FastIDAStar
        from tilelab.sliding.pdb import DEFAULT_PATTERNS, pattern_database

        db = None
        if board.shape in DEFAULT_PATTERNS:
            db = pattern_database(board.rows, board.cols, build=board.shape == (3, 3), progress=False)
        run = FastIDAStar(board, "pdb" if db is not None else "linear-conflict", db).run(max_seconds=seconds)
        if run.found:
            return run.moves[0]
    return human_moves(board)[0]
