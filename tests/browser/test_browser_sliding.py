"""The sliding puzzle played in JupyterLab: drawn where the engine says, clicks slide segments,
arrow keys/WASD move, rapid presses are applied exactly once, Shuffle / Hint / Solve do their job."""

from __future__ import annotations

import json
import random
import re

import pytest

from browserlab import BoardView, board_on_tab, close_previous, colour_close, parse_colour, pixel

pytestmark = pytest.mark.browser


SEED = 11
SETUP = close_previous("board") + f"""
import json
from tilelab.widgets import sliding_pictures as _S
from tilelab.widgets.sliding import SlidingWidget
board = SlidingWidget(4, rng={SEED}, px=400)
keys_seen = []
_on_key = board.on_key
def _count_key(key):
    keys_seen.append(key)
    return _on_key(key)
board.on_key = _count_key

def board_state():
    p = board.board
    x0, y0, cell = _S.board_origin(p.rows, p.cols, board.width, board.height)
    return {{"tiles": list(p.tiles), "rows": p.rows, "cols": p.cols, "blank": list(p.blank),
            "single": board.move_count.single, "multi": board.move_count.multi, "goal": p.is_goal(),
            "x0": x0, "y0": y0, "cell": cell, "gap": _S.GAP, "hint": board.hint_tile,
            "finished": board.finished is not None, "keys_seen": len(keys_seen),
            "colours": {{"cell": _S.CELL_COLOUR, "tile": _S.TILE_COLOUR, "home": _S.TILE_DONE_COLOUR,
                        "hint": _S.HINT_COLOUR}}}}
"""


@pytest.fixture
def sliding(board_lab: dict, notebook_dir) -> BoardView:
    return board_on_tab(board_lab, notebook_dir, "sliding.ipynb", [SETUP, "board"])


def state(view: BoardView) -> dict:
    return view.lab.kernel_json("board_state()")


def centre(st: dict, r: int, c: int) -> tuple[float, float]:
    return st["x0"] + (c + 0.5) * st["cell"], st["y0"] + (r + 0.5) * st["cell"]


def assert_pixels_match(view: BoardView, st: dict) -> None:
    """Every cell shows what the engine says: blank cell colour, tile at home, tile away from home."""
    view.settle()
    pixels = view.pixels()
    cols = st["cols"]
    wrong = []
    for index, tile in enumerate(st["tiles"]):
        r, c = divmod(index, cols)
        # a spot inside the tile, clear of its number: 6 px in from the tile's top-left corner
        x = st["x0"] + c * st["cell"] + st["gap"] / 2 + 6
        y = st["y0"] + r * st["cell"] + st["gap"] / 2 + 6
        if tile == 0:
            want = st["colours"]["cell"]
        elif divmod(tile - 1, cols) == (r, c):
            want = st["colours"]["home"]
        else:
            want = st["colours"]["tile"]
        got = pixel(pixels, x, y)
        if not colour_close(got[:3], parse_colour(want)) or got[3] != 255:
            wrong.append(f"cell ({r},{c}) tile {tile}: want {want}, got {got}")
    assert not wrong, "canvas disagrees with the engine:\n" + "\n".join(wrong)


def status_counts(view: BoardView) -> tuple[int, int]:
    text = view.status_text()
    match = re.search(r"(\d+)\s*moves.*?(\d+)\s*multi-tile moves", text, re.S)
    assert match, f"status line has no move counter: {text!r}"
    return int(match.group(1)), int(match.group(2))


def test_board_drawn_where_the_engine_says(sliding: BoardView) -> None:
    st = state(sliding)
    assert 0 in st["tiles"] and not st["goal"]
    assert_pixels_match(sliding, st)
    assert status_counts(sliding) == (0, 0)
    assert sliding.lab.widget_errors() == [] and sliding.lab.console_errors() == []


