"""Match-3 engine: rules, shapes, cascades, scores, generation, dead boards, reshuffles, errors."""

from __future__ import annotations

import warnings
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tilelab.match3.generate as generate
from tilelab.match3 import (
    EMPTY,
    Board,
    ReshuffleWarning,
    can_have_move,
    fall,
    find_matches,
    find_runs,
    hint,
    immediate_score,
    is_dead,
    new_board,
    planted_board,
    refill,
    refill_outcomes,
    reshuffle,
    reshuffle_report,
    stable_board,
    swap,
    swap_fast,
    legal_moves,
)
from tilelab.match3.matches import four_direction_counts, runs_through
from tilelab.match3.dispel import (
    TEMPLATES,
    article_cascade,
    can_dispel,
    demo_broken_assumption,
    is_dead_by_rule,
    is_dead_by_templates,
    redraw_deal,
)
from tilelab.match3.fast.plain import fill_no_runs, has_run, is_dead_fast, match_clear_fall, refill_holes, legal_moves_fast
from tilelab.match3.generate import deal_no_runs
from tilelab.match3.stats import cascade_lengths, dead_fraction, dead_table

# ----------------------------------------------------------------------------- helpers


def brute_moves(board: Board) -> list:
    """Definition of a legal swap: after exchanging, some match group contains a or b."""
    moves = []
    for a in board.cells():
        for b in ((a[0], a[1] + 1), (a[0] + 1, a[1])):
            if board.on_board(b) and board[a] != board[b]:
                groups = find_matches(board.swapped(a, b))
                if any(a in g.cells or b in g.cells for g in groups):
                    moves.append((a, b))
    return moves


@st.composite
def boards(draw, min_side=1, max_side=7, full=True):
    rows = draw(st.integers(min_side, max_side))
    cols = draw(st.integers(min_side, max_side))
    kinds = draw(st.integers(3, 6))
    low = 0 if full else EMPTY
    cell = st.integers(low, kinds - 1)
    grid = draw(st.lists(st.lists(cell, min_size=cols, max_size=cols), min_size=rows, max_size=rows))
    return Board(tuple(map(tuple, grid)), kinds)


@st.composite
def stable_boards(draw):
    rows, cols = draw(st.integers(2, 9)), draw(st.integers(3, 9))
    return stable_board(rows, cols, draw(st.integers(3, 7)), rng=draw(st.integers(0, 2**32)))


def shape_of(picture: str) -> list[tuple[str, int, int]]:
    return [(g.shape, g.kind, len(g.cells)) for g in find_matches(Board.parse(picture))]


# ----------------------------------------------------------------------------- board


def test_board_is_immutable_hashable_and_round_trips_its_picture():
    b = Board.parse("012\n120\n201")
    assert b.grid == ((0, 1, 2), (1, 2, 0), (2, 0, 1)) and (b.rows, b.cols, b.kinds) == (3, 3, 3)
    assert {b: 1}[Board.parse("0 1 2\n1 2 0\n2 0 1")] == 1
    with pytest.raises(AttributeError):
        b.kinds = 4  # type: ignore[misc]
    assert eval(repr(b)) == b
    assert Board.parse(b.picture(), 3) == b
    assert Board.from_array(b.to_array(), 3) == b
    assert Board([[0, 1], [2, 0]], 3).grid == ((0, 1), (2, 0))


@given(boards(full=False))
def test_picture_and_parse_are_inverses(board):
    assert Board.parse(board.picture(), board.kinds) == board


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda: Board(((0, 1), (1,)), 3), "ragged"),
        (lambda: Board(((0, 3), (1, 2)), 3), "outside 0..2"),
        (lambda: Board(((0, -2), (1, 2)), 3), "outside 0..2"),
        (lambda: Board(((0, 1), (1, 0)), 2), "at least 3 kinds"),
        (lambda: Board((), 3), "empty"),
        (lambda: Board(((0, 1.5),), 3), "kinds are ints"),
        (lambda: Board.parse("01!"), "unknown symbol"),
        (lambda: Board.parse("   "), "empty picture"),
    ],
)
def test_bad_boards_raise_value_error_naming_the_problem(make, words):
    with pytest.raises(ValueError, match=words):
        make()


def test_kinds_must_be_an_int():
    with pytest.raises(TypeError):
        Board(((0,),), "3")  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- runs, groups, shapes


