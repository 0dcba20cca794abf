"""Run a lesson notebook in a fresh kernel and read values back: the guard for the numbers its prose states.

Lessons keep hard-coded expected numbers out of the cells students see. Instead a test runs the lesson
(``run_lesson``), fetches the values the prose quotes, and compares them with the prose (``prose``):

    ran = run_lesson("03a_sliding_parity", fetch=["len(states)"])
    assert ran["len(states)"] == 181_440 and "181,440" in prose("03a_sliding_parity")

``overrides`` explores: it is run right after the cell tagged ``parameters`` (the lesson's demonstration
seeds and sizes), so ``run_lesson(stem, overrides={"SEED": 7})`` is what a student changing the seed meets.
Each (lesson, overrides) pair runs once per test session; runs are cached.

Every run also records the kernel's peak resident memory (``ran.peak_mib``, Linux's VmHWM of the kernel process),
and a run at the lesson's own settings must stay within :data:`KERNEL_BUDGET_MIB`, the memory a class's hub gives
each student's kernel (docs/hub.md): every lesson test checks it, on the run it makes anyway. As on a hub, the
caches are built first (``python -m tilelab.warm``, once per test session, one process at a time): a kernel that
compiles numba code or builds a pattern database holds far more while it does.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Mapping, Sequence

import nbformat

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
PARAMETERS_TAG = "parameters"
_CACHE: dict[tuple, "Ran"] = {}
_MARK = "__tilelab_fetch__"
KERNEL_BUDGET_MIB = 400  #: the most a lesson's kernel may hold at once, run top to bottom (docs/hub.md)
_PEAK = "__kernel_peak_mib__"
# the kernel's high-water mark of resident memory: VmHWM on Linux, else getrusage (KiB on Linux, bytes on macOS)
_PEAK_SOURCE = """
def _tilelab_peak_mib():
    try:
        with open("/proc/self/status") as status:
            return next(int(l.split()[1]) for l in status if l.startswith("VmHWM:")) / 1024
    except (OSError, StopIteration):
        import resource, sys
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / 2**20 if sys.platform == "darwin" else peak / 1024
"""


_warmed = False


def warm_caches() -> None:
    """``python -m tilelab.warm`` once per process (and one process at a time: the first builds, the others find)."""
    global _warmed
    if _warmed:
        return
    lock = Path(tempfile.gettempdir()) / f"tilelab-warm-{os.getuid() if hasattr(os, 'getuid') else 0}.lock"
    with open(lock, "w") as handle:
        try:
            import fcntl

            fcntl.flock(handle, fcntl.LOCK_EX)
        except ImportError:  # not a Unix: no lock, each process warms on its own
            pass
        done = subprocess.run([sys.executable, "-m", "tilelab.warm"], capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        raise LessonError(f"python -m tilelab.warm failed:\n{(done.stdout + done.stderr)[-2000:]}")
    _warmed = True


class LessonError(AssertionError):
    """A lesson cell raised: the message shows the cell and the error."""


class Ran(dict):
    """Fetched values by expression, plus the executed notebook (``.notebook``), ``.seconds`` and the kernel's
    peak resident memory in MiB (``.peak_mib``)."""

    notebook: nbformat.NotebookNode
    seconds: float
    peak_mib: float


def lesson_path(stem: str | Path) -> Path:
    """The notebook for ``stem`` (a full stem such as ``03a_sliding_parity``, a prefix such as ``03a``, or a path)."""
    if isinstance(stem, Path):
        return stem
    exact = NOTEBOOKS / f"{stem}.ipynb"
    if exact.exists():
        return exact
    found = sorted(NOTEBOOKS.glob(f"{stem}*.ipynb"))
    if len(found) != 1:
        raise ValueError(f"no single lesson matches {stem!r}: {[p.name for p in found]}")
    return found[0]


def prose(stem: str) -> str:
    """Every markdown cell of the lesson, joined (to check that a stated number is really stated)."""
    nb = nbformat.read(lesson_path(stem), as_version=4)
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


def tags(cell: Mapping[str, Any]) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def _override_source(overrides: Mapping[str, Any] | str) -> str:
    if isinstance(overrides, str):
        return overrides
    return "\n".join(f"{name} = {value!r}" for name, value in overrides.items())


def run_lesson(
    stem: str | Path,
    *,
    overrides: Mapping[str, Any] | str | None = None,
    fetch: Sequence[str] = (),
    timeout: int = 600,
    warm: bool = True,
) -> Ran:
    """Run the lesson top to bottom (with ``overrides`` after its ``parameters`` cell) and fetch values.

    Each expression in ``fetch`` is evaluated in the lesson's namespace at the end and must give a
    JSON value (tuples come back as lists). Raises :class:`LessonError` naming the cell that raised, or the
    kernel's peak memory when it passes the budget. ``warm=False`` skips building the caches first.
    """
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    path = lesson_path(stem)
    key = (path.name, _override_source(overrides) if overrides else None)
    cached = _CACHE.get(key)
    if cached is not None and all(expr in cached for expr in fetch):
        return cached
    # fetch everything any test asked of this run so far, so one run serves them all
    wanted = list(dict.fromkeys([*(cached or {}), *fetch]))
    if warm:
        warm_caches()
    nb = nbformat.read(path, as_version=4)
    if overrides:
        at = [i for i, c in enumerate(nb.cells) if PARAMETERS_TAG in tags(c)]
        if not at:
            raise ValueError(f"{path.name} has no cell tagged {PARAMETERS_TAG!r} to override")
        nb.cells.insert(at[0] + 1, nbformat.v4.new_code_cell(_override_source(overrides)))
    nb.cells.append(nbformat.v4.new_code_cell(
        "import json as _json\n"
        f"{_PEAK_SOURCE}\n"
        f"_exprs = {json.dumps(wanted)}\n"
        f"print({_MARK!r} + _json.dumps({{**{{e: eval(e) for e in _exprs}}, {_PEAK!r}: _tilelab_peak_mib()}}, "
        "default=repr))"
    ))
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    start = time.perf_counter()
    try:
        client.execute()
    except CellExecutionError as exc:
        raise LessonError(f"{path.name}{' with ' + key[1] if key[1] else ''}: {exc}") from None
    seconds = time.perf_counter() - start
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.get("output_type") == "stream")
    match = re.search(re.escape(_MARK) + r"(.*)", text)
    if not match:
        raise LessonError(f"{path.name}: the fetch cell printed nothing: {text[-500:]!r}")
    ran = Ran(json.loads(match.group(1)))
    ran.notebook, ran.seconds, ran.peak_mib = nb, seconds, ran.pop(_PEAK)
    if not overrides and ran.peak_mib > KERNEL_BUDGET_MIB:
        raise LessonError(f"{path.name}: its kernel peaked at {ran.peak_mib:.0f} MiB resident, over the "
                          f"{KERNEL_BUDGET_MIB} MiB a class's hub gives each student's kernel (docs/hub.md)")
    _CACHE[key] = ran
    return ran


def errors(nb: nbformat.NotebookNode) -> list[str]:
    """One line for every cell of an executed notebook that has an error output."""
    out = []
    for i, cell in enumerate(nb.cells):
        for o in cell.get("outputs", []):
            if o.get("output_type") == "error":
                out.append(f"cell {i}: {o.get('ename')}: {o.get('evalue')}")
    return out


def exercise_outputs(nb: nbformat.NotebookNode) -> list[str]:
    """The text each exercise cell showed (its check result), in order."""
    out = []
    for cell in nb.cells:
        if cell.cell_type == "code" and "exercise" in tags(cell):
            texts = []
            for o in cell.get("outputs", []):
                texts.append(o.get("text", "") or "".join(o.get("data", {}).get("text/plain", "")))
            out.append("".join(texts))
    return out


def check_exercises(nb: nbformat.NotebookNode) -> None:
    """Assert that every exercise cell showed a refusal (its starting code) and every solution cell a pass."""
    shown = exercise_outputs(nb)
    assert shown and all("[NOT YET]" in text for text in shown), shown
    solutions = ["".join(o.get("text", "") or "".join(o.get("data", {}).get("text/plain", "")) for o in c.outputs)
                 for c in nb.cells if c.cell_type == "code" and "solution" in tags(c)]
    assert solutions and all("[PASSED]" in text for text in solutions), solutions


def warnings_shown(nb: nbformat.NotebookNode) -> list[str]:
    """One line for every warning an executed notebook printed (an older name's DeprecationWarning, say)."""
    return [f"cell {i}: {line.strip()}" for i, cell in enumerate(nb.cells) for o in cell.get("outputs", [])
            if o.get("output_type") == "stream" and o.get("name") == "stderr"
            for line in o.get("text", "").splitlines() if "Warning" in line]
