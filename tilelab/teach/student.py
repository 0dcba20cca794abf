"""Student editions: every lesson as its nbgrader release, the one notebook students open, solve and hand in.

Each lesson becomes its nbgrader assignment (:mod:`tilelab.teach.assignments`) and nbgrader's own
``GenerateAssignment`` makes the release from it (:func:`student_edition`): solutions and teacher's notes removed,
exercise outputs cleared, the grading metadata and checksums in place, so a notebook solved wherever a student
opened it (``make lab``, the student repository on Binder or a hub, the student site's download button, the
browser site) gets its marks from ``nbgrader autograde``.

The folder is the students' own: a file a student changed is never written over. :func:`build_student_editions`
keeps a record (``.tilelab-student.json``) of what it wrote; a file that still matches the record is the kit's
and is brought up to date, a file that does not is the student's and stays as it is, the new version written
beside it (``NAME.updated.ipynb``) and named in the output. As a student repository (``wheel``) the folder
also carries what Binder and a JupyterHub need to run it as a repository of its own: an ``environment.yml`` that
installs tilelab from the wheel the folder carries (``wheel``), and a ``postBuild`` start-up step.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

import nbformat

from tilelab.teach.lessons import (
    EXERCISE_TAG,
    SOLUTION_TAG,
    TEACHER_TAG,
    default_notebook_dir,
    lesson_paths,
    tags,
    untagged_solutions,
)
from tilelab.teach.links import check_branch, check_repo, lesson_links

RECORD = ".tilelab-student.json"
#: Sentences a student edition must not say (the solutions and the teacher's note are not in it).
TEACHER_TALK = re.compile(r"(solutions?\b[^.]{0,60}\b(collapsed|hidden|folded)|(collapsed|hidden|folded)"
                          r"[^.]{0,30}\bsolution|\bteacher'?s note|for the teacher\b)", re.I)

POSTBUILD = """#!/usr/bin/env bash
# Binder (repo2docker) runs this once the environment is built: tilelab's server extension sends each key of a
# board to the kernel at once (TCP_NODELAY).
set -euo pipefail
python -m tilelab.server_nodelay --install
"""


def student_edition(nb: Any, lesson: str = "lesson") -> Any:
    """The student edition of lesson notebook ``nb``: its nbgrader release, the notebook students hand in.

    The lesson becomes its nbgrader source (:func:`tilelab.teach.assignments.assignment_notebook`: solutions in
    their answer cells, read-only autograder tests, ``teacher`` cells left out), and nbgrader's own
    ``GenerateAssignment`` makes the release from it with the course's settings (:data:`COURSE_CONFIG
    <tilelab.teach.assignments.COURSE_CONFIG>`): solutions removed, cells locked, checksums computed. The
    outputs of ``exercise`` cells are cleared. A notebook solved in it, wherever it was opened, is graded by
    ``nbgrader autograde``. ``lesson`` names the lesson in error messages.

    >>> import nbformat
    >>> v4 = nbformat.v4
    >>> nb = v4.new_notebook(cells=[
    ...     v4.new_code_cell("def my_f(x):\\n    return 0\\n\\ncheck('double', my_f)", metadata={"tags": ["exercise"]},
    ...                      outputs=[v4.new_output("stream", text="not yet")], execution_count=3),
    ...     v4.new_code_cell("def solution_f(x):\\n    return 2 * x", metadata={"tags": ["solution"]})])
    >>> out = student_edition(nb)
    >>> print(out.cells[0].source)
    def my_f(x):
        return 0
    <BLANKLINE>
    check('double', my_f)
    >>> out.cells[0].outputs, out.cells[0].metadata.nbgrader["grade_id"], out.cells[1].metadata.nbgrader["points"]
    ([], 'double', 1)
    """
    from tilelab.teach.assignments import assignment_notebook

    source, _ = assignment_notebook(nb, lesson)
    released = nbgrader_release(source)
    for cell in released.cells:
        if EXERCISE_TAG in tags(cell) and cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    return released


def nbgrader_release(source: Any) -> Any:
    """What ``nbgrader generate_assignment`` makes of the nbgrader source notebook ``source`` in a course with
    tilelab's settings: nbgrader's own converter, run on a scratch course folder (no gradebook written)."""
    from nbgrader.converters import GenerateAssignment
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config.loader import PyFileConfigLoader

    from tilelab.teach.assignments import COURSE_CONFIG

    with tempfile.TemporaryDirectory(prefix="tilelab-release-") as scratch:
        root = Path(scratch)
        (root / "nbgrader_config.py").write_text(COURSE_CONFIG, encoding="utf-8")
        config = PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()
        config.CourseDirectory.root = str(root)
        config.GenerateAssignment.no_database = True  # nbgrader generate_assignment --no-db
        config.SaveCells.enabled = False
        (root / "source" / "lesson").mkdir(parents=True)
        nbformat.write(source, root / "source" / "lesson" / "lesson.ipynb")
        coursedir = CourseDirectory(config=config)
        converter = GenerateAssignment(coursedir=coursedir, config=config)
        converter.log.setLevel("ERROR")
        coursedir.assignment_id = "lesson"
        converter.start()
        released = nbformat.read(root / "release" / "lesson" / "lesson.ipynb", as_version=4)
    return released


def teacher_talk(nb: Any) -> list[tuple[int, str]]:
    """Cells of a student edition that speak of hidden solutions or to the teacher: ``(index, the words)``.

    >>> v4 = nbformat.v4
    >>> teacher_talk(v4.new_notebook(cells=[v4.new_markdown_cell("Solutions are in the collapsed cells; try first!")]))
    [(0, 'Solutions are in the collapsed')]
    """
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            match = TEACHER_TALK.search(cell.source)
            if match:
                found.append((i, match.group(0)))
    return found


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class _Folder:
    """Writes into a student's folder without ever replacing a file the student changed."""

    def __init__(self, out: Path, say: Callable[[str], None]) -> None:
        self.out, self.say = out, say
        self.record_path = out / RECORD
        try:
            self.record: dict[str, str] = json.loads(self.record_path.read_text(encoding="utf-8"))
            if not isinstance(self.record, dict):
                raise ValueError
        except (OSError, ValueError):
            self.record = {}
        self.kept: list[Path] = []

    def write(self, relative: str, data: bytes, executable: bool = False) -> Path:
        target = self.out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.exists():
            current = target.read_bytes()
            if current == data:
                self.record[relative] = _digest(data)
                return target
            last = self.record.get(relative)  # the digest of what the kit wrote there last time
            if last == _digest(data):
                return target  # the same version as handed out, changed by the student: theirs, nothing new
            if last != _digest(current):  # not what the kit wrote: the student's file, and a new version
                beside = target.with_name(f"{target.stem}.updated{target.suffix}")
                beside.write_bytes(data)
                self.kept.append(target)
                self.say(f"{target}: kept (changed since it was handed out); the new version is {beside.name}")
                return beside
        target.write_bytes(data)
        if executable:
            target.chmod(target.stat().st_mode | 0o111)
        self.record[relative] = _digest(data)
        return target

    def close(self) -> None:
        self.record_path.write_text(json.dumps(self.record, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def readme(names: list[str], wheel: str | None, branch: str, student_repo: str | None) -> str:
    """The student folder's README: what it is, and commands that work to open it (``wheel``: the file name of
    the tilelab wheel the folder carries)."""
    lines = [
        "# tilelab: student edition", "",
        "The tilelab lessons for students: read, run the cells, play the boards and do the exercises. Each",
        "exercise cell runs as it is, and its `check(...)` answers \"not yet\" until your code is right, with the",
        "smallest example it gets wrong. These notebooks are yours: the course never writes over one you changed.", "",
        "## Open the lessons", "",
        "- **In a copy of the course** (the repository with the `Makefile`): `make lab` opens this folder.",
    ]
    if wheel:
        lines += [
            "- **Anywhere with Python 3.10 or newer**, in this folder (it carries tilelab itself):", "",
            "  ```bash",
            "  python3 -m venv .venv",
            f"  .venv/bin/pip install \"./{wheel}[lab]\"",
            "  .venv/bin/jupyter lab",
            "  ```", "",
        ]
    if student_repo:
        binder = lesson_links(student_repo, names[:1], branch=branch, layout="student")[0]["binder"]
        lines += [f"- **On Binder** (nothing to install; download your notebooks before you close the tab): {binder}",
                  ""]
    lines += [
        "", "Start with `00_start_here.ipynb`. Click a board once to give it the keyboard; **Escape** gives the",
        "keyboard back to the notebook.", "",
        "## Handing in", "",
        "Save the notebook (Ctrl+S) and hand in the `.ipynb` file the way your teacher asks (on Binder or in the",
        "browser site: *File → Download* first). Hand in the notebook you worked in: it carries what the grader",
        "needs to find your answers.", "",
    ]
    return "\n".join(lines)


