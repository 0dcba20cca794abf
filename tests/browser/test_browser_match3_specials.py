"""Match-3 with special candies, played in JupyterLab: the on-screen "Specials" toggle switches the
rules in the kernel, a colour bomb / striped candy swapped in the browser does exactly what the
engine (:func:`tilelab.match3.specials.swap_specials`) says -- animated, blast included -- and
special candies are drawn as specials (stripes, wrapper, bomb), not as plain candies."""

from __future__ import annotations

import re

import pytest

from browserlab import BoardView, board_on_tab, close_previous, colour_close, parse_colour, pixel, record_frames
from test_browser_match3 import centre, idle_state, state, status_numbers  # the plain board's helpers

pytestmark = pytest.mark.browser


SEED = 5
SETUP = close_previous("board") + f"""
import copy
from tilelab.randomness import as_generator as _as_generator
from tilelab.widgets import match3_draw as _M
from tilelab.widgets.match3 import Match3Widget
from tilelab.match3.candies import candy_style
import tilelab.match3 as _sp
from tilelab.match3.special_board import SPECIAL_NAMES
from tilelab.match3 import specials_style as _look
board = Match3Widget(8, 8, 6, rng={SEED}, idle_hint_s=1e9, specials=True)  # no idle hint: the picture stays put

def _grids(b):
    code = getattr(b, "special_code", lambda cell: 0)
    return ([[int(b[r, c]) for c in range(b.cols)] for r in range(b.rows)],
            [[int(code((r, c))) for c in range(b.cols)] for r in range(b.rows)])

def board_state():
    b = board.board
    grid, special = _grids(b)
    last = board.last_result
    return {{"grid": grid, "special": special, "board_type": type(b).__name__,
            "specials_on": bool(board.specials), "toggle": bool(board.specials_toggle.value),
            "rows": board.rows, "cols": board.cols, "cell": board.cell_px,
            "score": board.score, "moves": board.moves_played, "busy": board.busy(),
            "selected": None if board.selected is None else [list(board.selected)],
            "last": None if last is None else {{"legal": bool(last.legal), "score": int(last.score),
                     "cascades": int(last.cascades), "steps": len(last.steps),
                     "combo": getattr(last, "combo", None)}},
            "colours": {{str(k): candy_style(k).colour for k in range(board.kinds)}},
            "codes": {{name: code for code, name in SPECIAL_NAMES.items()}},
            "look": {{"bomb": _look.BOMB_COLOUR, "sprinkle": _look.SPRINKLE_COLOUR, "stripe": _look.STRIPE_COLOUR,
                     "wrapper": _look.WRAPPER_COLOUR, "wrapper_half": _look.WRAPPER_HALF,
                     "half": _M.CANDY_SCALE * board.cell_px, "blast": _M.BLAST_COLOUR}}}}

def set_board(picture, seed):
    # a hand-made position, loaded as a saved game is (set_game repaints the board and its status)
    assert board.specials, "specials are off"
    from tilelab.match3 import Game as _Game
    # a game of its own from this position; its refills after the swap are known in advance (seed)
    board.set_game(_Game(rules=board.game.rules, rng=_as_generator(seed),
                         board=_sp.SpecialBoard.parse(picture, kinds=board.kinds)))

def expected_swap(a, b):
    r = _sp.swap_specials(board.board, a, b, rng=copy.deepcopy(board.rng))
    grid, special = _grids(r.board)
    first = r.steps[0] if r.steps else None
    acts = first.activations if first else ()
    return {{"legal": bool(r.legal), "score": int(r.score), "cascades": int(r.cascades), "combo": r.combo,
            "grid": grid, "special": special, "dead": bool(r.legal and _sp.is_dead_specials(r.board)),
            "activations": [act.special for act in acts],
            "blasted": sorted({{tuple(c) for act in acts for c in act.cells}}),
            "matched": sorted({{tuple(c) for g in (first.groups if first else ()) for c in g.cells}})}}
"""

