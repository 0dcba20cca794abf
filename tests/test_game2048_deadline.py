"""A wall-clock budget that holds: the compiled searches read the clock themselves, and every player ends a move
in bounded time on every board size it accepts (each refuses the others with a ValueError)."""

from __future__ import annotations

import time

import numpy as np
import pytest

from tilelab.game2048 import (
    Board, CornerPlayer, Expectimax, Game, GreedyPlayer, MonteCarloPlayer, RandomPlayer, legal_moves,
)
from tilelab.game2048.board import MAX_SIZE
from tilelab.game2048 import expectimax
from tilelab.game2048.expectimax import Budget, SearchResult, deepen
from tilelab.game2048.learning.ntuple_players import TDExpectimax, TDPlayer, lesson_network

MIDGAME = Board.parse("4 16 32 256\n2 8 16 128\n. 2 4 64\n. . 2 8")
SLACK_MS = 150  # the searches themselves stop at T; returning and bookkeeping take a little more


def timed(player, board: Board) -> tuple[float, object]:
    """The move and the CPU time it used (ms): a process waiting for a core uses none, so a busy machine does not
    change it, while a search that kept working past its deadline would."""
    tick = time.process_time()
    thought = player.think(board) if hasattr(player, "think") else player(board)
    return 1e3 * (time.process_time() - tick), thought


@pytest.fixture(scope="module")
def net():
    return lesson_network()


def test_the_clock_stops_a_level_that_was_predicted_to_fit():
    # nodes_per_ms=1e9 makes every level look free, so only the compiled search's own clock can stop depth 8
    player = Expectimax(ms_per_move=30, nodes_per_ms=1e9, max_depth=8, cutoff=0.0)
    player.think(MIDGAME)  # compile
    spent, thought = timed(player, MIDGAME)
    assert spent < 30 + SLACK_MS, spent
    assert thought.direction in legal_moves(MIDGAME) and thought.depth < 8


def test_td_search_stops_at_its_deadline_too(net):
    player = TDExpectimax(net, ms_per_move=30, max_depth=8, cutoff=0.0)
    player.budget.nodes_per_ms = 1e9  # every level looks free: the clock in the search must stop it
    player.think(MIDGAME)
    player.budget.nodes_per_ms = 1e9
    spent, thought = timed(player, MIDGAME)
    assert spent < 30 + SLACK_MS, spent
    assert thought.direction in legal_moves(MIDGAME) and thought.depth < 8


def test_a_level_that_cannot_finish_is_not_started():
    # both predictions say level 2 needs far more than the 200 ms: the rate (1 node a second) and the
    # time level 1 took (0.15 s, and a level costs at least twice the one before)
    calls: list = []
    result = deepen(fake_search(8, calls, seconds=0.15), Budget(ms_per_move=200, nodes_per_ms=1e-3))
    assert result.depth == 1 and len(calls) == 1
    # if only one prediction says it fits, the level is started (the clock in the search is the guard)
    calls.clear()
    result = deepen(fake_search(8, calls, seconds=1e-6), Budget(ms_per_move=200, nodes_per_ms=1e-3, max_depth=3))
    assert result.depth == 3 and len(calls) == 3


def fake_search(deepest_complete: int, calls: list, seconds: float = 1e-4):
    """Levels up to ``deepest_complete`` finish with best move ``depth % 4``; deeper ones are stopped."""
    def run(depth, limit, deadline=None):
        calls.append((depth, deadline))
        done = depth <= deepest_complete
        values = tuple(float(depth * 10 + c) if done else float("nan") for c in range(4))
        return SearchResult(depth % 4 if done else -1, values, depth, 100 * depth, 0, done, seconds)
    return run


def test_the_move_comes_from_the_deepest_finished_level():
    calls: list = []
    budget = Budget(ms_per_move=1000, nodes_per_ms=1e9)
    result = deepen(fake_search(3, calls), budget)
    assert (result.depth, result.best, result.complete) == (3, 3, True)
    assert [d for d, _ in calls] == [1, 2, 3, 4]  # level 4 started, stopped, dropped
    assert calls[0][1] is None and all(deadline is not None for _, deadline in calls[1:])  # level 1 always finishes


def test_the_deadline_counts_from_the_start_of_the_move():
    calls: list = []
    start = time.perf_counter() - 10.0  # the move began 10 s ago: no time is left for level 2
    result = deepen(fake_search(8, calls), Budget(ms_per_move=50, nodes_per_ms=1e9), start=start)
    assert result.depth == 1 and len(calls) == 1


