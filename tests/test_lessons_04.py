"""Lessons 4a, 4b, 4c and 4d: every claim their prose makes in words holds at every setting a student may try.

Each lesson runs once per setting (its defaults, another seed, the edge values its parameters cell allows, the
browser edition's sizes); the tests fetch what the run computed and check each claim as a predicate on it. No cell
may raise, and the exercises still check (the starting code is refused, the solution accepted). No test reads
the lessons' wording.
"""

from __future__ import annotations

import ast
import re

import nbformat
import pytest

from tests.lessonrun import check_exercises, errors, lesson_path, run_lesson, warnings_shown

A, B, C, D = "04a_sliding_search", "04b_sliding_idastar", "04c_sliding_heuristics", "04d_sliding_human"
# The browser edition: tilelab.IN_BROWSER is True there, so a lesson that imports it after its parameters cell (4c)
# sees it too.
BROWSER = "import tilelab\ntilelab.IN_BROWSER = IN_BROWSER = True\n"
BROWSER_FLAG = "globals().get('IN_BROWSER')"


def _lesson_runs(stem: str, settings: dict, fetch: list[str]):
    """A module fixture: one run of the lesson per setting, fetching what the tests check."""

    @pytest.fixture(scope="module", params=list(settings))
    def ran(request):
        return run_lesson(stem, overrides=settings[request.param], fetch=fetch)

    return ran


# ------------------------------------------------------------------ 4a

A_SETTINGS = {
    "defaults": None,
    "seed 0, a 30-move walk": {"SEED": 0, "WALK_STEPS": 30},
    "browser, the goal itself": BROWSER + "SEED = 3\nWALK_STEPS = 0",
}
A_TABLE = "__import__('tilelab.sliding.space', fromlist=['distance_table']).distance_table(3, 3)"
A_MOVES_TRUE = "[len(moves), expanded, distance(walked)]"
A_SHARES = f"(lambda t: [int(((t >= 0) & (t <= distance(walked) - k)).sum()) for k in (2, 1)] + [int(((t >= 0) & (t <= t.max() - 2)).sum())])({A_TABLE})"
A_NEAR = "[b for b in [walked, start, example, *boards, *traps]]"
A_STEP = "[distance(start), start.is_goal(), f, min(1 + manhattan(c) for _, c in children(start)), manhattan(board) + 1, board in [c for _, c in children(start)]]"
A_FETCH = [
    "[__import__('math').factorial(n * n) // 2 for n in (3, 4, 5)]", A_MOVES_TRUE,
    "[len(written[0]), written[1]]", A_SHARES,
    "[misplaced(example), manhattan(example), distance(example)]",
    "{name: [len(m), n, astar_reference(walked, guesses[name]).nodes] for name, (m, n) in found.items()}",
    "[[distance(b), len(astar_closed(b, mixed)), len(astar(b, mixed)[0])] for b in traps]",
    "[sum(len(astar(b, mixed)[0]) == distance(b) for b in boards), len(boards)]", BROWSER_FLAG,
    f"sorted({{len(list(children(b))) for b in {A_NEAR}}})",
    "sum(1 for i, t in enumerate(Board.goal(3, 3).slide(8).tiles) if t != (i + 1) % 9)",
    f"{{name: [max(abs(h(b) - h(c)) for b in {A_NEAR} for _, c in children(b)), "
    f"all(h(b) <= distance(b) for b in {A_NEAR})] for name, h in guesses.items()}}",
    A_STEP,
    "[len(solution_astar(walked, manhattan)), len(astar(walked, manhattan)[0])]",
    "[counts, drop, all(mixed(b) <= distance(b) for b in boards)]",
]
A_CORE_ASTAR = "{name: [len(r.moves), r.nodes] for name, r in package.items()}"
A_LAYERS = "[d, zero, nearer, goal_layer]"
A_MAN_GE_MIS = f"all(manhattan(b) >= misplaced(b) for b in {A_NEAR})"
A_SMALLEST = "sorted({c[1] for c in __import__('tilelab.exercises.solvers', fromlist=['search_cases']).search_cases()})[:2]"
A_TILES = "[[b.rows, b.cols, list(b.tiles)] for b in [walked, *boards, *traps]]"
A_FETCH += [A_CORE_ASTAR, A_LAYERS, A_MAN_GE_MIS, A_SMALLEST, A_TILES]


a = _lesson_runs(A, A_SETTINGS, A_FETCH)


