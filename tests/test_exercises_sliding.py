"""Lessons 3a, 3b and 3c's checkers pass correct answers, refuse delegation, and catch the usual wrong ones.

Correct answers are written here (as a student would); package answers run inside
``allow_package_calls()`` only.
"""

from __future__ import annotations

import re
import time
from collections import deque

import numpy as np
import pytest

from tilelab.exercises import allow_package_calls, check, list_exercises
from tilelab.sliding import (
    Board,
    bfs_distances,
    count_moves,
    distance_table,
    inversion_pairs,
    inversions,
    is_solvable,
    play,
    random_board,
    shuffle,
    solvable_by_invariant,
    states_at_distance,
)

NAMES = ("sliding.inversions", "sliding.is_solvable", "sliding.shuffle", "sliding.multi_moves", "sliding.even_share",
         "sliding.bfs")


# --- answers a student might write (no forbidden package calls) ---

def my_inversions(board):
    seq = [t for t in board.tiles if t != 0]
    return sum(1 for i, a in enumerate(seq) for b in seq[i + 1:] if a > b)


def my_is_solvable(board):
    count = inversions(board)  # allowed: exercise 1 wrote it
    if board.cols % 2 == 1:
        return count % 2 == 0
    return (count + board.rows - board.blank[0]) % 2 == 1


def my_shuffle(rows, cols, rng):
    board = Board(rng.permutation(rows * cols), rows, cols)
    if is_solvable(board):
        return board
    a, b = [t for t in board.tiles if t != 0][:2]
    return board.swap_tiles(a, b)


def my_multi_moves(board, tiles):
    moves, last = 0, None
    for tile in tiles:
        event = play(board, tile)
        moves += event.direction != last
        last, board = event.direction, event.after
    return moves


def my_even_share(rows, cols):
    return sum((rows - 1 - r + cols - 1 - c) % 2 == 0 for r in range(rows) for c in range(cols)) / (rows * cols)


def test_registered():
    assert set(NAMES) <= set(list_exercises())


def test_students_answers_pass():
    assert check("sliding.inversions", my_inversions).passed
    assert check("sliding.is_solvable", my_is_solvable).passed
    assert check("sliding.multi_moves", my_multi_moves).passed
    assert check("sliding.even_share", my_even_share).passed


@pytest.mark.parametrize("name, answer, package_name", [
    ("sliding.inversions", inversions, "inversions"),
    ("sliding.inversions", lambda p: len(inversion_pairs(p)), "inversion_pairs"),
    ("sliding.is_solvable", is_solvable, "is_solvable"),
    ("sliding.is_solvable", lambda p: solvable_by_invariant(p), "solvable_by_invariant"),
    ("sliding.is_solvable", lambda p: distance_table(p.rows, p.cols)[0] >= 0, "distance_table"),
    ("sliding.shuffle", lambda r, c, rng: shuffle(r, c, rng=rng), "shuffle"),
    ("sliding.multi_moves", lambda p, tiles: count_moves(p, tiles).multi, "count_moves"),
    ("sliding.even_share", lambda r, c: float(np.mean(distance_table(r, c) % 2 == 0)), "distance_table"),
    ("sliding.bfs", bfs_distances, "bfs_distances"),
    ("sliding.bfs", lambda start: {p: d for d in range(3) for p in states_at_distance(2, 2, d)}, "states_at_distance"),
])
def test_delegating_answers_are_refused_kindly(name, answer, package_name):
    result = check(name, answer)
    assert not result.passed and result.reason == "delegated" and result.counterexample.endswith(package_name)
    assert package_name in result.message


def test_delegation_through_a_helper_is_refused():
    def helper(p):
        return inversions(p)

    def answer(p):
        return helper(p)

    assert check("sliding.inversions", answer).counterexample.endswith("inversions")


def test_package_answers_pass_inside_allow_package_calls():
    with allow_package_calls():
        assert check("sliding.inversions", inversions).passed
        assert check("sliding.is_solvable", is_solvable).passed
        assert check("sliding.is_solvable", solvable_by_invariant).passed
        assert check("sliding.multi_moves", lambda p, tiles: count_moves(p, tiles).multi).passed


