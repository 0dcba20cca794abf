"""Every lesson notebook runs clean inside JupyterLab: all cells through `notebook:run-all-cells`,
no error output, every widget renders, no error in the browser console."""

from __future__ import annotations

import pytest

from browserlab import LabPage, distinct_colours, lesson_notebooks

pytestmark = pytest.mark.browser

LESSONS = lesson_notebooks()


@pytest.mark.parametrize("name", LESSONS or [pytest.param("none", marks=pytest.mark.skip(
    reason="no lesson notebooks (notebooks/NN_*.ipynb) in the repository yet"))])
def test_lesson_runs_clean_in_jupyterlab(lab: LabPage, name: str) -> None:
    lab.open_notebook(name)
    mark = len(lab.console)
    state = lab.run_all()
    code_cells = [c for c in state["cells"] if c["type"] == "code"]
    assert code_cells, f"{name} has no code cells"
    assert all(c["count"] is not None for c in code_cells), "run-all left cells unexecuted"
    assert lab.error_outputs() == [], f"{name}: cells produced error outputs"
    lab.wait_widgets_rendered()
    canvases = lab.page.locator(".jp-OutputArea-output canvas")
    for index in range(canvases.count()):  # every board in the lesson is painted, none left blank
        lab.wait_for(lambda: distinct_colours(lab.canvas_pixels(index)) >= 2, 30, f"canvas {index} painted")
    assert lab.widget_errors(mark) == [], f"{name}: widgets failed in the browser"
    assert lab.console_errors(mark) == [], f"{name}: errors in the browser console"
