"""Grading a folder of student notebooks: one CSV row per notebook x exercise, never a crash."""

from __future__ import annotations

import csv
import os
import time
from pathlib import Path

import nbformat
import pytest

from tilelab.teach.grade import INTERRUPT_GRACE, NOTEBOOK_ROW, expected_exercises, grade_folder, run_notebook

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
    grade_folder(folder, out, timeout=10, quiet=True)  # generous: a loaded machine imports tilelab slowly
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
    assert "timed out after 10 s" in dee[NOTEBOOK_ROW]["message"]
    assert dee["count_empty"]["passed"] == "no", "the passing cell after the sleep never ran"


def test_invalid_report_and_unreadable_notebook(graded: tuple[dict, Path]) -> None:
    table = graded[0]
    # eve rebound report_json to print junk: the grader no longer reads it, it checks the answers itself
    assert NOTEBOOK_ROW not in table["eve.ipynb"] and table["eve.ipynb"]["count_empty"]["passed"] == "yes"
    assert "could not read the notebook" in table["junk.ipynb"][NOTEBOOK_ROW]["message"]
    assert table["fay.ipynb"][NOTEBOOK_ROW]["message"] == "no exercise was checked in this notebook"


def test_expected_exercise_not_run_is_a_row(tmp_path: Path) -> None:
    nb = v4.new_notebook(cells=[_exercise("check('count_empty', f)"), v4.new_code_cell("check('other', g)")])
    assert expected_exercises(nb) == ["count_empty"]


def test_not_a_folder(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a folder"):
        grade_folder(tmp_path / "missing", tmp_path / "out.csv")


# ------------------------------------------------------------------ forged grades, hung kernels, scratch folders
FORGE_REPORT = (
    "import tilelab.exercises as t, json\n"
    "t.report_json = lambda: json.dumps([{'exercise': 'count_empty', 'passed': True, 'message': 'passed'}])\n"
    "print('TILELAB-REPORT-JSON:' + t.report_json())"
)
FORGE_CHECKER = (
    "import tilelab.exercises as t\n"
    "t._load_all()\n"
    "t._CHECKERS['count_empty'] = lambda answer: t.Result('count_empty', True, 'passed (forged)')"
)


def test_a_notebook_cannot_forge_its_grade(tmp_path: Path) -> None:
    folder = tmp_path / "forgers"
    folder.mkdir()
    _write(folder / "rebind.ipynb", _exercise(STUB), v4.new_code_cell(FORGE_REPORT))
    _write(folder / "checker.ipynb", v4.new_code_cell(FORGE_CHECKER), _exercise(STUB))
    rows = grade_folder(folder, tmp_path / "out.csv", timeout=20, quiet=True)
    table = {(r.student_file, r.exercise): r for r in rows}
    assert not table[("rebind.ipynb", "count_empty")].passed
    forged = table[("checker.ipynb", "count_empty")]
    assert not forged.passed and "own check said it passed" in forged.message


def test_a_kernel_ignoring_sigint_is_killed_with_its_children(tmp_path: Path) -> None:
    folder = tmp_path / "stubborn"
    folder.mkdir()
    pid_file = tmp_path / "child.pid"
    _write(folder / "hang.ipynb", _exercise(GOOD), v4.new_code_cell(
        "import signal, subprocess, time\n"
        "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
        f"child = subprocess.Popen(['sleep', '300'])\nopen({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "while True:\n    time.sleep(0.05)"))
    start = time.monotonic()
    rows = run_notebook(folder / "hang.ipynb", timeout=4)
    elapsed = time.monotonic() - start
    table = {r.exercise: r for r in rows}
    assert "killed" in table[NOTEBOOK_ROW].message and "timed out after 4 s" in table[NOTEBOOK_ROW].message
    # start-up (a few seconds) + 4 s + INTERRUPT_GRACE; it used to wait 20 s more for an answer that never came
    assert elapsed < 4 + INTERRUPT_GRACE + 12, elapsed
    child = int(pid_file.read_text())
    time.sleep(0.5)
    assert _gone(child), "the kernel's child process survived"  # the whole process group went


def _gone(pid: int) -> bool:
    """True when ``pid`` has ended (a zombie waiting for a reaper counts as ended)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] == "Z"


def test_each_notebook_runs_in_a_scratch_copy_of_its_folder(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "data.txt").write_text("course data")
    _write(folder / "ann.ipynb", _exercise(GOOD), v4.new_code_cell(
        "import os\nassert open('data.txt').read() == 'course data'\n"
        "assert not os.path.exists('ben.ipynb'), 'another student\\'s notebook is visible'\n"
        "open('data.txt', 'w').write('overwritten')\nopen('new.txt', 'w').write('x')"))
    _write(folder / "ben.ipynb", _exercise(STUB))
    rows = grade_folder(folder, tmp_path / "out.csv", timeout=20, quiet=True)
    assert not [r for r in rows if r.exercise == NOTEBOOK_ROW], rows
    assert (folder / "data.txt").read_text() == "course data" and not (folder / "new.txt").exists()
