"""The one expectimax kernel, the public kernels module, the n-tuple modules behind one name, traced search.

The compiled searches are checked against the readable rule (``tilelab.game2048.ai``'s plain recursion), not
against recorded numbers: any pruning, ordering or table change that keeps the values passes. The positions and
the small TD network's recipe are in ``tests/data/game2048_search_values.json``; the node counts and values it
recorded are benchmark figures (``python benchmarks/bench_2048_search_record.py`` prints them beside today's).
"""

from __future__ import annotations

import ast
import json
import math
import os
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tilelab.jit import HAVE_NUMBA
from tilelab.game2048 import Board, ai, legal_moves, play
from tilelab.game2048.fast import bitboard, bitrows, kernels
from tilelab.game2048.learning.ntuple_net import CLASSROOM_TUPLES, NTupleNetwork
from tilelab.game2048.learning.ntuple_players import TDExpectimax
from tilelab.game2048.fast.bitboard import from_bitboard
from tilelab.game2048.fast.bitrows import DIRECTION_CODES, DIRECTION_NAMES
from tilelab.game2048.board import Direction
from tilelab.game2048.expectimax import SearchTables, search_bits
from tilelab.game2048.tree import expectimax_tree

DATA = json.loads((Path(__file__).parent / "data" / "game2048_search_values.json").read_text())
PACKAGE = Path(ai.__file__).parent
# recorded from the compiled search; without numba V sums its float32 weights in float32 (older than this test)
compiled_only = pytest.mark.skipif(not HAVE_NUMBA, reason="TD values were recorded from the compiled search")


def _values(values) -> list:
    return [None if math.isnan(v) else float(v).hex() for v in values]


@pytest.fixture(scope="module")
def td_net():
    net = NTupleNetwork(CLASSROOM_TUPLES)
    net.train(DATA["td_net"]["games"], rng=DATA["td_net"]["seed"])
    return net


positions = st.sampled_from(DATA["positions"])


def _by_direction(values) -> dict:
    """A compiled search's values (indexed by move code) keyed by Direction, NaN (no move) left out."""
    return {d: float(values[DIRECTION_CODES[d.name]]) for d in Direction if not math.isnan(values[DIRECTION_CODES[d.name]])}


@settings(max_examples=24, deadline=None, derandomize=True)
@given(positions, st.sampled_from([1, 2]), st.sampled_from([0.0, 0.1, 1.0]), st.sampled_from([8, 16]))
def test_the_compiled_search_finds_the_readable_expectimax_values(position, depth, p_four, table_bits):
    """Unpruned (cutoff 0), with a small or a large transposition table: the readable recursion's values, its move."""
    bits = int(position, 16)
    got = search_bits(bits, depth, SearchTables(table_bits=table_bits), p_four=p_four, cutoff=0.0)
    want = ai.expectimax_values(from_bitboard(bits), depth, ai.evaluate, p_four)
    assert got.complete and _by_direction(got.values) == pytest.approx(want, rel=1e-12)
    assert want[Direction[DIRECTION_NAMES[got.best]]] == max(want.values())


@settings(max_examples=12, deadline=None, derandomize=True)
@given(positions, st.sampled_from([2, 3]), st.sampled_from([1e-4, 1e-3]))
def test_a_transposition_table_and_pruning_change_the_work_not_the_answer(position, depth, cutoff):
    """The same pruned search with a tiny and a large table: the same values (to rounding) and the same move."""
    bits = int(position, 16)
    small = search_bits(bits, depth, SearchTables(table_bits=6), cutoff=cutoff)
    large = search_bits(bits, depth, SearchTables(table_bits=18), cutoff=cutoff)
    assert _by_direction(small.values) == pytest.approx(_by_direction(large.values), rel=1e-9)
    best = _by_direction(large.values)
    assert best[Direction[DIRECTION_NAMES[small.best]]] == pytest.approx(max(best.values()), rel=1e-9)


