"""The sliding engine's module layout: a board in core, moves and parity in their own files, SVG loaded only to draw."""

from __future__ import annotations

import subprocess
import sys

import pytest

import tilelab.sliding as sliding
import tilelab.sliding.core as core
import tilelab.sliding.parity as parity


def test_parity_names_are_public_from_the_package_and_warn_on_their_older_path():
    for name in parity.__all__:
        assert getattr(sliding, name) is getattr(parity, name), name
        assert name not in core.__all__, name
        with pytest.warns(DeprecationWarning, match=f"tilelab.sliding.parity.{name}"):
            assert getattr(core, name) is getattr(parity, name), name


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


def test_parity_imports_on_its_own():
    subprocess.run([sys.executable, "-c", "from tilelab.sliding.parity import is_solvable"], check=True, timeout=120)


def test_moves_imports_on_its_own_and_is_public_from_the_package():
    import tilelab.sliding.moves as moves

    for name in moves.__all__:
        assert getattr(moves, name) is getattr(sliding, name), name
        if name == "parse_move":  # born in moves: core never had it, so it has no older path to warn about
            assert not hasattr(core, name)
            continue
        with pytest.warns(DeprecationWarning, match=f"use tilelab.sliding.moves.{name}"):
            getattr(core, name)
    subprocess.run([sys.executable, "-c", "from tilelab.sliding.moves import play, Slide"], check=True, timeout=120)
