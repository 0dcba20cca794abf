"""Saves tell the truth (issue 45, the hunt's L1-L3 and L8): a save whose fields contradict each other is refused,
naming the fields; a key given twice is refused, naming it; ``null`` in an undo history and a number of thousands of
digits get tilelab's own ValueError. Real games of every kind, however they were played, still load exactly."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilelab import game2048, match3, sliding
from tilelab.game2048.game import potential


def _played_2048() -> game2048.Game:
    game = game2048.Game(rng=3)
    for move in ["left", "up", "right", "down"] * 2:
        game.play(move)
    return game


def _played_match3(rules: str = "plain") -> match3.Game:
    game = match3.Game(rng=3, rules=rules)
    game.play(game.legal_moves()[0])
    game.play(game.legal_moves()[-1])
    return game


def _played_sliding() -> sliding.Game:
    game = sliding.Game(3, rng=3)
    game.play(game.legal_moves()[0])
    return game


GAMES = {"2048": (_played_2048, game2048.Game), "match3": (_played_match3, match3.Game),
         "sliding": (_played_sliding, sliding.Game)}


# ------------------------------------------------------------------ the text itself
@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_key_given_twice_is_refused_naming_it(kind):
    make, cls = GAMES[kind]
    text = make().to_json()
    data = json.loads(text)
    for key in ("seed", "played" if kind == "sliding" else "history"):
        assert key in data
        twice = text[:-1] + f', "{key}": {json.dumps(data[key])}}}'  # the same value again: still refused
        with pytest.raises(ValueError, match=f"'{key}'"):
            cls.from_json(twice)
    nested = json.dumps(data).replace('"rng": {', '"rng": {"uinteger": 0, ', 1)  # twice inside an inner object
    with pytest.raises(ValueError, match="'uinteger'"):
        cls.from_json(nested)
    assert cls.from_json(text).to_json() == text


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_number_of_thousands_of_digits_gets_tilelabs_message(kind):
    make, cls = GAMES[kind]
    data = json.loads(make().to_json())
    text = json.dumps(data).replace('"seed": ', '"seed": ' + "9" * 5000 + ", \"x\": ", 1)
    with pytest.raises(ValueError, match="to_json") as caught:
        cls.from_json(text)
    assert "set_int_max_str_digits" not in str(caught.value) and "\n" not in str(caught.value)


# ------------------------------------------------------------------ 2048: fields against each other
def _refused_2048(change, *fields: str) -> None:
    data = json.loads(_played_2048().to_json())
    change(data)
    with pytest.raises(ValueError) as caught:
        game2048.Game.from_json(json.dumps(data))
    for field in fields:
        assert field in str(caught.value), (field, str(caught.value))


def test_2048_an_undo_step_with_larger_tiles_than_the_board_after_it_is_refused():
    def bigger(data):
        data["history"][0]["board"] = [[4] * 4] + [[0] * 4] * 3  # tiles summing to 16 before a board summing to 6
    _refused_2048(bigger, "history[0].'board'")


def test_2048_a_tile_of_the_target_with_won_false_is_refused():
    def tile(data):
        data["board"][0][0] = 2048
        data["won"] = False
    _refused_2048(tile, "'won'", "'board'")

    def in_history(data):
        data["history"][0]["board"] = [[2048] * 4] + [[0] * 4] * 3
    _refused_2048(in_history, "history[0]")


def test_2048_an_empty_board_after_moves_is_refused():
    def empty(data):
        data["board"] = [[0] * 4] * 4
        data["history"] = []
        data["score"] = 0
    _refused_2048(empty, "'board'", "'moves_played'")


@pytest.mark.parametrize("score", [2**200, 10**6])
def test_2048_a_score_past_what_the_merges_could_score_is_refused(score):
    def huge(data):
        data["score"] = score
    _refused_2048(huge, "'score'", "'board'")


def test_2048_a_score_jump_between_two_positions_past_their_merges_is_refused():
    data = json.loads(_played_2048().to_json())
    scored = [i for i, step in enumerate(data["history"]) if step["score"] > 0]
    assert scored, "the fixed game scores before its last move"
    for step in data["history"][: scored[0] + 1]:
        step["score"] = 0  # each position alone is fine (0 is always possible), but the next move cannot score so much
    with pytest.raises(ValueError, match="'score'"):
        game2048.Game.from_json(json.dumps(data))


def test_2048_score_never_passes_the_boards_potential_and_the_gap_never_shrinks():
    """The invariant the loader relies on, on real play (spawns of 2 and of 4, moves without spawns)."""
    game = game2048.Game(size=3, target=16, p_four=0.5, rng=8)
    gap = potential(game.board) - game.score
    for i in range(300):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(legal[i % len(legal)], spawn=bool(i % 3))
        assert game.score <= potential(game.board)
        assert potential(game.board) - game.score >= gap
        gap = potential(game.board) - game.score


@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), size=st.integers(2, 5), target=st.sampled_from([4, 8, 16, 2048]),
       p_four=st.sampled_from([0.0, 0.1, 1.0]), plan=st.lists(st.integers(0, 9), max_size=60))
def test_2048_a_real_game_however_played_loads_exactly(seed, size, target, p_four, plan):
    """Plain moves, moves without a spawn, chosen spawns, extra spawns and undos: every save loads back."""
    game = game2048.Game(size=size, target=target, p_four=p_four, rng=seed)
    for step in plan:
        legal = game.legal_moves()
        if step == 0:
            game.undo()
        elif step == 1 and game.spawn_outcomes():
            game.spawn()
        elif legal:
            game.play(legal[step % len(legal)], spawn=step % 4 != 2)
        text = game.to_json()
        assert game2048.Game.from_json(text).to_json() == text


# ------------------------------------------------------------------ match-3
@pytest.mark.parametrize("rules", ["plain", "specials"])
def test_match3_a_move_that_left_the_board_as_it_was_is_refused(rules):
    data = json.loads(_played_match3(rules).to_json())
    data["history"][1]["board"] = data["board"]
    with pytest.raises(ValueError, match=r"history\[1\]\.'board'"):
        match3.Game.from_json(json.dumps(data))


@pytest.mark.parametrize("junk", [None, 0, "x", []])
def test_match3_junk_in_the_undo_history_is_a_value_error_naming_the_step(junk):
    data = json.loads(_played_match3().to_json())
    for i in range(len(data["history"])):
        changed = json.loads(json.dumps(data))
        changed["history"][i] = junk
        with pytest.raises(ValueError, match=rf"history\[{i}\]"):
            match3.Game.from_json(json.dumps(changed))


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), rules=st.sampled_from(["plain", "specials"]),
       plan=st.lists(st.integers(0, 5), max_size=12))
def test_match3_a_real_game_loads_exactly(seed, rules, plan):
    game = match3.Game(6, 6, 4, rng=seed, rules=rules)
    for step in plan:
        if step == 0:
            game.undo()
        else:
            legal = game.legal_moves()
            game.play(legal[step % len(legal)])
    text = game.to_json()
    assert match3.Game.from_json(text).to_json() == text
