"""Teacher's kit: the solution-tag convention, student editions, and the exercise report."""

from __future__ import annotations

import os
import re
import zipfile
from pathlib import Path

import nbformat
import pytest

from tilelab import exercises
from tilelab.teach import lesson_paths, untagged_solutions
from tilelab.teach.__main__ import main as teach_main
from tilelab.teach.assignments import TEST_TAG
from tilelab.teach.lessons import EXERCISE_TAG, SOLUTION_TAG, TEACHER_TAG, tags
from tilelab.teach.student import student_edition

LESSONS = lesson_paths(Path(__file__).resolve().parents[1] / "notebooks")
IDS = [p.stem for p in LESSONS]


@pytest.fixture(scope="module")
def student_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("student")
    assert teach_main(["student", str(out), "--notebooks", str(LESSONS[0].parent)]) == 0
    return out


def test_lessons_found() -> None:
    assert len(LESSONS) >= 6 and LESSONS[0].name == "00_start_here.ipynb"


@pytest.mark.parametrize("path", LESSONS, ids=IDS)
def test_every_solution_cell_is_tagged(path: Path) -> None:
    """The convention the student editions rely on: a solution is tagged, not just commented."""
    nb = nbformat.read(path, as_version=4)
    bad = untagged_solutions(nb)
    assert not bad, f"{path.name}: code cells {bad} start with '# Solution' but are not tagged '{SOLUTION_TAG}'"


@pytest.mark.parametrize("path", LESSONS, ids=IDS)
def test_student_edition_has_no_solution(path: Path, student_dir: Path) -> None:
    teacher = nbformat.read(path, as_version=4)
    released = nbformat.read(student_dir / path.name, as_version=4)
    student = nbformat.v4.new_notebook(cells=[c for c in released.cells if TEST_TAG not in tags(c)])
    solutions = [c for c in teacher.cells if SOLUTION_TAG in tags(c)]
    kept = [c for c in teacher.cells if not {SOLUTION_TAG, TEACHER_TAG} & set(tags(c))]
    assert not any(SOLUTION_TAG in tags(c) for c in student.cells)
    student_sources = {c.source.strip() for c in student.cells}
    assert not [c.source[:60] for c in solutions if c.source.strip() in student_sources]
    assert [c.source for c in student.cells] == [c.source for c in kept], "every other cell is kept, in order"
    for t, s in zip(kept, student.cells):
        if EXERCISE_TAG in tags(s):
            assert s.get("outputs") == [] and s.get("execution_count") is None
        elif s.cell_type == "code":
            assert s.outputs == t.outputs, "outputs of other cells are kept"
    assert (student_dir / "README.md").is_file()


def test_student_edition_carries_the_saved_benchmark_results(student_dir: Path) -> None:
    """Lessons 02, 05c and 06b plot saved results: the edition carries them where tilelab.results looks."""
    repo_results = LESSONS[0].parent.parent / "benchmarks" / "results"
    wanted = sorted(p.name for p in repo_results.glob("*.json"))
    copied = sorted(p.name for p in (student_dir / "benchmarks" / "results").glob("*.json"))
    assert "bench_match3.json" in wanted and copied == wanted


def test_student_edition_removes_tagged_solutions_only() -> None:
    v4 = nbformat.v4
    nb = v4.new_notebook(cells=[
        v4.new_markdown_cell("prose"),
        v4.new_code_cell("def f(x): return 0\ncheck('e', f)", metadata={"tags": [EXERCISE_TAG]},
                         outputs=[v4.new_output("stream", text="not yet")], execution_count=1),
        v4.new_code_cell("def solution_f(x): return x", metadata={"tags": [SOLUTION_TAG, "nbval-skip"]}),
        v4.new_markdown_cell("the answer, explained", metadata={"tags": [SOLUTION_TAG]}),
        v4.new_markdown_cell("for the teacher: what students stumble on", metadata={"tags": [TEACHER_TAG]}),
        v4.new_code_cell("print(1)", outputs=[v4.new_output("stream", text="1\n")], execution_count=2),
    ])
    out = student_edition(nb)
    kept = [c for c in out.cells if TEST_TAG not in tags(c)]
    assert [c.source for c in kept] == ["prose", "def f(x): return 0\n\ncheck('e', f)", "print(1)"]
    assert kept[1].outputs == [] and kept[2].outputs[0].text == "1\n"
    assert kept[1].metadata.nbgrader["solution"] and "checksum" in out.cells[2].metadata.nbgrader, "graded"
    assert len(nb.cells) == 6 and nb.cells[1].outputs, "the teacher edition is not changed"


