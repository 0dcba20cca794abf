"""Lesson 4 checkers: right answers pass, the classic mistakes fail with a counterexample, delegation is refused."""

from __future__ import annotations

import math
from collections import deque

import heapq
import itertools

import numpy as np
import pytest

from tilelab.exercises import allow_package_calls, check
from tilelab.exercises.solvers import all_eight_puzzles
from tilelab.sliding import Board, distance, linear_conflict, manhattan, misplaced, solve
from tilelab.sliding.pdb import PatternDatabase, build_table
from tilelab.sliding.search import astar_reference, bfs_reference, children


# ---------------------------------------------------------------- answers written here, as a student would
def my_manhattan(p: Board) -> int:
    total = 0
    for i, t in enumerate(p.tiles):
        if t:
            r, c = divmod(i, p.cols)
            gr, gc = divmod(t - 1, p.cols)
            total += abs(r - gr) + abs(c - gc)
    return total


def _line_places(p: Board):
    """For each row and column, the goal places (within the line) of the tiles that belong to it."""
    for r in range(p.rows):
        yield [(t - 1) % p.cols for t in p.tiles[r * p.cols:(r + 1) * p.cols] if t and (t - 1) // p.cols == r]
    for c in range(p.cols):
        yield [(t - 1) // p.cols for t in p.tiles[c::p.cols] if t and (t - 1) % p.cols == c]


def _longest_increasing(xs: list[int]) -> int:
    best: list[int] = []
    for i, x in enumerate(xs):
        best.append(1 + max([best[j] for j in range(i) if xs[j] < x], default=0))
    return max(best, default=0)


def my_linear_conflict(p: Board) -> int:
    """The true linear conflict: per line, its tiles minus their longest increasing subsequence, 2 each."""
    return my_manhattan(p) + 2 * sum(len(xs) - _longest_increasing(xs) for xs in _line_places(p))


def my_pair_conflict(p: Board) -> int:
    """The classic mistake: Manhattan + 2 per *pair* of tiles in the wrong order in their line."""
    return my_manhattan(p) + 2 * sum(1 for xs in _line_places(p) for a, b in itertools.combinations(xs, 2) if a > b)


def astar_with(h):
    """A* as a student writes it, with the heuristic ``h``."""
    def solve_(p: Board) -> list[int]:
        tie = itertools.count()
        queue = [(h(p), 0, next(tie), p, [])]
        best = {p: 0}
        while queue:
            _, g, _, board, path = heapq.heappop(queue)
            if board.is_goal():
                return path
            if g > best[board]:
                continue
            for tile, child in children(board):
                if g + 1 < best.get(child, math.inf):
                    best[child] = g + 1
                    heapq.heappush(queue, (g + 1 + h(child), g + 1, next(tie), child, path + [tile]))
        return []
    return solve_


my_astar = astar_with(my_manhattan)


def _table_by_bfs(rows, cols, pattern):
    """An independent pattern table: 0-1 BFS over (cells of the pattern's tiles, blank cell)."""
    n = rows * cols
    start = (tuple(t - 1 for t in pattern), n - 1)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        cells, blank = state = queue.popleft()
        r, c = divmod(blank, cols)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < rows and 0 <= cc < cols:
                cell = rr * cols + cc
                moved = tuple(blank if x == cell else x for x in cells)
                cost = int(cell in cells)
                if dist.get((moved, cell), 99) > dist[state] + cost:
                    dist[(moved, cell)] = dist[state] + cost
                    (queue.append if cost else queue.appendleft)((moved, cell))
    table = {}
    for (cells, _), d in dist.items():
        table[cells] = min(d, table.get(cells, 99))
    return table


@pytest.fixture(scope="module")
def tables():
    return [_table_by_bfs(3, 3, pattern) for pattern in ((1, 2, 3, 4), (5, 6, 7, 8))]


def _lookup(tables):
    def value(p):
        where = {t: cell for cell, t in enumerate(p.tiles)}
        return sum(tab[tuple(where[t] for t in pat)] for pat, tab in zip(((1, 2, 3, 4), (5, 6, 7, 8)), tables))
    return value


# ---------------------------------------------------------------- the checkers
def test_package_answers_pass_when_allowed():
    with allow_package_calls():
        assert check("solvers.misplaced", misplaced).passed
        assert check("solvers.manhattan", manhattan).passed
        # the package's solvers expand boards inside tilelab, where a check does not count them: not seen as A*
        assert not check("solvers.search", lambda p: solve(p, heuristic="manhattan").moves).passed


def test_answers_written_by_hand_pass(tables):
    assert check("solvers.manhattan", my_manhattan).passed
    assert check("solvers.search", my_astar).passed
    assert check("solvers.pattern_lookup", _lookup(tables)).passed
    assert check("solvers.pattern_table", _table_by_bfs).passed


@pytest.mark.parametrize("name, answer, called", [
    ("solvers.misplaced", misplaced, "misplaced"),
    ("solvers.misplaced", lambda p: misplaced(p), "misplaced"),
    ("solvers.manhattan", lambda p: manhattan(p), "manhattan"),
    ("solvers.search", lambda p: list(bfs_reference(p).moves), "bfs_reference"),
    ("solvers.search", lambda p: list(astar_reference(p, manhattan).moves), "astar_reference"),
    ("solvers.search", lambda p: solve(p).moves, "solve"),
    ("solvers.search", lambda p: _walk_down(p), "distance"),
    ("solvers.admissible", lambda p: linear_conflict(p), "linear_conflict"),
    ("solvers.admissible", lambda p: distance(p), "distance"),
    ("solvers.admissible", lambda p: max(my_manhattan(p), _DB.value(p)), "value"),
    ("solvers.pattern_lookup", lambda p: sum(_DB.values(p)), "values"),
    ("solvers.pattern_table", lambda r, c, pat: dict(enumerate(build_table(r, c, pat))), "build_table"),
])
def test_delegation_is_refused(name, answer, called):
    result = check(name, answer)
    assert not result.passed and result.reason == "delegated" and result.counterexample.endswith(called)


_DB = PatternDatabase.build(3, 3, [(1, 2, 3, 4), (5, 6, 7, 8)], reflect=True)


def _walk_down(p: Board) -> list[int]:
    """An 'optimal solver' that only follows the package's exact distances (not A*)."""
    moves = []
    while not p.is_goal():
        tile, p = min(children(p), key=lambda tc: distance(tc[1]))
        moves.append(tile)
    return moves


def test_counting_the_blank_is_caught():
    def counts_blank(p: Board) -> int:
        return sum(1 for i, t in enumerate(p.tiles) if t != (i + 1) % p.cell_count)

    result = check("solvers.misplaced", counts_blank)
    assert not result.passed and result.counterexample == Board.goal(3, 3).slide(8)
    assert result.picture and "7 . 8" in result.picture


def test_wrong_manhattan_is_caught():
    result = check("solvers.manhattan", lambda p: my_manhattan(p) + (p.tiles[0] == 0))
    assert not result.passed and result.counterexample.tiles[0] == 0


def test_the_checker_sees_every_eight_puzzle():
    boards, truth, mans = all_eight_puzzles()
    assert len(boards) == len(set(boards)) == 181_440 and list(truth) == sorted(truth) and truth[-1] == 31
    sample = np.random.default_rng(0).choice(len(boards), 300, replace=False)
    assert all(distance(boards[i]) == truth[i] and manhattan(boards[i]) == mans[i] for i in sample)


def test_an_overestimate_on_one_far_board_fails():
    boards, truth, _ = all_eight_puzzles()
    far = boards[-1]  # a 31-move board: the last one the checker reaches
    result = check("solvers.admissible", lambda p: 99 if p == far else my_manhattan(p) + 1)
    assert not result.passed and result.counterexample != far  # Manhattan + 1 fails near the goal already
    result = check("solvers.admissible", lambda p: 99 if p == far else max(my_manhattan(p), 2 * (p.tiles[0] != 1)))
    assert not result.passed and "only 31 moves" in result.message and result.counterexample == far


def test_pair_counting_is_not_admissible_but_true_linear_conflict_is():
    result = check("solvers.admissible", my_pair_conflict)
    assert not result.passed and "not admissible" in result.message
    assert my_pair_conflict(result.counterexample) > distance(result.counterexample)
    result = check("solvers.admissible", my_linear_conflict)
    assert result.passed and "181,440" in result.message


def test_admissible_must_also_beat_manhattan(tables):
    for weak in (lambda p: 0, my_manhattan, lambda p: max(my_manhattan(p), misplaced(p))):
        result = check("solvers.admissible", weak)
        assert not result.passed and "not stronger than Manhattan" in result.message
    mine = _lookup(tables)
    assert check("solvers.admissible", lambda p: max(my_manhattan(p), mine(p))).passed


def test_bad_values_are_reported_kindly():
    assert "return a number" in check("solvers.admissible", lambda p: None).message
    assert "raised ZeroDivisionError" in check("solvers.admissible", lambda p: 1 // 0).message
    assert "negative" in check("solvers.admissible", lambda p: -1).message


def test_pattern_table_checker():
    off_by_one = lambda r, c, p: {k: v + (v > 3) for k, v in _table_by_bfs(r, c, p).items()}  # noqa: E731
    result = check("solvers.pattern_table", off_by_one)
    assert not result.passed and "fewest pattern moves" in result.message
    assert not check("solvers.pattern_table", lambda r, c, p: {}).passed
    assert "dict" in check("solvers.pattern_table", lambda r, c, p: 0).message


def test_pattern_lookup_checker(tables):
    with allow_package_calls():
        assert check("solvers.pattern_lookup", lambda p: sum(_DB.values(p))).passed
        assert not check("solvers.pattern_lookup", _DB.value).passed  # the mirror is not asked for
    result = check("solvers.pattern_lookup", my_manhattan)
    assert not result.passed and result.picture


def test_a_crashing_or_suboptimal_search_fails_politely():
    with allow_package_calls():
        assert not check("solvers.search", lambda p: solve(p, "human").moves).passed
    assert not check("solvers.search", lambda p: [99]).passed
    assert "raised" in check("solvers.search", lambda p: 1 / 0).message
    assert "list of tiles" in check("solvers.search", lambda p: None).message


# ---------------------------------------------------------------- "write A*" demands A*
def _path_to(board, parent):
    moves = []
    while parent[board] is not None:
        board, tile = parent[board]
        moves.append(tile)
    return moves[::-1]


def lessons_bfs(start: Board) -> list[int]:
    """Lesson 4a's readable breadth-first search, typed out by a student: optimal, but not A*."""
    if start.is_goal():
        return []
    parent, queue = {start: None}, deque([start])
    while queue:
        board = queue.popleft()
        for tile, child in children(board):
            if child not in parent:
                parent[child] = (board, tile)
                if child.is_goal():
                    return _path_to(child, parent)
                queue.append(child)
    return []


def lessons_ida_star(start: Board) -> list[int]:
    """Lesson 4b's readable IDA* with Manhattan, typed out by a student: optimal, but not A*."""
    path: list[int] = []

    def search(board, g, previous_blank, bound):
        if board.is_goal():
            return None
        smallest = math.inf
        for tile, child in children(board):
            if child.blank == previous_blank:
                continue
            f = g + 1 + my_manhattan(child)
            if f > bound:
                smallest = min(smallest, f)
                continue
            path.append(tile)
            cut = search(child, g + 1, board.blank, bound)
            if cut is None:
                return None
            path.pop()
            smallest = min(smallest, cut)
        return smallest

    bound = my_manhattan(start)
    while (cut := search(start, 0, None, bound)) is not None:
        bound = cut
    return path


@pytest.mark.parametrize("answer, why", [
    (lessons_bfs, "after one with f ="),               # breadth first: f goes down again
    (lessons_ida_star, "twice"),                       # iterative deepening: the root again each round
    (astar_with(lambda p: 0), "above"),                # h = 0 is Dijkstra, breadth first here
    (astar_with(lambda p: sum(1 for i, t in enumerate(p.tiles) if t != (i + 1) % p.cell_count)), "f ="),  # aima's misplaced
], ids=["lesson-4a-bfs", "lesson-4b-ida-star", "h-zero", "aima-misplaced"])
def test_write_astar_refuses_other_optimal_searches(answer, why):
    """The review's loophole: plain BFS (38 s) and the lesson's own IDA* passed "write A*" by being optimal."""
    result = check("solvers.search", answer)
    assert not result and result.reason == "" and "not A*" in result.message and why in result.message, result
    assert isinstance(result.counterexample, Board) and result.picture


def test_a_search_the_check_cannot_watch_is_told_how_to_expand():
    def own_moves(p: Board) -> list[int]:  # a BFS over the Board's tiles without children(): nothing to watch
        parent, queue = {p.tiles: None}, deque([p.tiles])
        while queue:
            tiles = queue.popleft()
            if tiles == Board.goal(p.rows, p.cols).tiles:
                moves = []
                while parent[tiles] is not None:
                    tiles, tile = parent[tiles]
                    moves.append(tile)
                return moves[::-1]
            blank = tiles.index(0)
            r, c = divmod(blank, p.cols)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < p.rows and 0 <= cc < p.cols:
                    cell = rr * p.cols + cc
                    nxt = list(tiles)
                    nxt[blank], nxt[cell] = nxt[cell], 0
                    if tuple(nxt) not in parent:
                        parent[tuple(nxt)] = (tiles, tiles[cell])
                        queue.append(tuple(nxt))
        return []

    result = check("solvers.search", own_moves)
    assert not result and "children(board)" in result.message


def test_the_lessons_own_astar_passes():
    """Lesson 4a's readable A* (ties to the deeper board, stale entries skipped): a student who types it out passes."""
    def astar(start: Board) -> list[int]:
        tie = itertools.count()
        best_g, parent = {start: 0}, {start: None}
        queue = [(my_manhattan(start), 0, next(tie), start)]
        while queue:
            _, minus_g, _, board = heapq.heappop(queue)
            g = -minus_g
            if g > best_g[board]:
                continue
            if board.is_goal():
                return _path_to(board, parent)
            for tile, child in children(board):
                if g + 1 < best_g.get(child, math.inf):
                    best_g[child], parent[child] = g + 1, (board, tile)
                    heapq.heappush(queue, (g + 1 + my_manhattan(child), -(g + 1), next(tie), child))
        return []

    assert check("solvers.search", astar)
