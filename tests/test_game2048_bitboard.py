"""The bitboard engine agrees with the readable engine on every row and every move."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilelab.game2048 import Board, Direction, legal_moves, play, slide_row, spawn_outcomes
from tilelab.game2048.fast import bitboard as bb
from tilelab.game2048.fast import bitrows

EXPONENTS = st.integers(0, 14)  # up to 16384: no move can make a 65536 tile
GRIDS = st.lists(st.lists(EXPONENTS, min_size=4, max_size=4), min_size=4, max_size=4)


def tiles(grid):
    return [[1 << e if e else 0 for e in row] for row in grid]


def row_values(row: int) -> tuple[int, ...]:
    return tuple(1 << e if e else 0 for e in ((row >> (4 * c)) & 0xF for c in range(4)))


def row_bits(values) -> int:
    return bb.bits_from_exponents([[v.bit_length() - 1 if v else 0 for v in values]])


def test_every_row_slides_left_and_right_like_the_readable_engine():
    t = bb.row_tables()
    overflow_rows = 0
    for row in range(bitrows.ROW_VALUES):
        values = row_values(row)
        left = slide_row(values)
        right = slide_row(values[::-1])
        if 65536 in left.row:
            assert t.score[row] == bb.OVERFLOW and 65536 in right.row
            overflow_rows += 1
            continue
        assert row_bits(left.row) == t.left[row], values
        assert row_bits(right.row[::-1]) == t.right[row], values
        assert left.score == right.score == t.score[row], values
    assert overflow_rows > 0  # rows like [32768, 32768, ., .] exist and are all marked


@settings(max_examples=300, deadline=None)
@given(GRIDS)
def test_every_move_matches_the_readable_engine(grid):
    board = Board(tiles(grid))
    bits = bb.to_bitboard(board)
    assert bb.from_bitboard(bits) == board
    for direction in Direction:
        want = play(board, direction)
        new, gained = bb.move_bits(bits, direction)
        assert bb.from_bitboard(new) == want.board
        assert gained == want.score
    assert [bitrows.DIRECTION_NAMES[c] for c in bb.legal_codes(bits)] == [d.name for d in legal_moves(board)]


@settings(max_examples=100, deadline=None)
@given(GRIDS)
def test_transpose_is_the_boards_transpose(grid):
    bits = bb.bits_from_exponents(grid)
    assert int(bitrows.transpose(bitrows.transpose(bits))) == bits
    assert bb.exponents(int(bitrows.transpose(bits))) == tuple(zip(*bb.exponents(bits)))


@settings(max_examples=50, deadline=None)
@given(GRIDS)
def test_spawn_outcomes_match_the_readable_engine(grid):
    board = Board(tiles(grid))
    fast = bb.spawn_outcomes_bits(bb.to_bitboard(board), 0.25)
    slow = [(s.cell, s.value, p) for s, p in spawn_outcomes(board, 0.25)]
    assert [(cell, value) for cell, value, _ in fast] == [(cell, value) for cell, value, _ in slow]
    assert [p for *_, p in fast] == pytest.approx([p for *_, p in slow])


def test_a_65536_tile_is_a_clear_error_not_a_wrap():
    bits = bb.to_bitboard([[32768, 32768, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    with pytest.raises(ValueError, match="65536"):
        bb.move_bits(bits, "LEFT")
    assert bb.move_bits(bits, "DOWN")[1] == 0  # other moves still play
    assert 2 not in bb.legal_codes(bits) and 3 not in bb.legal_codes(bits)
    with pytest.raises(ValueError, match="32768"):
        bb.to_bitboard([[65536, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4])


@pytest.mark.parametrize(
    "bad, error",
    [([[2, 0], [0, 2]], ValueError), ([[3, 0, 0, 0]] * 4, ValueError), ("2 2", TypeError), (7, TypeError)],
)
def test_bad_boards_are_refused(bad, error):
    with pytest.raises(error):
        bb.to_bitboard(bad)


def test_bad_directions_and_bitboards_are_refused():
    with pytest.raises(ValueError, match="direction"):
        bb.move_bits(0, "sideways")
    with pytest.raises(TypeError):
        bb.move_bits(1.5, "LEFT")
    with pytest.raises(ValueError):
        bb.move_bits(1 << 64, "LEFT")


def test_picture_and_parse_round_trip():
    text = "   2    4    .    .\n   .    .    .    .\n   .    .    .    .\n   .    .    . 2048"
    bits = bb.parse_bits(text)
    assert bb.picture(bits) == text
    assert bb.max_tile_bits(bits) == 2048


def test_random_games_end_with_no_legal_move_and_are_seeded():
    final, score, moves = bb.random_game_bits(rng=5)
    assert bb.legal_codes(final) == [] and moves > 50 and score > 0
    assert bb.random_game_bits(rng=5) == (final, score, moves)
    assert bb.random_game_bits(rng=6) != (final, score, moves)


def test_batch_play_is_seeded_and_plays_every_game_to_the_end():
    a = bb.play_random_batch(300, rng=3)
    assert a == bb.play_random_batch(300, rng=3)
    assert a != bb.play_random_batch(300, rng=4)
    assert all(bb.legal_codes(int(b)) == [] for b in a.boards)
    assert (a.max_tiles == [bb.max_tile_bits(int(b)) for b in a.boards]).all()
    # the score is the sum of merged tiles, so it is at least the board's value minus the spawned value
    tile_sums = np.array([sum(sum(r) for r in bb.from_bitboard(int(b)).grid) for b in a.boards])
    assert (a.scores > 0).all() and (a.scores >= tile_sums - 4 * (a.moves_played + 2)).all()
    assert a.total_moves == int(a.moves_played.sum()) > 300 * 50


def test_numba_batch_engine_plays_seeded_games_to_the_end():
    a = bb.play_random_batch(300, rng=3, engine="numba")
    assert a == bb.play_random_batch(300, rng=3, engine="numba")
    assert all(bb.legal_codes(int(b)) == [] for b in a.boards)
    numpy_games = bb.play_random_batch(300, rng=3)
    # different random streams, same game: the averages agree
    assert abs(np.log(a.scores.mean() / numpy_games.scores.mean())) < 0.2
    with pytest.raises(ValueError, match="engine"):
        bb.play_random_batch(3, engine="gpu")


def test_batch_play_respects_max_moves_and_p_four():
    capped = bb.play_random_batch(50, rng=1, max_moves=10)
    assert (capped.moves_played == 10).all()
    only_twos = bb.play_random_batch(20, rng=1, p_four=0.0, max_moves=1)
    assert all(v in (0, 2, 4) for b in only_twos.boards for row in bb.from_bitboard(int(b)).grid for v in row)
    with pytest.raises(ValueError):
        bb.play_random_batch(0)
    with pytest.raises(ValueError):
        bb.play_random_batch(5, p_four=1.5)


_DIGEST = r"""
import json, numpy as np
from tilelab.game2048.fast import bitboard as bb
from tilelab.game2048.expectimax import SearchTables, search_bits
rng = np.random.default_rng(11)
out = []
for _ in range(200):
    bits = int(rng.integers(0, 1 << 62)) & 0x7777777777777777
    out.append([bb.move_bits(bits, d) for d in range(4)])
out.append(list(bb.random_game_bits(rng=3)))
batch = bb.play_random_batch(5, rng=2, engine="numba")
out.append([int(v) for v in batch.boards] + batch.scores.tolist() + batch.moves_played.tolist())
t = SearchTables(table_bits=12)
r = search_bits(bb.parse_bits("2 4 8 16\n. 2 . 4\n. . . 2\n. . . ."), 2, t)
out.append([r.best, list(r.values), r.nodes, r.table_hits])
print(json.dumps(out))
"""


def _digest(no_jit: bool) -> list:
    env = dict(os.environ, TILELAB_NO_JIT="1" if no_jit else "0")
    out = subprocess.run([sys.executable, "-c", _DIGEST], capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout)


def test_pure_python_fallback_gives_identical_results():
    assert _digest(no_jit=True) == _digest(no_jit=False)
