"""Match-3's share of issue 20's vocabulary: ``play``, ``legal_moves``, keyword-only ``rng``, one text
picture for the plain and the special board, and the special board built on the shared base."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import tilelab.match3 as m3
from tilelab.match3 import (
    Board,
    SpecialBoard,
    SwapResult,
    SpecialSwapResult,
    legal_moves,
    new_board,
    play,
    swap,
    swap_specials,
)
from tilelab.match3 import board as board_module, cascade, dispel, generate, moves, special_reshuffle, special_rules
from tilelab.match3 import stats
from tilelab.match3.fast import plain as fast, specials as specials_fast
from tilelab.match3.board import BoardBase


# ----------------------------------------------------------------------------- play and its aliases


def test_play_is_exported_and_legal_moves_is_the_one_name():
    assert m3.play is play and "play" in m3.__all__
    assert legal_moves is moves.legal_moves
    assert not hasattr(m3, "valid_moves")
    assert legal_moves.__name__ == "legal_moves"
    assert "play(board, (a, b), *, rng)" in m3.__doc__


@pytest.mark.parametrize("seed", range(12))
def test_play_gives_what_swap_gives_on_a_plain_board(seed):
    board = new_board(6, 7, 5, rng=seed)
    for move in legal_moves(board)[:4] + [((0, 0), (0, 1))]:
        assert play(board, move, rng=seed) == swap(board, *move, rng=seed)
        assert type(play(board, move, rng=seed)) is SwapResult


@pytest.mark.parametrize("seed", range(12))
def test_play_gives_what_swap_specials_gives_on_a_special_board(seed):
    board = SpecialBoard.parse("0 1 0 0 2\n1 0 2 1 1\n2 2 1 2 0") if seed == 0 else \
        SpecialBoard.from_board(new_board(6, 6, 4, rng=seed))
    for move in special_rules.legal_moves_specials(board)[:4]:
        result = play(board, move, rng=seed)
        assert type(result) is SpecialSwapResult
        assert result == swap_specials(board, *move, rng=seed)


def test_play_takes_a_move_as_one_pair_and_refuses_anything_else():
    board = Board.parse("0120\n1201\n0012\n2102")
    assert play(board, [(2, 2), (3, 2)], rng=1).legal  # any pair of cells
    for bad in ((2, 2), ((2, 2),), ((2, 2), (3, 2), (1, 1)), 7, None):
        with pytest.raises(ValueError, match="pair"):
            play(board, bad, rng=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not neighbours"):
        play(board, ((0, 0), (2, 2)), rng=1)
    with pytest.raises(TypeError, match="match3 Board"):
        play("0120", ((0, 0), (0, 1)), rng=1)  # type: ignore[call-overload]


def test_play_needs_rng_as_a_keyword():
    board = Board.parse("0120\n1201\n0012\n2102")
    with pytest.raises(TypeError):
        play(board, ((2, 2), (3, 2)), 1)  # type: ignore[misc]
    with pytest.raises(TypeError):
        play(board, ((2, 2), (3, 2)))  # type: ignore[call-overload]


# ----------------------------------------------------------------------------- rng is keyword-only

RANDOM = [
    (cascade.refill, 1), (cascade.cascade_step, 2), (cascade.resolve, 1), (cascade.swap, 3), (fast.swap_fast, 3),
    (fast.swap_array, 4), (generate.stable_board, 3), (generate.planted_board, 3), (generate.new_board, 3),
    (generate.reshuffle_report, 1), (generate.reshuffle, 1), (generate.new_special_board, 3),
    (special_reshuffle.reshuffle_specials, 1), (special_rules.special_step, 2), (special_rules.special_refill, 1),
    (special_rules.resolve_specials, 1), (special_rules.swap_specials, 3), (specials_fast.swap_specials_fast, 3),
    (specials_fast.swap_specials_array, 5), (specials_fast.play_random, 4), (stats.dead_fraction, 4),
    (stats.dead_table, 3), (stats.cascade_lengths, 4), (stats.moves_until_dead, 5),
    (dispel.apply_group, 3), (dispel.article_cascade, 3), (dispel.redraw_deal, 3), (cascade.draw_refills, 1),
]


@pytest.mark.parametrize("function, before", RANDOM, ids=[f.__name__ for f, _ in RANDOM])
def test_rng_is_keyword_only_and_required(function, before):
    params = inspect.signature(function).parameters
    assert params["rng"].kind is inspect.Parameter.KEYWORD_ONLY
    assert params["rng"].default is inspect.Parameter.empty, "no hidden randomness: rng stays required"
    assert list(params).index("rng") == before  # the arguments before it did not move


def test_a_positional_rng_raises_type_error():
    board = Board.parse("0120\n1201\n0012\n2102")
    for call in (lambda: new_board(4, 4, 3, 0), lambda: swap(board, (2, 2), (3, 2), 1),
                 lambda: cascade.resolve(board, 0), lambda: stats.dead_fraction(4, 4, 5, 10, 0),
                 lambda: special_rules.swap_specials(SpecialBoard.from_board(board), (2, 2), (3, 2), 1)):
        with pytest.raises(TypeError, match="positional argument"):
            call()


def test_rng_takes_a_seed_or_a_generator_alike():
    assert new_board(5, 5, 4, rng=3) == new_board(5, 5, 4, rng=np.random.default_rng(3))


def test_game_rules_take_rng_as_a_keyword():
    for method in (m3.PLAIN.deal, m3.PLAIN.swap, m3.PLAIN.reshuffle, m3.WITH_SPECIALS.swap):
        assert inspect.signature(method).parameters["rng"].kind is inspect.Parameter.KEYWORD_ONLY
    assert m3.WITH_SPECIALS.legal_moves(SpecialBoard.parse("0 1- 2\n1 2 0")) == \
        m3.WITH_SPECIALS.legal_moves(SpecialBoard.parse("0 1- 2\n1 2 0"))


# ----------------------------------------------------------------------------- one text picture


@pytest.mark.parametrize("seed", range(20))
def test_both_boards_print_and_parse_the_same_way(seed):
    board = new_board(3 + seed % 5, 4 + seed % 3, 3 + seed % 4, rng=seed)
    special = SpecialBoard.from_board(board)
    assert str(special) == str(board)  # no specials: the very same picture
    assert Board.parse(str(board), kinds=board.kinds) == board
    assert SpecialBoard.parse(str(special), kinds=board.kinds) == special
    assert SpecialBoard.parse(str(board), kinds=board.kinds) == special  # a plain picture reads as a special board
    assert eval(repr(board)) == board and eval(repr(special)) == special


def test_a_special_picture_round_trips_and_a_plain_board_refuses_its_marks():
    special = SpecialBoard.parse("0 1- 2 .\n1| * 0+ 2@", kinds=4)
    assert str(special) == "01-2.\n1|*0+2@"
    assert SpecialBoard.parse(str(special), kinds=4) == special
    with pytest.raises(ValueError, match="SpecialBoard.parse"):
        Board.parse(str(special))
    with pytest.raises(ValueError, match="SpecialBoard.parse"):
        Board.parse("01*")


def test_special_board_is_built_on_the_shared_base():
    assert issubclass(Board, BoardBase) and issubclass(SpecialBoard, BoardBase)
    for name in ("rows", "cols", "cells", "on_board", "is_full", "__getitem__", "picture", "__str__", "__repr__"):
        assert name not in vars(Board) and name not in vars(SpecialBoard), name  # defined once, on BoardBase
    # a special board is not a plain board: plain rules must not run on it by accident
    assert not isinstance(SpecialBoard.parse("012\n120"), Board)
    with pytest.raises(ValueError, match="ragged"):
        SpecialBoard(((0, 1), (1,)), ((0, 0), (0,)), 3)
    with pytest.raises(ValueError, match="MAX_SIDE"):
        SpecialBoard(((0, 1, 2),) * (board_module.MAX_SIDE + 1), ((0, 0, 0),) * (board_module.MAX_SIDE + 1), 3)


# ----------------------------------------------------------------------------- moves: a sequence, never a count
def test_a_save_counts_its_moves_as_moves_played_and_a_version_1_save_is_read_once_converted():
    import json

    game = m3.Game(4, 5, 3, rng=7)
    for _ in range(2):
        assert game.play(game.hint())
    data = game.to_dict()
    assert data["moves_played"] == 2 and "moves" not in data and all("moves" not in s for s in data["history"])
    older = json.loads(json.dumps(data).replace('"moves_played"', '"moves"'))  # what version 1 wrote
    older["version"] = 1
    loaded = m3.Game.from_dict(older)
    assert loaded.moves_played == 2 and loaded.to_dict() == data  # saved again in the new words
    assert loaded.undo() and loaded.moves_played == 1
    older["moves_played"] = 2  # both words at once is no save tilelab wrote
    with pytest.raises(ValueError, match="moves"):
        m3.Game.from_dict(older)
