"""Match-3 ("candy crush"): match, clear, fall, refill, cascade; dead boards and reshuffles.

>>> from tilelab.match3 import Board, new_board, find_matches, play, legal_moves, is_dead, reshuffle
>>> board = new_board(8, 8, 6, rng=0)
>>> find_matches(board), is_dead(board)
([], False)
>>> result = play(board, legal_moves(board)[0], rng=0)
>>> result.valid, find_matches(result.board)
(True, [])

The vocabulary (the same words as :mod:`tilelab.game2048` and :mod:`tilelab.sliding`):

- ``play(board, (a, b), *, rng) -> SwapResult``: one swap, the engine-level move; on a
  ``SpecialBoard`` it plays the special candies' rules and returns a ``SpecialSwapResult``.
  ``swap(board, a, b, *, rng)`` is the same plain rule with the two cells as arguments (kept:
  lessons build it), ``swap_specials`` its special twin.
- ``legal_moves(board)``: every swap that makes a match; ``valid_moves`` is its older name (the
  same function). Both are the very functions of :mod:`tilelab.match3.core`, the readable ones the
  lesson builds; the compiled twins are ``valid_moves_fast`` and ``is_dead_fast`` (tested to
  agree). ``valid_moves_reference``/``is_dead_reference`` are older names for the readable ones.
- ``rng`` is keyword-only everywhere (a seed or a ``numpy.random.Generator``) and required
  wherever chance enters: deals, refills, cascades, swaps, reshuffles, statistics.
- one text picture for both boards: ``print(board)`` writes it, ``Board.parse`` and
  ``SpecialBoard.parse`` read it (``SpecialBoard`` adds marks after a kind: ``- | + @``, ``*``).
"""

from tilelab.match3.core import (
    EMPTY,
    SHAPE_POINTS,
    SHAPES,
    Board,
    CascadeStep,
    Cell,
    Group,
    Move,
    Run,
    SwapResult,
    cascade_step,
    clear,
    fall,
    find_matches,
    find_runs,
    four_direction_counts,
    hint,
    immediate_score,
    neighbours,
    refill,
    refill_outcomes,
    resolve,
    swap,
)
from tilelab.match3.core import is_dead, legal_moves, valid_moves
from tilelab.match3.core import is_dead as is_dead_reference  # older names, kept
from tilelab.match3.core import valid_moves as valid_moves_reference
from tilelab.match3.fast import is_dead_fast, swap_fast, valid_moves_fast
from tilelab.match3.generate import (
    Reshuffle,
    ReshuffleWarning,
    can_have_move,
    new_board,
    planted_board,
    reshuffle,
    reshuffle_report,
    stable_board,
)
from tilelab.match3.specials import (
    SpecialBoard,
    SpecialStep,
    SpecialSwapResult,
    is_dead_specials,
    new_special_board,
    reshuffle_specials,
    swap_specials,
    valid_moves_specials,
)

# The session (play -> Turn, undo, hint, save/load) and its rules objects: the same shape as
# game2048.Game and sliding.Game.
from tilelab._protocol import Turn  # noqa: E402
from tilelab.match3.game import PLAIN, WITH_SPECIALS, Game, PlainRules, Rules, SpecialRules, play  # noqa: E402

__all__ = [
    "play", "Game", "Rules", "PlainRules", "SpecialRules", "PLAIN", "WITH_SPECIALS", "Turn",
    "EMPTY", "SHAPE_POINTS", "SHAPES", "Board", "CascadeStep", "Cell", "Group", "Move", "Run",
    "SwapResult", "Reshuffle", "ReshuffleWarning", "cascade_step", "clear", "fall", "find_matches",
    "find_runs", "four_direction_counts", "hint", "immediate_score", "neighbours", "refill",
    "refill_outcomes", "resolve", "swap", "swap_fast", "valid_moves", "valid_moves_reference",
    "valid_moves_fast", "legal_moves", "is_dead", "is_dead_reference", "is_dead_fast", "new_board",
    "planted_board", "reshuffle", "reshuffle_report",
    "stable_board", "can_have_move",
    # special candies (specials on; the rules above stay the default)
    "SpecialBoard", "SpecialStep", "SpecialSwapResult", "new_special_board", "swap_specials",
    "valid_moves_specials", "is_dead_specials", "reshuffle_specials",
]
