"""The compact n-tuple net file, the shipped strong player, and the strong-player benchmark's bookkeeping."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from tilelab.game2048 import Board, legal_moves
from tilelab.jit import py_func
from tilelab.game2048.fast.bitboard import to_bitboard
from tilelab.game2048.learning.ntuple_compact import (
    COMPACT_FORMAT,
    ENCODINGS,
    CompactNetwork,
    compact_weights,
    load_compact,
    load_network,
    save_compact,
)
from tilelab.game2048.learning.ntuple_net import WU_YEH_TUPLES, NTupleNetwork
from tilelab.game2048.learning.ntuple_players import TDExpectimax, TDPlayer, strong_network, strong_player
from tilelab.game2048.learning import ntuple_compact
from tilelab.game2048.learning.ntuple_kernels import compact_weight, net_value

ROOT = Path(__file__).resolve().parents[1]


def _bytes_sha256(array: np.ndarray) -> str:
    """The SHA-256 of an array's bytes in C order (what a saved net records as its weights' digest)."""
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


bench = _script("bench_2048_strong")
make = _script("make_strong_net")


@pytest.fixture(scope="module")
def trained() -> NTupleNetwork:
    """A small net trained a little: most weights untouched (0), the others of all sizes."""
    net = NTupleNetwork([(0, 1, 2, 3), (0, 1, 4, 5)], name="small")
    net.train(300, rng=7, alpha=0.1, block=100)
    return net


@pytest.fixture()
def full_file(trained, tmp_path) -> Path:
    return trained.save(tmp_path / "full.npz")


@pytest.fixture()
def compact_file(trained, tmp_path) -> Path:
    return save_compact(trained, tmp_path / "compact.npz")


# ------------------------------------------------------------------------------ the format
def test_round_trip_keeps_zeros_and_stays_within_half_a_step(trained, compact_file):
    back = load_compact(compact_file)
    assert back.tuples == trained.tuples and back.name == "small"
    assert back.training["games"] == 300 and back.training["curve"] == trained.training["curve"]
    assert np.array_equal(back.weights, compact_weights(trained))
    assert np.all(back.weights[trained.weights == 0] == 0)
    for offset, cells in zip(trained.offsets, trained.tuples):
        table = slice(offset, offset + 16 ** len(cells))
        step = np.abs(trained.weights[table]).max() / 32767
        assert np.abs(back.weights[table].astype(np.float64) - trained.weights[table]).max() <= step / 2 + 1e-9
    assert 0 < np.count_nonzero(back.weights) < back.weights.size // 2  # sparse: the layout pays off


def test_compact_file_is_smaller_than_the_compressed_full_one(trained, full_file, compact_file):
    assert compact_file.stat().st_size < full_file.stat().st_size
    assert compact_file.stat().st_size * 10 < trained.memory_bytes


def test_loaded_net_plays_with_the_usual_players(trained, compact_file):
    back = load_compact(compact_file)
    board = Board.parse("2 4 8 16\n. 2 . .\n. . 4 .\n. . . 2")
    assert TDPlayer(back)(board) == TDPlayer(trained)(board)
    assert TDExpectimax(back, depth=2)(board) in legal_moves(board)


def test_float16_and_coarser_steps(trained, tmp_path):
    half = load_compact(save_compact(trained, tmp_path / "half.npz", encoding="float16"))
    assert np.array_equal(half.weights, trained.weights.astype(np.float16).astype(np.float32))
    fine, coarse = compact_weights(trained, bits=16), compact_weights(trained, bits=10)
    error = lambda w: np.abs(w.astype(np.float64) - trained.weights).max()  # noqa: E731
    assert error(fine) < error(coarse) <= np.abs(trained.weights).max() / 511 / 2 + 1e-9
    assert np.array_equal(load_compact(save_compact(trained, tmp_path / "c.npz", bits=10)).weights, coarse)


@pytest.mark.parametrize("kwargs, message", [({"encoding": "int8"}, "encoding"), ({"bits": 17}, "bits"),
                                             ({"bits": True}, "bits"), ({"encoding": "float16", "bits": 12}, "int16")])
def test_bad_settings_are_refused(trained, tmp_path, kwargs, message):
    with pytest.raises(ValueError, match=message):
        save_compact(trained, tmp_path / "x.npz", **kwargs)


def test_weights_too_large_for_float16_or_not_finite_are_refused(tmp_path):
    net = NTupleNetwork([(0, 1)])
    net.weights[3] = 1e6
    with pytest.raises(ValueError, match="float16"):
        save_compact(net, tmp_path / "x.npz", encoding="float16")
    net.weights[3] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        save_compact(net, tmp_path / "x.npz")


def _rewrite(path: Path, change) -> None:
    """Rewrite a compact file's members through ``change(name, bytes) -> bytes``."""
    with zipfile.ZipFile(path) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, change(name, data))


