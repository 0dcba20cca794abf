"""The playable 2048 board, driven headless through the handlers ipycanvas would call."""

from __future__ import annotations

import pytest

from tilelab.game2048 import Board, Direction, Game
from tilelab.game2048.palette import font_fraction
from tilelab.widgets.game2048 import (
    APPEAR_SCALES,
    DEFAULT_WORDS,
    POP_SCALES,
    SLIDE_FRAMES,
    Game2048Widget,
    Geometry,
    direction_for_key,
    draw_board,
)
from tilelab.widgets.testing import (
    FakeCanvas,
    FakeMultiCanvas,
    click,
    click_button,
    client_ready,
    drag,
    find_button,
    press_key,
    touch_swipe,
)
from tilelab.widgets.testing import fresh_kernel

@pytest.fixture(autouse=True)
def _fresh_kernel():
    fresh_kernel()  # best scores and live boards from other tests do not leak in
    yield
    fresh_kernel()


PX = 400
FRAMES = SLIDE_FRAMES + len(POP_SCALES)


def make(**kwargs) -> Game2048Widget:
    kwargs.setdefault("rng", 7)
    return Game2048Widget(canvas=FakeMultiCanvas(3, PX, PX), raise_errors=True, **kwargs)


def tile_texts(board: Game2048Widget) -> list[str]:
    return sorted(board.canvas[1].texts())


def expected_texts(game: Game, words=None) -> list[str]:
    return sorted(words.get(v, str(v)) if words else str(v) for v in game.board.tile_map().values())


def reference(seed: int, swipes) -> Game:
    g = Game(rng=seed)
    for d in swipes:
        g.play(d)
    return g


# ------------------------------------------------------------------ pure helpers
@pytest.mark.parametrize(
    "key, direction",
    [("ArrowUp", "up"), ("ArrowDown", "down"), ("ArrowLeft", "left"), ("ArrowRight", "right"),
     ("w", "up"), ("a", "left"), ("s", "down"), ("d", "right"),
     ("k", "up"), ("h", "left"), ("j", "down"), ("l", "right")],
)
def test_direction_for_key(key, direction):
    assert direction_for_key(key) is Direction.parse(direction)


def test_unknown_keys_mean_nothing():
    assert direction_for_key("x") is None and direction_for_key("Enter") is None


@pytest.mark.parametrize("size", range(2, 9))
def test_cell_at_inverts_origin(size):
    g = Geometry(size, PX)
    for r in range(size):
        for c in range(size):
            x, y = g.origin(r, c)
            assert g.cell_at(x + g.tile / 2, y + g.tile / 2) == (r, c)
            assert g.cell_at(x + 1, y + 1) == (r, c) and g.cell_at(x + g.tile - 1, y + g.tile - 1) == (r, c)
    assert g.cell_at(PX, 0) is None and g.cell_at(0, -0.5) is None
    # the board is filled exactly: n tiles and n + 1 gaps
    assert size * g.tile + (size + 1) * g.gap == pytest.approx(PX)


def test_swipe_direction():
    assert Geometry.swipe(0, 0, 50, 10) is Direction.RIGHT
    assert Geometry.swipe(0, 0, -50, 10) is Direction.LEFT
    assert Geometry.swipe(0, 0, 5, -40) is Direction.UP
    assert Geometry.swipe(0, 0, 5, 40) is Direction.DOWN
    assert Geometry.swipe(3, 3, 3, 3) is None


def test_draw_board_on_any_canvas():
    canvas = FakeCanvas(200, 200)
    draw_board(canvas, Board.parse("2 . \n 2048 4"))
    assert sorted(canvas.texts()) == ["2", "2048", "4"]
    sizes = {args[0] for name, args in canvas.calls if name == "font"}
    assert len(sizes) == 2  # 2048 is set smaller than the one-digit tiles


# ------------------------------------------------------------------ drawing and input
def test_first_draw_shows_the_start_tiles_and_status():
    board = make()
    assert tile_texts(board) == expected_texts(board.game)
    assert board.canvas[0].count("fill") == 1 + 16  # frame + empty cells
    assert "score <b>0</b>" in board.status.value and "best <b>0</b>" in board.status.value


