"""Special candies' rules (readable reference): striped, wrapped, colour bombs, their combinations.

The rules, as Candy Crush plays them (and where we had to choose, the choice is stated):

Where specials come from (a *group* is runs sharing cells, see :mod:`tilelab.match3`):

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

Scoring (:data:`SCORE_TABLE`; Candy Crush Saga's figures as the fan guide "Candy Crush Saga Scoring", Candy
Crush Saga All Help, July 2014, documents them; the combination bonuses are tilelab's own): a group scores its shape's
points (60 for three, 120 for four, 200 for five/L/T/cross) times the cascade number; a blast
adds its bonus (:data:`ACTIVATION_BONUS`: wrapped 540, colour bomb 1200, ...) plus 60 for each
candy it clears that no group cleared. Blast points are not multiplied by the cascade number.

>>> board = SpecialBoard.parse('''
... 0 1 2 0
... 1 2- 0 1
... 2 1 1 2''')
>>> r = swap_specials(board, (1, 1), (2, 1), rng=0)   # the striped 2 moves down: 1 1 in row 1 ...
>>> r.legal                                            # ... but no run: swapped back
False
>>> r = swap_specials(board, (1, 0), (1, 1), rng=0)   # 1 moves right: column 1 reads 1 1 1
>>> r.legal, [a.special for a in r.steps[0].activations]
(True, [])

The special-candy engine lives in three modules: :mod:`~tilelab.match3.special_board` (codes, score table,
:class:`~tilelab.match3.special_board.SpecialBoard`), this one (legal swaps, dead boards, which special a
group makes and where, blasts, combinations, chain reactions, one cascade step, fall, refill, resolve, swap)
and :mod:`~tilelab.match3.special_reshuffle`; :mod:`tilelab.match3` is their public face.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable


from tilelab.match3.board import Cell, EMPTY, Move, RUN
from tilelab.match3.cascade import (
    cascade_until_settled, draw_refills, fall_moves, RefillSource, refill_source, SwapOutcome,
)
from tilelab.match3.matches import find_matches, Group
from tilelab.match3.special_board import (
    check_special_swap,
    ACTIVATION_BONUS,
    BLAST_POINTS,
    BOMB,
    COL,
    NONE,
    PRIMED,
    ROW,
    SPECIAL_NAMES,
    SpecialBoard,
    WRAPPED,
)
from tilelab.match3.board import NO_COLOUR

__all__ = [
    "Activation",
    "Created",
    "SpecialStep",
    "SpecialSwapResult",
    "combo_of",
    "is_legal_special_swap",
    "legal_with",
    "legal_moves_specials",
    "is_dead_specials",
    "find_groups",
    "special_for",
    "creation_cell",
    "most_common_colour",
    "blast_cells",
    "combo_cells",
    "special_step",
    "special_fall",
    "special_refill",
    "resolve_specials",
    "swap_specials",
    "all_cells",
]


# ----------------------------------------------------------------------------- step data


@dataclass(frozen=True)
class Activation:
    """One special going off: where, what, the cells its blast covers, and why it went off.

    ``cells`` is the whole blast; ``cleared`` the cells it was first to clear (60 points each
    unless a group cleared them). ``cause`` is the cell whose blast caught it (None when it was
    matched, swapped, or primed); ``wave`` counts the links of the chain (0 = first).
    """

    cell: Cell
    special: str
    kind: int
    cells: frozenset[Cell]
    cleared: frozenset[Cell]
    cause: Cell | None
    wave: int
    bonus: int


@dataclass(frozen=True)
class Created:
    """A special candy made by a group: where, its colour (NO_COLOUR for a bomb) and what."""

    cell: Cell
    kind: int
    special: str


@dataclass(frozen=True)
class SpecialStep:
    """One cascade step with specials: primed candies and combos go off, groups match, blasts
    chain, the cleared cells empty, new specials appear, candies fall, holes refill.

    Same field names as :class:`tilelab.match3.cascade.CascadeStep` (``index, before, groups,
    cleared, falls, fallen, refills, board, score``), plus ``activations`` (in firing order),
    ``created``, ``survivors`` (wrapped candies primed this step) and ``combo``.
    """

    index: int
    before: SpecialBoard
    groups: tuple[Group, ...]
    activations: tuple[Activation, ...]
    created: tuple[Created, ...]
    survivors: frozenset[Cell]
    cleared: SpecialBoard
    falls: tuple[tuple[Cell, Cell], ...]
    fallen: SpecialBoard
    refills: tuple[tuple[Cell, int], ...]
    board: SpecialBoard
    group_points: int
    blast_points: int
    combo: str = "none"
    turned: frozenset[Cell] = frozenset()  # candies a bomb combination turned special first

    @property
    def score(self) -> int:
        """``index * group points + blast points`` (see :data:`SCORE_TABLE`)."""
        return self.index * self.group_points + self.blast_points

    @property
    def cleared_cells(self) -> frozenset[Cell]:
        """Cells emptied in this step (groups and blasts, minus survivors and new specials)."""
        return frozenset(c for c in self.cleared.cells() if self.cleared[c] == EMPTY)


@dataclass(frozen=True)
class SpecialSwapResult(SwapOutcome[SpecialBoard, SpecialStep]):
    """What a swap did with specials on; ``legal`` False: swapped back, ``board`` unchanged.

    The fields of :class:`tilelab.match3.cascade.SwapOutcome` (as ``SwapResult``), plus ``combo``.
    """

    combo: str = "none"


# ----------------------------------------------------------------------------- rules


def combo_of(board: SpecialBoard, a: Cell, b: Cell) -> str:
    """Which combination swapping ``a`` and ``b`` sets off ("none" for an ordinary swap).

    >>> combo_of(SpecialBoard.parse("0- 1+ *\\n1 2 0"), (0, 0), (0, 1))
    'striped+wrapped'
    >>> combo_of(SpecialBoard.parse("0- 1+ *\\n1 2 0"), (0, 2), (1, 2))
    'bomb+plain'
    """
    sa, sb = board.special_code(a), board.special_code(b)
    kinds = sorted(("bomb" if s == BOMB else "striped" if s in (ROW, COL) else "wrapped" if s in (WRAPPED, PRIMED)
                    else "plain") for s in (sa, sb))
    order = {"bomb": 0, "striped": 1, "wrapped": 2, "plain": 3}
    first, second = sorted(kinds, key=order.__getitem__)
    if first == "bomb":
        return f"bomb+{second}"
    if second == "plain":
        return "none"
    return f"{first}+{second}"


def _run_through(board: SpecialBoard, cell: Cell) -> bool:
    kind = board[cell]
    if kind < 0 or board.special_code(cell) == PRIMED:
        return False

    def count(dr: int, dc: int) -> int:
        r, c, n = cell[0] + dr, cell[1] + dc, 0
        while board.on_board((r, c)) and board[r, c] == kind and board.special_code((r, c)) != PRIMED:
            r, c, n = r + dr, c + dc, n + 1
        return n

    return count(0, -1) + count(0, 1) + 1 >= RUN or count(-1, 0) + count(1, 0) + 1 >= RUN


def is_legal_special_swap(board: SpecialBoard, a: Cell, b: Cell) -> bool:
    """A swap is legal when it sets off a combination or makes a run through ``a`` or ``b``.

    >>> is_legal_special_swap(SpecialBoard.parse("* 1 2\\n2 0 1"), (0, 0), (0, 1))  # a bomb always
    True
    >>> is_legal_special_swap(SpecialBoard.parse("0- 1 2\\n2 0 1"), (0, 0), (0, 1))  # striped+plain: needs a run
    False
    """
    return legal_with(board, a, b, combo_of(board, a, b))


def legal_with(board: SpecialBoard, a: Cell, b: Cell, combo: str, after: SpecialBoard | None = None) -> bool:
    """:func:`is_legal_special_swap` given the swap's ``combo`` (:func:`combo_of`) and, if made already, the board
    ``after`` it: a swap works each of them out once.

    >>> board = SpecialBoard.parse("* 1 2\\n2 0 1")
    >>> legal_with(board, (0, 0), (0, 1), combo_of(board, (0, 0), (0, 1)))
    True
    """
    if combo != "none":
        return True
    if board[a] == board[b]:
        return False
    after = board.swapped(a, b) if after is None else after
    return _run_through(after, a) or _run_through(after, b)


def legal_moves_specials(board: SpecialBoard) -> list[Move]:
    """Every legal swap with specials on: runs, special+special swaps and any colour-bomb swap.

    >>> legal_moves_specials(SpecialBoard.parse("0 1 2\\n1| 2+ 0"))
    [((1, 0), (1, 1))]
    """
    if not isinstance(board, SpecialBoard):
        raise TypeError(f"expected a SpecialBoard, got {type(board).__name__}")
    if not board.is_full:
        raise ValueError("the board has EMPTY cells: refill it first (a move needs a full board)")
    moves = []
    for a in board.cells():
        for b in ((a[0], a[1] + 1), (a[0] + 1, a[1])):
            if board.on_board(b) and legal_with(board, a, b, combo_of(board, a, b)):
                moves.append((a, b))
    return moves


def is_dead_specials(board: SpecialBoard) -> bool:
    """True when no swap is legal, counting special swaps (a board with a bomb is never dead).

    >>> is_dead_specials(SpecialBoard.parse("0 1 2\\n1 2 0\\n2 0 1"))
    True
    >>> is_dead_specials(SpecialBoard.parse("0 1 2\\n1 * 0\\n2 0 1"))
    False

    Like :func:`tilelab.match3.moves.is_dead`, a board that still holds a run is not settled, so
    asking whether it is dead is refused (ValueError), never answered False:

    >>> is_dead_specials(SpecialBoard.parse("0 0 0\\n1 2 1\\n2 1 2"))
    Traceback (most recent call last):
    ...
    ValueError: the board still holds a run at (0, 0), (0, 1), (0, 2): 'dead' is defined only for stable boards -- run the cascade first (resolve_specials(board, rng=rng)), or ask legal_moves_specials(board) for the legal swaps
    """
    moves = legal_moves_specials(board)  # checks the type and that the board is full
    groups = find_groups(board)
    if groups:
        cells = ", ".join(str(cell) for cell in sorted(groups[0].cells))
        raise ValueError(
            f"the board still holds a run at {cells}: 'dead' is defined only for stable boards -- "
            "run the cascade first (resolve_specials(board, rng=rng)), or ask legal_moves_specials(board) for the legal swaps"
        )
    return not moves


def find_groups(board: SpecialBoard) -> list[Group]:
    """Groups that would clear now (bombs and primed candies never match).

    >>> [(g.shape, sorted(g.cells)) for g in find_groups(SpecialBoard.parse("0 0 0+\\n1 2 1"))]
    [('line3', [(0, 0), (0, 1), (0, 2)])]
    """
    return find_matches(board.colours())


def _crossings(group: Group) -> list[Cell]:
    rows = {c for run in group.runs if run.direction == "row" for c in run.cells}
    cols = {c for run in group.runs if run.direction == "col" for c in run.cells}
    return sorted(rows & cols)


def special_for(group: Group, swipe: str | None) -> int:
    """The special a group makes: NONE, ROW/COL (four), WRAPPED (L/T/cross) or BOMB (five).

    ``swipe`` is "row" for a sideways swap, "col" for an up/down one, None for a cascade match.
    """
    if group.shape == "line3":
        return NONE
    if group.shape == "line5":
        return BOMB
    if group.shape == "line4":
        if swipe is not None:
            return ROW if swipe == "row" else COL
        return COL if group.runs[0].direction == "row" else ROW
    return WRAPPED


def creation_cell(group: Group, move: Move | None) -> Cell:
    """Where a group's new special appears: on the swap's own match, where the swapped candy that
    completed the group landed (``b`` or ``a`` of ``move``, whichever the group holds; the two candies
    differ in kind, so a group never holds both); in a cascade, the first crossing cell in reading
    order, else the middle of the line (the upper/left middle cell of a four).

    >>> g, = find_groups(SpecialBoard.parse("0 0 0 0\\n1 2 1 2"))
    >>> creation_cell(g, None), creation_cell(g, ((1, 3), (0, 3)))
    ((0, 1), (0, 3))
    """
    if move is not None:
        a, b = move
        if b in group.cells:
            return b
        if a in group.cells:
            return a
    crossing = _crossings(group)
    if crossing:
        return crossing[0]
    run = group.runs[0]
    return run.cells[(len(run) - 1) // 2]


def most_common_colour(board: SpecialBoard) -> int:
    """The colour a bomb caught in a blast clears: the most common one (ties: lowest kind)."""
    counts = Counter(k for row in board.grid for k in row if k >= 0)
    if not counts:
        return NO_COLOUR
    top = max(counts.values())
    return min(k for k, n in counts.items() if n == top)


def _rect(board: SpecialBoard, cell: Cell, radius: int) -> set[Cell]:
    r0, c0 = cell
    return {(r, c) for r in range(r0 - radius, r0 + radius + 1) for c in range(c0 - radius, c0 + radius + 1)
            if board.on_board((r, c))}


def _line(board: SpecialBoard, cell: Cell, special: int) -> set[Cell]:
    if special == ROW:
        return {(cell[0], c) for c in range(board.cols)}
    return {(r, cell[1]) for r in range(board.rows)}


def blast_cells(board: SpecialBoard, cell: Cell, special: int, colour: int | None = None) -> set[Cell]:
    """The cells one special's blast covers (the special's own cell included).

    >>> b = SpecialBoard.parse("0 1 2\\n1 2- 0\\n2 0 1")
    >>> sorted(blast_cells(b, (1, 1), ROW))
    [(1, 0), (1, 1), (1, 2)]
    """
    if special in (ROW, COL):
        return _line(board, cell, special)
    if special in (WRAPPED, PRIMED):
        return _rect(board, cell, 1)
    if special == BOMB:
        colour = most_common_colour(board) if colour is None else colour
        return {cell} | {c for c in board.cells() if board[c] == colour}
    raise ValueError(f"special code {special} does not go off")


def combo_cells(board: SpecialBoard, combo: str, a: Cell, b: Cell) -> tuple[set[Cell], dict[Cell, int]]:
    """A combination's blast on the swapped board, and the candies it turns special first.

    >>> b = SpecialBoard.parse("0 0- 1\\n1 1| 0\\n2 0 2")
    >>> sorted(combo_cells(b, "striped+striped", (0, 1), (1, 1))[0])
    [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]

    Colour bomb + striped: every plain candy of the striped candy's colour turns striped, the
    stripes alternating (across, up/down, ...) in reading order, as the Candy Crush Saga wiki
    describes it; specials of that colour keep their own. All of them then go off:

    >>> b = SpecialBoard.parse("* 0- 1\\n0 1 0\\n1 0 2")
    >>> cells, turned = combo_cells(b, "bomb+striped", (0, 0), (0, 1))
    >>> sorted(turned.items()) == [((1, 0), ROW), ((1, 2), COL), ((2, 1), ROW)]
    True
    """
    if combo == "striped+striped":
        return _line(board, b, ROW) | _line(board, b, COL), {}
    if combo == "striped+wrapped":
        rows = {(r, c) for r in range(b[0] - 1, b[0] + 2) for c in range(board.cols) if board.on_board((r, c))}
        cols = {(r, c) for r in range(board.rows) for c in range(b[1] - 1, b[1] + 2) if board.on_board((r, c))}
        return rows | cols, {}
    if combo == "wrapped+wrapped":
        return _rect(board, b, 2), {}
    if combo == "bomb+bomb":
        return set(board.cells()), {}
    bomb, other = (a, b) if board.special_code(a) == BOMB else (b, a)
    colour = board[other]
    same = {c for c in board.cells() if board[c] == colour}
    if combo == "bomb+plain":
        return {bomb} | same, {}
    plain = [c for c in sorted(same) if board.special_code(c) == NONE]  # specials of that colour stay as they are
    if combo == "bomb+striped":  # each its own stripes: across, up/down, across, ... in reading order
        return {bomb} | same, {c: (ROW, COL)[i % 2] for i, c in enumerate(plain)}
    return {bomb} | same, {c: WRAPPED for c in plain}


def _activation_name(special: int) -> str:
    return {ROW: "striped-row", COL: "striped-col", WRAPPED: "wrapped", PRIMED: "wrapped-again",
            BOMB: "colour-bomb"}[special]


def _chain(board: SpecialBoard, spec: dict[Cell, int], queue: list[tuple[Cell, int, Cell | None, int]],
           fired: set[Cell], done: set[Cell], survivors: set[Cell], colour: int) -> list[Activation]:
    """Fire the queued specials and every special their blasts catch (breadth first)."""
    out = []
    i = 0
    while i < len(queue):
        cell, special, cause, wave = queue[i]
        i += 1
        cells = blast_cells(board, cell, special, colour)
        if special == WRAPPED:  # first blast: it stays, primed
            spec[cell] = PRIMED
            survivors.add(cell)
        name = _activation_name(special)
        new = frozenset(cells - done)
        done |= cells
        out.append(Activation(cell, name, board[cell], frozenset(cells), new, cause, wave, ACTIVATION_BONUS[name]))
        for other in sorted(cells):
            if other not in fired and spec[other] != NONE:
                fired.add(other)
                queue.append((other, spec[other], cell, wave + 1))
    return out


def special_step(board: SpecialBoard, index: int, *, rng: RefillSource,
                 move: Move | None = None, combo: str = "none") -> SpecialStep | None:
    """One cascade step with specials; None when nothing is left to go off or match.

    ``move`` (the swap, on step 1) decides where the player's specials appear and which way
    stripes run; ``combo`` is the combination the swap set off (step 1 only).

    A run of four made by a swap down column 1 leaves a striped candy where the swap landed:

    >>> board = SpecialBoard.parse('''
    ... 0 1 2 0
    ... 1 1 1 1
    ... 2 0 2 1
    ... 0 2 0 2''')
    >>> step = special_step(board, 1, rng=0, move=((0, 1), (1, 1)))
    >>> [g.shape for g in step.groups], step.created, step.score
    (['line4'], (Created(cell=(1, 1), kind=1, special='striped-col'),), 120)
    >>> print(step.cleared)
    0120
    .1|..
    2021
    0202

    A striped candy in a run goes off and clears its whole row:

    >>> step = special_step(SpecialBoard.parse("0 1 2\\n1- 1 1\\n2 0 2"), 1, rng=0)
    >>> [(a.special, sorted(a.cells)) for a in step.activations], step.score
    ([('striped-row', [(1, 0), (1, 1), (1, 2)])], 60)
    """
    rng = refill_source(rng)
    groups = tuple(find_groups(board))
    primed = [c for c in board.cells() if board.special_code(c) == PRIMED]
    if not groups and not primed and combo == "none":
        return None
    spec = {c: board.special_code(c) for c in board.cells()}
    colour = most_common_colour(board)
    fired: set[Cell] = set()
    done: set[Cell] = set()
    survivors: set[Cell] = set()
    activations: list[Activation] = []
    queue: list[tuple[Cell, int, Cell | None, int]] = []
    turned: dict[Cell, int] = {}
    if combo != "none":
        a, b = move  # type: ignore[misc]
        cells, turned = combo_cells(board, combo, a, b)
        # the swapped pair is used up, except the striped/wrapped candy a bomb copies: it fires too
        used = {a, b} if combo in ("bomb+bomb", "bomb+plain") or not combo.startswith("bomb") else \
            {a if board.special_code(a) == BOMB else b}
        for cell in used:
            spec[cell] = NONE
        fired |= used
        done |= cells
        spec.update(turned)
        activations.append(Activation(b, combo, board[b], frozenset(cells), frozenset(cells), None, 0, ACTIVATION_BONUS[combo]))
        for other in sorted(cells):
            if other not in fired and spec[other] != NONE:
                fired.add(other)
                queue.append((other, spec[other], b, 1))
    for cell in primed:
        if cell not in fired:
            fired.add(cell)
            queue.append((cell, PRIMED, None, 0))
    group_cells = set().union(*(g.cells for g in groups)) if groups else set()
    for cell in sorted(group_cells):
        if cell not in fired and spec[cell] != NONE:
            fired.add(cell)
            queue.append((cell, spec[cell], None, 0))
    done |= group_cells
    activations += _chain(board, spec, queue, fired, done, survivors, colour)
    swipe = None
    if move is not None:
        swipe = "row" if move[0][0] == move[1][0] else "col"
    created = []
    for g in groups:
        made = special_for(g, swipe if move is not None and (move[0] in g.cells or move[1] in g.cells) else None)
        if made != NONE:
            cell = creation_cell(g, move)
            created.append(Created(cell, NO_COLOUR if made == BOMB else g.kind, SPECIAL_NAMES[made]))
    created_cells = {c.cell for c in created}
    blasted = set().union(*(act.cells for act in activations)) if activations else set()
    gone = (group_cells | blasted) - survivors - created_cells
    changes: dict[Cell, tuple[int, int]] = {c: (EMPTY, NONE) for c in gone}
    for cell in survivors - created_cells:
        changes[cell] = (board[cell], PRIMED)
    codes = {v: k for k, v in SPECIAL_NAMES.items()}
    for c in created:
        changes[c.cell] = (c.kind, codes[c.special])
    cleared = board.with_cells(changes)
    fallen, falls = special_fall(cleared)
    refilled, refills = special_refill(fallen, rng=rng)
    group_points = sum(g.points for g in groups)
    blast_points = sum(act.bonus for act in activations) + BLAST_POINTS * len(gone - group_cells)
    return SpecialStep(index, board, groups, tuple(activations), tuple(created), frozenset(survivors - created_cells),
                       cleared, falls, fallen, refills, refilled, group_points, blast_points, combo,
                       frozenset(turned))


def special_fall(board: SpecialBoard) -> tuple[SpecialBoard, tuple[tuple[Cell, Cell], ...]]:
    """Candies (special or not) drop into the holes below them; each fall ``(from, to)``."""
    falls = fall_moves(board)
    changes: dict[Cell, tuple[int, int]] = {}
    for src, dst in falls:  # as core.fall: the candy and its special move together
        changes[dst] = (board[src], board.special_code(src))
        changes[src] = (EMPTY, NONE)
    return board.with_cells(changes), falls


def special_refill(board: SpecialBoard, *, rng: RefillSource) -> tuple[SpecialBoard, tuple[tuple[Cell, int], ...]]:
    """Fill holes with plain candies: one ``rng.random()`` per hole in reading order (as core)."""
    refills = draw_refills(board, rng=rng)
    return board.with_cells({cell: (k, NONE) for cell, k in refills}), refills


def resolve_specials(board: SpecialBoard, *, rng: RefillSource, move: Move | None = None,
                     combo: str = "none") -> tuple[SpecialStep, ...]:
    """Run steps until nothing matches and no primed candy is left; the steps in order."""
    rng = refill_source(rng)

    def step(index: int) -> SpecialStep | None:
        nonlocal board
        first = index == 1
        found = special_step(board, index, rng=rng, move=move if first else None, combo=combo if first else "none")
        if found is not None:
            board = found.board
        return found

    return tuple(cascade_until_settled(step))


def swap_specials(board: SpecialBoard, a: Cell, b: Cell, *, rng: RefillSource) -> SpecialSwapResult:
    """Swap with specials on: combos and bombs go off, runs clear, specials form, cascades run.

    >>> board = SpecialBoard.parse('''
    ... 0 1 0 0 2
    ... 1 0 2 1 1
    ... 2 2 1 2 0''')
    >>> r = swap_specials(board, (0, 1), (1, 1), rng=0)   # the 0 moves up: 0 0 0 0, swipe up/down
    >>> r.legal, r.steps[0].created
    (True, (Created(cell=(0, 1), kind=0, special='striped-col'),))
    """
    a, b = check_special_swap(board, a, b)
    swapped = board.swapped(a, b)
    combo = combo_of(board, a, b)  # once: it decides the swap's legality and what the first step sets off
    if not legal_with(board, a, b, combo, swapped):
        return SpecialSwapResult(False, board, (), 0, 0, a, b, swapped)
    steps = resolve_specials(swapped, rng=rng, move=(a, b), combo=combo)  # makes the refill source, once
    return SpecialSwapResult(True, steps[-1].board, steps, sum(s.score for s in steps), len(steps), a, b,
                             swapped, combo)



def all_cells(groups: Iterable[Group]) -> set[Cell]:
    """Every cell of some groups."""
    return set().union(*(g.cells for g in groups)) if groups else set()
