"""Lessons 4a and 4b: the numbers their prose states are the numbers they compute, and exploring never crashes."""

from __future__ import annotations

import ast
import re

import nbformat
import pytest

from tests.lessonrun import errors, exercise_outputs, lesson_path, prose, run_lesson

A, B = "04a_sliding_search", "04b_sliding_heuristics"

FETCH_A = [
    "sizes[3]", "sizes[4]", "sizes[5]", "round(100 * share, 1)", "len(out.moves)", "distance(board)",
    "list(ratios.values())", "[len(t.steps) for t in traces.values()]",
    "[max(len(s.open) for s in t.steps) for t in traces.values()]", "[len(t.moves) for t in traces.values()]",
    "distance(watch)", "traces['IDA*'].steps[-1].round",
    "[ida_star(b, manhattan)[:2] == (idastar_reference(b, manhattan).moves, idastar_reference(b, manhattan).nodes)"
    " for b in eight[:3]]",
    "[(misplaced(example), manhattan(example), linear_conflict(example), distance(example))]",
    "{k: v.passed for k, v in __import__('tilelab.exercises', fromlist=['results']).results().items()}",
]
FETCH_B = [
    "[len(t) for t in tables]", "[max(t.values()) for t in tables]", "gain",
    "(db3.value(example), distance(example), manhattan(example), linear_conflict(example))",
    "korf_rows", "[korf[n] / nodes for n, _, _, nodes in korf_rows]", "[k.optimal for k in picked]",
    "[(w, m, n) for w, m, n in rows]", "pairs", "len(big_moves)", "big.play(big_moves).is_goal()",
    "parberry_bound(BIG, BIG)",
    "ArticleRouter(4, 4, patched=False).get_path(9, 1, {0, 5})", "ArticleRouter(4, 4).get_path(9, 1, {0, 5})",
    "ArticleRouter(4, 4).get_path(2, 1, {5})",
    "(lambda r: (r.get_path(5, 0, set()), r.previous, r.get_path(2, 1, {5})))(ArticleRouter(4, 4))",
    "{str(k): v for k, v in tally.items()}",
    "{k: v.passed for k, v in __import__('tilelab.exercises', fromlist=['results']).results().items()}",
]


@pytest.fixture(scope="module")
def a():
    return run_lesson(A, fetch=FETCH_A)


@pytest.fixture(scope="module")
def b():
    return run_lesson(B, fetch=FETCH_B)


def test_04a_counts_and_bfs(a):
    text = prose(A)
    assert a["sizes[3]"] == 181_440 and "181,440" in text
    assert 1.0e13 < a["sizes[4]"] < 1.1e13 and "ten trillion" in text
    assert 7.75e24 < a["sizes[5]"] < 7.85e24 and "7.8 × 10²⁴" in text
    assert a["len(out.moves)"] == a["distance(board)"] == 18 and "18-move board" in text
    assert a["round(100 * share, 1)"] == 8.1 and "8.1% of the" in text


def test_04a_heuristic_savings(a):
    tens, twice = a["list(ratios.values())"]
    assert 10 < tens < 100 and "*tens of times*" in text_of(A)
    assert 1.5 < twice < 2.5 and "*about twice*" in text_of(A)
    assert "about 2x over Manhattan" in prose(B)
    m, man, lc, d = a["[(misplaced(example), manhattan(example), linear_conflict(example), distance(example))]"][0]
    assert m <= man <= lc < d  # "each at least as large as the one before, and all fall far short"


def text_of(stem):
    return prose(stem)


def test_04a_linear_conflict_is_a_subsequence_not_a_run():
    text = prose(A)
    assert "longest increasing subsequence" in text and "increasing run" not in text


def test_04a_ida_star_agrees_and_the_watch_claims(a):
    assert all(a["[ida_star(b, manhattan)[:2] == (idastar_reference(b, manhattan).moves, idastar_reference(b, "
                 "manhattan).nodes) for b in eight[:3]]"])
    steps = a["[len(t.steps) for t in traces.values()]"]
    open_sizes = a["[max(len(s.open) for s in t.steps) for t in traces.values()]"]
    assert set(a["[len(t.moves) for t in traces.values()]"]) == {a["distance(watch)"]}
    text = prose(A)
    assert open_sizes[0] >= 100 and "grows to hundreds" in text          # BFS
    assert 10 <= steps[1] < 100 and "A* expands a few dozen" in text
    assert open_sizes[2] < 10 and a["traces['IDA*'].steps[-1].round"] >= 1


