"""Boards every student can use, tested headless: the move description a screen reader announces, Tab never a
move, the move sounds (off by default; the right one per Turn), WCAG AA contrast of every palette, and stored
pictures that claim no score a restarted kernel would not have."""

from __future__ import annotations

import io
import wave

import pytest

from tilelab.game2048 import Board as Board2048
from tilelab.game2048 import Game as Game2048
from tilelab.game2048.palette import BLANK_COLOR, BOARD_COLOR, INK_TEXT, tile_style
from tilelab.match3.candies import CANDIES, OUTLINE_COLOUR
from tilelab.widgets import access
from tilelab.widgets.game2048 import Game2048Widget
from tilelab.widgets.match3 import Match3Widget
from tilelab.widgets.match3_draw import DARK_CELL, LIGHT_CELL
from tilelab.widgets.sliding import SlidingWidget
from tilelab.widgets.sliding_pictures import TILE_COLOUR, TILE_DONE_COLOUR, TILE_TEXT, contrast_ratio
from tilelab.widgets.testing import FakeMultiCanvas, click, fresh_kernel, press_key


@pytest.fixture(autouse=True)
def _fresh_kernel():
    fresh_kernel()
    yield
    fresh_kernel()


def _2048(board=None, **kw):
    game = Game2048(board=Board2048(board), rng=1) if board is not None else None
    return Game2048Widget(rng=7, game=game, canvas=FakeMultiCanvas(3, 400, 400), raise_errors=True, **kw)


# ------------------------------------------------------------------ what a move did, announced
def test_2048_move_is_announced_with_merge_spawn_score_and_rows() -> None:
    w = _2048([[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]])
    assert w.announcement == ""  # nothing said before a move
    turn = w.play("left")
    said = w.announcement
    spawn = turn.chance[0][0]
    assert "left" in said and "merged into 4" in said
    assert f"a {spawn.value} appeared at row {spawn.cell[0] + 1} column {spawn.cell[1] + 1}" in said
    assert f"score {w.game.score}" in said
    for r, row in enumerate(w.game.board.grid):  # every row, read as it is after the move
        assert f"row {r + 1}: " + ", ".join(str(v) if v else "blank" for v in row) in said
    assert "aria-live" not in w.announcer.value  # the live region is the widget itself (the page script marks it)
    assert "tilelab-announce" in w.announcer._dom_classes


