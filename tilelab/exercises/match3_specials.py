"""Checkers for lesson 05c (match-3 special candies).

- ``"match3_specials.striped_wrapped"``: ``answer(rows, cols, centre) -> cells``: every cell a
  striped + wrapped combination swapped into ``centre`` clears (three rows and three columns
  through it, cut off at the board's edges). Checked on every centre of many board sizes.
- ``"match3_specials.made_by"``: ``answer(shape, swipe) -> str``: which special a group makes:
  "plain", "striped-row", "striped-col", "wrapped" or "colour-bomb"; ``shape`` is one of
  line3/line4/line5/L/T/cross plus, for a line, its direction ("line4-row" is a horizontal line
  of four); ``swipe`` is "row" (sideways swap), "col" (up/down swap) or None (a cascade match).

An answer that calls the package's rules (or this module's references) does not pass; tilelab's
own tests use :func:`tilelab.exercises.allow_package_calls`:

>>> from tilelab.exercises import allow_package_calls, check
>>> check("match3_specials.striped_wrapped", lambda rows, cols, centre: set()).passed
False
>>> check("match3_specials.made_by", reference_made_by).passed
False
>>> with allow_package_calls():
...     check("match3_specials.made_by", reference_made_by).passed
True
"""

from __future__ import annotations

from typing import Any, Callable

from tilelab.exercises import Result, checker, first_counterexample
from tilelab.match3.special_board import COL, ROW, SPECIAL_NAMES, SpecialBoard
from tilelab.match3.special_rules import combo_cells

_BLAST = ("tilelab.match3.special_rules:combo_cells", "tilelab.match3.special_rules:blast_cells",
          "tilelab.match3.special_rules:swap_specials", "tilelab.match3.special_rules:resolve_specials",
          "tilelab.match3.special_rules:special_step", "tilelab.match3.specials_fast:swap_specials_fast",
          "tilelab.exercises.match3_specials:reference_striped_wrapped")
_MADE_BY = ("tilelab.match3.special_rules:special_for", "tilelab.match3.special_rules:swap_specials",
            "tilelab.match3.special_rules:resolve_specials", "tilelab.match3.special_rules:special_step",
            "tilelab.exercises.match3_specials:reference_made_by")

SIZES = [(3, 3), (4, 6), (6, 4), (8, 8), (9, 7), (1, 5), (5, 1), (2, 2)]


def reference_striped_wrapped(rows: int, cols: int, centre: tuple[int, int]) -> set:
    """The package's answer: the striped + wrapped blast on an empty ``rows x cols`` board."""
    board = SpecialBoard(((0,) * cols,) * rows, ((0,) * cols,) * rows, 3)
    return set(combo_cells(board, "striped+wrapped", centre, centre)[0])


@checker("match3_specials.striped_wrapped", forbid=_BLAST)
def check_striped_wrapped(answer: Callable[[int, int, tuple], Any]) -> Result:
    """``answer(rows, cols, centre)`` must give exactly the cells striped + wrapped clears."""
    cases = [(r, c, (i, j)) for r, c in SIZES for i in range(r) for j in range(c)]
    student = lambda rows, cols, centre: {tuple(x) for x in answer(rows, cols, centre)}  # noqa: E731
    return first_counterexample("match3_specials.striped_wrapped", student, reference_striped_wrapped, cases,
                                star=True)


def reference_made_by(shape: str, swipe: str | None) -> str:
    """The package's rule (see :mod:`tilelab.match3.specials`)."""
    if shape.startswith("line3"):
        return SPECIAL_NAMES[0]
    if shape.startswith("line5"):
        return "colour-bomb"
    if shape.startswith("line4"):
        if swipe is not None:
            return SPECIAL_NAMES[ROW if swipe == "row" else COL]
        return SPECIAL_NAMES[COL if shape.endswith("row") else ROW]
    return "wrapped"


@checker("match3_specials.made_by", forbid=_MADE_BY)
def check_made_by(answer: Callable[[str, str | None], str]) -> Result:
    """``answer(shape, swipe)`` must name the special a group of that shape makes."""
    shapes = [f"line{n}-{d}" for n in (3, 4, 5) for d in ("row", "col")] + ["L", "T", "cross"]
    cases = [(shape, swipe) for shape in shapes for swipe in ("row", "col", None)]
    return first_counterexample("match3_specials.made_by", answer, reference_made_by, cases, star=True)