def _with_header(path: Path, edit) -> None:
    def change(name, data):
        if name != "header.npy":
            return data
        import io
        raw = np.lib.format.read_array(io.BytesIO(data))
        header = json.loads(raw.tobytes())
        edit(header)
        out = io.BytesIO()
        np.lib.format.write_array(out, np.frombuffer(json.dumps(header).encode(), np.uint8))
        return out.getvalue()
    _rewrite(path, change)


@pytest.mark.parametrize("edit, message", [
    (lambda h: h.update(sha256="0" * 64), "SHA-256"),
    (lambda h: h.update(weights_sha256="0" * 64), "decoded weights fail"),
    (lambda h: h.update(version=2), "version"),
    (lambda h: h.update(scales=[1.0]), "scales"),
    (lambda h: h.update(kept=h["kept"] + 1), "values"),
    (lambda h: h.update(encoding="int4"), "encoding"),
    (lambda h: h.pop("tuples"), "tuples"),
])
def test_damaged_header_is_a_value_error_saying_how_to_rebuild(compact_file, edit, message):
    _with_header(compact_file, edit)
    with pytest.raises(ValueError, match=message) as info:
        load_compact(compact_file)
    assert "make_strong_net.py" in str(info.value)


def test_flipped_value_byte_fails_the_checksum(compact_file):
    def flip(name, data):
        if name != "values.npy":
            return data
        data = bytearray(data)
        data[-1] ^= 0x40
        return bytes(data)
    _rewrite(compact_file, flip)
    with pytest.raises(ValueError, match="SHA-256.*make_strong_net.py"):
        load_compact(compact_file)


def test_truncated_file_and_wrong_kind_are_value_errors(compact_file, full_file):
    data = compact_file.read_bytes()
    compact_file.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="damaged.*make_strong_net.py"):
        load_compact(compact_file)
    with pytest.raises(ValueError, match=COMPACT_FORMAT):
        load_compact(full_file)


def test_load_network_reads_either_kind(trained, full_file, tmp_path):
    compact = save_compact(trained, tmp_path / "c.npz")
    assert np.array_equal(load_network(full_file).weights, trained.weights)
    assert np.array_equal(load_network(compact).weights, compact_weights(trained))


# ------------------------------------------------------------------------------ kept compact in memory
@pytest.fixture(scope="module")
def odd_net() -> NTupleNetwork:
    """Tables that do not start on a 64-weight boundary (a 1-cell and a 2-cell tuple first), trained a little."""
    net = NTupleNetwork([(0,), (1, 2), (0, 1, 4, 5)], name="odd")
    net.train(200, rng=5, alpha=0.1, block=100)
    return net


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_compact_in_memory_reads_every_weight_as_the_float32_tables(odd_net, tmp_path, encoding):
    path = save_compact(odd_net, tmp_path / "odd.npz", encoding=encoding)
    small, dense = CompactNetwork.load(path), load_compact(path)
    assert small.kept == np.count_nonzero(dense.weights) and small.sha256 == _bytes_sha256(dense.weights)
    assert np.array_equal(small.to_network().weights, dense.weights)
    blocks, values, _ = small.tables
    compiled, plain = compact_weight, py_func(compact_weight)
    for t, (offset, cells) in enumerate(zip(dense.offsets, dense.tuples)):
        every = range(int(offset), int(offset) + 16 ** len(cells))
        read = [compiled(blocks, values, small.scales[t], i) for i in every]
        assert read == [float(w) for w in dense.weights[every.start:every.stop]]
        assert [plain(blocks, values, small.scales[t], i) for i in every[::97]] == read[::97]


