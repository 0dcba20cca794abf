"""The sliding-tile puzzle: board, moves, parity and shuffles (engine: stdlib + numpy).

Where each rule lives: the readable file is the rule; the fast twin (under ``fast/``) runs the same search and
heuristics compiled, and the test named last checks that both give the same answers.

==========================  =================  ===================  ==============================
rule                        readable           fast twin            test that ties them
==========================  =================  ===================  ==============================
a move (tile or direction)  ``moves.py``       (none)               ``test_sliding_core.py``
solvable (even-width rule)  ``parity.py``      (none)               ``test_sliding_core.py``
heuristics                  ``heuristics.py``  ``fast/idastar.py``  ``test_sliding_heuristics.py``
IDA* search                 ``search.py``      ``fast/idastar.py``  ``test_sliding_solvers.py``
==========================  =================  ===================  ==============================

Vocabulary (the same words as :mod:`tilelab.game2048` and :mod:`tilelab.match3`):

- ``play(board, move) -> Slide``: one move, a tile number or a direction (``"up"``: the tile
  below the blank moves up); the :class:`Slide` holds the moved tiles, their cells, and the
  boards before and after.
- ``legal_moves(board)`` / ``Board.legal_moves()``: the tiles that may slide.
- randomness is the keyword ``rng`` (a seed or a numpy Generator), required:
  ``shuffle(rows, cols, *, rng)``, ``random_board(rows, cols, *, rng)``,
  ``random_walk(board, steps, *, rng)``, ``puzzle8_walk(board, steps, *, rng)``.
- :class:`Game` is the session (``play(move) -> Turn``, ``undo``, ``hint``, save/load).

>>> from tilelab.sliding import Board, is_solvable, inversions, play, shuffle
>>> p = shuffle(3, 3, rng=0)
>>> is_solvable(p), inversions(Board.goal(3, 3))
(True, 0)
>>> before = Board.parse("1 2 3\\n4 5 6\\n7 . 8")
>>> print(play(before, "left").after)
1 2 3
4 5 6
7 8 .
"""

from tilelab.sliding.core import DIRECTIONS, Board
from tilelab.sliding.moves import Move, MoveCount, Slide, count_moves, legal_moves, parse_move, play
from tilelab.sliding.parity import (
    blank_distance, corner_formula, inversion_pairs, inversions, is_solvable, permutation_parity,
    solvable_by_invariant, solvable_by_width_rule,
)
from tilelab.sliding.shuffle import (
    METHODS, PUZZLE8_ORDER, default_walk_steps, puzzle8_walk, random_board, random_walk, shuffle,
)
from tilelab.sliding.space import (
    MAX_TABLE_CELLS, UNREACHABLE, bfs_distances, distance, distance_histogram, distance_table, rank, rank_many,
    states_at_distance, unrank, WALK_RULES, total_variation, walk_distribution,
)

__all__ = [
    "DIRECTIONS", "Board", "Move", "MoveCount", "Slide", "count_moves", "legal_moves", "parse_move", "play", "blank_distance",
    "corner_formula", "inversion_pairs", "inversions", "is_solvable", "permutation_parity",
    "solvable_by_invariant", "solvable_by_width_rule", "METHODS", "PUZZLE8_ORDER", "default_walk_steps",
    "puzzle8_walk", "random_board", "random_walk", "shuffle", "MAX_TABLE_CELLS", "UNREACHABLE", "bfs_distances",
    "distance", "distance_histogram", "distance_table", "rank", "rank_many", "states_at_distance", "unrank",
    "WALK_RULES", "total_variation", "walk_distribution",
]

# Solvers (lesson 4): searches, heuristics, pattern databases, the human strategy.
from tilelab.sliding.heuristics import linear_conflict, manhattan, misplaced  # noqa: E402
from tilelab.sliding.human import human_moves, parberry_bound  # noqa: E402
from tilelab.sliding.korf import korf100  # noqa: E402
from tilelab.sliding.pdb import PatternDatabase, pattern_database  # noqa: E402
from tilelab.sliding.solvers import Budget, SolveResult, hint, solve  # noqa: E402

# The session (play -> Turn, undo, hint, save/load): the same shape as game2048.Game and match3.Game.
from tilelab.protocol import Turn  # noqa: E402
from tilelab.sliding.game import Game, Plan  # noqa: E402

__all__ += [
    "Game", "Plan", "Turn",
    "Budget", "PatternDatabase", "SolveResult", "hint", "human_moves", "korf100", "linear_conflict",
    "manhattan", "misplaced", "parberry_bound", "pattern_database", "solve",
]
