"""Lesson 5 checkers (5a, 5b, 5c) and 00's warm-up: right answers pass, typical mistakes and delegation fail.

Answers that use package functions run inside ``allow_package_calls()``; the answers the lessons
expect from students are written out here, so they pass without it.
"""

from __future__ import annotations

import numpy as np
import pytest

from tilelab.exercises import allow_package_calls, check, list_exercises
from tilelab.exercises.match3 import CountingGenerator, dead_and_live_boards, template_index
from tilelab.match3 import EMPTY, Board, fall, find_runs, is_dead, new_board, stable_board
from tilelab.match3.dispel import TEMPLATES, is_dead_by_rule, is_dead_by_templates, template_matches
from tilelab.match3.generate import exclude_chance, exclude_probability


# ----------------------------------------------------------------------------- answers a student writes

def count_from(board, cell):
    kind, counts = board[cell], {}
    for name, (dr, dc) in {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}.items():
        r, c, n = cell[0] + dr, cell[1] + dc, 0
        while board.on_board((r, c)) and board[r, c] == kind:
            r, c, n = r + dr, c + dc, n + 1
        counts[name] = n
    return counts


def in_run(board, cell):
    n = count_from(board, cell)
    return n["left"] + n["right"] >= 2 or n["up"] + n["down"] >= 2


def student_is_dead(board, directions=((0, 1), (1, 0)), both_cells=True):
    for a in board.cells():
        for dr, dc in directions:
            b = (a[0] + dr, a[1] + dc)
            if board.on_board(b) and board[a] != board[b]:
                after = board.swapped(a, b)
                if in_run(after, a) or (both_cells and in_run(after, b)):
                    return False
    return True


def student_fall(board):  # lesson 5d's skeleton, filled in
    grid = [[EMPTY] * board.cols for _ in range(board.rows)]
    for c in range(board.cols):
        candies = []
        for r in range(board.rows):
            if board[r, c] != EMPTY:
                candies.append(board[r, c])
        top = board.rows - len(candies)
        for i in range(len(candies)):
            grid[top + i][c] = candies[i]
    return Board(grid, board.kinds)


def _banned(grid, r, c):
    banned = set()
    if c >= 2 and grid[r][c - 1] == grid[r][c - 2]:
        banned.add(grid[r][c - 1])
    if r >= 2 and grid[r - 1][c] == grid[r - 2][c]:
        banned.add(grid[r - 1][c])
    return banned


