"""Lessons 3a, 3b and 3c: every claim their prose makes in words holds at every setting a student may try.

Each lesson runs once per setting (its defaults, another seed, a value its parameters cell suggests, the
browser edition's sizes); the tests fetch what the run computed and check each claim as a predicate on it.
No cell may raise, and the exercises still check (the starting code is refused, the solution accepted).
The cells students see hold no asserts; no test reads the lessons' wording.
"""

from __future__ import annotations

import pytest

from tests.lessonrun import check_exercises, errors, run_lesson, warnings_shown

A, B = "03a_sliding_parity", "03c_sliding_shuffles"
R = "03b_sliding_reachable"
# The browser edition: tilelab.IN_BROWSER is True there, so a lesson that imports it after its parameters cell sees it too.
BROWSER = "import tilelab\ntilelab.IN_BROWSER = IN_BROWSER = True\n"
BROWSER_FLAG = "globals().get('IN_BROWSER')"


# ------------------------------------------------------------------ 03a
#
# Each claim the prose makes in words, as a predicate on what the run computed, at every setting: the defaults,
# another seed with fewer and smaller boards, and the browser edition's sizes with the smallest MAX_SIDE allowed.

A_SETTINGS = {
    "defaults": None,
    "seed 11, 400 trials up to 4x4": {"SEED": 11, "TRIALS": 400, "MAX_SIDE": 4},
    "browser sizes, MAX_SIDE 2": BROWSER + "SEED = 5\nTRIALS = 60\nMAX_SIDE = 2",
}
A_FETCH = [
    "home.is_goal()", "inversions(example)", "[flips, TRIALS]", "{k: sorted(v) for k, v in seen.items()}",
    "[n, *agree.values()]",
    "[is_solvable(p, goal=blank_first), is_solvable(p.swap_tiles(1, 2), goal=blank_first), is_solvable(blank_first)]",
    BROWSER_FLAG,
]


@pytest.fixture(scope="module", params=list(A_SETTINGS))
def a(request):
    return run_lesson(A, overrides=A_SETTINGS[request.param], fetch=A_FETCH)


def test_03a_runs_cleanly_and_its_exercises_check(a):
    assert errors(a.notebook) == [] and warnings_shown(a.notebook) == []    # no older name warns either
    check_exercises(a.notebook)


def test_03a_moves_swaps_and_inversions(a):
    assert a["home.is_goal()"] is True                               # "left" from that board reaches the goal
    assert a["inversions(example)"] == 4                              # "4 inversions", "the example is even"
    flips, trials = a["[flips, TRIALS]"]                              # deeper: experiments on random boards
    assert flips == trials                                            # a swap always flips the parity
    seen = a["{k: sorted(v) for k, v in seen.items()}"]               # deeper: every move on random boards
    assert set(seen["horizontal"]) <= {0}                             # horizontal: the count does not change
    assert set(seen["vertical, odd width"]) <= {0} and set(seen["vertical, even width"]) <= {1}  # "never 0"


def test_03a_the_boards_of_sections_3_and_4():
    """The fixed boards the prose reasons about: section 3's two pictures, exercise 2's hint, the swapped goal."""
    from tilelab.sliding import Board, inversions, is_solvable, play

    def changes(board, kind):
        moves = ("left", "right") if kind == "horizontal" else ("up", "down")
        return {inversions(play(board, d).after) - inversions(board) for d in board.legal_directions() if d in moves}

    three = Board.parse("1 5 2\n4 . 3\n7 8 6")
    four = Board.parse("1 5 2 9\n4 . 3 10\n7 8 6 11\n12 13 14 15")
    for board in (three, four):                                       # "two different moves from it": both kinds
        assert changes(board, "horizontal") == {0} and changes(board, "vertical")
    assert changes(three, "vertical") <= {-2, 0, 2}                   # "-2, 0 or +2, an even number"
    assert changes(four, "vertical") <= {-3, -1, 1, 3}                # "-3, -1, +1 or +3: an odd number"
    goal = Board.goal(2, 2)                                           # exercise 2's hint, smallest case first
    assert (goal.rows, goal.blank[0], play(goal, "down").after.blank[0]) == (2, 1, 0)
    for rows, cols in ((3, 3), (4, 4)):                               # "swap two tiles ... never home"
        g = Board.goal(rows, cols)
        tiles = range(1, rows * cols)
        assert not any(is_solvable(g.swap_tiles(x, y)) for x in tiles for y in tiles if x < y)
    # check yourself 1: the 3x3 goal with 1 and 2 swapped has 1 inversion
    assert inversions(Board.goal(3, 3).swap_tiles(1, 2)) == 1


