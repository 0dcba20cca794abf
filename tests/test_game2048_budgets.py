"""Honest search budgets: a deterministic node budget and a real wall-clock budget."""

from __future__ import annotations

import time

import pytest

from tilelab.game2048 import Board, Expectimax, play_game
from tilelab.game2048.bitboard import parse_bits
from tilelab.game2048.expectimax import Budget, SearchTables, deepen, search_bits

POSITION = Board.parse("4 16 32 256\n2 8 16 128\n. 2 4 64\n. . 2 8")


def test_node_budget_plays_the_same_game_twice():
    a = play_game(Expectimax(nodes_per_move=20_000), seed=3, max_moves=80)
    b = play_game(Expectimax(nodes_per_move=20_000), seed=3, max_moves=80)
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
    # loose bounds on a shared machine: not a timing test, a check that the clock is honoured at all
    assert 10 < spent[len(spent) // 2] < 400, spent


def test_wall_clock_uses_more_depth_with_more_time():
    quick, slow = Expectimax(ms_per_move=1), Expectimax(ms_per_move=150)
    quick.think(POSITION), slow.think(POSITION)
    assert quick.think(POSITION).depth <= slow.think(POSITION).depth


@pytest.mark.parametrize("kwargs", [{"depth": 2, "nodes_per_move": 10}, {"nodes_per_move": 0},
                                    {"ms_per_move": -1}, {"nodes_per_move": 2.5}, {"ms_per_move": True}])
def test_bad_budgets_are_refused(kwargs):
    with pytest.raises(ValueError, match="depth|nodes_per_move|ms_per_move"):
        Expectimax(**kwargs)


def test_deepen_with_fixed_depth_runs_that_depth():
    bits = parse_bits("2 2 . .\n. . . .\n. . . .\n. . . 4")
    tables = SearchTables(table_bits=10)
    assert deepen(lambda d, limit: search_bits(bits, d, tables, node_limit=limit), Budget(depth=2)).depth == 2
    with pytest.raises(ValueError, match="exactly one"):
        Budget()
