"""Match-3 rules, readable reference: board, runs, groups and shapes, clear, fall, refill, swap.

Glossary (the names the lesson uses):

- *cell*: ``(row, col)``; row 0 is the top row, candies fall towards higher rows.
- *kind*: a candy colour, ``0 .. kinds-1``; :data:`EMPTY` (-1) marks a hole during a cascade.
- *run*: three or more candies of one kind in a row or a column (maximal).
- *group*: runs that share a cell clear together (an L, T or cross); its ``shape`` scores it.
- *swap*: exchange two orthogonal neighbours; legal only when it creates a run, else swapped back.
- *cascade step*: match -> clear -> fall -> refill; repeated until the board is *stable* (no run).
- *dead*: stable AND no swap makes a run (defined for stable boards only: ``is_dead`` raises
  ValueError on a board that still holds a run).

Every step is returned as data (groups, falls, refills, the boards in between) so that plots
and widgets can show it. The fast engine in :mod:`tilelab.match3.fast` computes the same
final boards and scores and is tested to agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator, Sequence

import numpy as np

from tilelab._checks import _short, is_int
from tilelab._random import RngLike, as_generator

Cell = tuple[int, int]
Move = tuple[Cell, Cell]

EMPTY = -1
MIN_KINDS = 3
RUN = 3  # candies in a row that make a match
SYMBOLS = "0123456789abcdefghijklmnopqrstuvwxyz"
EMPTY_SYMBOL = "."
MAX_KINDS = len(SYMBOLS)
MAX_SIDE = 40  #: longest side a board accepts
MAX_CELLS = 40 * 40  #: most cells a board accepts: every public function ends within seconds here (tested)

# Candy Crush points per group, before the cascade multiplier.
SHAPE_POINTS = {"line3": 60, "line4": 120, "line5": 200, "L": 200, "T": 200, "cross": 200}
SHAPES = tuple(SHAPE_POINTS)
# Safety net only: a refill that keeps matching forever has probability zero.
MAX_CASCADES = 10_000


# ----------------------------------------------------------------------------- board


@dataclass(frozen=True)
class Board:
    """An immutable match-3 board: ``grid[row][col]`` is a kind in ``0..kinds-1`` (or EMPTY).

    >>> b = Board.parse('''
    ... 012
    ... 120
    ... 201''')
    >>> b.rows, b.cols, b.kinds, b[1, 2]
    (3, 3, 3, 0)
    >>> print(b)
    012
    120
    201
    """

    grid: tuple[tuple[int, ...], ...]
    kinds: int

    def __post_init__(self) -> None:
        kinds = _check_kinds(self.kinds)
        object.__setattr__(self, "kinds", kinds)
        object.__setattr__(self, "grid", _check_grid(self.grid, kinds))

    # -- shape and access
    @property
    def rows(self) -> int:
        return len(self.grid)

    @property
    def cols(self) -> int:
        return len(self.grid[0])

    def __getitem__(self, cell: Cell) -> int:
        r, c = cell
        return self.grid[r][c]

    def cells(self) -> Iterator[Cell]:
        """Every cell in reading order (top row first, left to right)."""
        return ((r, c) for r in range(self.rows) for c in range(self.cols))

    def on_board(self, cell: Cell) -> bool:
        r, c = cell
        return 0 <= r < self.rows and 0 <= c < self.cols

    @property
    def is_full(self) -> bool:
        """True when no cell is EMPTY."""
        return all(k != EMPTY for row in self.grid for k in row)

    def counts(self) -> tuple[int, ...]:
        """How many candies of each kind: ``counts()[k]``."""
        flat = [k for row in self.grid for k in row]
        return tuple(flat.count(k) for k in range(self.kinds))

    def with_cells(self, changes: dict[Cell, int]) -> "Board":
        """A new board with some cells set to new kinds (or EMPTY); only the changed cells are checked."""
        rows = list(self.grid)
        for cell, kind in changes.items():
            r, c = check_cell(self, cell)
            if not is_int(kind) or not (0 <= kind < self.kinds or kind == EMPTY):
                raise ValueError(f"cell {(r, c)} cannot hold {_short(kind)}: kinds are ints 0..{self.kinds - 1} or EMPTY")
            row = list(rows[r])
            row[c] = int(kind)
            rows[r] = tuple(row)
        board = object.__new__(Board)
        object.__setattr__(board, "grid", tuple(rows))
        object.__setattr__(board, "kinds", self.kinds)
        return board

    def swapped(self, a: Cell, b: Cell) -> "Board":
        """The board with the candies at ``a`` and ``b`` exchanged (no rules applied)."""
        return self.with_cells({a: self[b], b: self[a]})

    # -- text and numpy round trips
    def picture(self) -> str:
        """Text picture: one character per cell, kinds as 0-9 a-z, holes as '.'."""
        return "\n".join(
            "".join(EMPTY_SYMBOL if k == EMPTY else SYMBOLS[k] for k in row) for row in self.grid
        )

    __str__ = picture

    def __repr__(self) -> str:
        return f"Board.parse({self.picture()!r}, kinds={self.kinds})"

    @classmethod
    def parse(cls, picture: str, kinds: int | None = None) -> "Board":
        """Read a text picture (spaces ignored); ``kinds`` defaults to max(3, largest kind + 1).

        >>> Board.parse("0 1 2\\n2 . 1").grid
        ((0, 1, 2), (2, -1, 1))
        """
        if not isinstance(picture, str):
            raise TypeError(f"Board.parse expects a str picture, got {type(picture).__name__}")
        lines = [line.replace(" ", "").replace("\t", "") for line in picture.strip().splitlines()]
        lines = [line for line in lines if line]
        if not lines:
            raise ValueError("empty picture: give one line of kinds per row, e.g. '012\\n120'")
        grid = []
        for line in lines:
            row = []
            for ch in line:
                if ch == EMPTY_SYMBOL:
                    row.append(EMPTY)
                elif ch.isascii() and ch.lower() in SYMBOLS:
                    row.append(SYMBOLS.index(ch.lower()))
                else:
                    raise ValueError(f"unknown symbol {ch!r} in picture: use 0-9, a-z or '.'")
            grid.append(tuple(row))
        if kinds is None:
            kinds = max(MIN_KINDS, max(max(row) for row in grid) + 1)
        return cls(tuple(grid), kinds)

    def to_array(self) -> np.ndarray:
        """The grid as an ``int8`` numpy array (EMPTY stays -1)."""
        return np.array(self.grid, dtype=np.int8)

    @classmethod
    def _trusted(cls, array: np.ndarray, kinds: int) -> "Board":
        """Engine-internal: wrap an array the engine itself produced, skipping validation."""
        board = object.__new__(cls)
        object.__setattr__(board, "grid", tuple(map(tuple, array.tolist())))
        object.__setattr__(board, "kinds", kinds)
        return board

    @classmethod
    def from_array(cls, array: np.ndarray, kinds: int) -> "Board":
        """A board from a 2-D integer array."""
        array = np.asarray(array)
        if array.ndim != 2:
            raise ValueError(f"expected a 2-D array of kinds, got {array.ndim} dimensions")
        if array.dtype.kind not in "iu":  # 0.5 is not kind 0: refuse, never truncate
            raise TypeError(f"array must hold integer kinds, got dtype {array.dtype}")
        return cls(tuple(map(tuple, array.tolist())), kinds)


def _check_kinds(kinds: object) -> int:
    if isinstance(kinds, bool) or not isinstance(kinds, (int, np.integer)):
        raise TypeError(f"kinds must be an int, got {type(kinds).__name__}")
    kinds = int(kinds)
    if not MIN_KINDS <= kinds <= MAX_KINDS:
        raise ValueError(
            f"kinds={kinds}: match-3 needs at least {MIN_KINDS} kinds (with fewer, some run is "
            f"unavoidable) and at most {MAX_KINDS}"
        )
    return kinds


def _check_grid(grid: object, kinds: int) -> tuple[tuple[int, ...], ...]:
    if isinstance(grid, np.ndarray):
        grid = grid.tolist()
    try:
        rows = [list(row) for row in grid]  # type: ignore[union-attr]
    except TypeError:
        raise ValueError("grid must be a sequence of rows, e.g. ((0, 1, 2), (1, 2, 0))") from None
    if not rows or not rows[0]:
        raise ValueError("grid is empty: a board needs at least one row and one column")
    width = len(rows[0])
    _check_limits(len(rows), width)
    for r, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(f"ragged grid: row 0 has {width} cells but row {r} has {len(row)}")
        for c, k in enumerate(row):
            if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
                raise ValueError(f"cell {(r, c)} holds {k!r}: kinds are ints 0..{kinds - 1}")
            if not (0 <= k < kinds or k == EMPTY):
                raise ValueError(
                    f"cell {(r, c)} holds kind {k}, outside 0..{kinds - 1} (EMPTY is {EMPTY})"
                )
    return tuple(tuple(int(k) for k in row) for row in rows)


def _check_limits(rows: int, cols: int) -> None:
    """ValueError naming the limit when a board would be larger than MAX_SIDE / MAX_CELLS."""
    if max(rows, cols) > MAX_SIDE or rows * cols > MAX_CELLS:
        raise ValueError(f"a {rows}x{cols} board is past tilelab's limits: at most MAX_SIDE={MAX_SIDE} per side and "
                         f"MAX_CELLS={MAX_CELLS} cells, so that every call ends within seconds")


def check_cell(board: Board, cell: object, name: str = "cell") -> Cell:
    """Return ``cell`` as ``(row, col)`` or raise ValueError naming the problem."""
    try:
        r, c = cell  # type: ignore[misc]
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a (row, col) pair, got {cell!r}") from None
    if any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) for v in (r, c)):
        raise ValueError(f"{name} must be a (row, col) pair of ints, got {cell!r}")
    r, c = int(r), int(c)
    if not board.on_board((r, c)):
        raise ValueError(
            f"{name} {(r, c)} is off the board: rows 0..{board.rows - 1}, cols 0..{board.cols - 1}"
        )
    return (r, c)


def check_full(board: Board) -> None:
    if not isinstance(board, Board):
        raise TypeError(f"expected a match3 Board, got {type(board).__name__}")
    if not board.is_full:
        raise ValueError("the board has EMPTY cells: refill it first (a move needs a full board)")


def neighbours(a: Cell, b: Cell) -> bool:
    """True when two cells share a side."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


