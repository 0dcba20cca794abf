"""Boards that survive a reload: reopening a lesson, saved or not, never shows "Error displaying widget".

A student plays, reloads the tab (or reopens the lesson) while the kernel runs on. Three cases:

* saved, board cell not run again: JupyterLab finds the board's widgets in the running kernel: the live board,
  its game intact;
* saved, then the board cell ran again (a new board; the saved file names the old one, gone from the kernel):
  tilelab ships JupyterLab's ``saveState`` setting, so the saved file carries the board's widget state and the
  board is drawn from it, with "run this cell to play" under it (``tilelab.widgets.page.SAVED_NOTE``);
* never saved: the file on disk still holds the lesson's stored output, the board's picture and its line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import browserlab as bl

pytestmark = pytest.mark.browser

SETUP = "from tilelab.widgets import Game2048Widget\nboard = Game2048Widget(size=4, rng=3)"


def _save(lab: bl.LabPage) -> None:
    lab.page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    lab.wait_for(lambda: not lab.page.evaluate(
        "() => window.jupyterapp.shell.currentWidget.context.model.dirty"), 30, "the notebook saved")


_REOPENED_JS = r"""
async ([name, timeoutMs]) => {
  const app = window.jupyterapp;
  await app.started; await app.restored;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const panel = Array.from(app.shell.widgets('main')).find(w => w.context && w.context.path.endsWith(name));
    if (panel) {
      await panel.context.ready; await panel.sessionContext.ready;
      if (panel.sessionContext.session && panel.sessionContext.session.kernel) {
        window.__tilelabPanel = panel;
        return panel.context.path;
      }
    }
    if (Date.now() > deadline) throw new Error('the notebook did not come back: ' + name);
    await new Promise(r => setTimeout(r, 100));
  }
}
"""


def _reload(lab: bl.LabPage, name: str) -> None:
    """Reload the tab (unsaved changes are dropped) and wait until the notebook and its kernel are back."""
    lab.page.reload(wait_until="domcontentloaded", timeout=bl.PAGE_LOAD_TIMEOUT_MS)
    lab.page.wait_for_function("() => window.jupyterapp && window.jupyterapp.commands",
                               timeout=bl.PAGE_LOAD_TIMEOUT_MS)
    lab.page.evaluate(_REOPENED_JS, [name, bl.PAGE_LOAD_TIMEOUT_MS])
    lab.wait_kernel_ready()


def _board_output(lab: bl.LabPage):
    return lab.page.locator(".jp-OutputArea-output").filter(has_text="New game").first


def _play(view: bl.BoardView, lab: bl.LabPage) -> int:
    view.focus()
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight"):
        view.press(key)
        view.settle()
    return int(lab.wait_for(lambda: lab.kernel_json("board.game.moves_played") or None, 20, "moves played"))


def _no_widget_error(lab: bl.LabPage, since: int) -> None:
    errors = lab.widget_errors(since)
    assert not errors, errors


def test_saved_board_comes_back_live_with_its_game(lab: bl.LabPage, notebook_dir: Path) -> None:
    view = bl.open_board(lab, notebook_dir, "reload_saved.ipynb", [SETUP, "board"])
    moves = _play(view, lab)
    score = lab.kernel_json("board.game.score")
    _save(lab)
    since = len(lab.console)
    _reload(lab, "reload_saved.ipynb")
    view = bl.BoardView(lab).wait_drawn()
    _no_widget_error(lab, since)
    assert lab.kernel_json("[board.game.moves_played, board.game.score]") == [moves, score]
    assert not _board_output(lab).locator(".tilelab-saved-note").is_visible()  # live: no "run this cell" line
    view.focus()
    view.press("ArrowDown")
    lab.wait_for(lambda: lab.kernel_json("board.game.moves_played") > moves or None, 20, "the reloaded board to play")


def test_board_run_again_after_saving_shows_its_saved_state_after_a_reload(lab: bl.LabPage,
                                                                           notebook_dir: Path) -> None:
    view = bl.open_board(lab, notebook_dir, "reload_rerun.ipynb", [SETUP, "board"])
    _play(view, lab)
    _save(lab)
    lab.run_all()  # the board cell again: a new board, the saved file still names the old one
    bl.BoardView(lab).wait_drawn()
    since = len(lab.console)
    _reload(lab, "reload_rerun.ipynb")
    output = _board_output(lab)
    output.wait_for(state="visible", timeout=60_000)
    note = output.locator(".tilelab-saved-note")
    lab.wait_for(lambda: note.is_visible() or None, 60, "the saved board's 'run this cell to play' line")
    assert "run this cell to play" in note.inner_text()
    canvas = output.locator("canvas").first
    lab.wait_for(lambda: bl.distinct_colours(bl.read_pixels(canvas)) > 2 or None, 60, "the saved board's picture")
    _no_widget_error(lab, since)
    lab.run_all()  # as the line says: the live board is back, and the line is gone
    view = bl.BoardView(lab).wait_drawn()
    assert not _board_output(lab).locator(".tilelab-saved-note").is_visible()
    _no_widget_error(lab, since)


def test_unsaved_lesson_shows_the_stored_picture_after_a_reload(lab: bl.LabPage, notebook_dir: Path) -> None:
    import nbformat

    from tilelab.widgets import Game2048Widget

    stored = Game2048Widget(size=4, rng=3)
    bundle = stored._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    stored.close()
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    setup, show = nbformat.v4.new_code_cell(SETUP), nbformat.v4.new_code_cell("board")
    show.outputs, show.execution_count = [nbformat.v4.new_output("display_data", data=data)], 2
    nb.cells = [setup, show]
    nbformat.write(nb, str(notebook_dir / "reload_unsaved.ipynb"))  # as a lesson is stored: with its picture
    lab.open_notebook(f"{notebook_dir.name}/reload_unsaved.ipynb")
    lab.run_all()
    _play(bl.BoardView(lab).wait_drawn(), lab)
    since = len(lab.console)
    _reload(lab, "reload_unsaved.ipynb")
    output = lab.page.locator(".jp-OutputArea-output").filter(has_text="run this cell to play").first
    output.wait_for(state="visible", timeout=60_000)
    img = output.locator("img").first
    lab.wait_for(lambda: img.evaluate("i => i.complete && i.naturalWidth > 0") or None, 30, "the stored picture")
    _no_widget_error(lab, since)
