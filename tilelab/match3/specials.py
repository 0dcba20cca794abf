"""Special candies (readable reference): striped, wrapped, colour bombs, their combinations.

The rules, as Candy Crush plays them (and where we had to choose, the choice is stated):

Where specials come from (a *group* is runs sharing cells, see :mod:`tilelab.match3.core`):

- a line of four makes a **striped** candy of its colour. Which way it clears follows Candy
  Crush as player guides describe it: for the player's own match the stripes follow the direction
  of the swipe (a sideways swap gives horizontal stripes, which clear the candy's ROW; an up/down
  swap gives vertical stripes, which clear its COLUMN). A line of four made by falling candies has
  no swipe; then (our choice) the stripes cross the line (a horizontal four clears a column).
- an L, T or cross of five or more makes a **wrapped** candy of its colour;
- a line of five (or more) makes a **colour bomb**, which has no colour of its own.
- where it appears: on the player's match, where the swapped candy that completed the group
  landed (``b`` in ``swap(board, a, b)`` if the group holds ``b``, else ``a``); for a cascade match
  at a fixed cell: the first crossing cell in reading order for an L/T/cross (or a five that
  crosses another run), else the middle cell of the line (the upper/left one of the two middle
  cells of a line of four).

What they do when they go off (*activate*), because they were matched, swapped together or
caught in another special's blast (a *chain reaction*; each special goes off at most once per
cascade step):

- striped: clears its whole row (horizontal stripes) or column (vertical stripes);
- wrapped: clears the 3x3 block around it but stays, *primed*; the candies fall, and at the start
  of the next cascade step the primed candy goes off again (3x3 around where it fell, itself too);
- colour bomb swapped with a candy: clears every candy of that candy's colour; caught in a blast
  (no swap to say which colour) it clears the most common colour on the board at the start of the
  step (ties: the lowest kind) -- Candy Crush picks at random here; we keep the engine seeded
  by the refills alone.

Combinations when two specials are swapped (centred on ``b``, the cell the player moved into):
striped+striped a cross (row and column of ``b``); striped+wrapped three rows and three columns;
wrapped+wrapped the 5x5 block (Candy Crush fires it twice; we fire once); bomb+striped turns
every plain candy of the striped one's colour into a striped candy, the stripes alternating across
and up/down in reading order (the Candy Crush Saga wiki's rule; fan guides call them random), and
fires them all;
bomb+wrapped likewise with wrapped candies; bomb+bomb clears the board; bomb+plain candy clears
that colour. A swap of two specials (or of a bomb with anything) is legal without a match.

Every run on the board clears in the same step, whatever its height.

Scoring (:data:`SCORE_TABLE`; Candy Crush's figures as fan guides document them): a group scores its shape's
points (60 for three, 120 for four, 200 for five/L/T/cross) times the cascade number; a blast
adds its bonus (:data:`ACTIVATION_BONUS`: wrapped 540, colour bomb 1200, ...) plus 60 for each
candy it clears that no group cleared. Blast points are not multiplied by the cascade number.

>>> board = SpecialBoard.parse('''
... 0 1 2 0
... 1 2- 0 1
... 2 1 1 2''')
>>> r = swap_specials(board, (1, 1), (2, 1), rng=0)   # the striped 2 moves down: 1 1 in row 1 ...
>>> r.valid                                            # ... but no run: swapped back
False
>>> r = swap_specials(board, (1, 0), (1, 1), rng=0)   # 1 moves right: column 1 reads 1 1 1
>>> r.valid, [a.special for a in r.steps[0].activations]
(True, [])

The engine lives in three modules: :mod:`~tilelab.match3.special_board` (codes, score table,
:class:`SpecialBoard`), :mod:`~tilelab.match3.special_rules` (swaps, blasts, cascade steps,
resolve) and :mod:`~tilelab.match3.special_reshuffle`. This module re-exports all of them as the
same objects, so ``tilelab.match3.specials:swap_specials`` and every old import path still hold.
"""

from __future__ import annotations

from tilelab.match3.special_board import (  # noqa: F401
    NONE as NONE,
    ROW as ROW,
    COL as COL,
    WRAPPED as WRAPPED,
    PRIMED as PRIMED,
    BOMB as BOMB,
    SPECIAL_NAMES as SPECIAL_NAMES,
    NO_COLOUR as NO_COLOUR,
    SUFFIX as SUFFIX,
    BOMB_SYMBOL as BOMB_SYMBOL,
    BLAST_POINTS as BLAST_POINTS,
    COMBOS as COMBOS,
    ACTIVATION_BONUS as ACTIVATION_BONUS,
    SCORE_TABLE as SCORE_TABLE,
    SpecialBoard as SpecialBoard,
    _int_rows as _int_rows,
    new_special_board as new_special_board,
    _check_special_swap as _check_special_swap,
    specials_count as specials_count,
)
from tilelab.match3.special_rules import (  # noqa: F401
    Activation as Activation,
    Created as Created,
    SpecialStep as SpecialStep,
    SpecialSwapResult as SpecialSwapResult,
    combo_of as combo_of,
    _run_through as _run_through,
    is_valid_special_swap as is_valid_special_swap,
    valid_moves_specials as valid_moves_specials,
    is_dead_specials as is_dead_specials,
    find_groups as find_groups,
    _crossings as _crossings,
    special_for as special_for,
    creation_cell as creation_cell,
    most_common_colour as most_common_colour,
    _rect as _rect,
    _line as _line,
    blast_cells as blast_cells,
    combo_cells as combo_cells,
    _activation_name as _activation_name,
    _chain as _chain,
    special_step as special_step,
    special_fall as special_fall,
    special_refill as special_refill,
    resolve_specials as resolve_specials,
    swap_specials as swap_specials,
    all_cells as all_cells,
)
from tilelab.match3.special_reshuffle import (  # noqa: F401
    MAX_RESHUFFLE_TRIES as MAX_RESHUFFLE_TRIES,
    _has_run as _has_run,
    reshuffle_specials as reshuffle_specials,
    _reshuffle_systematic as _reshuffle_systematic,
)

__all__ = [
    "NONE", "ROW", "COL", "WRAPPED", "PRIMED", "BOMB", "NO_COLOUR", "SPECIAL_NAMES", "COMBOS",
    "ACTIVATION_BONUS", "BLAST_POINTS", "SCORE_TABLE", "SpecialBoard", "Activation", "Created",
    "SpecialStep", "SpecialSwapResult", "new_special_board", "combo_of", "is_valid_special_swap",
    "valid_moves_specials", "is_dead_specials", "find_groups", "special_for", "creation_cell",
    "most_common_colour", "blast_cells", "combo_cells", "special_step", "special_fall",
    "special_refill", "resolve_specials", "swap_specials", "reshuffle_specials", "specials_count",
]
