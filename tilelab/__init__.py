"""tilelab: the algorithms inside 2048, the sliding-tile puzzle and match-3 games.

Engines (pure: standard library + numpy, with optional numba for the fast paths):

- :mod:`tilelab.game2048`  -- slide, merge, spawn; bitboard engine and AI players
- :mod:`tilelab.sliding`   -- inversion parity, shuffles, solvers (BFS .. IDA* + pattern databases)
- :mod:`tilelab.match3`    -- match, clear, fall, refill, cascade; dead boards and reshuffles

Around them: :mod:`tilelab.widgets` (playable ipycanvas boards), :mod:`tilelab.plots`
(matplotlib figures for the lessons) and :mod:`tilelab.exercises` (self-checking exercises).

One vocabulary across the three games:

- one name, one function: a name means the same object whichever path imports it
  (``tilelab.match3.legal_moves is tilelab.match3.core.legal_moves``, and ``valid_moves`` is that same object);
- the plain name is the readable reference a lesson builds; its twins carry a suffix and are
  tested to agree with it: ``_fast`` for a compiled (numba) twin on the same board type,
  ``_bits`` for the same rule on the 64-bit 2048 bitboard (another representation, not only
  speed). ``_reference`` (and ``_ref`` in ``game2048.ntuple``, ``*_reference`` searches in
  ``sliding``) are older names for a readable twin, kept because lessons use them; where one
  function offers both paths an ``engine=`` keyword picks one;
- ``play(board, move)`` is every engine's move, returning what happened as data:
  ``game2048.play(board, "left") -> MoveResult``, ``sliding.play(puzzle, tile_or_direction) -> Slide``,
  ``match3.play(board, (a, b), rng=...) -> SwapResult`` (a ``SpecialBoard`` gets its special result);
  older names (``move``, ``Puzzle.slide_segment``/``Puzzle.move``, ``swap``) stay as aliases;
- ``legal_moves`` lists the legal moves in every engine (``game2048.legal_moves``,
  ``sliding.legal_moves``/``Puzzle.legal_moves``, ``match3.legal_moves``) and on every ``Game``;
- every widget takes ``px=`` for its size in pixels;
- randomness is a keyword-only ``rng`` taking a seed or a ``numpy.random.Generator``
  (:data:`tilelab._random.RngLike`); the older ``seed=`` stays as an alias where it was used.
"""

import sys as _sys
from typing import Any as _Any

__version__ = "0.1.0"
__all__ = ["IN_BROWSER", "check_game"]

#: True in the browser kernel (JupyterLite/Pyodide), where lessons pick smaller sizes for heavy cells.
IN_BROWSER: bool = _sys.platform == "emscripten"


def __getattr__(name: str) -> _Any:
    if name == "check_game":  # loaded on first use: ``import tilelab`` stays light
        from tilelab.checking import check_game

        return check_game
    raise AttributeError(f"module 'tilelab' has no attribute {name!r}")