def test_03a_deeper_rules_agree(a):
    n, *agreements = a["[n, *agree.values()]"]
    assert agreements == [n, n]                                       # the three rules never disagree
    # "works for any goal of the same shape", "... and that goal itself can be reached from the usual goal"
    assert a[A_FETCH[5]] == [True, False, True]


# ------------------------------------------------------------------ 03b
#
# The defaults (a solvable 2x3 start); another seed whose 3x2 start is unsolvable (the other half); and the browser
# edition's sizes (the sweep leaves out 2x4) with the smallest start there is.

R_SETTINGS = {
    "defaults": None,
    "seed 8, an unsolvable 3x2 start": {"SEED": 8, "ROWS": 3, "COLS": 2, "PLAY_SEED": 1},
    "browser sizes, a 2x2 start": BROWSER + "SEED = 5\nROWS = 2\nCOLS = 2\nPLAY_SEED = 2",
}
R_FETCH = [
    "[len(from_goal), max(from_goal.values()), from_goal == bfs_distances(Board.goal(2, 2))]",
    "[len(reached), arrangements, alike, is_solvable(start), list(start.shape), [ROWS, COLS]]", "sweep",
    "[len(solvable), len(table) - len(solvable), max(solvable), solvable.count(max(solvable))]",
    "sum(solvable) / len(solvable)", "[distance(p) for p in hardest]", "distance(game.board)",
    "[len(path), count_moves(hardest[0], path).multi, distance(hardest[0], 'multi')]", "int(multi.max())",
    "[counted.single, counted.multi]", BROWSER_FLAG,
]


@pytest.fixture(scope="module", params=list(R_SETTINGS))
def r(request):
    return run_lesson(R, overrides=R_SETTINGS[request.param], fetch=R_FETCH)


def test_03b_runs_cleanly_and_its_exercise_checks(r):
    assert errors(r.notebook) == [] and warnings_shown(r.notebook) == []
    check_exercises(r.notebook)


def test_03b_the_hand_trace_is_what_breadth_first_search_does():
    """Section 2's table: the first two steps from the 2x2 goal, each board written row by row."""
    from collections import deque

    from tilelab.sliding import Board, play

    def text(board):
        return " / ".join(" ".join(str(t) if t else "." for t in row) for row in board.grid)

    goal = Board.goal(2, 2)
    distance_to, queue, steps = {goal: 0}, deque([goal]), []
    for _ in range(2):
        board = queue.popleft()
        seen = []
        for direction in board.legal_directions():
            child = play(board, direction).after
            seen.append((text(child), child in distance_to))
            if child not in distance_to:
                distance_to[child] = distance_to[board] + 1
                queue.append(child)
        steps.append((text(board), seen, [text(b) for b in queue], [distance_to[b] for b in queue]))
    assert steps == [
        ("1 2 / 3 .", [("1 . / 3 2", False), ("1 2 / . 3", False)], ["1 . / 3 2", "1 2 / . 3"], [1, 1]),
        ("1 . / 3 2", [("1 2 / 3 .", True), (". 1 / 3 2", False)], ["1 2 / . 3", ". 1 / 3 2"], [1, 2]),
    ]


def test_03b_the_search_and_the_package_agree_from_the_2x2_goal(r):
    boards, farthest, same = r[R_FETCH[0]]
    assert (boards, farthest, same) == (12, 6, True)                  # 12 boards, the package's bfs_distances agrees


