"""Finding the lessons and reading their cell tags (shared by student editions, site and grading)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
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
    found = sorted(p for p in root.glob("*.ipynb") if p.is_file())
    for path in found:
        try:
            path.name.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError(f"{os.fsencode(path)!r}: a lesson whose file name is not UTF-8 (it goes into links and "
                             "web pages); rename it") from None
    return found


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


# ---------------------------------------------------------------------------------- titles and summaries
@dataclass(frozen=True)
class Lesson:
    """A lesson as a page of a website: its file name, title, one-paragraph summary and path."""

    name: str
    title: str
    summary: str
    path: Path


def plain(markdown: str) -> str:
    """One line of markdown as plain text: links, images, code marks and emphasis dropped, ``A*`` kept.

    >>> plain("Searching: BFS, A*, IDA* and **heuristics**")
    'Searching: BFS, A*, IDA* and heuristics'
    >>> plain("*Run* the `00_start_here` lesson ([map](x.md)) > _first_")
    'Run the 00_start_here lesson (map) > first'
    """
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", markdown)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"`([^`]*)`", r"\1", text)
    for mark in (r"\*\*", "__", r"\*", "_"):  # emphasis: a mark that opens before a word and closes after one
        text = re.sub(rf"(?<![\w*]){mark}(?=\S)(.+?)(?<=\S){mark}(?![\w*])", r"\1", text)
    text = re.sub(r"^\s*(#+|>)\s*", "", text)
    return " ".join(text.split())


def describe(path: Path, nb: Any) -> Lesson:
    """Title (first ``#`` heading) and summary (first paragraph of 12 words or more after it) of a lesson.

    >>> import nbformat
    >>> text = ("# 4a · Search: BFS, A*, IDA*\\n\\n**Time:** about 60 minutes, with the exercises and the boards\\n\\n"
    ...         "- slide\\n\\nHow *tiles* slide and merge when you swipe a 2048 board to the left.")
    >>> lesson = describe(Path("04a.ipynb"), nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(text)]))
    >>> lesson.title, lesson.summary
    ('4a · Search: BFS, A*, IDA*', 'How tiles slide and merge when you swipe a 2048 board to the left.')
    """
    default = path.stem.replace("_", " ")
    title, summary = default, ""
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        lines = cell.source.strip().splitlines()
        if title == default and lines and lines[0].startswith("# "):
            title = plain(lines[0][2:])
            lines = lines[1:]
        for block in "\n".join(lines).strip().split("\n\n"):
            if re.match(r"\s*([-*+]|\d+\.|\||#)\s", block) or re.match(r"\s*\*\*[^*]{1,40}:\*\*", block):
                continue  # a list (the goals), a table, a heading or a labelled line (Time:, You need:)
            paragraph = plain(block)
            if len(paragraph.split()) >= 12:
                summary = paragraph if len(paragraph) <= 300 else paragraph[:297].rsplit(" ", 1)[0] + " ..."
                return Lesson(path.stem, title, summary, path)
    return Lesson(path.stem, title, summary, path)


def minutes(nb: Any) -> str | None:
    """The lesson's ``**Time:** about N minutes`` from its first cell, as ``"N"`` (or ``"N-M"``), else None.

    >>> import nbformat
    >>> minutes(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("**Time:** about 45 minutes")]))
    '45'
    """
    if not nb.cells:
        return None
    found = re.search(r"\*\*Time:\*\*\s*about\s+(\d+)(?:\s*[-–]\s*(\d+))?\s*min", nb.cells[0].source, re.I)
    return "-".join(g for g in found.groups() if g) if found else None


def readme_lessons(readme: str | os.PathLike) -> dict[str, str]:
    """``{lesson: what students learn}`` from the README's lesson table (an empty dict without a README).

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "README.md"
    >>> _ = path.write_text("| [`01a_x`](notebooks/01a_x.ipynb) | slide and *merge* | 60 min |\\n")
    >>> readme_lessons(path)
    {'01a_x': 'slide and merge'}
    """
    path = Path(readme)
    if not path.is_file():
        return {}
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = re.match(r"^\|\s*\[`?([\w-]+)`?\]\((?:notebooks/)?\1\.ipynb\)\s*\|(.*)\|[^|]*\|\s*$", line)
        if row:
            found[row.group(1)] = plain(row.group(2).strip())
    return found