@compiled_only
@settings(max_examples=6, deadline=None, derandomize=True)
@given(positions, st.sampled_from([0.1, 0.25]))
def test_td_search_finds_the_readable_values(td_net, position, p_four):
    """TDExpectimax depth 2 unpruned = our move, the spawn, then the best move's points plus V of its afterstate."""
    bits = int(position, 16)
    got = TDExpectimax(td_net, depth=2, cutoff=0.0, p_four=p_four).search(bits, 2)
    board = from_bitboard(bits)

    def leaf(b):
        return max((r.score + td_net.value(r.board) for r in (play(b, d) for d in legal_moves(b))), default=0.0)

    want = {d: play(board, d).score + ai.chance_value(play(board, d).board, 1, leaf, p_four) for d in legal_moves(board)}
    assert _by_direction(got.values) == pytest.approx(want, rel=1e-9)


@pytest.mark.parametrize("which", ["heuristic", pytest.param("td", marks=compiled_only)])
def test_a_player_under_a_node_budget_answers_what_one_complete_search_at_its_depth_finds(which, td_net):
    """Iterative deepening within 20,000 nodes: the move is the best of the values shown, and those are the values
    of one fresh complete search at the depth it reached."""
    player = (ai.Expectimax(nodes_per_move=20_000) if which == "heuristic"
              else TDExpectimax(td_net, nodes_per_move=20_000))
    for position in DATA["positions"][:8]:
        bits = int(position, 16)
        thought = player.think(from_bitboard(bits))
        assert thought.direction == max(thought.values, key=thought.values.get)
        assert thought.nodes <= 20_000 and thought.depth >= 1
        fresh = (search_bits(bits, thought.depth, SearchTables(table_bits=16), cutoff=player.cutoff,
                             p_four=player.p_four) if which == "heuristic"
                 else TDExpectimax(td_net, depth=thought.depth, cutoff=player.cutoff, p_four=player.p_four)
                 .search(bits, thought.depth))
        assert fresh.complete
        assert _by_direction(fresh.values) == pytest.approx(thought.values, rel=1e-9)


@pytest.mark.skipif(not HAVE_NUMBA, reason="numba's runtime exists only with numba")
def test_the_search_copies_are_compiled_without_numbas_reference_counting():
    """Passing arrays from call to call costs two atomic operations each under numba's runtime (15-17% of a
    depth-3 search); the search allocates nothing, so every compiled copy runs without it."""
    from tilelab.game2048 import expectimax
    from tilelab.game2048.learning import ntuple_kernels

    copies = [*expectimax.HEURISTIC_SEARCH, *ntuple_kernels.TD_SEARCH]
    assert [copy.targetoptions.get("_nrt") for copy in copies] == [False] * 4
    fresh = kernels.make_search("refcount_check", expectimax.heuristic_leaf, with_points=False)
    assert [copy.targetoptions.get("_nrt") for copy in fresh] == [False, False]


def test_td_depth_is_one_more_than_the_kernels_because_its_leaf_is_a_move(td_net):
    """TDExpectimax depth d = our move + the kernel at depth d - 1 whose leaves take one more move and V."""
    bits = int(DATA["positions"][3], 16)
    player = TDExpectimax(td_net, depth=2, cutoff=0.0)
    got = player.search(bits, 2)
    board = from_bitboard(bits)

    def leaf(b):  # the best move's points plus V of its afterstate, 0 when no move is left
        return max((r.score + td_net.value(r.board) for r in (play(b, d) for d in legal_moves(b))), default=0.0)

    for d in legal_moves(board):
        result = play(board, d)
        want = result.score + ai.chance_value(result.board, 1, leaf)
        assert got.values[DIRECTION_CODES[d.name]] == pytest.approx(want, rel=1e-9)


# ---------------------------------------------------------------------------------- the kernels module
def test_the_bitboard_primitives_have_public_names_in_their_own_modules():

    for module, names in ((bitrows, ("apply_move", "count_empty", "max_exponent", "transpose_bits", "U64")),
                          (bitboard, ("spawn_xorshift", "seed_state", "random_playout"))):
        for name in names:
            assert name in module.__all__ and name in vars(module), f"{module.__name__}.{name}"
            assert name not in kernels.__all__, name  # one home, one import path
    assert set(kernels.__all__) <= set(vars(kernels))
    for name in kernels.__all__:
        obj = getattr(kernels, name)
        if callable(obj) and not isinstance(obj, type):
            assert (getattr(obj, "__doc__", None) or "").strip() or name in kernels.__doc__, name