def student_deal(rows, cols, kinds, rng):
    grid = [[EMPTY] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            allowed = [k for k in range(kinds) if k not in _banned(grid, r, c)]
            grid[r][c] = allowed[int(rng.integers(len(allowed)))]
    return Board(tuple(map(tuple, grid)), kinds)


def redraw_deal_answer(rows, cols, kinds, rng):
    grid = [[EMPTY] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            while True:
                k = int(rng.integers(kinds))
                if k not in _banned(grid, r, c):
                    break
            grid[r][c] = k
    return Board(tuple(map(tuple, grid)), kinds)


def student_probability(board):
    if any(in_run(board, cell) for cell in board.cells()):
        return 0.0
    p = 1.0
    for r in range(board.rows):
        for c in range(board.cols):
            p /= board.kinds - len(_banned(board.grid, r, c))
    return p


# ----------------------------------------------------------------------------- registration and delegation

def test_all_match3_exercises_are_registered():
    assert {"match3.find_runs", "match3.fall", "match3.is_dead", "match3.deal", "match3.deal_probability",
            "match3_specials.striped_wrapped", "match3_specials.made_by", "match3_specials.chain"} <= set(list_exercises())


@pytest.mark.parametrize("name, answer", [
    ("match3.find_runs", lambda b: {c for run in find_runs(b) for c in run.cells}),
    ("match3.fall", lambda b: fall(b)[0]),
    ("match3.is_dead", is_dead),
    ("match3.is_dead", lambda b: is_dead(b)),
    ("match3.is_dead", is_dead_by_rule),
    ("match3.is_dead", is_dead_by_templates),
    ("match3.deal", stable_board),
    ("match3.deal", lambda r, c, k, rng: new_board(r, c, k, rng=rng)),
    ("match3.deal_probability", exclude_probability),
])
def test_an_answer_that_calls_the_package_does_not_pass(name, answer):
    result = check(name, answer)
    assert not result.passed and result.reason == "delegated"


def test_delegation_through_a_helper_or_a_module_is_caught():
    import tilelab.match3 as m3

    def helper(board):
        return m3.is_dead(board)

    assert check("match3.is_dead", lambda b: helper(b)).reason == "delegated"
    assert check("match3.is_dead", lambda b: m3.legal_moves(b) == []).reason == "delegated"
    assert check("match3.is_dead", m3.is_dead_fast).reason == "delegated"


def test_specials_and_start_checkers_refuse_delegation():
    from tilelab.exercises.match3_specials import reference_made_by, reference_striped_wrapped
    from tilelab.game2048.board import Board as Board2048
    from tilelab.match3.special_board import SpecialBoard
    from tilelab.match3.special_rules import combo_cells

    blank = lambda rows, cols: SpecialBoard(((0,) * cols,) * rows, ((0,) * cols,) * rows, 3)  # noqa: E731
    via_combo = lambda rows, cols, centre: combo_cells(blank(rows, cols), "striped+wrapped", centre, centre)[0]  # noqa: E731
    for name, answer in [("match3_specials.striped_wrapped", reference_striped_wrapped),
                         ("match3_specials.striped_wrapped", via_combo),
                         ("match3_specials.made_by", reference_made_by),
                         ("largest_tile", lambda rows: Board2048(rows).max_tile),
                         ("count_empty", lambda rows: len(Board2048(rows).empty_cells()))]:
        assert check(name, answer).reason == "delegated", name
    with allow_package_calls():
        assert check("match3_specials.striped_wrapped", via_combo).passed


# ----------------------------------------------------------------------------- the chain reaction (05c)

def _lesson_blast(board, cell, special):
    """05c's own blast(), as the lesson writes it."""
    from tilelab.match3.special_board import COL, PRIMED, ROW, WRAPPED
    from tilelab.match3.special_rules import most_common_colour

    r0, c0 = cell
    if special == ROW:
        return {(r0, c) for c in range(board.cols)}
    if special == COL:
        return {(r, c0) for r in range(board.rows)}
    if special in (WRAPPED, PRIMED):
        return {(r, c) for r in range(r0 - 1, r0 + 2) for c in range(c0 - 1, c0 + 2) if board.on_board((r, c))}
    colour = most_common_colour(board)
    return {cell} | {x for x in board.cells() if board[x] == colour}


def _worklist(take, catch_in_order=True, blast=_lesson_blast):
    """A chain with a worklist: ``take(list)`` removes the next special (a queue's front, a stack's top)."""
    from tilelab.match3.special_board import NONE

    def chain(board, start):
        queue, fired, order, cleared = list(start), set(start), [], set()
        while queue:
            cell = take(queue)
            order.append(cell)
            hit = blast(board, cell, board.special_code(cell))
            cleared |= hit
            for other in (sorted(hit) if catch_in_order else hit):
                if other not in fired and board.special_code(other) != NONE:
                    fired.add(other)
                    queue.append(other)
        return order, cleared
    return chain


def test_the_chain_checker_accepts_a_queue_in_any_order_within_a_wave_and_the_package_blast():
    from tilelab.match3.special_rules import blast_cells

    assert check("match3_specials.chain", _worklist(lambda q: q.pop(0))).passed  # the lesson's solution
    assert check("match3_specials.chain", _worklist(lambda q: q.pop(0), catch_in_order=False)).passed
    assert check("match3_specials.chain", _worklist(lambda q: q.pop(0), blast=blast_cells)).passed


def test_the_chain_checker_refuses_a_stack_which_fires_a_later_wave_first():
    """The lesson asks for a queue, breadth first: a stack clears the same cells, out of wave order."""
    r = check("match3_specials.chain", _worklist(lambda q: q.pop()))
    assert not r.passed and "wave" in r.message and r.picture and "[" in r.picture, r


def test_the_chain_checker_refuses_with_the_smallest_board_drawn():
    from tilelab.match3.special_board import NONE

    def stub(board, start):
        return list(start), set()

    def no_chain(board, start):  # only the starting specials go off
        return list(start), set().union(*(_lesson_blast(board, c, board.special_code(c)) for c in start))

    def no_fired_set(board, start):  # a special caught twice goes off twice
        queue, order, cleared = list(start), [], set()
        while queue and len(order) < 50:
            cell = queue.pop(0)
            order.append(cell)
            hit = _lesson_blast(board, cell, board.special_code(cell))
            cleared |= hit
            queue += [x for x in sorted(hit) if x != cell and x not in order and board.special_code(x) != NONE]
        return order, cleared

    def out_of_turn(board, start):  # the right cells, but caught specials listed before the blast that caught them
        order, cleared = _worklist(lambda q: q.pop(0))(board, start)
        return list(start) + sorted(set(order) - set(start), reverse=True), cleared

    for wrong in (stub, no_chain, no_fired_set, out_of_turn):
        r = check("match3_specials.chain", wrong)
        assert not r.passed and r.picture and "[" in r.picture, (wrong.__name__, r)
        board, start = r.counterexample
        assert board.rows * board.cols <= 9, (wrong.__name__, r)  # small boards come first
    first = check("match3_specials.chain", stub).counterexample[0]
    assert first.rows * first.cols == 3  # the smallest board of all: one special on a 1x3 board


def test_a_chain_that_calls_the_package_is_refused():
    from tilelab.exercises.match3_specials import reference_chain

    assert check("match3_specials.chain", reference_chain).reason == "delegated"
    with allow_package_calls():
        assert check("match3_specials.chain", reference_chain).passed


# ----------------------------------------------------------------------------- find_runs and fall

def test_find_runs_checker():
    scan = lambda b: {cell for cell in b.cells() if b[cell] != EMPTY and in_run(b, cell)}  # noqa: E731
    assert check("match3.find_runs", scan).passed
    rows_only = lambda b: {cell for cell in b.cells() if b[cell] != EMPTY and  # noqa: E731
                           count_from(b, cell)["left"] + count_from(b, cell)["right"] >= 2}
    result = check("match3.find_runs", rows_only)
    assert not result.passed and result.picture is not None
    crash = check("match3.find_runs", lambda b: 1 / 0)
    assert not crash.passed and "ZeroDivisionError" in crash.message


def test_fall_checker():
    assert check("match3.fall", student_fall).passed
    one_step = lambda b: Board(  # noqa: E731 - drops each candy by at most one cell
        tuple(tuple(b[r - 1, c] if r and b[r, c] == EMPTY else (EMPTY if r + 1 < b.rows and b[r + 1, c] == EMPTY
              else b[r, c]) for c in range(b.cols)) for r in range(b.rows)), b.kinds)
    result = check("match3.fall", one_step)
    assert not result.passed and "yours" in result.picture and "\\n" not in result.message
    skeleton = lambda b: Board([[EMPTY] * b.cols for _ in range(b.rows)], b.kinds)  # noqa: E731 - 5d's, unfilled
    assert not check("match3.fall", skeleton).passed


def test_fall_checker_names_the_sizes_it_tried():
    """The PASSED label lists exactly the board sizes the answer was called on, smallest first."""
    seen = []

    def watched(board):
        if (board.rows, board.cols) not in seen:
            seen.append((board.rows, board.cols))
        return student_fall(board)

    result = check("match3.fall", watched)
    assert result.passed and seen == sorted(seen, key=lambda size: size[0] * size[1])
    assert result.message.endswith("of sizes " + ", ".join(f"{r}x{c}" for r, c in seen))
    assert "8x8" in result.message and "6x1" in result.message


# ----------------------------------------------------------------------------- is_dead: every move pattern matters

@pytest.mark.parametrize("tries, mix, live", [(1500, 120, 150), (500, 60, 80)])  # CPython; the browser's
def test_is_dead_cases_cover_every_move_pattern_with_dead_and_live_boards(tries, mix, live):
    boards = dead_and_live_boards(tries, mix)
    dead = [b for b in boards if is_dead(b)]
    only = {template_index(m[0]) for b in boards if (m := template_matches(b))
            and len({template_index(x) for x in m}) == 1}
    assert len(dead) >= 40 and len(boards) - len(dead) >= live
    assert only == set(range(len(TEMPLATES))) == set(range(16))
    assert [b.rows * b.cols for b in boards] == sorted(b.rows * b.cols for b in boards)  # smallest first


def test_is_dead_checker_takes_the_browser_sizes_there():
    """In the browser kernel (sys.platform 'emscripten') the checker sorts 500 boards, not 1500."""
    import subprocess
    import sys

    code = ("import numpy, sys; sys.platform = 'emscripten'\n"
            "import tilelab.exercises.match3 as m; print(m.DEAD_TRIES, m.DEAD_MIX)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.split() == ["500", "60"]
    from tilelab.exercises import match3

    assert (match3.DEAD_TRIES, match3.DEAD_MIX) == (1500, 120)


def test_is_dead_checker_passes_the_lessons_answer_and_the_rule():
    assert check("match3.is_dead", student_is_dead).passed
    with allow_package_calls():
        assert check("match3.is_dead", is_dead).passed
        assert check("match3.is_dead", is_dead_by_rule).passed  # right on stable boards


@pytest.mark.parametrize("missing", range(16))
def test_is_dead_checker_fails_an_answer_that_misses_one_move_pattern(missing):
    patterns = [t for i, t in enumerate(TEMPLATES) if i != missing]

    def fifteen_patterns(board):
        for r, c in board.cells():
            for template in patterns:
                cells = [(r + dr, c + dc) for dr, dc in template]
                if all(board.on_board(x) for x in cells) and len({board[x] for x in cells}) == 1:
                    return False
        return True

    assert not check("match3.is_dead", fifteen_patterns).passed


def test_is_dead_checker_fails_typical_mistakes():
    assert not check("match3.is_dead", lambda b: False).passed
    assert not check("match3.is_dead", lambda b: True).passed
    assert not check("match3.is_dead", lambda b: student_is_dead(b, directions=((0, 1),))).passed  # no up/down swaps
    assert not check("match3.is_dead", lambda b: student_is_dead(b, both_cells=False)).passed  # checks one cell
    result = check("match3.is_dead", lambda b: None)  # a stub that forgot `return`
    assert not result.passed and "you returned None" in result.message
    assert check("match3.is_dead", lambda b: np.bool_(student_is_dead(b))).passed


# ----------------------------------------------------------------------------- deal: one draw per cell

def test_counting_generator_counts_what_the_student_draws():
    rng = CountingGenerator(np.random.PCG64(0))
    rng.integers(3), rng.choice([1, 2, 3]), rng.random((2, 3)), rng.permutation(4)
    assert rng.draws == 1 + 1 + 6 + 4 and isinstance(rng, np.random.Generator)


def test_deal_checker():
    assert check("match3.deal", student_deal).passed
    with allow_package_calls():
        # the checker calls the student's answer(rows, cols, kinds, rng); the package's rng is keyword-only
        assert check("match3.deal", lambda r, c, k, rng: stable_board(r, c, k, rng=rng)).passed
    uniform = lambda r, c, k, rng: Board.from_array(rng.integers(0, k, (r, c)), k)  # noqa: E731
    assert "ready run" in check("match3.deal", uniform).message
    fixed = lambda r, c, k, rng: student_deal(r, c, k, np.random.default_rng(0))  # noqa: E731
    assert "different seeds" in check("match3.deal", fixed).message
    assert not check("match3.deal", lambda r, c, k, rng: np.zeros((r, c))).passed


def test_deal_checker_names_the_sizes_it_dealt():
    """The PASSED label lists each size of the 120 first deals once (the fairness checks name their own)."""
    seen = []

    def watched(rows, cols, kinds, rng):
        if len(seen) < 120:
            seen.append(f"{rows}x{cols}")
        return student_deal(rows, cols, kinds, rng)

    result = check("match3.deal", watched)
    assert result.passed and f"(sizes {', '.join(dict.fromkeys(seen))};" in result.message
    assert "6x1" in result.message and "1 .. " not in result.message


def test_deal_checker_wants_one_draw_per_cell():
    result = check("match3.deal", redraw_deal_answer)
    assert not result.passed and "draw each cell once" in result.message
    all_at_once = lambda r, c, k, rng: student_deal(r, c, k, iter_rng(rng.random(r * c)))  # noqa: E731
    assert check("match3.deal", all_at_once).passed


def _deal_by(pick):
    """A one-draw-per-cell deal whose kind for a cell is ``pick(draw, kinds, banned)``."""
    def deal(rows, cols, kinds, rng):
        grid = [[EMPTY] * cols for _ in range(rows)]
        for r in range(rows):
            for c in range(cols):
                grid[r][c] = pick(int(rng.integers(kinds)), kinds, _banned(grid, r, c))
        return Board(tuple(map(tuple, grid)), kinds)
    return deal


def _shift_past_banned(k, kinds, banned):
    while k in banned:  # a banned draw moves on to the next kind: that kind comes up twice as often
        k = (k + 1) % kinds
    return k


def _never_the_last_kind(k, kinds, banned):
    allowed = [j for j in range(kinds - 1) if j not in banned] or [kinds - 1]
    return allowed[k % len(allowed)]


def test_deal_checker_wants_the_exclude_deal_reproducible_and_fair():
    """The review's passes: an unseeded deal, a shifted or lopsided one, one that bans every equal neighbour."""
    unseeded = check("match3.deal", lambda r, c, k, rng: student_deal(r, c, k, np.random.default_rng()))
    assert not unseeded and unseeded.picture.count("\n") >= 5  # the two different boards of one seed, side by side
    for unfair in (_deal_by(_shift_past_banned), _deal_by(_never_the_last_kind)):
        result = check("match3.deal", unfair)
        assert not result and isinstance(result.counterexample, Board) and result.counterexample.rows * \
            result.counterexample.cols == 3, result

    def no_equal_neighbours(rows, cols, kinds, rng):
        grid = [[EMPTY] * cols for _ in range(rows)]
        for r in range(rows):
            for c in range(cols):
                banned = {grid[r][c - 1] if c else None, grid[r - 1][c] if r else None}
                allowed = [k for k in range(kinds) if k not in banned]
                grid[r][c] = allowed[int(rng.integers(len(allowed)))]
        return Board(tuple(map(tuple, grid)), kinds)

    over = check("match3.deal", no_equal_neighbours)
    assert not over and over.counterexample.rows * over.counterexample.cols == 3
    assert "chi" not in over.message.lower()  # a word lesson 5b does not teach


class iter_rng:  # noqa: N801 - hands out pre-drawn uniforms as if it were a generator
    def __init__(self, u):
        self.u = iter(u)

    def integers(self, n):
        return int(next(self.u) * n)


def test_deal_probability_checker_wants_the_exclude_deals_chance():
    assert check("match3.deal_probability", student_probability).passed
    uniform = lambda b: 0.0 if student_probability(b) == 0 else b.kinds ** -(b.rows * b.cols)  # noqa: E731
    assert not check("match3.deal_probability", uniform).passed
    assert not check("match3.deal_probability", lambda b: 0).passed
    no_zero = lambda b: student_probability(b) or 1e-9  # noqa: E731 - forgets that runs are never dealt
    assert not check("match3.deal_probability", no_zero).passed
    assert not check("match3.deal_probability", lambda b: True).passed


def test_deal_probability_shows_the_expected_chance_exactly_and_takes_fractions():
    """Readers saw "expected 1/97656249999999984" (1/97656250000000000 rounded through a float)."""
    from fractions import Fraction

    from tilelab.exercises import MESSAGE_LIMIT
    from tilelab.exercises.match3 import deal_probability_cases, as_chance

    target = Fraction(1, 97656250000000000)
    (board_5x5,) = [b for b in deal_probability_cases() if exclude_chance(b) == target][:1]
    assert 1 / student_probability(board_5x5) != 97656250000000000  # a float product, cell by cell, rounds
    assert all(exclude_chance(b) == 0 or float(exclude_chance(b)) == pytest.approx(exclude_probability(b), rel=1e-12)
               for b in deal_probability_cases())

    def wrong_there(board):  # right everywhere but on that 5x5 board
        p = student_probability(board)
        return 2 * p if board == board_5x5 else p

    r = check("match3.deal_probability", wrong_there)
    assert not r and r.counterexample == board_5x5 and len(r.message) <= MESSAGE_LIMIT
    assert "expected 1/97656250000000000 (about 1.024e-17)" in r.message and "97656249999999984" not in r.message

    def exact(board):  # the lesson's text: a fractions.Fraction is accepted, and shown exactly when wrong
        p = Fraction(student_probability(board) > 0)
        for r_ in range(board.rows):
            for c in range(board.cols):
                p /= board.kinds - len(_banned(board.grid, r_, c))
        return p

    assert check("match3.deal_probability", exact).passed
    r = check("match3.deal_probability", lambda board: exact(board) / 2)
    assert not r and f"you returned {exact(r.counterexample) / 2}, expected {exact(r.counterexample)}" in r.message
    assert as_chance(1 / 13122) == "1/13122" and as_chance(Fraction(1, 13122)) == "1/13122"
