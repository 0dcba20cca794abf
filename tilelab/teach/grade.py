"""Grading a class: run every student notebook in a folder and write the exercise results as CSV.

Each notebook runs top to bottom in its own kernel with nbclient (cells that raise do not stop the
run; a notebook that takes longer than its time budget is interrupted). Then one extra cell asks the
kernel for :func:`tilelab.exercises.report_json`. One CSV row per notebook x exercise:
``student_file, exercise, passed, message``. A broken notebook (unreadable, a cell that raised, a
timeout, a kernel that died, an unreadable report) gets a row with exercise ``(notebook)`` saying
what went wrong; the run never stops on one student's notebook.
"""

from __future__ import annotations

import csv
import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import nbformat

from tilelab.teach.lessons import EXERCISE_TAG, tags

MARKER = "TILELAB-REPORT-JSON:"
NOTEBOOK_ROW = "(notebook)"
FIELDS = ("student_file", "exercise", "passed", "message")
REPORT_CELL = (
    "import tilelab.exercises as _tilelab_exercises\n"
    f"print({MARKER!r} + _tilelab_exercises.report_json())"
)
_CHECK_CALL = re.compile(r"""check\(\s*(['"])([^'"]+)\1""")


@dataclass(frozen=True)
class Row:
    """One line of the results table."""

    student_file: str
    exercise: str
    passed: bool
    message: str


def expected_exercises(nb: Any) -> list[str]:
    """Exercise names the notebook's ``exercise`` cells check (in order, without repeats).

    >>> import nbformat
    >>> cell = nbformat.v4.new_code_cell('check("sliding.inversions", f)', metadata={"tags": ["exercise"]})
    >>> expected_exercises(nbformat.v4.new_notebook(cells=[cell]))
    ['sliding.inversions']
    """
    names: list[str] = []
    for cell in nb.cells:
        if cell.cell_type == "code" and EXERCISE_TAG in tags(cell):
            for match in _CHECK_CALL.finditer(cell.source):
                if match.group(2) not in names:
                    names.append(match.group(2))
    return names


def _first_error(nb: Any) -> str | None:
    for index, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            if output.get("output_type") == "error":
                return f"cell {index} raised {output.get('ename')}: {output.get('evalue')}"
    return None


def _parse_report(text: str) -> list[dict]:
    for line in text.splitlines():
        if line.startswith(MARKER):
            rows = json.loads(line[len(MARKER):])
            if not isinstance(rows, list) or not all(isinstance(r, dict) and "exercise" in r for r in rows):
                raise ValueError("the report is not a list of exercise results")
            return rows
    raise ValueError("the report cell printed no results")


def run_notebook(path: str | os.PathLike, *, timeout: float = 300.0, kernel_name: str = "python3") -> list[Row]:
    """Run one student notebook and return its rows (never raises for a broken notebook)."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError, DeadKernelError
    from nbclient.util import run_sync

    path = Path(path)
    name = path.name
    try:
        nb = nbformat.read(path, as_version=4)
    except Exception as exc:  # not a notebook at all
        return [Row(name, NOTEBOOK_ROW, False, f"could not read the notebook: {type(exc).__name__}: {exc}")]
    expected = expected_exercises(nb)
    deadline = [time.monotonic() + timeout]  # reset once the kernel is up: start-up is not the student's time
    problems: list[str] = []
    report_text = ""
    client = NotebookClient(
        nb,
        timeout=int(max(1, timeout)),
        timeout_func=lambda cell: max(1, int(deadline[0] - time.monotonic() + 0.999)),
        kernel_name=kernel_name,
        allow_errors=True,
        interrupt_on_timeout=False,
        resources={"metadata": {"path": str(path.parent.resolve())}},
    )
    try:
        with client.setup_kernel():
            deadline[0] = time.monotonic() + timeout
            try:
                for index, cell in enumerate(nb.cells):
                    if cell.cell_type == "code":
                        client.execute_cell(cell, index)
            except CellTimeoutError:
                problems.append(f"timed out after {timeout:g} s (the rest of the notebook did not run)")
                run_sync(client.km.interrupt_kernel)()
            error = _first_error(nb)
            if error:
                problems.insert(0, error)
            report = nbformat.v4.new_code_cell(REPORT_CELL)
            client.timeout_func = None
            client.timeout = 20
            nb.cells.append(report)  # nbclient stores outputs by cell index
            client.execute_cell(report, len(nb.cells) - 1)
            report_text = "".join(o.get("text", "") for o in report.outputs if o.get("output_type") == "stream")
            if any(o.get("output_type") == "error" for o in report.outputs):
                error = next(o for o in report.outputs if o.get("output_type") == "error")
                problems.append(f"could not collect the results: {error.get('ename')}: {error.get('evalue')}")
    except CellTimeoutError:
        problems.append("the kernel did not answer the report request (still busy after an interrupt)")
    except DeadKernelError:
        problems.append("the kernel died")
    except Exception as exc:  # a kernel that would not start, a broken message: report, go on
        problems.append(f"could not run: {type(exc).__name__}: {exc}")

    rows: list[Row] = []
    found: dict[str, dict] = {}
    if report_text:
        try:
            for entry in _parse_report(report_text):
                found[str(entry["exercise"])] = entry
        except ValueError as exc:  # json.JSONDecodeError is a ValueError
            problems.append(f"could not read the results: {exc}")
    if problems:
        rows.append(Row(name, NOTEBOOK_ROW, False, "; ".join(problems)))
    for exercise in [*expected, *(e for e in found if e not in expected)]:
        if exercise in found:
            entry = found[exercise]
            rows.append(Row(name, exercise, bool(entry.get("passed")), str(entry.get("message", ""))))
        else:
            rows.append(Row(name, exercise, False, "not checked (the exercise cell did not run)"))
    if not rows:
        rows.append(Row(name, NOTEBOOK_ROW, False, "no exercise was checked in this notebook"))
    return rows


def grade_folder(
    folder: str | os.PathLike,
    out: str | os.PathLike,
    *,
    timeout: float = 300.0,
    kernel_name: str = "python3",
    quiet: bool = False,
) -> list[Row]:
    """Run every ``*.ipynb`` under ``folder`` (recursively) and write all rows to the CSV ``out``."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"{folder} is not a folder; pass the folder holding the students' notebooks")
    paths = sorted(p for p in folder.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    rows: list[Row] = []
    for path in paths:
        start = time.perf_counter()
        found = run_notebook(path, timeout=timeout, kernel_name=kernel_name)
        relative = str(path.relative_to(folder))
        found = [Row(relative, r.exercise, r.passed, r.message) for r in found]
        rows.extend(found)
        if not quiet:
            ok = sum(r.passed for r in found if r.exercise != NOTEBOOK_ROW)
            total = sum(r.exercise != NOTEBOOK_ROW for r in found)
            broken = " (problem: see the (notebook) row)" if any(r.exercise == NOTEBOOK_ROW for r in found) else ""
            print(f"{relative}: {ok}/{total} exercises passed in {time.perf_counter() - start:.1f} s{broken}")
    write_csv(rows, out)
    return rows


def write_csv(rows: Iterable[Row], out: str | os.PathLike) -> Path:
    """Write rows as CSV with a header ``student_file,exercise,passed,message``."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(FIELDS)
        for r in rows:
            writer.writerow([r.student_file, r.exercise, "yes" if r.passed else "no", r.message])
    return out
