"""Hostile inputs to the widgets' helpers (issue 37): picture uploads bounded like Pillow's own, and the
recording fake canvas bounded so a long headless fuzz run stays small."""

from __future__ import annotations

import io

import numpy as np
import pytest

from tilelab.widgets import testing
from tilelab.widgets.sliding_pictures import MAX_PICTURE_PIXELS, PICTURE_SIDE, load_picture


def _encoded(size: tuple[int, int], fmt: str, mode: str = "L") -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new(mode, size).save(buffer, fmt)
    return buffer.getvalue()


def _png_claiming(width: int, height: int) -> bytes:
    """A small PNG whose header claims ``width`` x ``height`` (its pixels would not decode: never tried)."""
    import struct
    import zlib

    data = bytearray(_encoded((8, 8), "PNG"))
    header = b"IHDR" + struct.pack(">II", width, height) + bytes(data[24:29])
    data[12:29] = header
    data[29:33] = struct.pack(">I", zlib.crc32(header))
    return bytes(data)


def test_the_hunts_12000_px_png_is_refused_before_decoding() -> None:
    """D17: a 136 KB PNG of 12000x12000 px (below Pillow's bomb limit) cost 1.6 GB and 2.3 s to load."""
    import tracemalloc

    data = _png_claiming(12000, 12000)
    tracemalloc.start()
    with pytest.raises(ValueError, match="12000x12000.*MAX_PICTURE_PIXELS.*shrink"):
        load_picture(data)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 16 * 2**20, f"{peak / 2**20:.0f} MB"


def test_pictures_at_the_limit_load_shrunk_to_what_a_board_uses() -> None:
    side = int(MAX_PICTURE_PIXELS**0.5)
    assert load_picture(_encoded((side, side), "PNG")).shape == (PICTURE_SIDE, PICTURE_SIDE, 3)
    with pytest.raises(ValueError, match="MAX_PICTURE_PIXELS"):
        load_picture(_encoded((side + 1, side + 1), "PNG"))
    with pytest.raises(ValueError, match="MAX_PICTURE_PIXELS"):
        load_picture(np.zeros((side + 1, side + 1), np.uint8))
    assert load_picture(_encoded((300, 200), "PNG")).shape == (200, 300, 3)  # small ones are kept as they are


def test_a_large_photo_is_decoded_at_a_reduced_scale() -> None:
    """A JPEG past the limit still loads: Pillow's draft mode decodes it at 1/4 scale, then it is shrunk."""
    picture = load_picture(_encoded((8000, 6400), "JPEG", "RGB"))
    assert picture.shape == (PICTURE_SIDE * 6400 // 8000, PICTURE_SIDE, 3)


def test_the_fake_canvas_keeps_only_recent_calls() -> None:
    """10,000 fuzzed events grew a process to 2.8 GB: every call was kept. Now the last MAX_CALLS are."""
    from tilelab.widgets.game2048 import Game2048Widget

    testing.fresh_kernel()
    board = Game2048Widget(canvas=testing.FakeMultiCanvas(3, 200, 200), rng=1, raise_errors=True)
    layers = [board.canvas, *board.canvas.layers]
    for i in range(400):
        testing.press_key(board, ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown")[i % 4])
        if board.game.over:
            board.new_game()
        testing.client_ready(board)
    made = sum(len(layer.calls) + layer.dropped for layer in layers)
    assert made > testing.MAX_CALLS  # enough drawing to pass the bound ...
    assert all(len(layer.calls) <= testing.MAX_CALLS for layer in layers)  # ... and none kept past it
    assert any(layer.dropped for layer in layers)
    testing.fresh_kernel()
