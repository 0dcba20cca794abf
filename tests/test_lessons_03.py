"""Lessons 3a and 3b run top to bottom, state only numbers they compute, and survive exploration.

One run per lesson with its default parameters fetches every number its prose states (the cells
students see hold no asserts); one more run per lesson with other parameters must raise nowhere and
still end with its exercises checking.
"""

from __future__ import annotations

import pytest

from tests.lessonrun import errors, exercise_outputs, prose, run_lesson, tags

A, B = "03a_sliding_parity", "03b_sliding_shuffles"

B_FETCH = [
    "[by_rule, by_bfs, NAIVE_BOARDS]", "[is_solvable(fixed), distance(fixed) >= 0]",
    "{k: float(np.mean(np.array(v) % 2 == 1)) for k, v in dealt.items()}", "float(np.mean(dist % 2 == 1))",
    "[even_boards, even_cells, *np.bincount(blank_cell).tolist()]", "[tvd_walk, tvd_coin]",
    "coin_cells.tolist()", "[lazy[81], lazy[300]]",
    "ours == puzzle8_walk(goal3, 81, rng=np.random.default_rng(SEED))", "turn_probabilities(0, 2)",
    "mass_by_blank_cell(puzzle8_n).round(3).tolist()", "total_variation(puzzle8_n)",
    "[float(((cells - expected) ** 2 / expected).sum()), chi_square_critical(8)]",
    "float(np.abs(cells / deals - coin_cells.ravel()).max())",
    "[critical, simulated, CHI2_2X3_999]", "[len(counts), chi2]",
    "[floor, float(longrun[0]), float(longrun[4])]",
    "{k: float(np.mean(v)) for k, v in manhattans.items()}", "even_cells_5x5",
]


@pytest.fixture(scope="module")
def b():
    return run_lesson(B, fetch=B_FETCH)


def _outputs(ran, cell_id: str) -> str:
    cell = next(c for c in ran.notebook.cells if c.get("id") == cell_id)
    return "".join(o.get("text", "") or "".join(o.get("data", {}).get("text/plain", "")) for o in cell.outputs)


def _check_results_show(ran) -> None:
    """Every exercise cell shows a (red) check result and every solution cell a green one."""
    shown = exercise_outputs(ran.notebook)
    assert shown and all("[NOT YET]" in text for text in shown), shown
    solutions = [c for c in ran.notebook.cells if c.cell_type == "code" and "solution" in tags(c)]
    assert solutions and all("[PASSED]" in "".join(o.get("data", {}).get("text/plain", "")
                                                    for o in c.outputs) for c in solutions)


# ------------------------------------------------------------------ 03a
#
# Each claim the prose makes in words, as a predicate on what the run computed, at every setting: the defaults,
# another seed with fewer and smaller boards, and the browser edition's sizes with the smallest MAX_SIDE allowed.

A_SETTINGS = {
    "defaults": None,
    "seed 11, 400 trials up to 4x4": {"SEED": 11, "TRIALS": 400, "MAX_SIDE": 4, "PLAY_SEED": 1},
    "browser sizes, MAX_SIDE 2": "IN_BROWSER = True\nSEED = 5\nTRIALS = 60\nMAX_SIDE = 2\nPLAY_SEED = 2",
}
A_FETCH = [
    "home.is_goal()", "inversions(example)", "[flips, TRIALS]", "{k: sorted(v) for k, v in seen.items()}",
    "sweep", "[int(solvable.size), int((table < 0).sum()), int(solvable.max()), int((solvable == solvable.max()).sum())]",
    "float(solvable.mean())", "[distance(p) for p in hardest]", "len(hardest)", "distance(game.puzzle)",
    "[len(path), count_moves(hardest[0], path).multi, distance(hardest[0], 'multi')]", "[n, *agree.values()]",
    "[counted.single, counted.multi]",
]


@pytest.fixture(scope="module", params=list(A_SETTINGS))
def a(request):
    return run_lesson(A, overrides=A_SETTINGS[request.param], fetch=A_FETCH)


def test_03a_runs_cleanly_and_its_exercises_check(a):
    assert errors(a.notebook) == []
    _check_results_show(a)


def test_03a_moves_swaps_and_inversions(a):
    assert a["home.is_goal()"] is True                               # "three moves from home"
    assert a["inversions(example)"] == 4                              # "it has 4 inversions and is even"
    flips, trials = a["[flips, TRIALS]"]
    assert flips == trials                                            # a swap always flips the parity
    seen = a["{k: sorted(v) for k, v in seen.items()}"]               # deeper: every move on random boards
    assert set(seen["horizontal"]) <= {0}                             # horizontal: the count does not change
    assert set(seen["vertical, odd width"]) <= {0} and set(seen["vertical, even width"]) <= {1}  # "never 0"
    assert a["[counted.single, counted.multi]"] == [6, 3]             # deeper: 13, 9, 10, 11 are 3 multi-tile moves


def test_03a_bfs_reaches_exactly_half_and_agrees_with_the_rule_and_the_table(a):
    sweep = a["sweep"]
    assert {"2x2", "2x3", "3x2"} <= set(sweep)
    for shape, (reached, arrangements, agree, same) in sweep.items():
        assert 2 * reached == arrangements and agree == arrangements and same is True, shape
    assert sweep["2x2"][0] == 12                                      # "its 12 = 4!/2 boards"


def test_03a_state_space_numbers(a):
    size, unsolvable, hardest, how_many = a[A_FETCH[5]]
    assert (size, unsolvable, hardest, how_many) == (181_440, 181_440, 31, 2)    # "Only two boards are that far (31)"
    assert round(a["float(solvable.mean())"], 2) == 21.97            # summary: "21.97 moves on average"
    assert a["len(hardest)"] == 2 and a["[distance(p) for p in hardest]"] == [31, 31]
    assert 0 <= a["distance(game.puzzle)"] <= 31


