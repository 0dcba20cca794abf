"""The sliding-puzzle board: moves, both metrics, parity rules (checked by exhaustive BFS)."""

from __future__ import annotations

import itertools
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilelab.sliding import (
    DIRECTIONS,
    MoveCount,
    Board,
    bfs_distances,
    blank_distance,
    corner_formula,
    count_moves,
    inversion_pairs,
    inversions,
    is_solvable,
    legal_moves,
    permutation_parity,
    play,
    solvable_by_invariant,
    solvable_by_width_rule,
)

SMALL_SHAPES = [(2, 2), (2, 3), (3, 2)]


@st.composite
def boards(draw, max_side: int = 5):
    rows = draw(st.integers(2, max_side))
    cols = draw(st.integers(2, max_side))
    tiles = draw(st.permutations(range(rows * cols)))
    return Board(tiles, rows, cols)


# ----------------------------------------------------------------- the value


def test_goal_and_fields():
    g = Board.goal(3, 4)
    assert g.tiles == tuple(range(1, 12)) + (0,)
    assert (g.rows, g.cols, g.shape, g.cell_count) == (3, 4, (3, 4), 12)
    assert g.blank == (2, 3) and g.blank_index == 11
    assert g.is_goal() and not g.slide(11).is_goal()
    assert g.at(1, 2) == 7 and g.position(7) == (1, 2)
    assert g.grid[2] == (9, 10, 11, 0) and type(g.grid) is tuple


def test_text_picture_round_trip_and_repr():
    p = Board((12, 1, 0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 2, 13, 14, 15), 4, 4)
    text = str(p)
    assert text.splitlines()[0] == "12  1  .  3"
    assert Board.parse(text) == p
    assert eval(repr(p)) == p
    assert Board.parse("_ 1\n2 3") == Board.parse("0 1\n2 3") == Board((0, 1, 2, 3), 2, 2)


@given(boards())
@settings(deadline=None)
def test_parse_inverts_str(p):
    assert Board.parse(str(p)) == p


def test_immutable_hashable_picklable():
    p = Board.goal(3, 3)
    with pytest.raises(AttributeError):
        p.rows = 4  # type: ignore[misc]
    assert {p: 1}[Board.goal(3, 3)] == 1
    assert pickle.loads(pickle.dumps(p)) == p
    assert Board((1, 2, 3, 0), 2, 2) != Board((1, 2, 3, 0), 1 + 1, 2).slide(3)
    assert Board.goal(2, 3) != Board.goal(3, 2)  # same tiles, different shape


@pytest.mark.parametrize(
    "args, words",
    [
        (((1, 2, 3), 2, 2), "has 4 cells but 3 tiles"),
        (((1, 2, 2, 0), 2, 2), "repeated [2]"),
        (((1, 2, 3, 4), 2, 2), "missing [0]"),
        (((1, 2, 3, 4), 2, 2), "out of range [4]"),
        (((1, 0), 1, 2), "at least 2x2"),
        (((2, 1, 0), 3, 1), "at least 2x2"),
    ],
)
def test_bad_boards_are_refused_by_name(args, words):
    with pytest.raises(ValueError, match=__import__("re").escape(words)):
        Board(*args)


def test_bad_types_and_pictures():
    with pytest.raises(TypeError):
        Board((1, 2, 3, 0), 2.0, 2)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Board(("a", 2, 3, 0), 2, 2)
    with pytest.raises(TypeError, match="integers"):
        Board((1.5, 2, 3, 0), 2, 2)  # never silently rounded
    with pytest.raises(TypeError):
        Board(None, 2, 2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="same number of cells"):
        Board.parse("1 2 3\n4 .")
    with pytest.raises(ValueError, match="cannot read 'x'"):
        Board.parse("1 x\n3 .")
    with pytest.raises(ValueError, match="empty picture"):
        Board.parse("  \n ")


# ----------------------------------------------------------------- moves


