"""The human strategy: solve any board row by row and column by column, as people do by hand.

This is the "auto-complete" of the Swift PuzzleProject article, written our own way:

1. While the unsolved part is at least 3 tall or 3 wide, place its top row (if it is at least
   as tall as wide) or its left column (otherwise), then forget that line and recurse.
2. A line is placed one tile at a time: the tile travels along the line's direction, then
   straight towards it; for each step of the tile the blank walks around it (never through a
   placed tile) to the cell the tile goes to next, and the tile slides.
3. The last two tiles of a line cannot be placed one after the other (placing the last one
   would have to move the one before it). They go in as a pair: the second-to-last tile ``A``
   is parked on the last cell, the last tile ``B`` just inside of it, then the blank comes
   round and both slide home. This is the article's first special case (the last tile of a
   row) and, transposed, its second (the last tile of a column).
4. When ``B`` is caught in the corner the pair needs (on ``A``'s cell, or right inside it with
   the blank shut in behind), the article writes the escape sequence out by hand; here a tiny
   breadth-first search over the 3x2 window around the pair finds the shortest one.
5. The final 2x2 block is solved by turning the blank round it.

Every move is legal, and the length stays inside Parberry's ``5 n**3`` bound for an ``n x n``
board (tested up to 12x12 and on non-square boards). The search space of the window is tiny,
so a 20x20 board solves in a fraction of a second.

>>> from tilelab.sliding import Board
>>> p = Board.parse('''
... 4 1 3
... 7 2 6
... . 5 8''')
>>> moves = human_moves(p)
>>> p.play_all(moves).is_goal()
True
"""

from __future__ import annotations

import heapq
from collections import deque
from typing import Sequence

from tilelab.sliding.core import BLANK, Board

__all__ = ["human_first_move", "human_moves", "human_stages", "parberry_bound"]

Cell = tuple[int, int]
LOOP_2X2 = 12  # the 2x2 board's reachable boards form one cycle of 12


class _Stuck(Exception):
    """The blank cannot reach a cell without disturbing a tile that must stay."""


class _Enough(Exception):
    """The strategy made as many moves as were asked for (:func:`human_first_move`)."""


class _Board:
    """A mutable working copy: tiles by cell index, where each tile is, and the moves so far."""

    def __init__(self, board: Board, limit: int | None = None) -> None:
        self.limit = limit  #: stop (raise _Enough) once this many moves are made
        self.rows, self.cols = board.rows, board.cols
        self.tiles = list(board.tiles)
        self.where = [0] * len(self.tiles)
        for cell, t in enumerate(self.tiles):
            self.where[t] = cell
        self.fixed = bytearray(len(self.tiles))  # 1 = a placed tile that must not move
        self.moves: list[int] = []
        self.stages: list[tuple[str, int]] = []  # (what was placed, number of moves so far)

    @property
    def blank(self) -> int:
        return self.where[BLANK]

    def index(self, cell: Cell) -> int:
        return cell[0] * self.cols + cell[1]

    def neighbours(self, i: int) -> list[int]:
        r, c = divmod(i, self.cols)
        out = []
        if r > 0:
            out.append(i - self.cols)
        if r < self.rows - 1:
            out.append(i + self.cols)
        if c > 0:
            out.append(i - 1)
        if c < self.cols - 1:
            out.append(i + 1)
        return out

    def slide_from(self, i: int) -> None:
        """Slide the tile on cell ``i`` (next to the blank) into the blank."""
        b = self.blank
        t = self.tiles[i]
        self.tiles[b], self.tiles[i] = t, BLANK
        self.where[t], self.where[BLANK] = b, i
        self.moves.append(t)
        if self.limit is not None and len(self.moves) >= self.limit:
            raise _Enough

    def blank_route(self, target: int, avoid: int = -1) -> list[int]:
        """Cells the blank walks through to reach ``target`` (A* with taxicab distance),
        never entering a fixed cell or ``avoid``; raises :class:`_Stuck` if it cannot."""
        start = self.blank
        if start == target:
            return []
        cols = self.cols
        tr, tc = divmod(target, cols)
        came: dict[int, int] = {start: -1}
        cost = {start: 0}
        heap = [(0, 0, start)]
        while heap:
            _, g, i = heapq.heappop(heap)
            if i == target:
                path = []
                while i != start:
                    path.append(i)
                    i = came[i]
                return path[::-1]
            if g > cost[i]:
                continue
            for j in self.neighbours(i):
                if self.fixed[j] or j == avoid:
                    continue
                if g + 1 < cost.get(j, 1 << 30):
                    cost[j] = g + 1
                    came[j] = i
                    jr, jc = divmod(j, cols)
                    heapq.heappush(heap, (g + 1 + abs(jr - tr) + abs(jc - tc), g + 1, j))
        raise _Stuck

    def walk_blank(self, target: int, avoid: int = -1) -> None:
        for i in self.blank_route(target, avoid):
            self.slide_from(i)

    def move_tile(self, tile: int, target: int, along_rows: bool) -> None:
        """Bring ``tile`` to ``target``: first along the line's direction, then across."""
        cols = self.cols
        while self.where[tile] != target:
            here = self.where[tile]
            r, c = divmod(here, cols)
            tr, tc = divmod(target, cols)
            if along_rows and c != tc or not along_rows and r == tr:
                step = here + (1 if tc > c else -1)
            else:
                step = here + (cols if tr > r else -cols)
            if self.fixed[step]:
                raise _Stuck
            self.walk_blank(step, avoid=here)
            self.slide_from(here)


