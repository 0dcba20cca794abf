"""Hidden cases (issue 42): inside ``hidden_cases(seed)`` every random case set a checker draws changes, the cached
ones included, so an answer that memorised the public cases (a lookup table filled by running the public check)
passes in the lesson and fails at grading time. The official solutions pass under a hidden seed too
(tests/test_exercises_solutions.py)."""

from __future__ import annotations

import heapq
import itertools

import numpy as np

from tilelab.exercises import allow_package_calls, check, hidden_cases
from tilelab.exercises.game2048_ai import game_boards
from tilelab.exercises.match3 import dead_and_live_boards
from tilelab.exercises.solvers import all_eight_puzzles, search_cases
from tilelab.match3 import is_dead, stable_board
from tilelab.sliding import manhattan
from tilelab.sliding.search import children

SEED = 987654321


def test_dead_boards_are_drawn_from_the_hidden_seed_and_the_public_set_stays_cached():
    public = dead_and_live_boards()
    with hidden_cases(SEED):
        hidden = dead_and_live_boards()
        assert dead_and_live_boards() is hidden  # cached while the grader's seed holds
        with hidden_cases(SEED + 1):
            other = dead_and_live_boards()
    assert set(hidden) != set(public) and set(other) != set(hidden)
    assert any(is_dead(b) for b in hidden) and not all(is_dead(b) for b in hidden)
    assert dead_and_live_boards() is public  # the lessons' cache survives a grading run


def test_search_boards_are_drawn_from_the_hidden_seed():
    public = [board for board, _, _ in search_cases()]
    with hidden_cases(SEED):
        hidden = [board for board, _, _ in search_cases()]
    assert len(hidden) == len(public) and set(hidden) != set(public)
    assert [board for board, _, _ in search_cases()] == public


def test_every_eight_puzzle_is_exhaustive_so_a_hidden_seed_leaves_it_whole():
    public = all_eight_puzzles()[0]
    with hidden_cases(SEED):
        hidden = all_eight_puzzles()[0]
    assert len(hidden) == len(set(hidden)) == 181_440 and hidden == public


def test_game_boards_are_drawn_from_the_hidden_seed_unless_a_seed_is_given():
    with hidden_cases(SEED):
        hidden, given = game_boards(3, 5), game_boards(3, 5, rng=7)
    assert hidden != game_boards(3, 5) and given == game_boards(3, 5, rng=7)


def _memorised(name, honest, key=lambda *args: args[0]):
    """An answer that runs ``honest`` once on the public cases, records what it said, and afterwards only looks up."""
    table = {}

    def recorder(*args):
        table[key(*args)] = honest(*args)
        return table[key(*args)]

    with allow_package_calls():
        assert check(name, recorder).passed
    return table


def test_a_memorised_is_dead_passes_publicly_and_fails_under_a_hidden_seed():
    table = _memorised("match3.is_dead", lambda board: bool(is_dead(board)))

    def lookup(board):
        return table.get(board, False)

    assert check("match3.is_dead", lookup).passed
    with hidden_cases(SEED):
        assert not check("match3.is_dead", lookup).passed


def test_a_memorised_deal_passes_publicly_and_fails_under_a_hidden_seed():
    def state(rng, *shape):
        return str((shape, rng.bit_generator.state["state"]))

    table = {}  # the generator's state before each public deal: the board dealt, and the state after it

    def recorder(rows, cols, kinds, rng):
        before = state(rng, rows, cols, kinds)
        board = stable_board(rows, cols, kinds, rng=rng)
        table[before] = (board, rng.bit_generator.state)
        return board

    with allow_package_calls():
        assert check("match3.deal", recorder).passed

    def lookup(rows, cols, kinds, rng):
        board, after = table.get(state(rng, rows, cols, kinds), (None, None))
        if board is None:  # a deal it never saw: a fixed board of the right size
            return next(iter(b for b, _ in table.values() if (b.rows, b.cols, b.kinds) == (rows, cols, kinds)))
        rng.bit_generator.state = after
        return board

    assert check("match3.deal", lookup).passed
    with hidden_cases(SEED):
        assert not check("match3.deal", lookup).passed


def _astar(start):
    """A* with Manhattan as a student writes it: the moves, and the boards it expanded in order."""
    tie = itertools.count()
    queue, best, expanded = [(manhattan(start), 0, next(tie), start, [])], {start: 0}, []
    while queue:
        _, g, _, board, path = heapq.heappop(queue)
        if board.is_goal():
            return path, expanded
        if g > best[board]:
            continue
        expanded.append(board)
        for tile, child in children(board):
            if g + 1 < best.get(child, np.inf):
                best[child] = g + 1
                heapq.heappush(queue, (g + 1 + manhattan(child), g + 1, next(tie), child, path + [tile]))
    return [], expanded


def test_a_memorised_search_passes_publicly_and_fails_under_a_hidden_seed():
    table = {board: _astar(board) for board, _, _ in search_cases()}

    def replay(board):  # expands the recorded boards in the recorded order, then answers from the table
        moves, expanded = table.get(board, ([], []))
        for node in expanded:
            children(node)
        return moves

    assert check("solvers.search", replay).passed
    with hidden_cases(SEED):
        assert not check("solvers.search", replay).passed


def test_a_memorised_warm_up_passes_publicly_and_fails_under_a_hidden_seed():
    table = _memorised("largest_tile", lambda rows: max(max(row) for row in rows), key=lambda rows: tuple(rows))

    def lookup(rows):
        return table.get(tuple(tuple(r) for r in rows), 0)

    assert check("largest_tile", lookup).passed
    with hidden_cases(SEED):
        assert not check("largest_tile", lookup).passed
