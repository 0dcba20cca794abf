"""Grading with nbgrader: every lesson as an nbgrader assignment, its exercises as autograded answers.

``python -m tilelab.teach nbgrader OUT`` (``make nbgrader``) writes an nbgrader course folder::

    OUT/nbgrader_config.py             the course's nbgrader settings (see COURSE_CONFIG)
    OUT/source/LESSON/LESSON.ipynb     one assignment per lesson
    OUT/source/LESSON/benchmarks/...   the saved results a lesson plots, where it looks for them

In each lesson the cell tagged ``exercise`` becomes an *autograded answer* cell: its runnable stub, then the
official solution (the lesson's ``solution`` cell, names ``solution_x`` read as ``my_x``) between nbgrader's
``### BEGIN SOLUTION`` and ``### END SOLUTION``, then the ``check(...)`` call. ``nbgrader generate_assignment``
removes the solution, so a student sees exactly the stub of the student edition. After each answer comes a
read-only *autograder test* cell that calls the lesson's checker again and fails on "not yet", with the checker's
message: worth :data:`POINTS` point for a core exercise, :data:`OPTIONAL_POINTS` for an optional one (tagged
``deeper``, "Going deeper"). Every other cell stays as it is (``teacher`` cells are left out). The student edition
(:mod:`tilelab.teach.student`) is nbgrader's release of this notebook.

The course folder holds students' work and marks: it goes outside the course repository (:func:`default_course_dir`).
Rebuilding it brings untouched source notebooks up to date and keeps those the teacher changed (``--force``:
rewritten, the teacher's points kept). :class:`RequireGradingMetadata` makes ``nbgrader autograde`` name a
submission that carries no grading metadata instead of giving it 0.

Everything after that is nbgrader's own: ``generate_assignment``, ``release_assignment``/``collect`` (or
``zip_collect``), ``autograde``, ``generate_feedback``, ``export``. :class:`ExerciseCsvExport` adds one export
format to nbgrader's: a row per student, lesson and exercise (``nbgrader export --exporter
tilelab.teach.assignments.ExerciseCsvExport``).
"""

from __future__ import annotations

import ast
import copy
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import nbformat

from tilelab.teach.lessons import (
    DEEPER_TAG,
    EXERCISE_TAG,
    SOLUTION_TAG,
    TEACHER_TAG,
    default_notebook_dir,
    lesson_paths,
    tags,
)

POINTS = 1  #: points per core exercise (edit a test cell's points in the source notebook to weigh it)
#: points of an optional exercise (its cell tagged ``deeper``, "Going deeper"): graded and shown in the feedback,
#: counted in no total
OPTIONAL_POINTS = 0
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
TEST_TAG = "autograder-test"

#: ``OUT/nbgrader_config.py``: written once, never overwritten (a teacher may have edited it).
COURSE_CONFIG = '''\
# nbgrader settings of the tilelab course (written by python -m tilelab.teach nbgrader; yours to edit).
# Run nbgrader from this folder: nbgrader generate_assignment 00_start_here, nbgrader autograde 00_start_here, ...
c = get_config()  # noqa: F821 (nbgrader defines it)

c.CourseDirectory.course_id = "tilelab"

# Students see the runnable stub above each solution: nothing replaces the solution.
c.ClearSolutions.code_stub = {"python": ""}

# The lessons keep their stored figures and board pictures (answer and test cells are stored without outputs).
c.ClearOutput.enabled = False

# Seconds a cell may run before it is interrupted (the longest lesson cell takes well under a minute once the
# caches are built: `make warm`). An answer that loops forever loses that exercise's points, not the others.
c.Execute.timeout = 300

# tilelab's grading: the grader reads each student's code before a test's point counts, and every kernel runs in
# bubblewrap (docs/grading.md); a submitted notebook with no grading metadata (the student worked in a copy not
# made from the release) is named and left ungraded, never given a silent 0.
# Grade a lesson with: python -m tilelab.teach autograde LESSON --course .
from tilelab.teach.grading.preprocessors import configure; configure(c)  # noqa: E402,E702
'''


@dataclass(frozen=True)
class Exercise:
    """One graded exercise of a lesson: its checker's name and the answer cell's id."""

    lesson: str
    name: str
    grade_id: str


def _grade_id(name: str) -> str:
    """An nbgrader ``grade_id`` from an exercise name (letters, digits, ``_`` and ``-``).

    >>> _grade_id("2048.slide_row")
    '2048-slide_row'
    """
    return re.sub(r"[^A-Za-z0-9_-]", "-", name)


