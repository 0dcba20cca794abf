"""The watch behind every check: delegation decided by what the answer calls, against the exercise's allow-list.

Every loophole the reviews and the hunt found (``../shared/reviews/lessons-*.md``, ``hunt.md`` D9, D14 and
the exercise probes) is refused here, and every honest answer they saw refused is accepted. The tests call
the real ``check`` with no ``allow_package_calls``.
"""

from __future__ import annotations

import functools
import importlib
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

from tilelab.exercises import MESSAGE_LIMIT, allowed_calls, allowed_code, check, list_exercises, time_limit
from tilelab.exercises.allow import resolve
from tilelab.exercises.code_kinds import NEUTRAL, STUDENT, TILELAB, kind_of
from tilelab.exercises.watch import Watch

NEW_PYTHON = sys.version_info >= (3, 12)  # sys.monitoring: every callable a student's line calls is seen


def count_empty_by_hand(rows):
    return sum(1 for row in rows for v in row if v == 0)


# ---------------------------------------------------------------------------- whose code is what
def test_code_is_sorted_into_tilelab_neutral_and_the_students():
    from tilelab.game2048 import slide_row

    assert kind_of(slide_row.__code__) == TILELAB
    assert kind_of(textwrap.dedent.__code__) == NEUTRAL
    assert kind_of(np.lib.format.read_magic.__code__) == NEUTRAL
    assert kind_of(count_empty_by_hand.__code__) == STUDENT  # a test file stands for the student's notebook
    assert kind_of(compile("x = 1", "<doctest example[0]>", "exec")) == STUDENT
    assert kind_of(compile("x = 1", "<string>", "exec")) == NEUTRAL  # exec'd code: its caller decides


def test_every_allow_list_resolves_to_tilelab_code():
    for name in list_exercises():
        assert isinstance(allowed_calls(name), str)
    for name in list_exercises():
        assert all(kind_of(code) == TILELAB for code in allowed_code(name)), name


# ---------------------------------------------------------------------------- 00: naming is not calling
def test_00_building_a_board_to_read_its_rows_is_honest_work():
    from tilelab.game2048 import Board

    def count_empty(rows):
        b = Board(rows)
        return sum(1 for r in b.grid for v in r if v == 0)

    def largest_tile(rows):
        board = Board(rows)
        print(board, end="", file=open(__import__("os").devnull, "w"))  # printing is reading too
        return max(max(r) for r in board.grid)

    assert check("count_empty", count_empty)
    assert check("largest_tile", largest_tile)
    assert check("largest_tile", lambda rows: int(np.max(np.array(rows))))  # numpy is always fine


def test_00_the_boards_own_queries_are_refused():
    from tilelab.game2048 import Board

    r = check("count_empty", lambda rows: len(Board(rows).empty_cells()))
    assert r.reason == "delegated" and r.counterexample.endswith("Board.empty_cells")
    assert "empty_cells" in r.message and len(r.message) < MESSAGE_LIMIT
    r = check("largest_tile", lambda rows: Board(rows).max_tile)  # a property is a call too
    assert r.reason == "delegated" and r.counterexample.endswith("Board.max_tile")


# ---------------------------------------------------------------------------- D9: the hunt's bypasses
def test_d9_switching_the_profile_off_does_not_pass():
    def row_score(row):
        sys.setprofile(None)
        return getattr(importlib.import_module("tilelab.game2048"), "slide" + "_row")(row).score

    r = check("2048.row_score", row_score)
    assert not r and r.reason == "switched-off" and r.counterexample == "sys.setprofile"
    assert sys.getprofile() is None  # the watch put back what was there


def test_d9_a_private_cached_twin_is_delegation():
    from tilelab.game2048 import rules, slide_row

    slide_row([2, 2, 0, 0])  # warm the cache: on a hit no Python code of tilelab's runs
    r = check("2048.row_score", lambda row: rules.slide_memo(tuple(row)).score)
    assert r.reason == "delegated" and "_slide" in r.counterexample
    r = check("2048.slide_row", lambda row: rules.slide_memo(tuple(row)).row)
    assert r.reason == "delegated"
    sc = rules.slide_memo
    assert check("2048.slide_row", lambda row: sc(tuple(row)).row).reason == "delegated"


def test_d9_a_game_is_not_a_way_around_the_rule():
    from tilelab.game2048 import Board, Direction, Game

    def row_score(row):  # hunt probe 74: the score of a left move of the row on top of an empty board, by Game.play
        n = len(row)
        game = Game(board=Board([list(row)] + [[0] * n for _ in range(n - 1)]), rng=1)
        game.play(Direction.LEFT)
        return game.score

    assert check("2048.row_score", row_score).reason == "delegated"


