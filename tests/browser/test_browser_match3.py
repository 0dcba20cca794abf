"""Match-3 played in JupyterLab: candies drawn where the engine says, click-click on a valid pair
swaps and cascades (animated), an invalid pair swaps back, score updates, Hint / New game work."""

from __future__ import annotations

import re

import pytest

from browserlab import BoardView, board_on_tab, close_previous, colour_close, parse_colour, pixel, record_frames

pytestmark = pytest.mark.browser


SEED = 5
SETUP = close_previous("board") + f"""
from tilelab.widgets import match3_draw as _M
from tilelab.widgets.match3 import Match3Widget
from tilelab.match3.candies import candy_style
board = Match3Widget(8, 8, 6, rng={SEED}, idle_hint_s=1e9)  # no idle hint: the picture stays put

def _cells(cells):
    return None if cells is None else [list(c) for c in cells]

def board_state():
    b = board.board
    last = board.last_result
    return {{"grid": [[int(b[r, c]) for c in range(board.cols)] for r in range(board.rows)],
            "rows": board.rows, "cols": board.cols, "cell": board.cell_px,
            "score": board.score, "moves": board.moves_played, "busy": board.busy(),
            "selected": _cells([board.selected] if board.selected else None),
            "hint": _cells(board.hint_move),
            "last": None if last is None else {{"legal": bool(last.legal), "score": int(last.score),
                     "cascades": int(last.cascades), "steps": len(last.steps)}},
            "colours": {{str(k): candy_style(k).colour for k in range(board.kinds)}},
            "select_colour": _M.SELECT_COLOUR, "hint_colour": _M.HINT_COLOUR}}

def invalid_pair():
    legal = {{frozenset(m) for m in board.legal_moves()}}
    b = board.board
    for r in range(board.rows):
        for c in range(board.cols - 1):
            a, n = (r, c), (r, c + 1)
            if b[a] != b[n] and frozenset((a, n)) not in legal:
                return [list(a), list(n)]
"""


@pytest.fixture
def match3(board_lab: dict, notebook_dir) -> BoardView:
    return board_on_tab(board_lab, notebook_dir, "match3.ipynb", [SETUP, "board"])


def state(view: BoardView) -> dict:
    return view.lab.kernel_json("board_state()")


def idle_state(view: BoardView, timeout: float = 30) -> dict:
    """Wait until the cascade animation is over (in the kernel and on the canvas)."""
    st = view.lab.wait_for(lambda: (lambda s: s if not s["busy"] else None)(state(view)), timeout, "the board idle")
    view.settle()
    return st


def centre(st: dict, cell) -> tuple[float, float]:
    r, c = cell
    return (c + 0.5) * st["cell"], (r + 0.5) * st["cell"]


def assert_pixels_match(view: BoardView, st: dict) -> None:
    pixels = view.pixels()
    wrong = []
    for r, row in enumerate(st["grid"]):
        for c, kind in enumerate(row):
            want = st["colours"][str(kind)]
            got = pixel(pixels, *centre(st, (r, c)))
            if not colour_close(got[:3], parse_colour(want)):
                wrong.append(f"({r},{c}) kind {kind}: want {want}, got {got}")
    assert not wrong, "canvas disagrees with the engine:\n" + "\n".join(wrong)


def status_numbers(view: BoardView) -> tuple[int, int]:
    text = view.status_text()
    match = re.search(r"Score\s*(\d+).*?Moves\s*(\d+)", text, re.S)
    assert match, f"status line has no score/moves: {text!r}"
    return int(match.group(1)), int(match.group(2))


def ring_colour_at(view: BoardView, st: dict, cell) -> tuple[int, int, int]:
    """Colour where a cell's selection/hint ring runs (3 px inside the cell's top edge)."""
    r, c = cell
    return pixel(view.pixels(), c * st["cell"] + 5, r * st["cell"] + 3)[:3]


def test_candies_drawn_where_the_engine_says(match3: BoardView) -> None:
    st = state(match3)
    assert_pixels_match(match3, st)
    assert status_numbers(match3) == (0, 0)
    assert match3.lab.widget_errors() == [] and match3.lab.console_errors() == []


