"""Grading with the real nbgrader: the course folder, generate_assignment, autograde, feedback and the gradebook.

One module-scoped run (the fixture ``graded``) builds the course, generates every lesson's assignment, autogrades a
class of test submissions and exports the gradebook; the tests read what it left. Students:

* ``solutions``: every lesson, the official solutions typed into the answer cells: full marks;
* ``untouched``: every lesson, the released notebook as it is: every cell runs, every exercise says "not yet",
  no points (this is the run that shows each student edition runs top to bottom);
* on one lesson with at least two exercises: ``lite`` (the official solutions, saved by the browser site with
  its Pyodide kernel: full marks), ``wrong`` (every answer returns None), ``delegating`` (every answer
  calls the package function the exercise asks students to write), ``loop`` (one answer never returns: that
  exercise alone loses its point) and ``truncated`` (half a notebook file).
"""

from __future__ import annotations

import ast
import csv
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tilelab.exercises import check, package_calls
from tilelab.teach import lesson_paths
from tilelab.teach.__main__ import main as teach_main
from tilelab.teach.assignments import BEGIN, END, TEST_TAG, assignment_notebook, graded_exercises
from tilelab.teach.lessons import DEEPER_TAG, EXERCISE_TAG, SOLUTION_TAG, TEACHER_TAG, tags
from tilelab.teach.student import student_edition
from tests.lessonrun import warm_caches

pytest.importorskip("nbgrader", reason="nbgrader is installed by make test (pyproject's teach extra)")

ROOT = Path(__file__).resolve().parents[1]
LESSONS = lesson_paths(ROOT / "notebooks")
IDS = [p.stem for p in LESSONS]
LOOP_TIMEOUT = 40  # seconds a cell may run in the lesson graded with the looping answer (every cell there is quicker)


