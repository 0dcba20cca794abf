"""Lesson 4 checkers: right answers pass, the classic mistakes fail with a counterexample, delegation is refused."""

from __future__ import annotations

import math
from collections import deque

import heapq
import itertools

import numpy as np
import pytest

from tilelab.exercises import allow_package_calls, check
from tilelab.exercises import hidden_cases
from tilelab.exercises.solvers import FAR_SAMPLE, NEAR_MOVES, admissible_cases, all_eight_puzzles, line_conflicts_3x3
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
    assert result.passed and f"{len(admissible_cases()[0]):,}" in result.message
    with hidden_cases(2024):                                   # other far boards drawn: still passes
        assert check("solvers.admissible", my_linear_conflict).passed


def _wrong_conflict(count=lambda xs: len(xs) - _longest_increasing(xs), per=2, keep_row=None, keep_col=None,
                    column=lambda p, c: p.tiles[c::p.cols]):
    """Linear conflict written with one mistake: ``count`` per line, ``per`` moves each, which tiles a line keeps."""
    keep_row = keep_row or (lambda t, r, cols: t and (t - 1) // cols == r)
    keep_col = keep_col or (lambda t, c, cols: t and (t - 1) % cols == c)

    def h(p: Board) -> int:
        extra = 0
        for r in range(p.rows):
            line = [t for t in p.tiles[r * p.cols:(r + 1) * p.cols] if keep_row(t, r, p.cols)]
            extra += per * count(line)
        for c in range(p.cols):
            line = [t for t in column(p, c) if keep_col(t, c, p.cols)]
            extra += per * count(line)
        return my_manhattan(p) + extra
    return h


#: A first-year student's plausible ways to get linear conflict wrong; each overestimates somewhere, some on few boards
#: far from the goal only (counting pairs: on 7 of the 181,440, 26 or more moves away).
WRONG_CONFLICTS = {
    "pairs out of order, 2 each": my_pair_conflict,
    "every tile of the row, not only its own": _wrong_conflict(keep_row=lambda t, r, cols: t,
                                                               keep_col=lambda t, c, cols: t),
    "the blank kept in a column": _wrong_conflict(keep_col=lambda t, c, cols: (t - 1) % cols == c),
    "a column keeps the tiles of that goal row": _wrong_conflict(keep_col=lambda t, c, cols: t and (t - 1) // cols == c),
    "rows counted twice": _wrong_conflict(column=lambda p, c: p.tiles[c * p.cols:(c + 1) * p.cols],
                                          keep_col=lambda t, c, cols: t and (t - 1) // cols == c),
    "3 moves per tile": _wrong_conflict(per=3),
    "4 per line out of order": _wrong_conflict(per=4, count=lambda xs: int(len(xs) > _longest_increasing(xs))),
    "every tile out of its sorted place": _wrong_conflict(count=lambda xs: sum(a != b for a, b in zip(xs, sorted(xs)))),
    "2 * len - longest": _wrong_conflict(per=1, count=lambda xs: 2 * len(xs) - _longest_increasing(xs)),
    "columns read bottom to top": _wrong_conflict(column=lambda p, c: p.tiles[c::p.cols][::-1]),
}


@pytest.mark.parametrize("mistake", list(WRONG_CONFLICTS))
def test_plausible_wrong_linear_conflicts_are_refused(mistake):
    h = WRONG_CONFLICTS[mistake]
    result = check("solvers.admissible", h)
    assert not result.passed and "not admissible" in result.message, mistake
    assert h(result.counterexample) > distance(result.counterexample)
    with hidden_cases(2024):                                   # the far boards drawn differ; the refusal stays
        assert not check("solvers.admissible", h).passed


def test_the_admissible_check_tries_the_boards_where_mistakes_show():
    boards, truth, mans = all_eight_puzzles()
    tried, tried_truth, tried_mans = admissible_cases()
    index = {board: i for i, board in enumerate(boards)}
    picked = np.array([index[b] for b in tried])
    assert list(picked) == sorted(set(picked)) and len(tried) < 15_000      # nearest first, each once; a quick check
    assert list(tried_truth) == list(truth[picked]) and list(tried_mans) == list(mans[picked])
    assert set(np.flatnonzero(truth <= NEAR_MOVES)) <= set(picked)           # every board near the goal
    tiles = np.array([b.tiles for b in boards])
    exact = np.flatnonzero(mans + line_conflicts_3x3(tiles) == truth)
    assert set(exact) <= set(picked)                                        # every board where linear conflict is exact
    layers = np.bincount(truth, minlength=32)
    assert all(np.sum(tried_truth == d) >= min(FAR_SAMPLE, layers[d]) for d in range(NEAR_MOVES + 1, 32))
    assert boards[-1] in set(tried)                                        # a farthest board (31 moves)
    some = np.random.default_rng(1).choice(len(boards), 2000, replace=False)
    assert all(mans[i] + line_conflicts_3x3(tiles[i:i + 1])[0] == linear_conflict(boards[i]) for i in some)
    with hidden_cases(2024):
        hidden = admissible_cases()[0]
    assert set(hidden) != set(tried) and {index[b] for b in hidden} >= set(exact)


def test_admissible_must_be_linear_conflict(tables):
    """The exercise asks for linear conflict: an admissible heuristic that is not it (weaker, half done, or
    another good one) is refused on the nearest board where it differs, with both values."""
    mine = _lookup(tables)
    half_done = {"rows only": _wrong_conflict(keep_col=lambda t, c, cols: False),
                 "columns only": _wrong_conflict(keep_row=lambda t, r, cols: False),
                 "1 a tile, not 2": _wrong_conflict(per=1)}  # what readers of lesson 4b tried, and the old check took
    for weak in (lambda p: 0, my_manhattan, lambda p: max(my_manhattan(p), misplaced(p)),
                 lambda p: max(my_manhattan(p), mine(p)), *half_done.values()):
        result = check("solvers.admissible", weak)
        assert not result.passed and "not linear conflict" in result.message
        board = result.counterexample
        assert weak(board) != linear_conflict(board) and weak(board) <= distance(board)
        assert f"linear conflict gives {linear_conflict(board)}" in result.message
    for name, weak in half_done.items():  # the hint fits the slip: 1 added for 2, or a loop left undone
        hint = "is 2 added, not 1?" if name.startswith("1 a tile") else "are both loops done?"
        assert hint in check("solvers.admissible", weak).message, name


def test_admissible_tries_lines_of_unequal_length():
    """A 3x3 board cannot tell a row's length from a column's: linear conflict that cuts a line with the wrong one
    (rows for cols, as a reader of lesson 4b wrote) passes every 3x3 board and is refused on a 2x3 or 3x2 one."""
    def with_rows(keep: str):
        def h(p: Board) -> int:
            kept = {"row": lambda t, r, cols: t and (t - 1) // p.rows == r,
                    "column": lambda t, c, cols: t and (t - 1) % p.rows == c}[keep]
            return _wrong_conflict(**{f"keep_{keep[:3]}": kept})(p)
        return h

    assert check("solvers.admissible", _wrong_conflict()).passed
    for keep in ("row", "column"):
        wrong = with_rows(keep)
        result = check("solvers.admissible", wrong)
        board = result.counterexample
        assert not result.passed and (board.rows, board.cols) in ((2, 3), (3, 2))
        assert wrong(board) != linear_conflict(board) and f"gives {linear_conflict(board)}" in result.message


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
    (lessons_bfs, "tested the board"),                 # breadth first: tests the goal when it generates it
    (lessons_ida_star, "start a second time"),         # iterative deepening: the root again each round
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


# ---------------------------------------------------------------- "write A*" as lesson 4a asks it: my_astar(start, h)
from tilelab.exercises.solvers import blind_cases, no_guess, search_cases  # noqa: E402 - the A* cases, for the oracle

#: The boards the answers below expand and test for the goal, in order, while a test listens (None: nobody listens).
_HEARD: dict[str, list] | None = None


def _expand(board: Board):
    """children(board), as the answers below call it (the check watches the call; a listening test records it)."""
    if _HEARD is not None:
        _HEARD["expanded"].append(board)
    return children(board)


def _goal(board: Board) -> bool:
    if _HEARD is not None:
        _HEARD["tested"].append(board)
    return board.is_goal()


def _best_g_search(key, *, stop_on_push=False, skip_stale=False, ties=lambda n: n, goal_test=None,
                   g_from_f=False, requeue=True):
    """A search with a dict of best g (the lesson's skeleton): entries (key(g, h, parent h), tie, g, board); two
    slips of it: g = f + 1 (``g_from_f``), a board reached by a shorter path not queued again (``requeue=False``)."""
    def search(start: Board, h) -> list[int] | None:
        is_goal = goal_test(start) if goal_test else _goal
        if stop_on_push and is_goal(start):
            return []
        tie = itertools.count()
        queue = [(key(0, h(start), 0), ties(next(tie)), 0, start)]
        best_g, parent = {start: 0}, {start: None}
        while queue:
            f, _, g, board = heapq.heappop(queue)
            if skip_stale and g > best_g[board]:
                continue
            if not stop_on_push and is_goal(board):
                return _path_to(board, parent)
            for tile, child in _expand(board):
                g = f + 1 if g_from_f else best_g[board] + 1
                if child not in best_g or (requeue and g < best_g[child]):
                    best_g[child], parent[child] = g, (board, tile)
                    if stop_on_push and is_goal(child):
                        return _path_to(child, parent)
                    heapq.heappush(queue, (key(g, h(child), h(board)), ties(next(tie)), g, child))
        return None
    return search


def closed_set_astar(start: Board, h) -> list[int] | None:
    """A textbook A* with a closed set and entries (f, g, board, path): no counter, no dict of best g."""
    closed = set()
    queue = [(h(start), 0, start, [])]
    while queue:
        f, g, board, path = heapq.heappop(queue)
        if board in closed:
            continue
        if _goal(board):
            return path
        closed.add(board)
        for tile, child in _expand(board):
            if child not in closed:
                heapq.heappush(queue, (g + 1 + h(child), g + 1, child, path + [tile]))
    return None


def closed_set_no_skip(start: Board, h) -> list[int] | None:
    """A closed set checked only when pushing, entries (f, board, path): a board queued twice is expanded twice."""
    closed = set()
    queue = [(h(start), start, [])]
    while queue:
        f, board, path = heapq.heappop(queue)
        if _goal(board):
            return path
        closed.add(board)
        for tile, child in _expand(board):
            if child not in closed:
                heapq.heappush(queue, (len(path) + 1 + h(child), child, path + [tile]))
    return None


def ida_star_with_h(start: Board, h) -> list[int]:
    path: list[int] = []

    def search(board, g, bound):
        if _goal(board):
            return None
        smallest = math.inf
        for tile, child in _expand(board):
            f = g + 1 + h(child)
            if f > bound:
                smallest = min(smallest, f)
                continue
            path.append(tile)
            cut = search(child, g + 1, bound)
            if cut is None:
                return None
            path.pop()
            smallest = min(smallest, cut)
        return smallest

    bound = h(start)
    while (cut := search(start, 0, bound)) is not None:
        bound = cut
    return path


def tree_astar(start: Board, h) -> list[int] | None:
    """A* that remembers no board at all: every child queued, the start again among its grandchildren."""
    tie = itertools.count()
    queue = [(h(start), next(tie), start, [])]
    while queue:
        _, _, board, path = heapq.heappop(queue)
        if _goal(board):
            return path
        for tile, child in _expand(board):
            heapq.heappush(queue, (len(path) + 1 + h(child), next(tie), child, path + [tile]))
    return None


def bfs_with_h(start: Board, h) -> list[int]:
    """Lesson 4a's breadth-first search, given an h it does not use."""
    if _goal(start):
        return []
    parent, queue = {start: None}, deque([start])
    while queue:
        board = queue.popleft()
        for tile, child in _expand(board):
            if child not in parent:
                parent[child] = (board, tile)
                if _goal(child):
                    return _path_to(child, parent)
                queue.append(child)
    return []


A_STAR = lambda g, h, h_parent: g + h  # noqa: E731
HONEST_ASTARS = {
    "the lesson's solution: best_g, (f, tie, board), stale entries expanded again": _best_g_search(A_STAR),
    "stale entries skipped": _best_g_search(A_STAR, skip_stale=True),
    "ties to the newest entry": _best_g_search(A_STAR, ties=lambda n: -n),
    "no counter: ties compare g, then the boards": _best_g_search(A_STAR, ties=lambda n: 0),
    "a closed set, no counter": closed_set_astar,
    "a closed set checked only when pushing": closed_set_no_skip,
}
WRONG_ASTARS = {
    "breadth-first order (g only), goal tested when taken out": (_best_g_search(lambda g, h, hp: g), "above"),
    "greedy order (h only)": (_best_g_search(lambda g, h, hp: h), "above"),
    "an inadmissible mix, g + 2h": (_best_g_search(lambda g, h, hp: g + 2 * h), "the fewest is"),
    "the parent's h": (_best_g_search(lambda g, h, hp: g + hp), "above"),
    "g = f + 1 (the lesson's skeleton)": (_best_g_search(A_STAR, g_from_f=True), "g = f + 1"),
    "a shorter path not queued again": (_best_g_search(A_STAR, requeue=False), "or g < best_g[child]"),
    "stops when the goal is generated (is_goal)": (_best_g_search(A_STAR, stop_on_push=True), "tested the board"),
    "stops when the goal is generated (== goal)": (
        _best_g_search(A_STAR, stop_on_push=True, goal_test=lambda s: Board.goal(s.rows, s.cols).__eq__), "stopped before"),
    "ignores the h it is given": (lambda start, h: _best_g_search(A_STAR)(start, my_manhattan), "stopped before"),
    "lesson 4a's breadth-first search": (bfs_with_h, "tested the board"),
    "IDA*": (ida_star_with_h, "start a second time"),
    "no memory of boards (a tree search)": (tree_astar, "start a second time"),
}


@pytest.mark.parametrize("variant", list(HONEST_ASTARS))
def test_honest_astars_pass(variant):
    """With or without a closed set, stale entries skipped or not, any tie-break: A* is A*."""
    result = check("solvers.search", HONEST_ASTARS[variant])
    assert result.passed and "h = Manhattan and h = 0" in result.message, (variant, result)


def _drawn(board: Board, picture: str | None) -> bool:
    """Is ``board`` drawn in ``picture`` (alone, or as the left of two boards side by side)?"""
    lines, rows = (picture or "").splitlines(), str(board).splitlines()
    return any(all(lines[i + k].startswith(row) for k, row in enumerate(rows)) for i in range(len(lines) - len(rows) + 1))


def _true_g(start: Board, most: int) -> dict[Board, int]:
    """Fewest moves from ``start`` to every board at most ``most`` moves from it (plain breadth-first search)."""
    g, frontier = {start: 0}, [start]
    for depth in range(1, most + 1):
        frontier = [c for b in frontier for _, c in children(b) if c not in g]
        frontier = list(dict.fromkeys(frontier))
        for c in frontier:
            g[c] = depth
    return g


def _goes_wrong(answer, start: Board, h) -> bool:
    """Does ``answer`` go wrong on ``start`` with the consistent ``h``? Judged apart from the checker's code: the moves
    must be a shortest solution, and the boards it expands and tests must be those A* takes (true g by a plain
    breadth-first search): the start once, in order of f = g + h (a board taken again: any time), none with
    f > C, every one with f < C, and goal tests only on boards with f <= C."""
    global _HEARD
    truth = distance(start)
    _HEARD = {"expanded": [], "tested": []}
    try:
        moves = answer(start, h)
    finally:
        heard, _HEARD = _HEARD, None
    if not isinstance(moves, list) or len(moves) != truth or not start.play_all(moves).is_goal():
        return True
    g = _true_g(start, truth + 12)
    f = {b: g[b] + h(b) if b in g else math.inf for b in heard["expanded"] + heard["tested"]}
    taken = [b for i, b in enumerate(heard["expanded"]) if i == 0 or b is not heard["expanded"][i - 1]]
    firsts = [b for i, b in enumerate(taken) if b not in taken[:i]]
    if taken.count(start) > 1 or any(f[b] > truth for b in taken + heard["tested"]):
        return True
    order = [f[b] for b in firsts]
    if order != sorted(order):
        return True
    return any(g[b] + h(b) < truth and b not in firsts for b in g)


@pytest.mark.parametrize("variant", list(WRONG_ASTARS))
def test_wrong_astars_fail_on_the_smallest_board_where_they_go_wrong(variant):
    """BFS order, greedy order, a wrong f, stopping when the goal is generated, IDA*, a search without memory: each is
    refused, with the first board (nearest the goal, then fewest cells) where it goes wrong, judged independently."""
    answer, why = WRONG_ASTARS[variant]
    result = check("solvers.search", answer)
    assert not result.passed and result.reason == "" and why in result.message, (variant, result)
    assert isinstance(result.counterexample, Board) and _drawn(result.counterexample, result.picture)
    cases = sorted([(b, manhattan, c) for b, c, _ in search_cases()] + [(b, no_guess, c) for b, c, _ in blind_cases()],
                   key=lambda case: (case[2], case[0].cell_count))
    first = next(board for board, h, _ in cases if _goes_wrong(answer, board, h))
    assert result.counterexample == first, (variant, result, first)


def test_write_astar_messages_fit_and_a_pair_is_named():
    def with_count(start, h):  # the lesson's readable astar returns (moves, expanded)
        return _best_g_search(A_STAR)(start, h), 0

    result = check("solvers.search", with_count)
    assert not result.passed and "pair" in result.message
    for answer, _ in WRONG_ASTARS.values():
        assert len(check("solvers.search", answer).message) < 300   # never cut short


def test_lesson_4b_small_cases_show_a_slip_in_either_loop():
    """Lesson 4b's exercise prints h on a row case and a column case, each 4: a slip in either loop changes one of
    them (a reader's column loop that kept the tiles of that goal row printed 4 on the row case alone), and the
    check's refusal asks which tiles each loop keeps."""
    row_case, column_case = Board.parse("2 1 3 \n 4 5 6 \n 7 8 ."), Board.parse("4 2 3 \n 1 5 6 \n 7 8 .")
    assert linear_conflict(row_case) == linear_conflict(column_case) == 4
    slips = [WRONG_CONFLICTS["a column keeps the tiles of that goal row"], _wrong_conflict(per=1),
             _wrong_conflict(keep_col=lambda t, c, cols: False), _wrong_conflict(keep_row=lambda t, r, cols: False)]
    for slip in slips:
        assert (slip(row_case), slip(column_case)) != (4, 4)
    message = check("solvers.admissible", slips[0]).message
    assert "not admissible" in message and "goal row" in message and "goal column" in message  # which tiles a loop keeps
