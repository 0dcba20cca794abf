"""Match-3 rules, readable reference: board, runs, groups and shapes, clear, fall, refill, swap.

Glossary (the names the lesson uses):

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

Every step is returned as data (groups, falls, refills, the boards in between) so that plots
and widgets can show it. The fast engine in :mod:`tilelab.match3.fast` computes the same
final boards and scores and is tested to agree.

The engine lives in four modules, one seam each: :mod:`~tilelab.match3.board` (Board and checks),
:mod:`~tilelab.match3.matches` (runs and groups), :mod:`~tilelab.match3.cascade` (clear, fall,
refill, cascade steps, swap) and :mod:`~tilelab.match3.moves` (legal moves, dead boards, hint).
This module re-exports all of them as the same objects, so ``tilelab.match3.core:is_dead`` and
every old import path still hold.
"""

from __future__ import annotations

from tilelab.match3.board import (  # noqa: F401
    Cell as Cell,
    Move as Move,
    EMPTY as EMPTY,
    MIN_KINDS as MIN_KINDS,
    RUN as RUN,
    SYMBOLS as SYMBOLS,
    EMPTY_SYMBOL as EMPTY_SYMBOL,
    MAX_KINDS as MAX_KINDS,
    MAX_SIDE as MAX_SIDE,
    MAX_CELLS as MAX_CELLS,
    SHAPE_POINTS as SHAPE_POINTS,
    SHAPES as SHAPES,
    MAX_CASCADES as MAX_CASCADES,
    Board as Board,
    BoardBase as BoardBase,
    _check_rectangle as _check_rectangle,
    _default_kinds as _default_kinds,
    _token as _token,
    draw_picture as draw_picture,
    read_picture as read_picture,
    _check_kinds as _check_kinds,
    _check_grid as _check_grid,
    _check_limits as _check_limits,
    check_cell as check_cell,
    check_full as check_full,
    neighbours as neighbours,
)
from tilelab.match3.matches import (  # noqa: F401
    Run as Run,
    Group as Group,
    find_runs as find_runs,
    _shape as _shape,
    _is_inner as _is_inner,
    find_matches as find_matches,
    runs_through as runs_through,
    four_direction_counts as four_direction_counts,
    DIRECTIONS as DIRECTIONS,
)
from tilelab.match3.cascade import (  # noqa: F401
    clear as clear,
    fall as fall,
    refill_outcomes as refill_outcomes,
    kind_from_uniform as kind_from_uniform,
    sample_refill as sample_refill,
    refill as refill,
    fall_moves as fall_moves,
    draw_refills as draw_refills,
    CascadeStep as CascadeStep,
    SwapOutcome as SwapOutcome,
    SwapResult as SwapResult,
    cascade_step as cascade_step,
    resolve as resolve,
    check_swap as check_swap,
    creates_run as creates_run,
    swap as swap,
)
from tilelab.match3.moves import (  # noqa: F401
    valid_moves as valid_moves,
    legal_moves as legal_moves,
    check_stable as check_stable,
    is_dead as is_dead,
    immediate_score as immediate_score,
    _immediate_score_stable as _immediate_score_stable,
    HINT_RULES as HINT_RULES,
    hint as hint,
)
