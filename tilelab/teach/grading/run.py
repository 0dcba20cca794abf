"""``python -m tilelab.teach autograde LESSON`` (``make autograde LESSON=...``): the class, one student at a time.

Each student's submission is autograded by its own ``nbgrader autograde LESSON --student ID`` process with the
course's configuration (tilelab's preprocessors, each kernel in bubblewrap), stopped after ``timeout`` seconds.
A submission that cannot be graded (not a notebook, a kernel that never answers, a loop nothing interrupts) is
reported and the next student is graded. The run ends with a table: student, graded or not, marks, reason.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat

#: The line of the course's nbgrader_config.py that puts tilelab's grading into nbgrader autograde.
CONFIG_LINE = "from tilelab.teach.grading.preprocessors import configure; configure(c)"


@dataclass(frozen=True)
class Row:
    """One student's outcome."""

    student: str
    graded: bool
    score: float | None
    max_score: float | None
    reason: str  #: why marks were lost, or why the submission was not graded ("" for full marks)

    @property
    def marks(self) -> str:
        if self.score is None or self.max_score is None:
            return "-"
        return f"{self.score:g}/{self.max_score:g}"


def nbgrader_env() -> dict[str, str]:
    """This environment with its Python's scripts folder first on PATH (nbgrader runs ``alembic`` from there)."""
    scripts = os.path.dirname(sys.executable)
    return {**os.environ, "PATH": scripts + os.pathsep + os.environ.get("PATH", "")}


def students_of(course: Path, lesson: str) -> list[str]:
    """Students with a submission of ``lesson`` (``submitted/STUDENT/LESSON/``), sorted."""
    folder = course / "submitted"
    return sorted(p.name for p in folder.iterdir() if (p / lesson).is_dir()) if folder.is_dir() else []


def _why_not(output: str) -> str:
    """The error that stopped a student's grading: the last exception a traceback names, else nbgrader's error."""
    lines = [line.strip() for line in output.splitlines()]
    raised = [line for line in lines if re.match(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)\b.*:", line)]
    if raised:
        return raised[-1][:300]
    errors = [line.split("ERROR]", 1)[1].strip() for line in lines if "ERROR]" in line]
    errors = [e for e in errors if e and not e.startswith(("There was an error processing", "Please see"))]
    if errors:
        return errors[-1][:300]
    tail = [line for line in lines if line]
    return tail[-1][:300] if tail else "nbgrader failed without a message"


def _lost(course: Path, lesson: str, student: str) -> str:
    """Why the graded notebook lost marks: each graded test with an error, and its first error."""
    reasons = []
    for path in sorted((course / "autograded" / student / lesson).glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            meta = cell.metadata.get("nbgrader", {})
            if not meta.get("grade") or cell.cell_type != "code":
                continue
            errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
            if errors:
                first = errors[0]
                text = f"{first.get('ename')}: {first.get('evalue')}".replace("\n", " ")
                reasons.append(f"{meta['grade_id'].removeprefix('test-')}: {text[:240]}")
    return "; ".join(reasons)


def _marks(course: Path, lesson: str, student: str) -> tuple[float | None, float | None]:
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        try:
            submission = gb.find_submission(lesson, student)
        except MissingEntry:
            return None, None
        return submission.score, submission.max_score


def autograde(course: str | os.PathLike, lesson: str, *, students: list[str] | None = None,
              timeout: float = 1800, sandbox: bool = True, force: bool = True,
              log: str | os.PathLike | None = None) -> list[Row]:
    """Autograde every submission of ``lesson`` in ``course``, one nbgrader process per student; the table's rows.

    ``log``: a folder for each student's nbgrader output (default: ``COURSE/autograde_logs/LESSON``).
    """
    course = Path(course).resolve()
    config = course / "nbgrader_config.py"
    if not config.is_file() or "tilelab.teach.grading" not in config.read_text(encoding="utf-8"):
        raise ValueError(f"{config} does not use tilelab's grading: add the line\n    {CONFIG_LINE}\n(new course "
                         "folders from `python -m tilelab.teach nbgrader` have it)")
    if sandbox:
        from tilelab.teach.grading.sandbox import check_bwrap

        check_bwrap()
    names = students if students is not None else students_of(course, lesson)
    if not names:
        raise ValueError(f"no submissions of {lesson} in {course / 'submitted'} (submitted/STUDENT/{lesson}/)")
    logs = Path(log) if log is not None else course / "autograde_logs" / lesson
    logs.mkdir(parents=True, exist_ok=True)
    rows = []
    for student in names:
        command = [sys.executable, "-m", "nbgrader", "autograde", lesson, "--student", student]
        if force:
            command.append("--force")
        if not sandbox:
            command.append("--SandboxedKernelManager.sandbox=False")
        with open(logs / f"{student}.log", "w+", encoding="utf-8", errors="replace") as out:
            process = subprocess.Popen(command, cwd=course, stdout=out, stderr=subprocess.STDOUT,
                                       start_new_session=True, env=nbgrader_env())
            try:
                rc = process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                rc = None
            finally:  # stopped at the timeout, or the run itself interrupted (Ctrl-C): the student's kernel goes too
                if process.poll() is None:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
            out.seek(0)
            output = out.read()
        graded = rc == 0 and (course / "autograded" / student / lesson).is_dir()
        score, max_score = _marks(course, lesson, student) if graded else (None, None)
        if rc is None:
            reason = f"not graded: autograde took longer than {timeout:g} s and was stopped"
        elif not graded:
            reason = f"not graded: {_why_not(output)}"
        else:
            reason = _lost(course, lesson, student)
        rows.append(Row(student, graded, score, max_score, reason))
    return rows


def table(rows: list[Row]) -> str:
    """The rows as a plain-text table: student, graded, marks, reason."""
    head = ("student", "graded", "marks", "reason")
    body = [(r.student, "yes" if r.graded else "NO", r.marks, r.reason or "-") for r in rows]
    widths = [max(len(str(x)) for x in column) for column in zip(head, *body)]
    widths[-1] = 0
    lines = ["  ".join(str(x).ljust(w) for x, w in zip(line, widths)).rstrip() for line in [head, *body]]
    graded = sum(r.graded for r in rows)
    return "\n".join(lines + [f"{graded} of {len(rows)} submissions graded"])