def test_slide_a_segment_like_the_puzzle_project():
    p = Board.parse("1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 .")
    after = p.slide(13)
    assert str(after).splitlines()[-1] == " . 13 14 15"
    event = play(p, 4)
    assert event.direction == "down" and event.tiles == (12, 8, 4) and event.single_moves == 3
    assert event.cells_from == ((2, 3), (1, 3), (0, 3)) and event.cells_to == ((3, 3), (2, 3), (1, 3))
    assert event.after == p.slide(4) and event.before == p and event.multi_moves == 1
    assert p.slide(4) == p.play_all([12, 8, 4])


def test_slide_refuses_tiles_off_the_blank_line():
    p = Board.goal(3, 3)
    with pytest.raises(ValueError, match="not in the blank's row or column"):
        p.slide(1)
    with pytest.raises(ValueError, match="blank cannot slide"):
        p.slide(0)
    with pytest.raises(ValueError, match="no tile 9"):
        p.slide(9)


def test_move_directions_follow_the_tile():
    p = Board.parse("1 2 3\n4 . 5\n6 7 8")
    assert play(p, "up").after == p.slide(7)
    assert play(p, "down").after == p.slide(2)
    assert play(p, "left").after == p.slide(5)
    assert play(p, "right").after == p.slide(4)
    g = Board.goal(3, 3)
    assert g.legal_directions() == ("down", "right")
    with pytest.raises(ValueError, match="no tile can move up"):
        play(g, "up")
    with pytest.raises(ValueError, match="direction must be one of"):
        play(g, "north")


def test_legal_moves_and_neighbours():
    p = Board.parse("1 2 3\n4 . 5\n6 7 8")
    assert p.legal_moves() == (2, 4, 5, 7)
    assert Board.goal(4, 4).legal_moves() == (4, 8, 12, 13, 14, 15)
    assert Board.goal(4, 4).neighbour_tiles() == (12, 15)
    assert [t for t, _ in Board.goal(4, 4).successors("multi")] == [4, 8, 12, 13, 14, 15]
    with pytest.raises(ValueError, match="metric"):
        list(p.successors("diagonal"))


@given(boards(), st.data())
@settings(deadline=None)
def test_slide_keeps_a_permutation_and_can_be_undone(p, data):
    tile = data.draw(st.sampled_from(p.legal_moves()))
    event = play(p, tile)
    after = event.after
    assert sorted(after.tiles) == list(range(p.cell_count))
    assert after.shape == p.shape
    assert after.at(*p.blank) == event.tiles[0]  # the nearest tile fills the old blank
    assert after.blank == p.position(tile)
    # touching the tile that filled the old blank cell slides the segment back
    assert after.slide(event.tiles[0]) == p
    # the single-tile steps give the same board
    assert p.play_all(event.tiles) == after
    assert Board(after.tiles, after.rows, after.cols) == after  # validated copy agrees


@given(boards(), st.data())
@settings(deadline=None)
def test_every_single_move_flips_both_parities(p, data):
    goal = Board.goal(p.rows, p.cols)
    for tile, after in p.neighbours():
        assert permutation_parity(after) != permutation_parity(p)
        assert abs(blank_distance(after) - blank_distance(p)) == 1
        assert solvable_by_invariant(after) == solvable_by_invariant(p)
        assert is_solvable(after) == is_solvable(p)
        assert after == p.slide(tile)
    tile = data.draw(st.sampled_from(p.legal_moves()))
    assert is_solvable(p.slide(tile), goal) == is_solvable(p, goal)


def test_count_moves_in_both_metrics():
    g = Board.goal(4, 4)
    assert count_moves(g, [12, 8, 4]) == MoveCount(3, 1)  # three steps up the same column
    assert count_moves(g, [4]) == MoveCount(3, 1)
    assert count_moves(g, [12, 11, 15]) == MoveCount(3, 3)
    assert count_moves(g, [15, 14, 13, 9, 5]) == MoveCount(5, 2)
    assert count_moves(g, []) == MoveCount(0, 0)


