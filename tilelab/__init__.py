"""tilelab: the algorithms inside 2048, the sliding-tile puzzle and match-3 games.

Engines (pure: standard library + numpy, with optional numba for the fast paths):

- :mod:`tilelab.game2048`  -- slide, merge, spawn; bitboard engine and AI players
- :mod:`tilelab.sliding`   -- inversion parity, shuffles, solvers (BFS .. IDA* + pattern databases)
- :mod:`tilelab.match3`    -- match, clear, fall, refill, cascade; dead boards and reshuffles

Around them: :mod:`tilelab.widgets` (playable ipycanvas boards), :mod:`tilelab.plots`
(matplotlib figures for the lessons) and :mod:`tilelab.exercises` (self-checking exercises).
"""

import sys as _sys

__version__ = "0.1.0"

#: True in the browser kernel (JupyterLite/Pyodide), where lessons pick smaller sizes for heavy cells.
IN_BROWSER: bool = _sys.platform == "emscripten"
