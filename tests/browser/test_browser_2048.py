"""2048 played in JupyterLab: tiles drawn where the engine says, arrow keys and WASD move, the
readout matches the engine, 200 rapid presses are each applied exactly once, and the Undo /
New game / arrow buttons and mouse swipes do what they say."""

from __future__ import annotations

import re

import pytest

from browserlab import BoardView, board_on_tab, close_previous, colour_close, parse_colour, pixel

pytestmark = pytest.mark.browser


SEED = 2048
SETUP = close_previous("board") + f"""
from tilelab.game2048 import Game
from tilelab.game2048.palette import BLANK_COLOR, tile_style
from tilelab.widgets.game2048 import Game2048Widget, direction_for_key
board = Game2048Widget(rng={SEED})
keys_seen = []
_on_key = board.on_key
def _count_key(key):
    keys_seen.append(key)
    return _on_key(key)
board.on_key = _count_key

def board_state():
    g, geo = board.game, board.geometry
    values = sorted({{v for row in g.board.grid for v in row}})
    return {{"rows": [list(r) for r in g.board.grid], "score": g.score, "moves": g.moves_played,
            "over": g.over, "banner": board.banner, "keys_seen": len(keys_seen),
            "gap": geo.gap, "tile": geo.tile,
            "colours": {{str(v): (tile_style(v)[0] if v else BLANK_COLOR) for v in values}}}}

def predict(key):
    clone = Game.from_json(board.game.to_json())
    d = direction_for_key(key)
    moved = clone.play(d) if d is not None else False
    return {{"moved": bool(moved), "rows": [list(r) for r in clone.board.grid], "score": clone.score}}
"""


@pytest.fixture
def game(board_lab: dict, notebook_dir) -> BoardView:
    return board_on_tab(board_lab, notebook_dir, "game2048.ipynb", [SETUP, "board"])


def state(view: BoardView) -> dict:
    return view.lab.kernel_json("board_state()")


def wait_keys(view: BoardView, n: int, timeout: float = 30) -> dict:
    return view.lab.wait_for(lambda: (lambda s: s if s["keys_seen"] >= n else None)(state(view)), timeout,
                             f"{n} key presses in the kernel")


def assert_pixels_match(view: BoardView, st: dict) -> None:
    """Each cell's colour (sampled in the tile's top-left, clear of its number) is the engine's tile."""
    view.settle()
    assert st["banner"] is None, f"a {st['banner']!r} banner covers the board"
    pixels = view.pixels()
    step = st["tile"] + st["gap"]
    wrong = []
    for r, row in enumerate(st["rows"]):
        for c, value in enumerate(row):
            x = st["gap"] + c * step + 0.12 * st["tile"]
            y = st["gap"] + r * step + 0.12 * st["tile"]
            want = st["colours"][str(value)]
            got = pixel(pixels, x, y)
            if not colour_close(got[:3], parse_colour(want)):
                wrong.append(f"({r},{c}) value {value}: want {want}, got {got}")
    assert not wrong, "canvas disagrees with the engine:\n" + "\n".join(wrong)


def readout(view: BoardView) -> tuple[int, int]:
    text = view.status_text()
    score = re.search(r"score\s*(\d+)", text)
    moves = re.search(r"moves\s*(\d+)", text)
    assert score and moves, f"status line has no score/moves: {text!r}"
    return int(score.group(1)), int(moves.group(1))


def test_tiles_drawn_where_the_engine_says(game: BoardView) -> None:
    st = state(game)
    assert sum(v > 0 for row in st["rows"] for v in row) == 2, "a new game starts with two tiles"
    assert_pixels_match(game, st)
    assert readout(game) == (0, 0)
    assert game.lab.widget_errors() == [] and game.lab.console_errors() == []


def test_arrow_keys_and_wasd_move_and_the_readout_follows(game: BoardView) -> None:
    lab = game.lab
    game.focus()
    keys = ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "a", "w", "d", "s", "ArrowDown", "s"]
    moved_any = {"arrow": False, "wasd": False}
    for n, key in enumerate(keys, start=1):
        expected = lab.kernel_json(f"predict({key!r})")
        game.press(key)
        st = wait_keys(game, n)
        assert st["rows"] == expected["rows"], f"{key}: board differs from the engine's prediction"
        assert st["score"] == expected["score"]
        if expected["moved"]:
            moved_any["arrow" if key.startswith("Arrow") else "wasd"] = True
    assert moved_any == {"arrow": True, "wasd": True}
    st = state(game)
    assert_pixels_match(game, st)
    assert readout(game) == (st["score"], st["moves"])
    assert st["moves"] > 0