def test_2048_refused_move_is_announced_as_refused() -> None:
    w = _2048([[2, 0, 0, 0], [4, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    before = w.game.board
    turn = w.play("left")
    assert not turn and w.game.board == before
    assert "cannot slide left" in w.announcement and "merged" not in w.announcement


def test_2048_keys_announce_the_same_as_play() -> None:
    w = _2048([[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]])
    press_key(w, "ArrowRight")
    assert w.announcement.startswith("slid right")


def test_sliding_move_and_refused_click_are_announced() -> None:
    w = SlidingWidget(3, rng=5, canvas=FakeMultiCanvas(3, 360, 360), raise_errors=True)
    tile = w.board.legal_moves()[0]
    w.play(tile)
    said = w.announcement
    assert f"slid tile {tile}" in said or f"tiles {tile}" in said
    assert "row 1: " in said and "blank" in said
    # a tile off the blank's row and column: refused, said so, and the board unchanged
    br, bc = w.board.blank
    far = next((r, c) for r in range(3) for c in range(3) if r != br and c != bc)
    before = w.board
    from tilelab.widgets.sliding_pictures import board_origin
    x0, y0, cell = board_origin(3, 3, w.width, w.height)
    click(w, x0 + (far[1] + 0.5) * cell, y0 + (far[0] + 0.5) * cell)
    assert w.board == before
    assert f"Tile {before.at(*far)} is not in the blank's row or column" in w.announcement


def _match3() -> Match3Widget:
    return Match3Widget(6, 6, 5, rng=3, cell_px=40, frame_ms=0, canvas=FakeMultiCanvas(3, 240, 240),
                        raise_errors=True)


def _no_match(w: Match3Widget) -> tuple:
    """Two neighbouring candies whose swap matches nothing (it is swapped back)."""
    legal = {frozenset(m) for m in w.legal_moves()}
    return next(((r, c), (r, c + 1)) for r in range(w.rows) for c in range(w.cols - 1)
                if frozenset(((r, c), (r, c + 1))) not in legal)


def test_match3_match_and_swap_back_are_announced() -> None:
    w = _match3()
    w.play(*_no_match(w))
    assert "no match, swapped back" in w.announcement
    move = w.legal_moves()[0]
    w.play(*move)
    said = w.announcement
    assert "cleared" in said and f"score {w.game.score}" in said
    names = {c.name for c in CANDIES}
    assert any(name in said for name in names)  # the rows name candies by shape, not by number


# ------------------------------------------------------------------ Tab moves the focus on, never a move
@pytest.mark.parametrize("make", [lambda: _2048(), lambda: SlidingWidget(3, rng=5, canvas=FakeMultiCanvas(3, 360, 360),
                                                                           raise_errors=True), _match3])
def test_tab_is_never_a_move(make) -> None:
    w = make()
    grid = w.board.grid
    for key in ("Tab", "Tab"):
        press_key(w, key)
    assert w.board.grid == grid and w.announcement == ""


def test_page_script_lets_tab_through_and_marks_the_live_region() -> None:
    from tilelab.widgets.page import BOARD_SCRIPT, BOARD_STYLE

    # the capturing listener that stops Tab before ipycanvas keeps it; the live region set up on the widget
    assert "'Tab'" in BOARD_SCRIPT and "stopPropagation" in BOARD_SCRIPT
    assert "aria-live" in BOARD_SCRIPT and ".tilelab-announce" in BOARD_SCRIPT
    assert ".tilelab-board canvas:focus" in BOARD_STYLE  # a visible focus ring


# ------------------------------------------------------------------ sounds
def test_sound_is_off_by_default_and_plays_nothing() -> None:
    w = _2048([[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]])
    assert w.sound_toggle.value is False and w.sound_toggle in w.toolbar.children
    w.play("left")
    assert w.sound is None and w.last_sound is None


def test_sound_toggle_chooses_the_sound_per_turn_kind() -> None:
    w = _2048([[2, 2, 0, 0], [4, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    w.sound_toggle.value = True
    assert w.sound is not None and w.sound in w.widget.children
    w.play("left")  # 2 2 merge
    assert w.last_sound == "merge" and bytes(w.sound.value).startswith(access.SOUNDS["merge"])
    first = w.sound.value
    w.set_game(Game2048(board=Board2048([[2, 0, 0, 0], [4, 0, 0, 0], [0] * 4, [0] * 4]), rng=1))
    w.play("left")  # nothing can slide left
    assert w.last_sound == "refused"
    assert w.sound.value != first
    w.sound_toggle.value = False
    last = w.sound.value
    w.play("right")
    assert w.sound.value == last  # off again: nothing more plays


def test_sound_kind_follows_the_turn() -> None:
    merge = Game2048(board=Board2048([[2, 2], [0, 0]]), rng=0).play("left")
    move = Game2048(board=Board2048([[0, 2], [0, 0]]), rng=0).play("left")
    refused = Game2048(board=Board2048([[2, 0], [0, 0]]), rng=0).play("left")
    assert [access.sound_kind(t) for t in (merge, move, refused)] == ["merge", "move", "refused"]
    w = SlidingWidget(3, rng=5, canvas=FakeMultiCanvas(3, 360, 360), raise_errors=True)
    w.set_sound(True)
    w.play(w.board.legal_moves()[0])
    assert w.last_sound == "move"
    m = _match3()
    m.set_sound(True)
    m.play(*_no_match(m))
    assert m.last_sound == "refused"
    m.play(*m.legal_moves()[0])
    assert m.last_sound == "merge"


def test_sounds_are_short_distinct_wav_files() -> None:
    assert set(access.SOUNDS) == set(access.SOUND_KINDS)
    for kind, data in access.SOUNDS.items():
        with wave.open(io.BytesIO(data)) as wav:
            seconds = wav.getnframes() / wav.getframerate()
        assert 0.02 <= seconds <= 0.2, (kind, seconds)
    assert len(set(access.SOUNDS.values())) == 3
    with pytest.raises(ValueError, match="no sound"):
        _2048().play_sound("boing")


# ------------------------------------------------------------------ WCAG 2.1 AA contrast of every palette
def _over(rgba: str, base: str) -> str:
    """An rgba() colour composited over a solid ``base`` (what a translucent banner looks like)."""
    from tilelab.widgets.pictures import rgb

    inside = rgba[rgba.index("(") + 1:rgba.index(")")].split(",")
    r, g, b, a = (float(x) for x in inside)
    br, bg, bb = rgb(base)
    mix = [round(a * c + (1 - a) * d) for c, d in zip((r, g, b), (br, bg, bb))]
    return "#" + "".join(f"{v:02x}" for v in mix)


def test_wcag_formula_matches_the_known_values() -> None:
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # the classic just-fails grey
    assert contrast_ratio("#767676", "#ffffff") >= 4.5


def test_2048_every_tile_number_and_banner_reads_at_aa() -> None:
    from tilelab.widgets import game2048 as g

    for value in [2 ** k for k in range(1, 18)]:  # a blank cell (0) has no number
        background, text = tile_style(value)
        assert contrast_ratio(text, background) >= 4.5, (value, background, text)
    from tilelab.widgets.base import BANNER_TEXT

    for backdrop in (BOARD_COLOR, BLANK_COLOR, "#edc22e", "#f65e3b", tile_style(4096)[0]):  # a banner over any part of the board
        assert contrast_ratio(g.INK_TEXT, _over(g.WIN_COLOUR, backdrop)) >= 4.5, backdrop
        assert contrast_ratio(BANNER_TEXT, _over(g.LOSE_COLOUR, backdrop)) >= 4.5, backdrop
    assert contrast_ratio(g.GAIN_COLOUR, "#ffffff") >= 4.5  # the status line's "+8"


def test_sliding_tiles_and_banner_read_at_aa() -> None:
    for tile in (TILE_COLOUR, TILE_DONE_COLOUR):
        assert contrast_ratio(TILE_TEXT, tile) >= 4.5
    for backdrop in (TILE_COLOUR, TILE_DONE_COLOUR, "#bbada0", "#000000"):
        assert contrast_ratio("#12507c", _over("rgba(255, 255, 255, 0.78)", backdrop)) >= 4.5, backdrop


def test_match3_banner_reads_at_aa_over_every_candy() -> None:
    from tilelab.widgets.base import BANNER_TEXT

    for candy in CANDIES:  # draw_banner's default: a translucent cream over the board
        assert contrast_ratio(BANNER_TEXT, _over("rgba(238, 228, 218, 0.73)", candy.colour)) >= 4.5, candy.name


def test_match3_candy_outlines_stand_out_at_aa_for_graphics() -> None:
    # candies carry no text: WCAG 1.4.11 asks 3:1 of the outline that shows each shape against the cell
    for cell in (LIGHT_CELL, DARK_CELL):
        assert contrast_ratio(OUTLINE_COLOUR, cell) >= 3.0, cell
    assert len({c.name for c in CANDIES}) == len(CANDIES)  # shapes, not colours alone, tell kinds apart


# ------------------------------------------------------------------ stored pictures claim no score
def test_stored_picture_text_claims_no_score_a_restart_would_lose() -> None:
    w = _2048([[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]])
    w.play("left")
    assert w.game.score > 0 and w.best > 0
    text = w.fallback_text()
    assert "score" not in text and "best" not in text
    m = _match3()
    m.play(*m.legal_moves()[0])
    assert "score" not in m.fallback_text()


# ------------------------------------------------------------------ steppers' frames have text alternatives
def test_search_stepper_frames_carry_their_caption_as_text_alternative() -> None:
    from tilelab.sliding import Board, manhattan
    from tilelab.sliding.trace import astar_trace
    from tilelab.widgets import SearchStepper

    stepper = SearchStepper({"A*": astar_trace(Board.parse("1 2 3\n4 5 6\n0 7 8"), manhattan)})
    titles = set()
    for step in (0, stepper.last):
        stepper.show(step)
        assert stepper.image.tooltip == access.plain_text(stepper.caption.value) != ""
        assert "<" not in stepper.image.tooltip
        titles.add(stepper.image.tooltip)
    assert len(titles) == 2  # each frame its own


def test_expectimax_tree_frames_carry_their_caption() -> None:
    from tilelab.game2048.tree import expectimax_tree
    from tilelab.widgets.expectimax_tree import TreeStepper

    tree = expectimax_tree(Board2048.parse("8 4\n2 ."), 1, evaluate=lambda b: 1.0)
    s = TreeStepper(tree)
    for step in (0, s.slider.max):
        s.show(step)
        assert s.image.tooltip == tree.describe(step) != ""


# ------------------------------------------------------------------ match-3 by keyboard alone
def test_match3_plays_by_keys_alone() -> None:
    w = _match3()
    a, b = w.legal_moves()[0]
    word = {(0, 1): "ArrowRight", (0, -1): "ArrowLeft", (1, 0): "ArrowDown", (-1, 0): "ArrowUp"}[
        (b[0] - a[0], b[1] - a[1])]
    press_key(w, "ArrowUp")  # the first key shows the cursor (the middle)
    assert w.cursor == (w.rows // 2, w.cols // 2) and "row" in w.announcement
    while w.cursor[0] != a[0]:
        press_key(w, "ArrowUp" if w.cursor[0] > a[0] else "ArrowDown")
    while w.cursor[1] != a[1]:
        press_key(w, "ArrowLeft" if w.cursor[1] > a[1] else "ArrowRight")
    assert w.announcement.startswith(f"row {a[0] + 1} column {a[1] + 1}: ")
    press_key(w, "Enter")
    assert w.selected == a and w.announcement.startswith("picked")
    moves = w.moves_played
    press_key(w, word)  # swaps the picked candy with its neighbour that way
    assert w.moves_played == moves + 1 and w.selected is None and "cleared" in w.announcement


def test_undo_is_announced_with_the_board_it_brings_back() -> None:
    w = _2048([[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]])
    w.play("left")
    w.undo()
    assert w.announcement.startswith("took back") and "row 1: 2, 2, blank, blank" in w.announcement
    s = SlidingWidget(3, rng=5, canvas=FakeMultiCanvas(3, 360, 360), raise_errors=True)
    start = s.board
    s.play(s.board.legal_moves()[0])
    s.undo()
    assert s.board == start and s.announcement.startswith("took back")
    first = ", ".join(str(v) if v else "blank" for v in start.grid[0])
    assert f"row 1: {first}" in s.announcement