#: No run anywhere; the striped 2 at (2, 4) and the colour bomb at (5, 2) are both one swap from going off.
SWAP_PICTURE = """
1 1 5 0 3 4 1 0
1 3 3 0 2 4 2 3
5 4 2 1 2- 2 5 4
1 5 2 4 0 0 2 5
4 5 4 2 3 3 5 2
5 3 * 2 4 2 3 1
0 0 3 3 5 5 1 5
3 4 2 1 1 0 3 0
"""
#: Swaps on SWAP_PICTURE: (first clicked, second clicked, combination, specials that go off on step 1).
SWAPS = {
    # the bomb swapped with a plain 2: every 2 on the board goes, the striped 2 too (a chain: it clears row 2)
    "colour-bomb": ((5, 2), (5, 3), "bomb+plain", ["bomb+plain", "striped-row"]),
    # the 1 at (2, 2) moves right: 2 2- 2 in row 2, the striped candy clears all of row 2
    "striped": ((2, 2), (2, 3), "none", ["striped-row"]),
}
REFILL_SEED = 5  # with it, neither swap leaves a dead board (no reshuffle muddles the comparison)

#: Colour 0 on cells of one parity (same background): plain at (0, 0) and (6, 6), striped-row (0, 6),
#: striped-col (2, 2), wrapped (4, 4), primed wrapped (6, 0); a colour bomb at (3, 3).
LOOK_PICTURE = """
0 1 2 3 4 5 0- 1
2 3 4 5 0 1 2 3
4 5 0| 1 2 3 4 5
0 1 2 * 4 5 0 1
2 3 4 5 0+ 1 2 3
4 5 0 1 2 3 4 5
0@ 1 2 3 4 5 0 1
2 3 4 5 0 1 2 3
"""


@pytest.fixture
def match3(board_lab: dict, notebook_dir) -> BoardView:
    return board_on_tab(board_lab, notebook_dir, "match3_specials.ipynb", [SETUP, "board"])


def expected_looks(st: dict, cell) -> list[tuple[float, float, tuple[int, int, int], str]]:
    """Points of a cell and the colour each must have: (x, y, rgb, what).

    Plain and wrapped candies show their colour at the centre; a striped candy's middle stripe runs
    through the centre (white) and its colour shows between the stripes; a colour bomb is a dark disc
    with a white sprinkle in the middle; a wrapped candy has a dark dashed wrapper outside the candy.
    """
    r, c = cell
    kind, code = st["grid"][r][c], st["special"][r][c]
    codes, look = st["codes"], st["look"]
    cx, cy = centre(st, cell)
    half = look["half"]
    gap = 0.225 * half  # between the middle stripe (and the bomb's middle sprinkle) and the next one
    if code == codes["colour-bomb"]:
        return [(cx + gap, cy, parse_colour(look["bomb"]), "bomb disc"),
                (cx, cy, parse_colour(look["sprinkle"]), "bomb sprinkle")]
    colour = parse_colour(st["colours"][str(kind)])
    stripe = (cx, cy, parse_colour(look["stripe"]), "middle stripe")
    if code == codes["striped-row"]:
        return [(cx, cy + gap, colour, "colour between row stripes"), stripe]
    if code == codes["striped-col"]:
        return [(cx + gap, cy, colour, "colour between column stripes"), stripe]
    points = [(cx, cy, colour, "candy colour")]
    if code in (codes["wrapped"], codes["wrapped-primed"]):
        w = look["wrapper_half"] * half  # on the wrapper's top edge, inside its first dash
        points.append((cx - w + 2.5, cy - w, parse_colour(look["wrapper"]), "wrapper"))
    return points


def mismatches(view: BoardView, st: dict, plain_only: bool = False) -> list[str]:
    pixels = view.pixels()
    wrong = []
    for r, row in enumerate(st["grid"]):
        for c, kind in enumerate(row):
            if plain_only and st["special"][r][c]:
                continue
            for x, y, want, what in expected_looks(st, (r, c)):
                got = pixel(pixels, x, y)[:3]
                if not colour_close(got, want, 12):
                    wrong.append(f"({r},{c}) kind {kind} special {st['special'][r][c]} {what} at ({x:.1f},{y:.1f}): "
                                 f"want {want}, got {got}")
    return wrong


def assert_pixels_match(view: BoardView, st: dict, timeout: float = 15) -> None:
    """The canvas shows the kernel's board (specials drawn as specials); waits for late draw messages."""
    try:
        view.lab.wait_for(lambda: not mismatches(view, st), timeout, "the canvas to show the kernel's board")
    except TimeoutError:
        pass
    wrong = mismatches(view, st)
    assert not wrong, "canvas disagrees with the engine:\n" + "\n".join(wrong)


def crop(pixels: tuple[int, int, bytes], st: dict, cell) -> list[tuple[int, int, int]]:
    """The RGB pixels of one cell."""
    s = st["cell"]
    r, c = cell
    return [pixel(pixels, c * s + x, r * s + y)[:3] for y in range(s) for x in range(s)]