def test_inversions_checker_shows_the_smallest_board_as_a_picture():
    counting_blank = lambda p: sum(1 for i, a in enumerate(p.tiles) for b in p.tiles[i + 1:] if a > b)
    result = check("sliding.inversions", counting_blank)
    assert not result.passed and "expected" in result.message
    assert isinstance(result.counterexample, Board) and result.counterexample.shape == (2, 2)
    assert result.message.startswith("on the 2x2 board below")
    assert result.picture == str(result.counterexample)  # an aligned picture, nothing stray above it
    assert "\n" not in result.message


def test_is_solvable_checker_catches_the_odd_width_only_rule():
    odd_only = lambda p: inversions(p) % 2 == 0  # right for 3x3, wrong for even widths
    result = check("sliding.is_solvable", odd_only)
    assert not result.passed
    assert result.counterexample.cols % 2 == 0
    assert result.message.startswith("on the 2x2 board below")


def test_is_solvable_checker_catches_a_rule_that_fails_only_on_big_boards():
    wrong_big = lambda p: my_is_solvable(p) if p.cell_count <= 9 else not my_is_solvable(p)
    result = check("sliding.is_solvable", wrong_big)
    assert not result.passed and result.counterexample.cell_count > 9


def test_crashing_answer_is_reported_not_raised():
    result = check("sliding.is_solvable", lambda p: 1 / 0)
    assert not result.passed and "ZeroDivisionError" in result.message


def test_shuffle_checker_passes_a_fair_shuffle_and_names_plain_faults():
    assert check("sliding.shuffle", my_shuffle).passed
    naive = check("sliding.shuffle", lambda r, c, rng: Board(rng.permutation(r * c), r, c))
    assert not naive.passed and "cannot be solved" in naive.message
    assert naive.picture == str(naive.counterexample)
    wrong_type = check("sliding.shuffle", lambda r, c, rng: my_shuffle(r, c, rng).tiles)
    assert not wrong_type.passed and "return a Board" in wrong_type.message
    wrong_shape = check("sliding.shuffle", lambda r, c, rng: my_shuffle(c, r, rng))
    assert not wrong_shape.passed and "asked for 2x3" in wrong_shape.message


def test_shuffle_checker_wants_the_given_rng():
    own = np.random.default_rng(5)
    result = check("sliding.shuffle", lambda r, c, rng: my_shuffle(r, c, own))
    assert not result.passed and "same seeded rng" in result.message


# --- lesson 3c's exercise: fair shuffles a student may design, and unfair ones (all written as a student would) ---

def _deal(rows, cols, rng):
    return Board(rng.permutation(rows * cols), rows, cols)


def swap_one_and_two(rows, cols, rng):  # the swap fix with a fixed pair of numbers
    board = _deal(rows, cols, rng)
    return board if is_solvable(board) else board.swap_tiles(1, 2)


def swap_the_two_largest(rows, cols, rng):
    board = _deal(rows, cols, rng)
    return board if is_solvable(board) else board.swap_tiles(rows * cols - 1, rows * cols - 2)


def swap_a_random_pair(rows, cols, rng):
    board = _deal(rows, cols, rng)
    if is_solvable(board):
        return board
    a, b = rng.choice(np.arange(1, rows * cols), 2, replace=False)
    return board.swap_tiles(int(a), int(b))


def deal_again(rows, cols, rng):  # rejection
    board = _deal(rows, cols, rng)
    while not is_solvable(board):
        board = _deal(rows, cols, rng)
    return board


def swap_the_blanks_neighbours(rows, cols, rng):  # two cells fixed by the blank's cell: still one-to-one
    board = _deal(rows, cols, rng)
    if is_solvable(board):
        return board
    a, b = board.neighbour_tiles()[:2]
    return board.swap_tiles(a, b)


def own_fisher_yates_by_inversions(rows, cols, rng):  # its own random order, its own solvability rule
    tiles = list(range(rows * cols))
    for i in range(len(tiles) - 1, 0, -1):
        j = int(rng.integers(i + 1))
        tiles[i], tiles[j] = tiles[j], tiles[i]
    board = Board(tiles, rows, cols)
    return board if my_is_solvable(board) else board.swap_tiles(1, 2)