@pytest.mark.parametrize("keys", [["ArrowLeft", "ArrowUp", "ArrowRight"], ["a", "w", "d"], ["h", "k", "l"]])
def test_keys_play_the_same_game_as_the_engine(keys):
    board = make(animate=False)
    for k in keys:
        press_key(board, k)
    ref = reference(7, ["left", "up", "right"])
    assert board.game.board == ref.board and board.game.score == ref.score
    assert tile_texts(board) == expected_texts(ref)


def test_ctrl_keys_and_other_keys_do_nothing():
    board = make()
    before = board.game.board
    press_key(board, "ArrowLeft", ctrl=True)
    press_key(board, "q")
    assert board.game.board == before and board.game.moves_played == 0


def test_drag_and_touch_swipes():
    board = make(animate=False)
    drag(board, 300, 200, 100, 210)  # leftward
    touch_swipe(board, 200, 300, 210, 100)  # upward
    ref = reference(7, ["left", "up"])
    assert board.game.board == ref.board
    before = board.game.board
    click(board, 100, 100)  # a click is not a swipe
    drag(board, 100, 100, 104, 103)  # too short to count
    assert board.game.board == before


def test_on_screen_arrow_buttons():
    board = make(animate=False)
    for label in ("←", "↑", "→", "↓"):
        click_button(board, label)
    assert board.game.board == reference(7, ["left", "up", "right", "down"]).board


def test_play_is_public_and_reports_change():
    board = make(game=Game(board=Board.parse("2 .\n. ."), rng=0), animate=False)
    assert not board.play("left")  # the game's Turn: counts as False when nothing moved
    assert board.play(Direction.RIGHT)  # a Turn counts as True when the board changed
    with pytest.raises(ValueError, match="unknown direction"):
        board.play("sideways")


# ------------------------------------------------------------------ animation and queued keys
def test_a_move_is_one_animated_batch():
    board = make()
    board.canvas.reset()
    press_key(board, "ArrowLeft")
    assert board.canvas.sleeps() == [20.0] * (FRAMES - 1)  # the browser waits, the kernel does not
    layer = board.canvas[1]
    assert layer.count("clear") == FRAMES
    assert tile_texts(board) == expected_texts(board.game)  # the last frame is the true board


def test_animation_slides_merges_pop_and_spawn_fades_in():
    game = Game(board=Board.parse("2 2\n. ."), rng=0, p_four=0.0)
    board = make(game=game)
    board.canvas.reset()
    board.play("left")
    alphas = [args[0] for name, args in board.canvas[1].calls if name == "global_alpha"]
    faded = [a for a in alphas if a != 1.0]
    assert faded == [a for a in APPEAR_SCALES if a != 1.0]  # the new tile fades in, once per frame
    font, sizes_of_four = None, []
    for name, args in board.canvas[1].calls:
        if name == "font":
            font = args[0]
        elif name == "fill_text" and args[0] == "4":
            sizes_of_four.append(font)
    px = [int(f.split()[1].removesuffix("px")) for f in sizes_of_four]
    settled = int(font_fraction(4) * board.geometry.tile)
    assert max(px) > px[-1] == settled  # the merged 4 pops: grows, then settles at its size
    # during the slide the moving tiles show their old value, afterwards the merged 4
    texts_per_frame, frame = [], []
    for name, args in board.canvas[1].calls:
        if name == "clear":
            frame = []
            texts_per_frame.append(frame)
        elif name == "fill_text":
            frame.append(args[0])
    assert texts_per_frame[0] == ["2", "2"] and sorted(texts_per_frame[-1]) == ["2", "4"]


def test_keys_during_an_animation_are_applied_once_each_in_order():
    board = make()
    keys = ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "ArrowLeft"]
    board.canvas.reset()
    for k in keys:
        press_key(board, k)  # all arrive while the first animation still plays
    ref = reference(7, ["left", "up", "right", "down", "left"])
    assert board.game.board == ref.board and board.game.moves_played == ref.moves_played
    assert board.game.undo_depth == ref.undo_depth
    assert len(board.canvas.sleeps()) == FRAMES - 1  # only the first move animated; no lag builds up
    assert tile_texts(board) == expected_texts(ref)