def environment_yml(course_environment: Path, wheel: str) -> str:
    """The student repository's ``environment.yml``: the course's own, plus tilelab from the wheel it carries."""
    lines = ["# Binder / conda environment for the tilelab student editions (written by python -m tilelab.teach "
             "student).", "# It installs tilelab from the wheel beside it; ./postBuild finishes the set-up."]
    body = course_environment.read_text(encoding="utf-8").splitlines()
    lines += [line for line in body if line.strip() and not line.lstrip().startswith("#")]
    lines += ["  - pip:", f"      - ./{wheel}"]
    return "\n".join(lines) + "\n"


def build_student_editions(
    out: str | os.PathLike, notebooks: str | os.PathLike | None = None, *, quiet: bool = False,
    wheel: bool = False, branch: str = "main", student_repo: str | None = None,
) -> list[Path]:
    """Write the student edition of every lesson in ``notebooks`` into ``out``; return the lessons' paths there.

    A file the student changed is kept, and a new version of it written beside it (see the module docstring).
    ``quiet`` prints only the files kept (no progress, no warnings for the lessons' authors).
    ``wheel`` adds tilelab as a wheel (``pip wheel`` of this checkout), with ``environment.yml`` and ``postBuild``
    that install it, so the folder runs on Binder or a hub as a repository of its own (``student_repo``, named in
    its README) without the course repository.
    """
    if student_repo is not None:
        check_repo(student_repo)
    check_branch(branch)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out} is a file: give a folder for the student editions")
    folder = Path(notebooks) if notebooks is not None else default_notebook_dir()
    paths = lesson_paths(folder)
    if not paths:
        raise ValueError(f"no lessons (*.ipynb) in {folder}")
    out.mkdir(parents=True, exist_ok=True)
    say = (lambda text: None) if quiet else print
    files = _Folder(out, lambda text: print(text, file=sys.stderr))
    written = []
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        suspicious = untagged_solutions(nb)
        if suspicious and not quiet:
            print(f"warning: {path.name}: code cells {suspicious} start with '# Solution' but are not tagged "
                  f"'{SOLUTION_TAG}'; they stay in the student edition (tag them to remove them)", file=sys.stderr)
        student = student_edition(nb, path.stem)
        for index, words in [] if quiet else teacher_talk(student):
            print(f"warning: {path.name}: a cell students see speaks of solutions or to the teacher "
                  f"({words!r}, cell {index} of the student edition): tag it '{TEACHER_TAG}'", file=sys.stderr)
        target = files.write(path.name, (nbformat.writes(student) + "\n").encode("utf-8"))
        written.append(out / path.name)
        graded = sum(1 for cell in student.cells if cell.metadata.get("nbgrader", {}).get("grade"))
        say(f"{target}: the nbgrader release, {graded} autograded exercise(s)")
    names = [p.stem for p in paths]
    wheel_name = None
    if wheel:
        from tilelab.teach.wheels import build_tilelab_wheel

        with tempfile.TemporaryDirectory(prefix="tilelab-student-wheel-") as scratch:
            built = build_tilelab_wheel(Path(scratch))
            wheel_name = built.name
            for old in out.glob("tilelab-*.whl"):  # the folder carries one tilelab: this one
                if old.name != wheel_name:
                    old.unlink()
            files.write(wheel_name, built.read_bytes())
        course_environment = folder.resolve().parent / "environment.yml"
        if course_environment.is_file():
            files.write("environment.yml", environment_yml(course_environment, wheel_name).encode("utf-8"))
        files.write("postBuild", POSTBUILD.encode("utf-8"), executable=True)
    files.write("README.md", readme(names, wheel_name, branch, student_repo).encode("utf-8"))
    copied = copy_saved_results(folder, files)
    files.close()
    if copied:
        say(f"{out / 'benchmarks' / 'results'}: {len(copied)} saved benchmark file(s) the lessons plot")
    if files.kept:
        print(f"{len(files.kept)} file(s) changed by the student kept as they were", file=sys.stderr)
    return written


def copy_saved_results(notebooks: Path, out: Any) -> list[Path]:
    """Copy the repository's saved benchmark results (``*.json``, ``*.jsonl``) into ``benchmarks/results`` of the
    student folder (``out``: a folder, or the writer :func:`build_student_editions` uses).

    The lessons find them there through :func:`tilelab.results.results_dir` (they search the working
    directory and its parents), so a student edition handed out as a folder plots the same data.
    """
    source = Path(notebooks).resolve().parent / "benchmarks" / "results"
    if not source.is_dir():
        return []
    files = sorted(p for p in source.iterdir() if p.is_file() and p.suffix in (".json", ".jsonl"))
    if isinstance(out, _Folder):  # a student's folder: nothing of theirs written over
        return [out.write(f"benchmarks/results/{path.name}", path.read_bytes()) for path in files]
    target = Path(out) / "benchmarks" / "results"  # a build's output folder (the lite site's contents)
    target.mkdir(parents=True, exist_ok=True)
    for path in files:
        shutil.copy2(path, target / path.name)
    return [target / path.name for path in files]