def test_whole_board_scan_finds_row_and_column_runs():
    runs = find_runs(Board.parse("0001\n1201\n2211\n0121"))
    assert [(r.kind, r.direction, r.cells) for r in runs] == [
        (0, "row", ((0, 0), (0, 1), (0, 2))),
        (1, "col", ((0, 3), (1, 3), (2, 3), (3, 3))),
    ]


@pytest.mark.parametrize(
    "picture, expected",
    [
        ("0001\n1210\n2102", [("line3", 0, 3)]),
        ("00001\n12102\n21021", [("line4", 0, 4)]),
        ("000001\n121021\n210212", [("line5", 0, 5)]),  # six in a row scores as five
        ("00000\n12121\n21212", [("line5", 0, 5)]),
        ("0001\n0121\n0212", [("L", 0, 5)]),
        ("0001\n1021\n2012", [("T", 0, 5)]),
        ("1021\n0001\n2012", [("cross", 0, 5)]),
        ("1220\n2120\n1000", [("L", 0, 5)]),  # the corner at the bottom right
        ("10000\n12212\n10121", [("line3", 1, 3), ("line4", 0, 4)]),  # touching, no shared cell
        ("0002\n1112\n2021", [("line3", 0, 3), ("line3", 1, 3)]),  # parallel runs stay apart
        ("00000\n12021\n21012", [("line5", 0, 7)]),  # a 5-line with a T: colour bomb wins
    ],
)
def test_every_shape_is_recognised(picture, expected):
    assert shape_of(picture) == expected


def test_points_per_shape_follow_candy_crush():
    assert [g.points for g in find_matches(Board.parse("0001\n1210\n2102"))] == [60]
    assert [g.points for g in find_matches(Board.parse("00001\n12102\n21021"))] == [120]
    assert [g.points for g in find_matches(Board.parse("0001\n1021\n2012"))] == [200]


def test_four_direction_counts_and_runs_through_agree_with_the_scan():
    b = Board.parse("1021\n0001\n2012")
    assert four_direction_counts(b, (1, 1)) == {"up": 1, "down": 1, "left": 1, "right": 1}
    in_runs = {c for r in find_runs(b) for c in r.cells}
    assert {c for c in b.cells() if runs_through(b, c)} == in_runs


@given(boards(full=False))
def test_one_cell_counting_and_whole_board_scan_find_the_same_cells(board):
    in_runs = {c for r in find_runs(board) for c in r.cells}
    assert {c for c in board.cells() if runs_through(board, c)} == in_runs
    grouped = [g.cells for g in find_matches(board)]
    assert set().union(*grouped) == in_runs if grouped else not in_runs
    assert sum(len(c) for c in grouped) == len(in_runs)  # groups are disjoint


# ----------------------------------------------------------------------------- fall and refill


def test_fall_moves_candies_down_and_keeps_their_order():
    after, falls = fall(Board.parse("0.\n.1\n2.\n.."))
    assert after.picture() == "..\n..\n0.\n21"
    assert set(falls) == {((0, 0), (2, 0)), ((2, 0), (3, 0)), ((1, 1), (3, 1))}


def test_refill_outcomes_are_uniform_and_sum_to_one():
    b = Board.parse("0..\n120", kinds=5)
    outcomes = refill_outcomes(b, (0, 1))
    assert [k for k, _ in outcomes] == [0, 1, 2, 3, 4]
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="not EMPTY"):
        refill_outcomes(b, (0, 0))


def test_refill_frequencies_match_the_outcomes():
    b = Board(((EMPTY,) * 10,) * 10, 4)
    counts = Counter()
    rng = np.random.default_rng(3)
    for _ in range(40):
        counts.update(k for _, k in refill(b, rng=rng)[1])
    for kind, p in refill_outcomes(b):
        assert abs(counts[kind] / 4000 - p) < 0.03


# ----------------------------------------------------------------------------- swap and cascades


BOARD = Board.parse("0120\n1201\n0012\n2102")


def test_a_swap_without_a_match_is_swapped_back():
    result = swap(BOARD, (0, 0), (0, 1), rng=0)
    assert not result.legal and result.board == BOARD and result.steps == ()
    assert (result.score, result.cascades) == (0, 0)
    assert result.swapped == BOARD.swapped((0, 0), (0, 1))


def test_swapping_two_equal_candies_is_not_a_move():
    b = Board.parse("0011\n1200\n2121")
    assert not swap(b, (0, 0), (0, 1), rng=0).legal