def test_node_budgets_never_read_the_clock():
    calls: list = []
    deepen(fake_search(8, calls), Budget(nodes_per_move=10**9, max_depth=5))
    assert [d for d, _ in calls] == [1, 2, 3, 4, 5] and all(deadline is None for _, deadline in calls)


# ---------------------------------------------------------------------------------- bounded time, every player
def big_board(size: int) -> Board:
    return Game(size=size, rng=5).board


# Each bound is at least 10x the move's CPU time on a quiet 2-core machine (measured); CPU time, not wall time,
# so a loaded machine (a process waiting for a core) does not change it.
@pytest.mark.parametrize("make, limit_s", [
    (lambda: Expectimax(), 3.0),  # readable search, READABLE_NODES boards: ~0.1 s on 8x8
    (lambda: Expectimax(ms_per_move=50), 4.0),  # up to ~0.4 s quiet: the readable search looks at the clock coarsely
    (lambda: Expectimax(depth=3), 15.0),  # bounded by READABLE_MAX_NODES evaluated boards: ~1.4 s quiet
    (lambda: Expectimax(depth=64, cutoff=0.0), 12.0),  # ~1.1 s quiet
    (lambda: RandomPlayer(rng=0), 1.0),
    (lambda: GreedyPlayer(), 1.0),
    (lambda: CornerPlayer(), 1.0),
])
def test_players_end_a_move_in_bounded_time_on_the_largest_board(make, limit_s):
    board = big_board(MAX_SIZE)
    player = make()
    tick = time.process_time()
    direction = player(board)
    assert time.process_time() - tick < limit_s
    assert direction in legal_moves(board)


@pytest.mark.parametrize("make, limit_s", [
    (lambda net: Expectimax(), 2.0),
    (lambda net: Expectimax(depth=64, cutoff=0.0), 10.0),  # capped by max_nodes, falls back to what fits
    (lambda net: TDExpectimax(net), 2.0),
    (lambda net: TDExpectimax(net, depth=64, cutoff=0.0), 10.0),
    (lambda net: TDPlayer(net), 1.0),
    (lambda net: MonteCarloPlayer(rng=0), 5.0),
])
def test_bitboard_players_end_a_move_in_bounded_time_on_4x4(net, make, limit_s):
    player = make(net)
    player(MIDGAME)  # compile first: the bound is about the search, not numba
    tick = time.process_time()
    direction = player(MIDGAME)
    assert time.process_time() - tick < limit_s
    assert direction in legal_moves(MIDGAME)


@pytest.mark.parametrize("make", [lambda net: TDExpectimax(net), lambda net: TDPlayer(net),
                                  lambda net: MonteCarloPlayer(rng=0)])
def test_bitboard_only_players_refuse_other_sizes_clearly(net, make):
    with pytest.raises(ValueError, match="4x4"):
        make(net)(big_board(5))


def test_clock_budget_on_a_big_board_stays_near_its_time():
    board = big_board(6)
    player = Expectimax(ms_per_move=40)
    spent = sorted(timed(player, board)[0] for _ in range(3))
    assert spent[1] < 40 + SLACK_MS, spent


def test_integer_settings_take_numpy_integers_and_refuse_floats_and_bools(net):
    assert TDExpectimax(net, nodes_per_move=np.int64(500), table_bits=np.int32(10)).budget.nodes_per_move == 500
    for bad in ({"table_bits": 10.0}, {"nodes_per_move": True}, {"cutoff": "x"}, {"max_nodes": 0}):
        with pytest.raises((TypeError, ValueError), match=next(iter(bad))):
            TDExpectimax(net, **bad)


def test_a_search_that_comes_back_late_moves_the_next_deadline_up():
    # a machine where the process only sees the deadline 20 ms after it passed (waiting for a core), on a
    # simulated clock (deepen's clock=), so the test does not depend on how busy this machine is
    clock = FakeClock()

    def run(depth, limit, deadline=None):
        if deadline is None:
            clock.now += 1e-5
            return SearchResult(0, (1.0, 0.0, 0.0, 0.0), depth, 10, 0, True, 1e-5)
        clock.now = max(clock.now, deadline) + 0.02
        return SearchResult(-1, (float("nan"),) * 4, depth, 10**6, 0, False, 0.05)

    budget = Budget(ms_per_move=60, nodes_per_ms=1e9)
    spent = []
    for _ in range(6):
        tick = clock.now
        deepen(run, budget, start=tick, clock=clock.perf_counter)
        spent.append(1e3 * (clock.now - tick))
    assert budget.late_ms > 5, budget.late_ms
    assert spent[-1] < spent[0] - 5, spent  # first ~80 ms, then closer to 60
    assert budget.late_ms <= 60  # never more than the budget


