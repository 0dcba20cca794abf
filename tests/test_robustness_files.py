"""Damaged, truncated and foreign files: one clear ValueError (or a rebuild), never a raw error or an open file.

A seeded bit-flip sweep over every file kind tilelab writes (pattern database, n-tuple weights compressed
and not, saved 2048 games and game records), then hand-crafted foreign files.
"""

from __future__ import annotations

import gc
import json
import warnings
from pathlib import Path

import numpy as np
import pytest

from tilelab.game2048 import Game
from tilelab.game2048.records import GameRecord, play_game
from tilelab.game2048.ai import RandomPlayer
from tilelab.game2048.learning import ntuple_players
from tilelab.game2048.learning.ntuple_net import NTupleNetwork
from tilelab.sliding import pdb as P

FLIPS = 60  # per file kind: seeded, so a failure replays exactly


def _flips(data: bytes, seed: int):
    """``FLIPS`` copies of ``data``, each with one random bit flipped (seeded)."""
    rng = np.random.default_rng(seed)
    for _ in range(FLIPS):
        damaged = bytearray(data)
        damaged[int(rng.integers(len(damaged)))] ^= 1 << int(rng.integers(8))
        yield bytes(damaged)


def _sweep(path: Path, original: bytes, seed: int, load, same) -> tuple[int, int]:
    """Flip bits, load: each load either raises ValueError or gives back exactly the original content."""
    refused = handled = 0
    for damaged in _flips(original, seed):
        path.write_bytes(damaged)
        try:
            loaded = load(path)
        except ValueError as exc:
            assert "\n" not in str(exc), "the report must be one line"
            refused += 1
        else:
            assert same(loaded), "a damaged file loaded with different content"
            handled += 1
    assert refused + handled == FLIPS  # every damaged copy was refused clearly or loaded unchanged
    return refused, handled


@pytest.fixture(scope="module")
def small_db() -> P.PatternDatabase:
    return P.PatternDatabase.build(2, 3, [(1, 2), (3, 4, 5)])


def test_bit_flips_in_a_pattern_database(tmp_path: Path, small_db: P.PatternDatabase) -> None:
    path = small_db.save(tmp_path / "db.npz")
    same = lambda db: all(np.array_equal(a, b) for a, b in zip(db.tables, small_db.tables))  # noqa: E731
    refused, _ = _sweep(path, path.read_bytes(), 1, P.PatternDatabase.load, same)
    assert refused > FLIPS // 2


@pytest.mark.parametrize("compress", [True, False])
def test_bit_flips_in_an_ntuple_weight_file(tmp_path: Path, compress: bool) -> None:
    net = NTupleNetwork([(0, 1), (4, 5, 6)])
    net.train(3, rng=0)
    path = net.save(tmp_path / "net.npz", compress=compress)
    same = lambda n: np.array_equal(n.weights, net.weights) and n.tuples == net.tuples  # noqa: E731
    refused, _ = _sweep(path, path.read_bytes(), 2 + compress, NTupleNetwork.load, same)
    assert refused > 0


def test_bit_flips_in_saved_games_and_records(tmp_path: Path) -> None:
    game = Game(rng=3)
    for d in ["left", "up", "right", "down"] * 5:
        game.play(d)
    text = game.to_json().encode()
    path = tmp_path / "game.json"
    same = lambda g: g.board == game.board and g.score == game.score  # noqa: E731
    _sweep(path, text, 4, lambda p: Game.from_json(p.read_bytes()), lambda g: True)
    record = play_game(RandomPlayer(rng=1), rng=2, max_moves=30)
    _sweep(path, record.to_json().encode(), 5, lambda p: GameRecord.from_json(p.read_bytes()), lambda r: True)
    assert same(Game.from_json(text))