# Each student edition running top to bottom, its exercises answering "not yet", is the "untouched" submission of
# tests/test_teach_nbgrader.py: nbgrader's released notebook is the student edition plus read-only tests (checked
# there), and that run autogrades it.


# --------------------------------------------------------------------------------- report()
def test_check_records_the_latest_result_per_exercise() -> None:
    exercises.reset_results()
    exercises.check("count_empty", lambda rows: 0)
    exercises.check("largest_tile", lambda rows: max(max(r) for r in rows))
    exercises.check("count_empty", lambda rows: sum(r.count(0) for r in rows))
    got = exercises.results()
    assert list(got) == ["largest_tile", "count_empty"]
    assert got["count_empty"].passed and got["largest_tile"].passed
    exercises.check("count_empty", lambda rows: 1 / 0)
    assert not exercises.results()["count_empty"].passed
    assert "ZeroDivisionError" in exercises.results()["count_empty"].message


def test_unknown_exercise_is_not_recorded() -> None:
    exercises.reset_results()
    with pytest.raises(ValueError, match="no exercise called"):
        exercises.check("no-such-exercise", lambda: 0)
    assert exercises.results() == {}


def test_report_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    exercises.reset_results()
    exercises.report()
    assert "0 of 0 passed" in capsys.readouterr().out
    exercises.check("count_empty", lambda rows: 0)
    exercises.check("largest_tile", lambda rows: max(max(r) for r in rows))
    exercises.report()
    text = capsys.readouterr().out
    assert "1 of 2 passed" in text and "NOT YET  count_empty" in text and "PASSED   largest_tile" in text
    rows = json.loads(exercises.report_json())
    assert [(r["exercise"], r["passed"]) for r in rows] == [("count_empty", False), ("largest_tile", True)]


def test_report_is_html_in_a_notebook(monkeypatch: pytest.MonkeyPatch) -> None:
    shown = []
    monkeypatch.setattr(exercises, "_in_notebook", lambda: True)
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    exercises.reset_results()
    exercises.check("count_empty", lambda rows: 0)
    exercises.report()
    assert len(shown) == 1 and "not yet" in shown[0].data and "<table>" in shown[0].data