def blank_cell_first(rows, cols, rng):  # the blank's cell at random, then the numbers around it
    n = rows * cols
    cell, numbers = int(rng.integers(n)), [int(t) for t in rng.permutation(np.arange(1, n))]
    board = Board(numbers[:cell] + [0] + numbers[cell:], rows, cols)
    return board if is_solvable(board) else board.swap_tiles(1, 2)


FAIR_DESIGNS = [my_shuffle, swap_one_and_two, swap_the_two_largest, swap_a_random_pair, deal_again,
                swap_the_blanks_neighbours, own_fisher_yates_by_inversions, blank_cell_first]


def walk(rows, cols, rng, steps, rule="simple"):
    """A walk from the goal on a plain list, quick enough to deal thousands of boards: "simple" (any move, the
    last one undone too), "no-return" (never undo the last move) or "lazy" (one of four directions, stay put
    when blocked)."""
    n = rows * cols
    tiles, blank, previous = list(range(1, n)) + [0], n - 1, -1
    for u in rng.random(steps):
        r, c = divmod(blank, cols)
        steps_ = ((-1, 0), (1, 0), (0, -1), (0, 1))
        if rule == "lazy":
            dr, dc = steps_[int(4 * u)]
            if not (0 <= r + dr < rows and 0 <= c + dc < cols):
                continue
            cell = (r + dr) * cols + c + dc
        else:
            options = [(r + dr) * cols + c + dc for dr, dc in steps_ if 0 <= r + dr < rows and 0 <= c + dc < cols]
            options = [cell for cell in options if rule != "no-return" or cell != previous]
            cell = options[int(u * len(options))]
        tiles[blank], tiles[cell] = tiles[cell], 0
        previous, blank = blank, cell
    return Board(tiles, rows, cols)


def walk_by_slides(rows, cols, rng):  # the Puzzle8 length, one Board.slide at a time
    board = Board.goal(rows, cols)
    for _ in range((rows * cols) ** 2):
        tiles = board.neighbour_tiles()
        board = board.slide(tiles[int(rng.integers(len(tiles)))])
    return board


def swap_sometimes(rows, cols, rng):  # the fix applied half the time
    board = _deal(rows, cols, rng)
    return board.swap_tiles(1, 2) if not is_solvable(board) and rng.random() < 0.5 else board


def swap_in_the_top_row_else_deal_again(rows, cols, rng):  # a swap only for some unsolvable deals
    while True:
        board = _deal(rows, cols, rng)
        if is_solvable(board):
            return board
        if board.tiles.index(1) < cols and board.tiles.index(2) < cols:
            return board.swap_tiles(1, 2)


def swap_the_first_descent(rows, cols, rng):  # the pair depends on the deal: not one-to-one
    board = _deal(rows, cols, rng)
    if is_solvable(board):
        return board
    numbers = [t for t in board.tiles if t]
    a, b = next(((a, b) for a, b in zip(numbers, numbers[1:]) if a > b), numbers[:2])
    return board.swap_tiles(a, b)


def blank_always_home(rows, cols, rng):  # the numbers shuffled, the blank left in its goal cell
    board = Board([int(t) for t in rng.permutation(np.arange(1, rows * cols))] + [0], rows, cols)
    return board if is_solvable(board) else board.swap_tiles(1, 2)


def blank_never_top_left(rows, cols, rng):
    board = swap_one_and_two(rows, cols, rng)
    while board.blank == (0, 0):
        board = swap_one_and_two(rows, cols, rng)
    return board


def half_fair_half_walk(rows, cols, rng):
    if rng.random() < 0.5:
        return swap_one_and_two(rows, cols, rng)
    return walk(rows, cols, rng, (rows * cols) ** 2 + int(rng.integers(2)))


def _package(method, coin=False):  # checked inside allow_package_calls()
    def answer(rows, cols, rng):
        return shuffle(rows, cols, rng=rng, method=method, steps=(rows * cols) ** 2 + (int(rng.integers(2)) if coin else 0))
    return answer


