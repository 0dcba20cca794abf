"""Players, the two expectimax implementations, and recorded games."""

from __future__ import annotations

import json
import math
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilelab.game2048 import (
    Board,
    CornerPlayer,
    Direction,
    Expectimax,
    GameRecord,
    GreedyPlayer,
    MonteCarloPlayer,
    RandomPlayer,
    legal_moves,
    play,
    play_game,
    replay,
    spawn_outcomes,
)
from tilelab.game2048 import ai
from tilelab.game2048.fast import bitboard as bb
from tilelab.game2048.fast import bitrows
from tilelab.game2048.expectimax import (
    DEFAULT_WEIGHTS, HeuristicWeights, SearchTables, evaluate_bits, heuristic_table, row_terms, search_bits,
)

GRIDS = st.lists(st.lists(st.integers(0, 8), min_size=4, max_size=4), min_size=4, max_size=4)


def board_of(grid) -> Board:
    return Board([[1 << e if e else 0 for e in row] for row in grid])


def players():
    return [RandomPlayer(rng=0), GreedyPlayer(), CornerPlayer(), MonteCarloPlayer(rollouts=3, rng=0),
            Expectimax(depth=1), Expectimax(ms_per_move=2)]


@settings(max_examples=25, deadline=None)
@given(GRIDS)
def test_every_player_returns_a_legal_move(grid):
    board = board_of(grid)
    legal = legal_moves(board)
    for player in players():
        if legal:
            assert player(board) in legal, player
        else:
            with pytest.raises(ValueError, match="over"):
                player(board)


def test_greedy_takes_the_biggest_immediate_score():
    board = Board.parse("2 2 . .\n. . . .\n. . . 8\n. . . 8")
    assert GreedyPlayer()(board) in (Direction.UP, Direction.DOWN)  # 16 beats the row's 4
    assert play(board, GreedyPlayer()(board)).score == 16


def test_corner_player_keeps_its_order():
    assert CornerPlayer()(Board.parse("2 . . .\n. . . .\n. . . .\n. . . .")) == Direction.DOWN
    assert CornerPlayer()(Board.parse(". . . .\n. . . .\n. . . .\n. . . 2")) == Direction.LEFT
    assert CornerPlayer("top-right")(Board.parse(". . . .\n. . . .\n. . . .\n2 . . .")) == Direction.UP
    with pytest.raises(ValueError, match="corner"):
        CornerPlayer("middle")


def test_seeded_games_are_reproducible():
    for make in (lambda: RandomPlayer(rng=4), lambda: MonteCarloPlayer(rollouts=2, rng=4)):
        a = play_game(make(), rng=9, max_moves=60)
        b = play_game(make(), rng=9, max_moves=60)
        assert (a.directions, a.spawns, a.score) == (b.directions, b.spawns, b.score)
    other = play_game(RandomPlayer(rng=5), rng=9, max_moves=60)
    assert other.directions != a.directions or other.spawns != a.spawns


def test_expectimax_is_a_pure_function_of_the_board():
    board = Board.parse("2 4 8 16\n. 2 . 4\n. . . 2\n. . . .")
    player = Expectimax(nodes_per_move=15_000)
    first = player.think(board)
    player(Board.parse("2 . . .\n. . . .\n. . . .\n. . . 2"))  # another decision in between
    again = player.think(board)
    assert (first.direction, first.values, first.depth, first.nodes) == (
        again.direction, again.values, again.depth, again.nodes)


def test_a_bigger_budget_searches_deeper():
    board = Board.parse("2 4 8 16\n. 2 . 4\n. . . 2\n. . . .")
    assert Expectimax(nodes_per_move=3000).think(board).depth < Expectimax(nodes_per_move=150_000).think(board).depth


# ---------------------------------------------------------------------------------- expectimax by hand
def test_chance_node_by_hand_on_a_tiny_board():
    # 2x2, one empty cell: a 2 comes with p = 0.9, a 4 with p = 0.1; score a board by its top-right tile
    after = Board.parse("2 .\n4 8")
    assert ai.chance_value(after, 1, evaluate=lambda b: b[0, 1]) == pytest.approx(0.9 * 2 + 0.1 * 4)
    # two empty cells: each with p = 1/2, then the tile
    after = Board.parse("2 .\n. 8")
    got = ai.chance_value(after, 1, evaluate=lambda b: b.tile_sum, p_four=0.25)
    assert got == pytest.approx(10 + 0.75 * 2 + 0.25 * 4)


def test_depth_two_by_hand_with_a_lost_board():
    # after the move the only empty cell fills; a 2 leaves a move (2 next to 2), a 4 ends the game
    after = Board.parse("2 4\n8 .")
    value = ai.chance_value(after, 2, evaluate=lambda b: 100.0, p_four=0.5)
    # spawn 2: board "2 4 / 8 2" has no merge -> lost (0); spawn 4: "2 4 / 8 4" merges up/down -> 100
    assert value == pytest.approx(0.5 * 0 + 0.5 * 100.0)