def test_click_slides_the_segment_in_the_blanks_row_and_column(sliding: BoardView) -> None:
    lab = sliding.lab
    sliding.focus()  # the click that gives a sliding board the keyboard slides nothing (test_browser_focus_click.py)
    st = state(sliding)
    br, bc = st["blank"]
    # the farthest tile in the blank's row: the whole segment between it and the blank slides
    far_c = 0 if bc >= st["cols"] / 2 else st["cols"] - 1
    tile = st["tiles"][br * st["cols"] + far_c]
    expected = lab.kernel_json(f"list(board.board.slide({tile}).tiles)")
    sliding.click(*centre(st, br, far_c))
    after = lab.wait_for(lambda: (lambda s: s if s["multi"] == 1 else None)(state(sliding)), 15, "the slide")
    assert after["tiles"] == expected
    assert after["blank"] == [br, far_c]
    assert after["single"] == abs(far_c - bc) and abs(far_c - bc) >= 2
    assert_pixels_match(sliding, after)
    assert status_counts(sliding) == (after["single"], 1)

    # now a tile in the blank's column
    br, bc = after["blank"]
    far_r = 0 if br >= st["rows"] / 2 else st["rows"] - 1
    tile = after["tiles"][far_r * st["cols"] + bc]
    expected = lab.kernel_json(f"list(board.board.slide({tile}).tiles)")
    sliding.click(*centre(after, far_r, bc))
    after2 = lab.wait_for(lambda: (lambda s: s if s["multi"] == 2 else None)(state(sliding)), 15, "the column slide")
    assert after2["tiles"] == expected
    assert after2["single"] == after["single"] + abs(far_r - br)
    assert_pixels_match(sliding, after2)
    assert status_counts(sliding) == (after2["single"], 2)

    # a tile in neither the blank's row nor its column does not move
    br, bc = after2["blank"]
    r, c = (br + 1) % st["rows"], (bc + 1) % st["cols"]
    sliding.click(*centre(after2, r, c))
    lab.wait_for(lambda: "not in the blank" in sliding.status_text(), 15, "the 'not in the blank's row' message")
    assert state(sliding)["tiles"] == after2["tiles"]


def test_arrow_keys_and_wasd_each_applied_exactly_once(sliding: BoardView) -> None:
    lab = sliding.lab
    before_cells = lab.notebook_state()["ncells"]
    st = state(sliding)
    sliding.focus()
    rng = random.Random(SEED)
    keys = [rng.choice(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "w", "a", "s", "d"]) for _ in range(200)]
    for key in keys:
        sliding.press(key)
    final = lab.wait_for(lambda: (lambda s: s if s["keys_seen"] >= len(keys) else None)(state(sliding)), 30,
                         "all 200 key presses in the kernel")
    assert lab.kernel_json("keys_seen") == keys, "keys lost, duplicated or reordered on the way to the kernel"
    replay = lab.kernel_json(
        f"""_replay(board_start, {json.dumps(keys)})""",
        setup=f"""
from tilelab.sliding import Board, count_moves
from tilelab.widgets.base import ARROW_KEYS
board_start = Board({st['tiles']!r}, {st['rows']}, {st['cols']})
def _replay(p, keys):
    start, played = p, []
    for k in keys:
        t = p.tile_for(ARROW_KEYS[k])
        if t is not None:
            p = p.slide(t)
            played.append(t)
    counted = count_moves(start, played)
    return [list(p.tiles), len(played), counted.single, counted.multi]
""")
    assert final["tiles"] == replay[0]
    assert final["single"] == replay[1] == replay[2], "every legal press is one single-tile slide"
    assert final["multi"] == replay[3] < replay[1], "presses along one line count one multi-tile move (count_moves)"
    assert replay[1] > 100, "the key sequence should mostly move"
    assert_pixels_match(sliding, final)
    assert status_counts(sliding) == (final["single"], final["multi"])
    assert lab.notebook_state()["ncells"] == before_cells, "JupyterLab took the keys (a/b insert cells)"


def test_shuffle_button_deals_a_new_board(sliding: BoardView) -> None:
    lab = sliding.lab
    st = state(sliding)
    sliding.focus()
    sliding.press("ArrowLeft")
    sliding.press("ArrowUp")
    lab.wait_for(lambda: state(sliding)["keys_seen"] == 2, 15, "two key presses")
    sliding.click_button("Shuffle")
    after = lab.wait_for(lambda: (lambda s: s if s["tiles"] != st["tiles"] and s["multi"] == 0 else None)(
        state(sliding)), 15, "a freshly shuffled board")
    assert not after["goal"]
    assert lab.kernel_json("is_solvable(board.board)", setup="from tilelab.sliding import is_solvable")
    assert_pixels_match(sliding, after)
    assert status_counts(sliding) == (0, 0)


def _has_solvers() -> bool:
    import tilelab.sliding as engine

    return hasattr(engine, "hint") and hasattr(engine, "solve")


@pytest.mark.skipif(not _has_solvers(), reason="tilelab.sliding.hint/solve (solvers module) not landed yet")
def test_hint_outlines_a_tile_and_solve_reaches_the_goal(board_lab: dict, notebook_dir) -> None:
    lab = board_lab["lab"]
    view = board_on_tab(board_lab, notebook_dir, "sliding3.ipynb",
                        [SETUP.replace("SlidingWidget(4,", "SlidingWidget(3,"), "board"])
    st = state(view)
    view.click_button("Hint")
    hinted = lab.wait_for(lambda: (lambda s: s if s["hint"] else None)(state(view)), 60, "a hint")
    tile = hinted["hint"]
    assert tile in lab.kernel_json("list(board.board.legal_moves())")
    assert f"slide {tile}" in view.status_text()
    view.settle()
    r, c = divmod(st["tiles"].index(tile), st["cols"])
    gap = st["gap"]
    # the outline runs along the tile's inner edge, gap px in from the cell border
    x = st["x0"] + c * st["cell"] + gap + 1
    y = st["y0"] + (r + 0.5) * st["cell"]
    assert colour_close(pixel(view.pixels(), x, y)[:3], parse_colour(st["colours"]["hint"]), 30), \
        "no hint outline on the hinted tile"
    view.click_button("Solve")
    # the game is over when the goal is reached *and* the widget has recorded the finish
    solved = lab.wait_for(lambda: (lambda s: s if s["goal"] and s["finished"] else None)(state(view)), 120,
                          "the Solve button to finish (goal reached and the game marked finished)")
    assert solved["multi"] > 0
    view.settle(timeout=60)
    # the goal board under the translucent "Solved" banner: no tile keeps its plain colour
    goal_spot = pixel(view.pixels(), st["x0"] + st["gap"] / 2 + 6, st["y0"] + st["gap"] / 2 + 6)
    assert not colour_close(goal_spot[:3], parse_colour(st["colours"]["home"])), "no banner over the solved board"


