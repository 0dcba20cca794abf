"""The 2048 engine: rules as the original plays them, invariants, determinism, undo, save/load."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilelab.game2048 import (
    Board,
    Direction,
    Game,
    Spawn,
    TileMove,
    is_over,
    legal_moves,
    line_cells,
    play,
    slide_row,
    spawn,
    spawn_outcomes,
)
from tilelab.game2048.rules import slide_memo
from tilelab.game2048.chance import sample_outcome

TILES = [0, 2, 4, 8, 16, 32]


# ------------------------------------------------------------------ strategies
def tile() -> st.SearchStrategy[int]:
    return st.sampled_from([0, 0, 0, 2, 4, 8, 16, 32, 64, 128])


rows = st.integers(1, 8).flatmap(lambda n: st.lists(tile(), min_size=n, max_size=n))
boards = st.integers(2, 8).flatmap(
    lambda n: st.lists(st.lists(tile(), min_size=n, max_size=n), min_size=n, max_size=n).map(Board)
)


# ------------------------------------------------------------------ slide_row: the examples
@pytest.mark.parametrize(
    "row, expected, score",
    [
        ([2, 2, 2, 0], (4, 2, 0, 0), 4),
        ([2, 2, 2, 2], (4, 4, 0, 0), 8),
        ([0, 0, 0, 2], (2, 0, 0, 0), 0),
        ([2, 0, 0, 2], (4, 0, 0, 0), 4),
        ([4, 4, 8, 0], (8, 8, 0, 0), 8),  # the new 8 does not merge again with the old 8
        ([2, 2, 4, 4], (4, 8, 0, 0), 12),
        ([8, 4, 4, 0], (8, 8, 0, 0), 8),
        ([2, 4, 8, 16], (2, 4, 8, 16), 0),
        ([0, 2, 2, 2], (4, 2, 0, 0), 4),
        ([4, 0, 4, 4], (8, 4, 0, 0), 8),
        ([0, 0, 0, 0], (0, 0, 0, 0), 0),
        ([2, 2, 2, 2, 2, 2, 2, 2], (4, 4, 4, 4, 0, 0, 0, 0), 16),
        ([2], (2,), 0),
    ],
)
def test_slide_row_examples(row, expected, score):
    r = slide_row(row)
    assert r.row == expected
    assert r.score == score


def test_slide_row_move_orders_name_every_tile():
    r = slide_row([2, 0, 2, 4])
    assert r.moves == (
        TileMove(0, 0, 4, True),
        TileMove(2, 0, 4, True),
        TileMove(3, 1, 4, False),
    )
    assert [m.start_value for m in r.moves] == [2, 2, 4]
    assert r.changed


def test_slide_row_unchanged_row_reports_no_change():
    r = slide_row([4, 2, 0, 0])
    assert not r.changed
    assert all(not m.moved and not m.merged for m in r.moves)


def test_slide_row_accepts_numpy_ints_and_returns_plain_tuples():
    r = slide_row(np.array([2, 2, 0, 0]))
    assert r.row == (4, 0, 0, 0) and all(type(v) is int for v in r.row)


@pytest.mark.parametrize(
    "bad, error, words",
    [
        ([2, 3, 0, 0], ValueError, "power of two"),
        ([1, 0], ValueError, "power of two"),
        ([-2, 0], ValueError, "power of two"),
        ([2.0, 0], TypeError, "not an int"),
        ([True, 0], TypeError, "not an int"),
        ("2200", TypeError, "sequence"),
        (5, TypeError, "sequence"),
        ([], ValueError, "at least one"),
    ],
)
def test_slide_row_rejects_bad_rows(bad, error, words):
    with pytest.raises(error, match=words):
        slide_row(bad)


# ------------------------------------------------------------------ slide_row: properties
@given(rows)
def test_slide_keeps_the_tile_sum(row):
    assert sum(slide_row(row).row) == sum(row)


@given(rows)
def test_score_is_the_sum_of_merged_values(row):
    r = slide_row(row)
    merged_destinations = {m.destination: m.value for m in r.moves if m.merged}
    assert r.score == sum(merged_destinations.values())
    # every merge is exactly two tiles
    for dest in merged_destinations:
        assert sum(1 for m in r.moves if m.merged and m.destination == dest) == 2


@given(rows)
def test_a_tile_merges_at_most_once(row):
    r = slide_row(row)
    sources = [m.source for m in r.moves]
    assert sorted(sources) == [i for i, v in enumerate(row) if v]  # each tile has one order
    for m in r.moves:
        if m.merged:
            assert m.value == 2 * row[m.source]  # merged once: doubled, never quadrupled


@given(rows)
def test_slide_result_is_packed_and_idempotent(row):
    r = slide_row(row)
    tiles = [v for v in r.row if v]
    assert list(r.row[: len(tiles)]) == tiles  # no gaps before the last tile
    assert not slide_row(r.row).changed or any(
        a == b for a, b in zip(tiles, tiles[1:])
    )  # sliding again only changes it when a new pair formed


@given(rows)
def test_move_orders_rebuild_the_row(row):
    r = slide_row(row)
    rebuilt = [0] * len(row)
    for m in r.moves:
        rebuilt[m.destination] = m.value
        assert m.destination <= m.source  # tiles only travel toward index 0
    assert tuple(rebuilt) == r.row


def _brute_force_slide(row):
    """An independent statement of the rule: compact, merge front pairs once, compact."""
    tiles = [v for v in row if v]
    out, i = [], 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            out.append(2 * tiles[i])
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return tuple(out + [0] * (len(row) - len(out)))


def test_slide_row_matches_the_rule_on_every_4_row():
    for row in itertools.product(TILES, repeat=4):
        assert slide_row(row).row == _brute_force_slide(row), row


# ------------------------------------------------------------------ Board
def test_board_is_immutable_hashable_and_a_value():
    a = Board([[2, 0], [0, 4]])
    b = Board(((2, 0), (0, 4)))
    assert a == b and hash(a) == hash(b) and {a: 1}[b] == 1
    with pytest.raises(AttributeError):
        a.grid = ((0, 0), (0, 0))  # type: ignore[misc]
    assert eval(repr(a)) == a


@given(boards)
def test_text_picture_round_trips(board):
    assert Board.parse(str(board)) == board


@given(boards)
def test_numpy_round_trip(board):
    a = board.to_array()
    assert a.shape == (board.size, board.size)
    assert Board.from_array(a) == board
    before = board.grid
    a[0, 0] = 1024  # a copy: the board does not change
    assert board.grid == before


def test_parse_accepts_bars_and_zeros():
    assert Board.parse("|2|.|4|\n|0|8|0|\n|.|.|.|") == Board([[2, 0, 4], [0, 8, 0], [0, 0, 0]])
    assert Board.parse("2 . 4\n0 8 _\n. . .").grid == ((2, 0, 4), (0, 8, 0), (0, 0, 0))


@pytest.mark.parametrize(
    "rows, error, words",
    [
        ([[2, 0], [0]], ValueError, "square"),
        ([[2, 0, 0], [0, 0, 0]], ValueError, "square"),
        ([[2]], ValueError, "2 to 8 rows"),
        ([[0] * 9] * 9, ValueError, "2 to 8 rows"),
        ([[3, 0], [0, 0]], ValueError, "power of two"),
        ([[2, "x"], [0, 0]], TypeError, "not an int"),
        ("2 0\n0 0", TypeError, "Board.parse"),
        (None, TypeError, "sequence of rows"),
        ([2, 0], TypeError, "row 0"),
    ],
)
def test_board_rejects_bad_input(rows, error, words):
    with pytest.raises(error, match=words):
        Board(rows)


def test_parse_rejects_words():
    with pytest.raises(ValueError, match="cannot read 'x'"):
        Board.parse("2 x\n. .")


def test_board_helpers():
    b = Board.parse("2 . \n 4 8")
    assert b.empty_cells() == [(0, 1)]
    assert b.tile_map() == {(0, 0): 2, (1, 0): 4, (1, 1): 8}
    assert (b.max_tile, b.tile_sum) == (8, 14)
    assert b.transpose().grid == ((2, 4), (0, 8))
    assert b.mirror().grid == ((0, 2), (8, 4))
    assert b.with_tile((0, 1), 2).grid == ((2, 2), (4, 8))
    with pytest.raises(ValueError, match="off the"):
        b.with_tile((2, 0), 2)
    assert Board.empty(3).empty_cells() == Board.empty(3).cells()


# ------------------------------------------------------------------ Direction
@pytest.mark.parametrize(
    "text, direction",
    [("left", Direction.LEFT), ("Up", Direction.UP), ("south", Direction.DOWN),
     (" right ", Direction.RIGHT), ("←", Direction.LEFT), ("↓", Direction.DOWN)],
)
def test_direction_parses_words(text, direction):
    assert Direction.parse(text) is direction
    assert Direction(text) is direction


@pytest.mark.parametrize("letter", ["L", "d", "u", "r"])
def test_a_single_letter_is_a_key_so_parsing_it_is_refused(letter):
    """``d`` is right on WASD: Direction.parse("d") is refused, naming the words it takes."""
    with pytest.raises(ValueError, match="up/down/left/right"):
        Direction.parse(letter)


def test_direction_errors_name_the_fix():
    with pytest.raises(ValueError, match="up/down/left/right"):
        Direction.parse("sideways")
    with pytest.raises(TypeError, match="Direction.LEFT"):
        Direction.parse(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown direction"):
        play(Board.empty(2), "diagonal")


def test_direction_delta_and_opposite():
    for d in Direction:
        dr, dc = d.delta
        odr, odc = d.opposite.delta
        assert (dr + odr, dc + odc) == (0, 0) and abs(dr) + abs(dc) == 1


# ------------------------------------------------------------------ move: four directions from one
def test_move_left_example_with_board_coordinates():
    b = Board.parse(
        """
        2 2 2 .
        . . . .
        . . . .
        . . . .
        """
    )
    r = play(b, Direction.LEFT)
    assert r.board.grid[0] == (4, 2, 0, 0)
    assert r.moves == (
        TileMove((0, 0), (0, 0), 4, True),
        TileMove((0, 1), (0, 0), 4, True),
        TileMove((0, 2), (0, 1), 2, False),
    )
    r = play(b, Direction.RIGHT)
    assert r.board.grid[0] == (0, 0, 2, 4)  # pairs form from the side moved toward


def test_move_up_and_down_use_columns():
    b = Board.parse(
        """
        2 . . .
        2 . . .
        2 . . .
        . . . .
        """
    )
    assert [row[0] for row in play(b, "up").board.grid] == [4, 2, 0, 0]
    assert [row[0] for row in play(b, "down").board.grid] == [0, 0, 2, 4]


def test_swift_walkthrough_board_swiped_up():
    # the Swift article's example grid, written row by row
    b = Board.parse(
        """
        . 4 . .
        . . 4 .
        2 . 2 2
        2 . . .
        """
    )
    r = play(b, "up")
    assert r.board == Board.parse(
        """
        4 4 4 2
        . . 2 .
        . . . .
        . . . .
        """
    )
    assert r.score == 4


@given(boards, st.sampled_from(list(Direction)))
def test_move_keeps_tile_sum_and_scores_merges(board, direction):
    r = play(board, direction)
    assert r.board.tile_sum == board.tile_sum
    assert r.score == sum(m.value for m in r.moves if m.merged) // 2
    assert r.changed == (r.board != board)


@given(boards)
def test_left_is_mirrored_right(board):
    assert play(board, "left").board == play(board.mirror(), "right").board.mirror()


@given(boards)
def test_up_down_are_transposed_left_right(board):
    t = board.transpose()
    assert play(board, "up").board == play(t, "left").board.transpose()
    assert play(board, "down").board == play(t, "right").board.transpose()
    assert play(board, "up").score == play(t, "left").score


@given(boards, st.sampled_from(list(Direction)))
def test_move_orders_rebuild_the_board(board, direction):
    r = play(board, direction)
    rebuilt = [[0] * board.size for _ in range(board.size)]
    for m in r.moves:
        (sr, sc), (dr, dc) = m.source, m.destination
        assert board[m.source] == m.start_value
        step_r, step_c = direction.delta
        # tiles travel straight toward the swipe, never backwards
        assert (dr - sr) * step_c == 0 and (dc - sc) * step_r == 0
        assert (dr - sr) * step_r >= 0 and (dc - sc) * step_c >= 0
        rebuilt[dr][dc] = m.value
    assert Board(rebuilt) == r.board


@given(boards)
def test_legal_moves_and_is_over_agree_with_move(board):
    changing = [d for d in Direction if play(board, d).changed]
    assert legal_moves(board) == changing
    assert is_over(board) == (not changing)


def test_line_cells_lists_from_the_side_moved_toward():
    assert line_cells(3, Direction.DOWN)[0] == ((2, 0), (1, 0), (0, 0))
    assert line_cells(3, "left")[2] == ((2, 0), (2, 1), (2, 2))


def test_game_over_examples():
    full_no_pairs = Board.parse("2 4 2 4\n4 2 4 2\n2 4 2 4\n4 2 4 2")
    assert is_over(full_no_pairs) and legal_moves(full_no_pairs) == []
    full_with_pair = Board.parse("2 4 2 4\n4 2 4 2\n2 4 2 4\n4 2 8 8")
    assert not is_over(full_with_pair)
    assert legal_moves(full_with_pair) == [Direction.LEFT, Direction.RIGHT]


def test_move_accepts_plain_lists():
    assert play([[2, 2], [0, 0]], "left").board == Board([[4, 0], [0, 0]])


# ------------------------------------------------------------------ spawns
def test_spawn_outcomes_are_uniform_over_empty_cells():
    b = Board.parse("2 .\n. 4")
    outcomes = spawn_outcomes(b)
    assert [s for s, _ in outcomes] == [
        Spawn((0, 1), 2), Spawn((0, 1), 4), Spawn((1, 0), 2), Spawn((1, 0), 4),
    ]
    assert [p for _, p in outcomes] == pytest.approx([0.45, 0.05, 0.45, 0.05])
    assert math.isclose(sum(p for _, p in spawn_outcomes(b, p_four=0.25)), 1.0)


def test_spawn_outcomes_edge_cases():
    assert spawn_outcomes(Board.parse("2 4\n8 16")) == []
    assert [s.value for s, _ in spawn_outcomes(Board.empty(2), p_four=0.0)] == [2] * 4
    assert [s.value for s, _ in spawn_outcomes(Board.empty(2), p_four=1.0)] == [4] * 4
    for bad in (-0.1, 1.5, float("nan")):
        with pytest.raises(ValueError, match="probability"):
            spawn_outcomes(Board.empty(2), p_four=bad)
    with pytest.raises(TypeError, match="p_four"):
        spawn_outcomes(Board.empty(2), p_four="0.1")  # type: ignore[arg-type]


def test_spawn_samples_with_the_listed_probabilities():
    rng = np.random.default_rng(0)
    b = Board.parse("2 .\n. 4")
    counts: dict = {}
    n = 20000
    for _ in range(n):
        _, s = spawn(b, rng=rng)
        counts[s] = counts.get(s, 0) + 1
    for s, p in spawn_outcomes(b):
        assert abs(counts[s] / n - p) < 0.015, (s, counts[s] / n, p)


def test_spawn_on_a_full_board_is_an_error():
    with pytest.raises(ValueError, match="full"):
        spawn(Board.parse("2 4\n8 16"), rng=0)


def test_sample_outcome_handles_rounding_gap():
    class One:
        def random(self):
            return 0.9999999999999999

    assert sample_outcome([("a", 0.5), ("b", 0.4999999999)], One()) == "b"
    with pytest.raises(ValueError):
        sample_outcome([], np.random.default_rng(0))


# ------------------------------------------------------------------ Game
def test_game_starts_with_two_tiles():
    for seed in range(30):
        g = Game(rng=seed)
        tiles = g.board.tile_map()
        assert len(tiles) == 2 and set(tiles.values()) <= {2, 4}
        assert g.score == 0 and not g.won and not g.over and not g.can_undo


@pytest.mark.parametrize("size", range(2, 9))
def test_game_sizes(size):
    g = Game(size=size, rng=size)
    assert g.board.size == size
    assert g.play(g.legal_moves()[0])


def test_same_seed_same_game():
    def run(seed):
        g = Game(rng=seed)
        rng = np.random.default_rng(99)
        boards = []
        while not g.over and len(boards) < 300:
            g.play(list(Direction)[rng.integers(4)])
            boards.append(g.board)
        return boards, g.score

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_unchanged_move_spawns_nothing_and_keeps_rng():
    g = Game(board=Board.parse("2 .\n. ."), rng=0)
    state = g.rng.bit_generator.state
    assert not g.play("left") and not g.play("up")  # a Turn that counts as False
    assert g.board == Board.parse("2 .\n. .") and g.rng.bit_generator.state == state
    assert not g.can_undo
    assert g.play("right")
    assert len(g.board.tile_map()) == 2 and g.last_spawn is not None


def test_play_records_the_move_and_the_spawn():
    g = Game(board=Board.parse("2 2\n. ."), rng=0)
    assert g.play("left")
    assert g.score == 4 and g.last_move.score == 4 and g.last_move.direction is Direction.LEFT
    assert g.board == g.last_move.board.with_tile(g.last_spawn.cell, g.last_spawn.value)


def test_win_sets_won_and_play_goes_on():
    g = Game(board=Board.parse("1024 1024\n. ."), rng=0)
    assert not g.won
    g.play("left")
    assert g.won and g.board[0, 0] == 2048
    assert g.play("down") or g.play("right") or g.play("up")  # keep playing
    assert g.won


def test_custom_target():
    g = Game(board=Board.parse("4 4\n. ."), target=8, rng=0)
    g.play("right")
    assert g.won


def test_game_over_is_reported():
    g = Game(board=Board.parse("2 4\n4 2"), rng=0)
    assert g.over and g.legal_moves() == []
    assert not g.play("left")


def test_explicit_spawn_step():
    g = Game(board=Board.parse("2 2\n. ."), rng=0)
    assert g.play("left", spawn=False)
    assert g.board == Board.parse("4 .\n. .")
    outcomes = g.spawn_outcomes()
    assert len(outcomes) == 6 and math.isclose(sum(p for _, p in outcomes), 1.0)
    assert g.spawn(Spawn((1, 1), 4)) == Spawn((1, 1), 4)
    assert g.board == Board.parse("4 .\n. 4")
    with pytest.raises(ValueError, match="cannot happen"):
        g.spawn(Spawn((0, 0), 2))  # occupied
    with pytest.raises(ValueError, match="cannot happen"):
        g.spawn(Spawn((0, 1), 8))  # not a spawn value
    g.undo()
    assert g.board == Board.parse("2 2\n. .")


def test_undo_to_any_depth_and_same_spawn_again():
    g = Game(rng=3)
    history = [(g.board, g.score)]
    rng = np.random.default_rng(1)
    while len(history) < 40 and not g.over:
        if g.play(list(Direction)[rng.integers(4)]):
            history.append((g.board, g.score))
    assert g.undo_depth == len(history) - 1
    for board, score in reversed(history[:-1]):
        assert g.undo()
        assert (g.board, g.score) == (board, score)
    assert g.undo() is False


@given(st.integers(0, 10_000), st.lists(st.sampled_from(list(Direction)), min_size=1, max_size=30))
@settings(max_examples=40, deadline=None)
def test_undo_then_replay_is_identical(seed, swipes):
    g = Game(rng=seed)
    for d in swipes:
        before = (g.board, g.score, g.won)
        if g.play(d):
            after = (g.board, g.score, g.won)
            assert g.undo()
            assert (g.board, g.score, g.won) == before  # undo inverts
            assert g.play(d)
            assert (g.board, g.score, g.won) == after  # no fishing for a better spawn


@given(st.integers(0, 10_000), st.lists(st.sampled_from(list(Direction)), max_size=25),
       st.lists(st.sampled_from(list(Direction)), min_size=1, max_size=25))
@settings(max_examples=40, deadline=None)
def test_json_round_trip_continues_identically(seed, before, after):
    g = Game(rng=seed, p_four=0.25)
    for d in before:
        g.play(d)
    text = g.to_json()
    json.loads(text)  # real JSON
    h = Game.from_json(text)
    assert (h.board, h.score, h.won, h.p_four, h.undo_depth) == (g.board, g.score, g.won, 0.25, g.undo_depth)
    for d in after:
        assert g.play(d) == h.play(d)
        assert (g.board, g.score) == (h.board, h.score)
    while g.undo():
        assert h.undo()
        assert (g.board, g.score) == (h.board, h.score)
    assert not h.undo()


def test_restart_keeps_settings_and_clears_history():
    g = Game(size=3, rng=4, target=64)
    g.play(g.legal_moves()[0])
    g.restart()
    assert g.size == 3 and g.target == 64 and g.score == 0 and not g.can_undo
    assert len(g.board.tile_map()) == 2


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        (dict(size=1), ValueError, "from 2 to 8"),
        (dict(size=9), ValueError, "from 2 to 8"),
        (dict(size=4.0), TypeError, "size"),
        (dict(p_four=2), ValueError, "probability"),
        (dict(target=1000), ValueError, "power of two"),
        (dict(target=2), ValueError, "power of two"),
        (dict(rng="abc"), TypeError, "seed"),
        (dict(size=3, board=Board.empty(4)), ValueError, "size=3"),
    ],
)
def test_game_rejects_bad_settings(kwargs, error, words):
    with pytest.raises(error, match=words):
        Game(**kwargs)


def test_from_json_rejects_junk():
    with pytest.raises(ValueError, match="not valid JSON"):
        Game.from_json("{")
    with pytest.raises(ValueError, match="not a saved 2048 game"):
        Game.from_json("[1, 2]")
    data = json.loads(Game(rng=0).to_json())
    del data["score"]
    with pytest.raises(ValueError, match="score"):
        Game.from_json(json.dumps(data))
    data = json.loads(Game(rng=0).to_json())
    data["rng"]["bit_generator"] = "os.system"
    with pytest.raises(ValueError, match="bit generator"):
        Game.from_json(json.dumps(data))
    with pytest.raises(TypeError):
        Game.from_json(42)  # type: ignore[arg-type]


def test_reference_slide_and_cached_slide_agree():
    for row in itertools.product([0, 2, 4], repeat=5):
        assert slide_memo.__wrapped__(row) == slide_row(row) == slide_memo(row)


def test_board_html_shows_every_tile_in_its_colour():
    html = Board.parse("2 .\n2048 4096")._repr_html_()
    assert html.count("<td") == 4 and ">2048<" in html and ">4096<" in html
    assert "#eee4da" in html and "#3c3a32" in html  # the 2 and a tile beyond 2048


def test_seeded_playthrough_transcript():
    """A saved transcript: same seed and swipes must keep giving this game (spawn sampling is a contract)."""
    g = Game(rng=2048)
    assert g.board == Board.parse(". . . .\n. . . .\n. . . .\n2 . 2 .")
    words = {"L": "left", "U": "up", "R": "right", "D": "down"}
    for d in "LURDLLURDDLRUL":
        g.play(words[d])
    assert g.board == Board.parse(
        """
        2 8 4 .
        4 2 . .
        8 4 . .
        2 . . .
        """
    )
    assert (g.score, g.moves_played, g.last_spawn) == (40, 14, Spawn((2, 1), 4))


@pytest.mark.parametrize("letter", ["w", "e", "n", "s"])
def test_single_compass_letters_are_refused_because_wasd_reads_them_differently(letter):
    with pytest.raises(ValueError, match="WASD"):
        Direction.parse(letter)


# ------------------------------------------------------------------ issue 20: play, and rng keyword-only
def test_play_is_the_engine_move():
    import tilelab.game2048 as g
    import tilelab.game2048.rules as rules

    assert g.play is rules.play and "play" in g.__all__ and "move" not in g.__all__
    board = g.Board.parse("2 2 4 .\n. . 4 4\n8 . . 8\n. 2 . 2")
    for d in g.Direction:
        result = g.play(board, d)
        assert isinstance(result, g.MoveResult)
    assert g.play(board, "left").board == g.Board.parse("4 4 . .\n8 . . .\n16 . . .\n4 . . .")


def _randomness_calls():
    import tilelab.game2048 as g
    import tilelab.game2048.fast.bitboard as bb
    from tilelab.game2048.learning.ntuple_net import NTupleNetwork

    board = g.Board.parse("2 . . .\n. . . .\n. . . .\n. . . 4")
    net = NTupleNetwork([(0, 1, 2, 3)])
    return {  # name -> (call with rng=..., call with seed=... (refused), call with the randomness positional)
        "Game": (lambda r: g.Game(rng=r).board, lambda s: g.Game(seed=s).board, lambda r: g.Game(4, 2048, 0.1, r)),
        "spawn": (lambda r: g.spawn(board, rng=r), None, lambda r: g.spawn(board, r)),
        "spawn_bits": (lambda r: bb.spawn_bits(7, rng=r), None, lambda r: bb.spawn_bits(7, r)),
        "random_game_bits": (lambda r: bb.random_game_bits(rng=r, max_moves=30),
                             lambda s: bb.random_game_bits(seed=s, max_moves=30), lambda r: bb.random_game_bits(r)),
        "play_random_batch": (lambda r: bb.play_random_batch(5, rng=r, max_moves=20).scores.tolist(),
                              lambda s: bb.play_random_batch(5, seed=s, max_moves=20).scores.tolist(),
                              lambda r: bb.play_random_batch(5, r)),
        "play_game": (lambda r: g.play_game(g.CornerPlayer(), rng=r, max_moves=15).directions,
                      lambda s: g.play_game(g.CornerPlayer(), seed=s, max_moves=15).directions,
                      lambda r: g.play_game(g.CornerPlayer(), r)),
        "RandomPlayer": (lambda r: [g.RandomPlayer(rng=r)(board) for _ in range(1)],
                         lambda s: [g.RandomPlayer(seed=s)(board) for _ in range(1)], lambda r: g.RandomPlayer(r)),
        "MonteCarloPlayer": (lambda r: g.MonteCarloPlayer(rollouts=2, rng=r).rng.random(),
                             lambda s: g.MonteCarloPlayer(rollouts=2, seed=s).rng.random(),
                             lambda r: g.MonteCarloPlayer(2, 100, 0.1, r)),
        "NTupleNetwork.evaluate": (lambda r: net.evaluate(2, rng=r).mean_score, lambda s: net.evaluate(2, seed=s).mean_score,
                                   lambda r: net.evaluate(2, r)),
    }


@pytest.mark.parametrize("name", sorted(_randomness_calls()))
def test_randomness_is_keyword_only_rng_and_seed_is_refused(name):
    by_rng, by_seed, positional = _randomness_calls()[name]
    assert repr(by_rng(7)) == repr(by_rng(np.random.default_rng(7)))  # a seed or a Generator
    if by_seed is not None:
        with pytest.raises(TypeError, match="seed"):
            by_seed(7)  # seed= was the older name of rng=: retired in 0.3.0
    with pytest.raises(TypeError):
        positional(7)


def test_evaluate_still_requires_its_rng():
    from tilelab.game2048.learning.ntuple_net import NTupleNetwork

    with pytest.raises(TypeError, match="rng="):
        NTupleNetwork([(0, 1)]).evaluate(2)


def test_the_game_passes_the_public_conformance_check():
    """tilelab.check_game on 200 seeded random games: undo to any depth, exact JSON, the same draws after loading."""
    import tilelab

    assert tilelab.check_game(lambda seed: Game(rng=seed), games=200, max_moves=12) == 200
