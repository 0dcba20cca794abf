"""The reviews' loopholes and false refusals, one test each (``../shared/reviews/lessons-*.md``, "Self-checks").

Each loophole is an answer that hands the exercise's job to tilelab by a route the old deny-lists missed; each
false refusal is honest work they refused. Both are decided now by what the answer calls at run time, against
the exercise's allow-list. No test here uses ``allow_package_calls``.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tilelab.exercises import MESSAGE_LIMIT, allowed_calls, check, list_exercises


# ---------------------------------------------------------------------------- loopholes: each is refused
def plain_rules_is_dead(board):
    from tilelab.match3 import PLAIN

    return PLAIN.is_dead(board)


def plain_rules_no_moves(board):
    from tilelab.match3 import PLAIN

    return not PLAIN.legal_moves(board)


def specials_fast_is_dead(board):
    from tilelab.match3 import SpecialBoard
    from tilelab.match3.fast.specials import is_dead_specials_fast

    return is_dead_specials_fast(SpecialBoard.from_board(board))


def fall_by_fall_moves(board):
    from tilelab.match3 import EMPTY
    from tilelab.match3.cascade import fall_moves

    changes = {}
    for src, dst in fall_moves(board):
        changes[dst], changes[src] = board[src], EMPTY
    return board.with_cells(changes)


def striped_wrapped_by_play(rows, cols, centre):
    """05c's own technique: build a board with the two specials, swap them with play(), read what step 1 clears."""
    from tilelab.match3 import SpecialBoard, play

    r, c = centre
    other = (r, c - 1) if c > 0 else (r, c + 1) if c + 1 < cols else (r - 1, c) if r > 0 else (r + 1, c)
    grid = [[str((2 * i + j) % 6) for j in range(cols)] for i in range(rows)]
    grid[r][c], grid[other[0]][other[1]] = "1+", "0-"
    board = SpecialBoard.parse("\n".join(" ".join(row) for row in grid), kinds=6)
    return set(play(board, (other, centre), rng=0).steps[0].cleared_cells)


def parity_plus_blank_distance(board):
    from tilelab.sliding import blank_distance, permutation_parity

    return (permutation_parity(board) + blank_distance(board)) % 2 == 0


def slide_row_through_game(row):
    from tilelab.game2048 import Board, Game

    n = len(row)
    game = Game(board=Board([list(row)] + [[0] * n for _ in range(n - 1)]), rng=0)
    game.play("left")
    return game.score


LOOPHOLES = [
    ("match3.is_dead", plain_rules_is_dead, "PlainRules.is_dead"),
    ("match3.is_dead", plain_rules_no_moves, "PlainRules.legal_moves"),
    ("match3.is_dead", specials_fast_is_dead, "SpecialBoard.from_board"),  # building a special board is not allowed
    ("match3.fall", fall_by_fall_moves, "fall_moves"),
    ("match3_specials.striped_wrapped", striped_wrapped_by_play, "play"),  # building the board is allowed (the lesson's blast() does); play is the job
    ("sliding.is_solvable", parity_plus_blank_distance, "permutation_parity"),
    ("2048.row_score", slide_row_through_game, "Game.__init__"),
]


@pytest.mark.parametrize("name, answer, called", LOOPHOLES, ids=[f"{n}-{a.__name__}" for n, a, _ in LOOPHOLES])
def test_a_loophole_of_the_deny_lists_is_refused(name, answer, called):
    r = check(name, answer)
    assert not r and r.reason == "delegated" and r.counterexample.endswith(called), r
    assert len(r.message) < MESSAGE_LIMIT  # (a longer message is cut to the limit)


def test_the_compiled_twin_of_the_specials_dead_test_is_refused_too():
    """``is_dead_specials_fast`` on a board the answer got honestly (a SpecialBoard built by the checker is not
    available, so the test passes one through a closure made before the check)."""
    from tilelab.match3 import SpecialBoard
    from tilelab.match3.fast.specials import is_dead_specials_fast

    convert = {}

    def answer(board):
        special = convert.get(board)
        return is_dead_specials_fast(special) if special is not None else False

    from tilelab.exercises.match3 import dead_and_live_boards

    for board in dead_and_live_boards():
        convert[board] = SpecialBoard.from_board(board)
    r = check("match3.is_dead", answer)
    assert r.reason == "delegated" and r.counterexample.endswith("is_dead_specials_fast")


