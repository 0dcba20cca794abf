"""The Unity article's ways of checking a match-3 board, rebuilt for the lesson.

- :func:`check_dispel_article`: a recursive generator that yields groups to clear, starting
  from one cell. It only works if the caller clears each group (and lets candies fall) before
  asking for the next one; :func:`demo_broken_assumption` shows what happens otherwise.
- :func:`can_dispel` / :func:`is_dead_by_rule`: the dead-board test "some kind reaches 3 among
  the same-kind lines touching a cell". Right on stable boards (proof in the lesson); on a board
  that already holds a run ``can_dispel`` can count the ready run, so the ``is_dead_*`` functions,
  like :func:`tilelab.match3.is_dead`, refuse such boards with ValueError.
- :func:`remove_candys_article`: the article's ``RemoveCandys`` (clear + fall, column by column)
  and its hidden assumption about the order of the cells it is given.
- :data:`TEMPLATES` / :func:`is_dead_by_templates`: the classic 16-pattern test.
- :func:`redraw_deal`: the article's exclude-and-redraw deal, counting its draws.
"""

from __future__ import annotations

from itertools import islice
from typing import Iterator, Sequence, cast

import numpy as np

from tilelab.randomness import RngLike, as_generator
from tilelab.match3.matches import DIRECTIONS
from tilelab.match3.board import EMPTY, RUN, Board, Cell, check_cell, check_full
from tilelab.match3.moves import check_stable
from tilelab.match3.cascade import fall, kind_from_uniform, refill
from tilelab.match3.generate import banned_kinds

# ----------------------------------------------------------------------------- dead-board rules


def arm(board: Board, cell: Cell, direction: str) -> tuple[int, int]:
    """The line next to ``cell`` in one direction: (its kind, how many in a row); (EMPTY, 0) off-board."""
    dr, dc = DIRECTIONS[direction]
    r, c = cell[0] + dr, cell[1] + dc
    if not board.on_board((r, c)):
        return EMPTY, 0
    kind, n = board[r, c], 0
    while board.on_board((r, c)) and board[r, c] == kind:
        r, c, n = r + dr, c + dc, n + 1
    return kind, n


def can_dispel(board: Board, cell: Cell) -> bool:
    """The article's rule: add up, per kind, the lines touching ``cell``; 3 or more -> a move.

    >>> b = Board.parse('''
    ... 0100
    ... 1022
    ... 2101''')
    >>> can_dispel(b, (2, 3))   # a 2 above, a 0 on the left: no kind reaches 3
    False
    >>> can_dispel(b, (0, 1))   # a 0 on the left, 0 0 on the right: 3 zeros
    True
    """
    cell = check_cell(board, cell)
    totals: dict[int, int] = {}
    for direction in DIRECTIONS:
        kind, n = arm(board, cell, direction)
        if n:
            totals[kind] = totals.get(kind, 0) + n
    return any(total >= RUN for total in totals.values())


def is_dead_by_rule(board: Board) -> bool:
    """Dead by the article's rule: no cell passes :func:`can_dispel` (stable boards only).

    >>> is_dead_by_rule(Board.parse("012\\n120\\n201"))
    True
    """
    check_stable(board)
    return not any(can_dispel(board, cell) for cell in board.cells())


def _templates() -> tuple[tuple[Cell, Cell, Cell], ...]:
    """The 16 three-cell patterns that one swap turns into a run (8 per direction)."""
    row = [
        ((0, 0), (0, 1), (0, 3)),  # x x . x
        ((0, 0), (0, 2), (0, 3)),  # x . x x
        ((0, 0), (0, 1), (1, 2)),  # x x . / . . x
        ((0, 0), (0, 1), (-1, 2)),
        ((0, 1), (0, 2), (1, 0)),  # . x x / x . .
        ((0, 1), (0, 2), (-1, 0)),
        ((0, 0), (0, 2), (1, 1)),  # x . x / . x .
        ((0, 0), (0, 2), (-1, 1)),
    ]
    # the same shapes, transposed (still three cells each: tuple() of a generator is typed tuple[Cell, ...])
    col = cast(list[tuple[Cell, Cell, Cell]], [tuple((c, r) for r, c in t) for t in row])
    return tuple(row + col)