def _puzzle8(coin=False):  # checked inside allow_package_calls()
    from tilelab.sliding import puzzle8_walk

    def answer(rows, cols, rng):
        goal = Board.goal(rows, cols)
        return goal.play_all(puzzle8_walk(goal, (rows * cols) ** 2 + (int(rng.integers(2)) if coin else 0), rng=rng))
    return answer


UNFAIR_DESIGNS = {
    "the same board each time": lambda r, c, rng: Board.goal(r, c).slide(r * c - 1),
    "a fixed-length walk, 8 moves": lambda r, c, rng: walk(r, c, rng, 8),
    "a fixed-length walk, (rows*cols)^2 moves": lambda r, c, rng: walk(r, c, rng, (r * c) ** 2),
    "a coin-length walk": lambda r, c, rng: walk(r, c, rng, (r * c) ** 2 + int(rng.integers(2))),
    "a long coin-length walk": lambda r, c, rng: walk(r, c, rng, 1000 + int(rng.integers(2))),
    "a walk of random length": lambda r, c, rng: walk(r, c, rng, int(rng.integers(100, 200))),
    "a long no-return walk": lambda r, c, rng: walk(r, c, rng, 1000 + int(rng.integers(2)), "no-return"),
    "a lazy walk of (rows*cols)^2 moves": lambda r, c, rng: walk(r, c, rng, (r * c) ** 2, "lazy"),
    "a walk by slides": walk_by_slides,
    "the package's walk": _package("walk"),
    "the package's walk, coin length": _package("walk", coin=True),
    "the PuzzleProject walk": _package("walk-balanced"),
    "the PuzzleProject walk, coin length": _package("walk-balanced", coin=True),
    "the Puzzle8 walk": _puzzle8(),
    "the Puzzle8 walk, coin length": _puzzle8(coin=True),
    "a swap only half the time": swap_sometimes,
    "a swap only in the top row": swap_in_the_top_row_else_deal_again,
    "a swap of the first descent": swap_the_first_descent,
    "a blank always home": blank_always_home,
    "a blank never top-left": blank_never_top_left,
    "half fair, half a walk": half_fair_half_walk,
}


@pytest.mark.parametrize("answer", FAIR_DESIGNS, ids=lambda f: f.__name__)
def test_shuffle_checker_accepts_every_honest_fair_design(answer):
    result = check("sliding.shuffle", answer)
    assert result.passed, result


@pytest.mark.parametrize("name", list(UNFAIR_DESIGNS))
def test_shuffle_checker_refuses_unfair_designs_on_the_smallest_board_with_a_picture(name):
    deals = []

    def answer(rows, cols, rng):
        deals.append((rows, cols))
        return UNFAIR_DESIGNS[name](rows, cols, rng)

    with allow_package_calls():  # some are the package's walks: judged here by what they deal
        result = check("sliding.shuffle", answer)
    assert not result.passed and result.reason == "", result               # refused for what it deals, in time
    assert result.picture and re.search(r"\b(2x2|2x3)\b", result.message), result   # smallest boards, a picture
    assert len(deals) <= 60 + 6 + 150 + 1_800, len(deals)                 # decided by 1,800 deals of 2x3 at most


def test_shuffle_checker_names_what_is_wrong():
    same = check("sliding.shuffle", UNFAIR_DESIGNS["the same board each time"])
    assert "gave the board below" in same.message and same.counterexample == Board.goal(2, 2).slide(3)
    fixed = check("sliding.shuffle", UNFAIR_DESIGNS["a fixed-length walk, (rows*cols)^2 moves"])
    from tilelab.sliding import rank

    assert "even number of moves" in fixed.message                          # 16 moves on 2x2: one parity
    assert distance_table(2, 2)[rank(fixed.counterexample.tiles)] % 2 == 1  # the picture: a board of the other
    home = check("sliding.shuffle", blank_always_home)
    assert "never landed in cell (0, 0)" in home.message and home.counterexample.blank == (0, 0)
    long = check("sliding.shuffle", UNFAIR_DESIGNS["a long coin-length walk"])   # every board, the blank biased
    assert "the blank lands in some cells" in long.message and long.picture.count("%") == 6  # a 2x3 grid of shares
    assert "more neighbours" in long.message
    assert "A fair deal is this uneven less than once in a million checks." in long.message   # plainly said
    sometimes = check("sliding.shuffle", swap_sometimes)
    assert "cannot be solved" in sometimes.message and not is_solvable(sometimes.counterexample)