def _check_calls(source: str) -> list[ast.Call]:
    """The top-level ``check(...)`` calls of a cell, in order."""
    return [node.value for node in ast.parse(source).body
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name) and node.value.func.id == "check"]


def _bound_names(source: str) -> set[str]:
    """Names a cell binds at its top level (functions, classes, assignments)."""
    names: set[str] = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return names


def _rename(source: str, names: dict[str, str]) -> str:
    """``source`` with every identifier in ``names`` renamed (tokens, so strings and comments stay).

    >>> _rename("def solution_f(x):\\n    return solution_f(x - 1)  # solution_f\\n", {"solution_f": "my_f"})
    'def my_f(x):\\n    return my_f(x - 1)  # solution_f\\n'
    """
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    out = [t._replace(string=names.get(t.string, t.string)) if t.type == tokenize.NAME else t for t in tokens]
    return tokenize.untokenize(out) if out != tokens else source


def _without_checks(source: str) -> str:
    """``source`` without its top-level ``check(...)`` statements (and the blank lines they leave at the end)."""
    lines = source.split("\n")
    drop: set[int] = set()
    for call in _check_calls(source):
        drop.update(range(call.lineno - 1, (call.end_lineno or call.lineno)))
    return "\n".join(line for i, line in enumerate(lines) if i not in drop).rstrip() + "\n"


def _split_exercise(source: str) -> tuple[str, str, list[ast.Call]]:
    """An exercise cell as (stub, the ``check`` part from its first top-level call on, the calls)."""
    calls = _check_calls(source)
    if not calls:
        raise ValueError("an exercise cell must call check(...) at its top level")
    lines = source.split("\n")
    first = calls[0].lineno - 1
    return "\n".join(lines[:first]).rstrip() + "\n", "\n".join(lines[first:]), calls


def _test_source(exercise_source: str, calls: list[ast.Call]) -> str:
    """The autograder test: each of the exercise's ``check`` calls again, failing on "not yet"."""
    lines = ['# Autograder test (read-only): passes when the checker says "passed". Until then it stops Run All',
             "# here: finish the exercise above, or run on from the cell below (Run > Run Selected Cell and All Below).",
             "from tilelab.exercises import check as _check", ""]
    for call in calls:
        args = ast.get_source_segment(exercise_source, call)
        assert args is not None and args.startswith("check(")
        lines += [f"_result = _{args}", "assert _result, f\"not yet: {_result.message}\\n{_result.picture or ''}\""]
    return "\n".join(lines)


def _nbgrader_meta(grade_id: str, *, solution: bool, grade: bool, points: int | None = None) -> dict[str, Any]:
    meta: dict[str, Any] = {"grade": grade, "grade_id": grade_id, "locked": grade and not solution,
                            "schema_version": 3, "solution": solution, "task": False}
    if grade:
        meta["points"] = points
    return meta