@pytest.mark.parametrize("trick", ["settrace", "threading", "signal", "subprocess", "monitoring"])
def test_switching_any_watch_or_the_clock_off_does_not_pass(trick):
    if trick == "monitoring" and not NEW_PYTHON:
        pytest.skip("sys.monitoring is Python 3.12+")

    def answer(rows):
        if trick == "settrace":
            sys.settrace(lambda *a: None)
            sys.settrace(None)
        elif trick == "threading":
            threading.setprofile(None)
        elif trick == "signal":
            import signal

            signal.setitimer(signal.ITIMER_REAL, 0)
        elif trick == "subprocess":
            import subprocess

            subprocess.run([sys.executable, "-c", "pass"], check=False)
        else:
            sys.monitoring.free_tool_id(2)
        return count_empty_by_hand(rows)

    r = check("count_empty", answer)
    assert not r and r.reason == "switched-off"
    assert "watch" in r.message and len(r.message) < MESSAGE_LIMIT
    assert check("count_empty", count_empty_by_hand)  # and the next check works as before


# ---------------------------------------------------------------------------- routes to a package function
def test_calls_through_map_sorted_partial_exec_and_a_helper_are_seen():
    from tilelab.game2048 import slide_row

    def helper(row):
        return slide_row(row).score

    answers = [
        lambda row: helper(row),
        lambda row: list(map(slide_row, [row]))[0].score,
        lambda row: functools.partial(slide_row)(row).score,
        lambda row: functools.reduce(lambda acc, r: slide_row(r).score, [row], 0),
        lambda row: eval("slide_row(row).score", {"slide_row": slide_row, "row": row}),
    ]
    for answer in answers:
        r = check("2048.row_score", answer)
        assert r.reason == "delegated" and r.counterexample.endswith("slide_row"), r


def test_a_thread_or_a_pool_the_answer_starts_is_watched_too():
    from concurrent.futures import ThreadPoolExecutor

    from tilelab.game2048 import slide_row

    def in_a_thread(row):
        out = []
        t = threading.Thread(target=lambda: out.append(slide_row(row).score))
        t.start()
        t.join()
        return out[0] if out else 0

    def in_a_pool(row):
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(slide_row, row).result().score

    for answer in (in_a_thread, in_a_pool):
        assert check("2048.row_score", answer).reason == "delegated"


def test_calling_check_or_allow_package_calls_inside_an_answer_is_delegation():
    import tilelab.exercises as ex
    from tilelab.game2048 import Board

    def sneaky(rows):
        with ex.allow_package_calls():
            return len(Board(rows).empty_cells())

    assert check("count_empty", sneaky).reason == "delegated"
    assert check("count_empty", lambda rows: check("largest_tile", max) and 0).reason == "delegated"

    def flag(rows):  # hunt probe 474: setting the module's flag is read before the answer runs
        ex._ALLOW_PACKAGE_CALLS = 1
        try:
            return len(Board(rows).empty_cells())
        finally:
            ex._ALLOW_PACKAGE_CALLS = 0

    assert check("count_empty", flag).reason == "delegated"


def test_a_compiled_kernel_called_directly_is_delegation():
    from tilelab.match3.fast.plain import any_move

    assert check("match3.is_dead", lambda board: not any_move(board.to_array())).reason == "delegated"


@pytest.mark.skipif(not NEW_PYTHON, reason="Python 3.10/3.11 read the names a function uses, not getattr")
def test_a_compiled_kernel_reached_by_getattr_is_delegation_on_new_pythons():
    def dead(board):
        kernel = getattr(importlib.import_module("tilelab.match3.fast.plain"), "any" + "_move")
        return not kernel(board.to_array())

    assert check("match3.is_dead", dead).reason == "delegated"


