"""Property tests (issue 37): mutated saves fed to ``from_json`` in a capped child process.

For each game, hypothesis takes real saves (small games with an undo history; match-3 with and without
special candies) and damages them one to three times: a field dropped, retyped (null, a bool, a float,
NaN, a string, a huge int, a list, an object), enlarged (a number times 10**k, a list repeated, a long
string), nudged by one, or replaced by another field's value (contradicting the rest). The child
(:mod:`tests.save_worker`) loads each text under an address-space cap and a CPU cap. Every outcome must be
either a load that round-trips exactly (every field the save holds comes back unchanged, and loading the
game's own save gives it back again) or one ValueError/TypeError on one line, within 1 s of CPU time.
A crash, a hang, another exception or a slow load fails the test with the text that caused it.
"""

from __future__ import annotations

import copy
import json
import math
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tilelab import game2048, match3, sliding

ROOT = Path(__file__).resolve().parent.parent
CPU_LIMIT = 1.0  # seconds of CPU a load (and its round trip) may take
MEMORY_MB = 1024  # address space the child may add to what it uses once warmed
WALL_LIMIT = 30.0  # seconds before a request counts as a hang (a loaded CI machine is slow, never this slow)
TEXT_BUDGET = 4 * 2**20  # the largest mutated text, in characters (enlarging stops there)
EXAMPLES = int(os.environ.get("TILELAB_SAVE_EXAMPLES", "400"))  # per game


