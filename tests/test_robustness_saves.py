"""Hostile saves (issue 37): the random state a save names, and loaders bounded in time and memory.

Reproductions from the hunt (``hunt.md`` D1, D12, D3, D10, D11): a save that crashed Python, drew from
stray memory, raised NotImplementedError or was silently changed is now refused with one ValueError
naming the field; every load that succeeds gives back exactly the save it read.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from tilelab import game2048, match3, sliding
from tilelab._protocol import generator_from_state, saved_rng_state

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
    goal = sliding.Puzzle.goal(side, side)
    start = goal.slide(goal.tiles[goal.blank_index - side])
    start = start.slide(start.tiles[start.blank_index - side + 1])  # blank at the left end of a row
    far = start.tiles[start.blank_index + side - 1]
    back = start.slide(far).tiles[start.blank_index]
    data = sliding.Game(puzzle=start, rng=0).to_dict()
    data["played"] = [far, back] * (slides // 2)
    return json.dumps(data)


def test_the_hunts_memory_bomb_loads_in_little_memory() -> None:
    """D3: 20,000 slides of a 250x250 game (0.5 MB of JSON) ran out of 1.5 GB after 21.6 s (undo kept a board a slide)."""
    import tracemalloc

    goal = sliding.Puzzle.goal(250, 250)  # the hunt's reproduction: one tile slid back and forth
    start = goal.slide(goal.legal_moves()[0])
    data = sliding.Game(puzzle=start, rng=0).to_dict()
    data["played"] = [next(t for t in start.legal_moves() if start.slide(t) != goal)] * 20_000
    text = json.dumps(data)
    tracemalloc.start()
    game = sliding.Game.from_json(text)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 40 * 2**20, f"peak {peak / 2**20:.0f} MB"
    assert game.undo_depth == 20_000 and game.puzzle == start.play(data["played"][:2])  # period 2 after the first
    assert game.moves.single == sliding.count_moves(start, data["played"][:2]).single + 19_998  # then one tile a slide
    assert game.to_json() == text


def test_saves_past_the_move_limit_are_refused_before_replaying_them() -> None:
    from tilelab.sliding.game import MAX_MOVES

    with pytest.raises(ValueError, match="MAX_MOVES"):  # 10**6 slides: refused by length, before any replay
        sliding.Game.from_json(_oscillating_save(3, 10**6))
    with pytest.raises(ValueError, match="MAX_MOVES"):  # 20,000 slides of 249 tiles each: refused part way
        sliding.Game.from_json(_oscillating_save(250, 20_000))
    most = sliding.Game.from_json(_oscillating_save(3, MAX_MOVES // 2))  # 2 tiles a slide: exactly the limit
    assert most.moves.single == MAX_MOVES
    with pytest.raises(ValueError, match="MAX_MOVES.*restart"):
        most.play(most.legal_moves()[0])
    assert most.moves.single == MAX_MOVES and most.undo() and most.moves.single == MAX_MOVES - 2


@pytest.mark.parametrize("shape", [(3, 3), (4, 4), (2, 5), (6, 3)])
def test_undo_and_reload_give_back_every_position(shape: tuple[int, int]) -> None:
    """Undo keeps four ints a slide and slides the segment back: every position returns exactly."""
    rng = np.random.default_rng(shape[0] * 10 + shape[1])
    game = sliding.Game(*shape, rng=int(rng.integers(1000)))
    seen = [(game.puzzle, game.moves)]
    for _ in range(400):
        if game.over:
            break
        game.play(int(rng.choice(game.legal_moves())))
        seen.append((game.puzzle, game.moves))
    loaded = sliding.Game.from_json(game.to_json())
    assert loaded.to_json() == game.to_json() and (loaded.puzzle, loaded.moves) == seen[-1]
    assert loaded.moves == sliding.count_moves(loaded.start, loaded.played)
    while loaded.undo():
        seen.pop()
        assert (loaded.puzzle, loaded.moves) == seen[-1]
        if len(seen) % 50 == 0:
            assert loaded.moves == sliding.count_moves(loaded.start, loaded.played)
    assert len(seen) == 1 and loaded.puzzle == loaded.start


def test_a_slide_after_the_puzzle_is_solved_or_an_illegal_one_is_refused() -> None:
    goal = sliding.Puzzle.goal(3, 3)
    data = sliding.Game(puzzle=goal.slide(8), rng=0).to_dict()
    data["played"] = [8, 8]
    with pytest.raises(ValueError, match=r"played\[1\].*solved"):
        sliding.Game.from_dict(data)
    for bad in (1, 0, 9, -1, True, 8.0, "8", None):
        data["played"] = [bad]
        with pytest.raises(ValueError, match=r"played\[0\]"):
            sliding.Game.from_dict(data)
