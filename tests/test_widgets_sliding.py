"""The playable sliding board, driven headless through the same handlers ipycanvas calls."""

from __future__ import annotations

import io
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tilelab.sliding
from tilelab.sliding import MoveCount, Puzzle, bfs_distances, is_solvable
from tilelab.widgets import sliding as ws
from tilelab.widgets.sliding import (
    SESSION_BEST,
    SlidingWidget,
    board_origin,
    cell_at,
    crop_to_aspect,
    cut_tiles,
    drag_direction,
    generated_picture,
    load_picture,
)
from tilelab.widgets.testing import FakeMultiCanvas, click, click_button, drag, find_button, press_key, tick

SIZE = 316  # 8 px margin + 3 cells of 100 px


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def make(rows=3, cols=None, seed=1, **kw):
    cols = rows if cols is None else cols
    clock = FakeClock()
    height = SIZE if rows == cols else round(SIZE * rows / cols)
    board = SlidingWidget(rows, cols, seed=seed, size=SIZE, clock=clock,
                          canvas=FakeMultiCanvas(3, SIZE, height), raise_errors=True, **kw)
    return board, clock


def centre(board, row, col):
    x0, y0, cell = board_origin(board.rows, board.cols, board.width, board.height)
    return x0 + (col + 0.5) * cell, y0 + (row + 0.5) * cell


@pytest.fixture(autouse=True)
def _fresh_records():
    SESSION_BEST.clear()
    yield
    SESSION_BEST.clear()


# ------------------------------------------------------------------ pure helpers


def test_cell_at_maps_every_cell_centre_and_rejects_the_margin():
    for rows, cols, w, h in [(3, 3, 316, 316), (4, 4, 400, 400), (2, 5, 500, 216), (6, 6, 316, 316)]:
        x0, y0, cell = board_origin(rows, cols, w, h)
        for r in range(rows):
            for c in range(cols):
                assert cell_at(x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell, rows, cols, w, h) == (r, c)
        assert cell_at(x0 - 1, y0 + 1, rows, cols, w, h) is None
        assert cell_at(x0 + 1, y0 + rows * cell + 1, rows, cols, w, h) is None


@given(st.floats(0, 316), st.floats(0, 316))
@settings(deadline=None)
def test_cell_at_is_inside_the_board_or_none(x, y):
    cell = cell_at(x, y, 4, 4, 316, 316)
    inside = 8 <= x < 308 and 8 <= y < 308
    assert (cell is not None) == inside
    if cell:
        assert 0 <= cell[0] < 4 and 0 <= cell[1] < 4


def test_non_square_canvas_centres_the_grid():
    x0, y0, cell = board_origin(3, 3, 400, 316)
    assert (x0, y0, cell) == (50.0, 8.0, 100.0)
    assert cell_at(49, 100, 3, 3, 400, 316) is None and cell_at(51, 100, 3, 3, 400, 316) == (0, 0)


def test_drag_direction():
    assert drag_direction(10, 10, 40, 12) == "right"
    assert drag_direction(10, 10, -40, 12) == "left"
    assert drag_direction(10, 10, 12, 60) == "down"
    assert drag_direction(10, 10, 12, -60) == "up"


def test_generated_picture_is_seeded_and_varied():
    a, b = generated_picture(96, seed=1), generated_picture(96, seed=1)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, generated_picture(96, seed=2))
    pieces = cut_tiles(a, 4, 4, 10)
    means = {tuple(np.round(p.reshape(-1, 3).mean(axis=0))) for p in pieces.values()}
    assert len(means) == 15  # every tile looks different
    with pytest.raises(ValueError, match="at least 8"):
        generated_picture(4)


def test_crop_and_cut_keep_the_board_aspect():
    wide = np.zeros((100, 400, 3), np.uint8)
    wide[:, 150:250] = 255  # the centre square is white
    assert crop_to_aspect(wide, 3, 3).min() == 255
    assert crop_to_aspect(np.zeros((400, 100, 3)), 4, 2).shape == (200, 100, 3)
    pieces = cut_tiles(wide, 3, 3, 12)
    assert set(pieces) == set(range(1, 9)) and all(p.shape == (12, 12, 3) for p in pieces.values())


def _jpeg_with_orientation(orientation: int) -> bytes:
    from PIL import Image

    img = np.zeros((20, 40, 3), np.uint8)
    img[:, :20] = (255, 0, 0)  # left half red, right half blue
    img[:, 20:] = (0, 0, 255)
    pil = Image.fromarray(img)
    exif = pil.getexif()
    exif[0x0112] = orientation
    buffer = io.BytesIO()
    pil.save(buffer, format="JPEG", exif=exif, quality=95)
    return buffer.getvalue()