TEMPLATES = _templates()


def _template_cells(board: Board) -> Iterator[tuple[Cell, Cell, Cell]]:
    for r, c in board.cells():
        for template in TEMPLATES:
            cells = tuple((r + dr, c + dc) for dr, dc in template)
            if all(board.on_board(x) for x in cells) and len({board[x] for x in cells}) == 1:
                yield cells  # type: ignore[misc]


def template_matches(board: Board) -> list[tuple[Cell, Cell, Cell]]:
    """Every placement of a template whose three cells hold one kind (each is a move)."""
    check_full(board)
    return list(_template_cells(board))


def is_dead_by_templates(board: Board) -> bool:
    """Dead when no template fits anywhere (exact on stable boards); stops at the first fit.

    >>> is_dead_by_templates(Board.parse("012\\n120\\n201"))
    True
    """
    check_stable(board)
    return next(_template_cells(board), None) is None


# ----------------------------------------------------------------------------- recursive check


def _same_count(grid: list[list[int]], r: int, c: int, dr: int, dc: int) -> int:
    kind, n = grid[r][c], 0
    r, c = r + dr, c + dc
    while 0 <= r < len(grid) and 0 <= c < len(grid[0]) and grid[r][c] == kind:
        r, c, n = r + dr, c + dc, n + 1
    return n


def check_dispel_article(grid: list[list[int]], row: int, col: int) -> Iterator[list[Cell]]:
    """The article's recursive check from one cell, on a *mutable* grid (list of lists).

    Counts same-kind neighbours up/down/left/right; if left+right or up+down reaches 2, yields
    the cells to clear, then re-checks every cell from the bottom of the cleared shape up to the
    top, in each touched column. Hidden assumption: before asking for the next group, the caller
    has cleared the yielded cells and let the candies fall (see :func:`apply_group`). If not,
    the same group comes back forever.
    """
    up, down = _same_count(grid, row, col, -1, 0), _same_count(grid, row, col, 1, 0)
    left, right = _same_count(grid, row, col, 0, -1), _same_count(grid, row, col, 0, 1)
    across, along = left + right >= RUN - 1, up + down >= RUN - 1
    if not (across or along):
        return
    dispels: list[Cell] = []
    rechecks: list[Cell] = []
    if across:
        side = [(row, c) for c in range(col - left, col + right + 1) if c != col]
        dispels += side
        rechecks += side
    rechecks.append((row + down, col))
    if along:
        dispels += [(r, col) for r in range(row - up, row + down + 1) if r != row]
    dispels.append((row, col))
    yield dispels
    for r0, c0 in rechecks:  # everything at or above these cells has moved
        for r in range(r0, -1, -1):
            yield from check_dispel_article(grid, r, c0)


def apply_group(grid: list[list[int]], cells: list[Cell], kinds: int, *, rng: np.random.Generator) -> None:
    """What the caller must do between two groups: clear, let candies fall, refill (in place)."""
    board = Board(tuple(map(tuple, grid)), kinds)
    cleared = board.with_cells({cell: EMPTY for cell in cells})
    refilled, _ = refill(fall(cleared)[0], rng=rng)
    for r, row in enumerate(refilled.grid):
        grid[r][:] = row


def article_cascade(board: Board, a: Cell, b: Cell, *, rng: RngLike, limit: int = 1000) -> tuple[Board, list[list[Cell]]]:
    """Use the recursive check correctly: swap, then clear each group before asking for more."""
    rng = as_generator(rng)
    grid = [list(row) for row in board.swapped(a, b).grid]
    groups = []
    for start in (a, b):
        for cells in check_dispel_article(grid, *start):
            groups.append(cells)
            apply_group(grid, cells, board.kinds, rng=rng)
            if len(groups) >= limit:
                raise RuntimeError(f"more than {limit} groups: the cascade did not settle")
    return Board(tuple(map(tuple, grid)), board.kinds), groups