def differing(a: list, b: list, tolerance: int = 30) -> int:
    """How many pixels of two crops differ by more than ``tolerance`` in some channel."""
    return sum(1 for p, q in zip(a, b) if max(abs(x - y) for x, y in zip(p, q)) > tolerance)


# a probe on the board's canvas: the colours some points show on every frame drawn (ipycanvas
# composites each animation frame into the visible canvas with one drawImage)
_PROBE_JS = """(c, points) => {
  const proto = CanvasRenderingContext2D.prototype;
  if (!proto.__m3Probed) {
    const original = proto.drawImage;
    proto.drawImage = function (...args) {
      const result = original.apply(this, args);
      const probe = window.__m3Probe;
      if (probe && this.canvas === probe.canvas) probe.sample();
      return result;
    };
    proto.__m3Probed = true;
  }
  const ctx = c.getContext('2d');
  const seen = points.map(() => new Set());
  window.__m3Probe = {canvas: c, sample: () => points.forEach(([x, y], i) => {
    const d = ctx.getImageData(x, y, 1, 1).data; seen[i].add(d[0] + ',' + d[1] + ',' + d[2]); }), seen};
  return true;
}"""
_PROBE_READ_JS = """() => { const p = window.__m3Probe; window.__m3Probe = null;
  return p ? p.seen.map(s => Array.from(s).map(t => t.split(',').map(Number))) : null; }"""


def blend(top_css: str, under: tuple[int, int, int]) -> tuple[int, int, int]:
    """``rgba(r, g, b, a)`` painted over ``under``."""
    alpha = float(re.findall(r"[\d.]+", top_css)[3])
    top = parse_colour(top_css)
    return tuple(round(alpha * t + (1 - alpha) * u) for t, u in zip(top, under))  # type: ignore[return-value]


def settled(st: dict, on: bool) -> dict | None:
    """``st`` once the toggle's handler has finished: the rules flag and the new game both in place.

    (A CI run once read the flag already switched while the board was still the old kind.)
    """
    return st if st["specials_on"] == on and st["moves"] == 0 and (st["board_type"] == "SpecialBoard") == on else None


def test_specials_toggle_switches_the_rules_in_the_kernel(match3: BoardView) -> None:
    lab = match3.lab
    st = state(match3)
    assert st["specials_on"] and st["board_type"] == "SpecialBoard" and st["toggle"]
    toggle = match3.button("Specials")
    assert "mod-active" in (toggle.get_attribute("class") or ""), "the toggle does not show specials on"

    # off: a plain board, a new game
    toggle.click(timeout=15_000)
    off = lab.wait_for(lambda: settled(state(match3), False), 15, "specials off in the kernel")
    assert off["board_type"] == "Board" and not off["toggle"]
    assert off["grid"] != st["grid"] and off["score"] == off["moves"] == 0, "turning specials off is a new game"
    lab.wait_for(lambda: "specials off" in match3.status_text(), 15, "the status saying specials are off")
    lab.wait_for(lambda: "mod-active" not in (toggle.get_attribute("class") or ""), 15, "the toggle released")
    assert_pixels_match(match3, off)

    # on again: a SpecialBoard, special swaps are legal moves again
    toggle.click(timeout=15_000)
    on = lab.wait_for(lambda: settled(state(match3), True), 15, "specials on in the kernel")
    assert on["board_type"] == "SpecialBoard" and on["toggle"]
    assert on["grid"] != off["grid"] and on["score"] == on["moves"] == 0, "turning specials on is a new game"
    assert lab.kernel_json("isinstance(board.board, _sp.SpecialBoard) and "
                           "board.legal_moves() == _sp.legal_moves_specials(board.board)")
    lab.wait_for(lambda: re.search(r"specials on\b", match3.status_text()), 15, "the status saying specials are on")
    assert "mod-active" in (toggle.get_attribute("class") or "")
    assert_pixels_match(match3, on)
    assert status_numbers(match3) == (0, 0)
    assert lab.widget_errors() == [] and lab.console_errors() == []


