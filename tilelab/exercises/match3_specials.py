"""Checkers for lesson 05c (match-3 special candies).

- ``"match3_specials.striped_wrapped"``: ``answer(rows, cols, centre) -> cells``: every cell a
  striped + wrapped combination swapped into ``centre`` clears (three rows and three columns
  through it, cut off at the board's edges). Checked on every centre of many board sizes.
- ``"match3_specials.chain"``: ``answer(board, start) -> (order, cleared)``: the chain reaction of lesson 05c's
  section 4. The specials at the cells ``start`` go off, and every special a blast covers goes off in its turn,
  once, through a queue: ``order`` lists the cells that went off, ``cleared`` is every cell some blast covered
  (a blast is :func:`~tilelab.match3.special_rules.blast_cells`, which the lesson's ``blast()`` rewrites). The
  specials go off wave by wave, as a queue fires them (breadth first): a special caught in a later wave never goes
  off before one caught earlier, though within a wave any order passes (a blast's cells are a set). A stack
  (depth first) clears the same cells in another order, and does not pass. Checked on seeded boards from 1x3 to
  7x7 and a board where the two orders differ, smallest first.
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
...     check("match3_specials.made_by", reference_made_by).passed, check("match3_specials.chain", reference_chain).passed
(True, True)
"""

from __future__ import annotations

import random
from typing import Any, Callable

from tilelab.exercises import Result, checker, first_counterexample
from tilelab.exercises.allow import NUMPY, Kit
from tilelab.match3.special_board import BOMB, COL, NONE, PRIMED, ROW, SPECIAL_NAMES, WRAPPED, SpecialBoard
from tilelab.match3.special_rules import blast_cells, combo_cells

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


# ---------------------------------------------------------------------------------- the chain reaction
#: The chain may blast with the lesson's own ``blast()`` or with the package's ``blast_cells`` (the blast is
#: section 2's job, shown there); running a cascade step (``play``, ``special_step``) does the chain's job.
CHAIN_ALLOW = (*ALLOW, Kit("blast_cells, the package's blast (section 2 shows it is the lesson's blast())",
                           ("tilelab.match3.special_rules:blast_cells",)))
CHAIN_SEED = 505
CHAIN_SIZES = [(1, 3), (2, 3), (3, 3), (3, 4), (4, 4), (4, 5), (5, 5), (6, 6), (7, 7)]
CHAIN_BOARDS = 30  #: random boards per size
_MARK = {NONE: "", ROW: "-", COL: "|", WRAPPED: "+", PRIMED: "@"}


def chain_waves(board: SpecialBoard, start: list) -> dict:
    """The reference chain, breadth first: ``{cell: wave}`` for every special that goes off (start: wave 0), in queue
    order."""
    wave = {cell: 0 for cell in start}
    queue = list(start)
    while queue:
        cell = queue.pop(0)
        for other in sorted(blast_cells(board, cell, board.special_code(cell))):
            if other not in wave and board.special_code(other) != NONE:
                wave[other] = wave[cell] + 1
                queue.append(other)
    return wave


def reference_chain(board: SpecialBoard, start: list) -> tuple[list, set]:
    """(the cells that go off, in queue order; every cell their blasts cover)."""
    order = list(chain_waves(board, start))
    return order, _blasted(board, order)


def _blasted(board: SpecialBoard, order: list) -> set:
    """Every cell the blasts of the specials at ``order`` cover."""
    return set().union(*(blast_cells(board, cell, board.special_code(cell)) for cell in order))


def _chain_boards() -> list[tuple[SpecialBoard, list]]:
    """Seeded boards with a few specials each and the specials that go off first, smallest boards first."""
    rng = random.Random(CHAIN_SEED)
    cases = []
    for rows, cols in CHAIN_SIZES:
        for _ in range(CHAIN_BOARDS):
            tokens = []
            for _ in range(rows * cols):
                kind, roll = str(rng.randrange(4)), rng.random()
                tokens.append("*" if roll < 0.04 else kind + ("-" if roll < 0.14 else "|" if roll < 0.24 else
                                                              "+" if roll < 0.32 else "@" if roll < 0.35 else ""))
            board = SpecialBoard.parse("\n".join(" ".join(tokens[r * cols:(r + 1) * cols]) for r in range(rows)),
                                       kinds=4)
            specials = sorted(board.special_cells())
            if specials:
                cases.append((board, sorted(rng.sample(specials, min(len(specials), rng.choice((1, 1, 2)))))))
    # the row-striped candy at (0, 0) catches two column-striped ones; the second catches a fourth special: a queue
    # fires (0, 2) before (3, 4), a stack fires (3, 4) first
    cases.append((SpecialBoard.parse("0- 1 2| 3 0|\n1 2 3 0 1\n2 3 0 1 2\n3 0 1 2 3-\n0 1 2 3 0", kinds=4),
                  [(0, 0)]))
    cases.sort(key=lambda c: (c[0].rows * c[0].cols, len(chain_waves(*c))))
    return cases


