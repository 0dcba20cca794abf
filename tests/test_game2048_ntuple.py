"""n-tuple networks and TD learning: reference vs fast path, seeded training, checked files, players."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tilelab.game2048 import Board, Direction, legal_moves, play_game
from tilelab.game2048.fast.bitboard import bits_from_exponents, exponents, parse_bits
from tilelab.game2048.learning.ntuple_net import (
    CLASSROOM_TUPLES, NTupleNetwork, cached_network, symmetric_tuples, SYMMETRIES, WU_YEH_TUPLES,
)
from tilelab.game2048.learning.ntuple_players import TDExpectimax, TDPlayer
from tilelab.game2048.learning.ntuple_ref import feature_indices_ref, learn_game_ref, td_update_ref, value_ref

GRIDS = st.lists(st.lists(st.integers(0, 15), min_size=4, max_size=4), min_size=4, max_size=4)
# no two 32768 tiles: the bitboard refuses the merge the readable engine allows
PLAYABLE = st.lists(st.lists(st.integers(0, 14), min_size=4, max_size=4), min_size=4, max_size=4)
SMALL = ((0, 1, 2), (4, 5, 6), (0, 1, 4))


def random_net(tuples=SMALL, seed=0) -> NTupleNetwork:
    net = NTupleNetwork(tuples)
    net.weights[:] = np.random.default_rng(seed).normal(0, 10, net.weights.size).astype(np.float32)
    return net


def test_symmetries_are_the_eight_maps_of_the_square():
    assert len(set(SYMMETRIES)) == 8 and all(sorted(m) == list(range(16)) for m in SYMMETRIES)
    corners = {p[0] for p in symmetric_tuples((0, 1, 4, 5))}
    assert corners == {0, 3, 12, 15}


@settings(max_examples=30, deadline=None)
@given(GRIDS)
def test_fast_value_agrees_with_the_reference(grid):
    net = random_net()
    bits = bits_from_exponents(grid)
    assert net.value_bits(bits) == value_ref(net, grid)
    assert net.values_bits(np.array([bits], dtype=np.uint64))[0] == value_ref(net, grid)


@settings(max_examples=40, deadline=None)
@given(GRIDS)
def test_value_is_the_same_on_all_eight_symmetric_boards(grid):
    net = random_net()
    flat = [e for row in grid for e in row]
    values = {round(value_ref(net, [[flat[m.index(4 * r + c)] for c in range(4)] for r in range(4)]), 3)
              for m in SYMMETRIES}
    assert len(values) == 1


def test_td_update_by_hand():
    net = NTupleNetwork([(0,)])
    board = [[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]  # a 4 in the corner
    assert td_update_ref(net, board, 10.0, alpha=0.5) == 10.0
    # 8 lookups of 1/8 of 5 each: the "4" weight is looked up twice, the "empty" weight six times
    indices = feature_indices_ref(net, board)
    assert sorted(indices) == [0] * 6 + [2] * 2
    assert value_ref(net, board) == pytest.approx(2 * 2 * 0.625 + 6 * 6 * 0.625)
    distinct = NTupleNetwork([(0, 1)])
    grid = [[1, 2, 3, 4], [5, 0, 0, 6], [7, 0, 0, 8], [9, 10, 11, 12]]
    td_update_ref(distinct, grid, 8.0, alpha=0.25)
    assert value_ref(distinct, grid) == pytest.approx(2.0)  # distinct lookups: exactly alpha of the way


@settings(max_examples=3, deadline=None)
@given(st.integers(1, 2**62))
def test_fast_training_equals_the_readable_td_loop(state):
    fast, slow = NTupleNetwork(SMALL), NTupleNetwork(SMALL)
    fast.training["state"] = state | 1
    fast.training["seed"] = 0
    fast.train(2, block=1)
    s = state | 1
    scores = []
    for _ in range(2):
        score, _, s = learn_game_ref(slow, s, alpha=0.1)
        scores.append(score)
    assert np.array_equal(fast.weights, slow.weights)
    assert fast.training["state"] == s
    assert [round(p["mean_score"]) for p in fast.training["curve"]] == scores


def _train_both(tuples, state, alpha, tc, games, start_seed):
    """``games`` self-play games from ``state`` by the fused trainer and by the plain one, on two copies of a net
    already trained a little (so weights, and with tc the learning-rate sums, are not all zero)."""
    from tilelab.game2048.fast.bitrows import row_tables
    from tilelab.game2048.learning.ntuple_kernels import train_games, train_games_plain

    base = NTupleNetwork(tuples)
    base.train(3, rng=start_seed, alpha=alpha, method="tc" if tc else "td0")
    t = row_tables()
    out = []
    for train in (train_games, train_games_plain):
        w = base.weights.copy()
        e = base.e_sum.copy() if tc else np.zeros(1, np.float32)
        a = base.a_sum.copy() if tc else np.zeros(1, np.float32)
        results = [np.zeros(games, np.int64) for _ in range(3)]
        end = train(games, np.uint64(state), alpha, tc, 0.1, w, e, a, *base.layout,
                    t.left, t.right, t.score, *results)
        out.append((int(end), w, e, a, [r.tolist() for r in results]))
    return out


@settings(max_examples=8, deadline=None)
@given(st.integers(1, 2**62), st.booleans(), st.sampled_from([SMALL, ((0, 1, 2, 3), (0, 1, 4, 5)), ((0, 5),)]))
def test_the_fused_trainer_plays_and_learns_exactly_as_the_plain_one(state, tc, tuples):
    alpha = 1.0 if tc else 0.1
    (end, w, e, a, results), (end2, w2, e2, a2, results2) = _train_both(tuples, state | 1, alpha, tc, 3, 11)
    assert end == end2 and results == results2  # the same games: the same moves chosen all along
    assert np.array_equal(w, w2) and np.array_equal(e, e2) and np.array_equal(a, a2)  # bit for bit


TINY_TC = """
import hashlib, numpy as np
from tilelab.game2048.learning.ntuple_net import NTupleNetwork
net = NTupleNetwork(((0, 1), (4, 5)))
net.train(2, rng=99, alpha=1.0, method="tc")
print(hashlib.sha256(net.weights.tobytes() + net.a_sum.tobytes()).hexdigest(), net.training["state"])
"""


def test_the_fused_trainer_in_plain_python_equals_its_compiled_self():
    import os
    import subprocess
    import sys

    runs = [subprocess.run([sys.executable, "-c", TINY_TC], capture_output=True, text=True, timeout=300,
                           env={**os.environ, "TILELAB_NO_JIT": flag}) for flag in ("1", "0")]
    assert all(run.returncode == 0 for run in runs), [run.stderr[-1000:] for run in runs]
    assert runs[0].stdout == runs[1].stdout and len(runs[0].stdout) > 64


def test_training_is_seeded_and_resumable():
    a, b, c = NTupleNetwork(SMALL), NTupleNetwork(SMALL), NTupleNetwork(SMALL)
    a.train(30, rng=5, block=7)
    b.train(12, rng=5)
    b.train(18)
    c.train(30, rng=6)
    assert np.array_equal(a.weights, b.weights) and a.training["state"] == b.training["state"]
    assert not np.array_equal(a.weights, c.weights)
    with pytest.raises(ValueError, match="resumes"):
        b.train(1, rng=5)
    with pytest.raises(ValueError, match="same settings"):
        b.train(1, alpha=0.5)


def test_temporal_coherence_learns_and_differs_from_td0():
    tc, td = NTupleNetwork(SMALL), NTupleNetwork(SMALL)
    tc.train(20, rng=1, method="tc", alpha=1.0)
    td.train(20, rng=1)
    assert tc.e_sum is not None and np.any(tc.weights) and not np.array_equal(tc.weights, td.weights)


def test_learning_improves_play():
    net = NTupleNetwork.classroom()
    points = net.train(600, rng=0, block=300)
    assert points[-1].mean_score > 1.5 * points[0].mean_score  # untrained play scores ~1-2k


def test_save_load_round_trip_and_damage(tmp_path):
    net = random_net()
    net.train(5, rng=3)
    path = net.save(tmp_path / "net.npz")
    back = NTupleNetwork.load(path)
    assert back.tuples == net.tuples and np.array_equal(back.weights, net.weights)
    back.train(3)
    net.train(3)
    assert np.array_equal(back.weights, net.weights)  # resumes exactly from the file
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    (tmp_path / "bad.npz").write_bytes(bytes(raw))
    with pytest.raises(ValueError, match="damaged|cannot read|checksum"):
        NTupleNetwork.load(tmp_path / "bad.npz")
    np.savez(tmp_path / "other.npz", weights=net.weights,
             header=np.frombuffer(b'{"format": "something else", "version": 1}', np.uint8))
    with pytest.raises(ValueError, match="not a"):
        NTupleNetwork.load(tmp_path / "other.npz")


def test_temporal_coherence_resumes_exactly_from_a_file(tmp_path):
    whole, part = NTupleNetwork(SMALL), NTupleNetwork(SMALL)
    whole.train(30, rng=4, method="tc", alpha=1.0)
    part.train(12, rng=4, method="tc", alpha=1.0)
    back = NTupleNetwork.load(part.save(tmp_path / "tc.npz"))
    assert np.array_equal(back.e_sum, part.e_sum) and np.array_equal(back.a_sum, part.a_sum)
    back.train(18, method="tc", alpha=1.0)
    assert np.array_equal(back.weights, whole.weights)  # the per-weight rates came back with the file
    frozen = NTupleNetwork.load(part.save(tmp_path / "player.npz", training_state=False))
    assert frozen.e_sum is None and np.array_equal(frozen.weights, part.weights)
    with pytest.raises(ValueError, match="accumulators were not saved"):
        frozen.train(1, method="tc", alpha=1.0)
    frozen.train(18, method="tc", alpha=1.0, restart_coherence=True)  # an explicit restart: rates back at 1
    assert not np.array_equal(frozen.weights, whole.weights)
    with pytest.raises(ValueError, match="no temporal-coherence accumulators"):
        NTupleNetwork(SMALL).save(tmp_path / "x.npz", training_state=True)


def test_damaged_coherence_accumulators_fail_their_checksum(tmp_path):
    net = NTupleNetwork(SMALL)
    net.train(5, rng=2, method="tc", alpha=1.0)
    path = net.save(tmp_path / "tc.npz", compress=False)
    with np.load(path) as data:
        arrays = {k: data[k].copy() for k in data.files}
    arrays["a_sum"][np.flatnonzero(arrays["a_sum"])[0]] += 1.0
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(ValueError, match="accumulators fail"):
        NTupleNetwork.load(tmp_path / "bad.npz")


def test_tampered_weights_fail_the_checksum(tmp_path):
    net = random_net()
    header = net.header()
    weights = net.weights.copy()
    weights[0] += 1
    np.savez(tmp_path / "t.npz", weights=weights, header=np.frombuffer(__import__("json").dumps(header).encode(), np.uint8))
    with pytest.raises(ValueError, match="SHA-256"):
        NTupleNetwork.load(tmp_path / "t.npz")


def test_cache_rebuilds_a_damaged_file(tmp_path, monkeypatch):
    monkeypatch.setenv("TILELAB_CACHE_DIR", str(tmp_path))
    first = cached_network(SMALL, games=4, rng=1)
    (path,) = tmp_path.glob("ntuple-*.npz")
    assert np.array_equal(cached_network(SMALL, games=4, rng=1).weights, first.weights)
    path.write_bytes(b"not a zip file")
    again = cached_network(SMALL, games=4, rng=1)
    assert np.array_equal(again.weights, first.weights)
    NTupleNetwork.load(path)  # rewritten and valid


@pytest.mark.parametrize("tuples", [[], [(0, 0)], [(0, 16)], [tuple(range(9))]])
def test_bad_tuples_are_refused(tuples):
    with pytest.raises(ValueError, match="tuple"):
        NTupleNetwork(tuples)


def test_bad_training_arguments_are_refused():
    net = NTupleNetwork(SMALL)
    for kwargs in ({"games": -1}, {"games": 2, "alpha": 0}, {"games": 2, "method": "sarsa"}, {"games": 2, "block": 0}):
        with pytest.raises(ValueError):
            net.train(**kwargs)
    with pytest.raises(ValueError, match="float32"):
        NTupleNetwork(SMALL, np.zeros(3))


def test_memory_of_the_two_nets():
    assert NTupleNetwork.classroom().memory_bytes == 5 * 16**4 * 4
    assert NTupleNetwork(WU_YEH_TUPLES[:1]).memory_bytes == 16**6 * 4  # the 4x6 net: 4 of these, 256 MiB


@settings(max_examples=20, deadline=None)
@given(PLAYABLE)
def test_players_choose_legal_moves_and_depth_one_is_greedy(grid):
    board = Board([[1 << e if e else 0 for e in row] for row in grid])
    net = random_net(seed=2)
    legal = legal_moves(board)
    greedy, search = TDPlayer(net), TDExpectimax(net, depth=1, table_bits=10)
    if not legal:
        for player in (greedy, search):
            with pytest.raises(ValueError, match="over"):
                player(board)
        return
    a, b = greedy(board), search(board)
    assert a in legal and a == b
    assert set(greedy.last_values) == set(legal)
    assert greedy.last_values == pytest.approx(search.last_values)


def test_td_players_play_seeded_games():
    net = random_net(CLASSROOM_TUPLES)
    one = play_game(TDPlayer(net), rng=4, max_moves=50)
    two = play_game(TDPlayer(net), rng=4, max_moves=50)
    assert one.directions == two.directions
    deep = play_game(TDExpectimax(net, nodes_per_move=2000, table_bits=12), rng=4, max_moves=20)
    again = play_game(TDExpectimax(net, nodes_per_move=2000, table_bits=12), rng=4, max_moves=20)
    assert deep.directions == again.directions and deep.moves_played == 20
    board = Board.parse("2 4 8 16\n. 2 . 4\n. . . 2\n. . . .")
    assert TDExpectimax(net, nodes_per_move=50_000).think(board).depth >= 2  # depth 1 costs no nodes
    assert TDExpectimax(net, ms_per_move=30).think(board).depth >= 2


def test_td_expectimax_wall_clock_and_depth_two_by_hand():
    net = NTupleNetwork([(0,)])
    net.weights[:] = 0
    after = parse_bits("2 4 8 16\n32 64 128 256\n512 1024 2 4\n8 16 32 .")
    ai = TDExpectimax(net, depth=2, cutoff=0.0, table_bits=10)
    # V = 0 everywhere: the search value is just the points of our best reply after each spawn
    result = ai.search(after, 2)
    assert result.complete
    assert TDExpectimax(net, ms_per_move=5).think(Board.parse("2 2 . .\n. . . .\n. . . .\n. . . 4")).direction
    with pytest.raises(TypeError):
        TDPlayer("net")


def test_evaluate_plays_the_readable_greedy_games_and_learns_nothing():
    from tilelab.randomness import as_generator
    from tilelab.game2048.fast.bitboard import seed_state as _seed_state

    net = NTupleNetwork(SMALL)
    net.train(40, rng=3)
    weights, record = net.weights.copy(), dict(net.training)
    result = net.evaluate(3, rng=11)
    assert np.array_equal(net.weights, weights) and net.training == record  # frozen
    state, scores, tops = int(_seed_state(as_generator(11))), [], []
    reference = NTupleNetwork(SMALL)
    reference.weights[:] = weights
    for _ in range(3):
        score, top, state = learn_game_ref(reference, state, alpha=0.0)
        scores.append(score)
        tops.append(top)
    assert result.mean_score == pytest.approx(np.mean(scores))
    assert result.reach[1 << max(tops)] == pytest.approx(np.mean([t >= max(tops) for t in tops]))
    again = net.evaluate(3, rng=11)
    assert (again.mean_score, again.reach, again.moves) == (result.mean_score, result.reach, result.moves)  # seeded
    with pytest.raises(ValueError, match="games"):
        net.evaluate(0, rng=1)


def test_the_readme_quotes_the_saved_training_speed_run():
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    saved = json.loads((root / "benchmarks" / "results" / "bench_2048_training.json").read_text())
    readme = (root / "benchmarks" / "README.md").read_text()
    for label, what in (("fresh", "from all-zero weights"), ("203k", "on the 203,000-game net (800 MB of tables read at random)")):
        s = saved[label]
        assert all(r["speedup"] > 1 for r in s["rounds"])  # faster in every round, never slower
        assert (f"{what}: {s['median_fused_moves_per_s'] / 1e3:.0f}k against {s['median_plain_moves_per_s'] / 1e3:.0f}k "
                f"moves/s, {s['median_speedup']:.2f}x ({s['lowest_speedup']:.2f}-{s['highest_speedup']:.2f}") in readme
