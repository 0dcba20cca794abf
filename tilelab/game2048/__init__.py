"""2048: slide, merge, spawn, win and game over (pure engine: standard library + numpy).

>>> from tilelab.game2048 import Board, move
>>> print(move(Board.parse('''
...     2 2
...     . 2
... '''), "left").board)
4 .
2 .
"""

from tilelab.game2048.core import *  # noqa: F401,F403  (the public API: core.__all__)
# -- appended by the 2048-AI helper: the fast bitboard engine and the players --
from tilelab.game2048.ai import (  # noqa: E402,F401
    CornerPlayer, Expectimax, GameRecord, GreedyPlayer, MonteCarloPlayer, RandomPlayer, Thought, play_game, replay,
)
