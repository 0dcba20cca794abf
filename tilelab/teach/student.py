"""Student editions: every lesson without its solution cells, exercise outputs cleared.

Built with nbconvert's own :class:`~nbconvert.preprocessors.TagRemovePreprocessor`: cells tagged
``solution`` are removed, cells tagged ``exercise`` lose their outputs (and execution count);
everything else -- prose, pictures, stored outputs, widget state -- is kept.
"""

from __future__ import annotations

import copy
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import nbformat
from nbconvert.preprocessors import TagRemovePreprocessor

from tilelab.teach.lessons import (
    EXERCISE_TAG,
    SOLUTION_TAG,
    TEACHER_TAG,
    default_notebook_dir,
    lesson_paths,
    untagged_solutions,
)

README = """# tilelab: student edition

These are the tilelab lessons without their solutions. Each exercise cell runs as it is and its
checker answers "not yet" until your code is right. The notebooks need the `tilelab` package
(`pip install tilelab` or the course's `make lab`). Your teacher may collect results with
`python -m tilelab.teach grade`.
"""


def student_edition(nb: Any) -> Any:
    """Return ``nb`` without ``solution`` cells and with the outputs of ``exercise`` cells cleared.

    >>> import nbformat
    >>> v4 = nbformat.v4
    >>> nb = v4.new_notebook(cells=[
    ...     v4.new_code_cell("stub()", metadata={"tags": ["exercise"]},
    ...                      outputs=[v4.new_output("stream", text="not yet")], execution_count=3),
    ...     v4.new_code_cell("answer()", metadata={"tags": ["solution"]})])
    >>> out = student_edition(nb)
    >>> [c.source for c in out.cells], out.cells[0].outputs, out.cells[0].execution_count
    (['stub()'], [], None)
    """
    nb = nbformat.from_dict(copy.deepcopy(nb))  # never change the teacher edition
    pre = TagRemovePreprocessor(remove_cell_tags={SOLUTION_TAG, TEACHER_TAG}, remove_all_outputs_tags={EXERCISE_TAG})
    nb, _ = pre.preprocess(nb, {})
    return nb


def build_student_editions(
    out: str | os.PathLike, notebooks: str | os.PathLike | None = None, *, quiet: bool = False
) -> list[Path]:
    """Write the student edition of every lesson in ``notebooks`` into ``out``; return the paths."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for path in lesson_paths(notebooks):
        nb = nbformat.read(path, as_version=4)
        suspicious = untagged_solutions(nb)
        if suspicious:
            print(
                f"warning: {path.name}: code cells {suspicious} start with '# Solution' but are not tagged "
                f"'{SOLUTION_TAG}'; they stay in the student edition (tag them to remove them)",
                file=sys.stderr,
            )
        student = student_edition(nb)
        target = out / path.name
        nbformat.write(student, target)
        written.append(target)
        if not quiet:
            removed = len(nb.cells) - len(student.cells)
            print(f"{target}: {removed} solution cell(s) removed")
    (out / "README.md").write_text(README, encoding="utf-8")
    copied = copy_saved_results(Path(notebooks) if notebooks is not None else default_notebook_dir(), out)
    if not quiet and copied:
        print(f"{out / 'benchmarks' / 'results'}: {len(copied)} saved benchmark file(s) the lessons plot")
    return written


def copy_saved_results(notebooks: Path, out: Path) -> list[Path]:
    """Copy the repository's saved benchmark results (``*.json``) into ``out/benchmarks/results``.

    The lessons find them there through :func:`tilelab.results.results_dir` (they search the working
    directory and its parents), so a student edition handed out as a folder plots the same data.
    """
    source = Path(notebooks).resolve().parent / "benchmarks" / "results"
    if not source.is_dir():
        return []
    target = out / "benchmarks" / "results"
    target.mkdir(parents=True, exist_ok=True)
    copied = []
    for path in sorted(source.glob("*.json")):
        shutil.copy2(path, target / path.name)
        copied.append(target / path.name)
    return copied