def _played(game: Any, moves: int) -> dict:
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(legal[len(legal) // 2])
    return game.to_dict()


BASES = {
    "2048": [_played(game2048.Game(rng=1), 6), _played(game2048.Game(3, target=16, rng=2), 12),
             _played(game2048.Game(5, p_four=1.0, rng=3), 3)],
    "sliding": [_played(sliding.Game(3, rng=1), 7), _played(sliding.Game(2, 4, rng=2), 4),
                _played(sliding.Game(4, rng=3), 0)],
    "match3": [_played(match3.Game(5, 5, 4, rng=1), 3), _played(match3.Game(6, 6, 4, rng=2, rules="specials"), 3),
               _played(match3.Game(4, 5, 3, rng=7), 1)],
}

JUNK = [None, True, False, 0, -1, 1, 1.5, -0.0, math.nan, math.inf, 2**64, -(2**70), 10**80, "", "x", "0",
        [], [0], [[0]], {}, {"a": 1}, "tilelab.game2048", "PCG64"]


def _paths(node: Any, path: tuple = ()) -> Iterator[tuple]:
    """Every place in a JSON tree, as a tuple of keys and indexes (the root is ())."""
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, path + (i,))


def _get(node: Any, path: tuple) -> Any:
    for key in path:
        node = node[key]
    return node


def _set(root: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    _get(root, path[:-1])[path[-1]] = value
    return root


@st.composite
def _mutated(draw: st.DrawFn, game: str) -> str:
    data = copy.deepcopy(draw(st.sampled_from(BASES[game])))
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(data))
        fields = [p for p in paths if p and isinstance(p[-1], str)]  # named fields: most mutations land there
        top = [p for p in fields if len(p) == 1]
        where = draw(st.sampled_from(["top", "top", "field", "any"]))
        path = draw(st.sampled_from({"top": top, "field": fields}.get(where) or paths))
        value = _get(data, path)
        kind = draw(st.sampled_from(["drop", "retype", "enlarge", "nudge", "contradict", "add"]))
        if kind == "add":  # an unknown field beside this one
            parent = value if isinstance(value, dict) else _get(data, path[:-1]) if path else None
            if isinstance(parent, dict):
                parent[draw(st.sampled_from(["extra", "Score", "score ", "undo"]))] = copy.deepcopy(draw(st.sampled_from(JUNK)))
        elif kind == "drop" and path:
            parent = _get(data, path[:-1])
            del parent[path[-1]]
        elif kind == "retype":  # junk, or the same value as another JSON type (1 -> 1.0, 0.0 -> 0, 1 -> true, "1")
            twins = [float(value), str(value)] + ([value == 1] if value in (0, 1) else []) \
                if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53 else \
                [int(value), str(value)] if isinstance(value, float) and value.is_integer() else \
                [int(value)] if isinstance(value, bool) else [[value]]
            data = _set(data, path, copy.deepcopy(draw(st.sampled_from(JUNK + twins * 4))))
        elif kind == "enlarge":
            if isinstance(value, bool):
                data = _set(data, path, not value)
            elif isinstance(value, int):
                data = _set(data, path, value * 10 ** draw(st.integers(1, 40)) + draw(st.integers(0, 3)))
            elif isinstance(value, float):
                data = _set(data, path, value * 10.0 ** draw(st.integers(1, 300)))
            elif isinstance(value, list):
                times = draw(st.sampled_from([2, 3, 50, 1000]))
                data = _set(data, path, value * min(times, max(1, TEXT_BUDGET // len(json.dumps(data)))))
            elif isinstance(value, str):
                times = draw(st.sampled_from([2, 1000, 100_000]))
                data = _set(data, path, value * min(times, max(1, TEXT_BUDGET // max(1, len(value)))))
            elif isinstance(value, dict):
                value[draw(st.sampled_from(["extra", "board", "rng", "state", "history"]))] = copy.deepcopy(value)
        elif kind == "nudge" and isinstance(value, int) and not isinstance(value, bool):
            data = _set(data, path, value + draw(st.sampled_from([-1, 1, 2])))
        elif kind == "contradict":  # another field's value here (from this save or another game's)
            other = draw(st.sampled_from(BASES[game] + [data]))
            source = draw(st.sampled_from(list(_paths(other))))
            data = _set(data, path, copy.deepcopy(_get(other, source)))
        if len(json.dumps(data)) > TEXT_BUDGET:  # enlarged enough: no more mutations (keeps this process small)
            break
    return json.dumps(data)


class _Child:
    """The capped loader process, one line in, one line out."""

    def __init__(self) -> None:
        self._start()

    def _start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.process = subprocess.Popen([sys.executable, "-m", "tests.save_worker", str(MEMORY_MB)], cwd=ROOT,
                                        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, args=(self.process, self.lines), daemon=True).start()
        ready = self._line(600.0)  # warming compiles the kernels (numba) unless they are cached
        assert json.loads(ready)["ready"], ready

    @staticmethod
    def _read(process: subprocess.Popen[str], lines: queue.Queue[str]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)
        lines.put("")

    def _line(self, timeout: float) -> str:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            self.process.kill()
            raise AssertionError(f"the loader did not answer within {timeout} s (a hang)") from None
        if not line:
            raise AssertionError(f"the loader died (exit code {self.process.wait()}): a crash")
        return line

    def load(self, game: str, text: str) -> dict:
        if self.process.poll() is not None:  # killed after a hang, or crashed: a fresh child for the next text
            self._start()
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"game": game, "text": text}) + "\n")
        self.process.stdin.flush()
        return json.loads(self._line(WALL_LIMIT))

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture(scope="module")
def child() -> Iterator[_Child]:
    loader = _Child()
    yield loader
    loader.close()


def _fields(data: Any) -> dict[str, str]:
    """Each top-level field as canonical JSON: 1, 1.0 and true differ; key order does not."""
    return {key: json.dumps(value, sort_keys=True) for key, value in data.items()} if isinstance(data, dict) else {}


def _check(child: _Child, game: str, text: str) -> str:
    """Load ``text`` in the child and check the outcome; returns "loaded" or "refused"."""
    result = child.load(game, text)
    shown = text if len(text) < 600 else text[:600] + f"... ({len(text)} chars)"
    assert result["outcome"] in ("loaded", "ValueError", "TypeError"), f"{result['message']}\nfrom: {shown}"
    assert result["cpu"] <= CPU_LIMIT, f"{result['cpu']:.2f} s of CPU ({result['outcome']}) for: {shown}"
    if result["outcome"] != "loaded":
        assert "\n" not in result["message"] and result["message"], result["message"]
        return "refused"
    given_fields, saved = _fields(json.loads(text)), _fields(json.loads(result["save"]))
    changed = {key: (given_fields[key][:200], saved[key][:200]) for key in given_fields.keys() & saved.keys()
               if given_fields[key] != saved[key]}
    assert not changed, f"loaded, but saved back changed: {changed}\nfrom: {shown}"
    made_up = saved.keys() - given_fields.keys()  # only a field older saves lack, at its default
    assert made_up <= {"keep_playing"} and all(saved[key] == "true" for key in made_up), f"fields made up: {made_up}"
    assert result["stable"], f"the loaded game's own save does not load back the same: {shown}"
    return "loaded"


PROPERTY = settings(max_examples=EXAMPLES, deadline=None, derandomize=os.environ.get("TILELAB_SAVE_RANDOM") is None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


@PROPERTY
@given(text=_mutated("2048"))
def test_mutated_2048_saves(child: _Child, text: str) -> None:
    _check(child, "2048", text)


@PROPERTY
@given(text=_mutated("sliding"))
def test_mutated_sliding_saves(child: _Child, text: str) -> None:
    _check(child, "sliding", text)


@PROPERTY
@given(text=_mutated("match3"))
def test_mutated_match3_saves(child: _Child, text: str) -> None:
    _check(child, "match3", text)


def test_the_unmutated_saves_load_exactly(child: _Child) -> None:
    for game, saves in BASES.items():
        for data in saves:
            result = child.load(game, json.dumps(data))
            assert result["outcome"] == "loaded" and json.loads(result["save"]) == data


def test_a_crash_or_a_memory_bomb_in_the_child_fails_loudly(child: _Child) -> None:
    """The harness can fail: a child past its memory cap answers MemoryError, which is no ValueError."""
    result = child.load("2048", json.dumps({"format": "tilelab.game2048", "version": 1}))
    assert result["outcome"] == "ValueError"
    bomb = "[" * 10**6  # deep nesting: refused as a ValueError, not a RecursionError
    assert child.load("2048", bomb)["outcome"] == "ValueError"


@pytest.mark.parametrize("game", sorted(BASES))
def test_the_mutations_reach_both_outcomes(child: _Child, game: str) -> None:
    """The property tests above are not vacuous: their mutations give saves that load and saves that are refused."""
    tally = {"loaded": 0, "refused": 0}

    @settings(PROPERTY, max_examples=60)
    @given(text=_mutated(game))
    def run(text: str) -> None:
        tally[_check(child, game, text)] += 1

    run()
    assert tally["loaded"] > 0 and tally["refused"] > 0, tally