def test_shuffle_checker_is_deterministic_and_bounded():
    first, again = (check("sliding.shuffle", half_fair_half_walk) for _ in range(2))
    assert first == again and not first.passed                                # the same verdict, the same words
    calls = []

    def counted(rows, cols, rng):
        calls.append(1)
        return my_shuffle(rows, cols, rng)

    assert check("sliding.shuffle", counted).passed
    assert len(calls) == 60 + 6 + 150 + 5_400 + 5 * 60 + 3_000 + 1_500        # a fair shuffle: a fixed number of deals


def test_shuffle_checker_refuses_a_lazy_walk_too_short_for_the_bigger_boards():
    # a lazy walk does settle on uniform: 300 moves are nearly fair on 2x3 (TVD 0.05), not yet on 3x3 (0.075)
    result = check("sliding.shuffle", lambda r, c, rng: walk(r, c, rng, 300, "lazy"))
    assert not result.passed and re.search(r"\b(3x3|4x4)\b", result.message), result


def test_shuffle_uniformity_is_checked_beyond_2x3():
    def fair_only_on_small(rows, cols, rng):
        if rows * cols <= 6:
            return my_shuffle(rows, cols, rng)
        with allow_package_calls():  # a long coin-flip walk: solvable, every board, but unfair
            return shuffle(rows, cols, rng=rng, method="walk", steps=(rows * cols) ** 2 + int(rng.integers(2)))

    with allow_package_calls():
        result = check("sliding.shuffle", fair_only_on_small)
    assert not result.passed and "on 3x3" in result.message

    def fair_up_to_3x3(rows, cols, rng):
        if rows * cols <= 9:
            return my_shuffle(rows, cols, rng)
        return shuffle(rows, cols, rng=rng, method="walk", steps=(rows * cols) ** 2 + int(rng.integers(2)))

    with allow_package_calls():
        result = check("sliding.shuffle", fair_up_to_3x3)
    assert not result.passed and "on 4x4" in result.message


def test_a_shuffle_that_skews_3x3_distances_fails():
    far = [p for p in (random_board(3, 3, rng=s) for s in range(400)) if is_solvable(p)]

    def skewed(rows, cols, rng):
        board = my_shuffle(rows, cols, rng)
        if (rows, cols) == (3, 3) and rng.random() < 0.3:  # deal a board from a fixed small pool
            return far[int(rng.integers(len(far)))]
        return board

    result = check("sliding.shuffle", skewed)
    assert not result.passed and "3x3" in result.message


def test_biased_but_complete_shuffle_fails_the_uniformity_test():
    def biased(rows, cols, rng):
        board = my_shuffle(rows, cols, rng)
        # deal the goal's neighbours far too often
        return Board.goal(rows, cols).slide(rows * cols - 1) if rng.random() < 0.2 else board

    result = check("sliding.shuffle", biased)
    assert not result.passed and result.counterexample == Board.goal(2, 2).slide(3)  # the board dealt too often
    assert result.picture == str(result.counterexample) and "chi" not in result.message.lower()


def test_an_answer_that_returns_nothing_is_told_so():
    # a stub that forgot `return` used to be reported as "you returned False"
    result = check("sliding.is_solvable", lambda p: None)
    assert not result.passed and "you returned None" in result.message
    assert check("sliding.is_solvable", lambda p: np.bool_(my_is_solvable(p))).passed


