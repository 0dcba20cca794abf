"""Lessons 00 and 05a-05d: every claim the prose makes holds, as a predicate on the run's results, at the
defaults and when explored (other seeds, the sizes the parameters cell or open task suggests, the browser
edition's sizes); no cell raises, the exercises check, the solutions pass. One run per lesson per setting."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.lessonrun import check_exercises, errors, lesson_path, prose, run_lesson

PACE = Path("/work/shared/tools/lesson_pace.py")


def _checked(nb) -> None:
    assert errors(nb) == []
    # the lesson uses only the current names (docs/vocabulary.md): an older one would warn in the cell's output
    warned = [o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("name") == "stderr" and "DeprecationWarning" in o.get("text", "")]
    assert warned == [], warned
    check_exercises(nb)  # every starting stub says "not yet", every solution passes


def _stated_minutes(stem: str) -> int:
    first = json.loads(lesson_path(stem).read_text())["cells"][0]["source"]
    return int(re.search(r"\*\*Time:\*\* about (\d+) minutes", "".join(first)).group(1))


# ----------------------------------------------------------------------------- 05a

# each lesson runs once per setting (lessonrun caches the run), so the fetch lists hold everything asked of it
SETTINGS_05A = {
    "defaults": None,
    "seed 1, browser size": {"SEED": 1, "MOVES": 300},
    "6x6, 3 kinds": {"SIZE": 6, "KINDS": 3, "MOVES": 500},
    "10x10, 8 kinds": {"SIZE": 10, "KINDS": 8, "MOVES": 500},
}
FETCH_05A = [
    "agree", "same", "len(boards)", "shapes", "[shape_of(g) for b in pictures for g in group_runs(scan(b))]",
    "list(examples)", "[s.board for s in result.steps] == [b for b, _ in steps]", "len(steps)",
    "left", "n_forced", "followed", "MOVES", "len(lengths)",
    "int(lengths.min())", "int(lengths.sum())", "rho", "stopped", "int(many.max())", "MAX_CASCADES",
]


@pytest.mark.parametrize("setting", SETTINGS_05A)
def test_05a_claims_hold_when_explored(setting):
    ran = run_lesson("05a", overrides=SETTINGS_05A[setting], fetch=FETCH_05A)
    _checked(ran.notebook)
    # section 2: counting, scanning and the package agree on every random board; section 3: groups and shapes too
    assert ran["agree"] == ran["same"] == ran["len(boards)"] > 0
    assert ran["[shape_of(g) for b in pictures for g in group_runs(scan(b))]"] == ran["list(examples)"]
    assert set(ran["shapes"]) == {"line3", "line4", "line5", "L", "T", "cross"}
    # section 4: the readable cascade is the package's; "Will the move end with that match?" -- no
    assert ran["[s.board for s in result.steps] == [b for b, _ in steps]"] and ran["len(steps)"] > 1
    # "step 1 was forced": the candies left after its fall, before any refill, already hold a run
    assert ran["left"]
    # section 5: one cascade per move, rho is the share of steps followed by another, forced ones among them
    moves, steps = ran["MOVES"], ran["int(lengths.sum())"]
    assert ran["len(lengths)"] == moves and ran["int(lengths.min())"] >= 1
    assert ran["followed"] == steps - moves and 0 <= ran["n_forced"] <= ran["followed"]
    assert ran["rho"] == pytest.approx((steps - moves) / steps) and 0 <= ran["rho"] < 1
    # going deeper: the guard stops a stuck refill, and no measured cascade comes near it
    assert ran["stopped"] == f"cascade did not settle after {ran['MAX_CASCADES']} steps"
    assert ran["int(many.max())"] < ran["MAX_CASCADES"]


# ----------------------------------------------------------------------------- 05b

SETTINGS_05B = {
    "defaults": None,
    "seed 8": {"SEED": 8},
    "browser edition": "IN_BROWSER = True\nSAMPLES, GAMES = 600, 20",  # its sizes and its saved exact counts
}
FETCH_05B = [
    "float(np.mean(draws))", "min(draws)", "stuck",
    "{f'{k}': [e.uniform, e.exclude, e.p_max / e.p_min] for k, e in exact.items()}", "disagree", "dead", "n",
    "works", "max(tries)", "{f'{k}': v for k, v in per_move.items()}", "GAMES", "LIMIT", "SAMPLES",
    "dead5", "n5", "word", "refilled", "moved", "fresh", "compare(refilled, n, fresh, n)", "compare(moved, n, fresh, n)",
    "stages", "same",
]


def _verdict_fits(verdict: str, rate: float, other: float) -> None:
    assert verdict in ("more", "less", "cannot tell")
    assert verdict != "more" or rate > other
    assert verdict != "less" or rate < other


@pytest.mark.parametrize("setting", SETTINGS_05B)
def test_05b_claims_hold_when_explored(setting):
    ran = run_lesson("05b", overrides=SETTINGS_05B[setting], fetch=FETCH_05B)
    _checked(ran.notebook)
    # 1a: at least one draw per cell (81); with two kinds the redraw loop gets stuck
    assert ran["min(draws)"] >= 81 and ran["float(np.mean(draws))"] > 81 and ran["stuck"] > 0
    # 1b: the exclude deal is not the uniform one (the browser reads the saved counts: a unit test checks them)
    for uniform, exclude, spread in ran["{f'{k}': [e.uniform, e.exclude, e.p_max / e.p_min] for k, e in exact.items()}"].values():
        assert exclude != uniform and spread > 1
    # 2: on stable boards the rule and trying every swap agree (the proof), and some boards were dead
    assert ran["disagree"] == 0 and 0 < ran["dead"] < ran["n"]
    # 3: reshuffles take a few tries within the limit of 50; each per-move verdict fits its numbers
    assert 0 < ran["works"] <= 1 and ran["max(tries)"] <= 50
    samples = ran["SAMPLES"]
    for fresh, deaths, played, verdict in ran["{f'{k}': v for k, v in per_move.items()}"].values():
        assert 0 <= fresh <= samples and 0 <= deaths <= ran["GAMES"] and deaths <= played <= ran["GAMES"] * ran["LIMIT"]
        _verdict_fits(verdict, deaths / played, fresh / samples)
    # going deeper: 5x5 sampled both ways, and the two suspects, each with a verdict that fits its numbers
    dead5, n5 = ran["dead5"], ran["n5"]
    _verdict_fits(ran["word"], dead5["exclude"] / n5, dead5["reject"] / n5)
    assert 0 <= ran["refilled"] <= samples and 0 <= ran["moved"] <= samples
    _verdict_fits(ran["compare(refilled, n, fresh, n)"], ran["refilled"], ran["fresh"])
    _verdict_fits(ran["compare(moved, n, fresh, n)"], ran["moved"], ran["fresh"])
    # the full reshuffle: permutations for dead deals, the search for the lopsided board, a new board when none exists
    stages = ran["stages"]
    assert set(stages["dead deals"]) == {"permutation"} and set(stages["skewed"]) == {"search"}
    assert set(stages["impossible"]) == {"new board"} and ran["same"] == sum(map(len, stages.values()))


# ----------------------------------------------------------------------------- 05c

SETTINGS_05C = {
    "defaults": None,
    "seed 9, ten times the moves": {"SEED": 9, "MOVES": 40_000, "WATCHED": 100},  # the open task's question
    "browser size": {"MOVES": 1000, "WATCHED": 80},
}
FETCH_05C = [
    "play(four, ((1, 1), (0, 1)), rng=0).steps[0].created[0]", "same", "sorted(first.cleared_cells)",
    "sorted(first.survivors)", "second.activations[0].cell", "second.activations[0].special",
    "len(legal_moves(Board(tuple(map(tuple, BASE)), 6)))", "{n: len(s.cleared_cells) for n, s in cleared.items()}",
    "sorted(cleared['bomb+wrapped'].survivors)", "game_order", "sorted(step.cleared_cells)",
    "step.score", "sum(g.points for g in step.groups)", "len(step.cleared_cells - matched)",
    "diff", "diff_half", "ratio", "MOVES", "WATCHED", "involved", "made", "left", "went_off", "caught", "pairs",
]


@pytest.mark.parametrize("setting", SETTINGS_05C)
def test_05c_claims_hold_when_explored(setting):
    from tilelab.match3.special_board import BLAST_POINTS

    ran = run_lesson("05c", overrides=SETTINGS_05C[setting], fetch=FETCH_05C)
    _checked(ran.notebook)
    # 1: an up/down swipe makes vertical stripes, where the 0 that completed the line landed
    assert ran["play(four, ((1, 1), (0, 1)), rng=0).steps[0].created[0]"] == \
        "Created(cell=(0, 1), kind=0, special='striped-col')"
    # 2: the readable blast is the package's; the wrapped candy's block minus itself plus the matched 0 at (1, 3),
    # then it fell one row and went off again
    assert ran["same"] is True
    block = {(r, c) for r in range(3) for c in range(3)} - {(1, 1)} | {(1, 3)}
    assert {tuple(c) for c in ran["sorted(first.cleared_cells)"]} == block and ran["sorted(first.survivors)"] == [[1, 1]]
    assert ran["second.activations[0].cell"] == [2, 1] and ran["second.activations[0].special"] == "wrapped-again"
    # 3: no swap makes a run on the base board; striped + wrapped clears 18 + 9; bomb + wrapped leaves primed candies
    counts = ran["{n: len(s.cleared_cells) for n, s in cleared.items()}"]
    assert ran["len(legal_moves(Board(tuple(map(tuple, BASE)), 6)))"] == 0
    assert counts["striped+wrapped"] == 18 + 9 and counts["bomb+bomb"] == 36 and ran["sorted(cleared['bomb+wrapped'].survivors)"]
    # 4: the striped candy at (1, 1) sets off the one at (1, 4); row 1 and column 4 share (1, 4): 8 cells
    assert ran["game_order"] == [[1, 1], [1, 4]] and len(ran["sorted(step.cleared_cells)"]) == 5 + 4 - 1
    # 5: the chain's score is the match plus 60 per blasted cell
    assert ran["step.score"] == ran["sum(g.points for g in step.groups)"] + BLAST_POINTS * ran["len(step.cleared_cells - matched)"]
    # going deeper: the verdict is computed from the interval; the specials' accounting adds up
    assert ran["ratio"] > 1 and ran["diff_half"] > 0
    assert 0 <= ran["involved"] <= ran["WATCHED"]
    assert ran["made"] - ran["left"] == ran["went_off"] + ran["caught"] + ran["pairs"]
    cell = next(c for c in ran.notebook.cells if "cannot tell whether specials" in c.source)
    verdict = "".join(o.get("text", "") for o in cell.outputs)
    assert ("cannot tell" in verdict) == (abs(ran["diff"]) <= ran["diff_half"])


# ----------------------------------------------------------------------------- 05d

SETTINGS_05D = {
    "defaults": None,
    "seed 3, browser size": {"SEED": 3, "MOVES": 400},
    "6x6, 4 kinds": {"SIZE": 6, "KINDS": 4, "MOVES": 600},
}
FETCH_05D = [
    "[sorted(c) for c in itertools.islice(check_dispel(row, 1, 1), 5)]", "same", "stable", "tears", "first_tears",
    "MOVES", "example is None", "sorted(example[3].cells - example[2]) if example else None",
    "example[3].shape if example else None", "article.picture().split()", "right.picture().split()",
    "article == remove_candys_article(two_runs, cells)", "article.counts()[1]", "right.counts()[1]",
    "len(ours.groups)", "len(find_runs(swapped))", "find_runs(after)", "missed", "swaps", "checked", "agreed",
]


@pytest.mark.parametrize("setting", SETTINGS_05D)
def test_05d_claims_hold_when_explored(setting):
    ran = run_lesson("05d", overrides=SETTINGS_05D[setting], fetch=FETCH_05D)
    _checked(ran.notebook)
    # section 1: asked without clearing, the same group comes back; used as intended it is the package's and ends stable
    asked = ran["[sorted(c) for c in itertools.islice(check_dispel(row, 1, 1), 5)]"]
    assert len(asked) == 5 and all(group == asked[0] for group in asked)
    assert ran["same"] == ran["stable"] == 100
    # section 2: tears happen only in the re-checks ("on the swap itself this cannot happen")
    assert ran["first_tears"] == 0 and 0 <= ran["tears"] <= ran["MOVES"]
    assert ran["example is None"] == (ran["tears"] == 0)
    if ran["tears"]:  # the torn group is an L, T or cross, and CheckDispel left part of it standing
        assert ran["example[3].shape if example else None"] in ("L", "T", "cross")
        assert ran["sorted(example[3].cells - example[2]) if example else None"]
    # section 3: RemoveCandys keeps a cleared 1 in each column; the bottom row reads 1 1 1
    assert ran["article.picture().split()"][3] == "111" and ran["right.picture().split()"][3] != "111"
    assert ran["article.counts()[1]"] > ran["right.counts()[1]"]
    assert ran["article == remove_candys_article(two_runs, cells)"]
    # section 4: two runs; this engine clears both, lowest first tears the upper one (no run left to clear)
    assert ran["len(find_runs(swapped))"] == ran["len(ours.groups)"] == 2 and ran["find_runs(after)"] == []
    assert 0 < ran["missed"] < ran["swaps"]  # tile-match-gym left some player's match uncleared
    assert ran["checked"] == ran["agreed"] > 0  # going deeper: RemoveCandys is right on CheckDispel's own groups


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
@pytest.mark.parametrize("stem", ["05a_match3_dispel", "05b_match3_dead_boards", "05c_match3_specials", "05d_match3_bugs"])
def test_pace_fits_the_stated_time(stem):
    import importlib.util

    spec = importlib.util.spec_from_file_location("lesson_pace", PACE)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    core, _, minutes, _, stated = tool.pace(str(lesson_path(stem)))
    assert stated == _stated_minutes(stem) <= 60 and core["asserts"] == 0 and minutes <= 1.05 * stated