def test_04a_runs_cleanly_and_its_exercises_check(a):
    assert errors(a.notebook) == [] and warnings_shown(a.notebook) == []    # no older name warns either
    check_exercises(a.notebook)                                             # A* (core), the two heuristics (deeper)


def test_04a_counts_and_bfs(a):
    three, four, _ = a[A_FETCH[0]]
    assert three == 181_440 and 1.0e13 < four < 1.1e13                         # "181,440", "about ten trillion"
    assert set(a[A_FETCH[9]]) <= {2, 3, 4}                                      # "from any board there are 2, 3 or 4 moves"
    length, expanded, truth = a[A_MOVES_TRUE]
    assert length == truth                                                      # "it finds a shortest solution"
    assert a[A_FETCH[2]] == [length, expanded]                                  # deeper: the BFS written out is the package's
    below, up_to, far = a[A_SHARES]                                             # boards at <= d-2 and <= d-1
    assert truth == 0 or below <= expanded <= up_to                             # deeper: "every board at most d − 2 ... then d − 1"
    assert far > 0.9 * three                                                    # "the farthest boards need almost all"


def test_04a_heuristics(a):
    m, man, truth = a["[misplaced(example), manhattan(example), distance(example)]"]
    assert m <= truth and man <= truth and 2 * max(m, man) <= truth          # "lower bounds ... fall far short"
    assert a[A_FETCH[10]] == 2                                                # counting the blank "scores a board one move from the goal 2"
    steps = a[A_FETCH[11]]
    for name in ("misplaced", "Manhattan"):
        drop, admissible = steps[name]
        assert drop <= 1 and admissible     # "lowers the sum by at most 1", "never guess too many"; deeper: "consistent"
    assert a[A_MAN_GE_MIS]                  # Check yourself 2: Manhattan distance is never smaller than misplaced tiles


def test_04a_the_worked_round_and_the_exercise(a):
    d, is_goal, f, smallest, f_taken, is_child = a[A_STEP]
    assert d == 2 and not is_goal                                # "the board of section 1", "it is not the goal"
    assert f == smallest == f_taken and is_child                 # "the child with the smallest f comes out next"
    solution, ours = a[A_FETCH[13]]
    _, _, truth = a[A_MOVES_TRUE]
    assert solution == ours == truth                             # the readable A* is the solution plus a count
    assert a[A_SMALLEST] == [0, 1]                               # "check tries the goal itself, then one move away"


def _stale_pushes(start, h) -> int:
    """Lesson 4a's A* (section 4's steps), counting the entries queued while expanding a board from an older entry
    (one taken out after a newer entry of the same board)."""
    import heapq

    from tilelab.sliding.search import children

    number, queue, best_g, taken, olders, stale_pushes = 0, [(h(start), 0, start)], {start: 0}, {}, 0, 0
    while queue:
        f, n, board = heapq.heappop(queue)
        if board.is_goal():
            break
        older = board in taken and taken[board] > n             # a newer entry of this board came out before
        olders += older
        taken[board] = max(taken.get(board, -1), n)
        for _, child in children(board):
            g = best_g[board] + 1
            if child not in best_g or g < best_g[child]:
                best_g[child], number = g, number + 1
                stale_pushes += older
                heapq.heappush(queue, (g + h(child), number, child))
    return olders, stale_pushes


def test_04a_an_older_entry_queues_nothing(a):
    from tilelab.sliding import Board, manhattan

    def inconsistent(p):                                     # the deeper part's `mixed`: admissible, not consistent
        return manhattan(p) if sum(i * t for i, t in enumerate(p.tiles)) % 3 else 0

    boards = [Board(tiles, rows, cols) for rows, cols, tiles in a[A_TILES]]
    runs = [_stale_pushes(b, h) for h in (manhattan, lambda p: 0, inconsistent) for b in boards]
    assert sum(olders for olders, _ in runs) > 0                # older entries do come out (on these boards)
    assert all(pushes == 0 for _, pushes in runs)               # "its older entry, when it comes out later, queues nothing"


