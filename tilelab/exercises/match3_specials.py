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
from tilelab.exercises.allow import NUMPY, Kit
from tilelab.match3.special_board import COL, ROW, SPECIAL_NAMES, SpecialBoard
from tilelab.match3.special_rules import combo_cells

#: The answers are plain Python (cells and names): numpy is fine, tilelab's rules (``combo_cells``,
#: ``play`` on a SpecialBoard, ``special_for``, this module's references) are not.
ALLOW = (NUMPY, Kit("SpecialBoard (build it, read it) and most_common_colour, as in the lesson's blast()", (
    "tilelab.match3.special_board:SpecialBoard[rows cols cells on_board is_full picture parse from_board trusted "
    "special special_code special_cells colours to_arrays from_arrays]",
    "tilelab.match3.special_rules:most_common_colour",
)))

SIZES = [(3, 3), (4, 6), (6, 4), (8, 8), (9, 7), (1, 5), (5, 1), (2, 2)]


def reference_striped_wrapped(rows: int, cols: int, centre: tuple[int, int]) -> set:
    """The package's answer: the striped + wrapped blast on an empty ``rows x cols`` board."""
    board = SpecialBoard(((0,) * cols,) * rows, ((0,) * cols,) * rows, 3)
    return set(combo_cells(board, "striped+wrapped", centre, centre)[0])


@checker("match3_specials.striped_wrapped", allow=ALLOW, job=("tilelab.match3.special_rules:combo_cells",))
def check_striped_wrapped(answer: Callable[[int, int, tuple], Any]) -> Result:
    """``answer(rows, cols, centre)`` must give exactly the cells striped + wrapped clears."""
    name = "match3_specials.striped_wrapped"
    cases = [(r, c, (i, j)) for r, c in SIZES for i in range(r) for j in range(c)]
    for rows, cols, centre in cases:
        want = reference_striped_wrapped(rows, cols, centre)
        try:
            got = {tuple(x) for x in answer(rows, cols, centre)}
        except Exception as exc:  # noqa: BLE001 - reported with its case
            return Result(name, False, f"on a {rows}x{cols} board, centre {centre}: your code raised "
                          f"{type(exc).__name__}: {exc}", (rows, cols, centre), reason="raised")
        if got != want:
            picture = blast_picture(rows, cols, centre, got, want)
            at = " (the @)" if "@" in picture else ""
            return Result(name, False, f"on a {rows}x{cols} board with the swap at {centre}{at}: # is cleared by "
                          "both, - you left out, x you added", (rows, cols, centre), picture)
    return Result(name, True, f"passed on all {len(cases)} cases")


def blast_picture(rows: int, cols: int, centre: tuple, got: set, want: set) -> str:
    """The board with the centre ``@``, cells cleared by both ``#``, missed ``-``, extra ``x``, the rest ``.``.

    >>> print(blast_picture(2, 3, (0, 0), {(0, 0), (0, 1), (1, 2)}, {(0, 0), (0, 1), (1, 0)}))
    @ # .
    - . x
    """
    def mark(cell: tuple) -> str:
        if cell == tuple(centre) and cell in got and cell in want:
            return "@"
        return {(True, True): "#", (False, True): "-", (True, False): "x"}.get((cell in got, cell in want), ".")

    lines = [" ".join(mark((r, c)) for c in range(cols)) for r in range(rows)]
    extra = sorted(c for c in got if not (isinstance(c, tuple) and len(c) == 2 and 0 <= c[0] < rows and 0 <= c[1] < cols))
    return "\n".join(lines) + (f"\nand off the board: {extra[:4]}" if extra else "")


def reference_made_by(shape: str, swipe: str | None) -> str:
    """The package's rule (see :mod:`tilelab.match3.special_rules`)."""
    if shape.startswith("line3"):
        return SPECIAL_NAMES[0]
    if shape.startswith("line5"):
        return "colour-bomb"
    if shape.startswith("line4"):
        if swipe is not None:
            return SPECIAL_NAMES[ROW if swipe == "row" else COL]
        return SPECIAL_NAMES[COL if shape.endswith("row") else ROW]
    return "wrapped"


@checker("match3_specials.made_by", allow=ALLOW, job=("tilelab.match3.special_rules:special_for",))
def check_made_by(answer: Callable[[str, str | None], str]) -> Result:
    """``answer(shape, swipe)`` must name the special a group of that shape makes."""
    shapes = [f"line{n}-{d}" for n in (3, 4, 5) for d in ("row", "col")] + ["L", "T", "cross"]
    cases = [(shape, swipe) for shape in shapes for swipe in ("row", "col", None)]
    return first_counterexample("match3_specials.made_by", answer, reference_made_by, cases, star=True)