def assignment_notebook(nb: Any, lesson: str) -> tuple[Any, list[Exercise]]:
    """The nbgrader source version of a lesson notebook, and the exercises it grades.

    >>> v4 = nbformat.v4
    >>> nb = v4.new_notebook(cells=[
    ...     v4.new_code_cell("def my_f(x):\\n    return 0\\n\\ncheck('double', my_f)", metadata={"tags": ["exercise"]}),
    ...     v4.new_code_cell("def solution_f(x):\\n    return 2 * x\\n\\ncheck('double', solution_f)",
    ...                      metadata={"tags": ["solution"]})])
    >>> source, graded = assignment_notebook(nb, "00_demo")
    >>> print(source.cells[0].source)
    def my_f(x):
        return 0
    ### BEGIN SOLUTION
    def my_f(x):
        return 2 * x
    ### END SOLUTION
    check('double', my_f)
    >>> source.cells[1].metadata.nbgrader["points"], graded
    (1, [Exercise(lesson='00_demo', name='double', grade_id='double')])
    """
    cells, graded = list(nb.cells), []
    solutions = [c for c in cells if SOLUTION_TAG in tags(c) and c.cell_type == "code"]
    stubs = {name for c in cells if EXERCISE_TAG in tags(c) and c.cell_type == "code"
             for name in _bound_names(c.source)}
    renames = {name: "my_" + name[len("solution_"):] for c in solutions for name in _bound_names(c.source)
               if name.startswith("solution_") and "my_" + name[len("solution_"):] in stubs}
    out = []
    for i, cell in enumerate(cells):
        cell = copy.deepcopy(cell)
        t = tags(cell)
        if TEACHER_TAG in t or SOLUTION_TAG in t:
            continue  # solutions go inside their answer cells; teacher's notes stay in the teacher edition
        if EXERCISE_TAG not in t or cell.cell_type != "code":
            out.append(cell)
            continue
        solution = next((c for c in cells[i + 1:] if SOLUTION_TAG in tags(c) or EXERCISE_TAG in tags(c)), None)
        stub, tail, calls = _split_exercise(cell.source)
        cell.outputs, cell.execution_count = [], None
        if solution is None or SOLUTION_TAG not in tags(solution):
            out.append(cell)  # an open task with no official answer: left for the student, not graded
            continue
        name = ast.literal_eval(calls[0].args[0])
        grade_id = _grade_id(name)
        answer = _rename(_without_checks(solution.source), renames)
        left = sorted({n.id for n in ast.walk(ast.parse(answer)) if isinstance(n, ast.Name) and n.id in renames})
        if left:  # inside an f-string before Python 3.12, a name is not a token of its own
            raise ValueError(f"{lesson}: the solution of {name!r} uses {', '.join(left)} where it cannot be renamed "
                             f"to the student's name (an f-string?): use it outside the f-string, or drop that line")
        # nbgrader replaces the region with one empty line (the code stub is ""), which stands for the blank
        # line between the stub and its check: the student sees the student edition's cell.
        cell.source = (f"{stub.rstrip()}\n" if stub.strip() else "") + f"{BEGIN}\n{answer}{END}\n{tail}"
        cell.metadata["nbgrader"] = _nbgrader_meta(grade_id, solution=True, grade=False)
        # an optional exercise's test is optional too: a reader who skips the deeper cells skips it with them
        test_tags = [TEST_TAG, DEEPER_TAG] if DEEPER_TAG in t else [TEST_TAG]
        test = nbformat.v4.new_code_cell(_test_source(tail, _check_calls(tail)),
                                         metadata={"tags": test_tags, "editable": False, "deletable": False})
        test.id = _cell_id(f"test-{grade_id}", {c.get("id") for c in cells})  # the same on every build
        points = OPTIONAL_POINTS if DEEPER_TAG in t else POINTS
        test.metadata["nbgrader"] = _nbgrader_meta(f"test-{grade_id}", solution=False, grade=True, points=points)
        out += [cell, test]
        graded.append(Exercise(lesson, name, grade_id))
    source = copy.deepcopy(nb)
    source.cells = out
    if len({e.grade_id for e in graded}) != len(graded):
        raise ValueError(f"{lesson}: two exercises share a name: {[e.name for e in graded]}")
    return source, graded


def _cell_id(wanted: str, taken: set) -> str:
    """A notebook cell id (letters, digits, ``-`` and ``_``, at most 64) from ``wanted``, unlike those ``taken``.

    >>> _cell_id("test-2048.slide_row", set())
    'test-2048-slide_row'
    """
    base = re.sub(r"[^A-Za-z0-9_-]", "-", wanted)[:60]
    found, n = base, 1
    while found in taken:
        n += 1
        found = f"{base}-{n}"
    return found


def _reads_saved_results(nb: Any) -> bool:
    return any(cell.cell_type == "code" and re.search(r"\b(load_results|results_path|results_dir)\b", cell.source)
               for cell in nb.cells)


COURSE_RECORD = ".tilelab-course.json"  #: digests of the source notebooks as build_course last wrote them


def default_course_dir(notebooks: str | os.PathLike | None = None) -> Path:
    """Where the course folder goes by default: ``tilelab-course`` beside the course repository (the folder
    that holds the lessons' folder), never inside it: the course folder holds students' work and marks.

    >>> default_course_dir("/home/t/tilelab/notebooks").as_posix()
    '/home/t/tilelab-course'
    """
    folder = Path(notebooks) if notebooks is not None else default_notebook_dir()
    return folder.resolve().parent.parent / "tilelab-course"


def _repository_of(path: Path) -> Path | None:
    """The git work tree holding ``path`` (or the folder it would be made in), if any."""
    for folder in [path, *path.parents]:
        if (folder / ".git").exists():
            return folder
    return None