def test_horizontal_moves_keep_inversions_vertical_change_them_by_up_to_width_minus_one():
    p = Board.parse("5 1 7\n3 . 2\n8 6 4")
    assert inversions(play(p, "left").after) == inversions(p) == inversions(play(p, "right").after)
    for direction in ("up", "down"):
        change = inversions(play(p, direction).after) - inversions(p)
        assert abs(change) in (0, 2) and (change - (p.cols - 1)) % 2 == 0


@given(boards())
@settings(deadline=None)
def test_vertical_move_changes_inversions_by_width_minus_one_mod_two(p):
    for direction in DIRECTIONS:
        tile = p.tile_for(direction)
        if tile is None:
            continue
        change = inversions(play(p, direction).after) - inversions(p)
        if direction in ("left", "right"):
            assert change == 0
        else:
            assert abs(change) <= p.cols - 1 and (change - (p.cols - 1)) % 2 == 0


# ----------------------------------------------------------------- parity rules


def test_inversions_match_the_2431_example():
    # the permutation 2 4 3 1 has the inversions 21 43 41 31; here as tiles with the blank last
    p = Board((2, 4, 3, 1, 5, 0), 2, 3)
    assert inversions(p) == 4
    assert set(inversion_pairs(p)) == {(2, 1), (4, 3), (4, 1), (3, 1)}


def test_swap_flips_solvability_and_loyd_is_unsolvable():
    g = Board.goal(4, 4)
    loyd = g.swap_tiles(14, 15)
    assert not is_solvable(loyd)
    assert is_solvable(loyd.swap_tiles(1, 2))
    with pytest.raises(ValueError, match="not the blank"):
        g.swap_tiles(0, 3)


def _all_boards(rows, cols):
    for tiles in itertools.permutations(range(rows * cols)):
        yield Board(tiles, rows, cols)


@pytest.mark.parametrize("rows, cols", SMALL_SHAPES)
def test_rules_agree_with_bfs_on_every_board(rows, cols):
    reachable = bfs_distances(Board.goal(rows, cols))
    n = rows * cols
    assert len(reachable) == __import__("math").factorial(n) // 2
    for p in _all_boards(rows, cols):
        truth = p in reachable
        assert is_solvable(p) == truth
        assert solvable_by_width_rule(p) == truth
        assert solvable_by_invariant(p) == truth
        assert (corner_formula(p) % 2 == 0) == truth


