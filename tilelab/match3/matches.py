"""Match-3 runs and groups (readable reference): find runs, join them into groups, name their shapes.

Part of the readable match-3 engine; :mod:`tilelab.match3` is its public face (its docstring has the
glossary).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from tilelab.match3.board import Board, Cell, EMPTY, RUN, SHAPE_POINTS

__all__ = [
    "Run",
    "Group",
    "find_runs",
    "find_matches",
    "runs_through",
    "four_direction_counts",
    "DIRECTIONS",
]


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