def test_fast_search_matches_a_hand_computation():
    # one empty cell after LEFT; depth 1 = average of the heuristic over the two spawns
    board = Board.parse("2 4 8 16\n32 64 128 256\n512 1024 2048 4\n8 2 . .")
    bits = bb.to_bitboard(board)
    result = search_bits(bits, 1, SearchTables(table_bits=10), cutoff=0.0)
    after = bb.to_bitboard(play(board, "left").board)  # 8 2 . . stays: left changes nothing there
    assert math.isnan(result.values[bb.LEFT])
    right = bb.move_bits(bits, "RIGHT")[0]
    empties = bb.empty_cells(right)
    want = sum(
        (p / len(empties)) * evaluate_bits(right | (e << (4 * (4 * r + c))))
        for r, c in empties for e, p in ((1, 0.9), (2, 0.1))
    )
    assert result.values[bb.RIGHT] == pytest.approx(want, rel=1e-12)
    assert after == bits


@settings(max_examples=20, deadline=None)
@given(st.lists(st.lists(st.integers(1, 7), min_size=4, max_size=4), min_size=4, max_size=4),
       st.sets(st.integers(0, 15), min_size=1, max_size=5))
def test_fast_search_equals_the_plain_recursion(grid, holes):
    for hole in holes:
        grid[hole // 4][hole % 4] = 0
    board = board_of(grid)
    tables = SearchTables(table_bits=8)  # small table: collisions must not change values
    for depth in (1, 2):
        plain = ai.expectimax_values(board, depth)
        fast = search_bits(bb.to_bitboard(board), depth, tables, cutoff=0.0)
        fast_values = {Direction[bitrows.DIRECTION_NAMES[c]]: v for c, v in enumerate(fast.values) if not math.isnan(v)}
        assert fast_values.keys() == plain.keys()
        for d in plain:
            assert fast_values[d] == pytest.approx(plain[d], rel=1e-9, abs=1e-6)
        if plain:
            # the cutoff and the table do not change the choice on these small cases
            best = max(plain, key=plain.get)
            cut = search_bits(bb.to_bitboard(board), depth, tables, cutoff=1e-4)
            chosen = Direction[bitrows.DIRECTION_NAMES[cut.best]]
            assert chosen == best or plain[chosen] == pytest.approx(plain[best], rel=1e-9)


def test_transposition_table_is_used_and_changes_nothing():
    board = bb.parse_bits("2 4 8 16\n. 2 . 4\n. . . 2\n. . . .")
    big = search_bits(board, 3, SearchTables(table_bits=20), cutoff=0.0)
    tiny = search_bits(board, 3, SearchTables(table_bits=4), cutoff=0.0)
    assert big.table_hits > 0
    assert big.values == pytest.approx(tiny.values, rel=1e-12, nan_ok=True)
    assert big.nodes < tiny.nodes  # hits save work


def test_heuristic_table_matches_the_readable_terms():
    table = heuristic_table(DEFAULT_WEIGHTS)
    w = DEFAULT_WEIGHTS
    rng = np.random.default_rng(0)
    for row in list(rng.integers(0, bitrows.ROW_VALUES, 2000)) + [0, 0x4321, 0x1234, 0xFFFF]:
        line = [(int(row) >> (4 * c)) & 0xF for c in range(4)]
        t = row_terms(line, w.mono_power, w.sum_power)
        want = (w.alive / 8 + w.empty * t["empty"] + w.merges * t["merges"] - w.monotonicity * t["monotonicity"]
                - w.smoothness * t["smoothness"] - w.sum * t["sum"])
        assert table[row] == pytest.approx(want, rel=1e-12, abs=1e-6), line


def test_each_heuristic_term_prefers_what_it_should():
    only = DEFAULT_WEIGHTS.only
    sorted_line = bb.parse_bits("16 8 4 2\n. . . .\n. . . .\n. . . .")
    zigzag = bb.parse_bits("16 2 8 4\n. . . .\n. . . .\n. . . .")
    assert evaluate_bits(sorted_line, only("monotonicity")) > evaluate_bits(zigzag, only("monotonicity"))
    assert evaluate_bits(sorted_line, only("smoothness")) > evaluate_bits(zigzag, only("smoothness"))
    pair = bb.parse_bits("8 8 . .\n. . . .\n. . . .\n. . . .")
    apart = bb.parse_bits("8 16 . .\n. . . .\n. . . .\n. . . .")
    assert evaluate_bits(pair, only("merges")) > evaluate_bits(apart, only("merges"))
    roomy = bb.parse_bits("16 . . .\n. . . .\n. . . .\n. . . .")
    crowded = bb.parse_bits("8 4 2 2\n. . . .\n. . . .\n. . . .")
    assert evaluate_bits(roomy, only("empty")) > evaluate_bits(crowded, only("empty"))
    with pytest.raises(ValueError, match="unknown"):
        only("luck")
    with pytest.raises(ValueError):
        HeuristicWeights(empty=-1)


def test_expectimax_exposes_each_directions_value():
    player = Expectimax(depth=2)
    board = Board.parse("2 2 . .\n. . . .\n. . . .\n. . . 4")
    chosen = player(board)
    values = player.last.values
    assert set(values) == set(legal_moves(board))
    assert chosen == max(values, key=values.get)
    assert player.last.nodes > 0 and player.last.depth == 2


def test_expectimax_on_other_sizes_uses_the_readable_search():
    player = Expectimax(depth=1)
    board = Board.parse("2 2 .\n. . .\n. . 4")
    assert player(board) in legal_moves(board)
    assert player.last.values == pytest.approx(ai.expectimax_values(board, 1))


def test_expectimax_refuses_bad_settings():
    for kwargs in ({"ms_per_move": 0}, {"depth": 0}, {"cutoff": 1.0}, {"p_four": 2}, {"table_bits": 40}):
        with pytest.raises(ValueError):
            Expectimax(**kwargs)


# ---------------------------------------------------------------------------------- records
def test_play_game_reports_score_max_tile_moves_and_times():
    record = play_game(CornerPlayer(), rng=3, max_moves=40)
    assert record.moves_played == 40 == len(record.seconds) == len(record.spawns)
    boards = replay(record)
    assert boards[-1] == record.final_board and record.max_tile == record.final_board.max_tile
    assert record.score == sum(play(b, d).score for b, d in zip(boards, record.directions))


def test_record_json_round_trip_replays_the_same_boards():
    record = play_game(RandomPlayer(rng=1), rng=2, max_moves=80)
    text = record.to_json()
    back = GameRecord.from_json(text)
    assert replay(back) == replay(record)
    assert (back.score, back.max_tile, back.moves_played, back.directions, back.spawns) == (
        record.score, record.max_tile, record.moves_played, record.directions, record.spawns)
    assert json.loads(text)["directions"][:5] == "".join(d.name[0] for d in record.directions[:5])


def test_a_corrupt_record_is_refused():
    data = play_game(RandomPlayer(rng=1), rng=2, max_moves=20).to_dict()
    data["score"] += 4
    with pytest.raises(ValueError, match="score"):
        GameRecord.from_dict(data)
    data = play_game(RandomPlayer(rng=1), rng=2, max_moves=20).to_dict()
    data["directions"] = data["directions"][:-1] + "X"
    with pytest.raises(ValueError, match="letter"):
        GameRecord.from_dict(data)
    with pytest.raises(ValueError, match="format"):
        GameRecord.from_dict({"player": "x"})


def test_a_player_that_cheats_is_stopped():
    with pytest.raises(ValueError, match="changes nothing"):
        play_game(lambda board: Direction.UP, rng=0, max_moves=50)
    with pytest.raises(ValueError, match="not a direction"):
        play_game(lambda board: 42, rng=0)


def test_play_game_same_seed_same_spawns_as_the_game():
    from tilelab.game2048 import Game

    record = play_game(CornerPlayer(), rng=7, max_moves=30)
    game = Game(rng=7)
    for d in record.directions:
        game.play(d)
    assert game.board == record.final_board and game.score == record.score


def test_until_tile_stops_early():
    record = play_game(CornerPlayer(), rng=1, until_tile=64)
    assert record.max_tile >= 64 and not record.final_board.max_tile >= 128
    assert spawn_outcomes(record.final_board)  # stopped while the game was still going


@settings(max_examples=20, deadline=None)
@given(GRIDS, st.integers(1, 3))
def test_reading_the_clock_changes_no_value(grid, depth):
    # a deadline far away: the search looks at the clock and must still compute exactly the same tree
    bits = bb.to_bitboard(board_of(grid))
    plain = search_bits(bits, depth, SearchTables(table_bits=12))
    timed = search_bits(bits, depth, SearchTables(table_bits=12), deadline=time.perf_counter() + 600)
    assert (plain.best, plain.nodes, plain.table_hits, plain.complete) == (
        timed.best, timed.nodes, timed.table_hits, timed.complete)
    assert np.array_equal(np.array(plain.values), np.array(timed.values), equal_nan=True)


def test_readable_search_is_the_plain_recursion_and_counts_evaluations():
    board = Board.parse("2 2 .\n. . .\n. . 4")
    result = ai.readable_search(board, 2)
    plain = ai.expectimax_values(board, 2)
    assert result.complete and result.depth == 2 and result.nodes > 0
    assert {Direction[bitrows.DIRECTION_NAMES[c]]: v for c, v in enumerate(result.values) if not math.isnan(v)} == plain
    assert not ai.readable_search(board, 2, node_limit=result.nodes - 1).complete
    assert ai.readable_search(board, 2, node_limit=result.nodes).complete
    floor = ai.readable_search(board, 0)  # each move judged by the board it leaves
    assert floor.depth == 0 and floor.nodes == len(legal_moves(board))