# ----------------------------------------------------------------------------- runs and groups


@dataclass(frozen=True)
class Run:
    """A maximal line of 3+ same-kind candies; ``cells`` in order along the line."""

    cells: tuple[Cell, ...]
    kind: int
    direction: str  # "row" or "col"

    def __len__(self) -> int:
        return len(self.cells)


@dataclass(frozen=True)
class Group:
    """Runs sharing cells, cleared as one: ``cells``, ``kind``, ``shape`` and Candy Crush ``points``."""

    cells: frozenset[Cell]
    kind: int
    shape: str
    runs: tuple[Run, ...] = field(compare=False, default=())

    @property
    def points(self) -> int:
        """Points before the cascade multiplier: 60 / 120 / 200."""
        return SHAPE_POINTS[self.shape]


def find_runs(board: Board) -> list[Run]:
    """Every run of 3+ in rows, then in columns (the whole-board scan).

    >>> [(r.kind, r.direction, len(r)) for r in find_runs(Board.parse('''
    ... 1110
    ... 0201
    ... 0212
    ... 2200'''))]
    [(1, 'row', 3), (2, 'col', 3)]
    """
    if not isinstance(board, Board):
        raise TypeError(f"expected a match3 Board, got {type(board).__name__}; build one with Board(grid, kinds)")
    runs = []
    lines = [("row", [(r, c) for c in range(board.cols)]) for r in range(board.rows)]
    lines += [("col", [(r, c) for r in range(board.rows)]) for c in range(board.cols)]
    for direction, line in lines:
        start = 0
        for i in range(1, len(line) + 1):
            if i == len(line) or board[line[i]] != board[line[start]]:
                if i - start >= RUN and board[line[start]] != EMPTY:
                    runs.append(Run(tuple(line[start:i]), board[line[start]], direction))
                start = i
    return runs


