"""Parity and solvability of sliding puzzles: inversions, the permutation's parity, three solvability rules.

Which boards can slide to the goal? Every single-tile move swaps the blank with a tile, so it
flips the parity of the permutation and moves the blank one cell; the rules below count what
such a swap changes. :mod:`tilelab.sliding` is the public face
(``tilelab.sliding.inversions`` is ``tilelab.sliding.parity.inversions``).

>>> from tilelab.sliding.core import Board
>>> p = Board.parse('1 2 3\\n4 5 6\\n8 7 .')
>>> inversions(p), is_solvable(p)
(1, False)
"""

from __future__ import annotations

from tilelab.sliding.core import BLANK, Board, require_board

__all__ = [
    "blank_distance",
    "corner_formula",
    "inversion_pairs",
    "inversions",
    "is_solvable",
    "permutation_parity",
    "solvable_by_invariant",
    "solvable_by_width_rule",
]

PAIRWISE_MAX_TILES = 48  # inversions: count pair by pair up to 7x7, with a Fenwick tree above


def inversion_pairs(board: Board) -> list[tuple[int, int]]:
    """Pairs ``(a, b)`` of tiles with ``a > b`` but ``a`` read first; the blank is ignored.

    >>> inversion_pairs(Board.parse('2 3\\n1 .'))
    [(2, 1), (3, 1)]
    """
    seq = [t for t in require_board(board).tiles if t != BLANK]
    return [(a, b) for i, a in enumerate(seq) for b in seq[i + 1 :] if a > b]


def inversions(board: Board) -> int:
    """Number of inversions among the tiles (reading order, blank ignored).

    >>> inversions(Board.goal(3, 3))
    0
    >>> inversions(Board.parse('2 4 3\\n1 . 5'))  # the reading 2 4 3 1 5 has 2-1 4-3 4-1 3-1
    4
    """
    seq = [t for t in require_board(board).tiles if t != BLANK]
    if len(seq) <= PAIRWISE_MAX_TILES:  # the definition itself: compare every pair
        count = 0
        for i, a in enumerate(seq):
            for b in seq[i + 1 :]:
                if b < a:
                    count += 1
        return count
    # The same count in O(N log N), so huge boards never stall: a Fenwick tree over tile values
    # counts how many earlier tiles are smaller; the rest of the earlier ones are larger.
    tree = [0] * (len(seq) + 1)
    count = 0
    for seen, tile in enumerate(seq):
        i, smaller = tile, 0
        while i > 0:
            smaller += tree[i]
            i -= i & -i
        count += seen - smaller
        i = tile
        while i < len(tree):
            tree[i] += 1
            i += i & -i
    return count


def _check_goal(board: Board, goal: Board | None) -> Board:
    require_board(board)
    if goal is None:
        return Board.goal(board.rows, board.cols)
    if not isinstance(goal, Board):
        raise TypeError(f"goal must be a Board, got {type(goal).__name__}")
    if goal.shape != board.shape:
        raise ValueError(f"goal is {goal.rows}x{goal.cols} but the puzzle is {board.rows}x{board.cols}")
    return goal


def permutation_parity(board: Board, goal: Board | None = None) -> int:
    """Parity (0 even, 1 odd) of the permutation taking ``goal`` to ``board``, blank included.

    Computed from the cycles: a cycle of length k is k-1 swaps.

    >>> permutation_parity(Board.goal(2, 2).slide(3))
    1
    """
    goal = _check_goal(board, goal)
    where = {t: i for i, t in enumerate(goal.tiles)}
    target = [where[t] for t in board.tiles]  # cell i holds the tile whose goal cell is target[i]
    seen = [False] * len(target)
    swaps = 0
    for start in range(len(target)):
        length = 0
        i = start
        while not seen[i]:
            seen[i] = True
            i = target[i]
            length += 1
        swaps += max(length - 1, 0)
    return swaps % 2


def blank_distance(board: Board, goal: Board | None = None) -> int:
    """Taxicab distance from the blank to its cell in ``goal`` (default bottom-right)."""
    goal = _check_goal(board, goal)
    (r, c), (gr, gc) = board.blank, goal.blank
    return abs(r - gr) + abs(c - gc)


def solvable_by_invariant(board: Board, goal: Board | None = None) -> bool:
    """The goal-independent rule: permutation parity (blank included) equals the blank's distance parity.

    Every single-tile move is one swap (flips the permutation parity) and moves the blank one
    cell (flips the distance parity), so the sum of the two parities never changes; it is 0 at
    the goal. The converse (every such board is reachable) is the classical theorem, checked
    by breadth-first search in the tests.

    >>> g = Board.parse('. 1\\n2 3')
    >>> solvable_by_invariant(Board.parse('1 3\\n2 .'), goal=g)
    True
    """
    return (permutation_parity(board, goal) + blank_distance(board, goal)) % 2 == 0


def solvable_by_width_rule(board: Board) -> bool:
    """The textbook rule for the standard goal.

    Odd width: the inversion count is even. Even width: inversions plus the blank's row counted
    from the bottom (1-based) is odd.

    >>> solvable_by_width_rule(Board.parse('1 2 3\\n4 5 6\\n8 7 .'))
    False
    >>> solvable_by_width_rule(Board.parse('1 2\\n. 3'))
    True
    """
    count = inversions(board)
    if board.cols % 2 == 1:
        return count % 2 == 0
    row_from_bottom = board.rows - board.blank[0]
    return (count + row_from_bottom) % 2 == 1


def corner_formula(board: Board) -> int:
    """The iOS Puzzle8 count: inversions with the blank read as the largest tile, plus its distance to the corner.

    The board is solvable exactly when this is even. It is :func:`solvable_by_invariant` for the
    standard goal: with the blank counted as ``N`` the goal reads ``1, 2, ..., N`` (no inversions),
    so the inversion count including the blank has the parity of the whole permutation.

    >>> corner_formula(Board.parse('1 2 3\\n4 . 6\\n7 5 8'))  # 6 inversions (blank as 9) + 2 cells
    8
    """
    n = require_board(board).cell_count
    seq = [n if t == BLANK else t for t in board.tiles]
    count = sum(1 for i, a in enumerate(seq) for b in seq[i + 1 :] if a > b)
    r, c = board.blank
    return count + (board.rows - 1 - r) + (board.cols - 1 - c)


def is_solvable(board: Board, goal: Board | None = None) -> bool:
    """Can ``board`` slide to ``goal`` (default: the standard goal)? Works for every shape.

    >>> is_solvable(Board.goal(4, 4))
    True
    >>> fifteen_fourteen = Board.goal(4, 4).swap_tiles(14, 15)   # Sam Loyd's puzzle
    >>> print(fifteen_fourteen)
     1  2  3  4
     5  6  7  8
     9 10 11 12
    13 15 14  .
    >>> is_solvable(fifteen_fourteen)
    False
    """
    if not isinstance(board, Board):
        raise TypeError(f"expected a Board, got {type(board).__name__}; build one with Board(tiles, rows, cols)")
    if goal is None:
        return solvable_by_width_rule(board)
    return solvable_by_invariant(board, goal)
