"""Checkers for lesson 2 (playing 2048 well: chance nodes, expectimax, heuristics).

- ``"2048ai.chance_value"``: ``answer(afterstate, evaluate, p_four) -> float``, the expected value of
  the board right after a move: the average of ``evaluate(board with the spawn)`` over every spawn,
  each weighted by its probability. Checked on boards from seeded 2x2..4x4 games, three evaluation
  functions and three values of ``p_four``, to 1e-9.
- ``"2048ai.expectimax"``: ``answer(board, depth, evaluate) -> float``, the expectimax value of a board where
  we move next (a max node): the best legal move's chance value, 0 if no move is left; a chance value is the
  probability-weighted average over the spawns (p_four 0.1) of ``evaluate`` (``depth == 1``) or of the spawned
  board's own value one level down. Checked first on lesson 2a's 2x2 board ``8 4 / 2 .``, then on boards from
  seeded 2x2 and 3x3 games at depths 1 and 2 and 4x4 games at depth 1, smallest first, to 1e-9.
- ``"2048ai.monotonicity"``: ``answer(line, power) -> float``, the monotonicity penalty of one line of
  exponents (0 = empty, 1 = tile 2, ...): the smaller of ``sum(max(0, e[i]**p - e[i+1]**p))`` and the
  same with the line reversed. Checked on every line of 4 exponents 0..5 with powers 1, 4 and 3.5, then on
  lines of 2, 3, 5 and 6.
- ``"2048ai.merges"``: ``answer(line) -> int``, how many merges a slide of this line of exponents
  makes (gaps closed first, each tile merges at most once). Every line of 4 exponents 0..5, then other lengths.

Both line checks draw the first line they fail on as a picture (:func:`line_picture`): the tiles, the exponents
and, for a power other than 1, the exponents to that power.
- ``"2048ai.best_move"``: ``answer(board, depth) -> Direction``, the move a plain expectimax of that
  depth picks with :func:`tilelab.game2048.ai.evaluate` (any move tied with the best counts).
  Checked on positions from seeded 3x3 games, depths 1 and 2.
- ``"2048ai.worst_spawn"``: ``answer(afterstate, evaluate) -> float``, the value a *minimax* player
  gives the board right after its move: the smallest ``evaluate`` over every spawn that can happen
  (a 2 or a 4 on each empty cell), as if the game placed the worst tile on purpose.
- ``"2048ai.heuristic_contest"`` (the open task): ``answer`` is a :class:`HeuristicWeights` (or a dict
  of its fields); depth-2 expectimax plays ``games`` seeded games with it and with the default weights
  on the same seeds. The message reports each side's win rate (reaching 2048) and mean score with
  95% confidence intervals, and the paired score difference. Tuning runs play the *practice* seeds
  (``CONTEST_SEED, CONTEST_SEED + 1, ...``) and never pass: trying many weights on the same seeds and
  keeping the best is a multiple-comparisons trap. ``final=True`` judges on fresh seeds (a block of
  its own for each set of weights, see :func:`final_seed`, never the practice ones) with at least
  ``FINAL_GAMES`` games, and passes only when the paired 95% interval lies above zero.

An answer may build, read and play boards, list a board's spawns and call the evaluation it is given;
calling the search (``ai.chance_value``, ``ai.expectimax_values``, ``Expectimax``) or the heuristic's
terms (``row_terms``, ``slide_row`` for the merges) is delegation and does not pass.

>>> from tilelab.exercises import check
>>> from tilelab.game2048 import ai
>>> check("2048ai.chance_value", lambda after, f, p: ai.chance_value(after, 1, f, p)).reason
'delegated'
>>> check("2048ai.chance_value", lambda after, f, p: sum(q * f(after.with_tile(s.cell, s.value))
...                                                      for s, q in spawn_outcomes(after, p))).passed
True
>>> r = check("2048ai.chance_value", lambda after, f, p: f(after))
>>> r.passed
False
>>> check("2048ai.expectimax", lambda board, depth, f: ai.best_value(board, depth, f)).reason
'delegated'
>>> check("2048ai.worst_spawn", lambda after, f: min(f(after.with_tile(s.cell, s.value))
...                                                  for s, _ in spawn_outcomes(after))).passed
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import math
import numbers
from typing import Any, Callable, Iterator

import numpy as np

from tilelab import IN_BROWSER
from tilelab.randomness import RngLike, as_generator
from tilelab.exercises import Result, case_seed, checker, first_counterexample
from tilelab.exercises.allow import BOARD_2048, NUMPY, Kit
from tilelab.game2048 import Board, Direction, Game, RandomPlayer, ai, legal_moves, spawn_outcomes
from tilelab.game2048.expectimax import DEFAULT_WEIGHTS, HeuristicWeights, row_terms

SEED = 4096
TOLERANCE = 1e-9
LINE_EXPONENTS = range(6)  #: lines over exponents 0..5 (empty .. 32), 6**4 = 1296 lines
LINE_LENGTH = 4
POWERS = (1.0, 4.0)
EVALUATION_POWER = 3.5  #: the power the lesson's evaluation gives the tiles' sum (cell values not whole)
P_FOURS = (0.1, 0.25, 0.0)
BOARDS_PER_SIZE = 12
BEST_MOVE_BOARDS = 10
__all__ = ["game_boards", "every_line", "mean_ci", "rate_ci", "contest", "final_seed"]

_G = "tilelab.game2048:"
#: What a 2048-AI answer may call: boards built, read and played, the spawns of a board (lesson 01b's
#: exercise), the checker's evaluation functions, numpy. Not the search (``ai.chance_value``,
#: ``ai.expectimax_values``, ``Expectimax``, the bitboard search) nor the heuristic's terms (``row_terms``).
_BOARDS = (BOARD_2048, Kit("a Board's queries (empty_cells, tile_map, max_tile, tile_sum)",
                           (_G + "Board[empty_cells tile_map max_tile tile_sum]",)),
           Kit("play, legal_moves", (_G + "play", _G + "legal_moves", _G + "MoveResult[*]")),
           Kit("spawn_outcomes", (_G + "spawn_outcomes", _G + "Spawn[*]")), NUMPY)
_LINES = (NUMPY,)  # a line of exponents is a list: plain Python and numpy do it


def every_line(length: int = LINE_LENGTH) -> Iterator[list[int]]:
    """Every line of ``length`` exponents over 0..5."""
    for line in itertools.product(LINE_EXPONENTS, repeat=length):
        yield list(line)


def other_lines() -> list[list[int]]:
    """Lines of the other board sizes the evaluation takes: every line of 2 and 3, then 200 seeded lines of 5 and 6."""
    rng = np.random.default_rng(case_seed(SEED))
    longer = [[int(e) for e in rng.integers(0, len(LINE_EXPONENTS), size=n)] for n in (5, 6) for _ in range(100)]
    return [*every_line(2), *every_line(3), *longer]


def game_boards(size: int, count: int, *, rng: RngLike = None) -> list[Board]:
    """``count`` boards met in random games on a ``size`` x ``size`` board (never full); ``rng``: a seed (``SEED``
    when none is given, the grader's seed mixed in inside :func:`tilelab.exercises.hidden_cases`) or a Generator.

    >>> [b.size for b in game_boards(3, 2, rng=1)], game_boards(2, 3, rng=5) == game_boards(2, 3, rng=5)
    ([3, 3], True)
    """
    given = SEED if rng is None else rng
    if isinstance(given, numbers.Integral) and not isinstance(given, bool) and given >= 0:
        given = int(given) + size  # a seed: each size plays its own games
    rng = np.random.default_rng(case_seed(given)) if rng is None else as_generator(given)
    boards: list[Board] = []
    while len(boards) < count:
        game = Game(size=size, rng=int(rng.integers(1 << 31)))
        player = RandomPlayer(rng=int(rng.integers(1 << 31)))
        stop = int(rng.integers(0, 40))
        for _ in range(stop):
            if game.over:
                break
            game.play(player(game.board))
        if spawn_outcomes(game.board) and legal_moves(game.board):
            boards.append(game.board)
    return boards


def line_picture(line: list[int], power: float | None = None) -> str:
    """A line of exponents drawn as the 2048 row it stands for (``.`` for a blank), its exponents below the
    tiles and, given a ``power`` other than 1, each exponent to that power below them: the picture a failed
    line check shows.

    >>> print(line_picture([4, 0, 1]))
    tiles      16  .  2
    exponents   4  0  1
    >>> print(line_picture([2, 1], 3.5))
    tiles                4     2
    exponents            2     1
    exponent ** 3.5  11.31     1
    """
    rows = {"tiles": ["." if e == 0 else str(2 ** e) for e in line], "exponents": [str(e) for e in line]}
    if power is not None and power != 1:
        rows[f"exponent ** {power:g}"] = [f"{e ** power:.4g}" for e in line]
    label = max(len(name) for name in rows) + 2
    width = max(len(cell) for cells in rows.values() for cell in cells)
    return "\n".join(name.ljust(label) + " ".join(cell.rjust(width) for cell in cells) for name, cells in rows.items())


def _drawn(result: Result) -> Result:
    """A line check's result with the line it fails on drawn as a picture (:func:`line_picture`)."""
    case = result.counterexample
    if result.passed or result.picture is not None or case is None:
        return result
    line, power = (case[0], case[1]) if isinstance(case, tuple) else (case, None)
    return dataclasses.replace(result, picture=line_picture(list(line), power))


def _close(a: Any, b: float) -> bool:
    try:
        return math.isclose(float(a), b, rel_tol=TOLERANCE, abs_tol=TOLERANCE)
    except (TypeError, ValueError):
        return False


def _tile_sum(b: Board) -> float:
    return float(b.tile_sum)


def _empty_count(b: Board) -> float:
    return float(len(b.empty_cells()))


def _top_left(b: Board) -> float:
    return float(b[0, 0])


def _minus_tile_sum(b: Board) -> float:
    return -float(b.tile_sum)


#: The evaluation functions the checkers hand to the answers (the answers may call them, of course).
EVALUATIONS = (("tile sum", _tile_sum), ("empty cells", _empty_count), ("top-left tile", _top_left),
               ("minus the tile sum (a 4 is the worst spawn)", _minus_tile_sum))


def _evaluations() -> list[tuple[str, Callable[[Board], float]]]:
    return list(EVALUATIONS[:3])


@checker("2048ai.chance_value", allow=(*_BOARDS, Kit("evaluate", tuple(f for _, f in EVALUATIONS))),
         job=("tilelab.game2048.ai:chance_value",))
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


@checker("2048ai.monotonicity", allow=_LINES, job=("tilelab.game2048.expectimax:row_terms",))
def check_monotonicity(answer: Callable[[list[int], float], Any]) -> Result:
    """``answer(line, power)``: the smaller of the two directions' summed drops."""
    cases = [(line, power) for power in POWERS for line in every_line()]
    cases += [(line, EVALUATION_POWER) for line in every_line()]  # the evaluation's own power: not whole numbers
    cases += [(line, power) for line in other_lines() for power in (*POWERS, EVALUATION_POWER)]
    return _drawn(first_counterexample(
        "2048ai.monotonicity", lambda line, p: answer(list(line), p),
        lambda line, p: row_terms(line, mono_power=p)["monotonicity"], cases, star=True, equal=_close,
        show=lambda c: f"line {c[0]} with power {c[1]}",
    ))


@checker("2048ai.merges", allow=_LINES, job=("tilelab.game2048.expectimax:row_terms",))
def check_merges(answer: Callable[[list[int]], Any]) -> Result:
    """``answer(line)``: merges one slide makes (gaps closed, each tile merges once)."""
    return _drawn(first_counterexample(
        "2048ai.merges", lambda line: answer(list(line)), lambda line: row_terms(line)["merges"],
        itertools.chain(every_line(), other_lines()),
    ))


@checker("2048ai.best_move", allow=(*_BOARDS, "tilelab.game2048.ai:evaluate"),
         job=("tilelab.game2048.ai:expectimax_values",))
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


@checker("2048ai.worst_spawn", allow=(*_BOARDS, Kit("evaluate", tuple(f for _, f in EVALUATIONS))))
def check_worst_spawn(answer: Callable[[Board, Callable[[Board], float]], Any]) -> Result:
    """``answer(afterstate, evaluate)``: the smallest evaluation over every possible spawn."""
    evaluations = list(EVALUATIONS)
    cases = [(board, named) for size in (2, 3, 4) for board in game_boards(size, BOARDS_PER_SIZE)
             for named in evaluations]

    def reference(board: Board, named: tuple) -> float:
        return min(named[1](board.with_tile(s.cell, s.value)) for s, _ in spawn_outcomes(board))

    return first_counterexample(
        "2048ai.worst_spawn", lambda b, named: answer(b, named[1]), reference, cases, star=True, equal=_close,
        show=lambda c: f"board\n{c[0]}\nwith evaluate = {c[1][0]}",
    )


#: The lesson's 2x2 board (section 2 of lesson 2a): the first case the expectimax checker tries.
LESSON_BOARD = Board.parse("8 4\n2 .")
EXPECTIMAX_BOARDS = 4  #: boards per size for the expectimax checker


def _alive(b: Board) -> float:
    return 1.0 if legal_moves(b) else 0.0


@checker("2048ai.expectimax", allow=(*_BOARDS, Kit("evaluate", (_alive, *(f for _, f in EVALUATIONS)))),
         job=("tilelab.game2048.ai:best_value", "tilelab.game2048.ai:chance_value",
              "tilelab.game2048.ai:expectimax_values"))
def check_expectimax(answer: Callable[[Board, int, Callable[[Board], float]], Any]) -> Result:
    """``answer(board, depth, evaluate)``: the value of a max node, searched ``depth`` of our moves deep."""
    # every evaluation, a negative one included: a best value that starts at LOST instead of the first move's
    # value is wrong wherever every move is worth less than 0
    evaluations = [("alive (1 if a move is left, else 0)", _alive), *EVALUATIONS]
    cases: list[tuple[Board, int, tuple]] = [(LESSON_BOARD, depth, evaluations[0]) for depth in (1, 2)]
    for size, depths in ((2, (1, 2)), (3, (1, 2)), (4, (1,))):
        boards = game_boards(size, EXPECTIMAX_BOARDS)
        for depth in depths:
            cases += [(board, depth, named) for board in boards for named in evaluations]
    cases.sort(key=lambda c: (c[0].size, c[1]))  # the smallest board, then the shallowest search, first

    return first_counterexample(
        "2048ai.expectimax", lambda b, depth, named: answer(b, depth, named[1]),
        lambda b, depth, named: ai.best_value(b, depth, named[1]), cases, star=True, equal=_close,
        show=lambda c: f"board (we move next)\n{c[0]}\nwith depth = {c[1]}, evaluate = {c[2][0]}",
    )


# ---------------------------------------------------------------------------------- the open task
Z95 = 1.959963984540054  #: the normal quantile of a two-sided 95% interval
#: Student's t quantiles (two-sided 95%) for 1..30 degrees of freedom; beyond that the normal one
T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
       2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
CONTEST_SEED = 20480  #: the practice seeds: CONTEST_SEED, CONTEST_SEED + 1, ...
#: Depth of the contest's expectimax. The browser kernel (no compiler, Python 5-30x slower) searches depth 1:
#: two depth-2 games per side took 280 s there, two depth-1 games about 12 s; the message says which.
CONTEST_DEPTH = 1 if IN_BROWSER else 2
WIN_TILE = 2048
FINAL_GAMES = 30  #: the fewest games a final judgement plays
MAX_CONTEST_GAMES = 10_000
FINAL_SEED_BASE = 1_000_000  #: fresh seeds start here, far above the practice ones
FINAL_SEED_SPAN = 1_000_000_000


def mean_ci(values: Any) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (Student's t for small samples).

    >>> mean_ci([1.0, 2.0, 3.0, 4.0])
    (2.5, 2.05...)
    """
    x = np.asarray(values, dtype=float)
    if x.size < 2:
        raise ValueError(f"a confidence interval needs at least 2 values, got {x.size}")
    quantile = T95[x.size - 2] if x.size - 1 <= len(T95) else Z95
    return float(x.mean()), float(quantile * x.std(ddof=1) / math.sqrt(x.size))


def rate_ci(successes: int, n: int) -> tuple[float, float, float]:
    """A success rate with its 95% Wilson interval: (rate, low, high).

    >>> [round(v, 3) for v in rate_ci(9, 10)]
    [0.9, 0.596, 0.982]
    """
    if n < 1 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n and n >= 1, got {successes} of {n}")
    p = successes / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def _as_weights(answer: Any) -> HeuristicWeights:
    if isinstance(answer, HeuristicWeights):
        return answer
    if isinstance(answer, dict):
        return HeuristicWeights(**answer)
    raise TypeError(f"pass HeuristicWeights(...) or a dict of its fields, got {type(answer).__name__}")


def contest(weights: HeuristicWeights, games: int = 30, *, first_seed: int | None = None,
            depth: int | None = None) -> dict[str, np.ndarray]:
    """Final scores and max tiles of depth-``depth`` expectimax with ``weights``, game ``i`` on seed ``first_seed + i``.

    ``first_seed`` defaults to ``CONTEST_SEED`` (the practice seeds).
    """
    from tilelab.game2048 import Expectimax, play_game

    first_seed = CONTEST_SEED if first_seed is None else first_seed

    player = Expectimax(depth=CONTEST_DEPTH if depth is None else depth, weights=weights)
    records = [play_game(player, rng=first_seed + i) for i in range(games)]
    return {"score": np.array([r.score for r in records], dtype=float),
            "max_tile": np.array([r.max_tile for r in records])}


def final_seed(weights: HeuristicWeights) -> int:
    """The first fresh seed a final judgement of ``weights`` plays: a block of its own per set of weights.

    Far from the practice seeds (``CONTEST_SEED`` onward), so the final games are ones no tuning run saw.

    >>> final_seed(DEFAULT_WEIGHTS) >= FINAL_SEED_BASE, final_seed(DEFAULT_WEIGHTS) == final_seed(DEFAULT_WEIGHTS)
    (True, True)
    """
    digest = hashlib.sha256(repr(dataclasses.astuple(weights)).encode()).digest()
    return FINAL_SEED_BASE + int.from_bytes(digest[:4], "big") % FINAL_SEED_SPAN


def _side(result: dict[str, np.ndarray]) -> str:
    n = len(result["score"])
    wins = int((result["max_tile"] >= WIN_TILE).sum())
    _, low, high = rate_ci(wins, n)
    mean, half = mean_ci(result["score"])
    return f"{WIN_TILE} in {wins}/{n} (CI {100 * low:.0f}-{100 * high:.0f}%), mean {mean:,.0f} ± {half:,.0f}"


@checker("2048ai.heuristic_contest", allow=("tilelab.game2048.expectimax:HeuristicWeights",), seconds=None)
def check_heuristic_contest(answer: Any, games: int = 30, final: bool = False) -> Result:
    """Your weights and the default ones on the same seeds: practice seeds to tune, fresh seeds to judge."""
    if isinstance(games, bool) or not isinstance(games, int) or not 2 <= games <= MAX_CONTEST_GAMES:
        raise ValueError(f"games must be an int from 2 to {MAX_CONTEST_GAMES}, got {games!r}")
    if final and games < FINAL_GAMES:
        return Result("2048ai.heuristic_contest", False,
                      f"a final judgement needs at least {FINAL_GAMES} games (fewer leave the interval too wide "
                      f"to mean much): use games={FINAL_GAMES} or more")
    weights = _as_weights(answer)
    seed = final_seed(weights) if final else CONTEST_SEED
    yours, default = contest(weights, games, first_seed=seed), contest(DEFAULT_WEIGHTS, games, first_seed=seed)
    diff, half = mean_ci(yours["score"] - default["score"])
    where = f"fresh seeds {seed}.." if final else "practice seeds"
    message = (f"yours: {_side(yours)}; default: {_side(default)}; yours − default: {diff:+,.0f} ± {half:,.0f} "
               f"(paired 95% CI, {games} {where}"
               + (f", depth-{CONTEST_DEPTH} search in the browser kernel; JupyterLab on a laptop searches depth 2"
                  if IN_BROWSER else "") + "). ")
    passed = bool(final and diff - half > 0)
    if not final:
        message += "Practice only: judge your pick once with final=True."
    elif not passed:
        message += "The interval does not lie above zero."
    return Result("2048ai.heuristic_contest", passed, message, None if passed else weights)