def _shape(runs: Sequence[Run]) -> str:
    """Name a group's shape from its runs.

    One run: line3/line4/line5 (5 or more is line5). Crossing runs: a 5-line wins (as in
    Candy Crush the colour bomb outranks the wrapped candy); otherwise the most central
    crossing decides: both runs cross at their ends -> L, one at its middle -> T, both -> cross.
    """
    longest = max(len(run) for run in runs)
    if len(runs) == 1 or longest >= 5:
        return "line" + str(min(longest, 5))
    best = 0
    for h in (run for run in runs if run.direction == "row"):
        for v in (run for run in runs if run.direction == "col"):
            shared = set(h.cells) & set(v.cells)
            if shared:
                cell = shared.pop()
                inner = _is_inner(h, cell) + _is_inner(v, cell)
                best = max(best, 1 + inner)
    return ("L", "T", "cross")[best - 1]


def _is_inner(run: Run, cell: Cell) -> int:
    i = run.cells.index(cell)
    return int(0 < i < len(run) - 1)


def find_matches(board: Board) -> list[Group]:
    """The groups that would clear now: runs sharing a cell merge; sorted by their first cell.

    >>> g, = find_matches(Board.parse('''
    ... 1110
    ... 0120
    ... 2102
    ... 0212'''))
    >>> g.kind, g.shape, g.points, sorted(g.cells)
    (1, 'T', 200, [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)])
    """
    runs = find_runs(board)
    # union runs that share a cell (a tiny union-find over run indices)
    parent = list(range(len(runs)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[Cell, int] = {}
    for i, run in enumerate(runs):
        for cell in run.cells:
            if cell in owner:
                parent[root(i)] = root(owner[cell])
            else:
                owner[cell] = i
    members: dict[int, list[Run]] = {}
    for i, run in enumerate(runs):
        members.setdefault(root(i), []).append(run)
    groups = []
    for group_runs in members.values():
        cells = frozenset(c for run in group_runs for c in run.cells)
        groups.append(Group(cells, group_runs[0].kind, _shape(group_runs), tuple(group_runs)))
    return sorted(groups, key=lambda g: min(g.cells))


def runs_through(board: Board, cell: Cell) -> bool:
    """True when ``cell`` is part of a run of 3+ (counting outwards in four directions)."""
    kind = board[cell]
    if kind == EMPTY:
        return False
    counts = four_direction_counts(board, cell)
    return counts["left"] + counts["right"] + 1 >= RUN or counts["up"] + counts["down"] + 1 >= RUN


def four_direction_counts(board: Board, cell: Cell) -> dict[str, int]:
    """Same-kind candies next to ``cell`` going up, down, left, right (not counting itself).

    >>> four_direction_counts(Board.parse('''
    ... 010
    ... 101
    ... 010'''), (1, 1))
    {'up': 0, 'down': 0, 'left': 0, 'right': 0}
    >>> four_direction_counts(Board.parse('''
    ... 010
    ... 111
    ... 010'''), (1, 1))
    {'up': 1, 'down': 1, 'left': 1, 'right': 1}
    """
    kind = board[cell]
    result = {}
    for name, (dr, dc) in DIRECTIONS.items():
        r, c, n = cell[0] + dr, cell[1] + dc, 0
        while board.on_board((r, c)) and board[r, c] == kind:
            r, c, n = r + dr, c + dc, n + 1
        result[name] = n
    return result


DIRECTIONS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


# ----------------------------------------------------------------------------- clear, fall, refill


def clear(board: Board, groups: Iterable[Group]) -> Board:
    """Remove the candies of the groups (their cells become EMPTY)."""
    return board.with_cells({cell: EMPTY for g in groups for cell in g.cells})


def fall(board: Board) -> tuple[Board, tuple[tuple[Cell, Cell], ...]]:
    """Candies drop into the holes below them; returns the board and each fall ``(from, to)``.

    >>> after, falls = fall(Board.parse('''
    ... 01
    ... 2.
    ... ..'''))
    >>> print(after)
    ..
    0.
    21
    >>> falls
    (((1, 0), (2, 0)), ((0, 0), (1, 0)), ((0, 1), (2, 1)))
    """
    changes: dict[Cell, int] = {}
    falls = []
    for c in range(board.cols):
        target = board.rows - 1  # lowest free row in this column
        for r in range(board.rows - 1, -1, -1):
            kind = board[r, c]
            if kind == EMPTY:
                continue
            if r != target:
                falls.append(((r, c), (target, c)))
                changes[(target, c)] = kind
                changes[(r, c)] = EMPTY
            target -= 1
    return board.with_cells(changes), tuple(falls)


def refill_outcomes(board: Board, cell: Cell | None = None) -> list[tuple[int, float]]:
    """The chance event behind a refill: each new candy is kind ``k`` with probability 1/kinds.

    Every EMPTY cell is refilled independently with these outcomes (``cell`` is accepted to
    say which hole you ask about; all holes have the same distribution).

    >>> refill_outcomes(Board.parse("012\\n.01"), (1, 0))
    [(0, 0.3333333333333333), (1, 0.3333333333333333), (2, 0.3333333333333333)]
    """
    if cell is not None:
        cell = check_cell(board, cell)
        if board[cell] != EMPTY:
            raise ValueError(f"cell {cell} is not EMPTY: only holes are refilled")
    return [(k, 1.0 / board.kinds) for k in range(board.kinds)]


def kind_from_uniform(u: float, kinds: int) -> int:
    """Map a uniform draw in [0, 1) to a kind: the one place refills turn chance into candy."""
    return min(int(u * kinds), kinds - 1)


def sample_refill(outcomes: Sequence[tuple[int, float]], u: float) -> int:
    """The kind a uniform draw ``u`` in [0, 1) picks from ``[(kind, probability)]`` (the inverse CDF).

    Equal probabilities (the game's rule) go through :func:`kind_from_uniform`, the very mapping
    the compiled engines use, so the same seed gives the same candies whichever engine runs;
    other lists walk the cumulative sum as 2048's spawn sampler does.

    >>> sample_refill([(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)], 0.5), sample_refill([(0, 0.9), (1, 0.1)], 0.95)
    (1, 1)
    """
    if not outcomes:
        raise ValueError("there is no refill outcome to sample from")
    first = outcomes[0][1]
    if all(p == first for _, p in outcomes):
        return outcomes[kind_from_uniform(u, len(outcomes))][0]
    total = 0.0
    for kind, p in outcomes:
        total += p
        if u < total:
            return kind
    return outcomes[-1][0]  # u landed in the rounding gap just below 1.0


def refill(board: Board, rng: RngLike) -> tuple[Board, tuple[tuple[Cell, int], ...]]:
    """Fill every EMPTY cell with a kind sampled from :func:`refill_outcomes`; returns the board
    and each ``(cell, kind)``.

    Chance is data, as in 2048: the outcomes and their probabilities come from
    :func:`refill_outcomes` and :func:`sample_refill` draws from that list. One ``rng.random()``
    per hole, holes in reading order, so the fast engine reproduces the very same candies.

    >>> full, refills = refill(Board.parse("..\\n01"), 0)
    >>> print(full); refills
    10
    01
    (((0, 0), 1), ((0, 1), 0))
    """
    rng = as_generator(rng)
    holes = [cell for cell in board.cells() if board[cell] == EMPTY]
    outcomes = refill_outcomes(board)
    draws = rng.random(len(holes))
    refills = tuple((cell, sample_refill(outcomes, float(u))) for cell, u in zip(holes, draws))
    return board.with_cells(dict(refills)), refills


# ----------------------------------------------------------------------------- swap and cascades


@dataclass(frozen=True)
class CascadeStep:
    """One round of a cascade: matched -> cleared -> fallen -> refilled.

    ``index`` is the cascade multiplier (1 for the swap's own matches, then 2, 3, ...).
    """

    index: int
    before: Board
    groups: tuple[Group, ...]
    cleared: Board
    falls: tuple[tuple[Cell, Cell], ...]
    fallen: Board
    refills: tuple[tuple[Cell, int], ...]
    board: Board

    @property
    def score(self) -> int:
        """Points of this step: each group's points times the cascade index."""
        return self.index * sum(g.points for g in self.groups)


@dataclass(frozen=True)
class SwapResult:
    """What a swap did. ``valid`` False means it was swapped back and ``board`` is unchanged."""

    valid: bool
    board: Board
    steps: tuple[CascadeStep, ...]
    score: int
    cascades: int
    a: Cell
    b: Cell
    swapped: Board  # the board right after exchanging the two candies


def cascade_step(board: Board, index: int, rng: RngLike) -> CascadeStep | None:
    """Match, clear, fall and refill once; None when the board is stable.

    >>> step = cascade_step(Board.parse('''
    ... 012
    ... 111
    ... 201'''), 1, rng=0)
    >>> [g.shape for g in step.groups], step.score
    (['line3'], 60)
    >>> print(step.cleared); print(step.fallen); print(step.board)
    012
    ...
    201
    ...
    012
    201
    100
    012
    201
    >>> step.refills
    (((0, 0), 1), ((0, 1), 0), ((0, 2), 0))
    >>> cascade_step(step.board, 2, rng=0) is None     # stable: nothing to do
    True
    """
    groups = tuple(find_matches(board))
    if not groups:
        return None
    cleared = clear(board, groups)
    fallen, falls = fall(cleared)
    refilled, refills = refill(fallen, rng)
    return CascadeStep(index, board, groups, cleared, falls, fallen, refills, refilled)


def resolve(board: Board, rng: RngLike) -> tuple[CascadeStep, ...]:
    """Run cascade steps until no run is left; the steps in order (empty if already stable).

    >>> steps = resolve(Board.parse('''
    ... 012
    ... 111
    ... 201'''), rng=0)
    >>> len(steps), [s.index for s in steps], sum(s.score for s in steps)
    (1, [1], 60)
    >>> print(steps[-1].board)
    100
    012
    201
    >>> resolve(steps[-1].board, rng=0)
    ()
    """
    rng = as_generator(rng)
    steps: list[CascadeStep] = []
    while len(steps) < MAX_CASCADES:
        step = cascade_step(board, len(steps) + 1, rng)
        if step is None:
            return tuple(steps)
        steps.append(step)
        board = step.board
    raise RuntimeError(f"cascade did not settle after {MAX_CASCADES} steps")  # pragma: no cover


def check_swap(board: Board, a: object, b: object) -> Move:
    """Validate a swap's input; returns the two cells or raises ValueError naming the problem."""
    check_full(board)
    a, b = check_cell(board, a, "cell a"), check_cell(board, b, "cell b")
    if not neighbours(a, b):
        raise ValueError(f"cells {a} and {b} are not neighbours: swap two cells that share a side")
    return a, b


def creates_run(board: Board, a: Cell, b: Cell) -> bool:
    """True when swapping ``a`` and ``b`` makes a run through one of them (the legality rule)."""
    if board[a] == board[b]:
        return False
    after = board.swapped(a, b)
    return runs_through(after, a) or runs_through(after, b)


def swap(board: Board, a: Cell, b: Cell, rng: RngLike) -> SwapResult:
    """Swap two neighbours; if a run appears, clear and cascade until stable, else swap back.

    >>> board = Board.parse('''
    ... 0120
    ... 1201
    ... 0012
    ... 2102''')
    >>> bad = swap(board, (0, 0), (0, 1), rng=1)
    >>> bad.valid, bad.board == board
    (False, True)
    >>> result = swap(board, (2, 2), (3, 2), rng=1)   # the 0 drops into row 2: 000
    >>> result.valid, result.cascades, result.score
    (True, 1, 60)
    >>> print(result.steps[0].cleared)
    0120
    1201
    ...2
    2112
    >>> print(result.board)
    1200
    0121
    1202
    2112
    """
    a, b = check_swap(board, a, b)
    rng = as_generator(rng)
    swapped = board.swapped(a, b)
    if not creates_run(board, a, b):
        return SwapResult(False, board, (), 0, 0, a, b, swapped)
    steps = resolve(swapped, rng)
    return SwapResult(
        True, steps[-1].board, steps, sum(s.score for s in steps), len(steps), a, b, swapped
    )


# ----------------------------------------------------------------------------- moves


def valid_moves(board: Board) -> list[Move]:
    """Every legal swap ``(a, b)``, ``a`` before ``b`` in reading order (reference version).

    >>> valid_moves(Board.parse('''
    ... 001
    ... 120
    ... 212'''))
    [((0, 2), (1, 2)), ((1, 1), (2, 1))]
    """
    check_full(board)
    moves = []
    for a in board.cells():
        for b in ((a[0], a[1] + 1), (a[0] + 1, a[1])):
            if board.on_board(b) and creates_run(board, a, b):
                moves.append((a, b))
    return sorted(moves)


def check_stable(board: Board) -> None:
    """Raise ValueError when the board is not full or still holds a run (``dead`` needs stable).

    >>> check_stable(Board.parse("012\\n120\\n201"))
    >>> check_stable(Board.parse("000\\n120\\n201"))
    Traceback (most recent call last):
    ...
    ValueError: the board still holds a run at (0, 0), (0, 1), (0, 2): 'dead' is defined only for stable boards -- run the cascade first (resolve(board, rng)), or ask valid_moves(board) for the legal swaps
    """
    check_full(board)
    runs = find_runs(board)
    if runs:
        cells = ", ".join(str(cell) for cell in runs[0].cells)
        raise ValueError(
            f"the board still holds a run at {cells}: 'dead' is defined only for stable boards -- "
            "run the cascade first (resolve(board, rng)), or ask valid_moves(board) for the legal swaps"
        )


def is_dead(board: Board) -> bool:
    """True when the board is stable and no swap makes a run: it must be reshuffled (reference).

    *Dead* means stable (no run) AND no legal swap. A board that still holds a run is not
    settled yet, so asking whether it is dead is a mistake: :func:`check_stable` raises
    ValueError instead of answering (the compiled ``tilelab.match3.is_dead`` does the same).

    >>> is_dead(Board.parse("012\\n120\\n201"))
    True
    """
    check_stable(board)
    return not valid_moves(board)


def immediate_score(board: Board, move: Move) -> int:
    """Points the swap's own matches earn (cascade index 1), before any random refill."""
    a, b = move
    if not creates_run(board, a, b):
        return 0
    return sum(g.points for g in find_matches(board.swapped(a, b)))


def _immediate_score_stable(board: Board, move: Move) -> int:
    """:func:`immediate_score` for a board with no run, looking only near the swap (same answer, tested).

    On a board with no run, every run after a swap passes through one of the two swapped cells and
    reaches at most two cells beyond them (three more of one kind would have been a run already), so
    the window two cells around the pair holds every group the swap makes, whole.
    """
    a, b = move
    if not creates_run(board, a, b):
        return 0
    r0, r1 = max(min(a[0], b[0]) - 2, 0), min(max(a[0], b[0]) + 2, board.rows - 1)
    c0, c1 = max(min(a[1], b[1]) - 2, 0), min(max(a[1], b[1]) + 2, board.cols - 1)
    window = Board._trusted(np.array([row[c0:c1 + 1] for row in board.grid[r0:r1 + 1]]), board.kinds)
    moved = window.swapped((a[0] - r0, a[1] - c0), (b[0] - r0, b[1] - c0))
    return sum(g.points for g in find_matches(moved))


HINT_RULES = ("score", "first", "lowest")


def hint(board: Board, rule: str = "score") -> Move | None:
    """One valid move chosen by a stated rule, or None on a dead board.

    - ``"score"``: the largest immediate score (the swap's own matches); ties -> the lowest move
      on the board (falls there disturb fewer candies), then reading order.
    - ``"lowest"``: the move nearest the bottom (it stirs most candies above it).
    - ``"first"``: the first valid move in reading order.

    >>> hint(Board.parse('''
    ... 0120
    ... 1201
    ... 0012
    ... 2102'''))
    ((2, 2), (3, 2))
    """
    if not isinstance(rule, str) or rule not in HINT_RULES:
        raise ValueError(f"unknown hint rule {rule!r}: use one of {HINT_RULES}")
    moves = valid_moves(board)
    if not moves:
        return None
    if rule == "first":
        return moves[0]
    lowest = lambda m: (-max(m[0][0], m[1][0]), m)  # noqa: E731
    if rule == "lowest":
        return min(moves, key=lowest)
    score = _immediate_score_stable if not find_runs(board) else immediate_score
    return min(moves, key=lambda m: (-score(board, m), lowest(m)))
