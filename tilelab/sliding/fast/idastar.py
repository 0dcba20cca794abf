"""The fast IDA*: an explicit-stack depth-first search compiled with numba (via tilelab.jit).

Same search as :func:`tilelab.sliding.search.idastar_reference` -- same move order (the
blank goes up, down, left, right), never straight back, children whose ``f = g + h`` exceeds
the bound are not entered -- so both return the same solution and the same node count. The
differences are all about speed:

- the board is a small int8 array changed in place and changed back on the way up;
- the heuristic is updated from the one tile that moved, not recomputed: misplaced and
  Manhattan by a difference, linear conflict by recounting the two lines the tile left and
  entered, pattern databases by adding ``(new cell - old cell) * n**j`` to one table index;
- the search can stop after a number of nodes and *resume* where it stopped (all of its state
  lives in arrays the caller owns), so the Python driver can honour a time budget.

>>> from tilelab.sliding import Board
>>> p = Board.parse('1 2 3\\n4 . 6\\n7 5 8')
>>> run = FastIDAStar(p, "manhattan").run()
>>> run.moves, run.found
((5, 8), True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from tilelab.jit import njit, py_func
from tilelab.sliding.core import Board

if TYPE_CHECKING:
    from tilelab.sliding.pdb import PatternDatabase

__all__ = ["FastIDAStar", "HEURISTIC_CODES", "IDARun", "board_heuristic", "heuristic_values"]

# Heuristic codes understood by the kernel.
MISPLACED, MANHATTAN, LINEAR_CONFLICT, PDB = 0, 1, 2, 3
HEURISTIC_CODES = {
    "misplaced": MISPLACED, "manhattan": MANHATTAN, "linear-conflict": LINEAR_CONFLICT, "pdb": PDB,
}

# Kernel status codes.
FOUND, EXHAUSTED, PAUSED = 0, 1, 2
# Slots of the register array that keeps the search resumable.
R_DEPTH, R_BLANK, R_BOUND, R_NEXT = 0, 1, 2, 3
NO_BOUND = 1 << 40
CHUNK_NODES = 200_000  # most nodes per kernel call between budget checks
MIN_CHUNK = 2_000  # first call under a time budget, before the node rate is known
TIME_SLICE = 0.01  # seconds per kernel call under a time budget
LC_COST = 2


@dataclass
class Tables:
    """Everything the kernel reads about the board shape and the heuristic (arrays only)."""

    rows: int
    cols: int
    code: int
    goal_row: npt.NDArray[Any]  # goal row of tile t
    goal_col: npt.NDArray[Any]
    nb: npt.NDArray[Any]  # neighbour cells of each cell, (n, 4), -1 off the board
    pdb: npt.NDArray[Any]  # all pattern tables concatenated (uint8); 1 dummy byte when unused
    offset: npt.NDArray[Any]  # start of each pattern's table in ``pdb``
    group: npt.NDArray[Any]  # pattern of tile t (-1 for the blank)
    weight: npt.NDArray[Any]  # n ** (digit of tile t in its pattern)
    rgroup: npt.NDArray[Any]  # the same for the mirrored lookup (tile t plays mirror[t])
    rweight: npt.NDArray[Any]
    tcell: npt.NDArray[Any]  # cell reflected in the main diagonal
    reflect: int


def make_tables(rows: int, cols: int, heuristic: str, db: PatternDatabase | None = None) -> Tables:
    n = rows * cols
    goal_row = np.zeros(n, np.int64)
    goal_col = np.zeros(n, np.int64)
    for t in range(1, n):
        goal_row[t], goal_col[t] = divmod(t - 1, cols)
    nb = np.full((n, 4), -1, np.int64)
    for cell in range(n):
        r, c = divmod(cell, cols)
        for k, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                nb[cell, k] = cell + dr * cols + dc
    group = np.full(n, -1, np.int64)
    weight = np.zeros(n, np.int64)
    rgroup = np.full(n, -1, np.int64)
    rweight = np.zeros(n, np.int64)
    tcell = np.arange(n, dtype=np.int64)
    pdb = np.zeros(1, np.uint8)
    offset: npt.NDArray[np.int64] = np.zeros(1, np.int64)
    reflect = 0
    if heuristic == "pdb":
        if db is None:
            raise ValueError("the 'pdb' heuristic needs a PatternDatabase (db=...)")
        pdb = np.concatenate(db.tables)
        offset = np.cumsum([0] + [t.shape[0] for t in db.tables[:-1]]).astype(np.int64)
        for g, pattern in enumerate(db.patterns):
            for j, t in enumerate(pattern):
                group[t] = g
                weight[t] = n**j
        if db.reflect:
            reflect = 1
            from tilelab.sliding.pdb import transpose_tiles

            mirror = transpose_tiles(rows, cols)
            if mirror is None:  # only square boards have the mirror symmetry
                raise ValueError(f"a reflected pattern database needs a square board, not {rows}x{cols}")
            for t in range(1, n):
                rgroup[t] = group[mirror[t]]
                rweight[t] = weight[mirror[t]]
            for cell in range(n):
                r, c = divmod(cell, cols)
                tcell[cell] = c * cols + r
    return Tables(rows, cols, HEURISTIC_CODES[heuristic], goal_row, goal_col, nb, pdb, offset,
                  group, weight, rgroup, rweight, tcell, reflect)


# ------------------------------------------------------------------ heuristic pieces
@njit(refcounts=False)
def _lis(seq: npt.NDArray[Any], m: int, best: npt.NDArray[Any]) -> int:
    """Longest strictly increasing subsequence of ``seq[:m]`` (``best`` is scratch space)."""
    top = 0
    for i in range(m):
        b = 1
        for j in range(i):
            if seq[j] < seq[i] and best[j] + 1 > b:
                b = best[j] + 1
        best[i] = b
        if b > top:
            top = b
    return top


@njit(inline="always")
def _line_conflicts(board: npt.NDArray[Any], start: int, stride: int, count: int, line: int, goal_on: npt.NDArray[Any],
                    goal_along: npt.NDArray[Any], scratch: npt.NDArray[Any]) -> int:
    """Tiles that must leave one line: the ``count`` cells from ``start`` by ``stride`` (1 along a row,
    ``cols`` down a column), counting tiles whose goal lies on ``line`` (``goal_on``), ordered by
    ``goal_along`` (``scratch``: spare space, 2 x the longer side)."""
    half = scratch.shape[0] // 2
    seq = scratch[:half]
    m = 0
    for k in range(count):
        t = board[start + k * stride]
        if t != 0 and goal_on[t] == line:
            seq[m] = goal_along[t]
            m += 1
    return m - _lis(seq, m, scratch[half:])


@njit(refcounts=False)
def _row_conflicts(board: npt.NDArray[Any], r: int, cols: int, goal_row: npt.NDArray[Any], goal_col: npt.NDArray[Any],
                   scratch: npt.NDArray[Any]) -> int:
    """Tiles that must leave row ``r``."""
    return _line_conflicts(board, r * cols, 1, cols, r, goal_row, goal_col, scratch)


@njit(refcounts=False)
def _col_conflicts(board: npt.NDArray[Any], c: int, rows: int, cols: int, goal_row: npt.NDArray[Any], goal_col: npt.NDArray[Any],
                   scratch: npt.NDArray[Any]) -> int:
    """Tiles that must leave column ``c``."""
    return _line_conflicts(board, c, cols, rows, c, goal_col, goal_row, scratch)


@njit(inline="always")  # a view: returned from a call only under numba's runtime
def _scratch(lines: npt.NDArray[Any], rows: int, cols: int) -> npt.NDArray[Any]:
    """The spare tail of the bookkeeping array, used by the line-conflict counts."""
    return lines[lines.shape[0] - 2 * (rows + cols):]


@njit(refcounts=False)
def _init_heuristic(board: npt.NDArray[Any], rows: int, cols: int, code: int, goal_row: npt.NDArray[Any], goal_col: npt.NDArray[Any],
                    pdb: npt.NDArray[Any], offset: npt.NDArray[Any], group: npt.NDArray[Any], weight: npt.NDArray[Any], rgroup: npt.NDArray[Any],
                    rweight: npt.NDArray[Any], tcell: npt.NDArray[Any], reflect: int, idx: npt.NDArray[Any], ridx: npt.NDArray[Any],
                    lines: npt.NDArray[Any]) -> int:
    """Full heuristic of ``board``; fills what the incremental updates keep: the pattern indices
    ``idx``/``ridx`` and, in ``lines``, either the linear conflicts of each row then column or
    (pattern databases) each pattern's plain and mirrored value and their two sums."""
    n = rows * cols
    h = 0
    for cell in range(n):
        t = board[cell]
        if t == 0:
            continue
        r = cell // cols
        c = cell % cols
        if code == 0:
            if r != goal_row[t] or c != goal_col[t]:
                h += 1
        elif code == 1 or code == 2:
            h += abs(r - goal_row[t]) + abs(c - goal_col[t])
    if code == 2:
        for r in range(rows):
            lines[r] = _row_conflicts(board, r, cols, goal_row, goal_col, _scratch(lines, rows, cols))
            h += LC_COST * lines[r]
        for c in range(cols):
            spare = _scratch(lines, rows, cols)
            lines[rows + c] = _col_conflicts(board, c, rows, cols, goal_row, goal_col, spare)
            h += LC_COST * lines[rows + c]
    if code == 3:
        for g in range(idx.shape[0]):
            idx[g] = 0
            ridx[g] = 0
        for cell in range(n):
            t = board[cell]
            if t == 0:
                continue
            idx[group[t]] += cell * weight[t]
            if reflect:
                ridx[rgroup[t]] += tcell[cell] * rweight[t]
        groups = idx.shape[0]
        lines[2 * groups] = 0
        lines[2 * groups + 1] = 0
        for g in range(groups):
            lines[g] = pdb[offset[g] + idx[g]]
            lines[2 * groups] += lines[g]
            if reflect:
                lines[groups + g] = pdb[offset[g] + ridx[g]]
                lines[2 * groups + 1] += lines[groups + g]
        h = max(lines[2 * groups], lines[2 * groups + 1])
    return h