def test_valid_pair_swaps_cascades_and_scores(match3: BoardView) -> None:
    lab = match3.lab
    st = state(match3)
    a, b = lab.kernel_json("[list(c) for c in board.legal_moves()[0]]")
    expected = lab.kernel_json(
        f"[r.score, r.cascades, [[int(r.board[i, j]) for j in range(board.cols)] for i in range(board.rows)]]",
        setup=f"import copy\nfrom tilelab.match3 import play\n"
              f"r = play(board.board, ({tuple(a)}, {tuple(b)}), rng=copy.deepcopy(board.rng))")
    match3.click(*centre(st, a))
    lab.wait_for(lambda: state(match3)["selected"] == [a], 15, "the first candy selected")
    match3.settle()
    assert colour_close(ring_colour_at(match3, st, a), parse_colour(st["select_colour"]), 40), "no selection ring"
    frames = record_frames(match3, lambda: match3.click(*centre(st, b)), min_distinct=6)
    after = idle_state(match3)
    print("frames", frames)
    assert after["moves"] == 1 and after["last"]["legal"]
    assert after["last"]["steps"] >= 1 and after["last"]["cascades"] >= 1
    assert after["score"] == after["last"]["score"] == expected[0] > 0
    assert after["grid"] == expected[2], "the board is not the engine's result of that swap"
    assert frames["distinct"] >= 6, f"the swap and cascade were not animated: {frames}"
    assert_pixels_match(match3, after)
    assert status_numbers(match3) == (after["score"], 1)


def test_invalid_pair_swaps_back(match3: BoardView) -> None:
    lab = match3.lab
    st = state(match3)
    a, b = lab.kernel_json("invalid_pair()")
    match3.click(*centre(st, a))
    lab.wait_for(lambda: state(match3)["selected"] == [a], 15, "the first candy selected")
    match3.settle()
    frames = record_frames(match3, lambda: match3.click(*centre(st, b)), min_distinct=4)
    after = idle_state(match3)
    print("frames", frames)
    assert after["last"] is not None and not after["last"]["legal"]
    assert after["grid"] == st["grid"] and after["moves"] == 0 and after["score"] == 0
    assert frames["distinct"] >= 4, f"the swap-back was not animated: {frames}"
    assert_pixels_match(match3, after)
    assert "swapped back" in match3.status_text()
    assert status_numbers(match3) == (0, 0)


def test_hint_and_new_game_buttons(match3: BoardView) -> None:
    lab = match3.lab
    st = state(match3)
    match3.click_button("Hint")
    hinted = lab.wait_for(lambda: (lambda s: s if s["hint"] else None)(state(match3)), 15, "a hint")
    legal = lab.kernel_json("[sorted(list(c) for c in m) for m in board.legal_moves()]")
    assert sorted(hinted["hint"]) in legal, "the hint is not a legal move"
    match3.settle()
    for cell in hinted["hint"]:
        assert colour_close(ring_colour_at(match3, st, cell), parse_colour(st["hint_colour"]), 40), \
            f"no hint ring on {cell}"
    # play the hinted move, then New game starts over
    match3.click(*centre(st, hinted["hint"][0]))
    match3.click(*centre(st, hinted["hint"][1]))
    played = lab.wait_for(lambda: (lambda s: s if s["moves"] == 1 else None)(state(match3)), 15, "the hinted move")
    assert played["score"] > 0
    idle_state(match3)
    match3.click_button("New game")
    fresh = lab.wait_for(lambda: (lambda s: s if s["moves"] == 0 else None)(state(match3)), 15, "a new game")
    assert fresh["score"] == 0 and fresh["grid"] != played["grid"]
    match3.settle()
    assert_pixels_match(match3, fresh)
    assert status_numbers(match3) == (0, 0)


def test_a_hint_clicked_during_a_cascade_is_answered_when_it_ends(match3: BoardView) -> None:
    lab = match3.lab
    st = idle_state(match3)
    lab.kernel_eval("board.frame_ms = 150")  # a cascade of 15+ frames: seconds on screen
    try:
        a, b = lab.kernel_json("[list(c) for c in board.legal_moves()[0]]")
        match3.click(*centre(st, a))
        lab.wait_for(lambda: state(match3)["selected"] == [a], 15, "the first candy selected")
        match3.click(*centre(st, b))
        lab.wait_for(lambda: state(match3)["busy"], 10, "the cascade to start")
        match3.click_button("Hint")
        lab.wait_for(lambda: "hint coming" in match3.status_text(), 10, "the hint queued, not dropped")
        hinted = lab.wait_for(lambda: (lambda s: s if s["hint"] and not s["busy"] else None)(state(match3)), 30,
                              "the queued hint shown when the cascade ended")
        legal = lab.kernel_json("[sorted(list(c) for c in m) for m in board.legal_moves()]")
        assert sorted(hinted["hint"]) in legal
        want = parse_colour(st["hint_colour"])
        # the outline comes after the cascade's last frame (the canvas may be still for a moment before)
        lab.wait_for(lambda: all(colour_close(ring_colour_at(match3, hinted, cell), want, 40)
                                 for cell in hinted["hint"]), 15, "the hint ring drawn after the cascade")
        match3.settle()
        for cell in hinted["hint"]:
            assert colour_close(ring_colour_at(match3, hinted, cell), want, 40), f"the hint ring on {cell} went away"
    finally:
        lab.kernel_eval("board.frame_ms = 40")
