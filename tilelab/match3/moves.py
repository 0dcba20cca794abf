"""Match-3 moves (readable reference): legal swaps, dead boards, immediate score and the hint.

Part of the readable match-3 engine; :mod:`tilelab.match3` is its public face (its docstring has the
glossary).
"""

from __future__ import annotations

from tilelab.match3.board import Board, check_full, Move
from tilelab.match3.cascade import creates_run
from tilelab.match3.matches import find_matches, find_runs

__all__ = [
    "legal_moves",
    "check_stable",
    "is_dead",
    "immediate_score",
    "HINT_RULES",
    "hint",
]


# ----------------------------------------------------------------------------- moves


def legal_moves(board: Board) -> list[Move]:
    """Every legal swap ``(a, b)``, ``a`` before ``b`` in reading order (reference version).

    >>> legal_moves(Board.parse('''
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
    ValueError: the board still holds a run at (0, 0), (0, 1), (0, 2): 'dead' is defined only for stable boards -- run the cascade first (resolve(board, rng=rng)), or ask legal_moves(board) for the legal swaps
    """
    check_full(board)
    runs = find_runs(board)
    if runs:
        cells = ", ".join(str(cell) for cell in runs[0].cells)
        raise ValueError(
            f"the board still holds a run at {cells}: 'dead' is defined only for stable boards -- "
            "run the cascade first (resolve(board, rng=rng)), or ask legal_moves(board) for the legal swaps"
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
    return not legal_moves(board)


def immediate_score(board: Board, move: Move) -> int:
    """Points the swap's own matches earn (cascade index 1), before any random refill."""
    a, b = move
    if not creates_run(board, a, b):
        return 0
    return sum(g.points for g in find_matches(board.swapped(a, b)))


def immediate_score_near_swap(board: Board, move: Move) -> int:
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
    window = Board.trusted(tuple(row[c0:c1 + 1] for row in board.grid[r0:r1 + 1]), board.kinds)
    moved = window.swapped((a[0] - r0, a[1] - c0), (b[0] - r0, b[1] - c0))
    return sum(g.points for g in find_matches(moved))


HINT_RULES = ("score", "first", "lowest")


def hint(board: Board, rule: str = "score") -> Move | None:
    """One legal move chosen by a stated rule, or None on a dead board.

    - ``"score"``: the largest immediate score (the swap's own matches); ties -> the lowest move
      on the board (falls there disturb fewer candies), then reading order.
    - ``"lowest"``: the move nearest the bottom (it stirs most candies above it).
    - ``"first"``: the first legal move in reading order.

    >>> hint(Board.parse('''
    ... 0120
    ... 1201
    ... 0012
    ... 2102'''))
    ((2, 2), (3, 2))
    """
    if not isinstance(rule, str) or rule not in HINT_RULES:
        raise ValueError(f"unknown hint rule {rule!r}: use one of {HINT_RULES}")
    moves = legal_moves(board)
    if not moves:
        return None
    if rule == "first":
        return moves[0]
    def lowest(m: Move) -> tuple[int, Move]:
        return (-max(m[0][0], m[1][0]), m)

    if rule == "lowest":
        return min(moves, key=lowest)
    score = immediate_score_near_swap if not find_runs(board) else immediate_score
    return min(moves, key=lambda m: (-score(board, m), lowest(m)))
