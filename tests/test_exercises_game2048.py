"""Lesson 1 checkers: a right answer passes, a known wrong one fails on the right counterexample."""

from __future__ import annotations

from tilelab.exercises import check, list_exercises
from tilelab.exercises.game2048 import every_row
from tilelab.game2048 import Board, Direction, legal_moves, move, slide_row, spawn_outcomes


def two_phase_slide(row):
    """Merge first, then compact (a correct answer written differently from the package)."""
    row = list(row)
    last = None
    for i, v in enumerate(row):
        if v == 0:
            continue
        if last is not None and row[last] == v:
            row[last], row[i], last = 2 * v, 0, None
        else:
            last = i
    tiles = [v for v in row if v]
    return tiles + [0] * (len(row) - len(tiles))


def greedy_slide(row):
    """Wrong: lets a new tile merge again ([4, 4, 8, 0] -> [16, ...])."""
    tiles = [v for v in row if v]
    out = []
    for v in tiles:
        if out and out[-1] == v:
            out[-1] *= 2
        else:
            out.append(v)
    return out + [0] * (len(row) - len(out))


def test_exercises_are_registered():
    names = list_exercises()
    for name in ("slide_row", "2048.slide_row", "2048.row_score", "2048.available_moves", "2048.spawn_outcomes"):
        assert name in names


def test_every_row_is_exhaustive():
    rows = list(every_row())
    assert len(rows) == 6**4 and len({tuple(r) for r in rows}) == 6**4


def test_slide_row_checker():
    assert check("slide_row", two_phase_slide).passed
    assert check("2048.slide_row", slide_row).passed  # a SlideResult is accepted through .row
    r = check("2048.slide_row", greedy_slide)
    assert not r.passed
    assert r.counterexample == [0, 2, 2, 4]  # the first row in order where a new 4 merges again
    assert "expected (4, 4, 0, 0)" in r.message


def test_slide_row_checker_survives_crashes_and_mutation():
    r = check("slide_row", lambda row: row[10])
    assert not r.passed and "IndexError" in r.message

    def mutating(row):
        row[:] = two_phase_slide(row)
        return row

    assert check("slide_row", mutating).passed


def test_row_score_checker():
    assert check("2048.row_score", lambda row: slide_row(row).score).passed
    r = check("2048.row_score", lambda row: 0)
    assert not r.passed and r.counterexample == [0, 0, 2, 2]
    # counting the merged pair's old values instead of the new tile: wrong from the first merge on
    r = check("2048.row_score", lambda row: slide_row(row).score // 2)
    assert not r.passed and r.counterexample == [0, 0, 2, 2] and "expected 4" in r.message


def buggy_available_moves(board):
    """The C# walkthrough's logic: one copy moved through all four swipes, Up reported for Left/Right."""
    rows = board.rows
    found = []
    for direction, reported in zip(Direction, [Direction.UP, Direction.DOWN, Direction.UP, Direction.UP]):
        result = move(rows, direction)
        if result.changed:
            found.append(reported)
        rows = result.board.rows
    return found


def test_available_moves_checker():
    assert check("2048.available_moves", legal_moves).passed
    assert check("2048.available_moves", lambda b: [d.value for d in legal_moves(b)]).passed
    r = check("2048.available_moves", buggy_available_moves)
    assert not r.passed and isinstance(r.counterexample, Board)
    assert set(buggy_available_moves(r.counterexample)) != set(legal_moves(r.counterexample))


def test_spawn_outcomes_checker():
    assert check("2048.spawn_outcomes", spawn_outcomes).passed

    def c_sharp_odds(board, p_four):  # 3/4 and 1/4, whatever p_four says
        empty = board.empty_cells()
        return {(cell, v): p / len(empty) for cell in empty for v, p in ((2, 0.75), (4, 0.25))}

    r = check("2048.spawn_outcomes", c_sharp_odds)
    assert not r.passed and r.counterexample[1] == 0.1
    assert not check("2048.spawn_outcomes", lambda b, p: None).passed


def test_compact_checker_wants_linear_time():
    from tilelab.exercises.game2048 import CountingLine

    def two_fingers(line):
        k = 0
        for i in range(len(line)):
            v = line[i]
            if v:
                line[i], line[k] = 0, v
                k += 1

    def bubbling(line):  # the C# walkthrough's phase 2: length * length passes of neighbour swaps
        n = len(line)
        for i in range(n * n):
            y = i % n
            if y < n - 1 and line[y] == 0 and line[y + 1] != 0:
                line[y], line[y + 1] = line[y + 1], 0

    assert check("2048.compact", two_fingers).passed
    slow = check("2048.compact", bubbling)
    assert not slow and "linear pass needs at most" in slow.message
    assert not check("2048.compact", lambda line: None).passed
    wrong = check("2048.compact", lambda line: line.__setitem__(0, 0))
    assert not wrong and "expected" in wrong.message
    line = CountingLine([0, 2])
    line[0] = line[1]
    assert line.accesses == 2