def _points(nb: Any) -> dict[str, Any]:
    """``{grade_id: points}`` of a source notebook's grade cells."""
    return {c.metadata["nbgrader"]["grade_id"]: c.metadata["nbgrader"].get("points") for c in nb.cells
            if c.metadata.get("nbgrader", {}).get("grade")}


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def build_course(out: str | os.PathLike | None = None, notebooks: str | os.PathLike | None = None, *,
                 force: bool = False, quiet: bool = False) -> list[Exercise]:
    """Write the nbgrader course folder ``out`` (see the module docstring); return every graded exercise.

    ``out`` defaults to :func:`default_course_dir`; a folder inside a git repository that does not ignore it is
    refused (a ``git add -A`` there would publish students' work and marks). A source notebook is rewritten when
    it is still what the last build wrote (its digest is kept in ``OUT/.tilelab-course.json``); one the teacher
    changed is kept and named. ``force`` rewrites it too, keeping the points the teacher gave its exercises.
    """
    folder = Path(notebooks) if notebooks is not None else default_notebook_dir()
    out = Path(out) if out is not None else default_course_dir(folder)
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out} is a file: give a folder for the course (default: {default_course_dir(folder)})")
    paths = lesson_paths(folder)
    if not paths:
        raise ValueError(f"no lessons (*.ipynb) in {folder}")
    repository = _repository_of(out.resolve())
    if repository is not None and not _ignored(repository, out.resolve()):
        raise ValueError(f"{out} is inside the git repository {repository} and not ignored there: a `git add -A` "
                         "would publish students' work and marks. Give a folder outside it (default: "
                         f"{default_course_dir(folder)}) or add the folder to {repository / '.gitignore'}")
    (out / "source").mkdir(parents=True, exist_ok=True)
    config = out / "nbgrader_config.py"
    if not config.exists():
        config.write_text(COURSE_CONFIG, encoding="utf-8")
    record_path = out / COURSE_RECORD
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))
        record = record if isinstance(record, dict) else {}
    except (OSError, ValueError):
        record = {}
    results = folder.resolve().parent / "benchmarks" / "results"
    graded: list[Exercise] = []
    try:
        for path in paths:
            lesson = path.stem
            nb = nbformat.read(path, as_version=4)
            source, exercises = assignment_notebook(nb, lesson)
            graded += exercises
            target = out / "source" / lesson / path.name
            target.parent.mkdir(parents=True, exist_ok=True)
            text = nbformat.writes(source) + "\n"
            current = target.read_text(encoding="utf-8") if target.exists() else None
            relative = f"source/{lesson}/{path.name}"
            if current is None or current == text or record.get(relative) == _digest(current):
                target.write_text(text, encoding="utf-8")  # new, the same, or untouched since the last build
                record[relative] = _digest(text)
            elif not force:
                print(f"{target}: kept (changed since it was generated; --force rewrites it from the lesson, "
                      "keeping its points)", file=sys.stderr)
            else:
                given = _points(nbformat.reads(current, as_version=4))
                for cell in source.cells:
                    meta = cell.metadata.get("nbgrader", {})
                    if meta.get("grade") and given.get(meta["grade_id"]) not in (None, meta.get("points")):
                        meta["points"] = given[meta["grade_id"]]
                        print(f"{target}: {meta['grade_id']} keeps your {meta['points']} point(s)", file=sys.stderr)
                text = nbformat.writes(source) + "\n"
                target.write_text(text, encoding="utf-8")
                record[relative] = _digest(text)
            if _reads_saved_results(nb) and results.is_dir():
                _copy_results(results, target.parent / "benchmarks" / "results")
            if not quiet:
                points = sum(p or 0 for p in _points(source).values())
                print(f"{target}: {len(exercises)} graded exercise(s), {points} point(s)")
    finally:
        record_path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return graded


def _ignored(repository: Path, path: Path) -> bool:
    """True when git ignores ``path`` in ``repository`` (``git check-ignore``)."""
    probe = path / "gradebook.db"
    try:
        done = subprocess.run(["git", "-C", str(repository), "check-ignore", "-q", str(probe)], capture_output=True)
    except OSError:  # no git on this machine: nothing tells it is ignored
        return False
    return done.returncode == 0