def test_critical_value_is_computed_and_matches_simulation():
    from tilelab.exercises.sliding import CHI2_2X3_999, chi_square_critical

    draws = np.random.default_rng(0).chisquare(359, 1_000_000)
    assert abs(np.quantile(draws, 0.999) - CHI2_2X3_999) < 1.0
    assert abs(CHI2_2X3_999 - 447.6) < 0.1
    assert abs(chi_square_critical(10, 0.95) - 18.307) < 0.05  # a table value, small df
    with pytest.raises(ValueError):
        chi_square_critical(0)


def test_unsolvable_shuffle_shows_the_board():
    result = check("sliding.shuffle", lambda rows, cols, rng: Board.goal(rows, cols).swap_tiles(1, 2))
    assert not result.passed and result.message.startswith("this 2x2 board cannot be solved")
    assert result.picture == "2 1\n3 ."


def test_multi_moves_checker_wants_merged_runs():
    per_touch = check("sliding.multi_moves", lambda p, tiles: len(tiles))  # one per slide: no merging
    assert not per_touch.passed and "[15, 15]" not in per_touch.message
    assert "the slides [13, 9, 10, 11] from the board below" in per_touch.message
    assert per_touch.picture == str(Board.goal(4, 4))
    assert not check("sliding.multi_moves", lambda p, tiles: 0).passed
    single = lambda p, tiles: sum(len(play(p.play_all(tiles[:k]), t).tiles) for k, t in enumerate(tiles))
    assert not check("sliding.multi_moves", single).passed


def test_even_share_checker():
    def colouring(rows, cols):
        return sum((r + c) % 2 == (rows + cols) % 2 for r in range(rows) for c in range(cols)) / (rows * cols)

    assert check("sliding.even_share", colouring).passed
    half = check("sliding.even_share", lambda rows, cols: 0.5)
    assert not half.passed and "3x3" in half.message
    assert not check("sliding.even_share", lambda rows, cols: 1 / 0).passed
    # right up to 3x3 only (a table lookup of the small cases): caught on the bigger shapes
    small = {(2, 2): 0.5, (2, 3): 0.5, (3, 2): 0.5, (2, 4): 0.5, (4, 2): 0.5, (3, 3): 5 / 9}
    assert not check("sliding.even_share", lambda r, c: small.get((r, c), 0.5)).passed


def test_every_message_is_short():
    from tilelab.exercises import MESSAGE_LIMIT

    for name, answer in [("sliding.inversions", lambda p: 0), ("sliding.is_solvable", lambda p: True),
                         ("sliding.multi_moves", lambda p, t: 0), ("sliding.even_share", lambda r, c: 0.5),
                         ("sliding.shuffle", lambda r, c, rng: Board.goal(r, c)), ("sliding.bfs", lambda s: {s: 0})]:
        result = check(name, answer)
        assert not result.passed and len(result.message) <= MESSAGE_LIMIT - 1


# --- lesson 3b: breadth-first search over boards

def my_bfs(start):
    distance_to = {start: 0}
    queue = deque([start])
    while queue:
        board = queue.popleft()
        for direction in board.legal_directions():
            child = play(board, direction).after
            if child not in distance_to:
                distance_to[child] = distance_to[board] + 1
                queue.append(child)
    return distance_to


def bfs_with_a_list(start):  # list.pop(0) is slow on big boards, but it is a first-in first-out queue
    distance_to, queue = {start: 0}, [start]
    while queue:
        board = queue.pop(0)
        for tile in board.neighbour_tiles():
            child = board.slide(tile)
            if child not in distance_to:
                distance_to[child] = distance_to[board] + 1
                queue.append(child)
    return distance_to


def bfs_by_layers(start):  # no queue at all: one layer of boards after another, on tuples
    rows, cols = start.shape
    found, layer, moves = {start.tiles: 0}, [start.tiles], 0
    while layer:
        moves += 1
        next_layer = []
        for tiles in layer:
            blank = tiles.index(0)
            r, c = divmod(blank, cols)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < rows and 0 <= cc < cols:
                    moved = list(tiles)
                    moved[blank], moved[rr * cols + cc] = moved[rr * cols + cc], 0
                    if tuple(moved) not in found:
                        found[tuple(moved)] = moves
                        next_layer.append(tuple(moved))
        layer = next_layer
    return {Board(tiles, rows, cols): d for tiles, d in found.items()}