def _private_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    return [f"{path.name}:{node.lineno} {node.module}.{alias.name}" for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tilelab.game2048")
            for alias in node.names if alias.name.startswith("_") and alias.name != "__all__"]


SEARCH_MODULES = ("ai", "expectimax", "tree", "stopping", "learning/ntuple_net", "learning/ntuple_ref",
                  "learning/ntuple_kernels", "learning/ntuple_players")


def test_the_search_modules_import_no_other_modules_private_names():
    found = [hit for name in (*SEARCH_MODULES, "fast/kernels") for hit in _private_imports(PACKAGE / f"{name}.py")]
    assert found == []


def test_exercise_allow_lists_resolve_to_the_functions_that_run():
    from tilelab.exercises.allow import resolve
    from tilelab.game2048.learning import ntuple_ref

    assert ntuple_ref.feature_indices_ref.__code__ in resolve(["tilelab.game2048.learning.ntuple_ref:feature_indices_ref"])
    assert ntuple_ref.value_ref.__code__ in resolve(["tilelab.game2048.learning.ntuple_ref:value_ref"])




# ---------------------------------------------------------------------------------- traced search
class Recorder:
    """An observer keeping (event, kind, board, label, probability or value) in order."""

    def __init__(self):
        self.events, self.depth = [], 0

    def enter(self, kind, board, label, probability):
        self.events.append(("enter", kind, str(board), label, probability))
        self.depth += 1

    def leave(self, value):
        self.events.append(("leave", value))
        self.depth -= 1
        assert self.depth >= 0


cells = st.sampled_from([0, 0, 0, 2, 2, 4, 8, 16])


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 3).flatmap(lambda n: st.lists(st.lists(cells, min_size=n, max_size=n), min_size=n, max_size=n)),
       st.integers(1, 2), st.sampled_from([0.1, 0.0, 0.5]))
def test_traced_search_equals_the_untraced_one(rows, depth, p_four):
    board = Board(rows)
    if depth == 2 and len(board.empty_cells()) > 4:
        depth = 1  # keep the tree small
    evaluate = ai.evaluate if board.size == 4 else (lambda b: float(sum(v * v for row in b.grid for v in row)))
    plain = ai.expectimax_values(board, depth, evaluate, p_four)
    recorder = Recorder()
    traced = ai.expectimax_values(board, depth, evaluate, p_four, observer=recorder)
    assert traced == plain and recorder.depth == 0
    top, level, label = {}, 0, None  # the values the observer saw leaving the root's chance nodes
    for event in recorder.events:
        if event[0] == "enter":
            label = event[3] if level == 0 else label
            level += 1
        else:
            level -= 1
            if level == 0:
                top[label] = event[1]
    assert top == {d.value: v for d, v in plain.items()}
    tree = expectimax_tree(board, depth, evaluate=evaluate, p_four=p_four, max_nodes=10**6)
    assert {tree.nodes[c].label: tree.nodes[c].value for c in tree.root.children} == {d.value: v for d, v in
                                                                                     plain.items()}
    assert tree.root.value == ai.best_value(board, depth, evaluate, p_four)
    assert len(tree.nodes) == 1 + sum(e[0] == "enter" for e in recorder.events)


# ---------------------------------------------------------------------------------- the fast search's shortcuts
boards = st.integers(0, 2**64 - 1)
full_of_big_tiles = st.lists(st.sampled_from([0, 13, 14, 15, 15]), min_size=16, max_size=16).map(
    lambda cells: sum(e << (4 * i) for i, e in enumerate(cells)))


@settings(max_examples=300, deadline=None)
@given(st.one_of(boards, full_of_big_tiles))
def test_moves_from_the_compact_tables_equal_apply_move(bits):
    full, rows = bitboard.row_tables(), kernels.search_rows()
    b = np.uint64(bits)
    flipped = np.uint64(kernels.transpose_bits(b))  # (numba hands a uint64 back as a Python int)
    for code in range(4):
        want = bitrows.apply_move(b, code, full.left, full.right, full.score)
        assert kernels.move_pair(b, flipped, code, rows.left, rows.right, rows.score, True) == want
        if not kernels.might_overflow(b):  # unscored: same board, no points (the heuristic does not count them)
            assert kernels.move_pair(b, flipped, code, rows.left, rows.right, rows.score, False)[0] == want[0]
    assert kernels.might_overflow(b) == (bitrows.max_exponent(b) == 15)