def test_the_wheel_over_a_board_scrolls_the_page(board_lab: dict, notebook_dir) -> None:
    """ipycanvas cancels wheel events on its canvas; over a board the page must scroll all the same."""
    view = board_on_tab(board_lab, notebook_dir, "sliding_scroll.ipynb",
                        [SETUP, "board", "print('\\n'.join(f'line {i}' for i in range(150)))"])
    box = view.canvas.bounding_box(timeout=15_000)
    assert box is not None
    view.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    view.page.mouse.wheel(0, 300)
    view.lab.wait_for(lambda: view.canvas.bounding_box(timeout=15_000)["y"] < box["y"] - 100, 10,
                      "the page to scroll under the pointer (the board moved up)")


def test_escape_gives_the_cell_the_keyboard_so_enter_edits_it(sliding: BoardView) -> None:
    lab = sliding.lab
    sliding.focus()
    ring = sliding.canvas.evaluate("c => [getComputedStyle(c).outlineStyle, getComputedStyle(c).outlineWidth]")
    assert ring == ["solid", "3px"], f"no clear focus ring on the board that has the keyboard: {ring}"
    sliding.press("Escape")
    lab.wait_for(lambda: sliding.canvas.evaluate(
        "c => document.activeElement !== c && document.activeElement.classList.contains('jp-Cell')"
        " && document.activeElement.contains(c)"), 10, "Escape to focus the board's cell")
    sliding.press("Enter")
    lab.wait_for(lambda: lab.page.evaluate(
        "() => !!document.querySelector('.jp-Notebook.jp-mod-editMode')"), 10, "Enter to edit the cell")
    sliding.press("Escape")  # back to command mode for the next test


_DIRTY_JS = r"""
() => {
  const panel = window.__tilelabPanel;
  const model = panel.context.model;
  return {dirty: model.dirty, metadata: model.toJSON().metadata};
}
"""


def _open_and_read_dirty(lab, notebook_dir, kernel_name: str | None) -> tuple[bool, dict]:
    """Open a copy of lesson 3a (its kernelspec display name replaced if given) and read the dirty flag."""
    import time
    from pathlib import Path

    lesson = json.loads((Path(__file__).resolve().parents[2] / "notebooks" / "03a_sliding_parity.ipynb")
                        .read_text(encoding="utf-8"))
    if kernel_name is not None:
        lesson["metadata"]["kernelspec"]["display_name"] = kernel_name
    name = f"opened_lesson_{'fixed' if kernel_name else 'as_is'}.ipynb"
    (notebook_dir / name).write_text(json.dumps(lesson), encoding="utf-8")
    lab.open_notebook(f"{notebook_dir.name}/{name}")
    time.sleep(3)  # widget state restored, kernel info in
    now = lab.page.evaluate(_DIRTY_JS)
    saved = lesson["metadata"]
    changed = {k: (saved.get(k), now["metadata"].get(k)) for k in set(saved) | set(now["metadata"])
               if k != "widgets" and saved.get(k) != now["metadata"].get(k)}
    return now["dirty"], changed


def test_opening_a_lesson_does_not_mark_it_modified(board_lab: dict, notebook_dir) -> None:
    """Opening a notebook must not make closing it ask to save (nothing was done yet)."""
    board_lab["opened"] = None  # the next board test opens its notebook again
    dirty, changed = _open_and_read_dirty(board_lab["lab"], notebook_dir, None)
    assert not dirty, f"opening marked the notebook modified; metadata changed on open: {changed}"


def test_the_kernel_name_is_the_only_reason_opening_marks_a_lesson_modified(board_lab: dict, notebook_dir) -> None:
    """With ipykernel's display name in its kernelspec the same lesson opens clean (widget state included)."""
    board_lab["opened"] = None
    dirty, changed = _open_and_read_dirty(board_lab["lab"], notebook_dir, "Python 3 (ipykernel)")
    assert not dirty and not changed, f"still modified on open: {changed}"
