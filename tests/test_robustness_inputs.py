"""Junk at every public constructor and parser: each failure is a ValueError or TypeError naming the argument."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tilelab.game2048 import Board as Board2048, Game
from tilelab.game2048.records import GameRecord
from tilelab.game2048.ai import MonteCarloPlayer
from tilelab.match3 import Board as Board3, SpecialBoard, new_board, reshuffle_specials
from tilelab.sliding import Budget, Board, count_moves, random_walk, shuffle, solve

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8), st.sampled_from(["²", "٢", "1", "0.5", "nan", "[]", "{}", "1_0"]),
    st.binary(max_size=8), st.lists(st.integers(-3, 3), max_size=4), st.dictionaries(st.text(max_size=3), st.none(), max_size=2),
    st.just(object()), st.just(np.int64(3)), st.just(np.float64(0.5)), st.just(np.bool_(True)),
)
P = shuffle(2, 3, rng=0)
SB = SpecialBoard.parse("0 1 2 0\n1 2 0 1\n2 0 1 2")
# (name, call taking one junk value, words of which the message must contain one)
TARGETS = [
    ("Board tiles", lambda v: Board(v, 2, 2), ("tile",)),
    ("Board rows", lambda v: Board([1, 2, 3, 0], v, 2), ("rows", "cells", "max_side")),
    ("Board.goal cols", lambda v: Board.goal(2, v), ("cols", "cells", "max_side")),
    ("Board.parse", lambda v: Board.parse(v), ("parse", "picture", "read", "tile", "cells", "row")),
    ("shuffle rng", lambda v: shuffle(3, 3, rng=v), ("seed", "generator")),
    ("shuffle method", lambda v: shuffle(3, 3, rng=0, method=v), ("method",)),
    ("shuffle steps", lambda v: shuffle(3, 3, rng=0, method="walk", steps=v), ("steps",)),
    ("random_walk board", lambda v: random_walk(v, 3, rng=0), ("board",)),
    ("count_moves board", lambda v: count_moves(v, [1]), ("board",)),
    ("Budget nodes", lambda v: Budget(nodes=v), ("nodes",)),
    ("Budget seconds", lambda v: Budget(seconds=v), ("seconds",)),
    ("solve method", lambda v: solve(P, v), ("method",)),
    ("solve heuristic", lambda v: solve(P, "astar", v), ("heuristic",)),
    ("solve weight", lambda v: solve(P, "weighted-astar", "manhattan", weight=v), ("weight",)),
    ("solve budget", lambda v: solve(P, budget=v), ("budget", "nodes", "seconds")),
    ("solve engine", lambda v: solve(P, engine=v), ("engine",)),
    ("solve pdb", lambda v: solve(P, pdb=v), ("pdb", "pattern")),
    ("2048 Board", lambda v: Board2048(v), ("board", "row", "tile")),
    ("2048 Board.parse", lambda v: Board2048.parse(v), ("parse", "read", "board", "row", "tile")),
    ("Game size", lambda v: Game(size=v), ("size",)),
    ("Game target", lambda v: Game(target=v), ("target",)),
    ("Game p_four", lambda v: Game(p_four=v), ("p_four",)),
    ("Game seed", lambda v: Game(rng=v), ("seed",)),
    ("Game.spawn", lambda v: Game(rng=0).spawn(v), ("outcome", "spawn")),
    ("Game.from_json", lambda v: Game.from_json(v), ("json", "game")),
    ("Game.from_dict", lambda v: Game.from_dict(v), ("game",)),
    ("GameRecord.from_json", lambda v: GameRecord.from_json(v), ("record", "json")),
    ("MonteCarlo rollouts", lambda v: MonteCarloPlayer(rollouts=v), ("rollouts",)),
    ("MonteCarlo p_four", lambda v: MonteCarloPlayer(p_four=v), ("p_four",)),
    ("match3 Board grid", lambda v: Board3(v, 3), ("grid", "cell", "row")),
    ("match3 Board kinds", lambda v: Board3(((0, 1, 2),), v), ("kinds",)),
    ("match3 Board.parse", lambda v: Board3.parse(v), ("parse", "picture", "symbol")),
    ("match3 from_array", lambda v: Board3.from_array(v, 3), ("array", "kind", "grid", "cell")),
    ("SpecialBoard grid", lambda v: SpecialBoard(v, ((0, 0, 0),), 3), ("grid", "cell", "row")),
    ("SpecialBoard kinds", lambda v: SpecialBoard(((v, 1, 2),), ((0, 0, 0),), 3), ("grid", "cell", "kind")),
    ("SpecialBoard.parse", lambda v: SpecialBoard.parse(v), ("parse", "picture", "symbol", "mark")),
    ("new_board rows", lambda v: new_board(v, 4, 3, rng=0), ("rows", "max_side")),
    ("new_board kinds", lambda v: new_board(4, 4, v, rng=0), ("kinds",)),
    ("reshuffle_specials tries", lambda v: reshuffle_specials(SB, rng=0, tries=v), ("tries",)),
]
SEEN = {"tried": 0, "refused": 0, "handled": 0}


@pytest.mark.parametrize("name, call, words", TARGETS, ids=[t[0] for t in TARGETS])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=JUNK)
def test_junk_is_refused_clearly_or_handled(name, call, words, value):
    SEEN["tried"] += 1
    try:
        call(value)
    except (ValueError, TypeError) as exc:
        message = str(exc).lower()
        assert any(w in message for w in words), f"{name}({value!r}): {type(exc).__name__}: {exc}"
        SEEN["refused"] += 1
    else:
        SEEN["handled"] += 1


@pytest.mark.parametrize("call, error, words", [
    (lambda: Board([True, False, 2, 3], 2, 2), TypeError, "tiles must be integers"),
    (lambda: Board.parse(None), TypeError, "str picture"),
    (lambda: Board.parse("1 2\n3 ²"), ValueError, "0-9"),
    (lambda: Board2048.parse("2 ²"), ValueError, "0-9"),
    (lambda: Board2048.parse("٢ .\n. ."), ValueError, "0-9"),
    (lambda: Board2048([[2**63, 0], [0, 0]]), ValueError, "MAX_TILE"),
    (lambda: Board2048([[2, 0], [0, 0]])[-1, 0], IndexError, "off the 2x2 board"),
    (lambda: Game(rng=0).spawn(5), TypeError, "outcome"),
    (lambda: Board3.from_array(np.array([[0.5, 1, 2]]), 3), TypeError, "integer"),
    (lambda: SpecialBoard(((0.7, 1, 2),), ((0, 0, 0),), 3), TypeError, "grid"),
    (lambda: SpecialBoard((("1", 1, 2),), ((0, 0, 0),), 3), TypeError, "grid"),
    (lambda: SpecialBoard(((True, 1, 2),), ((0, 0, 0),), 3), TypeError, "grid"),
    (lambda: SpecialBoard(((math.inf, 1, 2),), ((0, 0, 0),), 3), TypeError, "grid"),
    (lambda: Board3.parse(None), TypeError, "str picture"),
    (lambda: SpecialBoard.parse(None), TypeError, "str picture"),
    (lambda: Budget(nodes=True), TypeError, "nodes"),
    (lambda: Budget(seconds="1"), TypeError, "seconds"),
    (lambda: MonteCarloPlayer(p_four=5), ValueError, "p_four"),
    (lambda: MonteCarloPlayer(p_four=math.nan), ValueError, "p_four"),
    (lambda: reshuffle_specials(SB, rng=0, tries=-1), ValueError, "tries"),
    (lambda: GameRecord.from_json("[]"), ValueError, "record"),
    (lambda: GameRecord.from_json('{"format": "tilelab.game2048.record", "version": 1}'), ValueError, "missing"),
    (lambda: solve(P, pdb="x"), TypeError, "PatternDatabase"),
])
def test_hand_written_cases(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_numpy_ints_follow_the_one_integer_rule():
    assert MonteCarloPlayer(rollouts=np.int64(3)).rollouts == 3
    assert Game(rng=np.int64(5)).to_json() == Game(rng=5).to_json()
    assert Budget(nodes=np.int32(7)).nodes == 7


def _save(**changes):
    import json

    g = Game(size=4, rng=1)
    g.play("left"), g.play("up")
    data = json.loads(g.to_json())
    for key, value in changes.items():
        data[key] = value
    return data


@pytest.mark.parametrize("changes, words", [
    (dict(board=[[0] * 5 for _ in range(5)]), "5x5 but the game's size is 4"),
    (dict(won="false"), "true or false"),
    (dict(score=3.7), "whole number"),
    (dict(score=-4), "whole number"),
    (dict(moves_played=-1), "whole number"),
    (dict(version=True), "version"),
    (dict(version=1.0), "version"),
    (dict(rng={"bit_generator": "PCG64", "state": {"state": 2**200, "inc": 1}, "has_uint32": 0, "uinteger": 0}), "rng"),
    (dict(rng={"bit_generator": "PCG64", "state": [[[[]]]]}), "rng"),
    (dict(seed=-1), "seed"),
])
def test_saves_that_contradict_themselves_are_refused(changes, words):
    with pytest.raises(ValueError, match=words):
        Game.from_dict(_save(**changes))


def test_history_of_another_size_and_deep_nesting_are_refused():
    data = _save()
    data["history"][0]["board"] = [[0] * 5 for _ in range(5)]
    with pytest.raises(ValueError, match="history"):
        Game.from_dict(data)
    with pytest.raises(ValueError):
        Game.from_json("[" * 100_000 + "]" * 100_000)


def test_the_counts(capsys):
    assert SEEN["tried"] == SEEN["refused"] + SEEN["handled"] > 0
    with capsys.disabled():
        print(f"\ninput robustness (hypothesis junk): {SEEN['tried']} cases tried, {SEEN['refused']} refused clearly, "
              f"{SEEN['handled']} handled")
