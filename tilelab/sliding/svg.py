"""A sliding board as an SVG picture (what a bare :class:`~tilelab.sliding.Board` in a notebook cell shows).

Imported only when a board is drawn (:meth:`Board.to_svg`, ``_repr_svg_``), as python-chess
imports ``chess.svg``: the engine itself never loads rendering code.

>>> board_svg((1, 2, 3, 0), 2, 2, 30).startswith('<svg xmlns="http://www.w3.org/2000/svg" width="60"')
True
"""

from __future__ import annotations

BLANK = 0
SVG_BOARD = "#e9edf0"
SVG_TILE = "#4ac2fb"

__all__ = ["board_svg"]


def board_svg(tiles: tuple[int, ...], rows: int, cols: int, cell: int = 40) -> str:
    """A board's ``tiles`` (row by row, 0 the blank) drawn with ``cell`` pixels per cell: a light board, blue
    numbered tiles, no blank. It reads plain data, so it never imports the engine."""
    width, height = cols * cell, rows * cell
    inset, font = max(1, cell // 20), int(cell * 0.45)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">',
        f'<rect width="{width}" height="{height}" fill="{SVG_BOARD}"/>',
    ]
    for index, tile in enumerate(tiles):
        if tile == BLANK:
            continue
        r, c = divmod(index, cols)
        x, y = c * cell + inset, r * cell + inset
        parts.append(
            f'<rect x="{x}" y="{y}" width="{cell - 2 * inset}" height="{cell - 2 * inset}" '
            f'rx="{2 * inset}" fill="{SVG_TILE}"/>'
            f'<text x="{c * cell + cell / 2}" y="{r * cell + cell / 2}" font-size="{font}" '
            f'font-family="sans-serif" font-weight="bold" fill="white" text-anchor="middle" '
            f'dominant-baseline="central">{tile}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
