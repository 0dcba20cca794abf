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