def _goal_tile(board: _Board, cell: Cell) -> int:
    return cell[0] * board.cols + cell[1] + 1


def _window_search(board: _Board, window: Sequence[int], wanted: dict[int, int]) -> None:
    """Shortest blank walk inside ``window`` that puts each tile of ``wanted`` on its cell."""
    inside = set(window)
    start = tuple(board.tiles[i] for i in window)
    pos = {cell: k for k, cell in enumerate(window)}
    goal_slots = {pos[cell]: tile for tile, cell in wanted.items()}

    def done(state: tuple[int, ...]) -> bool:
        return all(state[k] == t for k, t in goal_slots.items())

    links = {k: [pos[j] for j in board.neighbours(cell) if j in inside] for k, cell in enumerate(window)}
    parent: dict[tuple[int, ...], tuple[tuple[int, ...], int] | None] = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if done(state):
            slots = []
            link = parent[state]
            while link is not None:
                state, k = link
                slots.append(k)
                link = parent[state]
            for k in reversed(slots):
                board.slide_from(window[k])
            return
        b = state.index(BLANK)
        for k in links[b]:
            nxt = list(state)
            nxt[b], nxt[k] = nxt[k], BLANK
            child = tuple(nxt)
            if child not in parent:
                parent[child] = (state, k)
                queue.append(child)
    raise RuntimeError("the 3x2 window cannot place the pair; this is a bug, please report it")


def _place_line(board: _Board, line: list[Cell], inward: tuple[int, int], name: str) -> None:
    """Place the tiles of ``line`` (a top row or a left column of the unsolved part)."""
    along_rows = inward == (1, 0)  # a row: tiles travel along the row first
    idx = board.index
    for cell in line[:-2]:
        board.move_tile(_goal_tile(board, cell), idx(cell), along_rows)
        board.fixed[idx(cell)] = 1
    last2, last = line[-2], line[-1]
    a, b = _goal_tile(board, last2), _goal_tile(board, last)
    di, dj = inward
    inside_last = (last[0] + di, last[1] + dj)
    window = [idx(c) for c in (last2, last,
                               (last2[0] + di, last2[1] + dj), inside_last,
                               (last2[0] + 2 * di, last2[1] + 2 * dj), (last[0] + 2 * di, last[1] + 2 * dj))]
    if not (board.tiles[idx(last2)] == a and board.tiles[idx(last)] == b):
        board.move_tile(a, idx(last), along_rows)  # park A on the last cell
        board.fixed[idx(last)] = 1
        try:
            if board.where[b] == idx(last2):
                raise _Stuck  # B sits where A must go: the awkward case
            board.move_tile(b, idx(inside_last), along_rows)  # B just inside the last cell
            board.walk_blank(idx(last2), avoid=board.where[b])
        except _Stuck:
            if board.blank not in window:  # bring the blank next to the pair, A still parked
                entry = next(i for i in window[2:] if board.tiles[i] != b)
                board.walk_blank(entry, avoid=board.where[b])
            board.fixed[idx(last)] = 0
            _window_search(board, window, {a: idx(last2), b: idx(last)})
        else:
            board.fixed[idx(last)] = 0
            board.slide_from(idx(last))  # A slides onto its cell
            board.slide_from(idx(inside_last))  # B follows onto the last cell
    board.fixed[idx(last2)] = 1
    board.fixed[idx(last)] = 1
    board.stages.append((name, len(board.moves)))


