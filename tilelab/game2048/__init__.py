"""2048: slide, merge, spawn, win and game over (pure engine: standard library + numpy).

The readable engine (:mod:`~tilelab.game2048.board`, :mod:`~tilelab.game2048.rules`,
:mod:`~tilelab.game2048.chance`, :mod:`~tilelab.game2048.game`) is imported at once. The AI players and the
bitboard engine (:mod:`tilelab.game2048.ai`, :mod:`tilelab.game2048.bitboard`) load numba, so
their names are imported on first use: ``from tilelab.game2048 import Expectimax`` just works.

The engine-level move is :func:`play` (``play(board, direction) -> MoveResult``, the name every
game package shares). Randomness is a keyword ``rng`` (a seed or a numpy Generator) everywhere.

>>> from tilelab.game2048 import Board, play
>>> before = Board.parse('''
...     2 2
...     . 2
... ''')
>>> print(play(before, "left").board)
4 .
2 .
"""

from __future__ import annotations

import importlib
from typing import Any

from tilelab._protocol import Turn
from tilelab.game2048.board import BLANK, MAX_SIZE, MIN_SIZE, Board, Cell, Direction
from tilelab.game2048.chance import Spawn, spawn, spawn_outcomes
from tilelab.game2048.game import Game
from tilelab.game2048.rules import MoveResult, SlideResult, TileMove, is_over, legal_moves, line_cells, play, slide_row

#: names loaded on first use (numba), and the module each lives in
_LAZY = {
    **{name: "tilelab.game2048.ai" for name in (
        "CornerPlayer", "Expectimax", "GreedyPlayer", "MonteCarloPlayer", "RandomPlayer", "Thought")},
    **{name: "tilelab.game2048.records" for name in ("GameRecord", "play_game", "replay")},
}
_AI_NAMES = tuple(_LAZY)

__all__ = [
    "BLANK", "MAX_SIZE", "MIN_SIZE", "Board", "Cell", "Direction", "Game", "MoveResult", "SlideResult", "Spawn",
    "TileMove", "Turn", "is_over", "legal_moves", "line_cells", "play", "slide_row", "spawn", "spawn_outcomes",
    *_AI_NAMES,
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'tilelab.game2048' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_AI_NAMES))