def test_a_valid_swap_clears_the_run_and_scores_it():
    result = swap(BOARD, (2, 2), (3, 2), rng=1)
    step = result.steps[0]
    assert result.legal and step.index == 1
    assert [(g.shape, g.kind, sorted(g.cells)) for g in step.groups] == [
        ("line3", 0, [(2, 0), (2, 1), (2, 2)])
    ]
    assert step.cleared.picture().splitlines()[2] == "...2"
    assert result.score == 60


def check_step(step):
    """Every piece of data in a cascade step is consistent with the boards around it."""
    cells = set().union(*(g.cells for g in step.groups))
    assert step.groups and all(step.before[c] == g.kind for g in step.groups for c in g.cells)
    assert step.cleared == step.before.with_cells({c: EMPTY for c in cells})
    moved = step.cleared.with_cells({src: EMPTY for src, _ in step.falls})
    moved = moved.with_cells({dst: step.cleared[src] for src, dst in step.falls})
    assert moved == step.fallen
    for (r0, c0), (r1, c1) in step.falls:
        assert c0 == c1 and r1 > r0 and step.cleared[r0, c0] != EMPTY
    for c in range(step.fallen.cols):  # holes sit on top of each column, one per cleared cell
        column = [step.fallen[r, c] for r in range(step.fallen.rows)]
        holes = column.count(EMPTY)
        assert column[:holes] == [EMPTY] * holes and EMPTY not in column[holes:]
        assert holes == sum(1 for (_, cc) in cells if cc == c)
    assert sorted(cell for cell, _ in step.refills) == sorted(
        cell for cell in step.fallen.cells() if step.fallen[cell] == EMPTY
    )
    assert step.fallen.with_cells(dict(step.refills)) == step.board
    assert step.score == step.index * sum(g.points for g in step.groups)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(4, 9), st.integers(3, 7))
def test_cascades_run_until_stable_and_every_step_is_consistent(seed, side, kinds):
    board = new_board(side, side, kinds, rng=seed)
    rng = np.random.default_rng(seed)
    for _ in range(5):
        moves = legal_moves(board)
        if not moves:
            board = reshuffle(board, rng=rng)
            continue
        result = swap(board, *moves[int(rng.integers(len(moves)))], rng=rng)
        assert result.legal and result.cascades == len(result.steps) >= 1
        assert [s.index for s in result.steps] == list(range(1, result.cascades + 1))
        assert result.steps[0].before == result.swapped
        for prev, step in zip(result.steps, result.steps[1:]):
            assert step.before == prev.board
        for step in result.steps:
            check_step(step)
        assert result.score == sum(s.score for s in result.steps)
        assert not find_matches(result.board) and result.board == result.steps[-1].board
        board = result.board


def test_a_cascade_caused_by_gravity_scores_with_index_two():
    board = Board.parse("21003\n32213\n30302\n03211\n00322", kinds=4)
    result = swap(board, (3, 1), (3, 2), rng=0)
    first, second = result.steps[:2]
    refilled = {c for c, _ in first.refills}
    gravity_groups = [g for g in second.groups if not g.cells & refilled]
    assert gravity_groups, "the fall alone made a new match"
    assert first.score == 60 and second.score == 2 * sum(g.points for g in second.groups)
    assert result.score == sum(s.index * sum(g.points for g in s.groups) for s in result.steps)


def test_same_seed_same_game():
    a = swap(new_board(8, 8, 6, rng=5), *legal_moves(new_board(8, 8, 6, rng=5))[0], rng=11)
    b = swap(new_board(8, 8, 6, rng=5), *legal_moves(new_board(8, 8, 6, rng=5))[0], rng=11)
    assert a == b
    assert new_board(7, 9, 5, rng=3) == new_board(7, 9, 5, rng=np.random.default_rng(3))


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 9), st.integers(3, 7))
def test_fast_swap_agrees_with_the_reference(seed, side, kinds):
    board = new_board(side, side + 1, kinds, rng=seed)
    for move in legal_moves(board)[:4] + [((0, 0), (0, 1))]:
        slow = swap(board, *move, rng=seed)
        fast = swap_fast(board, *move, rng=seed)
        assert type(fast) is type(slow) and fast.steps == ()
        assert (fast.legal, fast.board, fast.score, fast.cascades, fast.a, fast.b, fast.swapped) == (
            slow.legal, slow.board, slow.score, slow.cascades, slow.a, slow.b, slow.swapped)


