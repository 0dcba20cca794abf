"""Grading a folder of student notebooks: one CSV row per notebook x exercise, never a crash."""

from __future__ import annotations

import csv
from pathlib import Path

import nbformat
import pytest

from tilelab.teach.grade import NOTEBOOK_ROW, expected_exercises, grade_folder

v4 = nbformat.v4
GOOD = "def count_empty(rows):\n    return sum(r.count(0) for r in rows)\n\ncheck('count_empty', count_empty)"
STUB = "def count_empty(rows):\n    return 0\n\ncheck('count_empty', count_empty)"


def _write(path: Path, *cells: nbformat.NotebookNode) -> None:
    nb = v4.new_notebook(cells=[v4.new_code_cell("from tilelab.exercises import check"), *cells])
    nb.metadata.kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)


def _exercise(source: str) -> nbformat.NotebookNode:
    return v4.new_code_cell(source, metadata={"tags": ["exercise"]})


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    folder = tmp_path_factory.mktemp("class")
    _write(folder / "ada.ipynb", _exercise(GOOD))
    _write(folder / "bob.ipynb", _exercise(STUB))
    _write(folder / "cy.ipynb", v4.new_code_cell("1 / 0"), _exercise(GOOD))
    _write(folder / "dee.ipynb", _exercise(STUB), v4.new_code_cell("import time\ntime.sleep(120)"), _exercise(GOOD))
    _write(folder / "eve.ipynb", _exercise(GOOD),
           v4.new_code_cell("import tilelab.exercises as t\nt.report_json = lambda: '{oops'"))
    _write(folder / "fay.ipynb", v4.new_code_cell("x = 1"))  # deleted the exercise cell
    (folder / "sub").mkdir()
    _write(folder / "sub" / "gus.ipynb", _exercise(GOOD), _exercise("check('largest_tile', lambda rows: 0)"))
    (folder / "junk.ipynb").write_text("{this is not a notebook")
    out = folder / "results.csv"
    grade_folder(folder, out, timeout=3, quiet=True)
    with out.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    table: dict = {}
    for row in rows:
        table.setdefault(row["student_file"], {})[row["exercise"]] = row
    return table, out


def test_csv_header_and_every_notebook(graded: tuple[dict, Path]) -> None:
    table, out = graded
    assert out.read_text().splitlines()[0] == "student_file,exercise,passed,message"
    assert sorted(table) == ["ada.ipynb", "bob.ipynb", "cy.ipynb", "dee.ipynb", "eve.ipynb", "fay.ipynb",
                             "junk.ipynb", "sub/gus.ipynb"]


def test_passing_and_failing(graded: tuple[dict, Path]) -> None:
    table, _ = graded
    assert list(table["ada.ipynb"]) == ["count_empty"] and table["ada.ipynb"]["count_empty"]["passed"] == "yes"
    bob = table["bob.ipynb"]["count_empty"]
    assert bob["passed"] == "no" and "expected" in bob["message"]
    gus = table["sub/gus.ipynb"]
    assert gus["count_empty"]["passed"] == "yes" and gus["largest_tile"]["passed"] == "no"


def test_a_raising_cell_is_reported_and_the_rest_still_runs(graded: tuple[dict, Path]) -> None:
    cy = graded[0]["cy.ipynb"]
    assert "ZeroDivisionError" in cy[NOTEBOOK_ROW]["message"] and cy[NOTEBOOK_ROW]["passed"] == "no"
    assert cy["count_empty"]["passed"] == "yes"


def test_timeout_keeps_what_was_checked_before(graded: tuple[dict, Path]) -> None:
    dee = graded[0]["dee.ipynb"]
    assert "timed out after 3 s" in dee[NOTEBOOK_ROW]["message"]
    assert dee["count_empty"]["passed"] == "no", "the passing cell after the sleep never ran"


def test_invalid_report_and_unreadable_notebook(graded: tuple[dict, Path]) -> None:
    table = graded[0]
    assert "could not read the results" in table["eve.ipynb"][NOTEBOOK_ROW]["message"]
    assert "could not read the notebook" in table["junk.ipynb"][NOTEBOOK_ROW]["message"]
    assert table["fay.ipynb"][NOTEBOOK_ROW]["message"] == "no exercise was checked in this notebook"


def test_expected_exercise_not_run_is_a_row(tmp_path: Path) -> None:
    nb = v4.new_notebook(cells=[_exercise("check('count_empty', f)"), v4.new_code_cell("check('other', g)")])
    assert expected_exercises(nb) == ["count_empty"]


def test_not_a_folder(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a folder"):
        grade_folder(tmp_path / "missing", tmp_path / "out.csv")
