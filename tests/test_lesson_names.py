"""A name the prose of a lesson puts in code (`board.tiles`, `ai.evaluate`) is one a student can type there:
bound by the lesson's own cells, a builtin, a module, or the name of an exercise. (A rename that reached the code
but not the prose left hints such as `puzzle.tiles` where the exercise's parameter is `board`.)"""

from __future__ import annotations

import ast
import builtins
import importlib.util
import re
from pathlib import Path

import nbformat
import pytest

from tilelab.exercises import list_exercises

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
LESSONS = sorted(NOTEBOOKS.glob("[0-9]*.ipynb"))
SPAN = re.compile(r"`([^`\n]+)`")
ATTRIBUTE = re.compile(r"(?<![\w./])([A-Za-z_]\w*)\.[A-Za-z_]")
FILE = re.compile(r"^[\w.-]+\.(h|hpp|c|cpp|cs|swift|java|js|py|json|ipynb|md|txt|csv|npz)$")  # a file named in prose
PRIMER = "## Python you will meet"  # 00's reference of Python idioms: its examples use names of their own


def bound_names(nb: nbformat.NotebookNode) -> set[str]:
    """Every name the notebook's code cells bind: assignments, functions, classes, parameters, imports."""
    names = set(dir(builtins))
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for node in ast.walk(ast.parse(cell.source)):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.alias):
                names.add((node.asname or node.name).split(".")[0])
    return names


def unknown_names(nb: nbformat.NotebookNode) -> list[tuple[int, str, str]]:
    """(cell, name, the code span) for every ``name.attribute`` in the prose that nothing above makes typeable."""
    known = bound_names(nb) | {name.split(".")[0] for name in list_exercises()}
    found = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown" or cell.source.startswith(PRIMER):
            continue
        for span in SPAN.findall(cell.source):
            if "/" in span or FILE.match(span):  # a file (benchmarks/bench_x.py, EightPuzzle.h), not Python
                continue
            for name in ATTRIBUTE.findall(span):
                if name not in known and importlib.util.find_spec(name) is None:
                    found.append((index, name, span))
    return found


def test_the_rule_finds_a_name_no_cell_binds() -> None:
    v4 = nbformat.v4
    nb = v4.new_notebook(cells=[v4.new_code_cell("def my_f(board):\n    return board.tiles"),
                                v4.new_markdown_cell("Hint: `puzzle.tiles` and `board.cols`, `np.arange`, "
                                                     "`benchmarks/bench.py`, `Board.h`, `sliding.inversions`.")])
    assert unknown_names(nb) == [(1, "puzzle", "puzzle.tiles"), (1, "np", "np.arange")]


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_every_name_in_a_lessons_prose_is_one_its_cells_define(path: Path) -> None:
    assert unknown_names(nbformat.read(path, as_version=4)) == []
