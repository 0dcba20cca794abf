"""Each lesson's core path fits the time it states, and students' cells hold no asserts.

The pace model is the one fitted to careful first-year read-throughs of every lesson (a plain model, not a
measurement): dense technical prose at about 75 words a minute, about six lines of code a minute to read, run
and look at, a quarter of an hour for each exercise. Cells tagged ``solution`` are not read on the way (the
student editions drop them); cells tagged ``deeper`` are the optional path ("Going deeper (optional)") and do
not count against the stated time. Answers folded in ``<details>`` (a lesson's "Check yourself") are opened
after the student has answered, so only the questions count. A lesson states at most 60 minutes and its core path is at most 1.05 times
what it states.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
LESSONS = sorted(NOTEBOOKS.glob("[0-9]*.ipynb"))
WORDS_PER_MINUTE, LINES_PER_MINUTE, MINUTES_PER_EXERCISE = 75, 6, 15
MAX_RATIO = 1.05
MAX_STATED = 60  # minutes: a longer thread is split into two lessons
MAX_VISIBLE_ASSERTS = 2
HIDDEN = {"solution", "remove-cell", "remove-input", "hide-input", "hide-cell"}
WORD = re.compile(r"[A-Za-z0-9]+(?:['’][a-z]+)?")
FOLDED = re.compile(r"<details>.*?</details>", re.S)
TIME = re.compile(r"\*\*Time:\*\*\s*about\s+(\d+)(?:\s*[-–]\s*(\d+))?\s*min", re.I)


def _tags(cell: nbformat.NotebookNode) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def _code_lines(source: str) -> list[str]:
    return [line for line in source.splitlines() if line.strip() and not line.strip().startswith("#")]


def core_minutes(nb: nbformat.NotebookNode) -> tuple[float, int]:
    """(minutes on the core path, assert lines in cells a student sees)."""
    words = lines = exercises = asserts = 0
    for cell in nb.cells:
        tags = _tags(cell)
        if "solution" in tags:
            continue
        code = _code_lines(cell.source) if cell.cell_type == "code" else []
        if cell.cell_type == "code" and not tags & HIDDEN:
            asserts += sum(1 for line in code if re.match(r"\s*assert\b", line))
        if "deeper" in tags:
            continue
        if cell.cell_type == "markdown":
            words += len(WORD.findall(FOLDED.sub(" ", cell.source)))
        elif cell.cell_type == "code":
            lines += len(code)
            exercises += "exercise" in tags
    return words / WORDS_PER_MINUTE + lines / LINES_PER_MINUTE + MINUTES_PER_EXERCISE * exercises, asserts


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_core_path_fits_the_stated_time(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    match = TIME.search(nb.cells[0].source)
    assert match, f"{path.name}: the first cell states '**Time:** about N minutes'"
    stated = int(match.group(2) or match.group(1))
    assert stated <= MAX_STATED, f"{path.name} states {stated} min: split it into lessons of at most {MAX_STATED}"
    minutes, asserts = core_minutes(nb)
    assert minutes <= MAX_RATIO * stated, (
        f"{path.name}: the core path is about {minutes:.1f} min against {stated} stated: move a side road into a "
        "section tagged 'deeper', say it shorter, or split the lesson")
    assert asserts <= MAX_VISIBLE_ASSERTS, f"{path.name}: {asserts} assert lines in cells students see"


def test_core_minutes_follows_the_model() -> None:
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell(" ".join(["word"] * 150)),                       # 2 min
        nbformat.v4.new_code_cell("a = 1\n# a comment\n\nassert a == 1\nb = 2\nc = 3\nd = 4\ne = 5"),  # 6 lines: 1 min
        nbformat.v4.new_code_cell("x = 0", metadata={"tags": ["exercise"]}),           # 15 + 1/6 min
        nbformat.v4.new_code_cell("assert 1", metadata={"tags": ["solution"]}),        # not read
        nbformat.v4.new_markdown_cell("many words " * 500, metadata={"tags": ["deeper"]}),
    ])
    minutes, asserts = core_minutes(nb)
    assert minutes == pytest.approx(2 + 1 + 15 + 1 / 6) and asserts == 1