@pytest.mark.parametrize("rows, cols", SMALL_SHAPES)
def test_goal_independent_rule_agrees_with_bfs_for_other_goals(rows, cols):
    boards = list(_all_boards(rows, cols))
    for goal in boards[:: len(boards) // 7]:  # a handful of goals, blank in different cells
        reachable = bfs_distances(goal)
        for p in boards[::5]:
            assert is_solvable(p, goal=goal) == (p in reachable)


@given(boards(max_side=6))
@settings(deadline=None)
def test_three_formulations_are_one_rule(p):
    width_rule = solvable_by_width_rule(p)
    assert solvable_by_invariant(p) == width_rule
    assert (corner_formula(p) % 2 == 0) == width_rule  # the iOS Puzzle8 formula


@given(boards(max_side=4), st.data())
@settings(deadline=None, max_examples=60)
def test_solvable_to_any_goal_that_is_reachable(p, data):
    goal = p
    for _ in range(data.draw(st.integers(0, 30))):
        goal = goal.slide(data.draw(st.sampled_from(goal.legal_moves())))
    assert is_solvable(p, goal=goal)
    assert not is_solvable(p, goal=goal.swap_tiles(*[t for t in goal.tiles if t][:2]))


def test_goal_must_match():
    with pytest.raises(ValueError, match="goal is 3x3 but the puzzle is 2x2"):
        is_solvable(Board.goal(2, 2), goal=Board.goal(3, 3))
    with pytest.raises(TypeError):
        is_solvable((1, 2, 3, 0))  # type: ignore[arg-type]


def test_numpy_values_are_welcome():
    import numpy as np

    p = Board(np.array([1, 2, 3, 0], dtype=np.int8), np.int64(2), np.int32(2))
    assert p == Board.goal(2, 2) and type(p.rows) is int and type(p.tiles[0]) is int


def test_svg_picture_draws_every_tile_in_its_cell():
    import xml.etree.ElementTree as ET

    p = Board.parse("3 1\n. 2")
    root = ET.fromstring(p._repr_svg_())
    ns = "{http://www.w3.org/2000/svg}"
    texts = {t.text: (float(t.get("x")), float(t.get("y"))) for t in root.iter(f"{ns}text")}
    assert texts == {"3": (20.0, 20.0), "1": (60.0, 20.0), "2": (60.0, 60.0)}
    assert root.get("width") == "80" and len(list(root.iter(f"{ns}rect"))) == 4


# ----------------------------------------------------------------- QA review additions


@pytest.mark.parametrize("tile", [7.0, True, "7", None])
def test_slide_refuses_a_tile_that_is_not_an_int(tile):
    # 7.0 used to slide tile 7 and True to be read as tile 1: a wrong answer instead of an error
    with pytest.raises(TypeError, match="tile is an int"):
        Board.goal(3, 3).slide(tile)


@pytest.mark.parametrize(
    "func", [inversions, inversion_pairs, permutation_parity, blank_distance, solvable_by_invariant,
             solvable_by_width_rule, corner_formula]
)
def test_parity_functions_refuse_a_non_puzzle_with_type_error(func):
    with pytest.raises(TypeError, match="expected a Board"):
        func([2, 1, 3, 0])


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 9), st.integers(2, 9), st.randoms(use_true_random=False))
def test_inversions_count_every_pair_on_small_and_large_boards(rows, cols, random):
    tiles = list(range(rows * cols))
    random.shuffle(tiles)
    p = Board(tiles, rows, cols)
    assert inversions(p) == len(inversion_pairs(p))


def test_inversions_of_a_huge_board_do_not_stall():
    n = 250 * 250
    reversed_tiles = Board(list(range(n - 1, 0, -1)) + [0], 250, 250)
    assert inversions(reversed_tiles) == (n - 1) * (n - 2) // 2  # every pair is inverted


# ------------------------------------------------------------------ the multi-tile metric, one definition

from tilelab.sliding import distance, distance_table, random_walk  # noqa: E402


def _runs_of_single_moves(board, tiles):
    """The definition read literally: expand to single-tile moves, count the runs of one direction."""
    directions = []
    for tile in tiles:
        event = play(board, tile)
        directions += [event.direction] * event.single_moves
        board = event.after
    runs = sum(1 for i, d in enumerate(directions) if i == 0 or d != directions[i - 1])
    return len(directions), runs


def test_count_moves_merges_only_same_direction_slides_of_one_line():
    g = Board.goal(4, 4)
    assert count_moves(g, [13, 9, 10, 11]) == MoveCount(6, 3)  # 10 then 11: one slide left in row 2
    assert count_moves(g, [13, 9, 10, 11]) == count_moves(g, [13, 9, 11])
    assert count_moves(g, [12, 11]) == MoveCount(2, 2)  # down, then right: two lines, two moves
    assert count_moves(g, [15, 15]) == MoveCount(2, 2)  # right then back left: not merged


@given(st.sampled_from([(2, 3), (3, 3), (4, 4)]), st.integers(0, 40), st.integers(0, 2**31))
@settings(deadline=None, max_examples=60)
def test_count_moves_is_the_number_of_direction_runs(shape, steps, seed):
    rows, cols = shape
    rng = np.random.default_rng(seed)
    board = Board.goal(rows, cols)
    tiles = []
    for _ in range(steps):  # random multi-tile slides, any legal tile
        legal = board.legal_moves()
        tile = legal[int(rng.integers(len(legal)))]
        tiles.append(tile)
        board = board.slide(tile)
    single, runs = _runs_of_single_moves(Board.goal(rows, cols), tiles)
    assert count_moves(Board.goal(rows, cols), tiles) == MoveCount(single, runs)
    if rows * cols <= 9:  # never fewer moves than the BFS optimum in either metric
        assert runs >= distance(board, "multi") and single >= distance(board, "single")