def test_load_picture_honours_exif_orientation():
    upright = load_picture(_jpeg_with_orientation(1))
    assert upright.shape == (20, 40, 3)
    turned = load_picture(_jpeg_with_orientation(6))  # stored sideways: rotate 90 degrees clockwise
    assert turned.shape == (40, 20, 3)
    assert turned[2, 10, 0] > 200 and turned[-3, 10, 2] > 200  # red on top, blue below


def test_load_picture_sources_and_errors(tmp_path):
    from PIL import Image

    path = tmp_path / "p.png"
    Image.fromarray(generated_picture(32)).save(path)
    np.testing.assert_array_equal(load_picture(path), generated_picture(32))
    np.testing.assert_array_equal(load_picture(str(path)), generated_picture(32))
    assert load_picture(np.zeros((5, 5))).shape == (5, 5, 3)
    assert load_picture(np.ones((5, 5, 4))).dtype == np.uint8
    with pytest.raises(ValueError, match="no picture file"):
        load_picture(tmp_path / "missing.png")
    with pytest.raises(ValueError, match="cannot read the picture"):
        load_picture(b"not an image")
    with pytest.raises(ValueError, match="HxWx3"):
        load_picture(np.zeros((5, 5, 2)))


# ------------------------------------------------------------------ playing


def test_new_board_is_shuffled_solvable_and_drawn():
    board, _ = make(3, seed=1)
    assert is_solvable(board.puzzle) and not board.puzzle.is_goal()
    assert board.puzzle == SlidingWidget(3, seed=1, canvas=FakeMultiCanvas(3, SIZE, SIZE)).puzzle
    labels = board.canvas[1].texts()
    assert sorted(labels, key=int) == [str(t) for t in range(1, 9)]
    assert "0</b> moves" in board.status.value


def test_arrow_keys_move_the_blank_neighbour_that_way():
    board, _ = make(3, seed=1)  # 7 . 1 / 4 2 5 / 8 6 3
    press_key(board, "ArrowUp")
    assert board.puzzle.blank == (1, 1) and board.puzzle.at(0, 1) == 2
    press_key(board, "ArrowLeft")
    assert board.puzzle.blank == (1, 2)
    press_key(board, "ArrowLeft")  # nothing to the right of the blank: ignored
    assert board.puzzle.blank == (1, 2)
    press_key(board, "q")
    assert board.moves == MoveCount(2, 2)


def test_click_slides_the_whole_segment_and_counts_both_metrics():
    board, _ = make(3, seed=1)  # blank top middle
    click(board, *centre(board, 2, 1))  # bottom middle: 2 and 6 slide up together
    assert board.puzzle == Puzzle.parse("7 2 1\n4 6 5\n8 . 3")
    assert board.moves == MoveCount(2, 1)
    click(board, *centre(board, 0, 0))  # not in the blank's line: nothing happens, a message
    assert board.moves == MoveCount(2, 1) and "not in the blank's row or column" in board.status.value
    click(board, 2, 2)  # margin
    assert board.moves == MoveCount(2, 1)


def test_slide_is_animated_in_one_batch_with_pauses():
    board, _ = make(3, seed=1)
    board.canvas.reset()
    press_key(board, "ArrowUp")
    assert board.canvas.sleeps() == [ws.MS_PER_FRAME] * (ws.FRAMES_PER_SLIDE - 1)
    # in-between frames redraw only the moving segment; the last frame redraws the board
    assert board.canvas[1].count("clear_rect") == ws.FRAMES_PER_SLIDE - 1
    assert board.canvas[1].count("clear") == 1
    assert board.canvas[1].count("fill_rect") == ws.FRAMES_PER_SLIDE - 1 + 8


def test_input_during_animation_is_applied_in_order_without_lag():
    board, clock = make(3, seed=1)
    board.canvas.reset()
    for key in ["ArrowUp", "ArrowLeft", "ArrowDown", "ArrowRight"]:
        press_key(board, key)  # the browser is still animating the first one
    assert board.moves.single == 4
    # only the first was animated; the rest are drawn straight away, none lost
    assert len(board.canvas.sleeps()) == ws.FRAMES_PER_SLIDE - 1
    assert board.puzzle == Puzzle.parse("7 . 1\n4 2 5\n8 6 3").move("up").move("left").move("down").move("right")


