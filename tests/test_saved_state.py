"""Widget state and reopened lessons: what tilelab's Jupyter configuration promises, checked where it acts.

JupyterLab saves the boards' widget state with a notebook (``saveState``, shipped in ``jupyter-config/lab``), so a
lesson reopened after its board cell ran again shows the saved board, not "model not found"
(``tests/browser/test_browser_reload.py``). JupyterLab then marks a notebook modified as soon as it loads widget
state on opening; the lessons are stored without any (their outputs carry each board's picture), and nbconvert
keeps none when it executes a lesson (``jupyter-config/nbconvert``), so opening a lesson leaves it unmodified.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from tilelab import server_nodelay

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("lesson", LESSONS, ids=[p.stem for p in LESSONS])
def test_lessons_are_stored_without_widget_state(lesson: Path) -> None:
    metadata = json.loads(lesson.read_text(encoding="utf-8"))["metadata"]
    assert "widgets" not in metadata, (
        f"{lesson.name} carries widget state: JupyterLab would mark it modified on opening. Execute lessons in this "
        "environment (make installs jupyter-config/nbconvert, which keeps none) or delete metadata['widgets']")


def test_shipped_settings_are_what_the_installer_writes(tmp_path: Path) -> None:
    lab = json.loads((ROOT / "jupyter-config/lab/settings/overrides.json").read_text())
    nbconvert = json.loads((ROOT / "jupyter-config/nbconvert/jupyter_nbconvert_config.json").read_text())
    assert lab == server_nodelay.LAB_SETTINGS and nbconvert == server_nodelay.NBCONVERT_CONFIG
    (tmp_path / "share/jupyter/lab/settings").mkdir(parents=True)
    (tmp_path / "share/jupyter/lab/settings/overrides.json").write_text('{"other:plugin": {"x": 1}}')
    merged = json.loads(server_nodelay.install_lab_settings(tmp_path).read_text())
    assert merged == {"other:plugin": {"x": 1}, **server_nodelay.LAB_SETTINGS}  # a hub's own overrides are kept


def test_nbconvert_here_executes_a_board_notebook_without_storing_widget_state(tmp_path: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell("import ipywidgets\nipywidgets.IntSlider(3)")]
    path = tmp_path / "board.ipynb"
    nbformat.write(nb, path)
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute", "--inplace",
                    str(path)], check=True, capture_output=True, timeout=300)
    done = nbformat.read(path, as_version=4)
    assert "application/vnd.jupyter.widget-view+json" in done.cells[0].outputs[0]["data"]  # it ran and showed one
    assert "widgets" not in done.metadata
