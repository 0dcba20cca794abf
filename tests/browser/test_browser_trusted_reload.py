"""A lesson saved after playing reopens with its board, not the still picture of when the cell ran.

JupyterLab draws widgets only in a trusted notebook, and signs a save as trusted only when every code cell is: a
lesson as stored (cells with HTML outputs nobody re-ran) is not, so after a save and a reload the board showed its
stored picture, the position when the cell ran (the student review's D4). ``make lab`` signs the lessons it opens
(``jupyter trust``, as below); then the save is signed and the reload brings the live board back.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import browserlab as bl

pytestmark = pytest.mark.browser

BOARD_CELL = "from tilelab.widgets import Game2048Widget\nboard = Game2048Widget(size=4, rng=3)\nboard"

_SAVE_JS = "() => window.jupyterapp.commands.execute('docmanager:save')"
_DIRTY_JS = "() => window.__tilelabPanel.context.model.dirty"
_RUN_FIRST_CELL_JS = """async () => { const app = window.jupyterapp, panel = window.__tilelabPanel;
  app.shell.activateById(panel.id); panel.content.activeCellIndex = 0;
  return await app.commands.execute('notebook:run-cell'); }"""
_REOPENED_JS = """async ([name, timeoutMs]) => { const app = window.jupyterapp; await app.started; await app.restored;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const panel = Array.from(app.shell.widgets('main')).find(w => w.context && w.context.path.endsWith(name));
    if (panel) { await panel.context.ready; await panel.sessionContext.ready;
      if (panel.sessionContext.session && panel.sessionContext.session.kernel) { window.__tilelabPanel = panel; return true; } }
    if (Date.now() > deadline) throw new Error('the notebook did not come back: ' + name);
    await new Promise(r => setTimeout(r, 100)); } }"""


def _stored_lesson(path: Path) -> None:
    """A lesson as the course stores it: the board cell with its picture, and a cell with an HTML output."""
    import nbformat

    from tilelab.widgets import Game2048Widget

    stored = Game2048Widget(size=4, rng=3)
    bundle = stored._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    stored.close()
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    board = nbformat.v4.new_code_cell(BOARD_CELL)
    board.outputs, board.execution_count = [nbformat.v4.new_output("display_data", data=data)], 1
    table = nbformat.v4.new_code_cell("from IPython.display import HTML\nHTML('<table><tr><td>map</td></tr></table>')")
    table.outputs = [nbformat.v4.new_output("execute_result", data={"text/html": "<table><tr><td>map</td></tr></table>",
                                                                    "text/plain": "<HTML>"}, execution_count=2)]
    table.execution_count = 2
    nb.cells = [board, table]
    nbformat.write(nb, str(path))


def _trust(path: Path) -> None:
    """What ``make lab`` does to the lessons it opens (same Jupyter paths as the test server)."""
    env = dict(os.environ, JUPYTER_PLATFORM_DIRS="1")
    subprocess.run([sys.executable, "-m", "jupyter", "trust", str(path)], env=env, check=True, capture_output=True)


@pytest.mark.parametrize("signed", [True, False], ids=["signed-as-make-lab-does", "unsigned-the-old-picture"])
def test_a_signed_lesson_saved_after_playing_reopens_live(lab: bl.LabPage, notebook_dir: Path, signed: bool) -> None:
    """Signed: the live board comes back. Unsigned (the control: shows the setup reproduces the review's D4): the
    stored picture of when the cell ran comes back instead."""
    name = f"trusted_reload_{signed}.ipynb"
    _stored_lesson(notebook_dir / name)
    if signed:
        _trust(notebook_dir / name)
    lab.open_notebook(f"{notebook_dir.name}/{name}")
    lab.page.evaluate(_RUN_FIRST_CELL_JS)  # the student runs the board cell only, as in the review
    view = bl.BoardView(lab).wait_drawn()
    view.focus()
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"):
        view.press(key)
        view.settle()
    moves = int(lab.wait_for(lambda: lab.kernel_json("board.game.moves_played") or None, 20, "moves played"))
    lab.page.evaluate(_SAVE_JS)
    lab.wait_for(lambda: not lab.page.evaluate(_DIRTY_JS) or None, 30, "the notebook saved")
    lab.page.reload(wait_until="domcontentloaded", timeout=bl.PAGE_LOAD_TIMEOUT_MS)
    lab.page.wait_for_function("() => window.jupyterapp && window.jupyterapp.commands", timeout=bl.PAGE_LOAD_TIMEOUT_MS)
    lab.page.evaluate(_REOPENED_JS, [name, bl.PAGE_LOAD_TIMEOUT_MS])
    lab.wait_kernel_ready()
    output = lab.page.locator(".jp-OutputArea-output").first
    output.wait_for(state="visible", timeout=60_000)
    if not signed:
        lab.wait_for(lambda: output.locator("img").count() or None, 60, "the stored picture (unsigned lesson)")
        lab.page.wait_for_timeout(2000)
        assert output.locator("canvas").count() == 0
        return
    lab.wait_for(lambda: output.locator("canvas").count() or None, 60, "the live board (a canvas), not the picture")
    assert output.locator("img").count() == 0  # not the stored picture of when the cell ran
    bl.BoardView(lab).wait_drawn()
    assert lab.kernel_json("board.game.moves_played") == moves