def test_a_special_board_built_before_the_check_and_played_with_play_is_refused():
    """05c's own technique with nothing to build inside the answer: the boards come ready, only ``play`` is called."""
    from tilelab.exercises.match3_specials import SIZES
    from tilelab.match3 import SpecialBoard, play

    def beside(rows, cols, centre):
        r, c = centre
        return (r, c - 1) if c > 0 else (r, c + 1) if c + 1 < cols else (r - 1, c) if r > 0 else (r + 1, c)

    ready = {}
    for rows, cols in SIZES:
        for centre in ((i, j) for i in range(rows) for j in range(cols)):
            grid = [[str((2 * i + j) % 6) for j in range(cols)] for i in range(rows)]
            (r, c), (orow, ocol) = centre, beside(rows, cols, centre)
            grid[r][c], grid[orow][ocol] = "1+", "0-"
            ready[rows, cols, centre] = SpecialBoard.parse("\n".join(" ".join(row) for row in grid), kinds=6)

    def answer(rows, cols, centre):
        move = (beside(rows, cols, centre), centre)
        return set(play(ready[rows, cols, centre], move, rng=0).steps[0].cleared_cells)

    r = check("match3_specials.striped_wrapped", answer)
    assert not r and r.reason == "delegated" and r.counterexample.endswith(".play"), r


class EqualsAnything:
    """The hunt's probe 68: an answer whose value says it equals whatever it is compared with."""

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = None


#: Every exercise that compares the answer's value with the right one (the hunt's probe found nine passing).
COMPARED = ["count_empty", "largest_tile", "match3.fall", "match3_specials.made_by", "sliding.inversions",
            "sliding.is_solvable", "sliding.multi_moves", "solvers.manhattan", "solvers.misplaced", "2048.row_score",
            "match3.is_dead", "match3.deal_probability", "2048ai.merges", "solvers.admissible", "2048ai.expectimax",
            "sliding.bfs", "2048ai.monotonicity"]


@pytest.mark.parametrize("name", COMPARED)
def test_a_value_that_equals_anything_does_not_pass(name):
    r = check(name, lambda *args, **kwargs: EqualsAnything())
    assert not r and r.reason == "", r


# ---------------------------------------------------------------------------- false refusals: each is accepted
def count_empty_through_a_board(rows):
    from tilelab.game2048 import Board

    b = Board(rows)
    return sum(1 for r in b.grid for v in r if v == 0)


def largest_tile_through_a_board(rows):
    from tilelab.game2048 import Board

    return max(max(r) for r in Board(rows).grid)


def available_moves_that_mention_game(board):
    from tilelab.game2048 import Direction, Game, play

    assert not isinstance(board, Game)  # naming a class is not calling its methods
    return [d for d in Direction if play(board, d).changed]


def deal_probability_as_a_fraction(board):
    from tilelab.match3 import find_runs

    if find_runs(board):
        return Fraction(0)
    p = Fraction(1)
    for r in range(board.rows):
        for c in range(board.cols):
            banned = set()
            if c >= 2 and board[r, c - 1] == board[r, c - 2]:
                banned.add(board[r, c - 1])
            if r >= 2 and board[r - 1, c] == board[r - 2, c]:
                banned.add(board[r - 1, c])
            p /= board.kinds - len(banned)
    return p


HONEST = [
    ("count_empty", count_empty_through_a_board),
    ("largest_tile", largest_tile_through_a_board),
    ("2048.available_moves", available_moves_that_mention_game),
    ("match3.deal_probability", deal_probability_as_a_fraction),
]


@pytest.mark.parametrize("name, answer", HONEST, ids=[f"{n}-{a.__name__}" for n, a in HONEST])
def test_honest_work_the_deny_lists_refused_passes(name, answer):
    r = check(name, answer)
    assert r and r.reason == "", r


def test_every_exercise_says_what_its_answer_may_use():
    for name in list_exercises():
        assert isinstance(allowed_calls(name), str)


def _package_answers():
    import importlib

    from tilelab.exercises import package_calls

    out = []
    for name in list_exercises():
        for dotted in package_calls(name):
            module, function = dotted.rsplit(".", 1)
            out.append((name, getattr(importlib.import_module(module), function)))
    return out


@pytest.mark.parametrize("name, function", _package_answers(), ids=lambda x: getattr(x, "__name__", x))
def test_the_package_version_of_an_exercise_is_refused_as_an_answer_and_through_a_wrapper(name, function):
    assert check(name, function).reason == "delegated"

    def wrapper(*args, **kwargs):
        return function(*args, **kwargs)

    through = check(name, wrapper)
    if through.reason == "raised":  # the package's version takes other arguments (rng keyword-only, a board...)
        assert "argument" in through.message, through
    else:
        assert through.reason == "delegated", through


def test_a_refusal_says_whether_the_call_does_the_exercises_job_or_is_only_not_offered():
    """Calling the package's answer to the exercise is named as doing its job; a move generator that a student's own
    search calls (a reviewer's breadth-first search in 03a's solvability exercise) is named as not offered."""
    from tilelab.sliding import distance, is_solvable

    def my_is_solvable(board):
        return is_solvable(board)

    def my_search(board):
        board.legal_directions()
        return distance(board) >= 0

    job, search = check("sliding.is_solvable", my_is_solvable), check("sliding.is_solvable", my_search)
    assert job.reason == search.reason == "delegated"
    assert "exercise's job" in job.message and "not offer" not in job.message
    assert "legal_directions" in search.message and "not offer" in search.message and "job" not in search.message