# --------------------------------------------------------------------------------- the students' folder
def test_a_students_changed_files_are_never_written_over(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """The hunt's D6: a folder with a student's edited 00 and README (and notes of their own)."""
    out = tmp_path / "s6"
    out.mkdir()
    (out / "00_start_here.ipynb").write_text('{"my": "work"}')
    (out / "README.md").write_text("my notes")
    (out / "notes.txt").write_text("mine")
    assert teach_main(["student", str(out), "--notebooks", str(LESSONS[0].parent)]) == 0
    assert (out / "00_start_here.ipynb").read_text() == '{"my": "work"}'
    assert (out / "README.md").read_text() == "my notes" and (out / "notes.txt").read_text() == "mine"
    assert nbformat.read(out / "00_start_here.updated.ipynb", as_version=4).cells, "the new version, beside it"
    err = capsys.readouterr().err
    assert "00_start_here.ipynb: kept" in err and "README.md: kept" in err


def test_make_lab_again_keeps_work_and_brings_untouched_lessons_up_to_date(tmp_path: Path) -> None:
    lessons = tmp_path / "notebooks"
    lessons.mkdir()
    v4 = nbformat.v4
    for name in ("00_a", "01_b"):
        nbformat.write(v4.new_notebook(cells=[v4.new_markdown_cell(f"# {name}, first version")]), lessons / f"{name}.ipynb")
    out = tmp_path / "student"
    build = lambda: teach_main(["student", str(out), "--notebooks", str(lessons), "--quiet"])  # noqa: E731
    assert build() == 0
    edited = nbformat.read(out / "00_a.ipynb", as_version=4)
    edited.cells.append(v4.new_code_cell("x = 1  # the student's work"))
    nbformat.write(edited, out / "00_a.ipynb")
    assert build() == 0 and not list(out.glob("*.updated.ipynb")), "same lessons: nothing to add"
    for name in ("00_a", "01_b"):
        nbformat.write(v4.new_notebook(cells=[v4.new_markdown_cell(f"# {name}, second version")]), lessons / f"{name}.ipynb")
    nbformat.write(v4.new_notebook(cells=[v4.new_markdown_cell("# a new lesson")]), lessons / "02_c.ipynb")
    assert build() == 0
    assert "the student's work" in (out / "00_a.ipynb").read_text()
    assert "second version" in (out / "00_a.updated.ipynb").read_text()
    assert "second version" in (out / "01_b.ipynb").read_text(), "a lesson the student never touched is updated"
    assert (out / "02_c.ipynb").is_file()


def test_the_student_folder_runs_as_a_repository_of_its_own(tmp_path: Path) -> None:
    """make student carries tilelab as a wheel: environment.yml and the README install it from there, postBuild is
    the start-up step, and the course repository (the solutions) is named nowhere."""
    out = tmp_path / "student"
    assert teach_main(["student", str(out), "--notebooks", str(LESSONS[0].parent), "--wheel",
                       "--branch", "spring", "--student-repo", "school/tl-students", "--quiet"]) == 0
    wheels = sorted(out.glob("tilelab-*.whl"))
    assert len(wheels) == 1
    with zipfile.ZipFile(wheels[0]) as wheel:
        assert "tilelab/exercises/__init__.py" in wheel.namelist()
    env = (out / "environment.yml").read_text()
    course = (LESSONS[0].parents[1] / "environment.yml").read_text()
    course_deps = [line.strip() for line in course.splitlines() if line.strip().startswith("- ")]
    assert [line.strip() for line in env.splitlines() if line.strip().startswith("- ")] == course_deps + [
        "- pip:", f"- ./{wheels[0].name}"]
    post = out / "postBuild"
    assert os.access(post, os.X_OK) and "python -m tilelab.server_nodelay --install" in post.read_text()
    readme = (out / "README.md").read_text()
    assert f'pip install "./{wheels[0].name}[lab]"' in readme
    assert "git+" not in readme + env and not re.search(r"pip install tilelab\b", readme)
    assert "https://mybinder.org/v2/gh/school/tl-students/spring?urlpath=lab/tree/00_start_here.ipynb" in readme
    assert teach_main(["student", str(tmp_path / "x"), "--student-repo", "school/..", "--quiet"]) == 2


def test_teacher_talk_in_a_cell_students_see_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    v4 = nbformat.v4
    lessons = tmp_path / "notebooks"
    lessons.mkdir()
    nbformat.write(v4.new_notebook(cells=[
        v4.new_markdown_cell("Solutions are in the\ncollapsed cells; try first!"),
        v4.new_markdown_cell("A note for the teacher: the badge is in the README.", metadata={"tags": [TEACHER_TAG]}),
    ]), lessons / "00_x.ipynb")
    assert teach_main(["student", str(tmp_path / "out"), "--notebooks", str(lessons)]) == 0
    err = capsys.readouterr().err
    assert "00_x.ipynb: a cell students see speaks of solutions" in err and "badge" not in err
    assert "badge" not in (tmp_path / "out" / "00_x.ipynb").read_text()