@njit(refcounts=False)
def _after_move(board: npt.NDArray[Any], tile: int, frm: int, to: int, h: int, rows: int, cols: int, code: int,
                goal_row: npt.NDArray[Any], goal_col: npt.NDArray[Any], pdb: npt.NDArray[Any], offset: npt.NDArray[Any], group: npt.NDArray[Any],
                weight: npt.NDArray[Any], rgroup: npt.NDArray[Any], rweight: npt.NDArray[Any], tcell: npt.NDArray[Any], reflect: int,
                idx: npt.NDArray[Any], ridx: npt.NDArray[Any], lines: npt.NDArray[Any]) -> int:
    """Heuristic after ``tile`` slid from cell ``frm`` to cell ``to`` (board already updated)."""
    if code == 0:
        was = 1 if (frm // cols != goal_row[tile] or frm % cols != goal_col[tile]) else 0
        now = 1 if (to // cols != goal_row[tile] or to % cols != goal_col[tile]) else 0
        return h + now - was
    if code == 1 or code == 2:
        gr = goal_row[tile]
        gc = goal_col[tile]
        h += abs(to // cols - gr) + abs(to % cols - gc) - abs(frm // cols - gr) - abs(frm % cols - gc)
        if code == 2:
            if frm // cols == to // cols:  # horizontal: the tile changed column
                for c in (frm % cols, to % cols):
                    spare = _scratch(lines, rows, cols)
                    k = _col_conflicts(board, c, rows, cols, goal_row, goal_col, spare)
                    h += LC_COST * (k - lines[rows + c])
                    lines[rows + c] = k
            else:  # vertical: the tile changed row
                for r in (frm // cols, to // cols):
                    spare = _scratch(lines, rows, cols)
                    k = _row_conflicts(board, r, cols, goal_row, goal_col, spare)
                    h += LC_COST * (k - lines[r])
                    lines[r] = k
        return h
    # pattern database: only the moved tile's pattern changes; ``lines`` caches each pattern's
    # value (plain ones first, then mirrored) and the two sums, so one lookup per side suffices
    groups = idx.shape[0]
    g = group[tile]
    idx[g] += (to - frm) * weight[tile]
    v = np.int64(pdb[offset[g] + idx[g]])
    lines[2 * groups] += v - lines[g]
    lines[g] = v
    plain = lines[2 * groups]
    if reflect:
        rg = rgroup[tile]
        ridx[rg] += (tcell[to] - tcell[frm]) * rweight[tile]
        v = np.int64(pdb[offset[rg] + ridx[rg]])
        lines[2 * groups + 1] += v - lines[groups + rg]
        lines[groups + rg] = v
        if lines[2 * groups + 1] > plain:
            return int(lines[2 * groups + 1])
    return int(plain)


@njit(refcounts=False)
def _ida_kernel(board: npt.NDArray[Any], regs: npt.NDArray[Any], path_tile: npt.NDArray[Any], path_blank: npt.NDArray[Any],
                next_dir: npt.NDArray[Any], h_stack: npt.NDArray[Any], max_nodes: int, rows: int, cols: int, code: int,
                goal_row: npt.NDArray[Any], goal_col: npt.NDArray[Any], nb: npt.NDArray[Any], pdb: npt.NDArray[Any], offset: npt.NDArray[Any],
                group: npt.NDArray[Any], weight: npt.NDArray[Any], rgroup: npt.NDArray[Any], rweight: npt.NDArray[Any], tcell: npt.NDArray[Any],
                reflect: int, idx: npt.NDArray[Any], ridx: npt.NDArray[Any], lines: npt.NDArray[Any]) -> tuple[int, int]:
    """Run one IDA* iteration (bound ``regs[R_BOUND]``) for at most ``max_nodes`` node entries.

    Returns ``(status, nodes)``: FOUND (``path_tile[:regs[R_DEPTH]]`` is the solution),
    EXHAUSTED (no solution within the bound; ``regs[R_NEXT]`` is the next bound) or PAUSED
    (call again to continue). The root itself is counted by the caller.
    """
    depth = regs[R_DEPTH]
    blank = regs[R_BLANK]
    bound = regs[R_BOUND]
    nodes = 0
    while True:
        if next_dir[depth] >= 4:  # every child tried: go back up
            if depth == 0:
                regs[R_DEPTH] = depth
                regs[R_BLANK] = blank
                return EXHAUSTED, nodes
            depth -= 1
            tile = path_tile[depth]
            back = path_blank[depth]  # where the blank was before the move
            board[blank] = tile
            board[back] = 0
            _after_move(board, tile, back, blank, h_stack[depth + 1], rows, cols, code, goal_row,
                        goal_col, pdb, offset, group, weight, rgroup, rweight, tcell, reflect,
                        idx, ridx, lines)
            blank = back
            continue
        d = next_dir[depth]
        next_dir[depth] = d + 1
        cell = nb[blank, d]
        if cell < 0 or (depth > 0 and cell == path_blank[depth - 1]):
            continue  # off the board, or straight back
        if nodes >= max_nodes:
            next_dir[depth] = d  # try this child again when resumed
            regs[R_DEPTH] = depth
            regs[R_BLANK] = blank
            return PAUSED, nodes
        tile = board[cell]
        board[blank] = tile
        board[cell] = 0
        h = _after_move(board, tile, cell, blank, h_stack[depth], rows, cols, code, goal_row,
                        goal_col, pdb, offset, group, weight, rgroup, rweight, tcell, reflect,
                        idx, ridx, lines)
        f = depth + 1 + h
        if f > bound:  # do not enter: undo and remember the smallest excess
            if f < regs[R_NEXT]:
                regs[R_NEXT] = f
            board[cell] = tile
            board[blank] = 0
            _after_move(board, tile, blank, cell, h, rows, cols, code, goal_row, goal_col, pdb,
                        offset, group, weight, rgroup, rweight, tcell, reflect, idx, ridx, lines)
            continue
        nodes += 1
        path_tile[depth] = tile
        path_blank[depth] = blank
        depth += 1
        blank = cell
        h_stack[depth] = h
        next_dir[depth] = 0
        if h == 0:
            regs[R_DEPTH] = depth
            regs[R_BLANK] = blank
            return FOUND, nodes


def _line_array(rows: int, cols: int, groups: int) -> npt.NDArray[Any]:
    """Kernel bookkeeping: line conflicts or pattern values, then scratch space for the LIS."""
    return np.zeros(max(rows + cols, 2 * groups + 2) + 2 * (rows + cols), np.int64)


@dataclass
class IDARun:
    """Outcome of a fast IDA* run."""

    moves: tuple[int, ...]
    found: bool
    nodes: int
    seconds: float
    bound: int  # the last bound searched (a lower bound on the optimal length if not found)
    iterations: int
    stopped_early: bool


class FastIDAStar:
    """Driver around the kernel: iterative deepening, budgets, and the pure-Python fallback.

    ``jit=False`` runs the kernel's ``py_func`` (the same code as plain Python) so tests can
    check numba and Python agree.
    """

    def __init__(self, board: Board, heuristic: str = "manhattan", db: PatternDatabase | None = None,
                 jit: bool = True) -> None:
        if heuristic not in HEURISTIC_CODES:
            raise ValueError(f"unknown heuristic {heuristic!r}; choose one of {list(HEURISTIC_CODES)}")
        if heuristic == "pdb" and db is None:
            raise ValueError("the 'pdb' heuristic needs a PatternDatabase (db=...)")
        self.board = board
        self.tables = make_tables(board.rows, board.cols, heuristic, db)
        self.jit = jit

    def _args(self) -> tuple[int, int, int, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any],
                             npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], int]:
        t = self.tables
        return (t.rows, t.cols, t.code, t.goal_row, t.goal_col, t.nb, t.pdb, t.offset, t.group,
                t.weight, t.rgroup, t.rweight, t.tcell, t.reflect)

    def initial_h(self) -> int:
        board = np.array(self.board.tiles, np.int8)
        groups = max(len(self.tables.offset), 1)
        idx = np.zeros(groups, np.int64)
        ridx = np.zeros(groups, np.int64)
        lines = _line_array(self.board.rows, self.board.cols, groups)
        init = _init_heuristic if self.jit else py_func(_init_heuristic)
        t = self.tables
        return int(init(board, t.rows, t.cols, t.code, t.goal_row, t.goal_col, t.pdb, t.offset,
                        t.group, t.weight, t.rgroup, t.rweight, t.tcell, t.reflect, idx, ridx, lines))

    def run(self, max_nodes: int | None = None, max_seconds: float | None = None) -> IDARun:
        """Iterative deepening until solved or a budget (nodes, seconds) runs out."""
        start = time.perf_counter()
        t = self.tables
        kernel = _ida_kernel if self.jit else py_func(_ida_kernel)
        init = _init_heuristic if self.jit else py_func(_init_heuristic)
        board = np.array(self.board.tiles, np.int8)
        groups = max(len(t.offset), 1)
        idx = np.zeros(groups, np.int64)
        ridx = np.zeros(groups, np.int64)
        lines = _line_array(t.rows, t.cols, groups)
        h0 = int(init(board, t.rows, t.cols, t.code, t.goal_row, t.goal_col, t.pdb, t.offset,
                      t.group, t.weight, t.rgroup, t.rweight, t.tcell, t.reflect, idx, ridx, lines))
        if h0 == 0:
            return IDARun((), True, 1, time.perf_counter() - start, 0, 0, False)
        bound = h0
        nodes = 0
        iterations = 0
        regs = np.zeros(4, np.int64)
        step = CHUNK_NODES if max_seconds is None else MIN_CHUNK
        while True:
            iterations += 1
            size = bound + 2
            path_tile = np.zeros(size, np.int64)
            path_blank = np.zeros(size, np.int64)
            next_dir = np.zeros(size, np.int64)
            h_stack = np.zeros(size, np.int64)
            h_stack[0] = h0
            regs[:] = (0, self.board.blank_index, bound, NO_BOUND)
            nodes += 1  # the root
            while True:
                chunk = step
                if max_nodes is not None:
                    chunk = min(chunk, max_nodes - nodes)
                if chunk <= 0 or (max_seconds is not None and time.perf_counter() - start > max_seconds):
                    return IDARun((), False, nodes, time.perf_counter() - start, bound, iterations, True)
                called = time.perf_counter()
                status, used = kernel(board, regs, path_tile, path_blank, next_dir, h_stack, chunk,
                                      *self._args(), idx, ridx, lines)
                nodes += int(used)
                if max_seconds is not None and used:  # aim each call at a slice of the time budget
                    rate = used / max(time.perf_counter() - called, 1e-6)
                    step = int(min(max(rate * TIME_SLICE, MIN_CHUNK), CHUNK_NODES))
                if status == FOUND:
                    moves = tuple(int(x) for x in path_tile[: regs[R_DEPTH]])
                    return IDARun(moves, True, nodes, time.perf_counter() - start, bound, iterations, False)
                if status == EXHAUSTED:
                    break
            if regs[R_NEXT] >= NO_BOUND:  # cannot happen for a solvable board
                raise RuntimeError("IDA* exhausted the whole tree: is the board solvable?")
            bound = int(regs[R_NEXT])


@njit(refcounts=False)
def _many_values(boards: npt.NDArray[Any], rows: int, cols: int, code: int, goal_row: npt.NDArray[Any], goal_col: npt.NDArray[Any],
                 pdb: npt.NDArray[Any], offset: npt.NDArray[Any], group: npt.NDArray[Any], weight: npt.NDArray[Any], rgroup: npt.NDArray[Any],
                 rweight: npt.NDArray[Any], tcell: npt.NDArray[Any], reflect: int, idx: npt.NDArray[Any], ridx: npt.NDArray[Any],
                 lines: npt.NDArray[Any], out: npt.NDArray[Any]) -> None:
    for k in range(boards.shape[0]):
        out[k] = _init_heuristic(boards[k], rows, cols, code, goal_row, goal_col, pdb, offset, group,
                                 weight, rgroup, rweight, tcell, reflect, idx, ridx, lines)


def heuristic_values(boards: npt.NDArray[Any], rows: int, cols: int, heuristic: str,
                     db: PatternDatabase | None = None) -> npt.NDArray[Any]:
    """The heuristic of every board in ``boards`` (one row of tiles per board), compiled.

    >>> heuristic_values(np.array([[1, 2, 3, 0], [0, 3, 2, 1]], np.int8), 2, 2, "manhattan").tolist()
    [0, 6]
    """
    t = make_tables(rows, cols, heuristic, db)
    groups = max(len(t.offset), 1)
    out = np.zeros(len(boards), np.int64)
    _many_values(np.ascontiguousarray(boards, np.int8), t.rows, t.cols, t.code, t.goal_row, t.goal_col,
                 t.pdb, t.offset, t.group, t.weight, t.rgroup, t.rweight, t.tcell, t.reflect,
                 np.zeros(groups, np.int64), np.zeros(groups, np.int64), _line_array(rows, cols, groups), out)
    return out


def board_heuristic(board: Board, heuristic: str, db: PatternDatabase | None = None, jit: bool = True) -> int:
    """The kernel's full heuristic value of ``board`` (for tests against the reference).

    >>> from tilelab.sliding import Board
    >>> board_heuristic(Board.parse('3 1 2\\n4 5 6\\n7 8 .'), "linear-conflict")
    6
    """
    return FastIDAStar(board, heuristic, db, jit).initial_h()
