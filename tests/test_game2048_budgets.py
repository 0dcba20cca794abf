"""Honest search budgets: a deterministic node budget and a real wall-clock budget."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest

from tilelab.game2048 import Board, Expectimax, Game, legal_moves, play_game
from tilelab.game2048.ai import expectimax_values
from tilelab.game2048.fast.bitboard import parse_bits
from tilelab.game2048.expectimax import Budget, SearchResult, SearchTables, deepen, search_bits
from tilelab.game2048.fast.kernels import CHECK_EVERY

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


class SimulatedSearch:
    """A search on a simulated clock: level ``d`` searches ``growth**d`` nodes at 2,000 nodes per ms, stops at its
    deadline (incomplete) as the compiled search does, and may then wait ``stall_ms`` for a core."""

    RATE = 2000.0  # nodes per ms

    def __init__(self, growth: int = 8, *, jump_at: int = 0, stall_ms: float = 0.0):
        self.now, self.growth, self.jump_at, self.stall_ms = 0.0, growth, jump_at, stall_ms
        self.levels: list[int] = []

    def nodes(self, depth: int) -> int:
        return self.growth ** depth * (20 if self.jump_at and depth >= self.jump_at else 1)

    def cost_ms(self, depth: int) -> float:
        return self.nodes(depth) / self.RATE

    def clock(self) -> float:
        return self.now

    def __call__(self, depth: int, limit: int, deadline: float | None) -> SearchResult:
        self.levels.append(depth)
        cost = self.cost_ms(depth) / 1e3
        if deadline is not None and self.now + cost > deadline:  # the clock stops it (looked at every few nodes)
            spent = max(0.0, deadline - self.now) + self.stall_ms / 1e3
            self.now += spent
            return SearchResult(-1, (math.nan,) * 4, depth, int(self.nodes(depth) * spent / cost), 0, False, spent)
        self.now += cost
        return SearchResult(0, (1.0, 0.0, 0.0, 0.0), depth, self.nodes(depth), 0, True, cost)


@pytest.mark.parametrize("ms", [5, 40, 150, 1000])
def test_a_clock_budget_deepens_until_the_next_level_would_not_fit(ms):
    """On a simulated clock (no dependence on how busy the machine is): the levels run finish inside the time,
    and the first level not started is one that would have run past it."""
    search = SimulatedSearch()
    budget = Budget(ms_per_move=ms, nodes_per_ms=SimulatedSearch.RATE)
    result = deepen(search, budget, start=0.0, clock=search.clock)
    assert result.complete and result.depth == search.levels[-1] == len(search.levels) < budget.max_depth
    spent_ms = 1e3 * search.now
    assert spent_ms <= ms
    assert spent_ms + search.cost_ms(result.depth + 1) > ms - budget.stop_early_ms()  # the next level would not fit


def test_more_time_searches_deeper_on_the_same_clock():
    depths = []
    for ms in (1, 10, 100, 1000):
        search = SimulatedSearch()
        depths.append(deepen(search, Budget(ms_per_move=ms, nodes_per_ms=SimulatedSearch.RATE), start=0.0, clock=search.clock).depth)
    assert depths == sorted(depths) and depths[0] < depths[-1]


def test_a_level_the_clock_stops_is_dropped_and_the_deeper_finished_one_kept():
    search = SimulatedSearch(jump_at=5)  # level 5 costs 20 times what the budget predicts
    result = deepen(search, Budget(ms_per_move=80, nodes_per_ms=SimulatedSearch.RATE), start=0.0, clock=search.clock)
    assert search.levels == [1, 2, 3, 4, 5] and result.complete and result.depth == 4
    assert 1e3 * search.now <= 80


def test_a_move_that_came_back_late_moves_the_next_deadline_up():
    search = SimulatedSearch(jump_at=5, stall_ms=30.0)  # the stopped level waits 30 ms for a core
    budget = Budget(ms_per_move=80, nodes_per_ms=SimulatedSearch.RATE)
    before = budget.stop_early_ms()
    deepen(search, budget, start=0.0, clock=search.clock)
    assert budget.late_ms > 0 and budget.stop_early_ms() > before


def test_the_real_clock_budget_plays_a_legal_move():
    """With the machine's own clock the move is legal whatever the load (how long it took is not asserted)."""
    thought = Expectimax(ms_per_move=40).think(POSITION)
    assert thought.direction in legal_moves(POSITION) and thought.depth >= 1


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
    thought = Expectimax(nodes_per_move=1).think(board)
    assert thought.depth == 0 and thought.nodes <= 4 and thought.direction is not None  # judged by evaluation only
    thought = Expectimax(nodes_per_move=600).think(board)
    assert thought.depth == 1 and thought.nodes <= 600  # one move ahead fits: 4 moves x 62 cells x 2 tiles = 496


def test_readable_search_fixed_depth_is_bounded_by_max_nodes():
    board = Game(size=6, rng=2).board
    player = Expectimax(depth=3, max_nodes=3000)
    thought = player.think(board)
    assert thought.depth < 3 and thought.direction is not None and thought.nodes <= 3000
    small = Board.parse("2 2 .\n. . .\n. . 4")
    assert Expectimax(depth=2).think(small).values == pytest.approx(expectimax_values(small, 2))


def test_readable_search_with_a_wall_clock_budget_stops_at_its_deadline():
    from tilelab.game2048.ai import readable_search

    board = Game(size=8, rng=3).board
    late = readable_search(board, 2, deadline=1e-9)  # a deadline long passed: it stops at once and says so
    assert not late.complete and late.nodes <= 1
    thought = Expectimax(ms_per_move=5).think(board)  # depth 1 alone takes longer than 5 ms: still a legal move
    assert thought.direction in legal_moves(board)


def test_search_stops_at_a_deadline_and_says_so():
    bits = parse_bits("2 4 8 16\n. 2 . 4\n. . . 2\n. . . .")
    tables = SearchTables()
    result = search_bits(bits, 7, tables, cutoff=0.0, deadline=1e-9)  # without cutoff depth 7 would take minutes
    assert not result.complete and result.best == -1 and result.nodes == CHECK_EVERY  # stopped at its first look
    assert search_bits(bits, 2, tables, deadline=time.perf_counter() + 10).complete
