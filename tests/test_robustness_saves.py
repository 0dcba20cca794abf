"""Hostile saves (issue 37): the random state a save names, and loaders bounded in time and memory.

Reproductions from the hunt (``hunt.md`` D1, D12, D3, D10, D11): a save that crashed Python, drew from
stray memory, raised NotImplementedError or was silently changed is now refused with one ValueError
naming the field; every load that succeeds gives back exactly the save it read.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from tilelab import game2048, match3, sliding
from tilelab.protocol import generator_from_state, saved_rng_state

GAMES = {
    "2048": lambda: game2048.Game(rng=1),
    "sliding": lambda: sliding.Game(3, rng=1),
    "match3": lambda: match3.Game(4, 5, 3, rng=7),
}


def _played(name: str):
    """A game of each kind with one move played, so that its save has an undo history."""
    game = GAMES[name]()
    move = {"2048": lambda g: g.legal_moves()[0], "sliding": lambda g: g.legal_moves()[0],
            "match3": lambda g: g.legal_moves()[0]}[name](game)
    assert game.play(move)
    return game


def _with_rng(name: str, rng: object, where: str = "now") -> str:
    data = _played(name).to_dict()
    if where == "now":
        data["rng"] = rng
    else:  # the undo history's random state (2048 and match-3 save one per step)
        data["history"][0]["rng"] = rng
    return json.dumps(data)


PCG = np.random.default_rng(3).bit_generator.state
BAD_STATES = {
    "MT19937 pos past the key (was: reads stray memory)": {"bit_generator": "MT19937", "state": {"key": [1] * 624, "pos": 700}},
    "MT19937 pos -1": {"bit_generator": "MT19937", "state": {"key": [1] * 624, "pos": -1}},
    "the base class (was: NotImplementedError)": {"bit_generator": "BitGenerator"},
    "Philox": {"bit_generator": "Philox", "state": {"counter": [0] * 4, "key": [0] * 2}, "buffer": [0] * 4,
               "buffer_pos": 4, "has_uint32": 0, "uinteger": 0},
    "a module attribute": {"bit_generator": "os.system"},
    "state 1.5 (was: truncated to 1)": {**PCG, "state": {"state": 1.5, "inc": PCG["state"]["inc"]}},
    "has_uint32 7 (was: accepted)": {**PCG, "has_uint32": 7},
    "has_uint32 true": {**PCG, "has_uint32": True},
    "uinteger 2**32": {**PCG, "uinteger": 2**32},
    "state 2**128": {**PCG, "state": {"state": 2**128, "inc": PCG["state"]["inc"]}},
    "negative state": {**PCG, "state": {"state": -1, "inc": PCG["state"]["inc"]}},
    "even increment": {**PCG, "state": {"state": 5, "inc": 2}},
    "a string number": {**PCG, "state": {"state": "5", "inc": PCG["state"]["inc"]}},
    "a field missing": {k: v for k, v in PCG.items() if k != "uinteger"},
    "an unknown field": {**PCG, "pos": 3},
    "inner field unknown": {**PCG, "state": {**PCG["state"], "key": 1}},
    "not an object": [1, 2],
}


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("case", BAD_STATES)
def test_a_damaged_or_foreign_random_state_is_refused_naming_the_field(name: str, case: str) -> None:
    for where in ("now", "history") if name != "sliding" else ("now",):
        with pytest.raises(ValueError, match="rng"):
            type(GAMES[name]()).from_json(_with_rng(name, BAD_STATES[case], where))


@pytest.mark.parametrize("name", GAMES)
def test_the_hunts_segfaulting_save_is_a_value_error(name: str) -> None:
    """D1: MT19937 with pos 10**6 ended Python with SIGSEGV; run it in a child so a crash fails this test."""
    text = _with_rng(name, {"bit_generator": "MT19937", "state": {"key": [1] * 624, "pos": 10**6}})
    script = textwrap.dedent(f"""
        import sys
        from tilelab import game2048, match3, sliding
        Game = {{"2048": game2048, "sliding": sliding, "match3": match3}}[{name!r}].Game
        try:
            Game.from_json(sys.stdin.read())
        except ValueError as exc:
            print("refused:", exc)
    """)
    done = subprocess.run([sys.executable, "-c", script], input=text, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("refused:") and "PCG64" in done.stdout


def test_a_checked_state_continues_the_stream_exactly() -> None:
    g = np.random.default_rng(11)
    g.integers(5, size=3)
    g.random(dtype=np.float32)  # leaves a buffered 32-bit half: has_uint32 1
    state = g.bit_generator.state
    assert saved_rng_state(state) == state and saved_rng_state(state) is not state
    h = generator_from_state(json.loads(json.dumps(state)))
    assert h.random(dtype=np.float32) == g.random(dtype=np.float32)
    assert h.integers(10**9, size=5).tolist() == g.integers(10**9, size=5).tolist()


@pytest.mark.parametrize("name", GAMES)
def test_a_game_drawing_from_another_bit_generator_says_so_when_saved(name: str) -> None:
    """A save can hold only PCG64, so a game on another generator is refused when written, not when read."""
    game = type(GAMES[name]())
    kwargs = {"2048": {}, "sliding": {"rows": 3}, "match3": {"rows": 4, "cols": 5, "kinds": 3}}[name]
    other = game(**kwargs, rng=np.random.Generator(np.random.MT19937(1)))
    with pytest.raises(ValueError, match="MT19937.*default_rng"):
        other.to_json()


# ---------------------------------------------------------------------- D3: the sliding loader, bounded


def _oscillating_save(side: int, slides: int) -> str:
    """A legal save of a ``side`` x ``side`` game whose slides move a whole row back and forth."""
    goal = sliding.Board.goal(side, side)
    start = goal.slide(goal.tiles[goal.blank_index - side])
    start = start.slide(start.tiles[start.blank_index - side + 1])  # blank at the left end of a row
    far = start.tiles[start.blank_index + side - 1]
    back = start.slide(far).tiles[start.blank_index]
    data = sliding.Game(board=start, rng=0).to_dict()
    data["played"] = [far, back] * (slides // 2)
    return json.dumps(data)


def test_the_hunts_memory_bomb_loads_in_little_memory() -> None:
    """D3: 20,000 slides of a 250x250 game (0.5 MB of JSON) ran out of 1.5 GB after 21.6 s (undo kept a board a slide)."""
    import tracemalloc

    goal = sliding.Board.goal(250, 250)  # the hunt's reproduction: one tile slid back and forth
    start = goal.slide(goal.legal_moves()[0])
    data = sliding.Game(board=start, rng=0).to_dict()
    data["played"] = [next(t for t in start.legal_moves() if start.slide(t) != goal)] * 20_000
    text = json.dumps(data)
    tracemalloc.start()
    game = sliding.Game.from_json(text)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 40 * 2**20, f"peak {peak / 2**20:.0f} MB"
    assert game.undo_depth == 20_000 and game.board == start.play_all(data["played"][:2])  # period 2 after the first
    assert game.move_count.single == sliding.count_moves(start, data["played"][:2]).single + 19_998  # then one tile a slide
    assert game.to_json() == text


def test_saves_past_the_move_limit_are_refused_before_replaying_them() -> None:
    from tilelab.sliding.game import MAX_MOVES

    with pytest.raises(ValueError, match="MAX_MOVES"):  # 10**6 slides: refused by length, before any replay
        sliding.Game.from_json(_oscillating_save(3, 10**6))
    with pytest.raises(ValueError, match="MAX_MOVES"):  # 20,000 slides of 249 tiles each: refused part way
        sliding.Game.from_json(_oscillating_save(250, 20_000))
    most = sliding.Game.from_json(_oscillating_save(3, MAX_MOVES // 2))  # 2 tiles a slide: exactly the limit
    assert most.move_count.single == MAX_MOVES
    with pytest.raises(ValueError, match="MAX_MOVES.*restart"):
        most.play(most.legal_moves()[0])
    assert most.move_count.single == MAX_MOVES and most.undo() and most.move_count.single == MAX_MOVES - 2


@pytest.mark.parametrize("shape", [(3, 3), (4, 4), (2, 5), (6, 3)])
def test_undo_and_reload_give_back_every_position(shape: tuple[int, int]) -> None:
    """Undo keeps four ints a slide and slides the segment back: every position returns exactly."""
    rng = np.random.default_rng(shape[0] * 10 + shape[1])
    game = sliding.Game(*shape, rng=int(rng.integers(1000)))
    seen = [(game.board, game.move_count)]
    for _ in range(400):
        if game.over:
            break
        game.play(int(rng.choice(game.legal_moves())))
        seen.append((game.board, game.move_count))
    loaded = sliding.Game.from_json(game.to_json())
    assert loaded.to_json() == game.to_json() and (loaded.board, loaded.move_count) == seen[-1]
    assert loaded.move_count == sliding.count_moves(loaded.start, loaded.played)
    while loaded.undo():
        seen.pop()
        assert (loaded.board, loaded.move_count) == seen[-1]
        if len(seen) % 50 == 0:
            assert loaded.move_count == sliding.count_moves(loaded.start, loaded.played)
    assert len(seen) == 1 and loaded.board == loaded.start


def test_a_slide_after_the_puzzle_is_solved_or_an_illegal_one_is_refused() -> None:
    goal = sliding.Board.goal(3, 3)
    data = sliding.Game(board=goal.slide(8), rng=0).to_dict()
    data["played"] = [8, 8]
    with pytest.raises(ValueError, match=r"played\[1\].*solved"):
        sliding.Game.from_dict(data)
    for bad in (1, 0, 9, -1, True, 8.0, "8", None):
        data["played"] = [bad]
        with pytest.raises(ValueError, match=r"played\[0\]"):
            sliding.Game.from_dict(data)


# ---------------------------------------------------------------------- D8, D7, D10, D13: 2048 sizes and tiles

ENDLESS_2048 = {
    "Board of endless rows": lambda: game2048.Board(itertools.repeat([0, 0])),
    "Board with an endless row": lambda: game2048.Board([itertools.repeat(0), [0, 0]]),
    "Board of 10**4 x 10**4 zeros": lambda: game2048.Board([[0] * 10**4] * 10**4),
    "Board.from_array of 10**4 x 10**4": lambda: game2048.Board.from_array(np.zeros((10**4, 10**4), np.int8)),
    "play on endless rows": lambda: game2048.play(itertools.repeat([2, 2]), "left"),
    "legal_moves on endless rows": lambda: game2048.legal_moves(itertools.repeat([2, 2])),
    "Game(board=endless rows)": lambda: game2048.Game(board=itertools.repeat([0, 0])),
    "slide_row(endless)": lambda: game2048.slide_row(itertools.repeat(2)),
}


@pytest.mark.parametrize("case", ENDLESS_2048)
def test_2048_refuses_oversized_and_endless_input_before_reading_it(case: str) -> None:
    """D8: these hung (endless) or took 20 s (10**4 x 10**4); now a ValueError after reading a row or so."""
    with pytest.raises(ValueError, match="more|MAX_ROW"):
        ENDLESS_2048[case]()


def test_a_saved_2048_board_of_many_rows_is_refused_after_reading_nine() -> None:
    data = game2048.Game(rng=1).to_dict()
    data["board"] = [[0, 0, 0, 0]] * 10**5 + [itertools.repeat(0)]  # an endless last row: never reached
    with pytest.raises(ValueError, match="'board'.*more than 8"):
        game2048.Game.from_dict(data)


def test_long_rows_are_not_kept_by_the_memo() -> None:
    """D7: 20 rows of 10**5 tiles kept 367 MB alive in slide_row's memo; the memos now hold board lines only."""
    from tilelab.game2048 import rules

    held = rules.slide_memo.cache_info().currsize
    for i in range(3):
        assert game2048.slide_row([2] * 1000 + [4 << i]).score == 2 * 1000
    assert rules.slide_memo.cache_info().currsize == held
    with pytest.raises(ValueError, match="MAX_ROW"):
        game2048.slide_row([0] * (rules.MAX_ROW + 1))