@settings(max_examples=300, deadline=None)
@given(st.one_of(boards, st.sets(st.integers(0, 15)).map(lambda empty: sum(
    (0 if i in empty else 1 + i % 15) << (4 * i) for i in range(16)))))
def test_the_chance_nodes_empty_cells_are_exactly_the_boards_zero_nibbles(bits):
    """The bit tricks a chance node walks its spawns with: the mask, its popcount and each cell's index."""
    b = np.uint64(bits)
    want = [i for i in range(16) if (bits >> (4 * i)) & 15 == 0]
    free = int(kernels.empty_cells_bits(b))
    assert free == sum(1 << (4 * i) for i in want)
    assert kernels.count_cells(np.uint64(free)) == len(want) == bitrows.count_empty(b)
    assert [kernels.cell_index(np.uint64(1 << (4 * i))) for i in want] == want


@settings(max_examples=200, deadline=None)
@given(boards, st.integers(0, 15), st.sampled_from([1, 2]))
def test_a_spawned_leaf_scores_the_very_same_float_as_a_full_evaluation(bits, index, exponent):
    from tilelab.game2048.expectimax import (heuristic_leaf, heuristic_leaf_prepare, heuristic_leaf_spawned,
                                             heuristic_table)

    after = np.uint64(bits & ~(0xF << (4 * index)))  # cell index is empty
    child = after | np.uint64(exponent << (4 * index))
    table = heuristic_table()
    flipped, *entries = heuristic_leaf_prepare(after, table)
    prep = (np.uint64(flipped), *entries)  # (numba hands a uint64 back as a Python int)
    assert heuristic_leaf_spawned(child, index, np.uint64(exponent), prep, table) == heuristic_leaf(child, table)


# a bitboard with at least one empty cell and tiles up to 2048 (a search from it has moves to make)
playable = st.lists(st.integers(0, 11), min_size=16, max_size=16).filter(lambda cells: 0 in cells).map(
    lambda cells: sum(e << (4 * i) for i, e in enumerate(cells)))


@settings(max_examples=60, deadline=None)
@given(playable, st.sampled_from([2, 3]), st.floats(0.0, 1.0), st.sampled_from([0.0, 0.1, 1.0]))
def test_a_node_limit_stops_the_search_exactly_one_node_past_it(bits, depth, share, p_four):
    """The last level counts its leaves in one step (kernels.leaf_chance) unless the limit falls among them: a
    search limited to L nodes still stops at node L + 1 exactly, and one given room finishes with the same tree."""
    full = search_bits(bits, depth, SearchTables(table_bits=12), p_four=p_four)
    limit = max(1, int(share * full.nodes))
    cut = search_bits(bits, depth, SearchTables(table_bits=12), p_four=p_four, node_limit=limit)
    if limit >= full.nodes:
        assert (cut.complete, cut.nodes, _values(cut.values)) == (True, full.nodes, _values(full.values))
    else:
        assert (cut.complete, cut.nodes) == (False, limit + 1), (hex(bits), depth, limit, full.nodes)


@pytest.mark.parametrize("depth", [3, 4])
def test_a_passed_deadline_stops_the_search_at_the_first_look_at_the_clock(depth):
    """The clock is read every CHECK_EVERY nodes, also where the last level counts its leaves in one step."""
    for position in DATA["positions"][:6]:
        bits = int(position, 16)
        full = search_bits(bits, depth, SearchTables(table_bits=14))
        late = search_bits(bits, depth, SearchTables(table_bits=14), deadline=1e-9)  # long passed
        if full.nodes >= kernels.CHECK_EVERY:
            assert (late.complete, late.nodes) == (False, kernels.CHECK_EVERY), position
        else:
            assert (late.complete, late.nodes) == (True, full.nodes)
        later = search_bits(bits, depth, SearchTables(table_bits=14), deadline=time.perf_counter() + 60.0)
        assert (later.complete, later.nodes, _values(later.values)) == (True, full.nodes, _values(full.values))