def nbgrader(course: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    """Run the nbgrader command line in ``course`` (its helper ``alembic`` found beside this Python)."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course, env=env, capture_output=True,
                          text=True, timeout=3600)
    if check and done.returncode != 0:
        raise AssertionError(f"nbgrader {' '.join(args)} failed ({done.returncode}):\n{done.stdout[-3000:]}"
                             f"\n{done.stderr[-5000:]}")
    return done


# ------------------------------------------------------------------------------ submissions
def _answer_name(tail: str) -> str | None:
    """The answer a ``check("name", answer, ...)`` call passes, when it is a plain name."""
    call = next(n.value for n in ast.parse(tail).body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call))
    return call.args[1].id if len(call.args) > 1 and isinstance(call.args[1], ast.Name) else None


def _tail(source: str) -> str:
    lines = source.split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("check("))
    return "\n".join(lines[first:])


def _official(source_cell: str) -> str:
    """What a student who solved the exercise submits: the stub, then their solution, then the check."""
    return "\n".join(line for line in source_cell.split("\n") if line not in (BEGIN, END))


def _wrong(released: str, name: str, exercise: str) -> str:
    tail = _tail(released)
    return f"{released[:-len(tail)]}{name} = lambda *args, **kwargs: None  # wrong for every case\n\n{tail}"


def _delegating(released: str, name: str, exercise: str) -> str:
    module, function = package_calls(exercise)[0].rsplit(".", 1)
    tail = _tail(released)
    return (f"{released[:-len(tail)]}from {module} import {function} as _package_{function}\n\n"
            f"def {name}(*args, **kwargs):\n    return _package_{function}(*args, **kwargs)\n\n{tail}")


def _looping(released: str, name: str, exercise: str) -> str:
    tail = _tail(released)
    return f"{released[:-len(tail)]}def {name}(*args, **kwargs):\n    while True:\n        pass\n\n{tail}"


def submission(course: Path, lesson: str, change: dict[str, Any]) -> Any:
    """The released notebook of ``lesson`` with answer cells changed: ``change[grade_id](released, name,
    exercise)`` gives a cell's new source (``"official"`` for the official solution)."""
    released = nbformat.read(course / "release" / lesson / f"{lesson}.ipynb", as_version=4)
    source = nbformat.read(course / "source" / lesson / f"{lesson}.ipynb", as_version=4)
    official = {c.metadata["nbgrader"]["grade_id"]: c.source for c in source.cells
                if c.metadata.get("nbgrader", {}).get("solution")}
    for cell in released.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in change:
            how = change[grade_id]
            if how == "official":
                cell.source = _official(official[grade_id])
            else:
                tail = _tail(cell.source)
                exercise = ast.literal_eval(next(
                    n.value for n in ast.parse(tail).body if isinstance(n, ast.Expr)).args[0])
                cell.source = how(cell.source, _answer_name(tail), exercise)
    return released


def special_lesson(course: Path) -> str:
    """The first lesson with two or more graded exercises, all core, each an answer a package function could give."""
    by_lesson: dict[str, list] = {}
    for e in graded_exercises(course):
        by_lesson.setdefault(e.lesson, []).append(e)
    for lesson, exercises in sorted(by_lesson.items()):
        if len(exercises) >= 2 and all(package_calls(e.name) for e in exercises):
            source = nbformat.read(course / "source" / lesson / f"{lesson}.ipynb", as_version=4)
            if all(_answer_name(_tail(c.source)) for c in source.cells if c.metadata.get("nbgrader", {}).get("solution")) \
                    and all(c.metadata["nbgrader"]["points"] > 0 for c in source.cells
                            if c.metadata.get("nbgrader", {}).get("grade")):  # core exercises only: each worth a point
                return lesson
    raise AssertionError("no lesson has two exercises that a package function answers")


def _put(course: Path, student: str, lesson: str, nb: Any = None, text: str | None = None) -> None:
    folder = course / "submitted" / student / lesson
    folder.mkdir(parents=True, exist_ok=True)
    if text is not None:
        (folder / f"{lesson}.ipynb").write_text(text, encoding="utf-8")
    else:
        nbformat.write(nb, folder / f"{lesson}.ipynb")


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    course = tmp_path_factory.mktemp("course")
    timings: dict[str, float] = {}
    start = time.perf_counter()
    warm_caches()  # as docs/grading.md asks of a teacher: each sandboxed kernel gets the compiled functions
    assert teach_main(["nbgrader", str(course), "--notebooks", str(ROOT / "notebooks")]) == 0
    editions = {p.stem: student_edition(nbformat.read(p, as_version=4), p.stem) for p in LESSONS}  # as graded
    nbgrader(course, "generate_assignment", "*", "--force")
    timings["course and generate_assignment"] = time.perf_counter() - start
    exercises = graded_exercises(course)
    lessons = sorted({e.lesson for e in exercises})
    special = special_lesson(course)
    ids = {lesson: [e.grade_id for e in exercises if e.lesson == lesson] for lesson in lessons}
    for lesson in lessons:
        _put(course, "solutions", lesson, submission(course, lesson, {g: "official" for g in ids[lesson]}))
        _put(course, "untouched", lesson, submission(course, lesson, {}))
    looped = ids[special][1]
    _put(course, "wrong", special, submission(course, special, {g: _wrong for g in ids[special]}))
    _put(course, "delegating", special, submission(course, special, {g: _delegating for g in ids[special]}))
    _put(course, "loop", special, submission(
        course, special, {g: (_looping if g == looped else "official") for g in ids[special]}))
    lite = submission(course, special, {g: "official" for g in ids[special]})
    lite.metadata["kernelspec"] = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}
    lite.metadata["language_info"] = {"name": "python", "version": "3.12.7", "mimetype": "text/x-python"}
    _put(course, "lite", special, lite)  # downloaded from the browser site (JupyterLite's own kernel)
    whole = nbformat.writes(submission(course, special, {g: "official" for g in ids[special]}))
    _put(course, "truncated", special, text=whole[: len(whole) // 2])
    logs = {}
    for lesson in lessons:
        t = time.perf_counter()
        extra = [f"--Execute.timeout={LOOP_TIMEOUT}"] if lesson == special else []
        logs[lesson] = nbgrader(course, "autograde", lesson, "--force", *extra, check=False)
        timings[f"autograde {lesson}"] = time.perf_counter() - t
    t = time.perf_counter()
    nbgrader(course, "generate_feedback", special, "--force")
    nbgrader(course, "export", "--to", "grades.csv")
    nbgrader(course, "export", "--exporter", "tilelab.teach.assignments.ExerciseCsvExport", "--to", "by_exercise.csv")
    timings["feedback and export"] = time.perf_counter() - t
    timings["in all"] = time.perf_counter() - start
    print("nbgrader seconds: " + ", ".join(f"{k} {v:.0f}" for k, v in timings.items()))
    keep = ROOT / "test-artifacts" / "nbgrader"  # the class's gradebook, for a teacher to read after the run
    keep.mkdir(parents=True, exist_ok=True)
    for name in ("grades.csv", "by_exercise.csv"):
        (keep / name).write_bytes((course / name).read_bytes())
    (keep / "timings.json").write_text(json.dumps(timings, indent=1), encoding="utf-8")
    with open(course / "by_exercise.csv", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    with open(course / "grades.csv", encoding="utf-8") as fh:
        totals = list(csv.DictReader(fh))
    return {"course": course, "rows": rows, "editions": editions, "totals": totals, "special": special, "looped": looped, "logs": logs,
            "lessons": lessons, "ids": ids, "timings": timings}


def scores(graded: dict, student: str, lesson: str) -> dict[str, float | None]:
    return {r["exercise"]: (float(r["score"]) if r["score"] else None) for r in graded["rows"]
            if r["student_id"] == student and r["assignment"] == lesson}


# ------------------------------------------------------------------------------ the course folder (no nbgrader run)
@pytest.mark.parametrize("path", LESSONS, ids=IDS)
def test_every_solved_exercise_is_an_answer_cell_with_its_solution(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    source, exercises = assignment_notebook(nb, path.stem)
    answers = [c for c in source.cells if c.metadata.get("nbgrader", {}).get("solution")]
    tests = [c for c in source.cells if c.metadata.get("nbgrader", {}).get("grade")]
    solved = [c for i, c in enumerate(nb.cells) if EXERCISE_TAG in tags(c) and next(
        (SOLUTION_TAG in tags(d) for d in nb.cells[i + 1:] if {SOLUTION_TAG, EXERCISE_TAG} & set(tags(d))), False)]
    assert len(answers) == len(tests) == len(exercises) == len(solved)
    for answer, test in zip(answers, tests):
        assert source.cells.index(test) == source.cells.index(answer) + 1, "each answer is followed by its test"
        assert answer.source.count(BEGIN) == answer.source.count(END) == 1 and not answer.outputs
        optional = DEEPER_TAG in tags(answer)  # "Going deeper": graded for feedback, worth no points
        assert test.metadata["nbgrader"]["locked"] and test.metadata["nbgrader"]["points"] == (0 if optional else 1)
        assert TEST_TAG in tags(test) and "assert _result" in test.source
    assert not [c for c in source.cells if {SOLUTION_TAG, TEACHER_TAG} & set(tags(c))]


def test_a_solution_reads_the_stubs_names_and_helpers_it_shares() -> None:
    """``solution_x`` becomes ``my_x`` when the exercise defines ``my_x``, in later solutions too."""
    v4 = nbformat.v4
    nb = v4.new_notebook(cells=[
        v4.new_code_cell("def my_a(x):\n    return 0\n\ncheck('a', my_a)", metadata={"tags": ["exercise"]}),
        v4.new_code_cell("def solution_a(x):\n    return x\n\ncheck('a', solution_a)", metadata={"tags": ["solution"]}),
        v4.new_code_cell("def my_b(x):\n    return 0\n\ncheck('b', my_b)", metadata={"tags": ["exercise"]}),
        v4.new_code_cell("def solution_b(x):\n    return solution_a(x) + 1\n\ncheck('b', solution_b)",
                         metadata={"tags": ["solution"]}),
        v4.new_code_cell("weights = 3  # an open task\ncheck('c', weights)", metadata={"tags": ["exercise"]}),
        v4.new_markdown_cell("Tell the class ...", metadata={"tags": ["teacher"]}),
    ])
    source, exercises = assignment_notebook(nb, "demo")
    assert [e.name for e in exercises] == ["a", "b"]
    assert "def my_b(x):\n    return my_a(x) + 1" in source.cells[2].source
    assert source.cells[-1].source.startswith("weights = 3") and "nbgrader" not in source.cells[-1].metadata
    assert len(source.cells) == 5


def test_the_autograder_test_shows_the_counterexample_with_its_message() -> None:
    """A failing autograder test says "not yet", the checker's message and the counterexample's picture."""
    v4 = nbformat.v4
    nb = v4.new_notebook(cells=[
        v4.new_code_cell("def my_inversions(board):\n    return 0\n\ncheck('sliding.inversions', my_inversions)",
                         metadata={"tags": ["exercise"]}),
        v4.new_code_cell("def solution_inversions(board):\n    return 1\n\ncheck('sliding.inversions', solution_inversions)",
                         metadata={"tags": ["solution"]})])
    source, _ = assignment_notebook(nb, "demo")
    test = next(cell.source for cell in source.cells if TEST_TAG in cell.metadata.get("tags", []))
    namespace: dict = {}
    exec("def my_inversions(board):\n    return 0", namespace)
    with pytest.raises(AssertionError) as raised:
        exec(test, namespace)
    result = check("sliding.inversions", namespace["my_inversions"])
    assert result.picture and str(raised.value) == f"not yet: {result.message}\n{result.picture}"


def test_a_solution_name_that_cannot_be_renamed_is_refused_when_the_course_is_built() -> None:
    """A ``solution_`` name the student's answer would not define (here inside an f-string) stops the build."""
    v4 = nbformat.v4
    nb = v4.new_notebook(cells=[
        v4.new_code_cell("def my_a(x):\n    return 0\n\ncheck('a', my_a)", metadata={"tags": ["exercise"]}),
        v4.new_code_cell("def solution_a(x):\n    return x\n\nprint(f'{solution_a(1)}')\ncheck('a', solution_a)",
                         metadata={"tags": ["solution"]})])
    if sys.version_info >= (3, 12):  # f-strings are tokens of their own there: the name is renamed
        assert "print(f'{my_a(1)}')" in assignment_notebook(nb, "demo")[0].cells[0].source
    else:
        with pytest.raises(ValueError, match="solution_a"):
            assignment_notebook(nb, "demo")


def test_the_course_is_not_written_over_a_teachers_edits(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert teach_main(["nbgrader", str(tmp_path), "--notebooks", str(ROOT / "notebooks")]) == 0
    first = LESSONS[0].stem
    edited = tmp_path / "source" / first / f"{first}.ipynb"
    edited.write_text(edited.read_text(encoding="utf-8").replace('"points": 1', '"points": 5'), encoding="utf-8")
    config = tmp_path / "nbgrader_config.py"
    config.write_text(config.read_text() + "c.Execute.timeout = 60\n")
    assert teach_main(["nbgrader", str(tmp_path), "--notebooks", str(ROOT / "notebooks")]) == 0
    assert '"points": 5' in edited.read_text(encoding="utf-8") and "timeout = 60" in config.read_text()
    assert "kept" in capsys.readouterr().err
    assert teach_main(["nbgrader", str(tmp_path), "--notebooks", str(ROOT / "notebooks"), "--force"]) == 0
    assert '"points": 5' in edited.read_text(encoding="utf-8"), "--force keeps the teacher's points"


# ------------------------------------------------------------------------------ with nbgrader
def test_the_released_notebook_is_the_student_edition_with_read_only_tests(graded: dict) -> None:
    course = graded["course"]
    for path in LESSONS:
        released = nbformat.read(course / "release" / path.stem / path.name, as_version=4)
        student = graded["editions"][path.stem]
        cells = released.cells  # the student edition is this release, grading metadata and all
        assert [(c.cell_type, c.source, c.metadata.get("nbgrader")) for c in cells] == [
            (c.cell_type, c.source, c.metadata.get("nbgrader")) for c in student.cells], path.name
        assert [c.get("outputs") for c in cells] == [c.get("outputs") for c in student.cells], "stored outputs kept"
        text = nbformat.writes(released)
        assert BEGIN not in text and "solution_" not in text, f"{path.name}: a solution reached the students"


def test_official_solutions_get_full_marks_on_every_lesson(graded: dict) -> None:
    lessons = graded["lessons"]
    assert {p.stem for p in LESSONS} >= set(lessons) and len(lessons) >= len(LESSONS) - 1
    for lesson in lessons:
        got = scores(graded, "solutions", lesson)
        full = {r["exercise"]: float(r["max_score"]) for r in graded["rows"]
                if r["student_id"] == "solutions" and r["assignment"] == lesson}
        assert got and got == full, (lesson, got, graded["logs"][lesson].stderr[-3000:])
    totals = {r["assignment"]: r for r in graded["totals"] if r["student_id"] == "solutions"}
    assert all(float(totals[lesson]["score"]) == float(totals[lesson]["max_score"]) > 0 for lesson in lessons)


def _code_errors(nb: Any) -> list[tuple[int, str]]:
    return [(i, o.get("ename", "")) for i, c in enumerate(nb.cells) if c.cell_type == "code"
            for o in c.get("outputs", []) if o.get("output_type") == "error"]


def _text(cell: Any) -> str:
    """Everything a cell's outputs say: streams, displays, and errors' values and tracebacks."""
    return "".join(o.get("text", "") + "".join(str(v) for v in o.get("data", {}).values()) + o.get("evalue", "")
                   + "\n".join(o.get("traceback", [])) for o in cell.get("outputs", []))


@pytest.mark.parametrize("path", LESSONS, ids=IDS)
def test_untouched_notebooks_run_top_to_bottom_for_no_points(graded: dict, path: Path) -> None:
    """Every released notebook (the student edition) runs: errors only in the tests, which say "not yet"."""
    if path.stem not in graded["lessons"]:
        pytest.skip(f"{path.stem} grades no exercise")
    got = scores(graded, "untouched", path.stem)
    assert got and all(v == 0.0 for v in got.values()), got
    run = nbformat.read(graded["course"] / "autograded" / "untouched" / path.stem / path.name, as_version=4)
    for index, name in _code_errors(run):
        cell = run.cells[index]
        assert TEST_TAG in tags(cell) and name == "AssertionError", (path.name, index, name)
        assert "not yet" in _text(cell)
    for cell in run.cells:
        if EXERCISE_TAG in tags(cell) and cell.metadata.get("nbgrader", {}).get("solution"):
            assert re.search(r"not yet", _text(cell), re.I), f"{path.name}: an exercise did not answer 'not yet'"


def test_a_notebook_saved_by_the_browser_site_is_graded_like_any_other(graded: dict) -> None:
    """JupyterLite saves its own kernelspec ("python", Pyodide); nbgrader runs the course's kernel instead."""
    got = scores(graded, "lite", graded["special"])
    assert got and set(got.values()) == {1.0}, got


def test_wrong_and_delegating_answers_get_no_points_and_say_why(graded: dict) -> None:
    special, course = graded["special"], graded["course"]
    assert set(scores(graded, "wrong", special).values()) == {0.0}
    assert set(scores(graded, "delegating", special).values()) == {0.0}
    feedback = (course / "feedback" / "delegating" / special / f"{special}.html").read_text(encoding="utf-8")
    assert feedback.count("this calls tilelab&#39;s") + feedback.count("this calls tilelab's") >= len(graded["ids"][special])


def test_an_endless_answer_loses_its_own_point_only(graded: dict) -> None:
    got = scores(graded, "loop", graded["special"])
    assert got[graded["looped"]] == 0.0
    assert [v for k, v in got.items() if k != graded["looped"]] == [1.0] * (len(got) - 1), got
    assert "Timeout waiting for execute reply" in graded["logs"][graded["special"]].stderr


def test_a_truncated_file_scores_nothing_and_the_others_are_graded(graded: dict) -> None:
    special = graded["special"]
    assert set(scores(graded, "truncated", special).values()) <= {0.0, None}
    assert "truncated" in graded["logs"][special].stderr and graded["logs"][special].returncode != 0
    assert all(v == 1.0 for v in scores(graded, "solutions", special).values())


def test_the_gradebook_has_a_row_per_student_lesson_and_exercise(graded: dict) -> None:
    rows = graded["rows"]
    students = {r["student_id"] for r in rows}
    assert students == {"solutions", "untouched", "lite", "wrong", "delegating", "loop", "truncated"}
    exercises = graded_exercises(graded["course"])
    assert len(rows) == len(students) * len(exercises)
    assert {(r["assignment"], r["exercise"]) for r in rows} == {(e.lesson, e.grade_id) for e in exercises}
    never = [r for r in rows if r["student_id"] == "wrong" and r["assignment"] != graded["special"]]
    assert never and all(r["submitted"] == "no" and r["score"] == "" for r in never)
    print(json.dumps(graded["timings"], indent=1))