def test_compact_in_memory_gives_the_same_values_and_moves(odd_net, tmp_path):
    path = save_compact(odd_net, tmp_path / "odd.npz")
    small, dense = CompactNetwork.load(path), load_compact(path)
    boards = np.random.default_rng(3).integers(0, 2**63, size=500, dtype=np.uint64)
    assert np.array_equal(small.values_bits(boards), dense.values_bits(boards))
    plain = py_func(net_value)
    for bits in boards[:20]:
        assert plain(bits, small.tables, *small.layout) == dense.value_bits(int(bits))
    board = Board.parse("2 4 8 16\n. 2 . .\n. . 4 .\n. . . 2")
    assert TDPlayer(small).think(board).values == TDPlayer(dense).think(board).values
    assert TDExpectimax(small, depth=2).think(board).values == TDExpectimax(dense, depth=2).think(board).values
    assert small.value(board) == dense.value(board) and small.curve == dense.curve


def test_compact_in_memory_refuses_what_does_not_fit(odd_net, tmp_path):
    small = CompactNetwork.load(save_compact(odd_net, tmp_path / "odd.npz"))
    with pytest.raises(ValueError, match="blocks must be uint64"):
        CompactNetwork(small.tuples, small.blocks[:-1], small.values, small.scales)
    with pytest.raises(ValueError, match="one scale per tuple"):
        CompactNetwork(small.tuples, small.blocks, small.values, small.scales[:1])
    with pytest.raises(TypeError, match="NTupleNetwork or a CompactNetwork"):
        TDPlayer(small.tables)


# ------------------------------------------------------------------------------ the shipped strong player
def test_strong_player_uses_the_shipped_file(trained, compact_file, monkeypatch):
    monkeypatch.setattr(ntuple_compact, "STRONG_NET", compact_file)
    assert np.array_equal(strong_network().to_network().weights, compact_weights(trained))
    player = strong_player()
    assert isinstance(player, TDExpectimax) and player.budget.depth == 3
    assert strong_player(2).budget.depth == 2
    assert strong_player(ms_per_move=5).budget.ms_per_move == 5
    board = Board.parse("2 2 . .\n. . . .\n. . . .\n. . . 4")
    assert player(board) in legal_moves(board)


def test_missing_strong_net_names_the_commands_that_build_it(tmp_path, monkeypatch):
    monkeypatch.setattr(ntuple_compact, "STRONG_NET", tmp_path / "nope.npz")
    with pytest.raises(ValueError, match="missing.*train_2048_td.py.*make_strong_net.py"):
        strong_player()


def test_damaged_strong_net_says_restore_or_rebuild(compact_file, monkeypatch):
    monkeypatch.setattr(ntuple_compact, "STRONG_NET", compact_file)
    compact_file.write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="git checkout tilelab/data/ntuple-strong.npz"):
        strong_network()


# ------------------------------------------------------------------------------ make_strong_net.py
def test_make_strong_net_writes_a_checked_file_and_reports_agreement(full_file, tmp_path, capsys):
    out = tmp_path / "strong.npz"
    assert make.main(["--full", str(full_file), "--out", str(out), "--positions", "40", "--stride", "5",
                      "--depths", "1,2"]) == 0
    text = capsys.readouterr().out
    assert "same move depth 1:" in text and "max |w error|" in text and "loads in" in text
    assert load_compact(out).training["games"] == 300


def test_make_strong_net_refuses_a_file_over_the_limit(full_file, tmp_path, capsys):
    out = tmp_path / "strong.npz"
    assert make.main(["--full", str(full_file), "--out", str(out), "--positions", "10", "--depths", "1",
                      "--max-mb", "0.001"]) == 1
    assert not out.exists() and not (tmp_path / "strong.npz.new").exists()
    assert "more than --max-mb" in capsys.readouterr().err