def test_03b_any_start_reaches_exactly_its_half(r):
    reached, arrangements, alike, solvable, shape, wanted = r[R_FETCH[1]]
    assert shape == wanted                                            # "a random ROWS x COLS board"
    assert 2 * reached == arrangements                                # "it reaches exactly half of the arrangements"
    assert alike == reached                                           # "the half that is_solvable answers alike for"


def test_03b_the_sweep_reaches_exactly_half_and_agrees_with_the_rule_and_the_table(r):
    sweep = r["sweep"]
    assert {"2x2", "2x3", "3x2"} <= set(sweep)
    assert ("2x4" in sweep) is not bool(r[BROWSER_FLAG])              # "In the browser ... the sweep leaves out 2x4"
    for shape, (reached, arrangements, agree, same) in sweep.items():
        assert 2 * reached == arrangements and agree == arrangements and same is True, shape
    assert sweep["2x2"][0] == 12                                      # "its 12 = 4!/2 boards"
    assert sweep["2x3"][0] == 360                                     # check yourself: "6!/2 = 360"


def test_03b_state_space_numbers(r):
    size, unsolvable, hardest, how_many = r[R_FETCH[3]]
    assert (size, unsolvable, hardest, how_many) == (181_440, 181_440, 31, 2)    # "Only two boards are that far (31)"
    assert round(r["sum(solvable) / len(solvable)"], 2) == 21.97
    assert r["[distance(p) for p in hardest]"] == [31, 31]
    assert 0 <= r["distance(game.board)"] <= 31


def test_03b_deeper_multi_tile_moves(r):
    assert r["[counted.single, counted.multi]"] == [6, 3]             # 13, 9, 10, 11 are 3 multi-tile moves
    assert r["int(multi.max())"] < 31                                 # "In the multi-tile metric distances shrink"
    steps, multi, best = r["[len(path), count_moves(hardest[0], path).multi, distance(hardest[0], 'multi')]"]
    assert steps == multi == best


def test_03b_the_core_runs_without_going_deeper():
    """A reader who skips every deeper cell meets no NameError: the core cells define all they use."""
    from pathlib import Path

    import matplotlib
    import nbformat

    matplotlib.use("Agg")
    nb = nbformat.read(Path(__file__).parents[1] / "notebooks" / f"{R}.ipynb", 4)
    namespace: dict = {}
    core = [c for c in nb.cells if c.cell_type == "code" and "deeper" not in c.metadata.get("tags", [])]
    for i, cell in enumerate(core):
        exec(compile(cell.source, f"03b-core-{i}", "exec"), namespace)
    assert "bfs" not in namespace and 2 * len(namespace["reached"]) == namespace["arrangements"]


def test_03b_play_cell_runs_on_its_own():
    """After a kernel restart a student may run only the Play cell: it needs no name from the cells above."""
    from pathlib import Path

    import nbformat

    nb = nbformat.read(Path(__file__).parents[1] / "notebooks" / f"{R}.ipynb", 4)
    source = next(c.source for c in nb.cells if c.cell_type == "code" and "SlidingWidget(" in c.source)
    namespace: dict = {}
    exec(compile(source, "03b-play", "exec"), namespace)  # a fresh namespace, as after a restart
    assert namespace["game"].board.shape == (3, 3)


def test_the_03b_browser_settings_run_the_browser_branch():
    browser = next(value for name, value in R_SETTINGS.items() if name.startswith("browser"))
    assert run_lesson(R, overrides=browser, fetch=R_FETCH)[BROWSER_FLAG] is True


# ------------------------------------------------------------------ 03c
#
# The defaults; the length the parameters cell suggests (80) with one naive board and a small sample; and the
# browser edition's sizes with the shortest walk there is.