def test_04a_solutions_pass(a):
    passed = a["{k: v.passed for k, v in __import__('tilelab.exercises', fromlist=['results']).results().items()}"]
    assert passed == {"solvers.misplaced": True, "solvers.manhattan": True, "solvers.search": True}


def test_04b_pattern_tables_and_savings(b):
    assert b["[len(t) for t in tables]"] == [9 * 8 * 7 * 6] * 2
    value, truth, man, lc = b["(db3.value(example), distance(example), manhattan(example), linear_conflict(example))"]
    assert value == truth and "the pattern database is exact" in prose(B)
    assert 7 < b["gain"] < 14 and "About ten times fewer nodes" in prose(B)


def test_04b_korf_rows_and_the_saved_browser_copy(b):
    rows = b["korf_rows"]
    assert [optimal for _, optimal, _, _ in rows] == [found for _, _, found, _ in rows] == b["[k.optimal for k in picked]"]
    ratios = b["[korf[n] / nodes for n, _, _, nodes in korf_rows]"]
    assert 10 < min(ratios) and max(ratios) < 1000 and "*tens to hundreds*" in prose(B)
    nb = nbformat.read(lesson_path(B), as_version=4)
    source = next(c.source for c in nb.cells if "korf_rows = [(57" in c.source)
    saved = ast.literal_eval(re.search(r"korf_rows = (\[\(57.*?\])\n", source).group(1))
    assert [list(r) for r in saved] == rows  # the browser shows exactly what the laptop computes


def test_04b_weighted_and_human(b):
    rows = b["[(w, m, n) for w, m, n in rows]"]
    assert rows[0][:2] == [1.0, 1.0] and rows[-1][0] == 5.0
    assert rows[-1][1] < 1.5 and rows[-1][2] < rows[0][2] / 3 and "less than 1.5 times optimal" in prose(B)
    assert all(2 <= h / o <= 3 for h, o in b["pairs"]) and "two to three times" in prose(B)
    assert b["big.play(big_moves).is_goal()"] and b["len(big_moves)"] < b["parberry_bound(BIG, BIG)"]


def test_04b_article_router_bugs(b):
    assert b["ArticleRouter(4, 4, patched=False).get_path(9, 1, {0, 5})"] == "gave up"
    assert b["ArticleRouter(4, 4).get_path(9, 1, {0, 5})"] == [10, 6, 2, 1] and "four steps" in prose(B)
    tile_route, stale, blank_route = b["(lambda r: (r.get_path(5, 0, set()), r.previous, r.get_path(2, 1, {5})))"
                                       "(ArticleRouter(4, 4))"]
    assert tile_route == [1, 0] and stale == 1 and len(blank_route) == 7 and "seven-step detour" in prose(B)
    assert b["ArticleRouter(4, 4).get_path(2, 1, {5})"] == [1]
    tally = b["{str(k): v for k, v in tally.items()}"]
    assert 10 <= tally["True"]["loops"] < tally["False"]["loops"] < 100 and "a few dozen" in prose(B)
    assert tally["False"]["longer than BFS"] == 2 and "longer than BFS" not in tally["True"] and "two were longer" in prose(B)


def test_04b_solutions_pass(b):
    passed = b["{k: v.passed for k, v in __import__('tilelab.exercises', fromlist=['results']).results().items()}"]
    assert passed == {"solvers.pattern_table": True, "solvers.pattern_lookup": True, "solvers.admissible": True}


@pytest.mark.parametrize("stem, overrides", [
    (A, {"SEED": 7, "FIRST_BOARD": 20, "N_BOARDS": 5, "SAMPLE": 300, "WATCH_MOVES": 12}),
    (B, {"SEED": 9, "FIRST_BOARD": 30, "N_BOARDS": 6, "N_KORF": 3, "BIG": 12}),
])
def test_exploring_never_crashes(stem, overrides):
    ran = run_lesson(stem, overrides=overrides)
    assert errors(ran.notebook) == []
    shown = exercise_outputs(ran.notebook)
    assert shown and all("not yet" in s.lower() or "passed" in s.lower() for s in shown)