PLAN = f"""
import random
from tilelab.widgets.testing import FakeMultiCanvas, press_key
ALIASES = {{"down": ["ArrowDown", "s"], "left": ["ArrowLeft", "a"], "right": ["ArrowRight", "d"], "up": ["ArrowUp", "w"]}}
def plan_keys(n, seed):
    # keys a corner-strategy player would press (plus some that cannot move), played on a headless twin
    rng = random.Random(seed)
    twin = Game2048Widget(rng={SEED}, canvas=FakeMultiCanvas(3, 400, 400), raise_errors=True)
    keys, could_move = [], 0
    while len(keys) < n:
        legal = {{d.value for d in twin.game.legal_moves()}}
        stuck = [d for d in ALIASES if d not in legal]
        if stuck and rng.random() < 0.15:
            d = rng.choice(stuck)
        else:
            d = next((d for d in ALIASES if d in legal), rng.choice(list(ALIASES)))
        key = rng.choice(ALIASES[d])
        before = twin.game.moves_played
        press_key(twin, key)
        could_move += twin.game.moves_played - before
        keys.append(key)
    g = twin.game
    return {{"keys": keys, "could_move": could_move, "rows": [list(r) for r in g.board.grid],
            "score": g.score, "moves": g.moves_played, "over": g.over}}
"""


def test_200_rapid_presses_each_applied_exactly_once(game: BoardView) -> None:
    lab = game.lab
    cells_before = lab.notebook_state()["ncells"]
    twin = lab.kernel_json(f"plan_keys(200, {SEED})", setup=PLAN)
    keys = twin["keys"]
    assert twin["could_move"] >= 150, f"only {twin['could_move']} of 200 planned presses move: a weak test"
    assert twin["could_move"] < 200, "the plan should include presses that cannot move"
    game.focus()
    for key in keys:  # as fast as the browser takes them: no waiting between presses
        game.press(key)
    final = wait_keys(game, len(keys), timeout=60)
    assert lab.kernel_json("keys_seen") == keys, "keys lost, duplicated or reordered on the way to the kernel"
    assert final["moves"] == twin["could_move"], "the engine's move count must equal the presses that could move"
    assert final["rows"] == twin["rows"] and final["score"] == twin["score"], "the game differs from a headless replay"
    assert_pixels_match(game, final)
    assert readout(game) == (final["score"], final["moves"])
    assert lab.notebook_state()["ncells"] == cells_before, "JupyterLab took the keys (a/b insert, dd deletes cells)"
    assert lab.widget_errors() == [] and lab.console_errors() == []


def test_undo_new_game_arrow_buttons_and_swipes(game: BoardView) -> None:
    lab = game.lab
    start = state(game)
    # on-screen arrow buttons: the first one that can move
    for label, key in (("←", "ArrowLeft"), ("↑", "ArrowUp"), ("→", "ArrowRight"), ("↓", "ArrowDown")):
        expected = lab.kernel_json(f"predict({key!r})")
        if expected["moved"]:
            game.click_button(label)
            after = lab.wait_for(lambda: (lambda s: s if s["moves"] == 1 else None)(state(game)), 15,
                                 f"the {label} button to move")
            assert after["rows"] == expected["rows"]
            break
    else:
        pytest.fail("no arrow button could move on a fresh board")
    assert_pixels_match(game, after)
    assert readout(game) == (after["score"], 1)

    # Undo button: back to the start, pixels and readout too
    game.click_button("Undo")
    undone = lab.wait_for(lambda: (lambda s: s if s["moves"] == 0 else None)(state(game)), 15, "Undo")
    assert undone["rows"] == start["rows"] and undone["score"] == 0
    assert_pixels_match(game, undone)
    assert readout(game) == (0, 0)

    # a mouse swipe moves like a key; the 'u' key undoes it
    for key, (x0, y0, x1, y1) in (("ArrowRight", (40, 200, 360, 210)), ("ArrowLeft", (360, 200, 40, 210)),
                                  ("ArrowDown", (200, 40, 210, 360)), ("ArrowUp", (200, 360, 210, 40))):
        expected = lab.kernel_json(f"predict({key!r})")
        if expected["moved"]:
            game.drag(x0, y0, x1, y1)
            swiped = lab.wait_for(lambda: (lambda s: s if s["moves"] == 1 else None)(state(game)), 15, "a swipe")
            assert swiped["rows"] == expected["rows"], f"the swipe did not play {key}"
            break
    else:
        pytest.fail("no swipe could move on a fresh board")
    game.focus()
    game.press("u")
    lab.wait_for(lambda: state(game)["moves"] == 0, 15, "the 'u' key to undo")

    # New game: a fresh board, score and move count reset
    game.press("ArrowDown")
    game.press("ArrowLeft")
    lab.wait_for(lambda: state(game)["keys_seen"] >= 3, 15, "two more key presses")
    game.click_button("New game")
    fresh = lab.wait_for(lambda: (lambda s: s if s["moves"] == 0 and s["score"] == 0 else None)(state(game)), 15,
                         "New game")
    assert sum(v > 0 for row in fresh["rows"] for v in row) == 2
    assert_pixels_match(game, fresh)
    assert readout(game) == (0, 0)


def test_escape_hands_the_keyboard_back_to_the_notebook(game: BoardView) -> None:
    game.focus()
    game.press("Escape")
    game.lab.wait_for(lambda: not game.canvas.evaluate("c => document.activeElement === c"), 10,
                      "Escape to move the keyboard focus off the board")
