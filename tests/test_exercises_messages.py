"""Messages stay short and kind and show the smallest counterexample as a picture (the reviews' requests)."""

from __future__ import annotations

import numpy as np

from tilelab.exercises import MESSAGE_LIMIT, check


def test_striped_wrapped_draws_the_cells_missed_and_added():
    cross_only = lambda rows, cols, centre: {(r, c) for r in range(rows) for c in range(cols)  # noqa: E731
                                             if r == centre[0] or c == centre[1]}
    r = check("match3_specials.striped_wrapped", cross_only)
    assert not r and r.counterexample == (3, 3, (0, 0))
    assert r.picture.splitlines() == ["@ # #", "# - -", "# - ."]  # the 3x3 board: what was left out, marked


def test_deal_probability_shows_the_3x3_board_where_both_pairs_ban_one_kind_and_chances_as_fractions():
    from tilelab.match3 import find_runs

    def counts_a_shared_ban_twice(board):
        if find_runs(board):
            return 0.0
        p = 1.0
        for r in range(board.rows):
            for c in range(board.cols):
                n = (c >= 2 and board[r, c - 1] == board[r, c - 2]) + (r >= 2 and board[r - 1, c] == board[r - 2, c])
                p /= board.kinds - n
        return p

    r = check("match3.deal_probability", counts_a_shared_ban_twice)
    assert not r and (r.counterexample.rows, r.counterexample.cols) == (3, 3)
    assert "1/6561" in r.message and "1/13122" in r.message


def test_is_dead_names_the_move_a_dead_looking_board_still_has():
    from tilelab.match3 import legal_moves

    r = check("match3.is_dead", lambda board: True)
    a, b = legal_moves(r.counterexample)[0]
    assert not r and str(a) in r.message and str(b) in r.message and r.picture


def test_td_update_starts_with_one_tuple_on_the_empty_board():
    from tilelab.game2048.learning.ntuple_ref import feature_indices_ref, value_ref

    def numpy_add(net, after, target, alpha):  # w[idx] += step adds the step once for a repeated index
        idx = feature_indices_ref(net, after)
        net.weights[np.array(idx)] += alpha * (target - value_ref(net, after)) / len(idx)

    r = check("2048learn.td_update", numpy_add)
    assert not r and r.counterexample == [[0] * 4 for _ in range(4)] and "[(0, 1)]" in r.message


def test_compact_shows_the_row_it_took_too_long_on():
    def quadratic(line):
        n = len(line)
        for i in range(n * n):
            y = i % n
            if y < n - 1 and line[y] == 0 and line[y + 1] != 0:
                line[y], line[y + 1] = line[y + 1], 0

    r = check("2048.compact", quadratic)
    assert not r and str(r.counterexample) in r.message


def test_a_four_cell_only_slide_fails_on_a_short_row():
    def four_only(row):
        a, b, c, d = row
        tiles = [v for v in (a, b, c, d) if v]
        out = []
        while tiles:
            if len(tiles) > 1 and tiles[0] == tiles[1]:
                out.append(2 * tiles.pop(0)); tiles.pop(0)
            else:
                out.append(tiles.pop(0))
        return out + [0] * (4 - len(out))

    r = check("2048.slide_row", four_only)
    assert not r and len(r.counterexample) < 4  # a 2-cell row, not a long random one


def test_available_moves_fails_first_on_a_board_a_game_can_show():
    r = check("2048.available_moves", lambda b: ["up", "down", "left", "right"])
    assert not r and sum(1 for row in r.counterexample.grid for v in row if v) >= 2


def test_every_refusal_message_is_short():
    from tilelab.game2048 import slide_row

    for r in (check("2048.row_score", lambda row: slide_row(row).score),
              check("count_empty", lambda rows: __import__("sys").setprofile(None)),
              check("solvers.misplaced", lambda p: 0)):
        assert not r and len(r.message) < MESSAGE_LIMIT  # (a longer message is cut to the limit)


def test_a_crash_names_the_line_of_the_answer_that_raised():
    """A crashed answer is told its error and its own line, not a line of tilelab, numpy or Python; the line even
    when the error happens inside a library the answer called."""
    import inspect


    from tilelab.exercises.raised import raised_text

    def my_manhattan(board):
        total = 0
        return total / 0

    def my_misplaced(board):
        return int(np.array([1, 2]).reshape(3))

    def my_deal(rows, cols, kinds, rng):
        return rng.integers(0, kinds - kinds)  # numpy's generator raises in its compiled (Cython) source

    for answer, exercise, error in ((my_manhattan, "solvers.manhattan", "ZeroDivisionError"),
                                    (my_misplaced, "solvers.misplaced", "ValueError"),
                                    (my_deal, "match3.deal", "ValueError")):
        lines, first = inspect.getsourcelines(answer)
        message = check(exercise, answer).message
        assert error in message and f"(line {first + len(lines) - 1}: {lines[-1].strip()})" in message, message
    try:
        raise KeyError("x")
    except KeyError as exc:
        assert raised_text(exc).startswith("KeyError: 'x' (line ")


def test_a_wrong_set_of_cells_is_told_in_order_with_what_is_extra_and_missing() -> None:
    """A run walk that keeps one cell past each streak: the message names that cell first, and both sets sorted."""
    def my_run_cells(board):
        lines = [[(r, c) for c in range(board.cols)] for r in range(board.rows)]
        lines += [[(r, c) for r in range(board.rows)] for c in range(board.cols)]
        cells = set()
        for line in lines:
            start = 0
            for i in range(1, len(line) + 1):
                if i == len(line) or board[line[i]] != board[line[start]]:
                    if i - start >= 3:
                        cells.update(line[start:i + 1])   # one cell too far
                    start = i
        return cells

    result = check("match3.find_runs", my_run_cells)
    assert not result.passed and " too many: {" in result.message, result.message
    shown = result.message.split(": ", 1)[1]
    got, want = (eval(part.strip(" ,")) for part in shown.split("expected"))  # noqa: S307: the checker's own text
    assert shown.split(", expected ")[0] == "{" + ", ".join(map(repr, sorted(got))) + "}" and got > want