def board_picture(board: SpecialBoard, start: list) -> str:
    """The board, one candy a column (``0-`` row-striped, ``0|`` column-striped, ``0+`` wrapped, ``0@`` primed,
    ``*`` colour bomb), the specials that go off first in brackets.

    >>> print(board_picture(SpecialBoard.parse("0 1- *\\n1 2 0+"), [(0, 1)]))
     0   [1-]  *
     1    2    0+
    """
    def token(cell: tuple) -> str:
        code = board.special_code(cell)
        text = "*" if code == BOMB else f"{board[cell]}{_MARK[code]}"
        return f"[{text}]" if cell in start else f" {text} "

    return "\n".join("".join(token((r, c)).ljust(5) for c in range(board.cols)).rstrip() for r in range(board.rows))


def _before_caught(board: SpecialBoard, start: list, order: list) -> tuple | None:
    """The first cell of ``order`` that goes off before a blast earlier in ``order`` covers it (start cells excepted)."""
    covered = set(start)
    for cell in order:
        if cell not in covered:
            return cell
        covered |= blast_cells(board, cell, board.special_code(cell))
    return None


def _cleared_picture(board: SpecialBoard, got: set, want: set) -> str:
    rows = [" ".join({(True, True): "#", (False, True): "-", (True, False): "x"}.get(
        ((r, c) in got, (r, c) in want), ".") for c in range(board.cols)) for r in range(board.rows)]
    return "\n".join(rows)


@checker("match3_specials.chain", allow=CHAIN_ALLOW,
         job=("tilelab.match3.special_rules:special_step", "tilelab.match3.special_rules:resolve_specials",
              "tilelab.match3.special_rules:swap_specials"))
def check_chain(answer: Callable[[SpecialBoard, list], Any]) -> Result:
    """``answer(board, start)`` must fire every special the chain reaches, once, and clear their blasts."""
    name = "match3_specials.chain"
    cases = _chain_boards()
    for board, start in cases:
        waves = chain_waves(board, start)  # the reference: its queue order, and each cell's wave
        want_order = list(waves)
        want_cleared = _blasted(board, want_order)
        shown = board_picture(board, start)
        where = "on the board below ([ ] go off first)"
        try:
            order, cleared = answer(board, list(start))
            order = [tuple(cell) for cell in order]
            cleared = {tuple(cell) for cell in cleared}
        except Exception as exc:  # noqa: BLE001 - reported with its case
            return Result(name, False, f"{where} your code raised {type(exc).__name__}: {exc}", (board, start),
                          shown, "raised")
        if sorted(order) != sorted(want_order):
            missed = sorted(set(want_order) - set(order))
            twice = sorted({c for c in order if order.count(c) > 1})
            what = (f"{missed[0]} should go off too (a blast catches it)" if missed else
                    f"{twice[0]} went off twice (each special goes off once)" if twice else
                    f"{sorted(set(order) - set(want_order))[0]} should not go off (no blast reaches it)")
            return Result(name, False, f"{where} {what}", (board, start), shown)
        early = _before_caught(board, start, order)
        if early is not None:
            return Result(name, False, f"{where} {early} went off before any blast had caught it: a special joins "
                          "the queue only when a blast that went off covers it", (board, start), shown)
        later = next((i for i in range(1, len(order)) if waves[order[i]] < waves[order[i - 1]]), None)
        if later is not None:
            return Result(name, False, f"{where} {order[later - 1]} went off before {order[later]}, which a blast "
                          "caught a wave earlier: a caught special joins the back of the queue, so a whole wave "
                          "goes off before the next (breadth first)", (board, start), shown)
        if cleared != want_cleared:
            return Result(name, False, f"{where} the cells you cleared are not right: # cleared by both, "
                          "- you left out, x you added", (board, start),
                          shown + "\n\ncleared:\n" + _cleared_picture(board, cleared, want_cleared))
    return Result(name, True, f"passed on all {len(cases)} boards")
