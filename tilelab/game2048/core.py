"""The 2048 engine: slide, merge, spawn, win and game over, as pure functions on immutable boards.

Rules follow the original game (gabrielecirulli/2048):

- a swipe slides every tile as far as it goes toward one side;
- two equal tiles that meet merge into one tile of twice the value; a tile merges at most once
  per move, and pairs form from the side the tiles move toward (``2 2 2 .`` left gives ``4 2 . .``);
- the score grows by the value of every tile a merge creates;
- a move that changes nothing is not a move: nothing spawns;
- after a move that changed the board one tile spawns on a uniformly random empty cell:
  a 2 with probability 0.9, a 4 with probability 0.1 (``p_four``);
- a game starts with two spawned tiles; making the target tile (2048) wins, and play may go on;
- the game is over when no direction changes the board.

Beyond the original: any square size from 2 to 8, a configurable target and ``p_four``, seeded
randomness, undo to any depth and JSON save/load that restores the random state exactly.

Chance is data: :func:`spawn_outcomes` lists every possible spawn with its probability and
:func:`spawn` samples from that very list, so an expectimax player and the game agree by
construction.

The engine lives in four modules, one seam each: :mod:`~tilelab.game2048.board` (directions,
checks, :class:`Board`), :mod:`~tilelab.game2048.rules` (slide, merge, play, legal moves, game
over), :mod:`~tilelab.game2048.chance` (spawns as outcomes with probabilities) and
:mod:`~tilelab.game2048.game` (the :class:`Game` session). This module re-exports all of them,
so ``tilelab.game2048.core.slide_row`` is the very same function as ``tilelab.game2048.rules.slide_row``.
"""

from __future__ import annotations

from tilelab.game2048.board import (  # noqa: F401
    BLANK as BLANK,
    MIN_SIZE as MIN_SIZE,
    MAX_SIZE as MAX_SIZE,
    DEFAULT_SIZE as DEFAULT_SIZE,
    DEFAULT_TARGET as DEFAULT_TARGET,
    DEFAULT_P_FOUR as DEFAULT_P_FOUR,
    SMALL_TILE as SMALL_TILE,
    BIG_TILE as BIG_TILE,
    MAX_TILE as MAX_TILE,
    START_TILES as START_TILES,
    JSON_FORMAT as JSON_FORMAT,
    JSON_VERSION as JSON_VERSION,
    Cell as Cell,
    _DIRECTION_WORDS as _DIRECTION_WORDS,
    Direction as Direction,
    _DELTAS as _DELTAS,
    _OPPOSITES as _OPPOSITES,
    DirectionLike as DirectionLike,
    _is_int as _is_int,
    _check_tile as _check_tile,
    _check_p_four as _check_p_four,
    _check_size as _check_size,
    Board as Board,
    BoardLike as BoardLike,
    _as_board as _as_board,
)
from tilelab.game2048.rules import (  # noqa: F401
    TileMove as TileMove,
    SlideResult as SlideResult,
    _slide as _slide,
    _slide_cached as _slide_cached,
    slide_row as slide_row,
    _line_cells as _line_cells,
    line_cells as line_cells,
    MoveResult as MoveResult,
    play as play,
    move as move,
    _LEFT as _LEFT,
    _RIGHT as _RIGHT,
    _UP as _UP,
    _DOWN as _DOWN,
    _DIRECTION_CODE as _DIRECTION_CODE,
    _DIRECTION_OF_CODE as _DIRECTION_OF_CODE,
    _lines_toward as _lines_toward,
    _LineResult as _LineResult,
    _line_result as _line_result,
    _line_can_slide as _line_can_slide,
    legal_moves as legal_moves,
    is_over as is_over,
)
from tilelab.game2048.chance import (  # noqa: F401
    Spawn as Spawn,
    spawn_outcomes as spawn_outcomes,
    sample_outcome as sample_outcome,
    spawn as spawn,
    rng_or_seed as rng_or_seed,
)
from tilelab.game2048.game import (  # noqa: F401
    _Snapshot as _Snapshot,
    _check_target as _check_target,
    _as_spawn as _as_spawn,
    _jsonable as _jsonable,
    _generator_from_state as _generator_from_state,
    _saved as _saved,
    _saved_count as _saved_count,
    _saved_bool as _saved_bool,
    _saved_board as _saved_board,
    Game as Game,
)
from tilelab._protocol import Turn as Turn  # noqa: F401

__all__ = [
    "BLANK",
    "MAX_SIZE",
    "MIN_SIZE",
    "Board",
    "Cell",
    "Direction",
    "Game",
    "MoveResult",
    "SlideResult",
    "Spawn",
    "TileMove",
    "Turn",
    "is_over",
    "legal_moves",
    "line_cells",
    "move",
    "play",
    "slide_row",
    "spawn",
    "spawn_outcomes",
]
