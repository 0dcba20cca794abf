"""Match-3 cascades (readable reference): clear, fall, refill (chance as outcomes), one cascade step,
resolve, and the swap that starts it all.

Part of the readable match-3 engine; :mod:`tilelab.match3` is its public face (its docstring has the
glossary).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Generic, Iterable, Sequence, TypeVar, Union

import numpy as np

from tilelab.randomness import as_generator, outcome_at, RngLike
from tilelab.match3.board import (
    Board, BoardBase, Cell, check_cell, check_full, EMPTY, Move, neighbours,
)
from tilelab.match3.matches import find_matches, Group, runs_through

__all__ = [
    "MAX_CASCADES",
    "cascade_until_settled",
    "clear",
    "fall",
    "refill_outcomes",
    "kind_from_uniform",
    "sample_refill",
    "refill",
    "fall_moves",
    "draw_refills",
    "ChosenRefills",
    "RefillSource",
    "refill_source",
    "CascadeStep",
    "SwapOutcome",
    "SwapResult",
    "cascade_step",
    "resolve",
    "check_swap",
    "creates_run",
    "swap",
]


# ----------------------------------------------------------------------------- clear, fall, refill


def clear(board: Board, groups: Iterable[Group]) -> Board:
    """Remove the candies of the groups (their cells become EMPTY)."""
    return board.with_cells({cell: EMPTY for g in groups for cell in g.cells})


def fall(board: Board) -> tuple[Board, tuple[tuple[Cell, Cell], ...]]:
    """Candies drop into the holes below them; returns the board and each fall ``(from, to)``.

    >>> after, falls = fall(Board.parse('''
    ... 01
    ... 2.
    ... ..'''))
    >>> print(after)
    ..
    0.
    21
    >>> falls
    (((1, 0), (2, 0)), ((0, 0), (1, 0)), ((0, 1), (2, 1)))
    """
    falls = fall_moves(board)
    changes: dict[Cell, int] = {}
    for src, dst in falls:  # in this order a cell emptied by one fall can be filled by the next
        changes[dst] = board[src]
        changes[src] = EMPTY
    return board.with_cells(changes), falls


def fall_moves(board: BoardBase) -> tuple[tuple[Cell, Cell], ...]:
    """Where every candy above a hole falls to, ``(from, to)``: column by column, lowest candy first
    (the plain and the special board fall by this one rule)."""
    falls = []
    for c in range(board.cols):
        target = board.rows - 1  # lowest free row in this column
        for r in range(board.rows - 1, -1, -1):
            if board[r, c] == EMPTY:
                continue
            if r != target:
                falls.append(((r, c), (target, c)))
            target -= 1
    return tuple(falls)


def refill_outcomes(board: BoardBase, cell: Cell | None = None) -> list[tuple[int, float]]:
    """The chance event behind a refill: each new candy is kind ``k`` with probability 1/kinds.

    Every EMPTY cell is refilled independently with these outcomes (``cell`` is accepted to
    say which hole you ask about; all holes have the same distribution).

    >>> refill_outcomes(Board.parse("012\\n.01"), (1, 0))
    [(0, 0.3333333333333333), (1, 0.3333333333333333), (2, 0.3333333333333333)]
    """
    if cell is not None:
        cell = check_cell(board, cell)
        if board[cell] != EMPTY:
            raise ValueError(f"cell {cell} is not EMPTY: only holes are refilled")
    return [(k, 1.0 / board.kinds) for k in range(board.kinds)]


def kind_from_uniform(u: float, kinds: int) -> int:
    """Map a uniform draw in [0, 1) to a kind: the one place refills turn chance into candy."""
    return min(int(u * kinds), kinds - 1)


def sample_refill(outcomes: Sequence[tuple[int, float]], u: float) -> int:
    """The kind a uniform draw ``u`` in [0, 1) picks from ``[(kind, probability)]`` (the inverse CDF).

    Equal probabilities (the game's rule) go through :func:`kind_from_uniform`, the very mapping
    the compiled engines use, so the same seed gives the same candies whichever engine runs;
    other lists walk the cumulative sum as 2048's spawn sampler does.

    >>> sample_refill([(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)], 0.5), sample_refill([(0, 0.9), (1, 0.1)], 0.95)
    (1, 1)
    """
    if not outcomes:
        raise ValueError("there is no refill outcome to sample from")
    first = outcomes[0][1]
    if all(p == first for _, p in outcomes):
        return outcomes[kind_from_uniform(u, len(outcomes))][0]
    kind: int = outcome_at(outcomes, u)
    return kind


def refill(board: Board, *, rng: RefillSource) -> tuple[Board, tuple[tuple[Cell, int], ...]]:
    """Fill every EMPTY cell with a kind sampled from :func:`refill_outcomes`; returns the board
    and each ``(cell, kind)``.

    Chance is data, as in 2048: the outcomes and their probabilities come from
    :func:`refill_outcomes` and :func:`sample_refill` draws from that list. One ``rng.random()``
    per hole, holes in reading order, so the fast engine reproduces the very same candies.

    >>> full, refills = refill(Board.parse("..\\n01"), rng=0)
    >>> print(full); refills
    10
    01
    (((0, 0), 1), ((0, 1), 0))
    """
    refills = draw_refills(board, rng=rng)
    return board.with_cells(dict(refills)), refills


class ChosenRefills:
    """The refill's chance step resolved by hand, as OpenSpiel applies a chosen outcome at a chance node:
    each hole the cascade refills (step by step, holes in reading order) takes the next kind given.

    Pass it where a cascade takes ``rng=`` (``swap``, ``resolve``, the special rules too), or give
    ``Game.play(move, refills=kinds)``. Each kind must be one of :func:`refill_outcomes`; running out
    is a ValueError, and ``used`` says how many were taken.

    >>> chosen = ChosenRefills([2, 2])
    >>> refill(Board.parse("..\\n01"), rng=chosen)[1], chosen.used
    ((((0, 0), 2), ((0, 1), 2)), 2)
    """

    def __init__(self, kinds: Iterable[int]) -> None:
        self.kinds = tuple(kinds)
        for k in self.kinds:
            if isinstance(k, bool) or not isinstance(k, int):
                raise TypeError(f"a refill is a kind (an int), got {k!r}; e.g. refills=[0, 2, 1]")
        self.used = 0

    def take(self, board: BoardBase, holes: int) -> tuple[int, ...]:
        """The next ``holes`` kinds, each checked against :func:`refill_outcomes` of ``board``."""
        if self.used + holes > len(self.kinds):
            raise ValueError(f"the cascade refills more than the {len(self.kinds)} kinds given "
                             f"({self.used} used, {holes} more holes): give one kind per refilled hole")
        allowed = {k for k, _ in refill_outcomes(board)}
        taken = self.kinds[self.used:self.used + holes]
        for k in taken:
            if k not in allowed:
                raise ValueError(f"refill kind {k} cannot happen: a hole becomes one of {sorted(allowed)}")
        self.used += holes
        return taken


#: where a cascade's refills come from: a seed or Generator (drawn), or :class:`ChosenRefills` (given)
RefillSource = Union[RngLike, ChosenRefills]


def refill_source(rng: RefillSource) -> "np.random.Generator | ChosenRefills":
    """``rng`` made ready for a cascade: chosen refills as they are, anything else as a Generator."""
    return rng if isinstance(rng, ChosenRefills) else as_generator(rng)


def draw_refills(board: BoardBase, *, rng: RefillSource) -> tuple[tuple[Cell, int], ...]:
    """The refill's chance step on any board: each hole, in reading order, gets a kind sampled from
    :func:`refill_outcomes` with one ``rng.random()`` (the special board refills by this rule too),
    or the next kinds of :class:`ChosenRefills`."""
    holes = [cell for cell in board.cells() if board[cell] == EMPTY]
    if isinstance(rng, ChosenRefills):
        return tuple(zip(holes, rng.take(board, len(holes))))
    rng = as_generator(rng)
    outcomes = refill_outcomes(board)
    draws = rng.random(len(holes))
    return tuple((cell, sample_refill(outcomes, float(u))) for cell, u in zip(holes, draws))


# ----------------------------------------------------------------------------- swap and cascades


@dataclass(frozen=True)
class CascadeStep:
    """One round of a cascade: matched -> cleared -> fallen -> refilled.

    ``index`` is the cascade multiplier (1 for the swap's own matches, then 2, 3, ...).
    """

    index: int
    before: Board
    groups: tuple[Group, ...]
    cleared: Board
    falls: tuple[tuple[Cell, Cell], ...]
    fallen: Board
    refills: tuple[tuple[Cell, int], ...]
    board: Board

    @property
    def score(self) -> int:
        """Points of this step: each group's points times the cascade index."""
        return self.index * sum(g.points for g in self.groups)


B = TypeVar("B", bound=BoardBase)
S = TypeVar("S")


@dataclass(frozen=True)
class SwapOutcome(Generic[B, S]):
    """The fields every swap result has, plain (:class:`SwapResult`) or with specials (``SpecialSwapResult``)."""

    legal: bool  #: False: no match, swapped back, ``board`` unchanged
    board: B  #: the board after the cascade
    steps: tuple[S, ...]  #: the cascade steps in order
    score: int
    cascades: int
    a: Cell
    b: Cell
    swapped: B  #: the board right after exchanging the two candies


@dataclass(frozen=True)
class SwapResult(SwapOutcome[Board, CascadeStep]):
    """What a swap did. ``legal`` False means it was swapped back and ``board`` is unchanged.

    Fields: ``legal, board, steps, score, cascades, a, b, swapped`` (:class:`SwapOutcome`).
    """


def cascade_step(board: Board, index: int, *, rng: RefillSource) -> CascadeStep | None:
    """Match, clear, fall and refill once; None when the board is stable.

    >>> step = cascade_step(Board.parse('''
    ... 012
    ... 111
    ... 201'''), 1, rng=0)
    >>> [g.shape for g in step.groups], step.score
    (['line3'], 60)
    >>> print(step.cleared); print(step.fallen); print(step.board)
    012
    ...
    201
    ...
    012
    201
    100
    012
    201
    >>> step.refills
    (((0, 0), 1), ((0, 1), 0), ((0, 2), 0))
    >>> cascade_step(step.board, 2, rng=0) is None     # stable: nothing to do
    True
    """
    groups = tuple(find_matches(board))
    if not groups:
        return None
    cleared = clear(board, groups)
    fallen, falls = fall(cleared)
    refilled, refills = refill(fallen, rng=rng)
    return CascadeStep(index, board, groups, cleared, falls, fallen, refills, refilled)


#: Safety net only: a refill that keeps matching forever has probability zero.
MAX_CASCADES = 10_000

Step = TypeVar("Step")


def cascade_until_settled(step: Callable[[int], Step | None]) -> list[Step]:
    """The cascade's loop, for every engine (readable, special candies and both fast twins): call ``step(index)``
    for index 1, 2, ... until it returns None (nothing left to clear); what the steps returned, in order.

    A cascade stops when a step finds nothing to clear. Past :data:`MAX_CASCADES` steps it raises RuntimeError
    instead (a refill that matches forever has probability zero: a broken random source).

    >>> cascade_until_settled(lambda index: index * 10 if index <= 3 else None)
    [10, 20, 30]
    """
    done: list[Step] = []
    while len(done) < MAX_CASCADES:
        result = step(len(done) + 1)
        if result is None:
            return done
        done.append(result)
    raise RuntimeError(f"cascade did not settle after {MAX_CASCADES} steps")


def resolve(board: Board, *, rng: RefillSource) -> tuple[CascadeStep, ...]:
    """Run cascade steps until no run is left; the steps in order (empty if already stable).

    >>> steps = resolve(Board.parse('''
    ... 012
    ... 111
    ... 201'''), rng=0)
    >>> len(steps), [s.index for s in steps], sum(s.score for s in steps)
    (1, [1], 60)
    >>> print(steps[-1].board)
    100
    012
    201
    >>> resolve(steps[-1].board, rng=0)
    ()
    """
    rng = refill_source(rng)

    def step(index: int) -> CascadeStep | None:
        nonlocal board
        found = cascade_step(board, index, rng=rng)
        if found is not None:
            board = found.board
        return found

    return tuple(cascade_until_settled(step))


def check_swap(board: Board, a: object, b: object) -> Move:
    """Validate a swap's input; returns the two cells or raises ValueError naming the problem."""
    check_full(board)
    a, b = check_cell(board, a, "cell a"), check_cell(board, b, "cell b")
    if not neighbours(a, b):
        raise ValueError(f"cells {a} and {b} are not neighbours: swap two cells that share a side")
    return a, b


def creates_run(board: Board, a: Cell, b: Cell) -> bool:
    """True when swapping ``a`` and ``b`` makes a run through one of them (the legality rule)."""
    if board[a] == board[b]:
        return False
    after = board.swapped(a, b)
    return runs_through(after, a) or runs_through(after, b)


def swap(board: Board, a: Cell, b: Cell, *, rng: RefillSource) -> SwapResult:
    """Swap two neighbours; if a run appears, clear and cascade until stable, else swap back.

    >>> board = Board.parse('''
    ... 0120
    ... 1201
    ... 0012
    ... 2102''')
    >>> bad = swap(board, (0, 0), (0, 1), rng=1)
    >>> bad.legal, bad.board == board
    (False, True)
    >>> result = swap(board, (2, 2), (3, 2), rng=1)   # the 0 drops into row 2: 000
    >>> result.legal, result.cascades, result.score
    (True, 1, 60)
    >>> print(result.steps[0].cleared)
    0120
    1201
    ...2
    2112
    >>> print(result.board)
    1200
    0121
    1202
    2112
    """
    a, b = check_swap(board, a, b)
    rng = refill_source(rng)
    swapped = board.swapped(a, b)
    if not creates_run(board, a, b):
        return SwapResult(False, board, (), 0, 0, a, b, swapped)
    steps = resolve(swapped, rng=rng)
    return SwapResult(
        True, steps[-1].board, steps, sum(s.score for s in steps), len(steps), a, b, swapped
    )
