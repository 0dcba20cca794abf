"""Reshuffling a special-candy board: the candies rearranged, specials included, so that no run
is left and a move exists (random permutations, then the plain systematic search).

Part of the readable special-candy engine (:mod:`tilelab.match3` is its public face).
"""

from __future__ import annotations

import numpy as np

from tilelab.inputs import as_int
from tilelab.randomness import as_generator, RngLike
from tilelab.match3.board import Board, Cell
from tilelab.match3.special_board import BOMB, NONE, SpecialBoard
from tilelab.match3.board import NO_COLOUR
from tilelab.match3.special_rules import find_groups, is_dead_specials

__all__ = [
    "MAX_RESHUFFLE_TRIES",
    "reshuffle_specials",
]


MAX_RESHUFFLE_TRIES = 10_000  #: random permutations reshuffle_specials may try before its systematic search

# ----------------------------------------------------------------------------- reshuffle


def _has_run(board: SpecialBoard) -> bool:
    return bool(find_groups(board))


def reshuffle_specials(board: SpecialBoard, *, rng: RngLike, tries: int = 200) -> SpecialBoard:
    """Rearrange the candies, specials included (each keeps its colour and special): no run, a move.

    Random permutations of the (colour, special) pieces, up to ``tries``. If none works it falls back
    to the systematic search of :func:`tilelab.match3.generate.reshuffle_report` on the colours (a
    colour bomb counted as colour 0) and then puts every special back on a cell of its own colour
    (bombs on cells of colour 0): the colours have no run and a move, a special matches by its
    colour, and a bomb never matches but always has a move, so the result is still good. Only when
    no arrangement of the colours exists are the specials lost, with the plain reshuffle's warning.

    >>> b = SpecialBoard.parse("0 1- 2 0\\n1 2 0 1\\n2 0 1 2")
    >>> s = reshuffle_specials(b, rng=0)
    >>> sorted(s.special_cells().values()), is_dead_specials(s), find_groups(s)
    (['striped-row'], False, [])
    >>> t = reshuffle_specials(b, rng=0, tries=0)   # straight to the systematic search
    >>> sorted(t.special_cells().values()), is_dead_specials(t), find_groups(t)
    (['striped-row'], False, [])
    """
    if not isinstance(board, SpecialBoard):
        raise TypeError(f"board must be a SpecialBoard, got {type(board).__name__}")
    if not board.is_full:
        raise ValueError("reshuffle needs a full SpecialBoard (refill the holes first)")
    tries = as_int(tries, "tries", minimum=0, maximum=MAX_RESHUFFLE_TRIES)
    rng = as_generator(rng)
    pieces = [(board[c], board.special_code(c)) for c in board.cells()]
    for _ in range(tries):
        order = rng.permutation(len(pieces))
        flat = [pieces[i] for i in order]
        kinds = tuple(tuple(flat[r * board.cols + c][0] for c in range(board.cols)) for r in range(board.rows))
        spec = tuple(tuple(flat[r * board.cols + c][1] for c in range(board.cols)) for r in range(board.rows))
        candidate = SpecialBoard(kinds, spec, board.kinds)
        if not _has_run(candidate) and not is_dead_specials(candidate):
            return candidate
    return _reshuffle_systematic(board, pieces, rng)


def _reshuffle_systematic(board: SpecialBoard, pieces: list[tuple[int, int]], rng: np.random.Generator) -> SpecialBoard:
    """The colours rearranged by the plain systematic search, then the specials put back by colour."""
    from tilelab.match3.generate import reshuffle

    plain = Board(tuple(tuple(max(k, 0) for k in row) for row in board.grid), board.kinds)
    colours = reshuffle(plain, rng=rng)  # keeps the count of every colour unless no arrangement exists
    if list(colours.counts()) != list(plain.counts()):
        return SpecialBoard.from_board(colours)  # a new deal: the specials are lost (reshuffle warned)
    kinds = [list(row) for row in colours.grid]
    spec = [[NONE] * board.cols for _ in range(board.rows)]
    free: dict[int, list[Cell]] = {}
    for cell in colours.cells():
        free.setdefault(colours[cell], []).append(cell)
    for cells in free.values():
        rng.shuffle(cells)
    for kind, code in sorted(pieces, key=lambda p: p[1] != BOMB):  # bombs first: they need colour-0 cells
        if code == NONE:
            continue
        r, c = free[0 if code == BOMB else kind].pop()
        spec[r][c] = code
        if code == BOMB:
            kinds[r][c] = NO_COLOUR
    return SpecialBoard(tuple(map(tuple, kinds)), tuple(map(tuple, spec)), board.kinds)