def test_drag_a_tile_towards_the_blank():
    board, _ = make(3, seed=1)
    x, y = centre(board, 1, 1)  # tile 2, below the blank
    drag(board, x, y, x, y - 60)  # towards the blank: slides
    assert board.puzzle.at(0, 1) == 2
    x, y = centre(board, 0, 1)
    drag(board, x, y, x + 60, y)  # tile 2 dragged sideways: not its way, ignored
    assert board.moves.single == 1
    x, y = centre(board, 0, 0)  # a swipe starting on a fixed tile moves the blank's neighbour
    drag(board, x, y + 10, x, y - 50)
    assert board.moves.single == 2 and board.puzzle.blank == (2, 1)


def test_timer_solved_banner_and_session_best():
    board, clock = make(2, 3, seed=5)
    assert board.elapsed() == 0
    path = _optimal_path(board.puzzle)
    board.slide(path[0])
    assert board.timer.playing
    clock.now += 42
    tick(board.timer)
    assert "0:42" in board.status.value
    for tile in path[1:]:
        board.slide(tile)
    assert board.puzzle.is_goal() and board.solved_by_player and not board.timer.playing
    assert "Solved!" in board.canvas[2].texts()
    record = SESSION_BEST[(2, 3)]
    assert record.single == len(path) and record.seconds == 42
    clock.now += 100
    assert board.elapsed() == 42  # frozen
    press_key(board, "ArrowUp")  # no moves after solving
    assert board.puzzle.is_goal()
    click_button(board, "Shuffle")
    assert not board.puzzle.is_goal() and board.moves == MoveCount(0, 0)
    assert board.canvas[2].texts() == []
    assert "best 2x3" in board.status.value


def _optimal_path(puzzle):
    dist = bfs_distances(Puzzle.goal(puzzle.rows, puzzle.cols))
    path, board = [], puzzle
    while not board.is_goal():
        tile, board = min(board.neighbours(), key=lambda tb: dist[tb[1]])
        path.append(tile)
    return path


def test_a_worse_game_does_not_replace_the_record():
    board, clock = make(2, 3, seed=5)
    start = board.puzzle
    for tile in _optimal_path(start):
        clock.now += 1
        board.slide(tile)
    best = SESSION_BEST[(2, 3)]
    # the same deal again, played with a detour: two moves more
    board.puzzle, board.moves, board.started, board.finished = start, MoveCount(0, 0), None, None
    detour = start.neighbour_tiles()[0]
    board.slide(detour)
    board.slide(detour)
    for tile in _optimal_path(board.puzzle):
        board.slide(tile)
    assert board.moves.single == best.single + 2
    assert SESSION_BEST[(2, 3)] == best and "Solved!" in board.canvas[2].texts()


def test_size_picker_and_shuffle_method():
    board, _ = make(3, seed=2)
    board.size_picker.value = (5, 5)
    assert board.puzzle.shape == (5, 5) and is_solvable(board.puzzle)
    board.method_picker.value = "walk"
    click_button(board, "Shuffle")
    assert board.method == "walk" and is_solvable(board.puzzle)
    assert [o[1] for o in board.size_picker.options][:4] == [(3, 3), (4, 4), (5, 5), (6, 6)]
    with pytest.raises(ValueError, match="method must be one of"):
        SlidingWidget(3, method="riffle", canvas=FakeMultiCanvas(3, 10, 10))


def test_non_square_board():
    board, _ = make(2, 4, seed=3)
    assert board.puzzle.shape == (2, 4)
    assert (2, 4) in [o[1] for o in board.size_picker.options]


def test_picture_mode_draws_tile_images_and_optional_numbers():
    board, _ = make(3, seed=1, picture="generated")
    assert board.picture_mode and board.mode_picker.value == "picture"
    layer = board.canvas[1]
    assert _since_clear(layer, "draw_image") == 8
    assert sorted(layer.texts(), key=int) == [str(t) for t in range(1, 9)]
    board.numbers_box.value = False
    assert board.canvas[1].texts() == []
    path = _optimal_path(board.puzzle)
    for tile in path:
        board.slide(tile, animate=False)
    assert _since_clear(board.canvas[1], "draw_image") == 9  # solved: the whole picture, blank piece too
    board.mode_picker.value = "numbers"
    assert not board.picture_mode and _since_clear(board.canvas[1], "draw_image") == 0