def test_make_strong_net_compare_goes_on_past_an_encoding_that_cannot_hold_the_net(trained, tmp_path, capsys):
    """A long-trained net has weights over float16's 65504: --compare says so for float16 and measures the rest."""
    big = NTupleNetwork(trained.tuples, trained.weights.copy(), name="big")
    big.weights[np.argmax(np.abs(big.weights))] = 96_111.0
    big.training = trained.training
    full = big.save(tmp_path / "big.npz")
    out = tmp_path / "strong.npz"
    assert make.main(["--full", str(full), "--out", str(out), "--positions", "10", "--stride", "5", "--depths", "1",
                      "--compare", "--compare-bits", "16,12"]) == 0
    text = capsys.readouterr().out
    assert "float16 16 bits, prune none: not possible: a weight of size 96,111 does not fit float16" in text
    assert "int16 12 bits, prune none" in text and out.exists()


# ------------------------------------------------------------------------------ bench_2048_strong.py
def _run(net: Path, out: Path, seeds: str, *extra: str) -> None:
    assert bench.main(["--net", str(net), "--depth", "1", "--seeds", seeds, "--out", str(out),
                       "--max-moves", "25", *extra]) == 0


def test_bench_appends_one_line_per_game_and_resumes(compact_file, tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    _run(compact_file, out, "1000:1002")
    _run(compact_file, out, "1002:1004")  # the other half, as a second process would
    records = bench.read_records(out)
    assert [r["seed"] for r in records] == [1000, 1001, 1002, 1003]
    assert all(r["setting"] == "compact-depth1" and r["moves_played"] == 25 and r["kind"] == "compact" for r in records)
    assert {r["net"] for r in records} == {compact_file.name}  # outside the repository: the file name, no folders
    capsys.readouterr()
    _run(compact_file, out, "1000:1004")  # nothing left to play
    assert "0 games to play" in capsys.readouterr().out and len(bench.read_records(out)) == 4


def test_bench_skips_a_line_cut_short_and_plays_that_seed_again(compact_file, tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    _run(compact_file, out, "1000:1002")
    lines = out.read_text().splitlines()
    out.write_text(lines[0] + "\n" + lines[1][:30])  # stopped while writing the second game
    _run(compact_file, out, "1000:1002")
    records = bench.read_records(out)
    assert sorted(r["seed"] for r in records) == [1000, 1001]
    assert "unreadable line" in capsys.readouterr().err


def test_bench_same_seed_same_game_and_refuses_mixing_players(compact_file, full_file, tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    _run(compact_file, a, "1000:1002")
    _run(compact_file, b, "1000:1002")
    assert [(r["score"], r["max_tile"]) for r in bench.read_records(a)] == \
        [(r["score"], r["max_tile"]) for r in bench.read_records(b)]
    with pytest.raises(SystemExit, match="another player"):
        _run(full_file, a, "1002:1003")


def test_bench_summary_rates_intervals_and_paired_difference(compact_file, full_file, tmp_path, capsys):
    full, compact = tmp_path / "full.jsonl", tmp_path / "compact.jsonl"
    _run(full_file, full, "1000:1003")
    _run(compact_file, compact, "1001:1004")
    capsys.readouterr()
    saved = tmp_path / "summary.json"
    assert bench.main(["--summary", str(full), str(compact), "--save-summary", str(saved)]) == 0
    text = capsys.readouterr().out
    assert "full-depth1" in text and "compact-depth1" in text and "paired on the 2 seeds" in text
    result = json.loads(saved.read_text())
    assert result["players"]["full-depth1"]["games"] == 3 and result["paired"]["games"] == 2
    assert result["players"]["compact-depth1"]["reach_8192"]["wilson95"][0] == 0.0


def test_summary_arithmetic():
    games = [{"seed": s, "score": 100 * s, "max_tile": t, "moves_played": 10, "think_seconds": 0.01, "ms_p95": 1.0,
              "ms_max": 2.0} for s, t in enumerate([16384, 16384, 8192, 32768])]
    s = bench.summarise(games)
    assert s["reach_16384"]["count"] == 3 and s["reach_32768"]["rate"] == 0.25 and s["ms_per_move"] == 1.0
    lo, hi = s["reach_16384"]["wilson95"]
    assert lo < 0.75 < hi
    other = {g["seed"]: {**g, "max_tile": 8192} for g in games}
    pair = bench.paired({g["seed"]: g for g in games}, other)
    assert pair["reach_16384"]["only_first"] == 3 and pair["reach_16384"]["only_second"] == 0
    assert pair["reach_16384"]["difference"] == 0.75
    assert bench.mcnemar_p(3, 0) == 0.25 and bench.mcnemar_p(0, 0) == 1.0 and bench.mcnemar_p(5, 5) == 1.0


def test_seed_ranges():
    assert bench.parse_seeds(None, 3) == range(1000, 1003)
    assert bench.parse_seeds("1050:1100", 100) == range(1050, 1100)
    for bad in ("1050", "9:3", "a:b"):
        with pytest.raises(SystemExit):
            bench.parse_seeds(bad, 100)


def test_make_strong_net_prunes_one_sided_weights_of_a_tc_net(tmp_path, capsys):
    net = NTupleNetwork([(0, 1, 2, 3), (0, 1, 4, 5)], name="tc")
    net.train(200, rng=3, method="tc", alpha=1.0, block=100)
    full = net.save(tmp_path / "tc.npz")
    sided = (net.weights != 0) & (np.abs(net.e_sum) == net.a_sum)
    assert 0 < np.count_nonzero(sided) < np.count_nonzero(net.weights)
    out = tmp_path / "strong.npz"
    assert make.main(["--full", str(full), "--out", str(out), "--positions", "20", "--depths", "1",
                      "--prune", "one-sided", "--prune-max", "1e9"]) == 0
    assert "one-sided" in capsys.readouterr().out
    back = load_compact(out)
    assert np.all(back.weights[sided] == 0) and np.count_nonzero(back.weights[~sided & (net.weights != 0)]) > 0
    limit = float(np.median(np.abs(net.weights[sided])))
    assert make.main(["--full", str(full), "--out", str(out), "--positions", "20", "--depths", "1",
                      "--prune", "one-sided", "--prune-max", str(limit)]) == 0
    back = load_compact(out)
    assert np.all(back.weights[sided & (np.abs(net.weights) <= limit)] == 0)
    assert np.count_nonzero(back.weights[sided & (np.abs(net.weights) > limit)]) > 0
    assert make.main(["--full", str(full), "--out", str(out), "--positions", "20", "--depths", "1",
                      "--prune", "small", "--prune-max", str(limit)]) == 0
    back = load_compact(out)
    assert np.all(back.weights[np.abs(net.weights) <= limit] == 0)
    assert np.all((back.weights != 0) == (np.abs(net.weights) > limit))


def test_make_strong_net_prune_needs_the_accumulators(full_file, tmp_path):
    with pytest.raises(SystemExit, match="accumulators"):
        make.main(["--full", str(full_file), "--out", str(tmp_path / "s.npz"), "--positions", "10", "--depths", "1",
                   "--prune", "one-sided"])


# ------------------------------------------------------------------------------ the file tilelab ships
@pytest.fixture(scope="module")
def shipped() -> NTupleNetwork:
    return strong_network()


def test_shipped_strong_net_is_small_checked_and_the_tc_wu_yeh_net(shipped):
    assert ntuple_compact.STRONG_NET.stat().st_size <= 25_000_000       # the repository's limit for it
    header, _ = ntuple_compact.read_npz(ntuple_compact.STRONG_NET, "compact n-tuple network", lambda h: {})
    assert (header["format"], header["encoding"], header["bits"]) == (COMPACT_FORMAT, "int16", 14)
    assert [tuple(t) for t in shipped.tuples] == [tuple(t) for t in WU_YEH_TUPLES]
    assert shipped.training["method"] == "tc" and shipped.training["games"] == 643_000  # the 91% net, rebuilt
    assert shipped.training["restarts"] == [348_000]
    assert shipped.curve and shipped.curve[-1].games == shipped.training["games"]


def test_shipped_strong_net_plays_strongly_from_the_first_move(shipped):
    """Seeded 1-ply games of the shipped net all outlive 1,500 moves (an untrained net dies within ~200)."""
    from tilelab.game2048 import play_game
    for seed in (1, 2, 3):
        record = play_game(TDPlayer(shipped), rng=seed, max_moves=1500)
        assert record.moves_played == 1500 and record.max_tile >= 1024, (seed, record.moves_played, record.max_tile)


def test_saved_strong_results_are_of_the_shipped_file(shipped):
    """The depth-3 and depth-4 figures in the README and lesson 6b were played by exactly this file."""
    sha = shipped.sha256
    for setting in ("compact-depth3", "compact-depth4"):
        lines = (ROOT / "benchmarks" / "results" / f"bench_2048_strong_{setting}.jsonl").read_text().splitlines()
        specs = {json.loads(line)["net_sha256"] for line in lines if line.strip()}
        assert specs == {sha}, setting
        assert {json.loads(line)["net"] for line in lines if line.strip()} == {"tilelab/data/ntuple-strong.npz"}


def test_shipped_strong_net_is_small_in_memory_and_plays_as_its_float32_tables(shipped):
    """The strong net kept compact (48 MiB, not 256) chooses today's move with today's values: on 2,000 positions of
    seeded 1-ply games, searching 3 moves deep, against the same file expanded to float32 tables."""
    assert shipped.memory_bytes < 50 * 2**20 and shipped.kept == shipped.values.size
    dense = load_compact(ntuple_compact.STRONG_NET)
    assert shipped.sha256 == _bytes_sha256(dense.weights)
    positions = make.sample_positions(shipped, 2000, 5)
    assert len(positions) == 2000 and max(b.max_tile for b in positions) >= 2048
    small, full = TDExpectimax(shipped, depth=3), TDExpectimax(dense, depth=3)
    differ = [i for i, board in enumerate(positions) if small.think(board).values != full.think(board).values]
    assert differ == []


def test_loading_the_strong_net_takes_little_memory():
    """Measured in a fresh process: loading the strong net raises its peak by under 100 MiB (256 MiB of float32
    tables before), and it stays under 70 MiB."""
    child = ("from tilelab.game2048.learning.ntuple_players import strong_network\n"
             "def status(): return {l.split(':')[0]: int(l.split()[1]) for l in open('/proc/self/status') "
             "if l.startswith(('VmHWM', 'VmRSS'))}\n"
             "before = status(); net = strong_network(); after = status()\n"
             "print((after['VmHWM'] - before['VmRSS']) // 1024, (after['VmRSS'] - before['VmRSS']) // 1024)")
    if not Path("/proc/self/status").exists():
        pytest.skip("needs Linux's /proc to read a process's memory")
    import subprocess
    out = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, check=True).stdout.split()
    peak, kept = map(int, out)
    assert peak < 100 and kept < 70, (peak, kept)


def test_records_name_a_net_inside_the_repository_by_its_relative_path():
    assert bench.net_label(ROOT / "tilelab" / "data" / "ntuple-strong.npz") == "tilelab/data/ntuple-strong.npz"
    assert bench.net_label(Path("/somewhere/else/td_net.npz")) == "td_net.npz"


RESULTS = ROOT / "benchmarks" / "results"
SAVED_STRONG = {"depth3": ("full-depth3", "compact-depth3"), "depth4": ("compact-depth4",)}


@pytest.mark.parametrize("folder", [RESULTS, RESULTS / "shipped203k"], ids=["shipped", "shipped-before"])
@pytest.mark.parametrize("name", sorted(SAVED_STRONG))
def test_saved_strong_summaries_are_their_game_records(name, folder):
    """Lesson 6b prints the saved summaries: they must be what the per-game records say (no hand edits)."""
    saved = json.loads((folder / f"bench_2048_strong_{name}.json").read_text())
    groups = bench.by_setting([folder / f"bench_2048_strong_{s}.jsonl" for s in SAVED_STRONG[name]])
    assert set(saved["players"]) == set(groups)
    for player, games in groups.items():
        assert saved["players"][player] == bench.summarise(list(games.values()))
        assert set(games) <= set(range(1000, 1100))  # the seeds of bench_2048_ai.py and bench_2048_learning.py


def test_compact_net_plays_like_the_full_net_at_depth_3():
    """The issue's bar, on the same 100 seeds at depth 3: the compact net reaches 16384 at least as often as
    the full net less 3 points, and the paired difference at every tile is noise (its interval holds 0)."""
    saved = json.loads((RESULTS / "bench_2048_strong_depth3.json").read_text())
    full, compact = saved["players"]["full-depth3"], saved["players"]["compact-depth3"]
    assert full["games"] == compact["games"] == saved["paired"]["games"] == 100
    assert compact["reach_16384"]["rate"] >= full["reach_16384"]["rate"] - 0.03
    for tile in bench.TILES:
        low, high = saved["paired"][f"reach_{tile}"]["interval95"]
        assert low <= 0.0 <= high, tile


def test_readme_quotes_the_saved_strong_figures():
    readme = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")
    d3 = json.loads((RESULTS / "bench_2048_strong_depth3.json").read_text())["players"]
    d4 = json.loads((RESULTS / "bench_2048_strong_depth4.json").read_text())["players"]["compact-depth4"]
    assert d4["games"] == 100  # the 100 seeded games, every one played
    for s in (d3["compact-depth3"], d3["full-depth3"], d4):
        r = s["reach_16384"]
        assert f"16384 in {100 * r['rate']:.0f}% [{100 * r['wilson95'][0]:.0f}, {100 * r['wilson95'][1]:.0f}]" in readme
    assert f"Depth 4, {d4['games']} games" in readme
    assert f"{ntuple_compact.STRONG_NET.stat().st_size / 1e6:.1f} MB compact file" in readme
    assert bench.readme_row() in readme.splitlines()  # the whole row, as `bench_2048_strong.py --readme` writes it


def test_readme_quotes_the_twin_nets_compact_file_against_its_full_net():
    """The 643,000-game twin: what its compact encoding costs, from the saved game records and encoding log."""
    readme = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8").replace("\n", " ")
    folder = RESULTS / "twin643k"
    groups = bench.by_setting([folder / "bench_2048_strong_full-depth3.jsonl",
                               folder / "bench_2048_strong_compact-depth3.jsonl"])
    saved = json.loads((folder / "bench_2048_strong_depth3.json").read_text())
    assert {p: saved["players"][p] for p in groups} == {p: bench.summarise(list(g.values())) for p, g in groups.items()}
    assert set(groups["full-depth3"]) == set(groups["compact-depth3"]) == set(range(1000, 1100))
    for player, name in (("compact-depth3", "that compact file"), ("full-depth3", "the twin's full net")):
        r = saved["players"][player]["reach_16384"]
        assert (f"{name} {'reached 16384 in ' if player.startswith('compact') else 'in '}{100 * r['rate']:.0f}% "
                f"[{100 * r['wilson95'][0]:.0f}, {100 * r['wilson95'][1]:.0f}]") in readme
    pair = saved["paired"]["reach_16384"]  # full minus compact
    low, high = -pair["interval95"][1], -pair["interval95"][0]
    assert (f"compact minus full {-100 * pair['difference']:+.0f} points [{100 * low:+.0f}, {100 * high:+.0f}] "
            f"({pair['only_second']} games only the compact file took there, {pair['only_first']} only the full one; "
            f"McNemar p = {pair['mcnemar_p']:.2f}") in readme
    log = (RESULTS / "make_strong_net_compare_twin643k.txt").read_text()
    line = next(x for x in log.splitlines() if "24.35 MB  max |w error|" in x)
    assert "max |w error|    60.00" in line and "depth 3: 1958/2000 = 97.90%" in line
    assert "24.35 MB file that chose the full net's move on 97.9% of 2,000 positions at depth 3" in readme
    assert "34.28 MB" in log and "16-bit compact file would be 34.3 MB" in readme


def test_the_readme_row_is_rewritten_in_place_and_refuses_mixed_nets(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n{bench.README_ROW_AFTER} | x |\n{bench.README_ROW_START} (old) | y |\nend\n")
    assert bench.write_readme_row(readme) == 0
    assert readme.read_text().splitlines() == ["intro", f"{bench.README_ROW_AFTER} | x |", bench.readme_row(), "end"]
    results = tmp_path / "results"
    results.mkdir()
    for name in ("bench_2048_strong_depth3.json", "bench_2048_strong_depth4.json"):
        (results / name).write_text((RESULTS / name).read_text())
    lines = (RESULTS / "bench_2048_strong_compact-depth3.jsonl").read_text().splitlines()
    other = json.dumps({**json.loads(lines[0]), "trained_games": 1})
    (results / "bench_2048_strong_compact-depth3.jsonl").write_text("\n".join(lines + [other]) + "\n")
    with pytest.raises(ValueError, match="fresh JSONL"):
        bench.readme_row(results)


# ------------------------------------------------------------------------------ the rebuilt 91% net, shipped
REBUILD = RESULTS / "rebuild643k"


def test_the_rebuild_repeats_the_91_percent_run_block_for_block():
    """The rebuild's training curve equals the saved 91% run's in all 643 blocks of 1,000 games: same seed,
    the same restart at 348,000, deterministic training (with the fused trainer)."""
    rebuilt = json.loads((RESULTS / "td_wu-yeh_tc-rebuild.json").read_text())
    saved = json.loads((RESULTS / "td_wu-yeh_tc-long.json").read_text())
    keys = ("games", "block", "mean_score", "reach_2048", "max_tile")
    assert len(rebuilt["curve"]) == len(saved["curve"]) == 643 and rebuilt["restarts"] == [348_000]
    assert [[p[k] for k in keys] for p in rebuilt["curve"]] == [[p[k] for k in keys] for p in saved["curve"]]


def test_the_rebuilt_full_net_replays_the_saved_91_percent_games():
    """At depth 3 the rebuilt full net plays the saved 91% run's games on the same seeds move for move."""
    saved = {g["seed"]: g for g in json.loads((RESULTS / "bench_2048_learning_wuyeh_tc_long.json").read_text())["games"]
             if g["setting"] == "td-expectimax-depth3"}
    records = bench.read_records(RESULTS / "bench_2048_strong_full-depth3.jsonl")
    assert records and {r["trained_games"] for r in records} == {643_000} and len({r["net_sha256"] for r in records}) == 1
    for r in records:
        assert (r["score"], r["moves_played"], r["max_tile"]) == tuple(saved[r["seed"]][k] for k in ("score", "moves", "max_tile"))
    readme = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8").replace("\n", " ")
    assert sorted(r["seed"] for r in records) == list(range(1000, 1100))
    reached = sum(r["max_tile"] >= 16384 for r in records)
    assert f"replays the saved 91% run's {len(records)} games exactly" in readme and f"16384 in {reached} of them" in readme


def test_the_shipped_compact_file_is_the_one_its_log_and_the_readme_describe():
    import re
    path = ntuple_compact.STRONG_NET
    log = (REBUILD / "make_strong_net_643k.txt").read_text()
    touched = re.search(r"weights training touched \(not 0\): [\d,]+ of 67,108,864 = ([\d.]+)%", log)[1]
    m = re.search(r"compact file \(int16, 14 bits, prune small\): ([\d.]+) MB \(([\d,]+) bytes", log)
    same = int(re.search(r"int16 14 bits, prune small .*depth 3: (\d+)/2000", log)[1])
    assert int(m[2].replace(",", "")) == path.stat().st_size and "max |w error|    80.00" in log
    readme = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8").replace("\n", " ")
    assert f"It touched {touched}% of its weights" in readme
    assert f"80 points: {m[1]} MB, the full net's move on {same:,} of 2,000 positions at depth 3" in readme
    assert "prune small --prune-max 80" in readme  # the recipe that made it
    load = re.search(r"loads in ([\d.]+) s", log)[1]
    assert f"{load} s to load" in readme


def test_the_readme_quotes_the_net_shipped_before():
    """The 203,000-game net's saved games (moved to shipped203k/ when the 643,000-game net replaced it)."""
    folder = RESULTS / "shipped203k"
    games = bench.by_setting([folder / "bench_2048_strong_compact-depth3.jsonl"])["compact-depth3"]
    assert set(games) == set(range(1000, 1100)) and {g["trained_games"] for g in games.values()} == {203_000}
    rate = bench.summarise(list(games.values()))["reach_16384"]["rate"]
    readme = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8").replace("\n", " ")
    assert f"shipped the same run at 203,000 games, which reached 16384 in {100 * rate:.0f}% of those games" in readme
