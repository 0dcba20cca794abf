"""The click that gives the sliding board the keyboard slides no tile (the lessons say: click it once, then keys).

On a sliding board a click on a tile slides it, so a student who clicks the middle of the board to give it the
keyboard used to move a tile by accident. A board marked ``tilelab-focus-first`` (``BOARD_SCRIPT`` in
``tilelab.widgets.page``) takes that first click as focus only; once it has the keyboard, clicks slide again.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import browserlab as bl

pytestmark = pytest.mark.browser

SETUP = """\
from tilelab.widgets import sliding_pictures as _S
from tilelab.widgets.sliding import SlidingWidget
board = SlidingWidget(3, rng=5, px=360)

def board_state():
    p = board.board
    x0, y0, cell = _S.board_origin(p.rows, p.cols, board.width, board.height)
    return {"tiles": list(p.tiles), "cols": p.cols, "blank": list(p.blank), "moves": board.moves_played,
            "x0": x0, "y0": y0, "cell": cell}
"""

FOCUSED_JS = "c => { const a = document.activeElement; return !!a && a.tagName === 'CANVAS' && " \
             "c.closest('.tilelab-board').contains(a); }"


def _tile_beside_the_blank(st: dict) -> tuple[float, float]:
    """The centre of a tile in the blank's row (a click there slides it), in canvas pixels."""
    r, c = st["blank"]
    c = c - 1 if c > 0 else c + 1
    return st["x0"] + (c + 0.5) * st["cell"], st["y0"] + (r + 0.5) * st["cell"]


def test_the_focusing_click_slides_nothing_and_the_next_click_slides(lab: bl.LabPage, notebook_dir: Path) -> None:
    view = bl.open_board(lab, notebook_dir, "focus_click.ipynb", [SETUP, "board"])
    lab.page.locator(".jp-Cell").first.click()  # the notebook has the keyboard, as after Run All
    assert not view.canvas.evaluate(FOCUSED_JS)
    before = lab.kernel_json("board_state()")
    view.click(*_tile_beside_the_blank(before))  # in the middle of the board, on a tile that could slide
    lab.wait_for(lambda: view.canvas.evaluate(FOCUSED_JS) or None, 10, "the board to take the keyboard")
    lab.page.wait_for_timeout(1500)  # a slide would have reached the kernel by now
    assert lab.kernel_json("board_state()")["tiles"] == before["tiles"]
    view.click(*_tile_beside_the_blank(before))  # the board has the keyboard: this click slides
    lab.wait_for(lambda: lab.kernel_json("board_state()")["moves"] == 1 or None, 15, "the second click to slide")
    moved = lab.kernel_json("board_state()")
    key = "ArrowLeft" if moved["blank"][1] < moved["cols"] - 1 else "ArrowRight"
    view.press(key)  # and the keys play
    lab.wait_for(lambda: lab.kernel_json("board_state()")["moves"] == 2 or None, 15, "the arrow key to slide")
    assert lab.widget_errors() == []
