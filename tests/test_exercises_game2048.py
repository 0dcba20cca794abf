"""Lesson 1 checkers: a right answer passes, a known wrong one fails on the right counterexample."""

from __future__ import annotations

import pytest

from tilelab.exercises import MESSAGE_LIMIT, allow_package_calls, check, list_exercises
from tilelab.exercises.game2048 import CountingLine, every_row
from tilelab.game2048 import Board, Direction, Game, legal_moves, play, slide_row, spawn_outcomes
from tilelab.game2048.fast import bitboard


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
    for name in ("slide_row", "2048.slide_row", "2048.row_score", "2048.available_moves", "2048.spawn_outcomes",
                 "2048.one_legal_move", "2048.compact"):
        assert name in names


def test_every_row_is_exhaustive():
    rows = list(every_row())
    assert len(rows) == 6**4 and len({tuple(r) for r in rows}) == 6**4


def test_slide_row_checker():
    assert check("slide_row", two_phase_slide).passed
    with allow_package_calls():
        assert check("2048.slide_row", slide_row).passed  # a SlideResult is accepted through .row
    r = check("2048.slide_row", greedy_slide)
    assert not r.passed
    assert r.counterexample == [2, 2, 4]  # the smallest row where a new 4 merges again
    assert "returned [8, 0, 0], expected [4, 4, 0]" in r.message  # lists, as the answer returns them
    # text that reads as tiles is not a row of tiles
    r = check("2048.slide_row", lambda row: [str(v) for v in two_phase_slide(row)])
    assert not r.passed and r.counterexample == [0, 0]


def test_slide_row_checker_survives_crashes_and_mutation():
    r = check("slide_row", lambda row: row[10])
    assert not r.passed and "IndexError" in r.message

    def mutating(row):
        row[:] = two_phase_slide(row)
        return row

    assert check("slide_row", mutating).passed


def own_row_score(row):
    """The score written without the package: the sum of the tiles merges create."""
    tiles, score, i = [v for v in row if v], 0, 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            score, i = score + 2 * tiles[i], i + 2
        else:
            i += 1
    return score


