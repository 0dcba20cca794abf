"""What every board's Pillow picture shares (stored outputs, reports): colours as RGB, a bold font, PNG bytes.

>>> rgb("#ff8000")
(255, 128, 0)
>>> png_bytes(np.zeros((2, 2, 3), dtype=np.uint8))[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np

__all__ = ["bold_font", "png_bytes", "rgb"]


def rgb(colour: str) -> tuple[int, int, int]:
    """A matplotlib colour (a name or ``#rrggbb``) as the ``(r, g, b)`` bytes Pillow draws with."""
    from matplotlib.colors import to_rgb

    red, green, blue = (int(round(255 * v)) for v in to_rgb(colour))
    return red, green, blue


def bold_font(size: int) -> Any:
    """A bold sans font at ``size`` px (matplotlib's DejaVu, always installed with it)."""
    from PIL import ImageFont

    try:
        from matplotlib import font_manager

        path = font_manager.findfont(font_manager.FontProperties(family="DejaVu Sans", weight="bold"))
        return ImageFont.truetype(path, size)
    except Exception:  # pragma: no cover - a matplotlib without fonts
        return ImageFont.load_default()


def png_bytes(pixels: np.ndarray) -> bytes:
    """An image array (rows x columns x RGB) as PNG bytes."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(pixels)).save(buffer, format="PNG")
    return buffer.getvalue()