def _finish_2x2(board: _Board, top: int, left: int) -> None:
    """Turn the blank round the last 2x2 block (the shorter way) until it is solved."""
    ring = [board.index(c) for c in ((top, left), (top, left + 1), (top + 1, left + 1), (top + 1, left))]
    target = {i: _goal_tile(board, divmod(i, board.cols)) for i in ring}
    target[board.index((board.rows - 1, board.cols - 1))] = BLANK
    best: list[int] | None = None
    for turn in (1, -1):
        tiles = dict((i, board.tiles[i]) for i in ring)
        k = ring.index(board.blank)
        seq: list[int] = []
        for _ in range(LOOP_2X2 + 1):
            if all(tiles[i] == target[i] for i in ring):
                break
            nxt = ring[(k + turn) % 4]
            seq.append(nxt)
            tiles[ring[k]], tiles[nxt] = tiles[nxt], BLANK
            k = (k + turn) % 4
        else:
            continue
        if best is None or len(seq) < len(best):
            best = seq
    if best is None:
        raise ValueError("the last 2x2 block cannot be solved: the puzzle is unsolvable")
    for i in best:
        board.slide_from(i)
    board.stages.append(("last 2x2 block", len(board.moves)))


def _solve(board: Board) -> _Board:
    work = _Board(board)
    _run(work)
    return work


def _run(work: _Board) -> None:
    """Solve ``work`` in place: line by line, then the last 2x2 block."""
    top, left = 0, 0
    while work.rows - top > 2 or work.cols - left > 2:
        height, width = work.rows - top, work.cols - left
        if height >= width:
            line = [(top, c) for c in range(left, work.cols)]
            _place_line(work, line, (1, 0), f"row {top + 1}")
            top += 1
        else:
            line = [(r, left) for r in range(top, work.rows)]
            _place_line(work, line, (0, 1), f"column {left + 1}")
            left += 1
    _finish_2x2(work, top, left)


def human_moves(board: Board) -> tuple[int, ...]:
    """The human strategy's moves (tiles slid, single-tile metric) for a solvable ``board``.

    >>> from tilelab.sliding import Board
    >>> human_moves(Board.parse('1 2\\n. 3'))
    (3,)
    """
    return tuple(_solve(board).moves)


def human_first_move(board: Board) -> int | None:
    """The human strategy's first move alone (None on the goal): ``human_moves(board)[0]`` without the rest.

    Its cost is that of placing one tile, so it answers at once on any board a game allows (250x250 too),
    where the whole solution would take hours.

    >>> from tilelab.sliding import Board
    >>> p = Board.parse('4 1 3\\n7 2 6\\n. 5 8')
    >>> human_first_move(p) == human_moves(p)[0], human_first_move(Board.goal(3, 3))
    (True, None)
    """
    work = _Board(board, limit=1)
    try:
        _run(work)
    except _Enough:
        pass
    return work.moves[0] if work.moves else None


def human_stages(board: Board) -> list[tuple[str, int]]:
    """Which line was finished after how many moves: ``[("row 1", 23), ("column 1", 40), ...]``.

    >>> from tilelab.sliding import Board
    >>> human_stages(Board.goal(3, 3))
    [('row 1', 0), ('column 1', 0), ('last 2x2 block', 0)]
    """
    return list(_solve(board).stages)


def parberry_bound(rows: int, cols: int) -> int:
    """Parberry's bound ``5 n**3`` on the human strategy's length, with ``n`` the longer side.

    >>> parberry_bound(4, 4)
    320
    """
    return 5 * max(rows, cols) ** 3
