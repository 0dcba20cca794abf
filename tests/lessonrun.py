"""Run a lesson notebook in a fresh kernel and read values back: the guard for the numbers its prose states.

Lessons keep hard-coded expected numbers out of the cells students see. Instead a test runs the lesson
(``run_lesson``), fetches the values the prose quotes, and compares them with the prose (``prose``):

    ran = run_lesson("03a_sliding_parity", fetch=["len(states)"])
    assert ran["len(states)"] == 181_440 and "181,440" in prose("03a_sliding_parity")

``overrides`` explores: it is run right after the cell tagged ``parameters`` (the lesson's demonstration
seeds and sizes), so ``run_lesson(stem, overrides={"SEED": 7})`` is what a student changing the seed meets.
Each (lesson, overrides) pair runs once per test session; runs are cached.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any, Mapping, Sequence

import nbformat

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
PARAMETERS_TAG = "parameters"
_CACHE: dict[tuple, "Ran"] = {}
_MARK = "__tilelab_fetch__"


class LessonError(AssertionError):
    """A lesson cell raised: the message shows the cell and the error."""


class Ran(dict):
    """Fetched values by expression, plus the executed notebook (``.notebook``) and ``.seconds``."""

    notebook: nbformat.NotebookNode
    seconds: float


def lesson_path(stem: str) -> Path:
    """The notebook for ``stem`` (a full stem such as ``03a_sliding_parity`` or a prefix such as ``03a``)."""
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
    stem: str,
    *,
    overrides: Mapping[str, Any] | str | None = None,
    fetch: Sequence[str] = (),
    timeout: int = 600,
) -> Ran:
    """Run the lesson top to bottom (with ``overrides`` after its ``parameters`` cell) and fetch values.

    Each expression in ``fetch`` is evaluated in the lesson's namespace at the end and must give a
    JSON value (tuples come back as lists). Raises :class:`LessonError` naming the cell that raised.
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
    nb = nbformat.read(path, as_version=4)
    if overrides:
        at = [i for i, c in enumerate(nb.cells) if PARAMETERS_TAG in tags(c)]
        if not at:
            raise ValueError(f"{path.name} has no cell tagged {PARAMETERS_TAG!r} to override")
        nb.cells.insert(at[0] + 1, nbformat.v4.new_code_cell(_override_source(overrides)))
    nb.cells.append(nbformat.v4.new_code_cell(
        "import json as _json\n"
        f"_exprs = {json.dumps(wanted)}\n"
        f"print({_MARK!r} + _json.dumps({{e: eval(e) for e in _exprs}}, default=repr))"
    ))
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
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
    ran.notebook, ran.seconds = nb, seconds
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