# ------------------------------------------------------------------ undo, new game, banners
def test_undo_and_new_game_buttons():
    board = make(animate=False)
    start = board.game.board
    press_key(board, "ArrowLeft")
    press_key(board, "ArrowUp")
    click_button(board, "Undo")
    press_key(board, "u")
    assert board.game.board == start and tile_texts(board) == expected_texts(board.game)
    for k in ["ArrowLeft", "ArrowUp", "ArrowLeft", "ArrowUp"]:
        press_key(board, k)
    score = board.game.score
    assert score > 0
    click_button(board, "New game")
    assert board.game.score == 0 and board.best == score and board.game.moves_played == 0
    assert f"best <b>{score}</b>" in board.status.value


def test_win_banner_and_keep_playing():
    game = Game(board=Board.parse("1024 1024 . .\n. . . .\n. . . .\n. . . ."), rng=0)
    board = make(game=game, animate=False)
    keep = find_button(board, "Keep playing")
    assert keep.layout.display == "none"
    press_key(board, "ArrowLeft")
    assert board.banner == "won" and "You win!" in board.canvas[2].texts()
    assert keep.layout.display != "none" and "you win" in board.status.value
    before = board.game.board
    press_key(board, "ArrowDown")  # the banner covers the board until answered
    assert board.game.board == before
    click_button(board, "Keep playing")
    assert board.banner is None and board.canvas[2].texts() == []
    assert board.play("down") or board.play("right")
    assert board.banner is None  # the win banner shows once per game


def test_game_over_banner_and_undo_out_of_it():
    game = Game(board=Board.parse("2 4\n. 8"), rng=0, p_four=0.0)
    board = make(game=game, animate=False)
    press_key(board, "ArrowLeft")
    assert board.game.board == Board.parse("2 4\n8 2") and board.game.over
    assert board.banner == "over" and "Game over!" in board.canvas[2].texts()
    assert "game over" in board.status.value
    press_key(board, "u")
    assert board.banner is None and board.canvas[2].texts() == []
    assert board.game.board == Board.parse("2 4\n. 8")


def test_win_key_enter_keeps_playing():
    game = Game(board=Board.parse("8 8\n. ."), rng=0, target=16)
    board = make(game=game, animate=False)
    press_key(board, "ArrowLeft")
    assert board.banner == "won"
    press_key(board, "Enter")
    assert board.banner is None


# ------------------------------------------------------------------ words, reconnects, sizes
def test_word_tiles_and_toggle():
    board = make(words=True, animate=False)
    assert tile_texts(board) == expected_texts(board.game, DEFAULT_WORDS)
    board.words_toggle.value = False
    assert tile_texts(board) == expected_texts(board.game)
    custom = make(words={2: "我", 4: "的"}, animate=False)
    assert set(custom.canvas[1].texts()) <= {"我", "的"}


def test_client_ready_redraws():
    board = make()
    board.canvas.reset()
    client_ready(board)
    assert tile_texts(board) == expected_texts(board.game)
    assert board.canvas[0].count("fill") == 17


@pytest.mark.parametrize("size", [2, 3, 5, 8])
def test_other_sizes(size):
    board = make(size=size, animate=False)
    assert board.geometry.size == size
    assert board.canvas[0].count("fill") == 1 + size * size
    press_key(board, "ArrowLeft")
    assert tile_texts(board) == expected_texts(board.game)


def test_set_game_switches_board():
    board = make(animate=False)
    board.set_game(Game(size=3, rng=1))
    assert board.geometry.size == 3 and tile_texts(board) == expected_texts(board.game)


def test_real_canvas_builds():
    board = Game2048Widget(rng=1)
    assert board.widget.children[1] is board.canvas
    labels = [b.description for b in board.toolbar.children]
    assert labels[:6] == ["←", "↑", "↓", "→", "Undo", "New game"]


