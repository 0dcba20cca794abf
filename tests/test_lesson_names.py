"""Lessons use tilelab's current names (issue 36): ``tests/lessonrun.py`` runs every lesson with tilelab's
DeprecationWarnings as errors, so a lesson cell that uses an older name fails its lesson's test, naming the cell."""

from __future__ import annotations

import nbformat
import pytest

from tests.lessonrun import LessonError, run_lesson


def _lesson(tmp_path, name: str, source: str):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# A lesson"), nbformat.v4.new_code_cell(source)]
    path = tmp_path / f"{name}.ipynb"  # a run is cached by file name: one name per lesson
    nbformat.write(nb, path)
    return path


def test_a_lesson_on_an_older_name_fails_and_one_on_the_new_names_runs(tmp_path):
    old = _lesson(tmp_path, "old_names", "from tilelab.match3.core import MAX_CASCADES\nlimit = MAX_CASCADES")
    with pytest.raises(LessonError, match=r"tilelab\.match3\.core\.MAX_CASCADES is deprecated"):
        run_lesson(old, warm=False, timeout=120)
    new = _lesson(tmp_path, "new_names", "from tilelab.match3 import MAX_CASCADES\nlimit = MAX_CASCADES")
    ran = run_lesson(new, fetch=["limit > 0"], warm=False, timeout=120)
    assert ran["limit > 0"] is True
    assert len(ran.notebook.cells) == 3  # the lesson's two cells and the fetch cell: the guard leaves no cell behind