def test_a_compiled_copy_is_named_after_its_leaf_so_a_changed_leaf_never_reuses_a_stale_cache(tmp_path):
    """numba reuses a disk-cached copy while kernels.py is unchanged; the copy's name carries a digest of the
    leaf's code (and of the tilelab functions it calls), the same in every process whatever its hash seed."""
    import subprocess
    import sys

    from tilelab.game2048 import expectimax

    name = expectimax.HEURISTIC_SEARCH.chance_value.__name__
    digest = kernels.code_digest(expectimax.heuristic_leaf, expectimax.heuristic_leaf_prepare,
                                 expectimax.heuristic_leaf_spawned)
    assert name == f"chance_value_heuristic_{digest}"
    for seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", "from tilelab.game2048 import expectimax; "
                              "print(expectimax.HEURISTIC_SEARCH.chance_value.__name__)"],
                             capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": seed},
                             cwd=Path(__file__).resolve().parents[1])
        assert out.stdout.strip() == name

    def leaf(board, data):
        return 1.0

    def other_leaf(board, data):
        return 2.0

    def calls_a_tilelab_function(board, data):
        return float(bitrows.count_empty(board))

    assert len({kernels.code_digest(f) for f in (leaf, other_leaf, calls_a_tilelab_function)}) == 3
    assert kernels.code_digest(calls_a_tilelab_function) != kernels.code_digest(calls_a_tilelab_function, leaf)

    def leaf_calling(helper_source: str):
        namespace: dict = {}
        exec(helper_source, namespace)  # the same leaf over a helper whose code differs
        namespace["helper"].__module__ = "tilelab.game2048.somewhere"
        exec("def leaf(board, data):\n    return helper(1.0)\n", namespace)
        return namespace["leaf"]

    first = leaf_calling("def helper(x):\n    return x + 1.0\n")
    assert kernels.code_digest(first) == kernels.code_digest(leaf_calling("def helper(x):\n    return x + 1.0\n"))
    assert kernels.code_digest(first) != kernels.code_digest(leaf_calling("def helper(x):\n    return x + 2.0\n"))
    weight = leaf_calling("WEIGHT = 1.0\ndef helper(x):\n    return x + WEIGHT\n")
    assert kernels.code_digest(weight) != kernels.code_digest(leaf_calling("WEIGHT = 2.0\ndef helper(x):\n"
                                                                           "    return x + WEIGHT\n"))


def test_readme_quotes_the_saved_search_speed():
    """The README's speed row is the saved benchmark's: each depth's median run and range, every run on the same
    tree with the same values as the old kernel, 2x at every depth in every run, and the count of runs at depth 3."""
    root = Path(__file__).resolve().parents[1]
    saved = json.loads((root / "benchmarks" / "results" / "bench_2048_search.json").read_text())["speed"]
    row = next(line for line in (root / "benchmarks" / "README.md").read_text(encoding="utf-8").splitlines()
               if line.startswith("| expectimax search speed on 20 fixed positions"))
    runs = saved["runs"]
    assert len(runs) >= 5 and all(r["depths"][d]["same_tree_and_values"] for r in runs for d in ("3", "4", "5"))
    depths = saved["depths"]
    rates = " / ".join(f"{depths[d]['nodes_per_s'] / 1e6:.1f}" for d in ("3", "4", "5"))
    ratios = " / ".join(f"{depths[d]['speedup']:.2f}x ({depths[d]['speedup_low']:.2f}-{depths[d]['speedup_high']:.2f})"
                        for d in ("3", "4", "5"))
    assert f"median of {len(runs)} runs: {rates} M nodes/s at depths 3 / 4 / 5, {ratios}" in row
    for d in ("3", "4", "5"):
        assert depths[d]["speedup_low"] >= 2.0  # "met at every depth in every run"
    assert "met at every depth in every run" in row
    at_three = sum(r["depths"]["3"]["speedup"] >= 2.0 for r in runs)
    assert f"at depth 3 in {at_three} of {len(runs)} (median {depths['3']['speedup']:.2f}x)" in row