def test_rerun_cell_resumes_the_game_and_the_best_survives_a_new_game():
    board = make(key="cell-a")
    for key in ("ArrowUp", "ArrowLeft", "ArrowDown", "ArrowRight") * 3:
        press_key(board, key)
    score, moves = board.game.score, board.game.moves_played
    assert score > 0
    again = make(key="cell-a")
    assert again.resumed and again.game.score == score and again.game.moves_played == moves
    fresh = make(key="cell-a", new_game=True)
    assert not fresh.resumed and fresh.game.score == 0 and fresh.best == score
    elsewhere = make(key="cell-b")
    assert not elsewhere.resumed and elsewhere.game.score == 0


def test_closing_a_board_ends_its_game():
    board = make(key="cell-c")
    press_key(board, "ArrowUp")
    board.close()
    assert not make(key="cell-c").resumed


def test_stored_output_shows_the_board_not_the_vbox_repr():
    board = make()
    data = board._repr_mimebundle_()
    data = data[0] if isinstance(data, tuple) else data
    assert "application/vnd.jupyter.widget-view+json" in data
    assert "VBox" not in data["text/plain"] and "run this cell to play" in data["text/plain"]
    assert data["image/png"] and "data:image/png;base64," in data["text/html"]
    image = board.picture()
    # the picture shows the tiles in the engine's colours
    from tilelab.game2048.palette import tile_style
    (r, c), value = next(iter(board.game.board.tile_map().items()))
    x, y = board.geometry.origin(r, c)
    got = "#%02x%02x%02x" % image.getpixel((int(x + 0.15 * board.geometry.tile), int(y + 0.15 * board.geometry.tile)))
    assert got.lower() == tile_style(value)[0].lower()


def test_buttons_hand_the_keyboard_back_to_the_board(monkeypatch):
    board = make()
    focused = []
    monkeypatch.setattr(board, "focus_board", lambda: focused.append(True))
    click_button(board, "Undo")
    assert focused == [True]


def test_tile_numbers_meet_wcag_aa_on_every_tile():
    """Every tile's number reaches 4.5:1 against its tile (the original game's white on gold does not)."""
    from tilelab.game2048.palette import TILE_COLORS, tile_style
    from tilelab.widgets.sliding_pictures import contrast_ratio

    for value in [2 ** k for k in range(1, 18)]:
        background, text = tile_style(value)
        assert contrast_ratio(text, background) >= 4.5, (value, background, text)
    assert tile_style(128)[0] == TILE_COLORS[128] == "#edcf72"  # the backgrounds stay the original's
    assert contrast_ratio("#f9f6f2", "#edc22e") < 4.5  # the original white on 2048: the check can fail


def test_drawn_numbers_use_the_readable_text_colour():
    from tilelab.game2048.palette import tile_style

    board = make()
    style, drawn = None, {}
    for name, args in board.layer(1).calls:  # the recording canvas: attribute sets and calls in order
        if name == "fill_style":
            style = args[0]
        elif name == "fill_text":
            drawn[args[0]] = style
    values = set(board.game.board.tile_map().values())
    assert values and {str(v) for v in values} <= set(drawn)
    for value in values:
        assert drawn[str(value)] == tile_style(value)[1]


def test_play_returns_the_games_turn_and_new_game_on_a_long_game_asks_once():
    from tilelab.widgets.base import CONFIRM_MOVES

    board = Game2048Widget(rng=3, canvas=FakeMultiCanvas(3, 400, 400), raise_errors=True, animate=False)
    turn = board.play("left") or board.play("right")
    assert turn and turn.events is board.game.last_move and turn.chance[0][0] == board.game.last_spawn
    keys = ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"]
    while board.game.moves_played < CONFIRM_MOVES and not board.game.over:
        for key in keys:
            press_key(board, key)
    moves = board.game.moves_played
    click_button(board, "New game")
    assert board.game.moves_played == moves and "press New game again" in board.status.value
    click_button(board, "New game")
    assert board.game.moves_played == 0
