"""Lessons 00, 05a, 05b and 05c: the numbers their prose states are the numbers they compute, and
exploring (other seeds, other sizes) raises nowhere and still ends with the exercises checking."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.lessonrun import errors, exercise_outputs, lesson_path, prose, run_lesson

PACE = Path("/work/shared/tools/lesson_pace.py")


def _checked(nb) -> None:
    assert errors(nb) == []
    shown = exercise_outputs(nb)
    assert shown and all("NOT YET" in s or "PASSED" in s for s in shown), shown


def _stated_minutes(stem: str) -> int:
    first = json.loads(lesson_path(stem).read_text())["cells"][0]["source"]
    return int(re.search(r"\*\*Time:\*\* about (\d+) minutes", "".join(first)).group(1))


# ----------------------------------------------------------------------------- 05a

@pytest.fixture(scope="module")
def a05():
    return run_lesson("05a", fetch=[
        "MOVES", "tears", "at_swap", "float(np.mean(lengths == 1))", "rho", "agree", "len(boards)",
        "checked", "agreed", "stopped", "article.picture().split()", "example is not None",
        "sorted(g.shape for g in [example[3]])",
    ])


def test_05a_states_what_it_measures(a05):
    text = prose("05a")
    assert a05["agree"] == 300  # random boards in 2c (`boards` is reused by section 3)
    assert round(a05["float(np.mean(lengths == 1))"], 1) == 0.7 and "About 7 moves in 10" in text
    assert round(a05["rho"], 1) == 0.3 and "ρ ≈ 0.3" in text
    # the article's CheckDispel tears L/T/cross groups on about 2 swaps in 100, never on the swap itself
    assert round(100 * a05["tears"] / a05["MOVES"]) == 2 and "About 2 swaps in 100" in text
    assert a05["at_swap"] == 0 and "On the swap itself this cannot happen" in text
    assert a05["example is not None"] and a05["sorted(g.shape for g in [example[3]])"][0] in ("L", "T", "cross")
    assert a05["checked"] == a05["agreed"] > 1000
    assert a05["stopped"] == "cascade did not settle after 10000 steps"
    assert a05["article.picture().split()"][3] == "111" and "the bottom row reads `1 1 1`" in text
    _checked(a05.notebook)


def test_05a_explores():
    ran = run_lesson("05a", overrides={"SEED": 11, "MOVES": 600, "SIZE": 7, "KINDS": 5}, fetch=["tears"])
    _checked(ran.notebook)


# ----------------------------------------------------------------------------- 05b

@pytest.fixture(scope="module")
def b05():
    return run_lesson("05b", fetch=[
        "round(exact[3, 4, 3].p_max / exact[3, 4, 3].p_min, 1)", "rates", "stuck", "disagree", "float(np.mean(tries))",
        "per_move[8, 6]", "per_move[6, 7]", "GAMES", "SAMPLES", "float(table[0, 3])", "min(draws)",
        "[SAVED[k] == exact[k] for k in exact]",
    ])


def test_05b_states_what_it_measures(b05):
    text = prose("05b")
    assert b05["round(exact[3, 4, 3].p_max / exact[3, 4, 3].p_min, 1)"] == 22.8 and "22.8 times" in text
    assert b05["min(draws)"] >= 81 and b05["stuck"] > 0
    ex, rej = b05["rates"]["exclude"], b05["rates"]["reject"]
    assert (round(100 * ex, 1), round(100 * rej, 1)) == (2.6, 2.9) and "about 2.6% against 2.9%" in text
    assert abs(b05["float(table[0, 3])"] - 1 / 3) < 0.05 and "about a third of 4×4 boards" in text
    assert b05["disagree"] == 0
    assert b05["[SAVED[k] == exact[k] for k in exact]"] == [True] * 3  # the browser prints what a laptop computes
    assert round(b05["float(np.mean(tries))"]) == 2 and "About two tries" in text
    fresh, deaths, played = b05["per_move[8, 6]"]
    assert fresh == 0 and b05["SAMPLES"] == 20_000 and "not one of 20,000 fresh deals" in text
    assert round(1000 * deaths / played, 1) == 1.3 and "about 1.3 in\n1000 moves" in text
    fresh, deaths, played = b05["per_move[6, 7]"]
    assert deaths == b05["GAMES"] and deaths / played > 3 * fresh and "every game dies" in text


def test_05b_explores():
    ran = run_lesson("05b", overrides={"SEED": 8, "SAMPLES": 3000, "GAMES": 60}, fetch=["disagree"])
    assert ran["disagree"] == 0
    _checked(ran.notebook)


# ----------------------------------------------------------------------------- 05c

@pytest.fixture(scope="module")
def c05():
    return run_lesson("05c", fetch=[
        "ratio", "diff", "diff_half", "made", "matched", "blasted", "WATCHED",
        "len(legal_moves(Board(tuple(map(tuple, BASE)), 6)))",
        "{n: len(s.cleared_cells) for n, s in cleared.items()}", "len(first.cleared_cells)", "again.cell",
        "len(step.cleared_cells)", "step.score",
    ])


def test_05c_states_what_it_measures(c05):
    text = prose("05c")
    assert "Latin" not in text and "(2*r* + *c*) mod 6" in text
    assert c05["len(legal_moves(Board(tuple(map(tuple, BASE)), 6)))"] == 0 and "no\nswap can make a run" in text
    counts = c05["{n: len(s.cleared_cells) for n, s in cleared.items()}"]
    assert counts["striped+wrapped"] == 27 and "Twenty-seven" in text and counts["bomb+bomb"] == 36
    assert c05["len(first.cleared_cells)"] == 9 and "Nine cells" in text and c05["again.cell"] == [2, 1]
    assert c05["len(step.cleared_cells)"] == 8 and "8 cells" in text and c05["step.score"] == 360
    assert 1.3 < c05["ratio"] < 1.8 and abs(c05["diff"]) < c05["diff_half"]
    made = c05["made"]
    assert 0.5 <= 10 * made / c05["WATCHED"] <= 1.5 and "about once every ten moves" in text
    assert c05["matched"] + c05["blasted"] > made / 2 and c05["matched"] > c05["blasted"]
    assert "most specials made by random play wait on the board" not in text
    assert "differ between versions of Candy Crush" in text
    assert "A special only goes off when it is matched or swapped" not in text
    _checked(c05.notebook)


def test_05c_explores():
    ran = run_lesson("05c", overrides={"SEED": 9, "MOVES": 1500, "WATCHED": 100}, fetch=["made"])
    _checked(ran.notebook)


# ----------------------------------------------------------------------------- 00 and the times

def test_00_map_reads_every_time_from_the_lessons():
    from tilelab.exercises.start import COURSE, course_map, lesson_header

    ran = run_lesson("00", fetch=["course_map()"])
    _checked(ran.notebook)
    table = ran["course_map()"]
    assert "| ? |" not in table and "· ?]" not in table
    for stem, _, _ in COURSE:
        title, minutes = lesson_header(lesson_path(stem))
        assert f"| {minutes} |" in table and title in table
    assert _stated_minutes("00_start_here") <= 60 and "00 takes 15" not in prose("00")
    assert course_map() == table


@pytest.mark.skipif(not PACE.exists(), reason="the pace tool lives outside the repository")
@pytest.mark.parametrize("stem", ["00_start_here", "05a_match3_dispel", "05b_match3_dead_boards", "05c_match3_specials"])
def test_pace_fits_the_stated_time(stem):
    out = subprocess.run([sys.executable, str(PACE), str(lesson_path(stem))], capture_output=True, text=True).stdout
    fields = out.splitlines()[1].split()
    asserts, core, stated = int(fields[4]), float(fields[5]), int(fields[6])
    assert stated == _stated_minutes(stem) <= 60 and asserts == 0 and core <= 1.1 * stated
