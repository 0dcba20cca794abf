"""Sliding-puzzle stills and pictures: colours, geometry (pixel -> cell), picture loading and
cutting, and :func:`board_picture` (a Pillow image of a position). Pure functions, no widget.

:mod:`tilelab.widgets.sliding` (the playable board) draws with them.

>>> cell_at(150, 150, 3, 3, 300, 300)
(1, 1)
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np

from tilelab.randomness import RngLike, as_generator
from tilelab.sliding import Board
from tilelab.widgets.base import fit_font_size
from tilelab.widgets.pictures import bold_font, rgb

__all__ = [
    "BOARD_COLOUR",
    "CELL_COLOUR",
    "FONT",
    "GAP",
    "HINT_COLOUR",
    "LABEL_BACKDROP",
    "MARGIN",
    "MAX_PICTURE_PIXELS",
    "PICTURE_SIDE",
    "TILE_COLOUR",
    "TILE_DONE_COLOUR",
    "TILE_TEXT",
    "board_origin",
    "board_picture",
    "cell_at",
    "contrast_ratio",
    "crop_to_aspect",
    "cut_tiles",
    "drag_direction",
    "generated_picture",
    "load_picture",
]

MARGIN = 8  # px around the board
GAP = 4  # px between tiles

BOARD_COLOUR = "#bbada0"
CELL_COLOUR = "#cdc1b4"
# white numbers on these blues: 5.3:1 and 8.5:1 (WCAG AA asks 4.5:1; tests/test_widgets_sliding.py checks)
TILE_COLOUR = "#1f70a8"
TILE_DONE_COLOUR = "#12507c"
TILE_TEXT = "#ffffff"
LABEL_BACKDROP = "rgba(0, 0, 0, 0.62)"  # behind numbers on picture tiles: >= 4.5:1 over any picture
HINT_COLOUR = "#f6a623"
FONT = "'Clear Sans', 'Helvetica Neue', Arial, sans-serif"


# ----------------------------------------------------------------------------- geometry


def board_origin(rows: int, cols: int, width: float, height: float, margin: float = MARGIN) -> tuple[float, float, float]:
    """``(x0, y0, cell)``: top-left corner of the grid and the cell size, the grid centred.

    >>> board_origin(3, 3, 316, 316)
    (8.0, 8.0, 100.0)
    """
    cell = min((width - 2 * margin) / cols, (height - 2 * margin) / rows)
    return (width - cols * cell) / 2, (height - rows * cell) / 2, cell


def cell_at(
    x: float, y: float, rows: int, cols: int, width: float, height: float, margin: float = MARGIN
) -> tuple[int, int] | None:
    """The cell ``(row, col)`` under pixel ``(x, y)``, or ``None`` outside the grid.

    Points in the thin gaps between tiles count for the cell they belong to (forgiving taps).

    >>> cell_at(10, 10, 3, 3, 316, 316), cell_at(307, 200, 3, 3, 316, 316)
    ((0, 0), (1, 2))
    >>> cell_at(3, 50, 3, 3, 316, 316) is None     # in the margin
    True
    """
    x0, y0, cell = board_origin(rows, cols, width, height, margin)
    col, row = (x - x0) // cell, (y - y0) // cell
    if 0 <= row < rows and 0 <= col < cols:
        return int(row), int(col)
    return None


def drag_direction(x0: float, y0: float, x1: float, y1: float) -> str:
    """The direction of a drag: the axis it moved most along.

    >>> drag_direction(0, 0, 30, -5), drag_direction(0, 0, 2, -40)
    ('right', 'up')
    """
    dx, dy = x1 - x0, y1 - y0
    if abs(dx) >= abs(dy):
        return "right" if dx > 0 else "left"
    return "down" if dy > 0 else "up"


def linear_channel(channel: float) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def contrast_ratio(a: tuple[int, int, int] | str, b: tuple[int, int, int] | str) -> float:
    """WCAG contrast ratio of two colours (1 = same, 21 = black on white).

    >>> round(contrast_ratio("#ffffff", "#000000"), 1), round(contrast_ratio(TILE_TEXT, TILE_COLOUR), 1)
    (21.0, 5.3)
    """
    def luminance(colour: tuple[int, int, int] | str) -> float:
        if isinstance(colour, str):
            colour = tuple(int(colour.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4))  # type: ignore[assignment]
        r, g, b = (linear_channel(v) for v in colour)  # type: ignore[union-attr]
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


# ----------------------------------------------------------------------------- pictures


def generated_picture(size: int = 480, rng: RngLike = None) -> np.ndarray:
    """A picture drawn by the project (nothing downloaded): a house with a tree under the sun.

    Sky, sun, clouds, hills, a red-roofed house with windows and a door, a tree and flowers: every
    tile shows a different recognisable part, so the picture puzzle can be solved by looking.
    ``rng`` (a seed, 0 when none is given, or a Generator) moves the clouds and flowers.

    >>> img = generated_picture(64, rng=3)
    >>> img.shape, img.dtype.name
    ((64, 64, 3), 'uint8')
    """
    if size < 8:
        raise ValueError(f"picture size must be at least 8 px, got {size}")
    from PIL import Image, ImageDraw

    rng = as_generator(0 if rng is None else rng)
    big = 2 * size  # drawn at twice the size and scaled down: smooth edges
    u = big / 100  # one unit = 1 % of the side

    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        return (x0 * u, y0 * u, x1 * u, y1 * u)

    sky = np.linspace(0, 1, big)[:, None, None]
    top, horizon = np.array([70, 130, 210]), np.array([185, 222, 250])
    image = Image.fromarray(np.repeat((top + (horizon - top) * sky).astype(np.uint8), big, axis=1))
    draw = ImageDraw.Draw(image)
    # the sun with rays (top right)
    for k in range(12):
        angle = k * np.pi / 6
        x, y = 80 + 13 * np.cos(angle), 18 + 13 * np.sin(angle)
        draw.line([(80 * u, 18 * u), (x * u, y * u)], fill=(255, 200, 40), width=int(1.6 * u))
    draw.ellipse(box(71, 9, 89, 27), fill=(255, 214, 60), outline=(245, 170, 20), width=int(u))
    # clouds
    for _ in range(2):
        cx, cy = rng.uniform(12, 55), rng.uniform(8, 24)
        for dx, dy, r in ((0, 0, 6), (6, 1, 5), (-6, 1, 5), (2, -3, 5)):
            draw.ellipse(box(cx + dx - r, cy + dy - r, cx + dx + r, cy + dy + r), fill=(250, 250, 252))
    # hills and grass
    draw.ellipse(box(-30, 50, 60, 110), fill=(120, 180, 90))
    draw.ellipse(box(40, 55, 140, 115), fill=(100, 165, 75))
    draw.rectangle(box(0, 75, 100, 100), fill=(90, 160, 70))
    # the house: walls, roof, chimney, windows, door
    draw.rectangle(box(12, 50, 52, 82), fill=(240, 225, 190), outline=(120, 90, 60), width=int(u))
    draw.polygon([(8 * u, 51 * u), (32 * u, 30 * u), (56 * u, 51 * u)], fill=(200, 50, 45), outline=(120, 30, 30))
    draw.rectangle(box(42, 33, 48, 44), fill=(150, 70, 50))
    for wx in (16, 38):
        draw.rectangle(box(wx, 56, wx + 10, 66), fill=(130, 200, 240), outline=(90, 60, 40), width=int(u))
        draw.line([(wx * u + 5 * u, 56 * u), (wx * u + 5 * u, 66 * u)], fill=(90, 60, 40), width=int(u * 0.8))
        draw.line([(wx * u, 61 * u), (wx * u + 10 * u, 61 * u)], fill=(90, 60, 40), width=int(u * 0.8))
    draw.rectangle(box(28, 64, 36, 82), fill=(110, 70, 40))
    draw.ellipse(box(33.5, 72, 35, 73.5), fill=(240, 200, 60))
    # the tree
    draw.rectangle(box(71, 55, 77, 84), fill=(120, 80, 45))
    for cx, cy, r in ((74, 46, 13), (66, 52, 8), (82, 52, 8)):
        draw.ellipse(box(cx - r, cy - r, cx + r, cy + r), fill=(40, 130, 55))
    for _ in range(5):  # apples
        ax, ay = rng.uniform(64, 84), rng.uniform(38, 56)
        draw.ellipse(box(ax - 1.5, ay - 1.5, ax + 1.5, ay + 1.5), fill=(220, 40, 40))
    # a path and flowers
    draw.polygon([(28 * u, 82 * u), (36 * u, 82 * u), (44 * u, 100 * u), (22 * u, 100 * u)], fill=(215, 190, 140))
    colours = [(250, 90, 140), (255, 220, 60), (170, 110, 230), (255, 255, 255)]
    for _ in range(14):
        fx, fy = rng.uniform(2, 98), rng.uniform(86, 98)
        if 20 < fx < 46:
            continue
        colour = colours[int(rng.integers(len(colours)))]
        draw.ellipse(box(fx - 1.4, fy - 1.4, fx + 1.4, fy + 1.4), fill=colour)
    return np.asarray(image.resize((size, size), Image.LANCZOS))


def hsv_to_rgb(h: np.ndarray, s: np.ndarray, v: np.ndarray) -> np.ndarray:
    i = np.floor(h * 6).astype(int) % 6
    f = h * 6 - np.floor(h * 6)
    p, q, t = v * (1 - s), v * (1 - f * s), v * (1 - (1 - f) * s)
    choices = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)]
    rgb = np.zeros(h.shape + (3,))
    for k, (r, g, b) in enumerate(choices):
        mask = i == k
        rgb[mask] = np.stack([r[mask], g[mask], b[mask]], axis=-1)
    return rgb


#: The most pixels a picture may have: a 24-megapixel photo (6000 x 4000). Checked from the file's header
#: before anything is decoded, as Pillow checks its own (far larger) decompression-bomb limit. A JPEG is
#: decoded at 1/2, 1/4 or 1/8 scale when that still covers :data:`PICTURE_SIDE`, so larger photos load too.
MAX_PICTURE_PIXELS = 6000 * 4000
#: The longest side a board uses of a picture (a 1000-px board on a double-density screen): a larger
#: picture is shrunk to it when read.
PICTURE_SIDE = 2048


def _check_pixels(width: int, height: int) -> None:
    if width * height > MAX_PICTURE_PIXELS:
        raise ValueError(f"the picture is {width}x{height} pixels ({width * height / 1e6:.0f} megapixels), more than "
                         f"MAX_PICTURE_PIXELS={MAX_PICTURE_PIXELS:,} and far more than a board shows; shrink it "
                         f"to at most {PICTURE_SIDE} pixels a side first")


def load_picture(source: Any) -> np.ndarray:
    """Read a picture (path, bytes, file object, PIL image or array) as an RGB uint8 array.

    Photos are turned upright by their EXIF orientation, as a phone's gallery shows them. A picture
    over :data:`MAX_PICTURE_PIXELS` is refused before it is decoded; one whose longer side passes
    :data:`PICTURE_SIDE` is shrunk to it (an array is taken as it is).
    """
    import warnings

    from PIL import Image, ImageOps

    if isinstance(source, np.ndarray):
        arr = source
        if arr.ndim == 2:
            arr = np.stack([arr] * 3, axis=-1)
        if arr.ndim != 3 or arr.shape[2] not in (3, 4):
            raise ValueError(f"a picture array must be HxWx3 (or x4), got shape {arr.shape}")
        _check_pixels(arr.shape[1], arr.shape[0])
        if arr.dtype != np.uint8:
            arr = (np.clip(arr, 0, 1) * 255).astype(np.uint8) if arr.dtype.kind == "f" else arr.astype(np.uint8)
        return np.ascontiguousarray(arr[..., :3])
    if isinstance(source, Image.Image):
        image = source
        _check_pixels(*image.size)
    else:
        if isinstance(source, (bytes, bytearray, memoryview)):
            source = io.BytesIO(bytes(source))
        elif isinstance(source, (str, Path)) and not Path(source).exists():
            raise ValueError(f"no picture file at {str(source)!r}")
        try:
            with warnings.catch_warnings():  # Pillow warns past its own limit; the check below says more
                warnings.simplefilter("ignore", Image.DecompressionBombWarning)
                image = Image.open(source)
            if image.format == "JPEG":
                image.draft("RGB", (PICTURE_SIDE, PICTURE_SIDE))  # decode at the smallest scale still covering it
        except Exception as exc:  # PIL raises several types for unreadable files
            raise ValueError(f"cannot read the picture ({exc}); use a PNG, JPEG, GIF, BMP or WebP file") from None
        _check_pixels(*image.size)  # from the header: nothing decoded yet
        try:
            image.load()
        except Exception as exc:
            raise ValueError(f"cannot read the picture ({exc}); use a PNG, JPEG, GIF, BMP or WebP file") from None
    image = ImageOps.exif_transpose(image)
    if max(image.size) > PICTURE_SIDE:
        image = image.copy() if image is source else image
        image.thumbnail((PICTURE_SIDE, PICTURE_SIDE))
    return np.asarray(image.convert("RGB"))


def crop_to_aspect(image: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Cut the centre of ``image`` to the board's shape (``cols`` wide by ``rows`` high).

    >>> crop_to_aspect(np.zeros((100, 300, 3)), 4, 4).shape
    (100, 100, 3)
    >>> crop_to_aspect(np.zeros((100, 300, 3)), 2, 3).shape
    (100, 150, 3)
    """
    h, w = image.shape[:2]
    if w * rows > h * cols:  # too wide
        new_w = max(1, round(h * cols / rows))
        left = (w - new_w) // 2
        return image[:, left : left + new_w]
    new_h = max(1, round(w * rows / cols))
    top = (h - new_h) // 2
    return image[top : top + new_h]