def test_a_student_module_on_disk_is_the_students_code(tmp_path, monkeypatch):
    (tmp_path / "my_helpers.py").write_text(textwrap.dedent("""
        from tilelab.game2048 import Board, slide_row

        def count(rows):
            return sum(1 for r in Board(rows).grid for v in r if v == 0)

        def score(row):
            return slide_row(row).score
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    helpers = importlib.import_module("my_helpers")
    assert check("count_empty", helpers.count)
    assert check("2048.row_score", helpers.score).reason == "delegated"


# ---------------------------------------------------------------------------- time
def test_d14_an_answer_that_sleeps_gets_a_kind_too_slow():
    # A sleep that ran to its end would return None, a wrong answer, not "too-slow": the reason alone shows
    # the watch cut it short, whatever the machine's load (no wall clock read here).
    with time_limit(1):
        r = check("count_empty", lambda rows: time.sleep(120))
    assert not r and r.reason == "too-slow" and r.counterexample == 1
    assert "1 s" in r.message and len(r.message) < MESSAGE_LIMIT
    assert check("count_empty", count_empty_by_hand)  # the next check is not disturbed


def test_an_endless_loop_that_swallows_every_exception_still_stops():
    def stubborn(rows):
        while True:
            try:
                while True:
                    pass
            except BaseException:  # noqa: BLE001 - exactly what a careless student writes
                pass

    start = time.process_time()  # CPU time: a busy machine slows the loop down, it does not lengthen this
    with time_limit(1):
        r = check("count_empty", stubborn)
    assert r.reason == "too-slow" and time.process_time() - start < 10


def test_without_an_alarm_the_watch_itself_stops_a_loop():
    """Where no signal can ring (the browser, a check run from another thread), calls and loops are counted."""
    results = {}

    def busy(rows):
        n = 0
        while True:
            n += len(rows)  # a call each turn: seen on every Python

    def bare(rows):
        while True:
            pass  # no call at all: seen on 3.12+ (loop events in the student's code)

    def run():
        with time_limit(1):
            results["busy"] = check("count_empty", busy)
            if NEW_PYTHON:
                results["bare"] = check("count_empty", bare)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(30)
    assert not worker.is_alive()
    assert all(r.reason == "too-slow" for r in results.values()) and results


def test_a_users_interrupt_still_interrupts():
    def interrupted(rows):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        check("count_empty", interrupted)
    assert check("count_empty", count_empty_by_hand)


def test_the_watch_puts_back_a_profile_function_and_a_timer_it_found():
    import signal

    seen = []

    def other(frame, event, arg):
        seen.append(event)

    fired = []
    old = signal.signal(signal.SIGALRM, lambda *a: fired.append(1))
    signal.setitimer(signal.ITIMER_REAL, 30)
    sys.setprofile(other)
    try:
        check("count_empty", count_empty_by_hand)
        assert sys.getprofile() is other
        remaining, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 0 < remaining <= 30
    finally:
        sys.setprofile(None)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# ---------------------------------------------------------------------------- numbers and the watch itself
def test_a_numpy_scalar_is_a_number():  # (a Fraction: test_exercises_delegation's honest deal_probability)
    assert check("count_empty", lambda rows: np.int64(count_empty_by_hand(rows)))


def test_watch_reports_nothing_for_plain_python():
    w = Watch(resolve(()), seconds=5)
    with w:
        sorted(range(100), key=lambda x: -x)
    assert (w.delegated, w.switched_off, w.timed_out) == (None, None, False)
    assert w.backend == ("monitoring" if NEW_PYTHON else "profile")


def test_importing_tilelab_inside_an_answer_is_not_a_call(monkeypatch):
    for name in [m for m in sys.modules if m.startswith("tilelab.game2048.tree")]:
        monkeypatch.delitem(sys.modules, name)  # so the answer's import runs the module's code

    def count_empty(rows):
        from tilelab.game2048 import Board, Expectimax  # noqa: F401 - a lazily loaded name, named and not called
        from tilelab.game2048 import tree  # noqa: F401 - a module imported for the first time

        return sum(1 for r in Board(rows).grid for v in r if v == 0)

    assert check("count_empty", count_empty)


def test_time_running_out_names_the_case_the_answer_was_working_on():
    """A search that never ends on one case: the message says which case, as a wrong value's message would."""
    def stuck_on_merges(row):
        if any(a == b != 0 for a, b in zip(row, row[1:])):
            time.sleep(120)  # never ends, as a search that does not shrink its problem
        return [v for v in row if v] + [0] * row.count(0)

    with time_limit(1):
        r = check("2048.slide_row", stuck_on_merges)
        wrong = check("2048.slide_row", lambda row: [v for v in row if v] + [0] * row.count(0))
    # the smallest row with a merge: the one the answer that forgets merging gets wrong first
    case = wrong.message.split(" you returned")[0].removeprefix("on ")
    assert r.reason == "too-slow" and f"while your code worked on {case}." in r.message, (r.message, case)
    assert len(r.message) < MESSAGE_LIMIT