def test_the_line_memos_stay_under_their_stated_bytes() -> None:
    """The worst lines (8 cells of huge distinct tiles, each moving): CACHED_LINES of them in both memos < 64 MB."""
    import gc
    import tracemalloc

    from tilelab.game2048 import rules

    rng = np.random.default_rng(8)
    lines = [(0,) + tuple(1 << int(e) for e in rng.permutation(np.arange(30, 62))[:7]) for _ in range(500)]
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for line in lines:
        key = tuple(int(v) + 0 for v in line)  # a fresh key, as a memo keeps it
        rules.slide_memo(key)
        rules.line_result(8, 0, 0, key)
        del key
    gc.collect()
    per_line = (tracemalloc.get_traced_memory()[0] - before) / len(lines)
    tracemalloc.stop()
    assert rules.slide_memo.cache_info().maxsize == rules.line_result.cache_info().maxsize == rules.CACHED_LINES
    assert per_line * rules.CACHED_LINES < 64 * 2**20, f"{per_line:.0f} bytes a line"


def test_two_max_tiles_do_not_merge_so_the_game_saves_and_loads() -> None:
    """D10: two 2**62 tiles merged into 2**63: the game's own save was refused and to_array overflowed."""
    from tilelab.game2048.board import MAX_TILE

    game = game2048.Game(board=[[MAX_TILE, MAX_TILE, 0, 0]] + [[0] * 4] * 3, rng=1)
    assert not game.play("left") and game2048.slide_row([MAX_TILE, MAX_TILE]).row == (MAX_TILE, MAX_TILE)
    assert game.play("down")
    loaded = game2048.Game.from_json(game.to_json())
    assert loaded.to_json() == game.to_json() and int(loaded.board.to_array().max()) == MAX_TILE
    full = game2048.Board([[MAX_TILE] * 2, [MAX_TILE] * 2])
    assert game2048.is_over(full) and game2048.legal_moves(full) == []
    assert game2048.slide_row([MAX_TILE // 2] * 2 + [MAX_TILE]).row == (MAX_TILE, MAX_TILE, 0)
    with pytest.raises(ValueError, match="MAX_TILE"):
        game2048.Board.from_array(np.array([[2.0**70, 0], [0, 0]]))  # named as 2**70, not a wrapped -2**63


@pytest.mark.parametrize("board", [
    [[65536, 2, 0, 0]] + [[0] * 4] * 3,  # the hunt's D13: ValueError "above 32768"
    [[32768, 32768, 4, 0]] + [[0] * 4] * 3,  # the bitboard would skip the merge into 65536
    [[131072, 4, 2, 0]] + [[0] * 4] * 3,  # the largest tile a 4x4 game reaches
])
def test_the_hint_works_past_the_bitboards_tiles(board) -> None:
    game = game2048.Game(board=board, rng=1)
    hint = game.hint(nodes=300)
    assert hint in game.legal_moves()
    if board[0][1] == 32768:
        assert hint is game2048.Direction.LEFT  # the 65536 merge


# ---------------------------------------------------------------------- D8, D11: match-3 sizes and contradictions

ENDLESS_MATCH3 = {
    "Board of endless rows": lambda: match3.Board(itertools.repeat((0, 1, 2)), 3),
    "Board with an endless row": lambda: match3.Board([itertools.repeat(0)] * 3, 3),
    "Board of 10**4 x 10**4": lambda: match3.Board([[0] * 10**4] * 10**4, 3),
    "Board of a 10**4 x 10**4 array": lambda: match3.Board(np.zeros((10**4, 10**4), np.int8), 3),
    "SpecialBoard of endless rows": lambda: match3.SpecialBoard(itertools.repeat((0, 1, 2)), itertools.repeat((0,) * 3), 3),
    "SpecialBoard with an endless row": lambda: match3.SpecialBoard([itertools.repeat(0)], [[0]], 3),
}


@pytest.mark.parametrize("case", ENDLESS_MATCH3)
def test_match3_refuses_oversized_and_endless_boards_before_reading_them(case: str) -> None:
    """D8: an endless row or endless rows ran out of 1 GiB; now refused after one row past MAX_SIDE."""
    with pytest.raises(ValueError, match="past tilelab's limits"):
        ENDLESS_MATCH3[case]()


def _match3_save(rules: str = "plain") -> dict:
    game = match3.Game(4, 5, 3, rng=7, rules=rules)
    for _ in range(2):
        assert game.play(game.hint())
    return game.to_dict()


DEAD = [[0, 1, 2], [1, 2, 0], [2, 0, 1]]  # no swap makes a match


def _contradict(change):
    data = _match3_save()
    change(data)
    return data


CONTRADICTIONS = {  # the hunt's D11 and their kin: each refused naming what contradicts
    "history board of another shape": (lambda d: d["history"][0].update(board={"grid": DEAD, "kinds": 3}), "undo step"),
    "history board of other kinds": (lambda d: d["history"][0]["board"].update(kinds=4), "undo step"),
    "last_cascades above best_cascades": (lambda d: d.update(last_cascades=99), "contradict"),
    "best_cascades not the largest": (lambda d: d.update(best_cascades=d["best_cascades"] + 1), "best cascade"),
    "a dead board": (lambda d: d.update(board={"grid": [[0, 1, 2, 0, 1], [1, 2, 0, 1, 2], [2, 0, 1, 2, 0],
                                                        [0, 1, 2, 0, 1]], "kinds": 3}), "dead"),
    "a 1x1 board": (lambda d: d.update(board={"grid": [[0]], "kinds": 3}, history=[]), "dead"),
    "a ready run": (lambda d: d.update(board={"grid": [[0, 0, 0, 1, 2], [1, 2, 1, 2, 0], [2, 0, 2, 0, 1],
                                                       [0, 1, 0, 1, 2]], "kinds": 3}), "ready run"),
    "score before the first move": (lambda d: d.update(moves_played=0, score=60, history=[]), "first move"),
    "a dead board in the history": (lambda d: d["history"][0].update(board={"grid": [[0, 1, 2, 0, 1], [1, 2, 0, 1, 2],
                                                                                     [2, 0, 1, 2, 0], [0, 1, 2, 0, 1]],
                                                                            "kinds": 3}), "dead"),
}


@pytest.mark.parametrize("case", CONTRADICTIONS)
def test_match3_saves_that_contradict_themselves_are_refused(case: str) -> None:
    change, words = CONTRADICTIONS[case]
    with pytest.raises(ValueError, match=words):
        match3.Game.from_dict(_contradict(change))


def test_the_hunts_3x3_after_undo_cannot_happen() -> None:
    """D11: after undo, a 4x5 game became 3x3."""
    game = match3.Game(4, 5, 3, rng=7)
    game.play(((0, 0), (1, 0)))
    data = game.to_dict()
    data["history"][0]["board"] = {"grid": DEAD, "kinds": 3}
    with pytest.raises(ValueError, match="3x3.*4x5"):
        match3.Game.from_json(json.dumps(data))


@pytest.mark.parametrize("rules", ["plain", "specials"])
def test_a_dead_board_given_to_a_game_is_reshuffled_as_after_a_swap(rules: str) -> None:
    dead = match3.Board(((0, 1, 2, 0), (1, 2, 0, 1), (2, 0, 1, 2), (0, 1, 2, 0)), 3)
    game = match3.Game(board=dead, rng=5, rules=rules)
    assert not game.is_dead() and game.legal_moves() and game.hint() is not None
    assert sorted(game.board.counts() if rules == "plain" else game.board.colours().counts()) == sorted(dead.counts())
    again = match3.Game(board=dead, rng=5, rules=rules)  # drawn from the game's own generator: reproducible
    assert again.board == game.board and match3.Game.from_json(game.to_json()).board == game.board
    with pytest.raises(ValueError, match="never have a legal move"):
        match3.Game(board=match3.Board(((0,),), 3), rng=1)


def test_a_live_board_given_to_a_game_is_kept() -> None:
    live = match3.Board.parse("0120\n1201\n0012\n2102")
    assert match3.Game(board=live, rng=1).board == live


# ---------------------------------------------------------------------- the text itself


@pytest.mark.parametrize("name", GAMES)
def test_a_text_past_the_save_limit_is_refused_unparsed_and_never_written(name: str, monkeypatch) -> None:
    from tilelab import protocol

    game = _played(name)
    text = game.to_json()
    monkeypatch.setattr(protocol, "MAX_SAVE_CHARS", len(text) - 1)
    with pytest.raises(ValueError, match="MAX_SAVE_CHARS"):
        type(game).from_json(text)
    with pytest.raises(ValueError, match="MAX_SAVE_CHARS.*new game"):
        game.to_json()
    monkeypatch.setattr(protocol, "MAX_SAVE_CHARS", len(text))
    assert type(game).from_json(text).to_json() == text


# ---------------------------------------------------------------------- found by the property tests


def _with(data: dict, path: tuple, value: object) -> dict:
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


@pytest.mark.parametrize(("name", "path"), [
    ("2048", ("extra",)), ("2048", ("history", 0, "extra")),
    ("sliding", ("extra",)),
    ("match3", ("extra",)), ("match3", ("history", 0, "extra")), ("match3", ("board", "extra")),
    ("match3", ("history", 0, "board", "extra")),
])
def test_an_unknown_field_anywhere_is_refused(name: str, path: tuple) -> None:
    """A save holds exactly the fields the game writes (as a .npy header its keys): nothing is silently dropped."""
    data = _with(_played(name).to_dict(), path, None)
    with pytest.raises(ValueError, match="unknown field.*'extra'"):
        type(GAMES[name]()).from_dict(data)


@pytest.mark.parametrize("name", ["sliding", "match3"])
def test_the_seed_field_is_required(name: str) -> None:
    data = _played(name).to_dict()
    del data["seed"]
    with pytest.raises(ValueError, match="missing the field 'seed'"):
        type(GAMES[name]()).from_dict(data)


def test_a_2048_save_writes_p_four_as_a_decimal_and_reads_it_so() -> None:
    data = game2048.Game(p_four=1.0, rng=1).to_dict()
    assert type(data["p_four"]) is float
    data["p_four"] = 1  # would come back as 1.0
    with pytest.raises(ValueError, match="p_four"):
        game2048.Game.from_dict(data)
