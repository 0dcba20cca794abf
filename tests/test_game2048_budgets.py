"""Honest search budgets: a deterministic node budget and a real wall-clock budget."""

from __future__ import annotations

import time

import numpy as np
import pytest

from tilelab.game2048 import Board, Expectimax, Game, legal_moves, play_game
from tilelab.game2048.ai import expectimax_values
from tilelab.game2048.fast.bitboard import parse_bits
from tilelab.game2048.expectimax import Budget, SearchTables, deepen, search_bits

POSITION = Board.parse("4 16 32 256\n2 8 16 128\n. 2 4 64\n. . 2 8")


def test_node_budget_plays_the_same_game_twice():
    a = play_game(Expectimax(nodes_per_move=20_000), rng=3, max_moves=80)
    b = play_game(Expectimax(nodes_per_move=20_000), rng=3, max_moves=80)
    assert (a.directions, a.spawns, a.score) == (b.directions, b.spawns, b.score)


def test_default_budget_is_the_deterministic_node_budget():
    player = Expectimax()
    assert player.budget.deterministic and player.nodes_per_move == Expectimax.DEFAULT_NODES
    assert not Expectimax(ms_per_move=5).budget.deterministic


def test_node_limit_stops_a_search_and_says_so():
    bits = parse_bits("2 4 8 16\n. 2 . 4\n. . . 2\n. . . .")
    full = search_bits(bits, 3, SearchTables(table_bits=12))
    cut = search_bits(bits, 3, SearchTables(table_bits=12), node_limit=full.nodes // 3)
    assert full.complete and not cut.complete and cut.nodes <= full.nodes


def test_wall_clock_budget_spends_about_its_time():
    player = Expectimax(ms_per_move=40)
    player.think(POSITION)  # compile and calibrate
    spent = []
    for _ in range(5):
        tick = time.perf_counter()
        thought = player.think(POSITION)
        spent.append(1e3 * (time.perf_counter() - tick))
        assert thought.direction is not None
    spent.sort()
    # loose bounds on a shared machine: not a timing test, a check that the clock is honoured at all. The low
    # bound is well above a depth-1 search (~0.1 ms) but below T/4: a level predicted to need more than the time
    # left is not started, so a fast search may stop after ~8 ms when the next level would take ~35
    assert 2 < spent[len(spent) // 2] < 1000, spent


def test_wall_clock_uses_more_depth_with_more_time():
    quick, slow = Expectimax(ms_per_move=1), Expectimax(ms_per_move=150)
    quick.think(POSITION), slow.think(POSITION)
    assert quick.think(POSITION).depth <= slow.think(POSITION).depth


@pytest.mark.parametrize("kwargs", [{"depth": 2, "nodes_per_move": 10}, {"nodes_per_move": 0},
                                    {"ms_per_move": -1}, {"nodes_per_move": 2.5}, {"ms_per_move": True},
                                    {"ms_per_move": "50"}, {"nodes_per_move": True}, {"depth": 2.0},
                                    {"depth": 65}, {"max_depth": 0}, {"max_nodes": 0}, {"max_nodes": 1.5}])
def test_bad_budgets_are_refused(kwargs):
    with pytest.raises((TypeError, ValueError), match="depth|nodes_per_move|ms_per_move|max_nodes"):
        Expectimax(**kwargs)


@pytest.mark.parametrize("kwargs, name", [
    ({"cutoff": "x"}, "cutoff"), ({"cutoff": 1.0}, "cutoff"), ({"cutoff": float("nan")}, "cutoff"),
    ({"p_four": 2}, "p_four"), ({"p_four": None}, "p_four"), ({"table_bits": 40}, "table_bits"),
    ({"table_bits": 20.0}, "table_bits"), ({"nodes_per_ms": 0}, "nodes_per_ms"), ({"weights": {}}, "weights"),
])
def test_bad_settings_name_the_argument(kwargs, name):
    with pytest.raises((TypeError, ValueError), match=name):
        Expectimax(**kwargs)


@pytest.mark.parametrize("kwargs", [{"seconds": "1"}, {"nodes_per_move": True}, {"ms_per_move": "1"},
                                    {"depth": np.float64(3)}])
def test_budget_refuses_wrong_types_with_a_clear_error(kwargs):
    with pytest.raises((TypeError, ValueError), match="seconds|nodes_per_move|ms_per_move|depth"):
        Budget(**kwargs)


def test_integers_may_be_numpy_integers():
    budget = Budget(nodes_per_move=np.int64(5000), max_depth=np.int32(6))
    assert (budget.nodes_per_move, budget.max_depth) == (5000, 6) and type(budget.nodes_per_move) is int
    assert Expectimax(depth=np.int64(2), table_bits=np.int16(10)).depth == 2
    assert search_bits(parse_bits("2 2 . .\n. . . .\n. . . .\n. . . 4"), np.int64(2), SearchTables(table_bits=10),
                       node_limit=np.int64(0)).complete


def test_deepen_with_fixed_depth_runs_that_depth():
    bits = parse_bits("2 2 . .\n. . . .\n. . . .\n. . . 4")
    tables = SearchTables(table_bits=10)
    assert deepen(lambda d, limit: search_bits(bits, d, tables, node_limit=limit), Budget(depth=2)).depth == 2
    with pytest.raises(ValueError, match="exactly one"):
        Budget()


# ---------------------------------------------------------------------------------- bounded searches
def test_a_fixed_depth_that_needs_too_many_nodes_falls_back_to_the_deepest_level_that_fits():
    board = Board.parse("2 4 8 16\n. 2 . 4\n. . . 2\n. . . .")
    player = Expectimax(depth=64, cutoff=0.0, max_nodes=200_000)  # unbounded by itself: 64 levels, no cutoff
    thought = player.think(board)
    assert thought.direction is not None and 2 <= thought.depth < 64
    assert thought.nodes <= 200_000
    again = Expectimax(depth=64, cutoff=0.0, max_nodes=200_000).think(board)
    assert (again.direction, again.depth, again.nodes) == (thought.direction, thought.depth, thought.nodes)


def test_node_budget_caps_every_level():
    bits = parse_bits("2 4 8 16\n. 2 . 4\n. . . 2\n. . . .")
    tables = SearchTables(table_bits=12)
    seen = []

    def run(depth, limit, deadline=None):
        seen.append(limit)
        return search_bits(bits, depth, tables, node_limit=limit, deadline=deadline)

    deepen(run, Budget(nodes_per_move=50_000, max_nodes=30_000))
    assert seen[0] == 0 and all(limit == 30_000 for limit in seen[1:])  # level 1 is free, the rest capped


def test_readable_search_respects_a_node_budget_on_a_big_board():
    board = Board.parse("\n".join([". " * 7 + "2"] + [". " * 8] * 6 + ["2 " + ". " * 7]))  # 8x8, two tiles
    tick = time.perf_counter()
    thought = Expectimax(nodes_per_move=1).think(board)
    assert time.perf_counter() - tick < 1.0
    assert thought.depth == 0 and thought.nodes <= 4 and thought.direction is not None  # judged by evaluation only
    thought = Expectimax(nodes_per_move=600).think(board)
    assert thought.depth == 1 and thought.nodes <= 600  # one move ahead fits: 4 moves x 62 cells x 2 tiles = 496


def test_readable_search_fixed_depth_is_bounded_by_max_nodes():
    board = Game(size=6, rng=2).board
    player = Expectimax(depth=3, max_nodes=3000)
    tick = time.perf_counter()
    thought = player.think(board)
    assert time.perf_counter() - tick < 10.0  # ~0.7 s on a quiet machine when it is the first search run: 10x
    assert thought.depth < 3 and thought.direction is not None
    small = Board.parse("2 2 .\n. . .\n. . 4")
    assert Expectimax(depth=2).think(small).values == pytest.approx(expectimax_values(small, 2))


def test_readable_search_with_a_wall_clock_budget_stops_in_time():
    board = Game(size=8, rng=3).board
    player = Expectimax(ms_per_move=5)
    tick = time.perf_counter()
    thought = player.think(board)
    assert 1e3 * (time.perf_counter() - tick) < 1000  # depth 1 alone would take ~20-80 ms here: 10x that
    assert thought.direction in legal_moves(board)


def test_search_stops_at_a_deadline_and_says_so():
    bits = parse_bits("2 4 8 16\n. 2 . 4\n. . . 2\n. . . .")
    tables = SearchTables()
    search_bits(bits, 2, tables)  # compiled
    tick = time.perf_counter()
    result = search_bits(bits, 7, tables, cutoff=0.0, deadline=tick + 0.02)
    spent = time.perf_counter() - tick
    assert not result.complete and result.best == -1
    assert spent < 0.5, spent  # a depth-7 search without cutoff would take minutes
    assert search_bits(bits, 2, tables, deadline=time.perf_counter() + 10).complete
