"""2048: slide, merge, spawn, win and game over (pure engine: standard library + numpy).

The readable engine (:mod:`tilelab.game2048.core`) is imported at once. The AI players and the
bitboard engine (:mod:`tilelab.game2048.ai`, :mod:`tilelab.game2048.bitboard`) load numba, so
their names are imported on first use: ``from tilelab.game2048 import Expectimax`` just works.

The engine-level move is :func:`play` (``play(board, direction) -> MoveResult``, the name every
game package shares; ``move`` is its older name, the very same function). Randomness is a keyword
``rng`` (a seed or a numpy Generator) everywhere; ``seed=`` stays as its older name.

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

from tilelab.game2048.core import *  # noqa: F401,F403  (the public API: core.__all__)
from tilelab.game2048.core import __all__ as _core_all

_AI_NAMES = (
    "CornerPlayer", "Expectimax", "GameRecord", "GreedyPlayer", "MonteCarloPlayer", "RandomPlayer",
    "Thought", "play_game", "replay",
)

__all__ = [*_core_all, *_AI_NAMES]


def __getattr__(name: str) -> Any:
    if name in _AI_NAMES:
        return getattr(importlib.import_module("tilelab.game2048.ai"), name)
    raise AttributeError(f"module 'tilelab.game2048' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_AI_NAMES))
