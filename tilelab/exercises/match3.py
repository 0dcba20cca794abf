"""Checkers for lessons 5a and 5b (match-3: runs, gravity, dead boards, dealing).

- ``"match3.find_runs"``: ``answer(board) -> cells`` (any iterable of ``(row, col)``): every cell
  that lies on a run of 3+ in a row or column. Checked on random boards with and without runs.
- ``"match3.fall"``: ``answer(board) -> Board``: candies drop into the holes (EMPTY) below them.
- ``"match3.is_dead"``: ``answer(board) -> bool``: no swap makes a run. Checked on dead boards of
  many sizes (1x4 up) and on live boards whose only moves all follow ONE of the 16 move patterns,
  for every pattern, near every edge: an answer that misses any pattern fails.
- ``"match3.deal"``: ``answer(rows, cols, kinds, rng) -> Board``: a board with no ready run, of
  the right size and kinds, different for different seeds, using at most one draw from ``rng``
  per cell (lesson 5b's "one draw per cell"); also with only 3 kinds.
- ``"match3.deal_probability"``: ``answer(board) -> number`` (a float or a ``fractions.Fraction``, both
  accepted): the chance that the exclude deal (each cell uniform among the kinds that complete no run)
  deals exactly this board; 0 for a board with a run. Checked on stable boards with and without equal
  pairs, and on boards with runs; the message shows the exact chance (:func:`tilelab.match3.generate.exclude_chance`).

An answer may build, read and swap boards (see :data:`ALLOW`); calling another tilelab function, the
one doing the exercise's job above all, does not pass. tilelab's own tests use
:func:`tilelab.exercises.allow_package_calls`:

>>> from tilelab.exercises import allow_package_calls, check
>>> from tilelab.match3 import is_dead
>>> check("match3.is_dead", is_dead).passed
False
>>> with allow_package_calls():
...     check("match3.is_dead", is_dead).passed
True
>>> check("match3.is_dead", lambda board: False).passed
False
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, Iterator

import numpy as np

from tilelab import IN_BROWSER
from tilelab.exercises import (
    Result, as_real, case_seed, cases_cache, checker, equals_anything, first_counterexample, side_by_side,
)
from tilelab.exercises.allow import MATCH3_BOARD, NUMPY, Kit
from tilelab.match3 import EMPTY, Board, fall, find_runs, legal_moves, stable_board
from tilelab.match3 import is_dead_fast as is_dead  # the checker's truth: the compiled twin (fast on many boards)
from tilelab.match3.dispel import TEMPLATES, template_matches
from tilelab.match3.generate import exclude_chance, exclude_probability
from tilelab.exercises.raised import raised_text

SEED = 2025
SHAPES = [(3, 3), (4, 4), (5, 5), (6, 6), (8, 8), (3, 5), (5, 3), (1, 6), (6, 1), (7, 9)]
#: Random stable boards the is_dead checker draws its cases from, and its seeded mix (see
#: :func:`dead_and_live_boards`). Sorting them by move pattern costs about 5 s in CPython and a minute
#: in the browser (Python 5-30x slower); there a third as many still has every one of the 16 patterns
#: alone on a board (tested), at fewer board edges.
DEAD_TRIES, DEAD_MIX = (500, 60) if IN_BROWSER else (1500, 120)

_M = "tilelab.match3:"
#: What each exercise's answer may call: boards built, read and swapped, numpy, and for the dead-board and
#: probability exercises the runs on a board (``find_runs``: lesson 5a's first idea). Any other tilelab
#: function (the rules object ``PLAIN``, ``is_dead`` and its compiled twins, ``fall`` and the cascade,
#: the deals and ``exclude_probability``) is delegation.
_RUNS_OK = (Kit("find_runs", (_M + "find_runs", _M + "find_matches", _M + "Run[*]", _M + "Group[*]")),)
ALLOW = {
    "runs": (MATCH3_BOARD, NUMPY),
    "fall": (MATCH3_BOARD, NUMPY),
    "dead": (MATCH3_BOARD, *_RUNS_OK, NUMPY),
    "deal": (MATCH3_BOARD, Kit("the rng you are given", ("tilelab.exercises.match3:CountingGenerator[*]",)), *_RUNS_OK,
             NUMPY),
    "probability": (MATCH3_BOARD, *_RUNS_OK, NUMPY),
}


def _show(board: Board) -> str:
    """A board as its monospace picture (several lines, so the result draws it under the message)."""
    return f"{board.rows}x{board.cols} board:\n{board.picture()}"


def _random_boards(count: int, holes: bool = False) -> Iterator[Board]:
    rng = np.random.default_rng(case_seed(SEED))
    for i in range(count):
        rows, cols = SHAPES[i % len(SHAPES)]
        kinds = 3 + i % 4
        grid = rng.integers(0, kinds, (rows, cols))
        if holes:
            grid[rng.random((rows, cols)) < 0.3] = EMPTY
        yield Board.from_array(grid, kinds)


def _truth_value(value: Any) -> Any:
    """A bool (numpy's too) as a plain bool; anything else unchanged, so ``None`` is reported as ``None``."""
    return bool(value) if isinstance(value, (bool, np.bool_)) else value


@checker("match3.find_runs", allow=ALLOW["runs"], job=("tilelab.match3:find_runs",))
def check_find_runs(answer: Callable[[Board], Any]) -> Result:
    """``answer(board)`` must give exactly the cells that lie on a run of 3 or more."""
    reference = lambda board: {cell for run in find_runs(board) for cell in run.cells}  # noqa: E731
    student = lambda board: {tuple(cell) for cell in answer(board)}  # noqa: E731
    return first_counterexample("match3.find_runs", student, reference, _random_boards(300), show=_show)


@checker("match3.fall", allow=ALLOW["fall"], job=("tilelab.match3:fall",))
def check_fall(answer: Callable[[Board], Board]) -> Result:
    """``answer(board)`` must let every candy drop as far as the holes below it allow."""
    name = "match3.fall"
    boards = sorted(_random_boards(300, holes=True), key=lambda b: b.rows * b.cols)
    for board in boards:
        want = fall(board)[0]
        try:
            got = answer(board)
        except Exception as exc:
            error = raised_text(exc)
            return Result(name, False, f"on the board below your code raised {error}", board, _show(board))
        if got == want and isinstance(got, Board) and not equals_anything(got):
            continue
        if not isinstance(got, Board):
            return Result(name, False, f"on the board below you returned {type(got).__name__}, not a Board",
                          board, _show(board))
        picture = side_by_side(("board", board.picture()), ("yours", got.picture()), ("expected", want.picture()))
        if got.grid == want.grid and got.kinds != want.kinds:
            return Result(name, False, f"on the board below your candies land right, but your board has {got.kinds} "
                          f"kinds where the board you were given has {board.kinds}: pass board.kinds on", board, picture)
        return Result(name, False, "on the board below your board differs from where the candies end up",
                      board, picture)
    sizes = ", ".join(dict.fromkeys(f"{b.rows}x{b.cols}" for b in boards))  # smallest first: the label says what was tried
    return Result(name, True, f"passed on all {len(boards)} boards with holes, of sizes {sizes}")


def template_index(cells: tuple) -> int:
    """Which of the 16 move patterns (:data:`tilelab.match3.dispel.TEMPLATES`) three cells follow."""
    for i, template in enumerate(TEMPLATES):
        r0, c0 = cells[0][0] - template[0][0], cells[0][1] - template[0][1]
        if tuple((r0 + dr, c0 + dc) for dr, dc in template) == tuple(cells):
            return i
    raise ValueError(f"{cells} follow no move pattern")


def _edges(board: Board, cells: tuple) -> frozenset[str]:
    """Which board edges a pattern's cells touch ("top", "bottom", "left", "right")."""
    rows, cols = [r for r, _ in cells], [c for _, c in cells]
    return frozenset(name for name, hit in (("top", min(rows) == 0), ("bottom", max(rows) == board.rows - 1),
                                            ("left", min(cols) == 0), ("right", max(cols) == board.cols - 1)) if hit)


@cases_cache(maxsize=2)
def dead_and_live_boards(tries: int = DEAD_TRIES, mix: int = DEAD_MIX) -> tuple[Board, ...]:
    """Stable boards for the is_dead checker, smallest first (about a third of them dead).

    For every one of the 16 move patterns, live boards whose moves ALL follow that pattern, the
    pattern touching different edges; dead boards of many shapes (long thin ones too); and a
    seeded mix of random stable boards. ``tries`` random boards are sorted into these, ``mix`` more
    are added as they come. Inside :func:`tilelab.exercises.hidden_cases` they are drawn from the grader's seed.
    """
    rng = np.random.default_rng(case_seed(SEED))
    single: dict[tuple[int, frozenset], Board] = {}
    dead: dict[tuple[int, int], list[Board]] = {(1, 4): [Board.parse("0101", kinds=3)],
                                                  (4, 1): [Board.parse("0\n1\n0\n1", kinds=3)]}
    for _ in range(tries):
        rows, cols = 2 + int(rng.integers(5)), 2 + int(rng.integers(5))
        board = stable_board(rows, cols, 4 + int(rng.integers(4)), rng=rng)
        if is_dead(board):
            pile = dead.setdefault((rows, cols), [])
            if len(pile) < 2:
                pile.append(board)
            continue
        moves = template_matches(board)
        patterns = {template_index(cells) for cells in moves}
        if len(patterns) == 1:
            key = (patterns.pop(), _edges(board, moves[0]))
            if key not in single or board.rows * board.cols < single[key].rows * single[key].cols:
                single[key] = board
    mixed = [stable_board(4 + i % 4, 4 + i % 5, 5 + i % 3, rng=rng) for i in range(mix)]
    cases = list(single.values()) + [b for pile in dead.values() for b in pile] + mixed
    return tuple(sorted(cases, key=lambda b: (b.rows * b.cols, b.rows)))


@checker("match3.is_dead", allow=ALLOW["dead"], prepare=dead_and_live_boards, job=("tilelab.match3:is_dead",))
def check_is_dead(answer: Callable[[Board], Any]) -> Result:
    """``answer(board)`` must say whether no swap makes a run (every move pattern, dead and live boards)."""
    name = "match3.is_dead"
    boards = dead_and_live_boards()
    for board in boards:
        try:
            got = _truth_value(answer(board))
        except Exception as exc:  # noqa: BLE001 - reported with its board
            error = raised_text(exc)
            return Result(name, False, f"on the board below your code raised {error}", board, _show(board), "raised")
        want = bool(is_dead(board))
        if isinstance(got, bool) and got == want:
            continue
        if not isinstance(got, bool):
            return Result(name, False, f"you returned {got!r} on the board below; return True or False", board,
                          _show(board))
        if got:  # said dead, but a swap makes a run
            a, b = legal_moves(board)[0]
            return Result(name, False, f"you said the board below is dead, but swapping {a} and {b} makes a run",
                          board, _show(board))
        return Result(name, False, "you said the board below has a move, but no swap on it makes a run: it is dead",
                      board, _show(board))
    return Result(name, True, f"passed on all {len(boards)} boards (dead ones, and live ones for every move pattern)")


class CountingGenerator(np.random.Generator):
    """A numpy Generator that counts the random values the student's code draws from it.

    A call made by the student counts the values it returns (one for a single number, ``n`` for
    an array of ``n``); calls numpy makes inside that call (``choice`` uses ``integers``) are not
    counted again.

    >>> rng = CountingGenerator(np.random.PCG64(1))
    >>> _ = rng.integers(3), rng.choice([4, 5]), rng.random(6)
    >>> rng.draws
    8
    """

    draws = 0
    _depth = 0


def _counted(name: str) -> Callable[..., Any]:
    method = getattr(np.random.Generator, name)

    def counted(self: CountingGenerator, *args: Any, **kwargs: Any) -> Any:
        self._depth += 1
        try:
            out = method(self, *args, **kwargs)
        finally:
            self._depth -= 1
        if self._depth == 0:
            if name in ("shuffle", "permuted"):
                self.draws += int(np.size(args[0] if args else kwargs.get("x", ())))
            else:
                self.draws += int(np.size(out))
        return out

    counted.__name__ = name
    return counted


for _name in ("integers", "random", "choice", "permutation", "shuffle", "permuted", "uniform", "normal",
              "exponential", "standard_normal", "bytes", "binomial", "poisson", "geometric"):
    setattr(CountingGenerator, _name, _counted(_name))
del _name


@checker("match3.deal", allow=ALLOW["deal"], job=("tilelab.match3:stable_board",))
def check_deal(answer: Callable[[int, int, int, np.random.Generator], Board]) -> Result:
    """``answer(rows, cols, kinds, rng)`` must deal a no-run board in one draw per cell, even with 3 kinds."""
    name = "match3.deal"
    seen = set()
    cases = sorted(((SHAPES[i % len(SHAPES)], 3 + i % 5, i) for i in range(120)), key=lambda x: x[0][0] * x[0][1])
    for (rows, cols), kinds, seed in cases:
        drawn = case_seed(seed)
        rng = CountingGenerator(np.random.PCG64(drawn))
        board = answer(rows, cols, kinds, rng)
        case = (rows, cols, kinds, f"rng={drawn}")
        shown = f"my_deal({rows}, {cols}, {kinds}, rng)"
        if not isinstance(board, Board):
            return Result(name, False, f"{shown} returned {type(board).__name__}, not a Board", case)
        if (board.rows, board.cols, board.kinds) != (rows, cols, kinds):
            return Result(name, False, f"{shown} gave a {board.rows}x{board.cols} board with "
                          f"{board.kinds} kinds", case)
        if not board.is_full:
            return Result(name, False, f"{shown} left holes:", case, _show(board))
        if find_runs(board):
            return Result(name, False, f"{shown} dealt a ready run:", case, _show(board))
        if rng.draws > rows * cols:
            return Result(name, False, f"{shown} drew {rng.draws} random values for {rows * cols} cells: draw "
                          "each cell once, straight from the kinds allowed there (section 1a)", case)
        seen.add(board)
    if len(seen) < 100:
        return Result(name, False, "different seeds should give different boards: draw from the rng you are given")
    for seed in range(3):
        first, again = (answer(5, 5, 4, CountingGenerator(np.random.PCG64(seed))) for _ in range(2))
        if first != again:
            return Result(name, False, "two deals from the same seed gave different boards: draw every random "
                          "number from the rng you are given (no np.random, no random module)", (5, 5, 4, f"rng={seed}"),
                          side_by_side(("first", first.picture()), ("again", again.picture()))
                          if isinstance(first, Board) and isinstance(again, Board) else None)
    for rows, cols in FAIR_SHAPES:
        unfair = _unfair_deal(answer, rows, cols)
        if unfair is not None:
            board, share, fair = unfair
            return Result(name, False, f"on {rows}x{cols} boards with 3 kinds, the board below came up in {share:.1%} of "
                          f"{FAIR_DEALS:,} deals; the exclude deal (each cell uniform among the kinds allowed there) "
                          f"gives it {fair:.1%}. Give each allowed kind the same chance (and ban a kind only after an equal "
                          "pair)", board, _show(board))
    unfair = _unfair_corner(answer)
    if unfair is not None:
        board, share, fair = unfair
        return Result(name, False, f"on 3x3 boards with 3 kinds, the last cell and the pairs left of it and above it "
                      f"came out as in the board below in {share:.1%} of {FAIR_DEALS:,} deals; the exclude deal gives "
                      f"{fair:.1%}. Draw uniformly among the kinds allowed there (a kind both pairs ban is banned once)",
                      board, _show(board))
    sizes = ", ".join(dict.fromkeys(f"{rows}x{cols}" for (rows, cols), _, _ in cases))  # the label says what was dealt
    return Result(name, True, f"passed on {len(cases)} deals (sizes {sizes}; 3 to 7 kinds), one draw per cell, the "
                  "same board again from the same seed (repeatable), and each 1x3 and 3x1 board, and the last cell of a 3x3 board, as "
                  "often as the exclude deal deals them")


#: The tiny boards whose every deal is counted: 24 boards each, with the exclude deal's exact chances.
FAIR_SHAPES = ((1, 3), (3, 1))
FAIR_DEALS = 2400  #: deals per tiny shape (a fair deal fails by chance once in 10,000 checks)


def _unfair_deal(answer: Callable[..., Any], rows: int, cols: int) -> tuple[Board, float, float] | None:
    """The board furthest from its exclude-deal share when ``answer`` deals ``FAIR_DEALS`` tiny boards, if unfair."""
    from tilelab.exercises.sliding import chi_square_critical

    rng = CountingGenerator(np.random.PCG64(case_seed(SEED)))
    counts: dict[Board, int] = {}
    for _ in range(FAIR_DEALS):
        board = answer(rows, cols, 3, rng)
        counts[board] = counts.get(board, 0) + 1
    every = [Board(tuple(tuple(int(k) for k in grid[r * cols:(r + 1) * cols]) for r in range(rows)), 3)
             for grid in np.ndindex(*(3,) * (rows * cols))]
    fair = {b: exclude_probability(b) for b in every}
    fair = {b: p for b, p in fair.items() if p > 0}
    if set(counts) - set(fair):  # a board with a run or of another size: the first checks report those
        return None
    spread = sum((counts.get(b, 0) - FAIR_DEALS * p) ** 2 / (FAIR_DEALS * p) for b, p in fair.items())
    if spread <= chi_square_critical(len(fair) - 1, 0.9999):
        return None
    worst = max(fair, key=lambda b: abs(counts.get(b, 0) / FAIR_DEALS - fair[b]) / fair[b] ** 0.5)
    return worst, counts.get(worst, 0) / FAIR_DEALS, fair[worst]


def _corner(board: Board) -> tuple[int | None, int | None, int]:
    """What the exclude deal sees at a 3x3 board's last cell: the kind its left pair bans (None if the pair differs),
    the kind its upper pair bans, and the kind it got."""
    left = int(board[2, 0]) if board[2, 0] == board[2, 1] else None
    up = int(board[0, 2]) if board[0, 2] == board[1, 2] else None
    return left, up, int(board[2, 2])


@lru_cache(maxsize=1)
def _exact_corners() -> tuple[dict[tuple[int | None, int | None, int], float], dict[tuple[int | None, int | None, int], Board]]:
    """The exclude deal's chance of each :func:`_corner` on 3x3 boards with 3 kinds, and its likeliest board."""
    chance: dict[tuple[int | None, int | None, int], float] = {}
    likeliest: dict[tuple[int | None, int | None, int], tuple[float, Board]] = {}
    for grid in np.ndindex(*(3,) * 9):
        board = Board(tuple(tuple(int(k) for k in grid[r * 3:(r + 1) * 3]) for r in range(3)), 3)
        p = exclude_probability(board)
        if p > 0:
            key = _corner(board)
            chance[key] = chance.get(key, 0.0) + float(p)
            if key not in likeliest or p > likeliest[key][0]:
                likeliest[key] = (float(p), board)
    return chance, {key: board for key, (_, board) in likeliest.items()}


def _unfair_corner(answer: Callable[..., Any]) -> tuple[Board, float, float] | None:
    """Where two pairs ban kinds at one cell (only a 2-D board has that): the corner furthest from the exclude deal's
    share over ``FAIR_DEALS`` 3x3 deals, if unfair (a kind banned by both pairs counted twice, say)."""
    from tilelab.exercises.sliding import chi_square_critical

    rng = CountingGenerator(np.random.PCG64(case_seed(SEED + 1)))
    counts: dict[tuple[int | None, int | None, int], int] = {}
    for _ in range(FAIR_DEALS):
        board = answer(3, 3, 3, rng)
        if not isinstance(board, Board) or (board.rows, board.cols) != (3, 3) or find_runs(board):
            return None  # the first checks report those
        key = _corner(board)
        counts[key] = counts.get(key, 0) + 1
    chance, likeliest = _exact_corners()
    fair = {key: p for key, p in chance.items() if FAIR_DEALS * p >= 5}
    spread = sum((counts.get(key, 0) - FAIR_DEALS * p) ** 2 / (FAIR_DEALS * p) for key, p in fair.items())
    if spread <= chi_square_critical(len(fair) - 1, 0.9999):
        return None
    worst = max(fair, key=lambda key: abs(counts.get(key, 0) / FAIR_DEALS - fair[key]) / fair[key] ** 0.5)
    return likeliest[worst], counts.get(worst, 0) / FAIR_DEALS, fair[worst]


def deal_probability_cases() -> list[Board]:
    """Small boards first: one where both pairs ban the same kind at one cell, then stable and runny boards."""
    rng = np.random.default_rng(case_seed(SEED))
    cases = [Board.parse("021\n201\n110"), Board.parse("012\n120\n201"), Board.parse("001\n112\n220"),
             Board.parse("0011\n1100")]
    for i in range(150):
        rows, cols = SHAPES[i % len(SHAPES)]
        cases.append(stable_board(rows, cols, 3 + i % 4, rng=rng))
    cases += list(_random_boards(30))  # many of these hold a run: the deal never makes them
    return sorted(cases, key=lambda b: b.rows * b.cols)


def as_chance(p: Any) -> str:
    """A probability as the student would write it: a fraction kept exact (``1/13122``), a float as ``1/n`` when it
    is one over a whole number below 10**12 (a float's rounding cannot change that whole number), else its digits.

    >>> as_chance(Fraction(1, 97656250000000000)), as_chance(Fraction(3, 8)), as_chance(0)
    ('1/97656250000000000', '3/8', '0')
    >>> as_chance(1 / 13122), as_chance(0.0), as_chance(0.3), as_chance(1.0), as_chance(2 ** -60)
    ('1/13122', '0', '0.3', '1', '8.67362e-19')
    """
    if isinstance(p, numbers.Rational):  # a Fraction or an int: exact
        return str(Fraction(p))
    p = float(p)
    if p > 0:
        n = 1 / p
        if n < 1e12 and abs(n - round(n)) < 1e-13 * n:  # a float one over n stays that close (the check asks 1e-9)
            return "1" if round(n) == 1 else f"1/{round(n)}"
    return f"{p:.6g}" if p < 1e-4 else f"{p:.4g}"


@checker("match3.deal_probability", allow=ALLOW["probability"], job=("tilelab.match3.generate:exclude_probability",
                                                                                 "tilelab.match3.generate:exclude_chance"))
def check_deal_probability(answer: Callable[[Board], Any]) -> Result:
    """``answer(board)`` must give the exclude deal's chance of dealing exactly ``board`` (0 with a run)."""
    name = "match3.deal_probability"
    cases = deal_probability_cases()
    for board in cases:
        want = exclude_chance(board)  # exact: a float's rounding would show 1/97656249999999984 for 1/97656250000000000
        try:
            got = answer(board)
        except Exception as exc:  # noqa: BLE001 - reported with its board
            error = raised_text(exc)
            return Result(name, False, f"on the board below your code raised {error}", board, _show(board), "raised")
        value = as_real(got)  # any real number: float, Fraction, Decimal, numpy's
        if value is None:
            return Result(name, False, f"you returned {got!r} on the board below; return a number", board,
                          _show(board))
        if not math.isclose(value, float(want), rel_tol=1e-9, abs_tol=0.0):
            runs = " (it holds a run, which the deal never makes)" if want == 0 else ""
            shown = got if isinstance(got, numbers.Rational) else value  # a Fraction answer is shown exactly
            about = f" (about {float(want):.6g})" if want.denominator >= 10 ** 12 else ""  # beside a float's digits
            return Result(name, False, f"on the board below{runs} you returned {as_chance(shown)}, expected "
                          f"{as_chance(want)}{about}", board, _show(board))
    return Result(name, True, f"passed on all {len(cases)} boards")
