"""Drawing the sliding board on its canvas: background, tiles (numbers or picture pieces), the
hint ring, and the Turn's :class:`~tilelab.sliding.Slide` events animated frame by frame.

:class:`SlidingDrawing` is a mixin of :class:`tilelab.widgets.sliding.SlidingWidget`: it reads the
board's state (``board``, ``rows``/``cols``, picture pieces, ``hint_tile``) and writes only pixels.
"""

from __future__ import annotations

from typing import Any, Callable

import ipywidgets as widgets

from tilelab.sliding import Board, Slide
from tilelab.widgets.base import BACKGROUND, OVERLAY, PIECES, fit_font_size
from tilelab.widgets.pictures import png_bytes
from tilelab.widgets.sliding_pictures import (
    BOARD_COLOUR,
    CELL_COLOUR,
    FONT,
    GAP,
    HINT_COLOUR,
    LABEL_BACKDROP,
    MARGIN,
    TILE_COLOUR,
    TILE_DONE_COLOUR,
    TILE_TEXT,
    board_origin,
    cut_tiles,
)

FRAMES_PER_SLIDE = 6  #: frames of one slide's animation
MS_PER_FRAME = 18


class SlidingDrawing:
    """The sliding board's canvas drawing and slide animation (a mixin: pixels only, no rules)."""

    rows: int
    cols: int
    width: int
    height: int
    hint_tile: int | None
    finished: Any
    show_numbers: bool
    _pieces: dict[int, Any]
    _piece_size: int
    _picture_source: Any

    # ------------------------------------------------------------------ drawing
    def _geometry(self) -> tuple[float, float, float]:
        return board_origin(self.rows, self.cols, self.width, self.height)

    def _ensure_pieces(self, cell: float) -> None:
        side = max(1, int(cell - GAP))
        if self._pieces and self._piece_size == side:
            return
        pieces = cut_tiles(self._picture_source, self.rows, self.cols, side, with_blank=True)
        self._pieces = {t: widgets.Image(value=png_bytes(p), format="png") for t, p in pieces.items()}
        self._piece_size = side

    def redraw(self) -> None:
        """Draw the whole board from the engine state."""
        self.legend.layout.display = "none" if self.picture_mode else ""  # the darker tiles are a number-mode look
        with self.hold():
            self._draw_background()
            self._draw_pieces()
            if self.finished is None:
                self.clear_banner()
                if self.hint_tile is not None:
                    self._draw_hint()
        self._update_status()

    def _draw_background(self) -> None:
        c = self.layer(BACKGROUND)
        c.clear()
        x0, y0, cell = self._geometry()
        c.fill_style = BOARD_COLOUR
        c.fill_rect(x0 - MARGIN / 2, y0 - MARGIN / 2, self.cols * cell + MARGIN, self.rows * cell + MARGIN)
        c.fill_style = CELL_COLOUR
        for r in range(self.rows):
            for col in range(self.cols):
                c.fill_rect(x0 + col * cell + GAP / 2, y0 + r * cell + GAP / 2, cell - GAP, cell - GAP)

    def _tile_style(self, board: Board) -> tuple[float, float, float, float, bool, int]:
        """Geometry and label size for drawing tiles; sets the font on the pieces layer."""
        x0, y0, cell = self._geometry()
        picture = self.picture_mode and self._picture_source is not None
        if picture:
            self._ensure_pieces(cell)
        side = cell - GAP
        size = fit_font_size(str(board.cell_count - 1), side, side, max_size=side * 0.5)
        label = max(8, int(size * (0.45 if picture else 1)))
        c = self.layer(PIECES)
        c.font = f"bold {label}px {FONT}"
        c.text_align = "center"
        c.text_baseline = "middle"
        return x0, y0, cell, side, picture, label

    def _draw_tile(self, tile: int, row: float, col: float, home: bool,
                   style: tuple[float, float, float, float, bool, int]) -> None:
        """One tile with its top-left corner at (fractional) cell ``(row, col)``."""
        x0, y0, cell, side, picture, label = style
        c = self.layer(PIECES)
        x = x0 + col * cell + GAP / 2
        y = y0 + row * cell + GAP / 2
        if picture:
            c.draw_image(self._pieces[tile], x, y, side, side)
            if self.show_numbers:
                c.fill_style = LABEL_BACKDROP
                c.fill_rect(x + 2, y + 2, label * 1.6, label * 1.3)
                c.fill_style = TILE_TEXT
                c.fill_text(str(tile), x + 2 + label * 0.8, y + 2 + label * 0.65)
        else:
            c.fill_style = TILE_DONE_COLOUR if home else TILE_COLOUR
            c.fill_rect(x, y, side, side)
            c.fill_style = TILE_TEXT
            c.fill_text(str(tile), x + side / 2, y + side / 2)

    def _draw_pieces(self, board: Board | None = None) -> None:
        """Draw every tile of ``board`` (default: the current one) in its cell (home tiles darker)."""
        board = self.board if board is None else board
        self.layer(PIECES).clear()
        style = self._tile_style(board)
        for index, tile in enumerate(board.tiles):
            if tile:
                r, c = divmod(index, board.cols)
                self._draw_tile(tile, r, c, divmod(tile - 1, board.cols) == (r, c), style)

    def _draw_slide_frame(self, event: Slide, share: float) -> None:
        """Redraw only the segment of ``event``: its tiles ``share`` of the way back from their new cells."""
        style = self._tile_style(event.after)
        x0, y0, cell = style[:3]
        cells = event.cells_from + event.cells_to
        top, left = min(r for r, _ in cells), min(c for _, c in cells)
        bottom, right = max(r for r, _ in cells), max(c for _, c in cells)
        self.layer(PIECES).clear_rect(x0 + left * cell, y0 + top * cell,
                                      (right - left + 1) * cell, (bottom - top + 1) * cell)
        cols = event.after.cols
        for tile, (fr, fc), (tr, tc) in zip(event.tiles, event.cells_from, event.cells_to):
            row, col = tr + (fr - tr) * share, tc + (fc - tc) * share
            self._draw_tile(tile, row, col, share == 0 and divmod(tile - 1, cols) == (tr, tc), style)

    def _draw_hint(self) -> None:
        if self.hint_tile is None:
            return
        c = self.layer(OVERLAY)
        c.clear()
        x0, y0, cell = self._geometry()
        r, col = self.board.position(self.hint_tile)
        c.stroke_style = HINT_COLOUR
        c.line_width = 5
        c.stroke_rect(x0 + col * cell + GAP, y0 + r * cell + GAP, cell - 2 * GAP, cell - 2 * GAP)

    def _animate_events(self, events: list[Slide], frames_per_step: int, ms: float) -> None:
        """Animate slides one after another: each moving tile glides from its old cell to the new.

        In-between frames redraw only the sliding segment (a few canvas commands each, so even a
        600-move Solve is a light batch); the last frame redraws the whole board, so the picture is
        exact even when a busy browser is sent only that frame.
        """
        if not events:
            return
        frames: list[Callable[[], None]] = []
        for event in events:
            for k in range(1, frames_per_step + 1):
                share = 1 - ease_out(k / frames_per_step)
                frames.append(lambda event=event, share=share: self._draw_slide_frame(event, share))
        final = events[-1].after
        frames[-1] = lambda: self._draw_pieces(final)
        with self.hold():
            self.clear_banner()
        self.animate(frames, ms)


def ease_out(t: float) -> float:
    """Ease-out: fast start, gentle stop."""
    return 1 - (1 - t) ** 2
