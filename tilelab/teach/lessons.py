"""Finding the lessons and reading their cell tags (shared by student editions, site and grading)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

SOLUTION_TAG = "solution"
EXERCISE_TAG = "exercise"
TEACHER_TAG = "teacher"  # notes for the teacher: removed from student editions
DEEPER_TAG = "deeper"  # "Going deeper (optional)": kept everywhere, styled as optional on the site


def default_notebook_dir() -> Path:
    """The lessons folder: ``./notebooks`` when it exists, else the one next to the package.

    >>> default_notebook_dir().name
    'notebooks'
    """
    here = Path.cwd() / "notebooks"
    if here.is_dir():
        return here
    return Path(__file__).resolve().parents[2] / "notebooks"


def lesson_paths(folder: str | os.PathLike | None = None) -> list[Path]:
    """Every ``*.ipynb`` in ``folder`` (default: the lessons), sorted by name; checkpoints skipped.

    >>> [p.name for p in lesson_paths()][0]
    '00_start_here.ipynb'
    """
    root = Path(folder) if folder is not None else default_notebook_dir()
    if not root.is_dir():
        raise ValueError(f"{root} is not a folder of notebooks; pass the folder that holds the .ipynb files")
    return sorted(p for p in root.glob("*.ipynb") if p.is_file())


def tags(cell: Any) -> list[str]:
    """The tags of a notebook cell (an empty list when it has none).

    >>> import nbformat
    >>> tags(nbformat.v4.new_code_cell("1", metadata={"tags": ["solution"]}))
    ['solution']
    """
    return list(cell.get("metadata", {}).get("tags", []))


def is_solution(cell: Any) -> bool:
    """True for a cell tagged ``solution`` (the convention: the tag, never a comment)."""
    return SOLUTION_TAG in tags(cell)


def untagged_solutions(nb: Any) -> list[int]:
    """Indices of code cells that start with ``# Solution`` but are not tagged ``solution``.

    >>> import nbformat
    >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("# Solution\\nx = 1")])
    >>> untagged_solutions(nb)
    [0]
    """
    return [
        i
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "code"
        and cell.source.lstrip().lower().startswith("# solution")
        and not is_solution(cell)
    ]


def collapse_solutions(nb: Any) -> int:
    """Collapse every ``solution`` cell (source and outputs hidden in JupyterLab); returns how many changed.

    The teacher edition keeps its solutions, folded away, so a solution's green "passed" never sits in
    plain view under the student's red "not yet".

    >>> import nbformat
    >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1", metadata={"tags": ["solution"]})])
    >>> collapse_solutions(nb), nb.cells[0].metadata["jupyter"]
    (1, {'source_hidden': True, 'outputs_hidden': True})
    >>> collapse_solutions(nb)
    0
    """
    changed = 0
    for cell in nb.cells:
        if is_solution(cell):
            view = cell.metadata.setdefault("jupyter", {})
            if not (view.get("source_hidden") and view.get("outputs_hidden")):
                view.update(source_hidden=True, outputs_hidden=True)
                changed += 1
    return changed
