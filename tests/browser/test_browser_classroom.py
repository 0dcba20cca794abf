"""Boards that survive a classroom (issue 11): a re-run cell keeps the game, boards fit a narrow
notebook column, an unrun notebook shows a picture of each board, buttons hand the keys back."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Iterator

import pytest

import browserlab as bl
from browserlab import BoardView, open_board

pytestmark = pytest.mark.browser

SHOTS = bl.ARTIFACTS / "classroom"


def _tab(lab_session: Any, width: int, height: int, name: str) -> tuple[Any, bl.LabPage]:
    context = lab_session.browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
    return context, bl.LabPage(context.new_page(), lab_session.server, name=name)


@pytest.fixture
def narrow_lab(request: pytest.FixtureRequest, lab_session: Any) -> Iterator[bl.LabPage]:
    """A tab at 800x900, the size of a small laptop window with the file browser open."""
    already = lab_session.server.kernel_ids()
    context, labpage = _tab(lab_session, 800, 900, request.node.name)
    try:
        yield labpage
    finally:
        context.close()
        lab_session.server.shutdown_kernels(keep=already)


def _executions(lab: bl.LabPage) -> int:
    return int(lab.page.evaluate(
        "() => window.__tilelabPanel.content.widgets.filter(c => c.model.type === 'code')"
        ".map(c => c.model.executionCount || 0).reduce((a, b) => a + b, 0)"))


def test_escape_then_shift_enter_keeps_the_game(lab: bl.LabPage, notebook_dir: Path) -> None:
    cell = "from tilelab.widgets import Game2048Widget\nboard = Game2048Widget(rng=5)\nboard"
    view = open_board(lab, notebook_dir, "classroom_resume.ipynb", [cell])
    view.focus()
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown") * 4:
        view.press(key)
    played = lab.wait_for(lambda: (lambda s: s if s[1] >= 8 else None)(
        lab.kernel_json("[board.game.score, board.game.moves_played]")), 30, "a game in progress")
    first = lab.kernel_json("id(board)")
    runs = _executions(lab)
    view.press("Escape")
    lab.wait_for(lambda: not view.canvas.evaluate("c => document.activeElement === c"), 10,
                 "Escape to hand the keyboard back")
    lab.page.keyboard.press("Shift+Enter")
    lab.wait_for(lambda: _executions(lab) > runs, 30, "Shift+Enter to run the board's cell again")
    lab.wait_for(lambda: lab.kernel_json("id(board)") != first, 30, "the new board")
    now = lab.kernel_json("[board.game.score, board.game.moves_played, board.resumed]")
    assert now[2], "the re-run board did not resume"
    assert now[:2] == played and played[0] > 0, f"game changed: {played} -> {now}"
    again = BoardView(lab).wait_drawn()
    assert f"score {now[0]}" in again.status_text().replace("\xa0", " ")
    # an explicit new game still starts over, and the best score survives it
    again.click_button("New game")
    if now[1] >= lab.kernel_json("__import__('tilelab.widgets.base').widgets.base.CONFIRM_MOVES"):
        # a long game is not dropped on one click: New game asks once, the second click starts over
        lab.wait_for(lambda: "press New game again" in again.status_text(), 15, "New game to ask once")
        assert lab.kernel_json("board.game.moves_played") == now[1]
        again.click_button("New game")
    lab.wait_for(lambda: lab.kernel_json("board.game.score") == 0, 15, "New game")
    assert lab.kernel_json("board.best") >= now[0]


def test_buttons_hand_the_keys_back_to_the_board(lab: bl.LabPage, notebook_dir: Path) -> None:
    cell = ("from tilelab.widgets import Game2048Widget\nboard = Game2048Widget(rng=8)\nkeys_seen = []\n"
            "_k = board.on_key\nboard.on_key = lambda key: (keys_seen.append(key), _k(key))\nboard")
    view = open_board(lab, notebook_dir, "classroom_focus.ipynb", [cell])
    cells_before = lab.notebook_state()["ncells"]
    view.click_button("Undo")
    lab.wait_for(lambda: view.canvas.evaluate("c => document.activeElement === c"), 15,
                 "the board to take the keyboard back after a button")
    view.press("ArrowDown")
    view.press("a")  # in command mode JupyterLab would insert a cell above
    lab.wait_for(lambda: lab.kernel_json("keys_seen") == ["ArrowDown", "a"], 15, "the keys on the board")
    assert lab.notebook_state()["ncells"] == cells_before


def _open_sidebar(lab: bl.LabPage) -> None:
    lab.page.evaluate("async () => { await window.jupyterapp.commands.execute('filebrowser:activate'); }")
    lab.wait_for(lambda: lab.page.evaluate(
        "() => { const s = document.querySelector('#jp-left-stack'); return !!s && s.offsetWidth > 150; }"),
        15, "the file browser open")
    time.sleep(0.5)  # the notebook column re-lays out after the sidebar opens


def test_narrow_column_scales_boards_and_every_tile_is_clickable(narrow_lab: bl.LabPage, notebook_dir: Path) -> None:
    lab = narrow_lab
    setup = ("from tilelab.widgets import SlidingWidget\nboard = SlidingWidget(4, rng=2, px=400)\n"
             "clicked = []\nboard.on_click = lambda x, y: clicked.append(board.cell_at(x, y))\n")
    view = open_board(lab, notebook_dir, "classroom_narrow.ipynb", [setup, "board"])
    _open_sidebar(lab)
    view.canvas.scroll_into_view_if_needed()
    box = view.canvas.bounding_box()
    area = view.scope.bounding_box()
    assert box is not None and area is not None
    assert box["width"] < 400 - 1, f"the board did not shrink to the column: {box}"
    assert box["width"] >= bl_min() - 1
    assert box["x"] + box["width"] <= area["x"] + area["width"] + 1, "the board sticks out of its output area"
    assert abs(box["height"] / box["width"] - 1) < 0.02, "the board lost its shape"
    scale = box["width"] / 400
    st = lab.kernel_json("(lambda p, o: {'rows': p.rows, 'cols': p.cols, 'o': list(o)})"
                         "(board.board, __import__('tilelab.widgets.sliding_pictures', fromlist=['x'])"
                         ".board_origin(4, 4, board.width, board.height))")
    x0, y0, cell = st["o"]
    view.focus()  # a sliding board's focusing click reaches no tile (test_browser_focus_click.py)
    want = []
    for r in range(st["rows"]):
        for c in range(st["cols"]):
            view.click((x0 + (c + 0.5) * cell) * scale, (y0 + (r + 0.5) * cell) * scale)
            want.append([r, c])
    got = lab.wait_for(lambda: (lambda v: v if len(v) >= len(want) else None)(lab.kernel_json("clicked")), 30,
                       "16 clicks in the kernel")
    assert got == want, "clicks do not map through the scale to their tiles"
    # the button row stays within the board's column
    limit = max(box["x"] + box["width"], box["x"] + bl_min()) + 2
    rights = view.scope.locator(".widget-hbox > *").evaluate_all(
        "els => els.filter(e => e.offsetParent).map(e => e.getBoundingClientRect().right)")
    assert rights and max(rights) <= limit, f"toolbar wider than the board: {max(rights)} > {limit}"
    SHOTS.mkdir(parents=True, exist_ok=True)
    lab.page.screenshot(path=str(SHOTS / "narrow_800x900_sidebar.png"))


def bl_min() -> int:
    from tilelab.widgets.base import MIN_BOARD_PX

    return MIN_BOARD_PX


def test_unrun_notebook_shows_a_picture_of_the_board(lab: bl.LabPage, notebook_dir: Path) -> None:
    import nbformat

    from tilelab.widgets import SlidingWidget

    board = SlidingWidget(3, rng=4, px=300)
    bundle = board._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    board.close()
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    cell = nbformat.v4.new_code_cell("from tilelab.widgets import SlidingWidget\nSlidingWidget(3, rng=4, px=300)")
    cell.outputs = [nbformat.v4.new_output("display_data", data=data)]
    cell.execution_count = 1
    nb.cells = [cell]
    nbformat.write(nb, str(notebook_dir / "classroom_unrun.ipynb"))
    lab.open_notebook(f"{notebook_dir.name}/classroom_unrun.ipynb")
    output = lab.page.locator(".jp-OutputArea-output").first
    output.wait_for(state="visible", timeout=30_000)
    lab.wait_for(lambda: "run this cell to play" in output.inner_text(), 30, "the 'run this cell' line")
    text = output.inner_text()
    assert "VBox" not in text and "Error displaying widget" not in text
    img = output.locator("img").first
    lab.wait_for(lambda: img.evaluate("i => i.complete && i.naturalWidth") == 300, 15, "the board's picture")
    SHOTS.mkdir(parents=True, exist_ok=True)
    lab.page.screenshot(path=str(SHOTS / "unrun_notebook.png"))


def test_sliding_messages_stay_and_solve_plays_at_a_followable_pace(lab: bl.LabPage, notebook_dir: Path) -> None:
    setup = "from tilelab.widgets import SlidingWidget\nboard = SlidingWidget(3, rng=12, px=360)\n"
    view = open_board(lab, notebook_dir, "classroom_solve.ipynb", [setup, "board"])
    top = view.canvas.bounding_box()["y"]
    view.click_button("Hint")
    tile = lab.wait_for(lambda: lab.kernel_json("board.hint_tile"), 60, "a hint")
    assert f"slide {tile}" in view.status_text()
    ticks = lab.kernel_json("board.timer.value")
    time.sleep(2.5)  # the clock may tick (it runs once the game started); the message stays
    assert f"slide {tile}" in view.status_text(), "the hint message vanished"
    assert abs(view.canvas.bounding_box()["y"] - top) < 1, "the message pushed the board down"
    assert lab.kernel_json("board.timer.value") >= ticks
    plan = lab.kernel_json("len(board.solution())")
    assert plan >= 4
    view.click_button("Solve")
    assert lab.wait_for(lambda: lab.kernel_json("board.solving"), 15, "Solve to start")
    assert "optimal: " in view.status_text()  # "Solving (optimal: N moves)."
    seen = set()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        moved = lab.kernel_json("[board.moves_played, board.board.is_goal()]")
        seen.add(moved[0])
        if moved[1]:
            break
        time.sleep(0.2)
    assert lab.kernel_json("board.board.is_goal()"), "Solve did not finish"
    counts = sorted(seen)
    assert len([c for c in counts if 0 < c < plan]) >= plan // 3, f"the counter jumped: {counts}"
    assert lab.kernel_json("board.solved_by_player") is False
    assert "not a record" in view.status_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    lab.page.screenshot(path=str(SHOTS / "sliding_solved.png"))
