"""Playable boards for the lessons (ipycanvas + ipywidgets).

Each board turns keys, clicks and drags into engine calls and animates what the engine reports;
the rules live in the engines. Imported lazily, so ``import tilelab.widgets`` stays cheap:

- :class:`Game2048Widget` -- 2048 (keys, swipes, buttons, undo, word tiles)
- :class:`Game2048AIWidget` -- the same board with "AI plays" and a thinking panel
- :class:`SlidingWidget` -- the sliding-tile puzzle with numbers or a picture, hint and solve
- :class:`Match3Widget` -- a match-3 candy board with cascades, hints, a step mode and specials
- :class:`Game2048TDWidget` -- 2048 played by a learned n-tuple network (lesson 6b)

Step-through visualisers for the lessons' searches:

- :class:`TreeStepper` -- the expectimax tree of a small 2048 board, one event at a time
- :class:`SearchStepper` -- BFS / A* / IDA* on an 8-puzzle: frontier, closed set, f = g + h, bound

Use them in JupyterLab: classic Notebook 7 keeps arrow keys and "a" for its own shortcuts (the
on-screen buttons always work).
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "BoardWidget": "tilelab.widgets.base",
    "Game2048Widget": "tilelab.widgets.game2048",
    "Game2048AIWidget": "tilelab.widgets.game2048_ai",
    "SlidingWidget": "tilelab.widgets.sliding",
    "Match3Widget": "tilelab.widgets.match3",
    "Game2048TDWidget": "tilelab.widgets.game2048_td",
    "TreeStepper": "tilelab.widgets.expectimax_tree",
    "SearchStepper": "tilelab.widgets.search_stepper",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'tilelab.widgets' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
