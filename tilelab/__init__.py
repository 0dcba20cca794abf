"""tilelab: the algorithms inside 2048, the sliding-tile puzzle and match-3 games.

Engines (pure: standard library + numpy, with optional numba for the fast paths):

- :mod:`tilelab.game2048`  -- slide, merge, spawn; bitboard engine and AI players
- :mod:`tilelab.sliding`   -- inversion parity, shuffles, solvers (BFS .. IDA* + pattern databases)
- :mod:`tilelab.match3`    -- match, clear, fall, refill, cascade; dead boards and reshuffles

Around them: :mod:`tilelab.widgets` (playable ipycanvas boards), :mod:`tilelab.plots`
(matplotlib figures for the lessons) and :mod:`tilelab.exercises` (self-checking exercises).

One vocabulary across the three games (the reference: ``docs/vocabulary.md``, checked against the code):

- one import path per name: a name lives in one module and is imported from there, or from its
  package (``tilelab.match3.legal_moves`` is ``tilelab.match3.moves.legal_moves``); one name per thing,
  with no older aliases (the names retired in 0.3.0 are listed in ``CHANGELOG.md``);
- the plain name is the readable reference a lesson builds; its twins carry a suffix and are
  tested to agree with it: ``_fast`` for a compiled (numba) twin on the same board type,
  ``_bits`` for the same rule on the 64-bit 2048 bitboard (another representation, not only
  speed); ``_reference`` (and ``_ref`` in the n-tuple modules, ``*_reference`` searches in
  ``sliding``) name a readable twin kept beside a fast default; where one function offers both
  paths an ``engine=`` keyword picks one;
- ``play(board, move)`` is every engine's move, returning what happened as data:
  ``game2048.play(board, "left") -> MoveResult``, ``sliding.play(board, tile_or_direction) -> Slide``,
  ``match3.play(board, (a, b), rng=...) -> SwapResult``; ``Game.play(move) -> Turn`` plays one move of a
  session and ``Game.play_all(moves)`` a sequence;
- ``legal_moves`` lists the legal moves in every engine and on every ``Game``; ``game.board`` is the
  board a ``Game`` is at; ``Game.chance_outcomes()`` lists its chance step (OpenSpiel's way);
- :func:`tilelab.check_game` checks any game against the shared protocol (Gymnasium's ``check_env``);
- every widget takes ``px=`` for its size in pixels;
- randomness is a keyword-only ``rng`` taking a seed or a ``numpy.random.Generator``
  (:data:`tilelab.randomness.RngLike`).
"""

import sys as _sys
from typing import Any as _Any

__version__ = "0.3.0"
__all__ = ["IN_BROWSER", "check_game"]

#: True in the browser kernel (JupyterLite/Pyodide), where lessons pick smaller sizes for heavy cells.
IN_BROWSER: bool = _sys.platform == "emscripten"


def __getattr__(name: str) -> _Any:
    if name == "check_game":  # loaded on first use: ``import tilelab`` stays light
        from tilelab.checking import check_game

        return check_game
    raise AttributeError(f"module 'tilelab' has no attribute {name!r}")