def cut_tiles(
    image: np.ndarray, rows: int, cols: int, tile_px: int, *, with_blank: bool = False
) -> dict[int, np.ndarray]:
    """Crop to the board's aspect, scale to ``tile_px`` per cell and cut: tile -> its piece.

    Tile ``t`` gets the piece of its goal cell; the bottom-right piece (the blank's) is left out
    unless ``with_blank`` (then it is under key ``0``, shown when the puzzle is solved).

    >>> pieces = cut_tiles(generated_picture(90), 3, 3, 20)
    >>> sorted(pieces) == list(range(1, 9)), pieces[1].shape
    (True, (20, 20, 3))
    """
    from PIL import Image

    cropped = crop_to_aspect(load_picture(image), rows, cols)
    scaled = np.asarray(
        Image.fromarray(np.ascontiguousarray(cropped)).resize((cols * tile_px, rows * tile_px), Image.LANCZOS)
    )
    pieces = {}
    for tile in range(1, rows * cols):
        r, c = divmod(tile - 1, cols)
        pieces[tile] = scaled[r * tile_px : (r + 1) * tile_px, c * tile_px : (c + 1) * tile_px]
    if with_blank:
        pieces[0] = scaled[(rows - 1) * tile_px :, (cols - 1) * tile_px :]
    return pieces