@pytest.mark.parametrize("case", list(SWAPS))
def test_special_swap_matches_the_engine_and_is_animated(match3: BoardView, case: str) -> None:
    lab = match3.lab
    a, b, combo, fired = (list(x) if isinstance(x, tuple) else x for x in SWAPS[case])
    lab.kernel_eval(f"set_board({SWAP_PICTURE!r}, {REFILL_SEED})")
    before = state(match3)
    codes = before["codes"]
    assert before["special"][2][4] == codes["striped-row"] and before["special"][5][2] == codes["colour-bomb"]
    assert_pixels_match(match3, before)  # the hand-made position is on screen, specials drawn
    match3.settle()

    expected = lab.kernel_json(f"expected_swap({tuple(a)}, {tuple(b)})")
    assert expected["legal"] and expected["combo"] == combo and expected["activations"] == fired, \
        f"test setup: the swap does not set off what it should: {expected['combo']} {expected['activations']}"
    assert not expected["dead"], "test setup: the swap leaves a dead board (the widget would reshuffle)"

    # cells the blast covers that nothing else touches on step 1: they must light up during the animation
    probes = [cell for cell in map(tuple, expected["blasted"])
              if cell not in (tuple(a), tuple(b)) and cell not in map(tuple, expected["matched"])
              and before["special"][cell[0]][cell[1]] == 0][:3]
    assert probes, "test setup: no plain candy in the blast"
    blast_seen = [blend(before["look"]["blast"], parse_colour(before["colours"][str(before["grid"][r][c])]))
                  for r, c in probes]

    match3.click(*centre(before, a))
    lab.wait_for(lambda: state(match3)["selected"] == [a], 15, "the first candy selected")
    match3.settle()
    match3.canvas.evaluate(_PROBE_JS, [list(centre(before, cell)) for cell in probes])
    try:
        frames = record_frames(match3, lambda: match3.click(*centre(before, b)), min_distinct=8)
    finally:
        seen = match3.page.evaluate(_PROBE_READ_JS)
    after = idle_state(match3)
    print("frames", frames, "blast probes", dict(zip(map(str, probes), blast_seen)))

    assert after["moves"] == 1 and after["last"]["legal"] and after["last"]["combo"] == combo
    assert after["score"] == after["last"]["score"] == expected["score"] > 0
    assert after["last"]["cascades"] == expected["cascades"] >= 1
    assert after["grid"] == expected["grid"], "the board is not the engine's result of that swap"
    assert after["special"] == expected["special"], "the specials are not where the engine put them"
    assert frames["distinct"] >= 8, f"the swap and blast were not animated: {frames}"
    for cell, want, colours in zip(probes, blast_seen, seen):
        assert any(colour_close(got, want, 12) for got in colours), \
            f"the blast never lit up {cell} (want {want}); colours drawn there: {colours}"
    assert_pixels_match(match3, after)
    assert status_numbers(match3) == (expected["score"], 1)
    assert lab.widget_errors() == [] and lab.console_errors() == []


def test_specials_are_drawn_as_specials(match3: BoardView) -> None:
    lab = match3.lab
    lab.kernel_eval(f"set_board({LOOK_PICTURE!r}, {REFILL_SEED})")
    st = state(match3)
    codes = st["codes"]
    where = {name: tuple(cell) for name, cell in (("striped-row", (0, 6)), ("striped-col", (2, 2)),
                                                 ("wrapped", (4, 4)), ("wrapped-primed", (6, 0)),
                                                 ("colour-bomb", (3, 3)))}
    for name, (r, c) in where.items():
        assert st["special"][r][c] == codes[name], f"test setup: no {name} at {(r, c)}"
    lab.wait_for(lambda: not mismatches(match3, st, plain_only=True), 15, "the hand-made board on the canvas")
    match3.settle()
    pixels = match3.pixels()
    plain = crop(pixels, st, (0, 0))
    # control: two plain candies of one colour on the same background are drawn the same
    assert differing(plain, crop(pixels, st, (6, 6))) <= 2, "two identical plain candies are drawn differently"
    crops = {name: crop(pixels, st, cell) for name, cell in where.items()}
    print("pixels differing from the plain candy", {name: differing(c, plain) for name, c in crops.items()})
    for name, pictured in crops.items():
        n = differing(pictured, plain)
        assert n >= 60, f"the {name} candy at {where[name]} looks like a plain candy ({n} pixels differ)"
    assert differing(crops["striped-row"], crops["striped-col"]) >= 60, "row and column stripes look alike"
    assert differing(crops["wrapped"], crops["wrapped-primed"]) >= 30, "a primed wrapped candy looks unprimed"
    assert_pixels_match(match3, st)  # and each in its colour, with stripes, wrapper or bomb where they belong
