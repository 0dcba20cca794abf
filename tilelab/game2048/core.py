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
:mod:`~tilelab.game2048.game` (the :class:`Game` session); :mod:`tilelab.game2048` is their public face.
This module only keeps the older import paths: each name warns and names its home (it goes in 0.3.0).
"""

from tilelab._deprecation import moved

__getattr__, __dir__ = moved(__name__, {
    "annotations": "__future__:annotations",
    "BLANK": "tilelab.game2048.board:BLANK",
    "MIN_SIZE": "tilelab.game2048.board:MIN_SIZE",
    "MAX_SIZE": "tilelab.game2048.board:MAX_SIZE",
    "DEFAULT_SIZE": "tilelab.game2048.board:DEFAULT_SIZE",
    "DEFAULT_TARGET": "tilelab.game2048.board:DEFAULT_TARGET",
    "DEFAULT_P_FOUR": "tilelab.game2048.board:DEFAULT_P_FOUR",
    "SMALL_TILE": "tilelab.game2048.board:SMALL_TILE",
    "BIG_TILE": "tilelab.game2048.board:BIG_TILE",
    "MAX_TILE": "tilelab.game2048.board:MAX_TILE",
    "START_TILES": "tilelab.game2048.board:START_TILES",
    "JSON_FORMAT": "tilelab.game2048.board:JSON_FORMAT",
    "JSON_VERSION": "tilelab.game2048.board:JSON_VERSION",
    "Cell": "tilelab.game2048.board:Cell",
    "Direction": "tilelab.game2048.board:Direction",
    "DirectionLike": "tilelab.game2048.board:DirectionLike",
    "Board": "tilelab.game2048.board:Board",
    "BoardLike": "tilelab.game2048.board:BoardLike",
    "TileMove": "tilelab.game2048.rules:TileMove",
    "SlideResult": "tilelab.game2048.rules:SlideResult",
    "_slide": "tilelab.game2048.rules:_slide",
    "slide_row": "tilelab.game2048.rules:slide_row",
    "line_cells": "tilelab.game2048.rules:line_cells",
    "MoveResult": "tilelab.game2048.rules:MoveResult",
    "play": "tilelab.game2048.rules:play",
    "move": "tilelab.game2048.rules:move",
    "legal_moves": "tilelab.game2048.rules:legal_moves",
    "is_over": "tilelab.game2048.rules:is_over",
    "Spawn": "tilelab.game2048.chance:Spawn",
    "spawn_outcomes": "tilelab.game2048.chance:spawn_outcomes",
    "sample_outcome": "tilelab.game2048.chance:sample_outcome",
    "spawn": "tilelab.game2048.chance:spawn",
    "rng_or_seed": "tilelab._random:rng_or_seed",
    "Game": "tilelab.game2048.game:Game",
    "Turn": "tilelab._protocol:Turn",
})
