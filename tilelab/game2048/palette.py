"""The classic 2048 colours (as the original game's stylesheet paints them), shared by plots and widgets.

Pure data, no drawing library: :func:`tile_style` gives a tile's background and text colour and
:func:`font_fraction` how large its number may be so that every tile's text fits.

>>> tile_style(2), tile_style(0), tile_style(4096)
(('#eee4da', '#776e65'), ('#cdc1b4', '#776e65'), ('#3c3a32', '#f9f6f2'))
>>> font_fraction(8) > font_fraction(128) > font_fraction(2048) > font_fraction(131072)
True
"""

from __future__ import annotations

import unicodedata

BOARD_COLOR = "#bbada0"  #: the frame and the gaps between cells
BLANK_COLOR = "#cdc1b4"  #: an empty cell
DARK_TEXT = "#776e65"  #: numbers on the two lightest tiles
LIGHT_TEXT = "#f9f6f2"  #: numbers on every darker tile
SUPER_TILE = "#3c3a32"  #: any tile above 2048
TILE_COLORS = {
    2: "#eee4da", 4: "#ede0c8", 8: "#f2b179", 16: "#f59563", 32: "#f67c5f", 64: "#f65e3b",
    128: "#edcf72", 256: "#edcc61", 512: "#edc850", 1024: "#edc53f", 2048: "#edc22e",
}
_DARK_TEXT_TILES = (0, 2, 4)

# The original sizes its numbers by digit count (55px on a 107px tile for one or two digits,
# 45px for three, 35px for four); as fractions of the tile side, extended to longer numbers.
_FONT_BY_DIGITS = {1: 0.51, 2: 0.51, 3: 0.42, 4: 0.33}
_DIGIT_WIDTH = 0.6  #: width of one digit in a bold sans-serif font, in font sizes
_WIDE_WIDTH = 1.0  #: width of one CJK character (word tiles), in font sizes
_TEXT_FILL = 0.85  #: the share of the tile the longest text may span


def tile_style(value: int) -> tuple[str, str]:
    """(background, text colour) of a tile; 0 is a blank cell."""
    background = BLANK_COLOR if value == 0 else TILE_COLORS.get(value, SUPER_TILE)
    return background, DARK_TEXT if value in _DARK_TEXT_TILES else LIGHT_TEXT


def text_width(label: str) -> float:
    """Width of ``label`` in font sizes (digits 0.6, wide CJK characters 1.0)."""
    return sum(_WIDE_WIDTH if unicodedata.east_asian_width(ch) in "WF" else _DIGIT_WIDTH for ch in label)


def font_fraction(value: int, label: str | None = None) -> float:
    """Font size as a fraction of the tile side so that the label (default: the number) fits.

    >>> round(font_fraction(2, "我"), 2), round(font_fraction(2, "我的"), 2)
    (0.51, 0.42)
    """
    text = str(value) if label is None else label
    fit = _TEXT_FILL / max(_DIGIT_WIDTH, text_width(text))
    return min(_FONT_BY_DIGITS.get(len(text), fit), fit)