def test_row_score_checker():
    assert check("2048.row_score", own_row_score).passed
    r = check("2048.row_score", lambda row: 0)
    assert not r.passed and r.counterexample == [2, 2]  # the smallest row that scores
    # counting the merged pair's old values instead of the new tile: wrong from the first merge on
    r = check("2048.row_score", lambda row: own_row_score(row) // 2)
    assert not r.passed and r.counterexample == [2, 2] and "expected 4" in r.message


def _slide_via_move(row):
    return list(play(Board([row] + [[0] * len(row)] * (len(row) - 1)), "left").board.grid[0])


def _score_via_tables(row):
    if len(row) != 4:  # the bitboard tables hold 4-cell rows
        return own_row_score(row)
    tables = bitboard.row_tables()
    return int(tables.score[bitboard.bits_from_exponents([[max(v.bit_length() - 1, 0) for v in row]])])


@pytest.mark.parametrize("name, answer, called", [
    ("2048.slide_row", lambda row: slide_row(row).row, "slide_row"),
    ("slide_row", _slide_via_move, "play"),  # move is play's older name: the same function, named play
    ("2048.row_score", lambda row: slide_row(row).score, "slide_row"),
    ("2048.row_score", _score_via_tables, "row_tables"),
    ("2048.available_moves", legal_moves, "legal_moves"),
    ("2048.available_moves", lambda b: Game(board=b).legal_moves(), "Game"),  # naming Game is fine, running one is not
    ("2048.spawn_outcomes", lambda b, p: dict(spawn_outcomes(b, p)), "spawn_outcomes"),
    ("2048.spawn_outcomes", lambda b, p: {s: q for s, q in spawn_outcomes(b, p)}, "spawn_outcomes"),
])
def test_an_answer_that_delegates_to_the_package_is_refused(name, answer, called):
    r = check(name, answer)
    assert not r.passed and r.reason == "delegated" and called in r.counterexample and len(r.message) < MESSAGE_LIMIT
    with allow_package_calls():  # the same answer is right: only the delegation is refused
        assert check(name, answer).passed


def buggy_available_moves(board):
    """The C# walkthrough's logic: one copy moved through all four swipes, Up reported for Left/Right."""
    rows = board.grid
    found = []
    for direction, reported in zip(Direction, [Direction.UP, Direction.DOWN, Direction.UP, Direction.UP]):
        result = play(rows, direction)
        if result.changed:
            found.append(reported)
        rows = result.board.grid
    return found


def own_available_moves(board):
    return [d.value for d in Direction if play(board, d).changed]


def test_available_moves_checker():
    assert check("2048.available_moves", own_available_moves).passed
    assert check("2048.available_moves", lambda b: [Direction(d) for d in own_available_moves(b)]).passed
    r = check("2048.available_moves", buggy_available_moves)
    assert not r.passed and isinstance(r.counterexample, Board)
    assert set(buggy_available_moves(r.counterexample)) != set(legal_moves(r.counterexample))
    assert r.picture == str(r.counterexample) and len(r.message) < MESSAGE_LIMIT


def own_spawn_outcomes(board, p_four):
    cells = board.empty_cells()
    return {(cell, v): p / len(cells) for cell in cells for v, p in ((2, 1 - p_four), (4, p_four))}


def test_spawn_outcomes_checker():
    assert check("2048.spawn_outcomes", own_spawn_outcomes).passed

    def c_sharp_odds(board, p_four):  # 3/4 and 1/4, whatever p_four says
        empty = board.empty_cells()
        return {(cell, v): p / len(empty) for cell in empty for v, p in ((2, 0.75), (4, 0.25))}

    r = check("2048.spawn_outcomes", c_sharp_odds)
    assert not r.passed and r.counterexample[1] == 0.1
    assert not check("2048.spawn_outcomes", lambda b, p: None).passed


@pytest.mark.parametrize("given, named", [
    (lambda b, p: [((cell, 2), 1 / len(b.empty_cells())) for cell in b.empty_cells()], "a list"),
    (lambda b, p: tuple(own_spawn_outcomes(b, p).items()), "a tuple"),
    (lambda b, p: None, "None"),
    (lambda b, p: 0.9, "a float"),
])
def test_spawn_outcomes_asks_for_a_dict_and_names_what_came_back(given, named):
    """The exercise asks for a dict: a list of pairs (even right ones) or anything else is refused, kindly."""
    r = check("2048.spawn_outcomes", given)
    assert not r.passed and f"you returned {named};" in r.message and "return a dict" in r.message, r.message
    assert len(r.message) < MESSAGE_LIMIT and r.picture
    from collections import OrderedDict

    assert check("2048.spawn_outcomes", lambda b, p: OrderedDict(own_spawn_outcomes(b, p))).passed  # any mapping


def test_spawn_outcomes_refuses_tiles_written_as_text():
    """A reader's dict with "2" and "4" for the tiles passed: text is not a tile."""
    as_text = lambda b, p: {(cell, str(v)): q for (cell, v), q in own_spawn_outcomes(b, p).items()}  # noqa: E731
    r = check("2048.spawn_outcomes", as_text)
    assert not r.passed and "is not (cell, value)" in r.message, r.message
    assert check("2048.spawn_outcomes", own_spawn_outcomes).passed


def test_spawn_outcomes_message_is_short_and_shows_the_smallest_board():
    def forgets_fours(board, p_four):
        cells = board.empty_cells()
        return {(cell, 2): 1 / len(cells) for cell in cells}

    r = check("2048.spawn_outcomes", forgets_fours)
    board, p_four = r.counterexample
    assert (board.size, len(board.empty_cells()), p_four) == (2, 1, 0.1)  # one blank on a 2x2 board
    assert r.picture == str(board) and len(r.message) <= 150
    assert "for a 2 at (0, 0) you gave 1, expected 0.9" in r.message


def test_one_legal_move_checker():
    assert check("2048.one_legal_move", Board.parse(". .\n2 4")).passed
    assert check("2048.one_legal_move", ". . .\n. . .\n2 4 2").passed  # the board's text is fine
    for wrong, why in ((Board.parse("2 .\n. 4"), "4 legal moves"), (Board.parse("2 4\n4 2"), "no empty cell"),
                       (Board.parse(". .\n. 2"), "at least two tiles"), (42, "give a board")):
        r = check("2048.one_legal_move", wrong)
        assert not r.passed and why in r.message, r.message


def test_the_claim_holds_when_the_empty_cell_has_a_tile_in_its_row_and_its_column():
    """The repaired claim the lesson states: a blank with a tile in its row and one in its column."""
    for cells in __import__("itertools").product((0, 2, 4), repeat=9):
        board = Board([cells[:3], cells[3:6], cells[6:]])
        guaranteed = any(any(board[r, k] for k in range(3)) and any(board[k, c] for k in range(3))
                         for r, c in board.empty_cells())
        if guaranteed:
            assert len(legal_moves(board)) >= 2


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
    assert not slow and slow.counterexample == [0, 0, 0, 0] and str(slow.counterexample) in slow.message  # the row shown
    assert not check("2048.compact", lambda line: None).passed
    wrong = check("2048.compact", lambda line: line.__setitem__(0, 0))
    assert not wrong and "expected" in wrong.message
    line = CountingLine([0, 2])
    line[0] = line[1]
    assert line.accesses == 2


def test_compact_cannot_be_bypassed_through_the_storage():
    def named(line):  # writes the storage, then does the linear-looking nothing
        line._cells[:] = sorted(line._cells, key=lambda v: v == 0)

    r = check("2048.compact", named)
    assert not r.passed and "storage" in r.message

    def hidden(line):  # the same, with the attribute name built at run time
        cells = getattr(line, "".join(["_", "cells"]))
        tiles = [v for v in cells if v]
        cells[:] = tiles + [0] * (len(cells) - len(tiles))

    r = check("2048.compact", hidden)
    assert not r.passed and "without line[i] = v" in r.message

    def through_dict(line):
        line.__dict__["values"] = []

    assert not check("2048.compact", through_dict).passed
    with pytest.raises(AttributeError):
        CountingLine([1]).values = [2]  # the result is rebuilt from counted writes: no setter