@given(st.sampled_from([(2, 3), (3, 3)]), st.integers(0, 2**31))
@settings(deadline=None, max_examples=40)
def test_an_optimal_multi_tile_path_counts_its_bfs_distance(shape, seed):
    rows, cols = shape
    board = Board.goal(rows, cols).play_all(random_walk(Board.goal(rows, cols), 60, rng=seed))
    path = []
    while not board.is_goal():  # walk down the multi-tile table greedily: an optimal path
        d = distance(board, "multi")
        tile, board = next((t, b) for t, b in board.successors("multi") if distance(b, "multi") == d - 1)
        path.append(tile)
    start = Board.goal(rows, cols).play_all(random_walk(Board.goal(rows, cols), 60, rng=seed))
    assert count_moves(start, path).multi == len(path) == distance(start, "multi")


# ----------------------------------------------------------------- play: the one name for a move
def test_play_takes_a_tile_or_a_direction_and_returns_the_slide():
    before = Board.parse("1 2 3\n4 . 5\n6 7 8")
    by_tile, by_direction = play(before, 7), play(before, "up")
    assert by_tile == by_direction and by_tile.tile == 7 and by_tile.direction == "up"
    assert by_tile.before == before and by_tile.after == before.slide(7) == play(before, "up").after
    assert play(before, np.int64(4)).after == before.slide(4)
    far = play(Board.goal(4, 4), 13)  # 13, 14 and 15 slide right together
    assert far.tiles == (15, 14, 13) and far.direction == "right" and far.single_moves == 3
    assert far.cells_from == ((3, 2), (3, 1), (3, 0)) and far.cells_to == ((3, 3), (3, 2), (3, 1))


def test_play_refuses_what_is_not_a_legal_move():
    goal = Board.goal(3, 3)
    with pytest.raises(ValueError, match="no tile can move up.*legal directions"):
        play(goal, "up")
    with pytest.raises(ValueError, match="direction must be one of"):
        play(goal, "north")
    with pytest.raises(ValueError, match="not in the blank's row or column"):
        play(goal, 1)
    with pytest.raises(TypeError, match="tile number .* or a direction"):
        play(goal, 2.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="tile number .* or a direction"):
        play(goal, True)
    with pytest.raises(TypeError, match="Board"):
        play([[1, 2], [3, 0]], 3)  # type: ignore[arg-type]


@given(st.integers(0, 2**32 - 1), st.integers(2, 4), st.integers(2, 4))
@settings(max_examples=60, deadline=None)
def test_slide_and_play_agree(seed, rows, cols):
    rng = np.random.default_rng(seed)
    board = Board(rng.permutation(rows * cols).tolist(), rows, cols)
    for tile in board.legal_moves():
        assert board.slide(tile) == play(board, tile).after
    for direction in board.legal_directions():
        assert play(board, direction).after == board.slide(board.tile_for(direction))
    assert legal_moves(board) == board.legal_moves()


def test_play_is_one_object_from_the_package_and_its_module():
    import tilelab.sliding as sliding
    import tilelab.sliding.moves as moves

    for name in moves.__all__:
        assert getattr(sliding, name) is getattr(moves, name), name
    assert not hasattr(Board, "move") and not hasattr(Board, "slide_segment")  # retired in 0.3.0: play(board, move)


def test_the_game_passes_the_public_conformance_check():
    """tilelab.check_game on 200 seeded random games (3x3 and 4x4): undo, exact JSON, no hidden randomness."""
    import tilelab
    from tilelab.sliding import Game

    assert tilelab.check_game(lambda seed: Game(3 + seed % 2, rng=seed), games=200, max_moves=12) == 200
