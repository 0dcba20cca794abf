"""Drawing the match-3 board: geometry (pixel -> cell, drag -> neighbour), colours, candies and
specials on the canvas, the swap/cascade/blast animation frames of a Turn, and
:func:`board_picture` (a Pillow still of a position).

:class:`Match3Drawing` is a mixin of :class:`tilelab.widgets.match3.Match3Widget`: it reads the
board's state (``board``, ``cell_px``, ``selected``, ``hint_move``) and writes only pixels.
:mod:`tilelab.widgets.match3` (the playable board) draws with them.

>>> cell_at(75, 25, rows=4, cols=5), drag_target((0, 0), 10, 10, 60, 12)
((0, 1), (0, 1))
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

from tilelab.match3 import EMPTY, Board, CascadeStep, Cell, SwapResult
from tilelab.match3.game import Game, Rules, as_rules
from tilelab.match3.special_board import BOMB, PRIMED, SPECIAL_NAMES, SpecialBoard
from tilelab.match3 import specials_style as look
from tilelab.match3.candies import OUTLINE_COLOUR, candy_style
from tilelab.widgets.base import BACKGROUND, OVERLAY, PIECES
from tilelab.widgets.pictures import rgb

CELL_PX = 50
CANDY_SCALE = 0.38  # half-size of a candy, in cells
MS_PER_FRAME = 40
SWAP_FRAMES = 4
FALL_FRAMES = 5
FLASH_FRAMES = 4  # on, off, on, off
HOLD_FRAMES = 6  # frames a message banner stays up
IDLE_HINT_S = 5.0
TICK_MS = 1000

LIGHT_CELL = "#f3efe6"
DARK_CELL = "#e6dfd0"
SELECT_COLOUR = "#222222"
HINT_COLOUR = "#d62728"
CURSOR_COLOUR = "#1f70a8"  # the keyboard's cell: a thin blue ring (the board's focus colour)
MATCH_COLOUR = "#1f77b4"  # step mode's "matched" ring: solid blue, unlike the dashed red hint
FLASH_COLOUR = "rgba(255, 255, 255, 0.75)"


# ----------------------------------------------------------------------------- geometry


def cell_at(x: float, y: float, rows: int, cols: int, cell_px: float = CELL_PX) -> Cell | None:
    """The cell under pixel (x, y), or None off the board.

    >>> cell_at(0, 0, 8, 8), cell_at(49.9, 50, 8, 8), cell_at(399, 399, 8, 8), cell_at(400, 10, 8, 8)
    ((0, 0), (1, 0), (7, 7), None)
    >>> cell_at(-1, 10, 8, 8)
    """
    if cell_px <= 0:
        raise ValueError(f"cell_px={cell_px}: cells need a positive size in pixels")
    if not (math.isfinite(x) and math.isfinite(y)) or x < 0 or y < 0:  # a NaN pointer is off the board
        return None
    r, c = int(y // cell_px), int(x // cell_px)
    return (r, c) if r < rows and c < cols else None


def drag_target(cell: Cell, x0: float, y0: float, x1: float, y1: float) -> Cell:
    """The neighbour of ``cell`` in the drag's main direction.

    >>> drag_target((2, 2), 0, 0, 30, 5), drag_target((2, 2), 0, 0, -3, -40)
    ((2, 3), (1, 2))
    """
    dx, dy = x1 - x0, y1 - y0
    if abs(dx) >= abs(dy):
        return (cell[0], cell[1] + (1 if dx > 0 else -1))
    return (cell[0] + (1 if dy > 0 else -1), cell[1])


def lerp(a: float, b: float, t: float) -> float:
    return a + (b - a) * t


def smoothstep(t: float) -> float:
    return t * t * (3 - 2 * t)


Piece = tuple[int, float, float, int]  # kind, row, col (floats while moving), special code
BLAST_COLOUR = "rgba(255, 200, 0, 0.6)"  # a special's blast: flashed wave by wave


class Match3Drawing:
    """The match-3 board's canvas drawing and Turn animation (a mixin: pixels only; it asks ``game.rules``).

    ``game.rules.special_at`` says which candy is special and ``game.rules.activations`` which went off:
    the drawing never inspects a board or a step to guess the rules.
    """

    game: Game
    rows: int
    cols: int
    cell_px: int
    width: int
    height: int
    board: Board
    selected: Cell | None
    hint_move: Any
    frame_ms: float

    # ------------------------------------------------------------------ drawing
    def redraw(self) -> None:
        with self.hold():  # one message: never a half-drawn board in the browser
            self._draw_background()
            self._paint(self._pieces(self.board))
            self._draw_overlay()

    def _draw_background(self) -> None:
        c, s = self.layer(BACKGROUND), self.cell_px
        c.clear()
        c.fill_style = LIGHT_CELL
        c.fill_rect(0, 0, self.width, self.height)
        c.fill_style = DARK_CELL
        for r in range(self.rows):
            for col in range(self.cols):
                if (r + col) % 2:
                    c.fill_rect(col * s, r * s, s, s)

    def _pieces(self, board: Board) -> list[Piece]:
        rules = self.game.rules  # the rules say which candies are special: the drawing never guesses
        return [(board[cell], float(cell[0]), float(cell[1]), rules.special_at(board, cell)) for cell in board.cells()
                if board[cell] != EMPTY]

    def _paint(self, pieces: Sequence[Piece], flash: Sequence[Cell] = ()) -> None:
        """Draw candies at (possibly fractional) cells on the pieces layer."""
        c, s = self.layer(PIECES), self.cell_px
        c.clear()
        by_kind: dict[int, list[tuple[float, float]]] = {}
        for kind, r, col, *_ in pieces:
            if kind >= 0:  # a colour bomb (kind -2) is drawn by _paint_specials
                by_kind.setdefault(kind, []).append((r, col))
        c.line_width = 1.5
        c.stroke_style = OUTLINE_COLOUR
        for kind, places in sorted(by_kind.items()):
            style = candy_style(kind)
            c.fill_style = style.colour
            for r, col in places:
                cx, cy = (col + 0.5) * s, (r + 0.5) * s
                points = [(cx + CANDY_SCALE * s * px, cy + CANDY_SCALE * s * py) for px, py in style.outline]
                c.fill_polygon(points)
                c.stroke_polygon(points)
        self._paint_specials(c, [p for p in pieces if len(p) > 3 and p[3]])
        if flash:
            c.fill_style = FLASH_COLOUR
            for r, col in flash:
                c.fill_rect(col * s + 2, r * s + 2, s - 4, s - 4)

    def _paint_specials(self, c: Any, pieces: Sequence[Piece]) -> None:
        """Patterns on special candies: stripes, a wrapper, or the colour bomb's sprinkled disc."""
        s, half = self.cell_px, CANDY_SCALE * self.cell_px
        for kind, r, col, code in pieces:
            cx, cy = (col + 0.5) * s, (r + 0.5) * s
            name = SPECIAL_NAMES[code]
            if code == BOMB:
                c.fill_style = look.BOMB_COLOUR
                c.fill_circle(cx, cy, look.BOMB_RADIUS * half)
                c.fill_style = look.SPRINKLE_COLOUR
                for dx, dy in look.BOMB_SPRINKLES:
                    c.fill_circle(cx + dx * half, cy + dy * half, 0.12 * half)
            elif name.startswith("striped"):
                for width, colour in ((5, look.STRIPE_EDGE), (2.5, look.STRIPE_COLOUR)):
                    c.line_width, c.stroke_style = width, colour
                    for (x0, y0), (x1, y1) in look.stripe_lines(name):
                        c.stroke_line(cx + x0 * half, cy + y0 * half, cx + x1 * half, cy + y1 * half)
            else:  # wrapped (dashed wrapper), primed (plus a solid inner ring)
                w = look.WRAPPER_HALF * half
                c.line_width, c.stroke_style = 3, look.WRAPPER_COLOUR
                c.set_line_dash([5, 3])
                c.stroke_rect(cx - w, cy - w, 2 * w, 2 * w)
                c.set_line_dash([])
                if code == PRIMED:
                    c.stroke_rect(cx - 0.8 * w, cy - 0.8 * w, 1.6 * w, 1.6 * w)
        c.line_width = 1.5
        c.stroke_style = OUTLINE_COLOUR

    def _paint_board(self, board: Board, flash: Sequence[Cell] = (), outline: Sequence[Cell] = (),
                     matched: Sequence[Cell] = ()) -> None:
        self._paint(self._pieces(board), flash)
        o = self.layer(OVERLAY)
        o.clear()
        self._ring(o, outline, HINT_COLOUR, dashed=True)
        self._ring(o, matched, MATCH_COLOUR, width=5)

    def _ring(self, c: Any, cells: Sequence[Cell], colour: str, dashed: bool = False, width: float = 3) -> None:
        if not cells:
            return
        s = self.cell_px
        c.stroke_style = colour
        c.line_width = width
        c.set_line_dash([6, 4] if dashed else [])
        for r, col in cells:
            c.stroke_rect(col * s + 3, r * s + 3, s - 6, s - 6)
        c.set_line_dash([])

    def _draw_overlay(self) -> None:
        o = self.layer(OVERLAY)
        with self.hold():  # one message to the browser per click, not one per drawing call
            o.clear()
            if self.hint_move is not None:
                self._ring(o, self.hint_move, HINT_COLOUR, dashed=True)
            if self.selected is not None:
                self._ring(o, [self.selected], SELECT_COLOUR)
            cursor = getattr(self, "cursor", None)  # the keyboard's cell (Match3Widget), drawn once keys are used
            if cursor is not None and cursor != self.selected:
                self._ring(o, [cursor], CURSOR_COLOUR, width=2)

    # ------------------------------------------------------------------ animation
    def _swap_frames(self, board: Board, a: Cell, b: Cell, back: bool) -> list[Callable[[], None]]:
        """Candies at a and b trade places (and come back if ``back``)."""
        pieces = self._pieces(board)
        still = [p for p in pieces if (p[1], p[2]) not in (a, b)]
        code = {(p[1], p[2]): p[3] for p in pieces}
        ts = [i / SWAP_FRAMES for i in range(1, SWAP_FRAMES + 1)]
        if back:
            ts += ts[-2::-1] + [0.0]

        def frame(t: float) -> Callable[[], None]:
            e = smoothstep(t)
            moving = [(board[a], lerp(a[0], b[0], e), lerp(a[1], b[1], e), code.get(a, 0)),
                      (board[b], lerp(b[0], a[0], e), lerp(b[1], a[1], e), code.get(b, 0))]
            return lambda: self._paint(still + moving)

        return [frame(t) for t in ts]

    def step_frames(self, step: CascadeStep) -> list[Callable[[], None]]:
        """Flash the matched groups, clear them, let candies fall and new ones drop in."""
        matched = sorted(set().union(*(g.cells for g in step.groups)))
        before, cleared = self._pieces(step.before), self._pieces(step.cleared)
        frames = [(lambda on=on: self._paint(before, matched if on else ())) for on in (1, 0) * (FLASH_FRAMES // 2)]
        frames += self._blast_frames(step, before)
        frames.append(lambda: self._paint(cleared))
        moves = {src: dst for src, dst in step.falls}
        holes = {col: sum(1 for (_, c2), _k in step.refills if c2 == col) for col in range(step.board.cols)}
        tracks = []  # (kind, start row, end row, col, special)
        rules = self.game.rules
        for (r, c) in step.cleared.cells():
            kind = step.cleared[r, c]
            if kind != EMPTY:
                end = moves.get((r, c), (r, c))
                tracks.append((kind, float(r), float(end[0]), float(c), rules.special_at(step.cleared, (r, c))))
        for (r, c), kind in step.refills:
            tracks.append((kind, float(r - holes[c]), float(r), float(c), 0))
        for i in range(1, FALL_FRAMES + 1):
            e = smoothstep(i / FALL_FRAMES)
            pieces = [(k, lerp(r0, r1, e), c, sc) for k, r0, r1, c, sc in tracks]
            frames.append(lambda pieces=pieces: self._paint(pieces))
        return frames

    def _blast_frames(self, step: Any, before: list[Piece]) -> list[Callable[[], None]]:
        """Specials on: each wave of the chain reaction lights up its blast cells, then goes dark."""
        frames: list[Callable[[], None]] = []
        activations = self.game.rules.activations(step)
        for wave in sorted({act.wave for act in activations}):
            cells = sorted(set().union(*(act.cells for act in activations if act.wave == wave)))
            frames += [lambda cells=cells: self._paint_blast(before, cells)] * 2 + [lambda: self._paint(before)]
        return frames

    def _paint_blast(self, pieces: Sequence[Piece], cells: Sequence[Cell]) -> None:
        self._paint(pieces)
        c, s = self.layer(PIECES), self.cell_px
        c.fill_style = BLAST_COLOUR
        for r, col in cells:
            c.fill_rect(col * s + 1, r * s + 1, s - 2, s - 2)

    def _banner_frames(self, text: str, board: Board) -> list[Callable[[], None]]:
        show = lambda: self.draw_banner(text, "same candies, new places")  # noqa: E731
        frames = [show] * HOLD_FRAMES

        def done() -> None:
            self.clear_banner()
            self._paint(self._pieces(board))

        return frames + [done]

    def _with_overlay(self, frames: list[Callable[[], None]]) -> list[Callable[[], None]]:
        """Clear the selection ring in the same batch as the first frame (one message, no flicker)."""
        first = frames[0]

        def start() -> None:
            self._draw_overlay()
            first()

        return [start, *frames[1:]]

    def _animate_result(self, before: Board, result: SwapResult, shuffled: Board | None) -> None:
        frames = self._swap_frames(before, result.a, result.b, back=False)
        for step in result.steps:
            frames += self.step_frames(step)
        if shuffled is not None:
            frames += self._banner_frames("no moves left, shuffling", shuffled)
        frames.append(self.redraw)
        self.animate(self._with_overlay(frames), self.frame_ms)

    def _show_invalid(self, board: Board, result: SwapResult) -> None:
        frames = self._swap_frames(board, result.a, result.b, back=True)
        frames.append(self.redraw)
        self.animate(self._with_overlay(frames), self.frame_ms)


def picture_special(draw: Any, name: str, cx: float, cy: float, half: float, scale: int) -> None:
    """Stripes or a wrapper on a candy in a Pillow picture, as the board draws them."""
    if name.startswith("striped"):
        for width, colour in ((5, look.STRIPE_EDGE), (2.5, look.STRIPE_COLOUR)):
            for (x0, y0), (x1, y1) in look.stripe_lines(name):
                draw.line((cx + x0 * half, cy + y0 * half, cx + x1 * half, cy + y1 * half),
                          fill=rgb(colour), width=max(1, round(width * scale)))
    else:  # wrapped (a wrapper square), primed (plus an inner one)
        for f in ((1.0, 0.8) if name == "wrapped-primed" else (1.0,)):
            w = look.WRAPPER_HALF * half * f
            draw.rectangle((cx - w, cy - w, cx + w, cy + w), outline=rgb(look.WRAPPER_COLOUR), width=3 * scale)


def board_picture(board: Board, cell_px: int = CELL_PX, rules: Rules | None = None) -> Any:
    """A match-3 board drawn with Pillow in the widget's colours and candy shapes (``rules``: the board's own).

    >>> from tilelab.match3 import new_board
    >>> board_picture(new_board(4, 5, 3, rng=1), 20).size
    (100, 80)
    >>> from tilelab.match3 import SpecialBoard
    >>> plain, striped = (board_picture(SpecialBoard.parse(p), 40) for p in ("0 1 2", "0- 1 2"))
    >>> plain.crop((0, 0, 40, 40)).tobytes() != striped.crop((0, 0, 40, 40)).tobytes()
    True
    """
    from PIL import Image, ImageDraw

    rules = as_rules(isinstance(board, SpecialBoard)) if rules is None else rules
    scale = 2  # drawn twice as large, then scaled down: smooth candy edges
    s = cell_px * scale
    image = Image.new("RGB", (board.cols * s, board.rows * s), rgb(LIGHT_CELL))
    draw = ImageDraw.Draw(image)
    for r in range(board.rows):
        for c in range(board.cols):
            if (r + c) % 2:
                draw.rectangle((c * s, r * s, (c + 1) * s - 1, (r + 1) * s - 1), fill=rgb(DARK_CELL))
            kind = board[r, c]
            if kind == EMPTY:
                continue
            cx, cy, half = (c + 0.5) * s, (r + 0.5) * s, CANDY_SCALE * s
            code = rules.special_at(board, (r, c))
            if kind < 0:  # a colour bomb: a dark disc with sprinkles
                rad = half * look.BOMB_RADIUS
                draw.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), fill=rgb(look.BOMB_COLOUR))
                for dx, dy in look.BOMB_SPRINKLES:
                    x, y, d = cx + dx * half, cy + dy * half, 0.12 * half
                    draw.ellipse((x - d, y - d, x + d, y + d), fill=rgb(look.SPRINKLE_COLOUR))
                continue
            style = candy_style(kind)
            points = [(cx + half * px, cy + half * py) for px, py in style.outline]
            draw.polygon(points, fill=rgb(style.colour), outline=rgb(OUTLINE_COLOUR), width=3)
            if code:
                picture_special(draw, SPECIAL_NAMES[code], cx, cy, half, scale)
    return image.resize((board.cols * cell_px, board.rows * cell_px), Image.LANCZOS)
