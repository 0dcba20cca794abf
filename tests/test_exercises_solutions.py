"""Every lesson's own solution passes its check, and the exercise's starting code does not.

The solution cells (tagged ``solution``) and the exercise cells (tagged ``exercise``) of ``notebooks/*.ipynb`` run
here in-process, each in a fresh namespace holding only the earlier cells it needs (the cells that define a name
it uses, and theirs in turn): no plots, no boards, no games. The checks are the real ones, with the real watch: a
solution that calls a function its exercise does not allow fails here.
"""

from __future__ import annotations

import json
import symtable
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import tilelab.exercises
from tilelab.exercises import MESSAGE_LIMIT, Result, check, reset_results, results
from tilelab.game2048 import Board as Board2048
from tilelab.match3 import Board as BoardMatch3
from tilelab.sliding import Board

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
            _kind(result)


#: Words a first-year student has not been taught: a refusal never needs them.
UNTAUGHT = ("chi-square", "chi square", "chi2", "p-value", "p value", "degrees of freedom", "null hypothesis")


def _kind(result: Result) -> None:
    """A refusal of the starting code is short (never cut), plain, and draws a board it was wrong on."""
    assert len(result.message) < MESSAGE_LIMIT and not result.message.endswith("…"), result
    assert not any(word in result.message.lower() for word in UNTAUGHT), result
    if isinstance(result.counterexample, (Board2048, BoardMatch3, Board)):
        assert result.picture, result
    if isinstance(result.counterexample, tuple) and len(result.counterexample) > 1 and all(
            isinstance(row, tuple) for row in result.counterexample):  # a board given as its rows
        assert result.picture and "\n" in result.picture, result


def test_every_exercise_of_a_lesson_has_a_solution_here():
    checked = {(n, kind) for n, _, kind in CASES}
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        kinds = {kind for n, kind in checked if n == path.name}
        if kinds:
            assert kinds == {"solution", "exercise"}, path.name


# ---------------------------------------------------------------------------- any real number type
#: The exercises whose answers return numbers (or a dict of them); the 8-puzzle checks, all 181,440 boards each,
#: read numbers in one helper, so the quicker of the two stands for both.
NUMERIC = ("count_empty", "2048.row_score", "2048.spawn_outcomes", "2048ai.worst_spawn", "2048ai.monotonicity",
           "2048ai.merges", "sliding.inversions", "sliding.multi_moves", "sliding.even_share", "solvers.misplaced",
           "solvers.manhattan", "solvers.pattern_lookup", "match3.deal_probability", "2048learn.td_update")
TYPES = {"Fraction": Fraction, "Decimal": Decimal, "numpy": lambda v: np.int64(v) if v == int(v) else np.float64(v)}


def _answers() -> dict[str, tuple]:
    """Every solution cell's answer, by exercise, with the extra arguments its check was given."""
    out = {}

    def capture(name, answer, *args, **kwargs):
        out[name] = (answer, args, kwargs)
        return Result(name, True, "captured")

    for notebook, k, kind in CASES:
        if kind != "solution":
            continue
        cells = _cells(NOTEBOOKS / notebook)
        namespace: dict = {"__name__": "__main__"}
        for i in _needed(cells, k):
            exec(compile(cells[i][1], f"<{notebook} cell {i}>", "exec"), namespace)
        real, tilelab.exercises.check = tilelab.exercises.check, capture
        try:
            namespace["check"] = capture
            exec(compile(cells[k][1], f"<{notebook} cell {k}>", "exec"), namespace)
        finally:
            tilelab.exercises.check = real
    return out


@pytest.fixture(scope="module")
def answers():
    return _answers()


@pytest.mark.parametrize("name", NUMERIC)
def test_a_solution_passes_with_its_numbers_as_any_real_number_type(name, answers):
    """An honest answer may give its numbers as a Fraction, a Decimal or numpy's (issue 33: the 05b Fraction)."""
    answer, args, kwargs = answers[name]
    kinds = ["Fraction"] if name == "solvers.pattern_lookup" else list(TYPES)
    for kind in kinds:
        make, changed = TYPES[kind], []

        def convert(value):
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                changed.append(value)
                return make(value)
            if isinstance(value, dict):
                return {key: convert(v) for key, v in value.items()}
            return value

        def as_kind(*a, **k):
            return convert(answer(*a, **k))

        result = check(name, as_kind, *args, **kwargs)
        assert result and changed, (kind, result)


# ---------------------------------------------------------------------------- hidden cases
#: Solved exercises whose cases a hidden seed redraws (issue 42): a warm-up, the 2048 AI's game boards, the match-3
#: dead boards and deals, the A* search boards.
HIDDEN = ("count_empty", "2048ai.worst_spawn", "match3.is_dead", "match3.deal", "solvers.search")


@pytest.mark.parametrize("name", HIDDEN)
def test_a_solution_passes_on_cases_drawn_at_grading_time(name, answers):
    answer, args, kwargs = answers[name]
    with tilelab.exercises.hidden_cases(20261202):
        assert check(name, answer, *args, **kwargs).passed
