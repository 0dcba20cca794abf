"""The classic 2048 colours, shared by plots and widgets, with numbers dark enough to read.

The tile backgrounds are the original game's stylesheet colours. Its numbers are not: the original
writes white on the orange and gold tiles (contrast 1.4:1 to 3:1) and grey-brown on 2 and 4
(3.8:1 to 4:1), below the 4.5:1 that WCAG AA asks of text. tilelab keeps every background and
darkens the numbers instead, so each tile's number reaches at least 4.5:1 (a test checks every
value up to 2**17).

Pure data, no drawing library: :func:`tile_style` gives a tile's background and text colour and
:func:`font_fraction` how large its number may be so that every tile's text fits.

>>> tile_style(2), tile_style(8), tile_style(4096)
(('#eee4da', '#5b524a'), ('#f2b179', '#1f1b16'), ('#3c3a32', '#f9f6f2'))
>>> font_fraction(8) > font_fraction(128) > font_fraction(2048) > font_fraction(131072)
True
"""

from __future__ import annotations

import unicodedata

BOARD_COLOR = "#bbada0"  #: the frame and the gaps between cells
BLANK_COLOR = "#cdc1b4"  #: an empty cell
DARK_TEXT = "#5b524a"  #: numbers on the two lightest tiles (the original's #776e65, darkened to 5.9:1)
INK_TEXT = "#1f1b16"  #: numbers on the orange and gold tiles 8 to 2048 (5.4:1 at worst, on 64)
LIGHT_TEXT = "#f9f6f2"  #: numbers on the dark tiles above 2048 (10.6:1)
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
    if value in _DARK_TEXT_TILES:
        return (BLANK_COLOR if value == 0 else TILE_COLORS[value]), DARK_TEXT
    if value in TILE_COLORS:
        return TILE_COLORS[value], INK_TEXT
    return SUPER_TILE, LIGHT_TEXT


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
