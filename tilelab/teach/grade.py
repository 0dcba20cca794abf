"""Grading a class: run every student notebook in a folder and write the exercise results as CSV.

Each notebook runs top to bottom in its own kernel with nbclient, in a scratch copy of its folder
(cells that raise do not stop the run). At the time budget the kernel is interrupted; a kernel that
does not become idle within :data:`INTERRUPT_GRACE` seconds is killed with its whole process group.
Then the grader does not read a report the notebook could have forged: one extra cell imports a
*fresh* copy of tilelab from the teacher's installed package (a path the grader passes in, ahead of
anything the notebook put on ``sys.path``) and checks again, with those fresh checkers, the answers
``check`` recorded (:func:`tilelab.exercises.regrade`); it prints them after a random nonce the
notebook never saw. That cell has its own budget (``regrade_timeout``), again enforced by killing
the process group. One CSV row per notebook x exercise: ``student_file, exercise, passed, message``.
A broken notebook (unreadable, a cell that raised, a timeout, a kernel that died, no results) gets a
row with exercise ``(notebook)`` saying what went wrong; the run never stops on one student's notebook.

What this cannot prevent (the student's code runs in the same process as the re-check, with the
teacher's file access): see the README section "What a self-check grader cannot prevent".
"""

from __future__ import annotations

import csv
import json
import os
import re
import secrets
import shutil
import signal
import tempfile
import threading
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
INTERRUPT_GRACE = 3.0  #: seconds a timed-out kernel gets to become idle after SIGINT before it is killed
REGRADE_TIMEOUT = 120.0  #: default budget of the grader's own re-check cell (imports tilelab afresh, reruns answers)
SCRATCH_SKIP_BYTES = 50 * 2**20  #: files larger than this are not copied into the scratch folder
TRUSTED_ROOT = str(Path(__file__).resolve().parents[2])  #: the folder holding the teacher's tilelab package
REGRADE_CELL = """\
def _tilelab_regrade(root, tag):
    import importlib, json, sys
    old = sys.modules.get("tilelab.exercises")
    recorded = getattr(old, "_ANSWERS", None)
    answers = dict(recorded) if isinstance(recorded, dict) else {{}}
    own = getattr(old, "_RESULTS", None)
    own = {{str(k): [getattr(v, "passed", None) is True, str(getattr(v, "message", ""))] for k, v in dict(own).items()}} \
        if isinstance(own, dict) else {{}}
    for name in [n for n in list(sys.modules) if n == "tilelab" or n.startswith("tilelab.")]:
        del sys.modules[name]
    sys.path.insert(0, root)
    importlib.invalidate_caches()
    fresh = importlib.import_module("tilelab.exercises")
    if not str(getattr(fresh, "__file__", "")).startswith(root.rstrip("/") + "/tilelab/"):
        raise ImportError("tilelab did not come from the grader's copy: " + str(getattr(fresh, "__file__", None)))
    rows = fresh.regrade(answers)
    for row in rows:
        row["own"] = own.get(row["exercise"])
    print(tag + json.dumps(rows))
_tilelab_regrade({root!r}, {tag!r})
"""
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


def _parse_report(text: str, marker: str = MARKER) -> list[dict]:
    for line in text.splitlines():
        if line.startswith(marker):
            rows = json.loads(line[len(marker):])
            if not isinstance(rows, list) or not all(isinstance(r, dict) and "exercise" in r for r in rows):
                raise ValueError("the report is not a list of exercise results")
            return rows
    raise ValueError("the report cell printed no results")


