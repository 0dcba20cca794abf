"""2048 chance as data: :func:`spawn_outcomes` lists every spawn with its probability and
:func:`spawn` samples from that very list (one draw through :func:`sample_outcome`).

Part of the readable engine (:mod:`tilelab.game2048` is its public face).
"""

from __future__ import annotations

from typing import Any, NamedTuple, Sequence

import numpy as np

from tilelab.randomness import RngLike, as_generator, outcome_at
from tilelab.game2048.board import (
    BIG_TILE, Board, BoardLike, Cell, DEFAULT_P_FOUR, SMALL_TILE, as_board, check_p_four,
)

__all__ = [
    "SPAWN_TILES",
    "tile_probability",
    "Spawn",
    "spawn_outcomes",
    "sample_outcome",
    "spawn",
]


# --------------------------------------------------------------------------------------------
# Spawns: chance as data
# --------------------------------------------------------------------------------------------
#: The spawn rule's two kinds of tile, in the order every engine lists them: kind 0 the small tile, kind 1 the big.
#: The fast twins (:mod:`tilelab.game2048.fast`) import this and :func:`tile_probability` instead of restating them.
SPAWN_TILES = (SMALL_TILE, BIG_TILE)


def tile_probability(kind: int, p_four: float) -> float:
    """The spawn rule's odds: the small tile (kind 0) with probability ``1 - p_four``, the big one (kind 1) ``p_four``.

    Plain arithmetic on purpose: the compiled search compiles this very function.

    >>> [tile_probability(kind, 0.1) for kind in range(len(SPAWN_TILES))]
    [0.9, 0.1]
    """
    return 1.0 - p_four if kind == 0 else p_four


class Spawn(NamedTuple):
    """A new tile: ``value`` (2 or 4) appearing at ``cell`` (row, col)."""

    cell: Cell
    value: int


def spawn_outcomes(board: BoardLike, p_four: float = DEFAULT_P_FOUR) -> list[tuple[Spawn, float]]:
    """Every possible spawn with its probability: a uniform empty cell, then 2 (1 - p_four) or 4.

    Outcomes with probability 0 are left out; a full board has no outcomes.

    >>> for s, p in spawn_outcomes(Board.parse('''
    ...     2 .
    ...     4 .
    ... ''')): print(s, round(p, 3))
    Spawn(cell=(0, 1), value=2) 0.45
    Spawn(cell=(0, 1), value=4) 0.05
    Spawn(cell=(1, 1), value=2) 0.45
    Spawn(cell=(1, 1), value=4) 0.05
    """
    board = as_board(board)
    p_four = check_p_four(p_four)
    empty = board.empty_cells()
    if not empty:
        return []
    share = 1.0 / len(empty)
    tiles = [(value, tile_probability(kind, p_four)) for kind, value in enumerate(SPAWN_TILES)]
    return [(Spawn(cell, value), p * share) for cell in empty for value, p in tiles if p > 0]


def sample_outcome(outcomes: Sequence[tuple[Any, float]], rng: np.random.Generator) -> Any:
    """Pick one outcome from ``[(outcome, p)]`` with one uniform draw (walk the cumulative sum)."""
    if not outcomes:
        raise ValueError("there is no outcome to sample from (is the board full?)")
    return outcome_at(outcomes, rng.random())


def spawn(board: BoardLike, *, rng: RngLike = None, p_four: float = DEFAULT_P_FOUR) -> tuple[Board, Spawn]:
    """Sample one spawn from :func:`spawn_outcomes` and place it; returns (new board, spawn).

    >>> b, s = spawn(Board.parse('''
    ...     2 4
    ...     8 .
    ... '''), rng=0, p_four=0.0)
    >>> s
    Spawn(cell=(1, 1), value=2)
    >>> print(b)
    2 4
    8 2
    """
    board = as_board(board)
    outcomes = spawn_outcomes(board, p_four)
    if not outcomes:
        raise ValueError("the board is full: a spawn needs an empty cell (spawn only after a move that changed it)")
    chosen: Spawn = sample_outcome(outcomes, as_generator(rng))
    return board.with_tile(chosen.cell, chosen.value), chosen
