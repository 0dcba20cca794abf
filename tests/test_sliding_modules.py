"""The sliding engine's module layout: a board in core, moves and parity in their own files, SVG loaded only to draw."""

from __future__ import annotations

import subprocess
import sys

import tilelab.sliding as sliding
import tilelab.sliding.core as core
import tilelab.sliding.parity as parity


def test_parity_names_are_public_from_the_package_and_only_there():
    for name in parity.__all__:
        assert getattr(sliding, name) is getattr(parity, name), name
        assert not hasattr(core, name), name


def test_exercises_allow_lists_resolve_to_the_parity_functions():
    from tilelab.exercises.allow import resolve

    assert {parity.inversions.__code__, parity.is_solvable.__code__} <= resolve(
        ["tilelab.sliding.parity:inversions", "tilelab.sliding:is_solvable"])
    assert resolve(["tilelab.sliding.parity:inversions"]) == resolve(["tilelab.sliding:inversions"])


def test_svg_is_imported_only_when_a_board_is_drawn():
    code = (
        "import sys, tilelab.sliding as s\n"
        "b = s.shuffle(3, 3, rng=1); s.is_solvable(b); str(b)\n"
        "assert 'tilelab.sliding.svg' not in sys.modules, 'svg loaded without drawing'\n"
        "svg = b._repr_svg_()\n"
        "assert 'tilelab.sliding.svg' in sys.modules and svg.startswith('<svg')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_the_picture_reads_plain_data_and_imports_no_engine():
    """No circle core -> svg -> core: the SVG module imports nothing of tilelab, not even for the type checker."""
    import ast
    from pathlib import Path

    source = Path(sliding.__file__).with_name("svg.py").read_text(encoding="utf-8")
    assert not [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ImportFrom) and "tilelab" in (n.module or "")]


def test_parity_imports_on_its_own():
    subprocess.run([sys.executable, "-c", "from tilelab.sliding.parity import is_solvable"], check=True, timeout=120)


def test_moves_imports_on_its_own_and_is_public_from_the_package():
    import tilelab.sliding.moves as moves

    for name in moves.__all__:
        assert getattr(moves, name) is getattr(sliding, name), name
        assert not hasattr(core, name), name
    subprocess.run([sys.executable, "-c", "from tilelab.sliding.moves import play, Slide"], check=True, timeout=120)