@given(boards())
def test_fast_step_kernel_agrees_with_the_reference_on_any_board(board):
    grid = board.to_array()
    holes, points = match_clear_fall(grid)
    groups = find_matches(board)
    assert holes == sum(len(g.cells) for g in groups)
    assert points == sum(g.points for g in groups)
    if groups:
        from tilelab.match3 import clear

        assert Board.from_array(grid, board.kinds) == fall(clear(board, groups))[0]
        u = np.random.default_rng(0).random(holes)
        refill_holes(grid, u, board.kinds)
        assert Board.from_array(grid, board.kinds) == refill(fall(clear(board, groups))[0], rng=0)[0]


@settings(max_examples=100, deadline=None)
@given(boards())
def test_compiled_kernels_agree_with_their_python_twins(board):
    from tilelab.match3.fast import plain as fast

    out_a = np.zeros((2 * board.rows * board.cols, 4), np.int64)
    out_b = out_a.copy()
    n = fast.list_moves(board.to_array(), out_a)
    assert n == fast.list_moves.py_func(board.to_array(), out_b) and (out_a == out_b).all()
    assert fast.any_move(board.to_array()) == fast.any_move.py_func(board.to_array()) == (n > 0)
    assert fast.has_run(board.to_array()) == fast.has_run.py_func(board.to_array()) == bool(find_runs(board))
    g1, g2 = board.to_array(), board.to_array()
    assert fast.match_clear_fall(g1) == fast.match_clear_fall.py_func(g2) and (g1 == g2).all()


@pytest.mark.parametrize(
    "a, b, words",
    [
        ((0, 0), (1, 1), "not neighbours"),
        ((0, 0), (0, 2), "not neighbours"),
        ((0, 0), (0, 0), "not neighbours"),
        ((0, 3), (0, 4), "off the board"),
        ((-1, 0), (0, 0), "off the board"),
        ("a1", (0, 0), "pair"),
    ],
)
def test_bad_swaps_raise_value_error(a, b, words):
    with pytest.raises(ValueError, match=words):
        swap(BOARD, a, b, rng=0)
    with pytest.raises(ValueError, match=words):
        swap_fast(BOARD, a, b, rng=0)


def test_moves_need_a_full_board():
    holed = Board.parse("01.\n120\n201")
    for f in (legal_moves, is_dead, lambda b: swap(b, (0, 0), (0, 1), rng=0)):
        with pytest.raises(ValueError, match="EMPTY"):
            f(holed)


def test_swap_rejects_junk_rng():
    with pytest.raises(TypeError):
        swap(BOARD, (2, 2), (3, 2), rng="seed")


# ----------------------------------------------------------------------------- moves and dead boards


@settings(max_examples=200, deadline=None)
@given(boards())
def test_legal_moves_fast_and_definition_agree(board):
    assert legal_moves(board) == legal_moves_fast(board) == brute_moves(board)
    if find_runs(board):  # dead is defined for stable boards only
        for dead in (is_dead, is_dead_fast):
            with pytest.raises(ValueError, match="stable"):
                dead(board)
    else:
        assert is_dead(board) == is_dead_fast(board) == (not brute_moves(board))


@settings(max_examples=200, deadline=None)
@given(stable_boards())
def test_can_dispel_rule_and_templates_are_right_on_stable_boards(board):
    dead = not brute_moves(board)
    assert is_dead_by_rule(board) == dead
    assert is_dead_by_templates(board) == dead


def test_can_dispel_rule_on_thousands_of_stable_boards_including_dead_ones():
    rng = np.random.default_rng(2024)
    dead_seen = 0
    for i in range(2000):
        side = 4 + i % 4
        board = stable_board(side, side, 5 + i % 3, rng=rng)
        dead = is_dead(board)
        dead_seen += dead
        assert is_dead_by_rule(board) == dead == is_dead_by_templates(board)
    assert dead_seen > 20


def test_can_dispel_rule_fails_on_a_board_with_a_ready_run():
    board = Board.parse("0201\n1100\n2221", kinds=3)
    assert not legal_moves(board)  # no swap creates a *new* run
    assert can_dispel(board, (2, 3))  # the rule counts the ready 222 as an arm
    for dead in (is_dead, is_dead_fast, is_dead_by_rule, is_dead_by_templates):
        with pytest.raises(ValueError, match="stable"):  # so "dead?" is refused on such boards
            dead(board)


def test_there_are_sixteen_templates_and_each_is_a_move():
    assert len(set(TEMPLATES)) == 16
    for template in TEMPLATES:
        rows = [r for r, _ in template]
        cols = [c for _, c in template]
        grid = [[(r * 7 + c * 3) % 4 + 1 for c in range(6)] for r in range(6)]
        for r, c in template:
            grid[r - min(rows) + 1][c - min(cols) + 1] = 0
        board = Board(tuple(map(tuple, grid)), 5)
        assert not is_dead_by_templates(board) and not is_dead(board)


