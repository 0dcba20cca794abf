"""Modules split along their seams (issues 20 and 36): each name has one home and one import path (the older paths
were retired in 0.3.0: tests/test_vocabulary.py checks that they are gone); rendering loads lazily."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_2048_palette_is_imported_only_when_a_board_is_drawn():
    code = ("import sys, tilelab.game2048 as g\n"
            "assert 'tilelab.game2048.palette' not in sys.modules, 'palette imported by the engine'\n"
            "g.Board.parse('2 .\\n. 4')._repr_html_()\n"
            "assert 'tilelab.game2048.palette' in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, timeout=120)
