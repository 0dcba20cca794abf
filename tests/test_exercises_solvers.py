"""Lesson 4 checkers: right answers pass, the classic mistakes fail with a counterexample."""

from __future__ import annotations

from collections import deque

from tilelab.exercises import check
from tilelab.sliding import Puzzle, linear_conflict, manhattan, misplaced, solve
from tilelab.sliding.pdb import PatternDatabase


def test_reference_answers_pass():
    assert check("solvers.misplaced", misplaced).passed
    assert check("solvers.manhattan", manhattan).passed
    assert check("solvers.admissible", linear_conflict).passed
    assert check("solvers.search", lambda p: solve(p, heuristic="manhattan").moves).passed


def test_counting_the_blank_is_caught():
    def counts_blank(p: Puzzle) -> int:
        return sum(1 for i, t in enumerate(p.tiles) if t != (i + 1) % p.size)

    result = check("solvers.misplaced", counts_blank)
    assert not result.passed and result.counterexample == Puzzle.goal(3, 3).slide(8)


def test_wrong_manhattan_is_caught():
    result = check("solvers.manhattan", lambda p: manhattan(p) + (p.tiles[0] == 0))
    assert not result.passed and result.counterexample.tiles[0] == 0


def test_overestimating_heuristic_is_not_admissible():
    result = check("solvers.admissible", lambda p: manhattan(p) + 1)
    assert not result.passed and "not admissible" in result.message



def test_admissible_must_also_beat_manhattan():
    for weak in (lambda p: 0, misplaced, manhattan, lambda p: max(manhattan(p), misplaced(p))):
        result = check("solvers.admissible", weak)
        assert not result.passed and "not stronger than Manhattan" in result.message
    db = PatternDatabase.build(3, 3, [(1, 2, 3, 4), (5, 6, 7, 8)], reflect=True)
    result = check("solvers.admissible", lambda p: max(linear_conflict(p), db.value(p)))
    assert result.passed and "stronger than Manhattan" in result.message


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


def test_pattern_table_checker():
    assert check("solvers.pattern_table", _table_by_bfs).passed
    off_by_one = lambda r, c, p: {k: v + (v > 3) for k, v in _table_by_bfs(r, c, p).items()}  # noqa: E731
    result = check("solvers.pattern_table", off_by_one)
    assert not result.passed and "fewest pattern moves" in result.message
    assert not check("solvers.pattern_table", lambda r, c, p: {}).passed
    assert "dict" in check("solvers.pattern_table", lambda r, c, p: 0).message


def test_pattern_lookup_checker():
    db = PatternDatabase.build(3, 3, [(1, 2, 3, 4), (5, 6, 7, 8)], reflect=True)
    assert check("solvers.pattern_lookup", lambda p: sum(db.values(p))).passed
    assert not check("solvers.pattern_lookup", db.value).passed  # the mirror is not asked for
    assert not check("solvers.pattern_lookup", manhattan).passed


def test_a_crashing_or_suboptimal_search_fails_politely():
    assert not check("solvers.search", lambda p: solve(p, "human").moves).passed
    assert not check("solvers.search", lambda p: [99]).passed
    assert "raised" in check("solvers.search", lambda p: 1 / 0).message