def test_hint_picks_the_largest_immediate_score():
    board = Board.parse("0100\n1022\n2101\n1211", kinds=3)
    moves = legal_moves(board)
    best = hint(board)
    assert best in moves
    assert immediate_score(board, best) == max(immediate_score(board, m) for m in moves)
    assert hint(board, "first") == moves[0]
    assert hint(board, "lowest")[1][0] == max(b[0] for _, b in moves)
    assert hint(Board.parse("012\n120\n201")) is None
    with pytest.raises(ValueError, match="hint rule"):
        hint(board, "best")


# ----------------------------------------------------------------------------- new boards


@pytest.mark.parametrize("kinds", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("rows, cols", [(2, 3), (3, 2), (1, 4), (4, 1), (3, 3), (5, 5), (8, 8), (9, 7)])
def test_new_boards_have_no_run_and_a_move(rows, cols, kinds):
    for seed in range(25):
        board = new_board(rows, cols, kinds, rng=seed)
        assert (board.rows, board.cols, board.kinds) == (rows, cols, kinds)
        assert not find_runs(board) and legal_moves(board)


@pytest.mark.parametrize("rows, cols", [(2, 3), (3, 2), (1, 4), (4, 1), (2, 9), (9, 2), (6, 6)])
@pytest.mark.parametrize("kinds", [3, 4, 8])
def test_the_planted_fallback_always_has_a_move(rows, cols, kinds):
    for seed in range(30):
        board = planted_board(rows, cols, kinds, rng=seed)
        assert not find_runs(board) and legal_moves(board)


def test_new_board_terminates_even_when_every_deal_is_dead(monkeypatch):
    monkeypatch.setattr(generate, "MAX_DEALS", 0)
    board = new_board(3, 3, 7, rng=1)
    assert not find_runs(board) and legal_moves(board)


@given(st.integers(1, 9), st.integers(1, 9), st.integers(3, 8), st.integers(0, 2**32))
def test_deal_is_one_draw_per_cell_and_fast_matches_reference(rows, cols, kinds, seed):
    u = np.random.default_rng(seed).random(rows * cols)
    fast = np.full((rows, cols), EMPTY, np.int8)
    fill_no_runs(fast, kinds, u)
    slow = deal_no_runs([[EMPTY] * cols for _ in range(rows)], kinds, u)
    assert fast.tolist() == slow
    assert not has_run(fast) and not find_runs(Board(tuple(map(tuple, slow)), kinds))


def test_the_articles_redraw_loop_ends_with_three_kinds_and_spins_with_two():
    for seed in range(20):
        board, draws = redraw_deal(9, 9, 3, rng=seed)
        assert board is not None and not find_runs(board) and draws >= 81
    stuck = [redraw_deal(9, 9, 2, rng=seed, max_draws=5000)[0] is None for seed in range(20)]
    assert any(stuck)


@pytest.mark.parametrize(
    "args, error, words",
    [
        ((2, 2, 4), ValueError, "never have a legal move"),
        ((1, 3, 4), ValueError, "never have a legal move"),
        ((0, 5, 4), ValueError, "at least one row"),
        ((5, 5, 2), ValueError, "at least 3 kinds"),
        ((5, 5, 99), ValueError, "at most"),
        ((5.0, 5, 4), TypeError, "rows"),
    ],
)
def test_new_board_bad_input(args, error, words):
    with pytest.raises(error, match=words):
        new_board(*args, rng=0)


def test_can_have_move_matches_search_on_small_sizes():
    import itertools

    for rows, cols in [(1, 3), (1, 4), (2, 2), (2, 3), (3, 2), (3, 1), (4, 1)]:
        exists = any(
            not find_runs(b) and legal_moves(b)
            for g in itertools.product(range(3), repeat=rows * cols)
            for b in [Board(tuple(tuple(g[r * cols:(r + 1) * cols]) for r in range(rows)), 3)]
        )
        assert can_have_move(rows, cols) == exists, (rows, cols)


# ----------------------------------------------------------------------------- reshuffle


@pytest.mark.parametrize("kinds", [3, 4, 6, 7])
@pytest.mark.parametrize("side", [3, 4, 6, 9])
def test_reshuffle_keeps_the_candies_and_gives_a_live_stable_board(side, kinds):
    rng = np.random.default_rng(side * 10 + kinds)
    for _ in range(10):
        board = stable_board(side, side, kinds, rng=rng)
        with warnings.catch_warnings():
            warnings.simplefilter("error", ReshuffleWarning)
            try:
                shuffled = reshuffle(board, rng=rng)
            except ReshuffleWarning:
                continue
        assert shuffled.counts() == board.counts()
        assert not find_runs(shuffled) and legal_moves(shuffled)


def test_reshuffle_finds_rare_arrangements_by_search():
    board = Board.parse("001\n112\n220\n", kinds=3)  # has a run; counts 3/3/3 on 3x3
    report = reshuffle_report(board, rng=4)
    assert report.kept_candies and report.board.counts() == board.counts()
    assert not find_runs(report.board) and legal_moves(report.board)


def test_reshuffle_says_so_and_deals_new_when_no_arrangement_exists():
    board = Board.parse("012\n345\n678", kinds=9)  # nine different candies: never a run
    report = reshuffle_report(board, rng=0)
    assert not report.kept_candies and "no arrangement of these candies" in report.message
    with pytest.warns(ReshuffleWarning, match="dealing a new board"):
        fresh = reshuffle(board, rng=0)
    assert not find_runs(fresh) and legal_moves(fresh) and fresh.kinds == 9


# ----------------------------------------------------------------------------- the article's recursion


@pytest.mark.parametrize("seed", range(30))
def test_article_recursion_used_correctly_ends_on_a_stable_board(seed):
    board = new_board(7, 7, 5, rng=seed)
    a, b = legal_moves(board)[0]
    final, groups = article_cascade(board, a, b, rng=seed)
    assert groups and not find_matches(final)


def test_article_recursion_repeats_forever_if_groups_are_not_cleared():
    board = Board.parse("120\n000\n211")
    asks = demo_broken_assumption(board, (1, 1), asks=50)
    assert len(asks) == 50 and all(set(g) == {(1, 0), (1, 1), (1, 2)} for g in asks)


# ----------------------------------------------------------------------------- statistics


def test_dead_fraction_is_deterministic_and_falls_with_size():
    assert dead_fraction(6, 6, 6, 500, rng=1) == dead_fraction(6, 6, 6, 500, rng=1)
    table = dead_table([5, 9], [4, 7], 800, rng=0)
    assert table.shape == (2, 2) and ((0 <= table) & (table <= 1)).all()
    assert table[0, 1] > table[1, 1] and table[0, 1] > table[0, 0]
    board_rng = np.random.default_rng(9)
    exact = np.mean([is_dead(stable_board(5, 5, 7, rng=board_rng)) for _ in range(300)])
    assert dead_fraction(5, 5, 7, 300, rng=9) == pytest.approx(exact)


def test_cascade_lengths_are_positive_and_mostly_short():
    lengths = cascade_lengths(8, 8, 6, 300, rng=0)
    assert lengths.min() >= 1 and np.mean(lengths == 1) > 0.5


# ----------------------------------------------------------------------------- QA review additions


@pytest.mark.parametrize("a", [(0.5, 0), (True, 0), ("0", 0)])
def test_swap_refuses_cells_that_are_not_int_pairs(a):
    # (0.5, 0) used to be truncated to (0, 0) and swapped: a wrong answer instead of an error
    for engine in (swap, swap_fast):
        with pytest.raises(ValueError, match="pair"):
            engine(BOARD, a, (0, 1), rng=0)


def test_find_matches_refuses_a_non_board_with_type_error():
    with pytest.raises(TypeError, match="match3 Board"):
        find_matches([[0, 0, 0]])


def test_reshuffle_of_a_big_board_says_so_instead_of_overflowing_the_stack():
    # the systematic search used to recurse once per cell: RecursionError beyond ~1000 cells
    board = new_board(40, 40, 3, rng=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReshuffleWarning)
        shuffled = reshuffle(board, rng=1)
    assert (shuffled.rows, shuffled.cols, shuffled.kinds) == (40, 40, 3)
    assert not find_matches(shuffled) and not is_dead(shuffled)


def test_the_game_passes_the_public_conformance_check():
    """tilelab.check_game on 200 seeded random games, plain and with specials: undo, exact JSON, same refills."""
    import tilelab
    from tilelab.match3 import PLAIN, WITH_SPECIALS, Game

    factory = lambda seed: Game(5, 6, 4, rules=WITH_SPECIALS if seed % 2 else PLAIN, rng=seed)  # noqa: E731
    assert tilelab.check_game(factory, games=200, max_moves=4) == 200