class _Watchdog:
    """Kills a kernel's whole process group (SIGKILL) when an armed deadline passes, whatever the client is doing."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.fired = False
        self._timer: threading.Timer | None = None

    def arm(self, seconds: float) -> None:
        self.disarm()
        self._timer = threading.Timer(max(0.0, seconds), self.kill)
        self._timer.daemon = True
        self._timer.start()

    def disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def kill(self) -> None:
        """SIGKILL the kernel's process group (the kernel and every child it started in its session)."""
        self.fired = True
        provisioner = getattr(getattr(self.client, "km", None), "provisioner", None)
        pgid = getattr(provisioner, "pgid", None)
        process = getattr(provisioner, "process", None)
        try:
            if pgid and hasattr(os, "killpg"):
                os.killpg(pgid, signal.SIGKILL)
            elif process is not None:
                process.kill()
        except (OSError, ProcessLookupError):  # already gone
            pass


def _scratch_copy(path: Path, into: Path) -> Path:
    """Copy the notebook's folder into ``into`` (no other notebooks, no checkpoints, no huge files)."""
    def ignore(folder: str, names: list[str]) -> list[str]:
        skipped = []
        for name in names:
            full = Path(folder) / name
            if name == ".ipynb_checkpoints" or (name.endswith(".ipynb") and full != path):
                skipped.append(name)
            elif full.is_symlink() or (full.is_file() and full.stat().st_size > SCRATCH_SKIP_BYTES):
                skipped.append(name)
        return skipped

    target = into / "work"
    shutil.copytree(path.parent, target, ignore=ignore, symlinks=True)
    copy = target / path.name
    if not copy.exists():
        shutil.copy2(path, copy)
    return copy


def run_notebook(
    path: str | os.PathLike,
    *,
    timeout: float = 300.0,
    kernel_name: str = "python3",
    regrade_timeout: float = REGRADE_TIMEOUT,
) -> list[Row]:
    """Run one student notebook in a scratch copy of its folder and return its rows (never raises for a broken notebook).

    Wall time at most: kernel start-up + ``timeout`` + :data:`INTERRUPT_GRACE` (a kernel ignoring SIGINT is
    killed then) + ``regrade_timeout`` (the grader's re-check, killed at its end too).
    """
    path = Path(path)
    name = path.name
    try:
        nb = nbformat.read(path, as_version=4)
    except Exception as exc:  # not a notebook at all
        return [Row(name, NOTEBOOK_ROW, False, f"could not read the notebook: {type(exc).__name__}: {exc}")]
    expected = expected_exercises(nb)
    with tempfile.TemporaryDirectory(prefix="tilelab-grade-") as scratch:
        try:
            copy = _scratch_copy(path, Path(scratch))
        except OSError as exc:
            return [Row(name, NOTEBOOK_ROW, False, f"could not copy the notebook's folder: {exc}")]
        found, problems = _execute(nb, copy.parent, timeout, kernel_name, regrade_timeout)
    return _rows(name, expected, found, problems)


