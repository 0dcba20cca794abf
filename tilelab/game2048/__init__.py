"""2048: slide, merge, spawn, win and game over (pure engine: standard library + numpy).

Where each rule lives: the readable file is the rule; its fast twin (under ``fast/`` or ``learning/``) imports
the rule's constants and functions, and the test named last checks that both give the same answers.

============================  ==========================  ==============================  ==============================
rule                          readable                    fast twin                       test that ties them
============================  ==========================  ==============================  ==============================
slide and merge               ``rules.py``                ``fast/bitrows.py``,            ``test_game2048_bitboard.py``
                                                          ``fast/bitboard.py``
legal moves, game over        ``rules.py``                ``fast/bitboard.py``            ``test_game2048_bitboard.py``
spawn: a 2, or a 4 with       ``chance.py``               ``fast/bitboard.py``,           ``test_game2048_bitboard.py``,
``p_four``, on an empty cell                              ``fast/kernels.py``             ``test_game2048_kernels.py``
expectimax value              ``ai.py``                   ``expectimax.py`` with          ``test_game2048_ai.py``
                                                          ``fast/kernels.py``
search stops: node limit,     ``stopping.py``             ``fast/kernels.py``             ``test_game2048_kernels.py``,
deadline                                                  (``count_node``)                ``test_game2048_deadline.py``
n-tuple value, TD update      ``learning/ntuple_ref.py``  ``learning/ntuple_kernels.py``  ``test_game2048_ntuple.py``
============================  ==========================  ==============================  ==============================

How a move walks: a key becomes a :class:`Direction` once, in the widget's key map; :meth:`Game.play` takes it
(or parses a word from code, once), plays it with :func:`~tilelab.game2048.rules.play_parsed` and returns a
:class:`Turn` that already says whether the game is over.

The readable engine (:mod:`~tilelab.game2048.board`, :mod:`~tilelab.game2048.rules`,
:mod:`~tilelab.game2048.chance`, :mod:`~tilelab.game2048.game`) is imported at once. The AI players and the
bitboard engine (:mod:`tilelab.game2048.ai`, :mod:`tilelab.game2048.fast.bitboard`) load numba, so
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

from tilelab.protocol import Turn
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
