"""Every lesson's own solution passes its check, and the exercise's starting code does not.

The solution cells (tagged ``solution``) and the exercise cells (tagged ``exercise``) of ``notebooks/*.ipynb`` run
here in-process, each in a fresh namespace holding only the earlier cells it needs (the cells that define a name
it uses, and theirs in turn): no plots, no boards, no games. The checks are the real ones, with the real watch: a
solution that calls a function its exercise does not allow fails here.
"""

from __future__ import annotations

import json
import symtable
from pathlib import Path

import pytest

from tilelab.exercises import reset_results, results

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def _cells(path: Path) -> list[tuple[list[str], str]]:
    book = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for cell in book["cells"]:
        if cell["cell_type"] == "code":
            source = "".join(cell["source"])
            source = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))
            out.append((cell.get("metadata", {}).get("tags", []), source))
    return out


def _names(source: str) -> tuple[set[str], set[str]]:
    """(names the cell defines at top level, names it reads from outside itself)."""
    table = symtable.symtable(source, "<cell>", "exec")
    defined = {s.get_name() for s in table.get_symbols() if s.is_assigned() or s.is_imported()}
    free: set[str] = set()

    def walk(t: symtable.SymbolTable) -> None:
        for s in t.get_symbols():
            if s.is_referenced() and (s.is_global() if t.get_type() != "module" else True):
                free.add(s.get_name())
        for child in t.get_children():
            walk(child)

    walk(table)
    return defined, free - defined - set(dir(__builtins__) if isinstance(__builtins__, dict) else dir(__builtins__))


def _needed(cells: list[tuple[list[str], str]], k: int) -> list[int]:
    """Indices of the earlier cells that cell ``k`` needs (exercise cells excluded: they hold the stubs)."""
    _, need = _names(cells[k][1])
    chosen = []
    for i in range(k - 1, -1, -1):
        tags, source = cells[i]
        if "exercise" in tags:
            continue
        defined, free = _names(source)
        if defined & need:
            chosen.append(i)
            need = (need - defined) | free
    return sorted(chosen)


def _cases() -> list[tuple[str, int, str]]:
    out = []
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        for k, (tags, source) in enumerate(_cells(path)):
            if ("solution" in tags or "exercise" in tags) and "nbval-skip" not in tags and "check(" in source:
                out.append((path.name, k, "solution" if "solution" in tags else "exercise"))
    return out


CASES = _cases()


@pytest.mark.parametrize("notebook, k, kind", CASES, ids=[f"{n[:3].rstrip('_')}-{k}-{kind}" for n, k, kind in CASES])
def test_a_solution_passes_and_the_starting_code_does_not(notebook, k, kind, capsys):
    cells = _cells(NOTEBOOKS / notebook)
    namespace: dict = {"__name__": "__main__"}
    for i in _needed(cells, k):
        exec(compile(cells[i][1], f"<{notebook} cell {i}>", "exec"), namespace)
    reset_results()
    exec(compile(cells[k][1], f"<{notebook} cell {k}>", "exec"), namespace)
    checked = list(results().values())
    assert checked, "the cell checked nothing"
    for result in checked:
        if kind == "solution":
            assert result.passed, result
        else:
            assert not result.passed, result  # the starting code is a stub or a known bug


def test_every_exercise_of_a_lesson_has_a_solution_here():
    checked = {(n, kind) for n, _, kind in CASES}
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        kinds = {kind for n, kind in checked if n == path.name}
        if kinds:
            assert kinds == {"solution", "exercise"}, path.name
