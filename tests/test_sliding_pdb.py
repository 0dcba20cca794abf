"""Pattern databases: exact sub-problem distances, additivity, and the checksummed disk cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from tilelab.sliding import Board, shuffle
from tilelab.sliding import pdb as pdbmod
from tilelab.sliding.pdb import (
    FORMAT_VERSION,
    PatternDatabase,
    build_table,
    cache_dir,
    cache_path,
    pattern_database,
)
from tilelab.sliding.space import distance_table, rank, unrank

SMALL = [(1, 2, 3), (4, 5)]  # a 2x3 split that builds in milliseconds


@pytest.fixture
def tmp_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TILELAB_CACHE_DIR", str(tmp_path / "cache"))
    pdbmod.forget_memory()
    yield tmp_path / "cache"
    pdbmod.forget_memory()


def test_single_tile_pattern_is_taxicab_distance():
    table = build_table(3, 3, (5,))
    for cell in range(9):
        r, c = divmod(cell, 3)
        assert table[cell] == abs(r - 1) + abs(c - 1)


def test_whole_board_as_one_pattern_is_the_exact_distance():
    db = PatternDatabase.build(2, 3, [(1, 2, 3, 4, 5)])
    table = distance_table(2, 3)
    for r in np.flatnonzero(table >= 0):
        board = Board(unrank(int(r), 6), 2, 3)
        assert db.value(board) == table[r]


def test_additive_pdb_is_admissible_and_beats_each_pattern():
    db = PatternDatabase.build(2, 3, SMALL)
    table = distance_table(2, 3)
    for r in np.flatnonzero(table >= 0):
        board = Board(unrank(int(r), 6), 2, 3)
        values = db.values(board)
        assert sum(values) == db.value(board) <= table[r]


def test_reflected_lookup_is_admissible_and_at_least_plain():
    plain = PatternDatabase.build(3, 3, [(1, 2, 4), (3, 5, 6), (7, 8)])
    mirrored = PatternDatabase(3, 3, plain.patterns, plain.tables, reflect=True)
    table = distance_table(3, 3)
    for r in np.flatnonzero(table >= 0)[::11]:
        board = Board(unrank(int(r), 9), 3, 3)
        assert plain.value(board) <= mirrored.value(board) <= table[r]


def test_bad_patterns_are_refused():
    with pytest.raises(ValueError, match="disjoint"):
        PatternDatabase.build(2, 3, [(1, 2), (2, 3, 4, 5)])
    with pytest.raises(ValueError, match="16 cells"):
        PatternDatabase.build(5, 5, [tuple(range(1, 25))])
    with pytest.raises(ValueError, match="this pattern database is for 2x3"):
        PatternDatabase.build(2, 3, SMALL).value(Board.goal(3, 3))


def test_cache_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("TILELAB_CACHE_DIR", str(tmp_path / "x"))
    assert cache_dir() == tmp_path / "x"
    monkeypatch.delenv("TILELAB_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "tilelab"
    assert cache_path(4, 4, [(1, 2), (3,)]).name == f"pdb-4x4-1.2_3-v{FORMAT_VERSION}.npz"


def test_built_once_then_read_from_disk(tmp_cache):
    calls = []
    db = pattern_database(2, 3, SMALL, progress=lambda done, total, msg: calls.append((done, total)))
    path = cache_path(2, 3, SMALL)
    assert path.exists() and calls and calls[-1][0] == calls[-1][1]  # progress reached 100%
    pdbmod.forget_memory()
    calls.clear()
    again = pattern_database(2, 3, SMALL, progress=lambda *a: calls.append(a))
    assert calls == []  # loaded, not rebuilt
    assert all(np.array_equal(a, b) for a, b in zip(db.tables, again.tables))


def test_missing_cache_is_rebuilt_without_building_when_told_not_to(tmp_cache):
    assert pattern_database(2, 3, SMALL, build=False) is None
    assert not cache_path(2, 3, SMALL).exists()


def test_corrupt_cache_is_detected_and_rebuilt(tmp_cache):
    good = pattern_database(2, 3, SMALL, progress=False)
    path = cache_path(2, 3, SMALL)
    pdbmod.forget_memory()
    path.write_bytes(b"not a database at all")
    with pytest.warns(RuntimeWarning, match="rebuilding"):
        rebuilt = pattern_database(2, 3, SMALL, progress=False)
    assert all(np.array_equal(a, b) for a, b in zip(good.tables, rebuilt.tables))
    PatternDatabase.load(path)  # the rewritten file verifies


def test_checksum_catches_a_changed_table(tmp_cache):
    db = PatternDatabase.build(2, 3, SMALL)
    tampered = PatternDatabase(2, 3, db.patterns, (db.tables[0].copy(), db.tables[1]))
    path = db.save(tmp_cache / "x.npz")
    with np.load(path) as data:
        arrays = dict(data)
    arrays["table0"] = arrays["table0"].copy()
    arrays["table0"][0] ^= 1  # one flipped bit
    np.savez_compressed(path, **arrays)
    with pytest.raises(ValueError, match="checksum"):
        PatternDatabase.load(path)
    assert tampered.nbytes == db.nbytes


def test_wrong_version_is_refused(tmp_cache, monkeypatch):
    path = PatternDatabase.build(2, 3, SMALL).save(tmp_cache / "old.npz")
    monkeypatch.setattr(pdbmod, "FORMAT_VERSION", FORMAT_VERSION + 1)
    with pytest.raises(ValueError, match="format"):
        PatternDatabase.load(path)


def test_numba_and_python_builders_agree():
    """The compiled breadth-first search and its plain-Python run (``TILELAB_NO_JIT=1``) build the same table."""
    code = "from tilelab.sliding.pdb import build_table; print(build_table(2, 3, (2, 4, 5)).tolist())"
    env = dict(os.environ, TILELAB_NO_JIT="1")
    plain = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert build_table(2, 3, (2, 4, 5)).tolist() == json.loads(plain.stdout)


def test_default_3x3_database_solves_and_hint_uses_it(tmp_cache):
    board = shuffle(3, 3, rng=11)
    db = pattern_database(3, 3, progress=False)
    assert db.value(board) <= int(distance_table(3, 3)[rank(board.tiles)])