def test_04a_astar_against_bfs_and_the_package(a):
    rows = a[A_FETCH[5]]
    length, bfs_nodes, d = a[A_MOVES_TRUE]
    assert all(n == d and ours == package for n, ours, package in rows.values())   # "all four find the same length"; counts agree
    assert rows["h = 0"][1] >= bfs_nodes and (d < 2 or rows["h = 0"][1] > bfs_nodes)  # deeper: h = 0 expands more than BFS
    core = a[A_CORE_ASTAR]                                                      # core: BFS against the package's A*
    assert all(n == d for n, _ in core.values()) and {k: v[1] for k, v in core.items()} == {
        k: rows[k][1] for k in core}                                            # "all three find the same length"
    depth, zero, nearer, goal_layer = a[A_LAYERS]
    assert depth == d and zero == rows["h = 0"][1]
    assert nearer <= zero < nearer + goal_layer     # h = 0: every board nearer than the goal, then only part of its layer
    if d >= 10:                                                                 # "on a board more than a few moves away"
        assert rows["h = 0"][1] > rows["misplaced"][1] > rows["Manhattan"][1]  # each better guess saves work
        assert 5 * rows["Manhattan"][1] < bfs_nodes                            # summary: far fewer than BFS
        assert bfs_nodes > rows["misplaced"][1]                                # core: BFS > misplaced > Manhattan


def test_04a_deeper_reopening(a):
    for optimal, closed, ours in a[A_FETCH[6]]:
        assert closed > optimal and ours == optimal          # the closed-set A* is longer on the two boards; ours is not
    optimal, total = a[A_FETCH[7]]
    assert optimal == total                                  # "our astar is optimal" on every random board
    counts, drop, admissible = a[A_FETCH[14]]
    assert counts["Manhattan"][1] == 0                       # consistent: "never reopens an expanded one"
    assert admissible and drop >= 3                          # mixed never overestimates, but "can drop by several moves in one"


# ------------------------------------------------------------------ 4b

B_SETTINGS = {
    "defaults": None,
    "other boards, watch the goal": {"SEED": 7, "FIRST_BOARD": 20, "N_BOARDS": 5, "SAMPLE": 300, "WATCH_MOVES": 0},
    "browser sizes, a far watch": BROWSER + "N_BOARDS = 6\nSAMPLE = 500\nWATCH_MOVES = 14",
}
B_FETCH = [
    "[[list(ida_star(b, manhattan)[0]), list(idastar_reference(b, manhattan).moves), distance(b), "
    "ida_star(b, manhattan)[1], manhattan(b)] for b in eight[:3]]",
    "[[[len(ida_star(near, h)[0]), ida_star(near, h)[1], idastar_reference(near, h).nodes] "
    "for h in (lambda p: 0, manhattan)], distance(near)]",
    "[longest_increasing(r) for r in ([1, 2, 3], [3, 1, 2], [3, 2, 1], [2, 4, 1, 3])]",
    "[misplaced(example), manhattan(example), linear_conflict(example), distance(example)]",
    "list(ratios.values())", "{k: [t.found, len(t.moves), max((len(s.open) for s in t.steps), default=0)] "
    "for k, t in traces.items()}", "distance(watch)", BROWSER_FLAG,
    "[[idastar_reference(b, manhattan).nodes, astar_reference(b, manhattan).nodes] for b in eight] + [more]",
    "len(__import__('tilelab.exercises.solvers', fromlist=['admissible_cases']).admissible_cases()[0])",
    "(lambda s: [manhattan(s), linear_conflict(s), solution_heuristic(s)])(Board.parse('2 1 3 \\n 4 5 6 \\n 7 8 .'))",
    "[sum(nodes[n]) for n in ('misplaced', 'manhattan', 'linear-conflict')]",
]


b = _lesson_runs(B, B_SETTINGS, B_FETCH)


def test_04b_runs_cleanly_and_its_exercise_checks(b):
    assert errors(b.notebook) == [] and warnings_shown(b.notebook) == []    # no older name warns either
    check_exercises(b.notebook)


def test_04b_ida_star_is_the_package_s_and_optimal_even_with_h_zero(b):
    for ours, package, truth, bounds, h_start in b[B_FETCH[0]]:
        assert ours == package and len(ours) == truth         # the package's moves, a shortest solution
        assert bounds[0] == h_start                           # "the first bound is h(start)"
        assert all(x < y for x, y in zip(bounds, bounds[1:]))  # "each failed round raises the bound"
        assert bounds[-1] == truth                            # "the last bound is the solution's length"
        assert all(y - x >= 2 and (y - x) % 2 == 0 for x, y in zip(bounds, bounds[1:]))  # "steps of 2", f's parity
    (zero, man), truth = b[B_FETCH[1]]
    assert zero[0] == man[0] == truth                         # h = 0 is admissible: still optimal
    assert zero[1] == list(range(truth + 1))                  # iterative deepening: depth 0, then 1, then 2, ...
    assert len(man[1]) < len(zero[1]) and man[2] < zero[2]    # "Manhattan needs fewer rounds and expands fewer boards"