def dfs(start):  # a stack: the newest board first
    distance_to, stack = {start: 0}, [start]
    while stack:
        board = stack.pop()
        for direction in board.legal_directions():
            child = play(board, direction).after
            if child not in distance_to:
                distance_to[child] = distance_to[board] + 1
                stack.append(child)
    return distance_to


def never_marks_seen(start):  # every child joins the queue, again and again: it never ends
    distance_to, queue = {start: 0}, deque([start])
    while queue:
        board = queue.popleft()
        for direction in board.legal_directions():
            child = play(board, direction).after
            distance_to[child] = distance_to[board] + 1
            queue.append(child)
    return distance_to


def stops_after_one_board(start):  # the return inside the loop
    distance_to, queue = {start: 0}, deque([start])
    while queue:
        board = queue.popleft()
        for direction in board.legal_directions():
            child = play(board, direction).after
            if child not in distance_to:
                distance_to[child] = distance_to[board] + 1
                queue.append(child)
        return distance_to
    return distance_to


def stops_at_100_boards(start):  # right on 2x2, cut off on 2x3
    distance_to, queue = {start: 0}, deque([start])
    while queue and len(distance_to) < 100:
        board = queue.popleft()
        for tile in board.neighbour_tiles():
            child = board.slide(tile)
            if child not in distance_to:
                distance_to[child] = distance_to[board] + 1
                queue.append(child)
    return distance_to


def multi_tile(start):  # legal_moves also slides the tiles farther along the blank's row or column
    distance_to, queue = {start: 0}, deque([start])
    while queue:
        board = queue.popleft()
        for tile in board.legal_moves():
            child = board.slide(tile)
            if child not in distance_to:
                distance_to[child] = distance_to[board] + 1
                queue.append(child)
    return distance_to


def test_bfs_checker_passes_honest_searches():
    for answer in (my_bfs, bfs_with_a_list, bfs_by_layers):
        result = check("sliding.bfs", answer)
        assert result.passed, (answer.__name__, result.message)
    with allow_package_calls():
        assert check("sliding.bfs", bfs_distances).passed
        assert check("sliding.bfs", lambda start: bfs_distances(start, "multi")).passed is False


def test_bfs_checker_refuses_a_depth_first_search_with_the_smallest_counterexample():
    result = check("sliding.bfs", dfs)
    assert not result.passed and "oldest board" in result.message
    assert result.counterexample == Board.goal(2, 2)                  # the first start: the 2x2 goal
    assert result.picture.splitlines()[0].split() == ["start", "board"] and result.message.count("2x2") == 1
    said, best = (int(n) for n in re.findall(r"(\d+) moves?", result.message)[:2])
    assert said > best >= 1


def test_bfs_checker_stops_a_search_that_never_marks_boards_seen_in_bounded_time():
    for answer in (never_marks_seen, lambda start: never_marks_seen(start) if start.cols == 3 else my_bfs(start)):
        began = time.perf_counter()
        result = check("sliding.bfs", answer)
        assert time.perf_counter() - began < 10, "stopped by its move budget, long before the time limit"
        assert not result.passed and result.reason == "" and "went on and on" in result.message
        assert result.picture == str(result.counterexample)
    assert result.counterexample == Board.goal(2, 3)                  # the smallest board it fails on
    with allow_package_calls():                                         # the budget holds without judging too
        assert "went on and on" in check("sliding.bfs", never_marks_seen).message


def test_bfs_checker_refuses_searches_that_stop_early():
    early = check("sliding.bfs", stops_after_one_board)
    assert not early.passed and "misses" in early.message and early.counterexample == Board.goal(2, 2)
    assert early.picture.splitlines()[0].split() == ["start", "missing"]
    cut = check("sliding.bfs", stops_at_100_boards)
    assert not cut.passed and "360 boards can be reached" in cut.message and cut.counterexample.shape == (2, 3)
    stub = check("sliding.bfs", lambda start: {start: 0})
    assert not stub.passed and "your dict has 1" in stub.message