B_SETTINGS = {
    "defaults": None,
    "try 80, one naive board": {"SEED": 5, "NAIVE_BOARDS": 1, "SAMPLES": 100, "WALK_STEPS": 80},
    "browser sizes, 1-move walk": BROWSER + "SEED = 7\nNAIVE_BOARDS = 300\nSAMPLES = 60\nWALK_STEPS = 1",
}
# "Any fixed pair of numbers works too": the swap of tiles 1 and 2 turns exactly two 2x3 arrangements into each board
B_ANY_PAIR = ("(lambda made: [len(made), sorted(set(made.values()))])(__import__('collections').Counter("
              "(lambda p: p if is_solvable(p) else p.swap_tiles(1, 2))(Board(t, 2, 3)) for t in itertools.permutations(range(6))))")
B_FETCH = [
    "[by_rule, by_bfs, NAIVE_BOARDS]", "[is_solvable(bad), distance(bad)]",
    "{k: float(np.mean(np.array(v) % 2 == 1)) for k, v in dealt.items()}", "float(np.mean(dist % 2 == 1))",
    "[even_boards, even_cells, *np.bincount(blank_cell).tolist()]", "[int(missed), int(dist.size)]",
    "[bool(same), tvd_by_hand, total_variation(package)]", "[tvd_walk, tvd_coin]", "coin_cells.tolist()",
    "[lazy[81], lazy[300]]", "ours == puzzle8_walk(goal3, 81, rng=np.random.default_rng(SEED))",
    "turn_probabilities(0, 2)", "mass_by_blank_cell(puzzle8_n).tolist()", "tvd_puzzle8", "WALK_STEPS", "SAMPLES",
    "[floor, float(longrun[0]), float(longrun[4])]", "[len(counts), int(sum(counts.values()))]", "even_cells_5x5",
    "sorted(verdicts)", "float(coin[dist % 2 == 0].sum())", "[int((distance_table(r, c) >= 0).sum()) for r, c in ((2, 2), (2, 3))]",
    "[len(made_from), all(map(is_solvable, made_from)), min(made_from.values()), max(made_from.values())]",
    B_ANY_PAIR, "[same_swap, same_again, len(shapes) * len(seeds)]",
    "[check('sliding.shuffle', deal_and_swap).passed, check('sliding.shuffle', deal_again).passed]",
    "__import__('tilelab.widgets.sliding', fromlist=['METHODS']).METHODS", BROWSER_FLAG,
]
EDGES, EVEN_CELLS = (1, 3, 5, 7), (0, 2, 4, 6, 8)


@pytest.fixture(scope="module", params=list(B_SETTINGS))
def b(request):
    return run_lesson(B, overrides=B_SETTINGS[request.param], fetch=B_FETCH)


def test_03c_runs_cleanly_and_its_exercises_check(b):
    assert errors(b.notebook) == [] and warnings_shown(b.notebook) == []
    check_exercises(b.notebook)


def test_03c_the_bug_and_its_fix(b):
    by_rule, by_bfs, boards = b["[by_rule, by_bfs, NAIVE_BOARDS]"]
    assert by_rule == by_bfs                                          # "We ask the rule *and* the BFS table"
    if boards >= 500:
        assert abs(by_rule / boards - 0.5) < 0.05                     # "Half the players would slide forever"
    assert b["[is_solvable(bad), distance(bad)]"] == [False, -1]       # the board shown cannot be solved


def test_03c_walks_deal_one_parity_and_miss_five_or_four_ninths(b):
    steps = b["WALK_STEPS"]
    odd = b["{k: float(np.mean(np.array(v) % 2 == 1)) for k, v in dealt.items()}"]
    exact = b["float(np.mean(dist % 2 == 1))"]
    walks = [v for k, v in odd.items() if k.startswith("walk")]
    assert len(walks) == len(odd) == 2 and all(v == steps % 2 for v in walks)   # "the walks deal 0% or 100%"
    assert 0.4 < exact < 0.5                                          # ... "far from the exact share"
    even_boards, even_cells, *per_cell = b["[even_boards, even_cells, *np.bincount(blank_cell).tolist()]"]
    assert (even_boards, even_cells) == (100_800, 5) and per_cell == [20_160] * 9   # "5/9 ... 20,160"
    missed, total = b["[int(missed), int(dist.size)]"]
    assert missed * 9 == total * (5 if steps % 2 else 4)              # odd length misses 5/9, even 4/9


