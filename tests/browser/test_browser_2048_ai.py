"""The 2048 board with the AI at the controls, in JupyterLab: Hint shows the AI's thinking without
moving, "AI move" plays one legal move, the "AI plays" toggle plays by itself on the browser clock
and stops when toggled off; the canvas follows the engine throughout."""

from __future__ import annotations

import re
import time

import pytest

from browserlab import BoardView, board_on_tab, close_previous, colour_close, parse_colour, pixel

pytestmark = pytest.mark.browser


SEED = 4096


def ai_setup(make: str, imports: str) -> str:
    """Kernel code: the board ``make`` builds (after ``imports``) in variable ``ai``, every AI decision recorded,
    and ``board_state()`` / ``replay_choices()`` to read it (shared with the strong player's test)."""
    return close_previous("ai") + imports + f"""
from tilelab.game2048 import Game
from tilelab.game2048.palette import BLANK_COLOR, tile_style
ai = {make}
choices = []
_think = ai.think
def _record_think():
    before = ai.game.to_json()
    choice = _think()
    choices.append((before, None if choice is None else choice.value))
    return choice
ai.think = _record_think

def board_state():
    g, geo = ai.game, ai.board_widget.geometry
    values = sorted({{v for row in g.board.grid for v in row}})
    return {{"rows": [list(r) for r in g.board.grid], "score": g.score, "moves": g.moves_played,
            "ai_moves": ai.ai_moves, "playing": ai.playing, "banner": ai.board_widget.banner, "over": g.over,
            "thinks": len(choices), "gap": geo.gap, "tile": geo.tile,
            "colours": {{str(v): (tile_style(v)[0] if v else BLANK_COLOR) for v in values}}}}

def replay_choices():
    # every AI decision replayed on a copy of the game it saw: the move must be legal and land where the board is
    out = []
    for before, direction in choices:
        g = Game.from_json(before)
        legal = [d.value for d in g.legal_moves()]
        moved = direction is not None and g.play(direction)
        out.append({{"legal": direction in legal, "moved": bool(moved), "rows": [list(r) for r in g.board.grid]}})
    return out
"""


SETUP = ai_setup(f"Game2048AIWidget(rng={SEED}, ms_per_move=20, speed=8)",
                 "from tilelab.widgets.game2048_ai import Game2048AIWidget\n")


@pytest.fixture
def ai(board_lab: dict, notebook_dir) -> BoardView:
    return board_on_tab(board_lab, notebook_dir, "game2048_ai.ipynb", [SETUP, "ai"])


def state(view: BoardView) -> dict:
    return view.lab.kernel_json("board_state()")


def thinking_text(view: BoardView) -> str:
    return str(view.scope.locator(".widget-html-content").filter(has_text="Thinking").first.inner_text(timeout=15_000))


def assert_pixels_match(view: BoardView, st: dict) -> None:
    view.settle()
    assert st["banner"] is None, f"a {st['banner']!r} banner covers the board"
    pixels = view.pixels()
    step = st["tile"] + st["gap"]
    wrong = []
    for r, row in enumerate(st["rows"]):
        for c, value in enumerate(row):
            got = pixel(pixels, st["gap"] + c * step + 0.12 * st["tile"], st["gap"] + r * step + 0.12 * st["tile"])
            if not colour_close(got[:3], parse_colour(st["colours"][str(value)])):
                wrong.append(f"({r},{c}) value {value}: got {got}")
    assert not wrong, "canvas disagrees with the engine:\n" + "\n".join(wrong)


def test_hint_shows_thinking_without_moving(ai: BoardView) -> None:
    lab = ai.lab
    start = state(ai)
    ai.click_button("Hint")
    lab.wait_for(lambda: state(ai)["thinks"] == 1, 30, "the AI to think")
    lab.wait_for(lambda: "depth" in thinking_text(ai), 15, "the thinking panel to show the search")
    text = thinking_text(ai)
    assert re.search(r"\d+\s*nodes", text), f"no node count in the thinking panel: {text!r}"
    after = state(ai)
    assert after["moves"] == 0 and after["rows"] == start["rows"], "Hint must not move"
    assert_pixels_match(ai, after)


def test_ai_move_button_plays_one_legal_move(ai: BoardView) -> None:
    lab = ai.lab
    ai.click_button("AI move")
    after = lab.wait_for(lambda: (lambda s: s if s["ai_moves"] == 1 else None)(state(ai)), 30, "one AI move")
    assert after["moves"] == 1
    (replayed,) = lab.kernel_json("replay_choices()")
    assert replayed["legal"] and replayed["moved"]
    assert replayed["rows"] == after["rows"], "the board is not the engine's result of the AI's move"
    assert_pixels_match(ai, after)


def test_ai_plays_toggle_starts_and_stops_autoplay(ai: BoardView) -> None:
    lab = ai.lab
    ai.click_button("AI plays")
    lab.wait_for(lambda: state(ai)["ai_moves"] >= 6, 60, "the AI to play six moves by itself")
    ai.click_button("AI plays")
    stopped = lab.wait_for(lambda: (lambda s: s if not s["playing"] else None)(state(ai)), 15, "autoplay to stop")
    # no move after the toggle went off: watch one second (8 ticks at 8 moves/s would have played)
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline:
        assert state(ai)["ai_moves"] == stopped["ai_moves"], "the AI kept playing after it was switched off"
        ai.page.wait_for_timeout(100)
    final = state(ai)
    assert final["moves"] == final["ai_moves"] == final["thinks"] - sum(
        1 for r in lab.kernel_json("replay_choices()") if not r["moved"])
    replays = lab.kernel_json("replay_choices()")
    assert all(r["legal"] for r in replays if r["moved"])
    assert replays[-1]["rows"] == final["rows"]
    assert_pixels_match(ai, final)