def _since_clear(layer, name):
    names = layer.names()
    last = len(names) - 1 - names[::-1].index("clear")
    return names[last:].count(name)


def test_students_own_photo_via_upload():
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(generated_picture(50, seed=9)).save(buffer, format="PNG")
    board, _ = make(3, seed=1)
    board._on_upload(({"name": "me.png", "content": memoryview(buffer.getvalue())},))
    assert board.picture_mode and _since_clear(board.canvas[1], "draw_image") == 8


# ------------------------------------------------------------------ hint and solve


def _fake_solvers(monkeypatch, calls):
    def solve(puzzle, method="idastar", **kw):
        calls.append(method)
        return SimpleNamespace(moves=tuple(_optimal_path(puzzle)), optimal=True)

    def hint(puzzle):
        return _optimal_path(puzzle)[0]

    monkeypatch.setattr(tilelab.sliding, "solve", solve, raising=False)
    monkeypatch.setattr(tilelab.sliding, "hint", hint, raising=False)


def test_hint_outlines_the_next_tile(monkeypatch):
    _fake_solvers(monkeypatch, [])
    board, _ = make(2, 3, seed=5)
    tile = board.show_hint()
    assert tile == _optimal_path(board.puzzle)[0]
    assert board.canvas[2].count("stroke_rect") == 1 and f"slide {tile}" in board.status.value
    board.slide(tile)
    assert board.hint_tile is None


def test_solve_animates_to_the_goal_and_sets_no_record(monkeypatch):
    calls = []
    _fake_solvers(monkeypatch, calls)
    board, _ = make(2, 3, seed=5)
    expected = len(_optimal_path(board.puzzle))
    board.canvas.reset()
    click_button(board, "Solve")
    assert board.puzzle.is_goal() and calls == ["idastar"]
    assert board.moves.single == expected
    assert len(board.canvas.sleeps()) == expected * ws.SOLVE_FRAMES_PER_STEP - 1
    assert board.canvas[1].count("clear") == 1  # one full redraw, at the end
    assert (2, 3) not in SESSION_BEST and "Solved" in board.canvas[2].texts()
    assert board.auto_solve() == []  # already solved


def test_big_boards_solve_with_the_human_strategy(monkeypatch):
    calls = []

    def solve(puzzle, method="idastar", **kw):
        calls.append(method)
        return SimpleNamespace(moves=(), optimal=False)

    monkeypatch.setattr(tilelab.sliding, "solve", solve, raising=False)
    board, _ = make(4, seed=5)
    with pytest.raises(RuntimeError, match="do not reach the goal"):
        board.auto_solve()  # a broken solver is caught, not animated
    assert calls == ["human"]


def test_errors_in_buttons_are_shown_not_raised(monkeypatch):
    monkeypatch.delattr(tilelab.sliding, "hint", raising=False)
    monkeypatch.delattr(tilelab.sliding, "solve", raising=False)
    board, _ = make(3, seed=1)
    board.raise_errors = False
    find_button(board, "Hint").click()  # shown in board.output, the notebook keeps running
    assert board.hint_tile is None


def test_hint_that_finds_nothing_says_so(monkeypatch):
    monkeypatch.setattr(tilelab.sliding, "hint", lambda puzzle, **kw: None, raising=False)
    board, _ = make(3, seed=1)
    assert board.show_hint() is None and "No hint" in board.status.value and board.hint_tile is None


def test_long_solutions_are_animated_lightly(monkeypatch):
    def solve(puzzle, method="idastar", **kw):  # a long but legal solution: circle, then the real one
        loop = []
        board = puzzle
        for _ in range(100):
            tile = board.tile_for("up") or board.tile_for("down")
            loop.append(tile)
            board = board.slide(tile)
        return SimpleNamespace(moves=tuple(loop) + tuple(_optimal_path(board)))

    monkeypatch.setattr(tilelab.sliding, "solve", solve, raising=False)
    board, _ = make(2, 3, seed=5)
    board.canvas.reset()
    moves = board.auto_solve()
    assert len(moves) > ws.SOLVE_LONG and board.puzzle.is_goal()
    sleeps = board.canvas.sleeps()
    assert len(sleeps) == len(moves) * (ws.SOLVE_FRAMES_PER_STEP // 2) - 1
    assert sum(sleeps) <= ws.SOLVE_MAX_SECONDS * 1000
    # each in-between frame is a handful of commands, not a whole board
    assert len(board.canvas[1].calls) < 30 * len(sleeps)
