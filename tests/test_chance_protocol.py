"""Chance the OpenSpiel way in every Game (issue 36): ``chance_outcomes()`` lists what may happen with its
probability, and a chosen outcome can be applied instead of drawn -- the 2048 spawn (``apply_chance``), the
match-3 refills (``play(move, refills=...)``); the sliding puzzle has no chance step and says so."""

from __future__ import annotations

import numpy as np
import pytest

import tilelab.game2048 as g2048
import tilelab.match3 as m3
import tilelab.sliding as sliding
from tilelab.match3.board import EMPTY
from tilelab.match3.cascade import ChosenRefills, draw_refills, refill_outcomes, swap
from tilelab.sliding.moves import parse_move


def _refilled_kinds(turn) -> list[int]:
    return [kind for (_cell, kind), _p in turn.chance]


@pytest.mark.parametrize("rules", ["plain", "specials"])
@pytest.mark.parametrize("seed", range(6))
def test_match3_chosen_refills_replay_a_drawn_game(rules, seed):
    drawn = m3.Game(7, 7, 5, rules=rules, rng=seed)
    chosen = m3.Game(7, 7, 5, rules=rules, rng=seed)
    for _ in range(8):
        move = drawn.hint()
        turn = drawn.play(move)
        state = chosen.rng.bit_generator.state
        again = chosen.play(move, refills=_refilled_kinds(turn))
        assert again.chance == turn.chance and again.score == turn.score
        if turn.reshuffle is None:  # a dead board is reshuffled with the game's generator, as always
            assert chosen.board == drawn.board and chosen.rng.bit_generator.state == state  # no draw was made
        chosen.board, chosen.rng.bit_generator.state = drawn.board, drawn.rng.bit_generator.state


def test_match3_refills_take_the_kinds_given_in_order():
    board = m3.Board.parse("0120\n1201\n0012\n2102")
    drawn = swap(board, (2, 2), (3, 2), rng=1)
    kinds = [k for step in drawn.steps for _cell, k in step.refills]
    chosen = ChosenRefills(kinds)
    assert swap(board, (2, 2), (3, 2), rng=chosen) == drawn and chosen.used == len(kinds)
    holes = drawn.steps[0].fallen
    given = [(k + 1) % board.kinds for k in range(sum(holes[c] == EMPTY for c in holes.cells()))]
    assert [k for _cell, k in draw_refills(holes, rng=ChosenRefills(given))] == given


def test_match3_chosen_refills_are_checked_and_leave_the_game_as_it_was():
    game = m3.Game(6, 6, 4, rng=3)
    move = game.hint()
    before = (game.board, game.score, game.moves_played, game.rng.bit_generator.state)
    with pytest.raises(ValueError, match="one kind per refilled hole"):
        game.play(move, refills=[])
    with pytest.raises(ValueError, match="one kind per refilled hole"):
        game.play(move, refills=[0] * 500)
    with pytest.raises(ValueError, match="cannot happen"):
        game.play(move, refills=[9] * 500)
    with pytest.raises(TypeError, match="a kind"):
        game.play(move, refills=["red"])
    assert (game.board, game.score, game.moves_played, game.rng.bit_generator.state) == before


def test_every_chance_outcome_list_is_a_distribution_and_deterministic_games_have_none():
    games = [g2048.Game(rng=1), m3.Game(rng=1), sliding.Game(3, rng=1)]
    for game in games:
        outcomes = game.chance_outcomes()
        assert all(0 < p <= 1 for _o, p in outcomes)
        assert not outcomes or abs(sum(p for _o, p in outcomes) - 1) < 1e-9
    assert games[2].chance_outcomes() == []
    assert m3.Game(rng=1).chance_outcomes() == refill_outcomes(m3.Game(rng=1).board)


def test_apply_chance_places_a_chosen_2048_spawn_and_refuses_where_there_is_no_chance_step():
    game = g2048.Game(board=g2048.Board.parse("2 . . .\n. . . .\n. . . .\n. . . ."), rng=0)
    turn = game.play("right", spawn=False)
    assert turn and turn.chance == ()
    spawn = game.chance_outcomes()[-1][0]
    assert game.apply_chance(spawn) == spawn and game.board[spawn.cell] == spawn.value
    with pytest.raises(ValueError, match="no chance step"):
        sliding.Game(3, rng=1).apply_chance(1)
    with pytest.raises(ValueError, match=r"refills=\[kind"):
        m3.Game(rng=1).apply_chance(0)


def test_a_sliding_move_is_read_in_one_place():
    goal = sliding.Board.goal(3, 3)
    assert parse_move(goal, "down") == 6 and parse_move(goal, "up") is None and parse_move(goal, np.int64(8)) == 8
    game = sliding.Game(board=goal.play_all([6]), rng=0)
    assert not game.play("left") and game.play("up") and game.board == goal
    for bad, error in (("sideways", ValueError), (True, TypeError), (2.0, TypeError)):
        with pytest.raises(error):
            parse_move(goal, bad)
        with pytest.raises(error):
            sliding.Game(3, rng=0).play(bad)