def test_04b_the_exercise_s_check(b):
    assert 1_000 <= b[B_FETCH[9]] < 100_000                  # "it tries it on thousands of 8-puzzle boards"


def test_04b_deeper_ida_star_against_astar(b):
    *counts, more = b[B_FETCH[8]]
    assert more == sum(ida > astar for ida, astar in counts)  # the verdict printed is the count


def test_04b_linear_conflict_and_what_sharper_heuristics_save(b):
    assert b[B_FETCH[2]] == [3, 2, 1, 2]                      # "3 1 2": one must leave; "3 2 1": two must leave
    m, man, lc, truth = b[B_FETCH[3]]
    assert m <= man <= lc < truth                            # "each at least as large as the one before"
    first, second = b["list(ratios.values())"]
    assert first > 2 * second and second > 1                 # "the first saves far more" (and both save work)
    mis, man, lc = b[B_FETCH[11]]
    assert first == mis / man and second == man / lc         # the ratios divide the counts: the bars' means
    assert b[B_FETCH[10]] == [2, 4, 4]                        # the smallest case: Manhattan 2, "it should be 4"


def test_04b_watched_searches(b):
    d = b["distance(watch)"]
    traces = b[B_FETCH[5]]
    for name, (found, length, _) in traces.items():
        assert not found or length == d, name                # every search that finishes is optimal
    if d >= 4:                                               # IDA* holds only the siblings along its path
        assert traces["IDA*"][2] < traces["BFS"][2]


# ------------------------------------------------------------------ 4c

C_SETTINGS = {
    "defaults": None,
    "other seeds and sizes": {"SEED": 9, "FIRST_BOARD": 30, "N_BOARDS": 6, "N_KORF": 3},
    "browser, N_KORF out of range": BROWSER + "N_KORF = 40",
}
C_FETCH = [
    "[len(t) for t in tables]",
    "min(sum(t[tuple(p.tiles.index(x) for x in pat)] for pat, t in zip(patterns, tables)) - manhattan(p) for p in eight)",
    "[db3.value(example), distance(example)]", "gain", "korf_rows", "[korf[n] / nodes for n, _, _, nodes in korf_rows]",
    BROWSER_FLAG,
]
D_SETTINGS = {
    "defaults": None,
    "other seeds and sizes": {"SEED": 9, "FIRST_BOARD": 30, "N_BOARDS": 6, "N_KORF": 3, "BIG": 12},
    "browser, N_KORF and BIG out of range": BROWSER + "N_KORF = 40\nBIG = 2",
}
D_FETCH = [
    "[[w, m] for w, m, _ in rows]", "pairs", "[big.play_all(big_moves).is_goal(), len(big_moves), big.rows]",
    "ArticleRouter(4, 4).get_path(9, 1, {0, 5})", "plain.walk[:5]",
    "(lambda r: (r.get_path(5, 0, set()), r.previous, r.get_path(2, 1, {5})))(ArticleRouter(4, 4))",
    "ArticleRouter(4, 4).get_path(2, 1, {5})", "PatchedRouter(4, 4).get_path(9, 1, {0, 5})",
    "{str(k): v for k, v in tally.items()}", "[six_moves, six_nodes, len(human_moves(six))]",
    "[route_bfs(4, 4, **case), route_bfs(4, 4, 2, 1, {5})]", BROWSER_FLAG,
]


c = _lesson_runs(C, C_SETTINGS, C_FETCH)
d = _lesson_runs(D, D_SETTINGS, D_FETCH)


def test_04c_runs_cleanly_and_its_exercise_checks(c):
    assert errors(c.notebook) == [] and warnings_shown(c.notebook) == []    # no older name warns either
    check_exercises(c.notebook)


def test_04c_pattern_database(c):
    assert c["[len(t) for t in tables]"] == [9 * 8 * 7 * 6] * 2                 # "3,024 placements"
    assert c[C_FETCH[1]] >= 0                                                   # "never below Manhattan"
    value, truth = c["[db3.value(example), distance(example)]"]
    assert value == truth                                                       # "exact on the example"
    assert c["gain"] > 3                                                        # "several times fewer boards"