def test_03c_exact_walk_distributions(b):
    same, by_hand, package = b["[bool(same), tvd_by_hand, total_variation(package)]"]
    assert same is True and by_hand == pytest.approx(package, abs=1e-12)   # readable == package on 2x3
    steps = b["WALK_STEPS"]
    tvd_walk, tvd_coin = b["[tvd_walk, tvd_coin]"]
    assert tvd_coin > 1 / 9 - 1e-3 and tvd_walk > 1 / 9               # "stays about 1/9 away ... a shorter one further"
    assert b["float(coin[dist % 2 == 0].sum())"] == pytest.approx(0.5)   # "the coin gives each parity 1/2"
    if steps >= 60:
        assert tvd_coin == pytest.approx(1 / 9, abs=1e-3)
    cells = b["coin_cells.tolist()"]
    corner, centre = cells[0][0], cells[1][1]
    if steps >= 30:                                                   # "after a long walk: 1/12 and 1/6"
        assert corner == pytest.approx(1 / 12, abs=1e-3) and centre == pytest.approx(1 / 6, abs=1e-3)
    lazy81, lazy300 = b["[lazy[81], lazy[300]]"]
    assert lazy300 < 0.1 < lazy81                                     # "It gets there slowly"


def test_03c_the_fair_designs_and_the_package(b):
    assert b["[int((distance_table(r, c) >= 0).sum()) for r, c in ((2, 2), (2, 3))]"] == [12, 360]   # the check's boards
    # "every solvable board comes from exactly two arrangements" (all 720 of 2x3), and any fixed pair does it too
    assert b["[len(made_from), all(map(is_solvable, made_from)), min(made_from.values()), max(made_from.values())]"] \
        == [360, True, 2, 2]
    assert b[B_ANY_PAIR] == [360, [2]]
    same_swap, same_again, seeds = b["[same_swap, same_again, len(shapes) * len(seeds)]"]
    assert same_swap == same_again == seeds                           # the package deals the same boards
    assert b["[check('sliding.shuffle', deal_and_swap).passed, check('sliding.shuffle', deal_again).passed]"] \
        == [True, True]                                               # "Two fair designs": both pass the checker
    assert {"uniform", "reject", "walk", "walk-balanced"} <= set(
        b["__import__('tilelab.widgets.sliding', fromlist=['METHODS']).METHODS"])   # the Play menu's methods


def test_03c_puzzle8_walk_opened(b):
    assert b["ours == puzzle8_walk(goal3, 81, rng=np.random.default_rng(SEED))"] is True
    assert b["turn_probabilities(0, 2)"][1] == 0.75                  # up and right both turn into down
    grid = [x for row in b["mass_by_blank_cell(puzzle8_n).tolist()"] for x in row]
    allowed = EDGES if b["WALK_STEPS"] % 2 else EVEN_CELLS            # odd: edges only; even: corners and centre
    assert sum(grid[c] for c in allowed) == pytest.approx(1.0) and all(grid[c] == 0 for c in set(range(9)) - set(allowed))
    floor, top_left, centre = b["[floor, float(longrun[0]), float(longrun[4])]"]
    assert top_left < (1 / 9) / 2 and floor == pytest.approx(0.155, abs=5e-4)   # deeper: "less than half", "0.155"
    assert b["[len(counts), int(sum(counts.values()))]"] == [360, 36_000] and b["even_cells_5x5"] == 13


def test_the_browser_settings_run_the_browser_branches():
    for stem, settings, fetch in ((A, A_SETTINGS, A_FETCH), (B, B_SETTINGS, B_FETCH)):
        browser = next(value for name, value in settings.items() if name.startswith("browser"))
        assert run_lesson(stem, overrides=browser, fetch=fetch)[BROWSER_FLAG] is True, stem