def test_03a_deeper_rules_agree_and_the_multi_tile_table_matches_count_moves(a):
    n, *agreements = a["[n, *agree.values()]"]
    assert agreements == [n, n]                                       # the three rules never disagree
    steps, multi, best = a["[len(path), count_moves(hardest[0], path).multi, distance(hardest[0], 'multi')]"]
    assert steps == multi == best


# ------------------------------------------------------------------ 03b


def test_03b_runs_cleanly_and_its_exercises_check(b):
    assert errors(b.notebook) == []
    _check_results_show(b)


def test_03b_the_bug_and_its_fix(b):
    by_rule, by_bfs, boards = b["[by_rule, by_bfs, NAIVE_BOARDS]"]
    assert by_rule == by_bfs and abs(by_rule / boards - 0.5) < 0.05 and "2,000 such boards" in prose(B)
    assert b["[is_solvable(fixed), distance(fixed) >= 0]"] == [True, True]


def test_03b_walks_deal_one_parity_and_miss_five_ninths(b):
    text = prose(B)
    odd = b["{k: float(np.mean(np.array(v) % 2 == 1)) for k, v in dealt.items()}"]
    exact = b["float(np.mean(dist % 2 == 1))"]
    assert odd["walk, 81 moves"] == odd["walk-balanced, 81"] == 1.0
    assert abs(odd["uniform"] - exact) < 0.07 and abs(odd["reject"] - exact) < 0.07  # 500 samples
    even_boards, even_cells, *per_cell = b["[even_boards, even_cells, *np.bincount(blank_cell).tolist()]"]
    assert (even_boards, even_cells) == (100_800, 5) and per_cell == [20_160] * 9
    assert "100,800" in text and "**5/9**" in text and "181,440 / 9 = 20,160" in text


def test_03b_exact_walk_distributions_match_the_prose(b):
    text = prose(B)
    tvd_walk, tvd_coin = b["[tvd_walk, tvd_coin]"]
    assert tvd_walk == pytest.approx(5 / 9, abs=1e-9) and tvd_coin == pytest.approx(1 / 9, abs=1e-6)
    assert "still 1/9 away from uniform" in text
    cells = b["coin_cells.tolist()"]
    assert cells[0][0] == pytest.approx(1 / 12, abs=1e-3) and cells[1][1] == pytest.approx(1 / 6, abs=1e-3)
    assert "Corners get 1/12 and the centre 1/6" in text
    lazy81, lazy300 = b["[lazy[81], lazy[300]]"]
    assert lazy300 < 0.1 < lazy81


def test_03b_puzzle8_walk_opened(b):
    text = prose(B)
    assert b["ours == puzzle8_walk(goal3, 81, rng=np.random.default_rng(SEED))"] is True
    assert b["turn_probabilities(0, 2)"] == [0.0, 0.75, 0.25, 0.0]
    grid = b["mass_by_blank_cell(puzzle8_n).round(3).tolist()"]
    assert grid == [[0.0, 0.182, 0.0], [0.182, 0.0, 0.318], [0.0, 0.318, 0.0]]
    assert "get 0.318 each, the other two 0.182" in text
    assert b["total_variation(puzzle8_n)"] > b["[tvd_walk, tvd_coin]"][0]
    assert "Swift PuzzleProject's shuffle: the same walk" in text  # one walk is PuzzleProject's, said once


def test_03b_deeper_statistics(b):
    text = prose(B)
    chi2, limit = b["[float(((cells - expected) ** 2 / expected).sum()), chi_square_critical(8)]"]
    assert chi2 > limit and b["float(np.abs(cells / deals - coin_cells.ravel()).max())"] < 0.03
    critical, simulated, module_value = b["[critical, simulated, CHI2_2X3_999]"]
    assert abs(critical - simulated) < 1.0 and critical == pytest.approx(module_value) and round(critical, 1) == 447.6
    boards, chi2_2x3 = b["[len(counts), chi2]"]
    assert boards == 360 and chi2_2x3 < critical
    floor, top_left, centre = b["[floor, float(longrun[0]), float(longrun[4])]"]
    assert (round(floor, 3), round(top_left, 3), round(centre, 3)) == (0.155, 0.045, 0.170)
    assert "(0.045\ninstead of 0.111)" in text and "0.155 from uniform" in text and "time average" in text
    means = b["{k: float(np.mean(v)) for k, v in manhattans.items()}"]
    assert means["4x4 Puzzle8 walk, 256 moves"] < means["4x4 uniform"] - 3
    assert means["5x5 Puzzle8 walk, 625 moves"] < means["5x5 uniform"] - 5
    assert b["even_cells_5x5"] == 13 and "13 even cells" in text


def test_03b_defines_its_terms():
    text = " ".join(prose(B).split())
    for term in ("**periodic**", "**time average**", "*left eigenvector*", "**chi-square test**",
                 "*degrees of freedom*", "a standard error is", "| total-variation distance (TVD) |"):
        assert term in text
    assert "**Time:** about 55 minutes" in prose(B).split("##")[0]


def test_03b_exploration_never_crashes():
    ran = run_lesson(B, overrides={"SEED": 5, "NAIVE_BOARDS": 300, "SAMPLES": 100, "WALK_STEPS": 80})
    assert errors(ran.notebook) == []
    _check_results_show(ran)
    assert "walk, 80 moves     mean distance" in _outputs(ran, "effc0be1")
    assert "odd distances   0.0%" in _outputs(ran, "effc0be1")  # an even length deals even distances only