def demo_broken_assumption(board: Board, cell: Cell, asks: int = 5) -> list[list[Cell]]:
    """Ask the recursive check for ``asks`` groups WITHOUT clearing them: the same group repeats.

    >>> b = Board.parse('''
    ... 120
    ... 000
    ... 211''')
    >>> [sorted(group) for group in demo_broken_assumption(b, (1, 1), asks=3)]
    [[(1, 0), (1, 1), (1, 2)], [(1, 0), (1, 1), (1, 2)], [(1, 0), (1, 1), (1, 2)]]
    """
    grid = [list(row) for row in board.grid]
    return list(islice(check_dispel_article(grid, *cell), asks))


# ----------------------------------------------------------------------------- RemoveCandys


def clear_cells(board: Board, cells: Sequence[Cell]) -> Board:
    """The board with ``cells`` made EMPTY (what the package's ``clear`` does with groups).

    >>> clear_cells(Board.parse("012\\n120"), [(0, 0), (1, 2)]).picture()
    '.12\\n12.'
    """
    return board.with_cells({check_cell(board, cell): EMPTY for cell in cells})


def remove_candys_article(board: Board, cells: Sequence[Cell]) -> Board:
    """The article's ``RemoveCandys``: clear ``cells`` and let candies fall, column by column.

    It walks the list once. Consecutive cells in the same column form one batch; for a batch it
    remembers the lowest cell and how many cells it holds (``same``), shifts every candy above
    that lowest cell down by ``same + 1`` and marks the top ``same + 1`` cells as new (EMPTY
    here; the article draws new candies there). Hidden assumption: each column's cells come
    *together* in the list and form *one unbroken* vertical stretch. The article's own
    ``CheckDispel`` groups always do; other orders can keep a cleared candy and destroy a kept one.

    >>> remove_candys_article(Board.parse("012\\n111\\n201"), [(1, 0), (1, 1), (1, 2)]).picture().split()
    ['...', '012', '201']
    >>> column = Board.parse("0\\n1\\n0\\n1")   # clear both 1s, listed together: two stretches
    >>> article = remove_candys_article(column, [(1, 0), (3, 0)])
    >>> right = fall(clear_cells(column, [(1, 0), (3, 0)]))[0]
    >>> article.picture().split(), right.picture().split()   # the article keeps a cleared 1
    (['.', '.', '0', '1'], ['.', '.', '0', '0'])
    """
    cells = [check_cell(board, cell) for cell in cells]
    grid = [list(row) for row in board.grid]

    def move_down(last: Cell, same: int) -> None:
        bottom, col = last
        for r in range(bottom, same, -1):
            grid[r][col] = grid[r - 1 - same][col]
        for r in range(same, -1, -1):
            grid[r][col] = EMPTY

    last: Cell | None = None
    same = 0
    for cell in cells:
        if last is None:
            last = cell
        elif cell[1] != last[1]:
            move_down(last, same)
            last, same = cell, 0
        else:
            same += 1
            if cell[0] > last[0]:
                last = cell
    if last is not None:
        move_down(last, same)
    return Board(tuple(map(tuple, grid)), board.kinds)


# ----------------------------------------------------------------------------- the article's deal


def redraw_deal(rows: int, cols: int, kinds: int, *, rng: RngLike, max_draws: int = 1_000_000) -> tuple[Board | None, int]:
    """The article's deal: draw a kind, redraw while it is banned. Returns (board, draws used).

    With ``kinds >= 3`` it always finishes (a draw fails with probability at most 2/kinds);
    with 2 kinds it can hit a cell where both are banned, and then it never ends -- we stop at
    ``max_draws`` and return ``(None, draws)``.

    >>> board, draws = redraw_deal(6, 6, 3, rng=1)
    >>> board is not None, draws >= 36
    (True, True)
    >>> redraw_deal(6, 6, 2, rng=1, max_draws=10_000)[0] is None
    True
    """
    rng = as_generator(rng)
    grid = [[EMPTY] * cols for _ in range(rows)]
    draws = 0
    for r in range(rows):
        for c in range(cols):
            banned = banned_kinds(grid, r, c)
            while True:
                if draws >= max_draws:
                    return None, draws
                draws += 1
                kind = kind_from_uniform(rng.random(), kinds)
                if kind not in banned:
                    break
            grid[r][c] = kind
    return Board(tuple(map(tuple, grid)), max(kinds, 3)), draws