def _execute(nb: Any, folder: Path, timeout: float, kernel_name: str, regrade_timeout: float) -> tuple[dict, list]:
    """Run the notebook, then the re-check; returns (results by exercise, problems)."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError, DeadKernelError
    from nbclient.util import run_sync

    deadline = [time.monotonic() + timeout]  # reset once the kernel is up: start-up is not the student's time
    problems: list[str] = []
    found: dict[str, dict] = {}
    tag = MARKER + secrets.token_hex(16) + ":"
    client = NotebookClient(
        nb,
        timeout=int(max(1, timeout)),
        timeout_func=lambda cell: max(1, int(deadline[0] - time.monotonic() + 0.999)),
        kernel_name=kernel_name,
        allow_errors=True,
        interrupt_on_timeout=False,
        resources={"metadata": {"path": str(folder)}},
    )
    watchdog = _Watchdog(client)
    try:
        with client.setup_kernel():
            deadline[0] = time.monotonic() + timeout
            watchdog.arm(timeout + INTERRUPT_GRACE)  # the hard stop, whatever a cell does with SIGINT
            timed_out = False
            try:
                for index, cell in enumerate(nb.cells):
                    if cell.cell_type == "code":
                        client.execute_cell(cell, index)
            except CellTimeoutError:
                timed_out = True
                problems.append(f"timed out after {timeout:g} s (the rest of the notebook did not run)")
                run_sync(client.km.interrupt_kernel)()
            error = _first_error(nb)
            if error:
                problems.insert(0, error)
            if timed_out:  # idle again within the grace? (a kernel ignoring SIGINT is killed by the watchdog)
                probe = nbformat.v4.new_code_cell("pass")
                nb.cells.append(probe)
                client.timeout_func = None
                client.timeout = max(1, int(deadline[0] + INTERRUPT_GRACE - time.monotonic()))
                try:
                    client.execute_cell(probe, len(nb.cells) - 1)
                except CellTimeoutError:  # still busy: SIGINT was ignored or caught, so stop it the hard way
                    watchdog.kill()
                    problems.append("the kernel did not stop when interrupted: killed with its process group")
                    return found, problems
            watchdog.arm(regrade_timeout + 1)
            report = nbformat.v4.new_code_cell(REGRADE_CELL.format(root=TRUSTED_ROOT, tag=tag))
            client.timeout_func = None
            client.timeout = int(max(1, regrade_timeout))
            nb.cells.append(report)  # nbclient stores outputs by cell index
            client.execute_cell(report, len(nb.cells) - 1)
            watchdog.disarm()
            text = "".join(o.get("text", "") for o in report.outputs
                           if o.get("output_type") == "stream" and o.get("name") == "stdout")
            errors = [o for o in report.outputs if o.get("output_type") == "error"]
            if errors:
                problems.append(f"could not check the answers again: {errors[0].get('ename')}: {errors[0].get('evalue')}")
            elif text:
                try:
                    for entry in _parse_report(text, tag):
                        found[str(entry["exercise"])] = entry
                except ValueError as exc:  # json.JSONDecodeError is a ValueError
                    problems.append(f"could not read the results: {exc}")
    except (CellTimeoutError, DeadKernelError) as exc:
        if watchdog.fired:
            problems.append("the kernel did not stop when interrupted: killed with its process group"
                            if not found else "the re-check ran out of time: killed")
        elif isinstance(exc, CellTimeoutError):
            problems.append("the kernel did not answer the grader (still busy after an interrupt)")
        else:
            problems.append("the kernel died")
    except Exception as exc:  # a kernel that would not start, a broken message: report, go on
        problems.append(f"could not run: {type(exc).__name__}: {exc}")
    finally:
        watchdog.disarm()
        if watchdog.fired and not any("killed" in p for p in problems):
            problems.append("the kernel did not stop when interrupted: killed with its process group")
    return found, problems


def _rows(name: str, expected: list[str], found: dict[str, dict], problems: list[str]) -> list[Row]:
    rows: list[Row] = []
    if problems:
        rows.append(Row(name, NOTEBOOK_ROW, False, "; ".join(problems)))
    for exercise in [*expected, *(e for e in found if e not in expected)]:
        if exercise in found:
            entry = found[exercise]
            own = entry.get("own") if isinstance(entry.get("own"), list) and len(entry["own"]) == 2 else [False, ""]
            passed = entry.get("passed") is True and own[0] is True  # both: the re-check cannot be fooled by
            message = str(entry.get("message", ""))                  # rebinding, the notebook's check sees more
            if entry.get("passed") is True and own[0] is not True:
                message = str(own[1]) or "the notebook's own check did not pass"
            elif own[0] is True and entry.get("passed") is not True:
                message += " (the notebook's own check said it passed; the grader's re-check did not)"
            rows.append(Row(name, exercise, passed, message))
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
    regrade_timeout: float = REGRADE_TIMEOUT,
) -> list[Row]:
    """Run every ``*.ipynb`` under ``folder`` (recursively) and write all rows to the CSV ``out``."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"{folder} is not a folder; pass the folder holding the students' notebooks")
    paths = sorted(p for p in folder.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    rows: list[Row] = []
    for path in paths:
        start = time.perf_counter()
        found = run_notebook(path, timeout=timeout, kernel_name=kernel_name, regrade_timeout=regrade_timeout)
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
