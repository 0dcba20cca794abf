"""The sliding-tile puzzle: board, moves, parity and shuffles (engine: stdlib + numpy).

>>> from tilelab.sliding import Puzzle, is_solvable, inversions, shuffle
>>> p = shuffle(3, 3, rng=0)
>>> is_solvable(p), inversions(Puzzle.goal(3, 3))
(True, 0)
"""

from tilelab.sliding.core import *  # noqa: F401,F403
from tilelab.sliding.core import __all__ as _core_all
from tilelab.sliding.shuffle import *  # noqa: F401,F403
from tilelab.sliding.shuffle import __all__ as _shuffle_all
from tilelab.sliding.space import *  # noqa: F401,F403
from tilelab.sliding.space import __all__ as _space_all

__all__ = [*_core_all, *_shuffle_all, *_space_all]

# Solvers (lesson 4): searches, heuristics, pattern databases, the human strategy.
from tilelab.sliding.heuristics import linear_conflict, manhattan, misplaced  # noqa: E402
from tilelab.sliding.human import human_moves, parberry_bound  # noqa: E402
from tilelab.sliding.korf import korf100  # noqa: E402
from tilelab.sliding.pdb import PatternDatabase, pattern_database  # noqa: E402
from tilelab.sliding.solvers import Budget, SolveResult, hint, solve  # noqa: E402

# The session (play -> Turn, undo, hint, save/load): the same shape as game2048.Game and match3.Game.
from tilelab._protocol import Turn  # noqa: E402
from tilelab.sliding.game import Game, Plan  # noqa: E402

__all__ += [
    "Game", "Plan", "Turn",
    "Budget", "PatternDatabase", "SolveResult", "hint", "human_moves", "korf100", "linear_conflict",
    "manhattan", "misplaced", "parberry_bound", "pattern_database", "solve",
]