def test_the_issue_reproduction_is_rebuilt_with_a_one_line_warning(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("TILELAB_CACHE_DIR", str(tmp_path))
    P.forget_memory()
    from tilelab.sliding import shuffle, solve

    P.pattern_database(3, 3, progress=False)
    path = P.cache_path(3, 3, P.DEFAULT_PATTERNS[(3, 3)])
    damaged = bytearray(path.read_bytes())
    damaged[200] ^= 0x10
    path.write_bytes(damaged)
    P.forget_memory()
    with pytest.warns(RuntimeWarning, match="rebuilding the pattern database") as caught:
        result = solve(shuffle(3, 3, rng=5))
    assert result.optimal and "\n" not in str(caught[0].message)
    P.forget_memory()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # rebuilt and saved: the next load is clean
        P.pattern_database(3, 3, progress=False)
    P.forget_memory()


def test_a_database_for_another_board_at_the_3x3_path_is_refused_and_rebuilt(tmp_path: Path, monkeypatch,
                                                                               small_db) -> None:
    monkeypatch.setenv("TILELAB_CACHE_DIR", str(tmp_path))
    P.forget_memory()
    path = P.cache_path(3, 3, P.DEFAULT_PATTERNS[(3, 3)])
    small_db.save(path)  # a 2x3 database copied to the 3x3 name
    with pytest.raises(ValueError, match="for 2x3 boards, not 3x3"):
        P.PatternDatabase.load(path, rows=3, cols=3)
    with pytest.warns(RuntimeWarning, match="for 2x3 boards"):
        db = P.pattern_database(3, 3, progress=False)
    assert (db.rows, db.cols) == (3, 3)
    with pytest.raises(ValueError, match="patterns"):
        P.PatternDatabase.load(path, rows=3, cols=3, patterns=[(1, 2, 3, 4, 5), (6, 7, 8)])
    P.forget_memory()


def _header_npz(path: Path, header: object, **arrays: np.ndarray) -> Path:
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), np.uint8)
    with open(path, "wb") as handle:
        np.savez(handle, **arrays)
    return path


@pytest.mark.parametrize("case", ["npy", "list", "no-sha", "short-sha", "bad-rows", "huge", "float-tile", "empty",
                                  "text"])
def test_crafted_pattern_database_files_are_clear_value_errors(tmp_path: Path, small_db, case: str) -> None:
    good = {"format": 1, "rows": 2, "cols": 3, "patterns": [[1, 2], [3, 4, 5]],
            "sha256": ["0" * 64, "0" * 64], "build_seconds": 0.1}
    tables = {f"table{i}": t for i, t in enumerate(small_db.tables)}
    path = tmp_path / "db.npz"
    if case == "npy":
        np.save(open(path, "wb"), np.zeros(5))
    elif case == "list":
        _header_npz(path, [1, 2, 3], **tables)
    elif case == "no-sha":
        _header_npz(path, {k: v for k, v in good.items() if k != "sha256"}, **tables)
    elif case == "short-sha":
        _header_npz(path, {**good, "sha256": ["0" * 64]}, **tables)
    elif case == "bad-rows":
        _header_npz(path, {**good, "rows": "2"}, **tables)
    elif case == "huge":
        _header_npz(path, {**good, "patterns": [[1, 2, 3, 4, 5, 6, 7]] * 2, "rows": 4, "cols": 4}, **tables)
    elif case == "float-tile":
        _header_npz(path, {**good, "patterns": [[1.5, 2], [3, 4, 5]]}, **tables)
    elif case == "empty":
        path.write_bytes(b"")
    else:
        path.write_text("PK not really a zip")
    with warnings.catch_warnings():
        warnings.simplefilter("error", ResourceWarning)
        with pytest.raises(ValueError, match="pattern database"):
            P.PatternDatabase.load(path)
        gc.collect()  # a file left open would warn (an error here) when collected


@pytest.mark.parametrize("case", ["npy", "list", "no-sha", "bool-version", "float-cells"])
def test_crafted_weight_files_are_clear_value_errors(tmp_path: Path, case: str) -> None:
    net = NTupleNetwork([(0, 1)])
    header = net.header()
    path = tmp_path / "net.npz"
    if case == "npy":
        np.save(open(path, "wb"), net.weights)
    elif case == "list":
        _header_npz(path, [header], weights=net.weights)
    elif case == "no-sha":
        _header_npz(path, {k: v for k, v in header.items() if k != "sha256"}, weights=net.weights)
    elif case == "bool-version":
        _header_npz(path, {**header, "version": True}, weights=net.weights)
    else:
        _header_npz(path, {**header, "tuples": [[0.5, 1]]}, weights=net.weights)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ResourceWarning)
        with pytest.raises(ValueError, match="n-tuple network"):
            NTupleNetwork.load(path)
        gc.collect()


def test_a_damaged_shipped_net_says_how_to_rebuild_it(tmp_path: Path, monkeypatch) -> None:
    damaged = bytearray(ntuple_players.LESSON_NET.read_bytes())
    damaged[len(damaged) // 2] ^= 0x40
    copy = tmp_path / "ntuple-classroom.npz"
    copy.write_bytes(bytes(damaged))
    monkeypatch.setattr(ntuple_players, "LESSON_NET", copy)
    with pytest.raises(ValueError, match="shipped net is damaged.*reinstall.*train_2048_td.py"):
        ntuple_players.lesson_network()
    monkeypatch.setattr(ntuple_players, "LESSON_NET", tmp_path / "missing.npz")
    with pytest.raises(ValueError, match="missing.*reinstall"):
        ntuple_players.lesson_network()