def test_04c_korf_rows(c):
    rows = c["korf_rows"]
    assert rows and all(optimal == found for _, optimal, found, _ in rows)      # "every length matches"
    ratios = c[C_FETCH[5]]
    assert min(ratios) > 10                         # summary: "many times fewer nodes than Korf in 1985"
    assert min(ratios) / 3 > 1                      # "even counted his way": divided by three, still fewer


def test_04c_the_browser_shows_what_a_laptop_computes():
    laptop = run_lesson(C, fetch=C_FETCH)
    source = next(cell.source for cell in nbformat.read(lesson_path(C), as_version=4).cells if "korf_rows = [(57" in cell.source)
    saved = ast.literal_eval(re.search(r"korf_rows = (\[\(57.*?\])\n", source).group(1))
    assert [list(r) for r in saved] == laptop["korf_rows"]


def test_04d_runs_cleanly_and_its_exercise_checks(d):
    assert errors(d.notebook) == [] and warnings_shown(d.notebook) == []
    check_exercises(d.notebook)


def test_04d_the_saved_6x6_weighted_astar_is_what_the_search_finds():
    """The deeper cell shows saved numbers (the search holds about 100 MB): they are the search's own."""
    from tilelab.sliding import manhattan, shuffle
    from tilelab.sliding.search import astar_reference

    six = next(cell.source for cell in nbformat.read(lesson_path(D), as_version=4).cells if "six_moves, six_nodes =" in cell.source)
    saved = [int(x) for x in re.search(r"six_moves, six_nodes = (\d+), (\d+)\n", six).groups()]
    out = astar_reference(shuffle(6, 6, rng=0), manhattan, weight=5, max_nodes=300_000)
    assert out.found and [len(out.moves), out.nodes] == saved


def test_04d_weighted_astar_and_the_human_strategy(d):
    rows = d["[[w, m] for w, m, _ in rows]"]
    assert rows[0] == [1.0, 1.0] and all(m <= w for w, m in rows)              # never worse than the guarantee
    assert rows[-1][0] == 5.0 and rows[-1][1] < 2.5                            # "far from it"
    assert all(h > 1.5 * o for h, o in d["pairs"])                             # "well over the optimal number"
    solved, moves, side = d[D_FETCH[2]]
    assert solved and side >= 3
    six_moves, six_nodes, human = d[D_FETCH[9]]
    assert 0 < six_moves < human                          # weighted A* reaches 6x6, here shorter than the strategy


def test_04d_article_router_bugs(d):
    assert d["ArticleRouter(4, 4).get_path(9, 1, {0, 5})"] == "gave up"         # bug 1: circles
    assert d["plain.walk[:5]"] == [[9, 8], [8, 4], [8, 12], [12, 13], [13, 9]]  # "left to 8, up to 4, ... up to 9"
    tile_route, stale, blank_route = d[D_FETCH[5]]
    assert tile_route == [1, 0] and stale == 1 and len(blank_route) > 1          # bug 2: "a long detour"
    assert d["ArticleRouter(4, 4).get_path(2, 1, {5})"] == [1]                 # "instead of one step"
    assert d["PatchedRouter(4, 4).get_path(9, 1, {0, 5})"] == [10, 6, 2, 1]
    tally = d["{str(k): v for k, v in tally.items()}"]
    assert 0 < tally["True"]["loops"] < tally["False"]["loops"]                 # "removes some circles, not all"
    assert "missed a route" not in tally["True"] and "missed a route" not in tally["False"]


def test_04d_the_route_that_remembers(d):
    article, stale = d["[route_bfs(4, 4, **case), route_bfs(4, 4, 2, 1, {5})]"]
    assert article and article[-1] == 1 and len(article) <= 4     # it reaches the target the article circled round
    assert stale == [1]                                             # "one step", where the stale field took a detour


def test_the_browser_settings_run_the_browser_branches():
    for stem, settings, fetch in ((A, A_SETTINGS, A_FETCH), (B, B_SETTINGS, B_FETCH), (C, C_SETTINGS, C_FETCH),
                                  (D, D_SETTINGS, D_FETCH)):
        browser = next(value for name, value in settings.items() if name.startswith("browser"))
        assert run_lesson(stem, overrides=browser, fetch=fetch)[BROWSER_FLAG] is True, stem
