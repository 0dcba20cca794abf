"""Checkers for lesson 2 (playing 2048 well: chance nodes, expectimax, heuristics).

- ``"2048ai.chance_value"``: ``answer(afterstate, evaluate, p_four) -> float``, the expected value of
  the board right after a move: the average of ``evaluate(board with the spawn)`` over every spawn,
  each weighted by its probability. Checked on boards from seeded 2x2..4x4 games, three evaluation
  functions and three values of ``p_four``, to 1e-9.
- ``"2048ai.monotonicity"``: ``answer(line, power) -> float``, the monotonicity penalty of one line of
  exponents (0 = empty, 1 = tile 2, ...): the smaller of ``sum(max(0, e[i]**p - e[i+1]**p))`` and the
  same with the line reversed. Checked on every line of 4 exponents 0..5 with powers 1 and 4.
- ``"2048ai.merges"``: ``answer(line) -> int``, how many merges a slide of this line of exponents
  makes (gaps closed first, each tile merges at most once). Every line of 4 exponents 0..5.
- ``"2048ai.best_move"``: ``answer(board, depth) -> Direction``, the move a plain expectimax of that
  depth picks with :func:`tilelab.game2048.ai.evaluate` (any move tied with the best counts).
  Checked on positions from seeded 3x3 games, depths 1 and 2.

>>> from tilelab.exercises import check
>>> from tilelab.game2048 import ai
>>> check("2048ai.chance_value", lambda after, f, p: ai.chance_value(after, 1, f, p)).passed
True
>>> r = check("2048ai.chance_value", lambda after, f, p: f(after))
>>> r.passed
False
"""

from __future__ import annotations

import itertools
import math
from typing import Any, Callable, Iterator

import numpy as np

from tilelab.exercises import Result, checker, first_counterexample
from tilelab.game2048 import Board, Direction, Game, RandomPlayer, ai, legal_moves, spawn_outcomes
from tilelab.game2048.expectimax import row_terms

SEED = 4096
TOLERANCE = 1e-9
LINE_EXPONENTS = range(6)  #: lines over exponents 0..5 (empty .. 32), 6**4 = 1296 lines
LINE_LENGTH = 4
POWERS = (1.0, 4.0)
P_FOURS = (0.1, 0.25, 0.0)
BOARDS_PER_SIZE = 12
BEST_MOVE_BOARDS = 10
__all__ = ["game_boards", "every_line"]


def every_line(length: int = LINE_LENGTH) -> Iterator[list[int]]:
    """Every line of ``length`` exponents over 0..5."""
    for line in itertools.product(LINE_EXPONENTS, repeat=length):
        yield list(line)


def game_boards(size: int, count: int, seed: int = SEED) -> list[Board]:
    """``count`` boards met in seeded random games on a ``size`` x ``size`` board (never full)."""
    rng = np.random.default_rng(seed + size)
    boards: list[Board] = []
    while len(boards) < count:
        game = Game(size=size, seed=int(rng.integers(1 << 31)))
        player = RandomPlayer(seed=int(rng.integers(1 << 31)))
        stop = int(rng.integers(0, 40))
        for _ in range(stop):
            if game.over:
                break
            game.play(player(game.board))
        if spawn_outcomes(game.board) and legal_moves(game.board):
            boards.append(game.board)
    return boards


def _close(a: Any, b: float) -> bool:
    try:
        return math.isclose(float(a), b, rel_tol=TOLERANCE, abs_tol=TOLERANCE)
    except (TypeError, ValueError):
        return False


def _evaluations() -> list[tuple[str, Callable[[Board], float]]]:
    return [
        ("tile sum", lambda b: float(b.tile_sum)),
        ("empty cells", lambda b: float(len(b.empty_cells()))),
        ("top-left tile", lambda b: float(b[0, 0])),
    ]


@checker("2048ai.chance_value")
def check_chance_value(answer: Callable[[Board, Callable[[Board], float], float], Any]) -> Result:
    """``answer(afterstate, evaluate, p_four)``: the probability-weighted average over the spawns."""
    cases = []
    for size in (2, 3, 4):
        for board in game_boards(size, BOARDS_PER_SIZE):
            for (label, evaluate), p_four in itertools.product(_evaluations(), P_FOURS):
                cases.append((board, (label, evaluate), p_four))

    def run(func: Callable[..., Any]) -> Callable[..., Any]:
        return lambda board, named, p_four: func(board, named[1], p_four)

    return first_counterexample(
        "2048ai.chance_value", run(answer), run(lambda b, f, p: ai.chance_value(b, 1, f, p)), cases, star=True,
        equal=_close, show=lambda c: f"board\n{c[0]}\nwith evaluate = {c[1][0]}, p_four = {c[2]}",
    )


@checker("2048ai.monotonicity")
def check_monotonicity(answer: Callable[[list[int], float], Any]) -> Result:
    """``answer(line, power)``: the smaller of the two directions' summed drops."""
    cases = [(line, power) for power in POWERS for line in every_line()]
    return first_counterexample(
        "2048ai.monotonicity", lambda line, p: answer(list(line), p),
        lambda line, p: row_terms(line, mono_power=p)["monotonicity"], cases, star=True, equal=_close,
        show=lambda c: f"line {c[0]} with power {c[1]}",
    )


@checker("2048ai.merges")
def check_merges(answer: Callable[[list[int]], Any]) -> Result:
    """``answer(line)``: merges one slide makes (gaps closed, each tile merges once)."""
    return first_counterexample(
        "2048ai.merges", lambda line: answer(list(line)), lambda line: row_terms(line)["merges"], every_line(),
    )


@checker("2048ai.best_move")
def check_best_move(answer: Callable[[Board, int], Any]) -> Result:
    """``answer(board, depth)``: a move with the best plain-expectimax value at that depth."""
    boards = game_boards(3, BEST_MOVE_BOARDS)
    cases = [(board, depth) for depth in (1, 2) for board in boards[: BEST_MOVE_BOARDS // depth]]
    for n, (board, depth) in enumerate(cases, start=1):
        values = ai.expectimax_values(board, depth)
        best = max(values.values())
        try:
            got = Direction.parse(answer(board, depth))
        except Exception as exc:  # noqa: BLE001 - report whatever the student's code did
            return Result("2048ai.best_move", False, f"on board\n{board}\ndepth {depth}: {type(exc).__name__}: {exc}",
                          (board, depth))
        if got not in values or not math.isclose(values[got], best, rel_tol=TOLERANCE):
            shown = ", ".join(f"{d.name.lower()} {v:,.1f}" for d, v in values.items())
            return Result("2048ai.best_move", False,
                          f"on board\n{board}\ndepth {depth} you chose {got.name.lower()}; values: {shown}",
                          (board, depth))
    return Result("2048ai.best_move", True, f"passed on all {len(cases)} positions")