def clock_text(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}:{secs:02d}"


def board_picture(board: Board, width: int = 400, height: int | None = None, *, picture: Any = None,
                  show_numbers: bool = True) -> Any:
    """A sliding puzzle drawn with Pillow in the board's colours (numbers, or a picture's pieces).

    >>> board_picture(Board.goal(3, 3), 200).size
    (200, 200)
    """
    from PIL import Image, ImageDraw


    height = width if height is None else height
    image = Image.new("RGB", (int(width), int(height)), "white")
    draw = ImageDraw.Draw(image)
    x0, y0, cell = board_origin(board.rows, board.cols, width, height)
    draw.rectangle((x0 - MARGIN / 2, y0 - MARGIN / 2, x0 + board.cols * cell + MARGIN / 2,
                    y0 + board.rows * cell + MARGIN / 2), fill=rgb(BOARD_COLOUR))
    side = max(1, int(cell - GAP))
    pieces = cut_tiles(picture, board.rows, board.cols, side) if picture is not None else {}
    size = fit_font_size(str(board.cell_count - 1), side, side, max_size=side * 0.5)
    label = max(8, int(size * (0.45 if pieces else 1)))
    font = bold_font(label)
    for index, tile in enumerate(board.tiles):
        r, c = divmod(index, board.cols)
        x, y = int(x0 + c * cell + GAP / 2), int(y0 + r * cell + GAP / 2)
        if tile == 0:
            draw.rectangle((x, y, x + side - 1, y + side - 1), fill=rgb(CELL_COLOUR))
        elif pieces:
            image.paste(Image.fromarray(np.ascontiguousarray(pieces[tile])), (x, y))
            if show_numbers:
                draw.rectangle((x + 2, y + 2, x + 2 + label * 1.6, y + 2 + label * 1.3), fill=(33, 33, 33))
                draw.text((x + 2 + label * 0.8, y + 2 + label * 0.65), str(tile), fill=rgb(TILE_TEXT),
                          font=font, anchor="mm")
        else:
            home = divmod(tile - 1, board.cols) == (r, c)
            draw.rectangle((x, y, x + side - 1, y + side - 1), fill=rgb(TILE_DONE_COLOUR if home else TILE_COLOUR))
            draw.text((x + side / 2, y + side / 2), str(tile), fill=rgb(TILE_TEXT), font=font, anchor="mm")
    return image