def test_bfs_checker_names_plain_faults():
    multi = check("sliding.bfs", multi_tile)
    assert not multi.passed and "it takes 2" in multi.message and multi.counterexample.shape == (2, 3)
    not_a_dict = check("sliding.bfs", lambda start: list(my_bfs(start)))
    assert not not_a_dict.passed and "return a dict" in not_a_dict.message
    tiles = check("sliding.bfs", lambda start: {b.tiles: d for b, d in my_bfs(start).items()})
    assert not tiles.passed and "Board objects" in tiles.message
    off_by_one = check("sliding.bfs", lambda start: {b: d + 1 for b, d in my_bfs(start).items()})
    assert not off_by_one.passed and "0 moves from itself" in off_by_one.message
    def with_the_other_half(start):  # adds a board with two tiles swapped: it cannot be reached
        tiles = list(start.tiles)
        i, j = [k for k, t in enumerate(tiles) if t][:2]
        tiles[i], tiles[j] = tiles[j], tiles[i]
        return {**my_bfs(start), Board(tiles, start.rows, start.cols): 1}

    halves = check("sliding.bfs", with_the_other_half)
    assert not halves.passed and "no slides lead there" in halves.message
    crash = check("sliding.bfs", lambda start: 1 / 0)
    assert not crash.passed and crash.reason == "raised" and "ZeroDivisionError" in crash.message
    for result in (multi, not_a_dict, tiles, off_by_one, halves, crash):
        assert len(result.message) < 300 and result.picture


def _bfs_with(step):
    """Lesson 3b's skeleton with ``step(distance_to, queue, board, child)`` as step 3."""
    def search(start):
        distance_to, queue = {start: 0}, deque([start])
        while queue:
            board = queue.popleft()
            for direction in board.legal_directions():
                step(distance_to, queue, board, play(board, direction).after)
        return distance_to
    return search


def test_bfs_checker_names_the_slip_a_reader_made():
    """A wrong distance shows on a board one move away (no queue order can cause that): the message names the
    distance, not the queue; new boards put at the front name both ends of the queue; a board stored again
    (its distance overwritten) is told that a board keeps its distance."""
    def plus_two(d, q, b, c):
        if c not in d:
            d[c] = d[b] + 2
            q.append(c)

    def at_the_front(d, q, b, c):
        if c not in d:
            d[c] = d[b] + 1
            q.appendleft(c)

    def overwrites(d, q, b, c):
        new = c not in d
        d[c] = d[b] + 1
        if new:
            q.append(c)

    wrong_distance = check("sliding.bfs", _bfs_with(plus_two))
    assert "one move farther" in wrong_distance.message and "queue" not in wrong_distance.message
    front = check("sliding.bfs", _bfs_with(at_the_front))
    assert not front.passed and "(append)" in front.message and "(popleft)" in front.message
    again = check("sliding.bfs", _bfs_with(overwrites))
    assert not again.passed and "keeps its distance" in again.message


def test_shuffle_takes_dealing_again_with_random_board_and_points_at_a_swap_not_kept():
    """Dealing again with section 1's ``random_board`` is fair and passes (a reader's answer was refused for it);
    a swap whose new board is not kept leaves an unsolvable deal, and the message says swap_tiles returns one."""
    from tilelab.sliding import random_board

    def my_shuffle(rows, cols, rng):
        board = random_board(rows, cols, rng=rng)
        while not is_solvable(board):
            board = random_board(rows, cols, rng=rng)
        return board

    def swap_not_kept(rows, cols, rng):
        board = Board(rng.permutation(rows * cols), rows, cols)
        if not is_solvable(board):
            board.swap_tiles(1, 2)
        return board

    assert check("sliding.shuffle", my_shuffle).passed
    result = check("sliding.shuffle", swap_not_kept)
    assert not result.passed and not is_solvable(result.counterexample)
    assert "board = board.swap_tiles(a, b)" in result.message
    naive = check("sliding.shuffle", lambda rows, cols, rng: Board(rng.permutation(rows * cols), rows, cols))
    assert not naive.passed and "swap_tiles" not in naive.message   # the tip only where the answer swaps
