"""Match-3 ("candy crush"): match, clear, fall, refill, cascade; dead boards and reshuffles.

Where each rule lives: the readable file is the rule; its fast twin (under ``fast/``) imports the rule's
constants and its cascade loop, and the test named last checks that both reach the same boards and scores.

=========================  ===========================  ======================  =================================
rule                       readable                     fast twin               test that ties them
=========================  ===========================  ======================  =================================
runs and groups (shapes)   ``matches.py``               ``fast/plain.py``       ``test_match3_core.py``
cascade step, refill       ``cascade.py``               ``fast/plain.py``       ``test_match3_core.py``
cascade stops: nothing to  ``cascade.py``               both ``fast/`` modules  ``test_match3_core.py``,
clear (``MAX_CASCADES``)   (``cascade_until_settled``)  call it                 ``test_lessons_05.py``
legal moves, dead boards   ``moves.py``                 ``fast/plain.py``       ``test_match3_core.py``,
                                                                                ``test_match3_dead_and_deals.py``
special candies, combos    ``special_rules.py``         ``fast/specials.py``    ``test_match3_specials_props.py``
=========================  ===========================  ======================  =================================

How a swap walks: the widget passes the two cells to :meth:`Game.play`; the engine checks them once (neighbours,
on the board), works out the combination and the refill source once, and returns a :class:`Turn`.

>>> from tilelab.match3 import Board, new_board, find_matches, play, legal_moves, is_dead, reshuffle
>>> board = new_board(8, 8, 6, rng=0)
>>> find_matches(board), is_dead(board)
([], False)
>>> result = play(board, legal_moves(board)[0], rng=0)
>>> result.legal, find_matches(result.board)
(True, [])

Glossary (the names the lessons use):

- *cell*: ``(row, col)``; row 0 is the top row, candies fall towards higher rows.
- *kind*: a candy colour, ``0 .. kinds-1``; :data:`EMPTY` (-1) marks a hole during a cascade.
- *run*: three or more candies of one kind in a row or a column (maximal).
- *group*: runs that share a cell clear together (an L, T or cross); its ``shape`` scores it.
- *swap*: exchange two orthogonal neighbours; legal only when it creates a run, else swapped back.
  :func:`tilelab.match3.play` ``(board, (a, b), rng=...)`` plays one, cascade and all (``swap`` with the
  two cells as arguments is the same rule).
- *cascade step*: match -> clear -> fall -> refill; repeated until the board is *stable* (no run).
- *dead*: stable AND no swap makes a run (defined for stable boards only: ``is_dead`` raises
  ValueError on a board that still holds a run).

The vocabulary (the same words as :mod:`tilelab.game2048` and :mod:`tilelab.sliding`):

- ``play(board, (a, b), *, rng) -> SwapResult``: one swap, the engine-level move; on a
  ``SpecialBoard`` it plays the special candies' rules and returns a ``SpecialSwapResult``.
  ``swap(board, a, b, *, rng)`` is the same plain rule with the two cells as arguments (kept:
  lessons build it), ``swap_specials`` its special twin.
- ``legal_moves(board)``: every swap that makes a match, the readable function the lesson builds
  (:mod:`tilelab.match3.moves`); its compiled twins are ``legal_moves_fast`` and ``is_dead_fast``
  (tested to agree).
- ``rng`` is keyword-only everywhere (a seed or a ``numpy.random.Generator``) and required
  wherever chance enters: deals, refills, cascades, swaps, reshuffles, statistics.
- one text picture for both boards: ``print(board)`` writes it, ``Board.parse`` and
  ``SpecialBoard.parse`` read it (``SpecialBoard`` adds marks after a kind: ``- | + @``, ``*``).
"""

from tilelab.match3.board import EMPTY, SHAPE_POINTS, SHAPES, Board, Cell, Move, neighbours
from tilelab.match3.cascade import (
    MAX_CASCADES,
    CascadeStep,
    ChosenRefills,
    SwapResult,
    cascade_step,
    clear,
    fall,
    refill,
    refill_outcomes,
    resolve,
    swap,
)
from tilelab.match3.matches import Group, Run, find_matches, find_runs, four_direction_counts
from tilelab.match3.moves import hint, immediate_score
from tilelab.match3.moves import is_dead, legal_moves
from tilelab.match3.fast.plain import is_dead_fast, swap_fast, legal_moves_fast
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
from tilelab.match3.special_board import SCORE_TABLE, SpecialBoard, specials_count
from tilelab.match3.generate import new_special_board
from tilelab.match3.special_rules import (
    SpecialStep,
    SpecialSwapResult,
    combo_cells,
    find_groups,
    is_dead_specials,
    swap_specials,
    legal_moves_specials,
)
from tilelab.match3.special_reshuffle import reshuffle_specials

# The session (play -> Turn, undo, hint, save/load) and its rules objects: the same shape as
# game2048.Game and sliding.Game.
from tilelab.protocol import Turn  # noqa: E402
from tilelab.match3.game import PLAIN, WITH_SPECIALS, Game, PlainRules, Rules, SpecialRules, play  # noqa: E402

__all__ = [
    "play", "Game", "Rules", "PlainRules", "SpecialRules", "PLAIN", "WITH_SPECIALS", "Turn",
    "EMPTY", "MAX_CASCADES", "SHAPE_POINTS", "SHAPES", "Board", "CascadeStep", "Cell", "Group", "Move", "Run",
    "SwapResult", "Reshuffle", "ReshuffleWarning", "cascade_step", "clear", "fall", "find_matches",
    "find_runs", "four_direction_counts", "hint", "immediate_score", "neighbours", "refill", "ChosenRefills",
    "refill_outcomes", "resolve", "swap", "swap_fast",
    "legal_moves_fast", "legal_moves", "is_dead", "is_dead_fast", "new_board",
    "planted_board", "reshuffle", "reshuffle_report",
    "stable_board", "can_have_move",
    # special candies (specials on; the rules above stay the default)
    "SpecialBoard", "SpecialStep", "SpecialSwapResult", "new_special_board", "swap_specials",
    "legal_moves_specials", "is_dead_specials", "reshuffle_specials", "SCORE_TABLE", "combo_cells", "find_groups",
    "specials_count",
]