# ---------------------------------------------------------------------------------- the contract, without timing
class FakeClock:
    """A perf_counter that only moves when a fake search says so (seconds)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def perf_counter(self) -> float:
        return self.now


def simulated_search(clock: FakeClock, stall_s: list, level_ms: float = 0.5):
    """Level d costs level_ms * 4**(d-1) ms of fake time; one that passes its deadline is stopped there and then
    waits ``stall_s[0]`` seconds for a core (the process cannot see the clock while it is not running)."""
    def run(depth, limit, deadline=None):
        cost = level_ms * 4 ** (depth - 1) / 1e3
        if deadline is not None and clock.now + cost > deadline:
            clock.now = max(clock.now, deadline) + stall_s[0]
            return SearchResult(-1, (float("nan"),) * 4, depth, 10**6, 0, False, cost, stall_s[0])
        clock.now += cost
        return SearchResult(depth % 4, tuple(float(depth * 10 + c) for c in range(4)), depth, 4**depth, 0, True,
                            cost, 0.0)
    return run


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(expectimax, "time", fake)
    return fake


def test_with_the_clock_faked_every_move_of_a_stalling_machine_keeps_the_targets(clock):
    # 1,000 moves of T = 50 ms on a machine that, at random, stalls a move up to 45 ms just as its deadline passes
    rng = np.random.default_rng(23)
    budget, stall, spent = Budget(ms_per_move=50, nodes_per_ms=1e9, max_depth=8), [0.0], []
    for _ in range(1000):
        stall[0] = float(rng.choice([0.0, 0.002, 0.010, 0.045], p=[0.5, 0.3, 0.15, 0.05]))
        start = clock.now
        result = deepen(simulated_search(clock, stall), budget, start=start)
        spent.append(1e3 * (clock.now - start))
        assert result.complete and result.depth >= 1  # the deepest finished level, never the stopped one
    spent_ms = np.array(spent)
    assert np.percentile(spent_ms, 95) <= 60 and spent_ms.max() <= 100, (np.percentile(spent_ms, 95), spent_ms.max())
    assert np.median(spent_ms) > 10  # and it still uses its time: not every move gives up at once


def test_a_long_wait_moves_the_deadline_up_then_fades(clock):
    budget = Budget(ms_per_move=50, nodes_per_ms=1e9)
    assert budget.stop_early_ms() == 1.0
    stall = [0.040]  # one move that waits 40 ms for a core as it reaches the deadline
    deepen(simulated_search(clock, stall), budget, start=clock.now)
    assert budget.stall_ms == pytest.approx(40.0) and budget.stop_early_ms() == pytest.approx(35.0)
    stall[0] = 0.0
    early = []
    for _ in range(300):  # quiet again: the remembered wait fades
        deepen(simulated_search(clock, stall), budget, start=clock.now)
        early.append(budget.stop_early_ms())
    assert early == sorted(early, reverse=True) and early[100] < 15 and early[-1] == 1.0


def test_the_stop_time_is_bounded_and_a_wait_longer_than_T_counts_as_T():
    budget = Budget(ms_per_move=50)
    budget.learn_lateness(late_ms=5000.0, gap_ms=0.0)  # a machine that froze for 5 s
    assert budget.stall_ms == 50.0 and budget.stop_early_ms() == 45.0  # at most 90% of T is given up


def test_the_compiled_search_stops_within_a_few_thousand_nodes_of_a_passed_deadline():
    from tilelab.game2048.expectimax import SearchTables, search_bits
    from tilelab.game2048.fast.bitboard import to_bitboard
    from tilelab.game2048.fast.kernels import CHECK_EVERY

    tables = SearchTables(table_bits=16)
    result = search_bits(to_bitboard(MIDGAME), 6, tables, cutoff=0.0, deadline=time.perf_counter() - 1.0)
    assert not result.complete and result.best == -1 and result.nodes <= CHECK_EVERY


def test_the_compiled_search_measures_its_longest_gap_between_two_looks_at_the_clock(net):
    from tilelab.game2048.expectimax import SearchTables, search_bits
    from tilelab.game2048.fast.bitboard import to_bitboard

    bits = to_bitboard(MIDGAME)
    free = search_bits(bits, 3, SearchTables(table_bits=16))
    timed = search_bits(bits, 3, SearchTables(table_bits=16), deadline=time.perf_counter() + 3600)
    assert free.longest_gap == 0.0  # no deadline: the clock is never read
    assert timed.complete and 0.0 < timed.longest_gap <= timed.seconds
    td = TDExpectimax(net, depth=4, cutoff=0.0).search(bits, 4, deadline=time.perf_counter() + 3600)
    assert td.complete and 0.0 < td.longest_gap <= td.seconds