def _copy_results(source: Path, target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for path in sorted(source.iterdir()):
        if path.is_file() and path.suffix in (".json", ".jsonl"):
            shutil.copy2(path, target / path.name)


def graded_exercises(course: str | os.PathLike) -> list[Exercise]:
    """Every graded exercise of the course folder's source notebooks (``source/*/*.ipynb``)."""
    found = []
    for path in sorted(Path(course).glob("source/*/*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            meta = cell.metadata.get("nbgrader", {})
            if meta.get("solution") and cell.cell_type == "code":
                _, tail, calls = _split_exercise(cell.source)
                found.append(Exercise(path.parent.name, ast.literal_eval(calls[0].args[0]), meta["grade_id"]))
    return found


# ------------------------------------------------------------------------------ nbgrader export, per exercise
def exercise_rows(gradebook: Any, assignments: Iterable[str] = (), students: Iterable[str] = ()) -> list[dict]:
    """One row per student, assignment and graded cell of an nbgrader :class:`~nbgrader.api.Gradebook`.

    A submission nbgrader could not grade (or that was never made) gives its rows with no score.
    """
    from nbgrader.api import MissingEntry

    assignments, students = list(assignments), list(students)
    rows = []
    for assignment in gradebook.assignments:
        if assignments and assignment.name not in assignments:
            continue
        for student in sorted(gradebook.students, key=lambda s: s.id):
            if students and student.id not in students:
                continue
            try:
                submission = gradebook.find_submission(assignment.name, student.id)
            except MissingEntry:
                submission = None
            for notebook in assignment.notebooks:
                for cell in notebook.grade_cells:
                    score = None
                    if submission is not None:
                        try:
                            grade = gradebook.find_grade(cell.name, notebook.name, assignment.name, student.id)
                            score = grade.score
                        except MissingEntry:
                            pass
                    rows.append({"student_id": student.id, "assignment": assignment.name,
                                 "exercise": cell.name.removeprefix("test-"), "score": score,
                                 "max_score": cell.max_score,
                                 "submitted": "yes" if submission is not None else "no"})
    return rows


def _export_plugin_base() -> type:
    try:
        from nbgrader.plugins import ExportPlugin
    except ImportError:  # nbgrader is not installed: the class below is only for nbgrader's export command
        return object
    return ExportPlugin  # type: ignore[no-any-return]


def _preprocessor_base() -> type:
    try:
        from nbgrader.preprocessors import NbGraderPreprocessor
    except ImportError:  # nbgrader is not installed: the class below is only for nbgrader's autograde
        return object
    return NbGraderPreprocessor  # type: ignore[no-any-return]


class UngradableSubmission(ValueError):
    """A submitted notebook nbgrader cannot grade (no grading metadata)."""


class RequireGradingMetadata(_preprocessor_base()):  # type: ignore[misc]
    """nbgrader autograde's first step in the tilelab course (``COURSE_CONFIG``): a submitted notebook with no
    grading metadata at all (the student worked in a copy not made from the nbgrader release) is refused with
    its student's name and file, so nbgrader reports it and grades the others, instead of giving it 0 in
    silence."""

    def preprocess(self, nb: Any, resources: dict) -> tuple[Any, dict]:
        if not any(cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") for cell in nb.cells):
            about = resources.get("nbgrader", {})
            student, assignment = about.get("student", "?"), about.get("assignment", "?")
            notebook = about.get("notebook", "?")
            raise UngradableSubmission(
                f"submitted/{student}/{assignment}/{notebook}.ipynb has no grading metadata: it was not made from "
                f"the nbgrader release of {assignment}, so no exercise in it can be graded. Not graded; ask "
                f"{student} to copy their answers into the student edition (make lab, make student, the student "
                "site or the browser site) and hand that in")
        return nb, resources


class ExerciseCsvExport(_export_plugin_base()):  # type: ignore[misc]
    """nbgrader export plugin: a CSV row per student, lesson and exercise (``--to FILE``, default
    ``grades_by_exercise.csv``); nbgrader's own ``CsvExportPlugin`` writes one row per student and lesson."""

    def export(self, gradebook: Any) -> None:
        import csv

        dest = self.to or "grades_by_exercise.csv"
        rows = exercise_rows(gradebook, [str(a) for a in self.assignment], [str(s) for s in self.student])
        with open(dest, "w", newline="", encoding="utf-8", errors="backslashreplace") as fh:
            writer = csv.DictWriter(fh, ["student_id", "assignment", "exercise", "score", "max_score", "submitted"])
            writer.writeheader()
            writer.writerows(rows)
        self.log.info("Exported %d rows (student, lesson, exercise) to %s", len(rows), dest)
