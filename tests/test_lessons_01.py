"""Lessons 00, 1a, 1b and 1c, each run at its defaults and at other settings (another seed, the values its
parameters cell suggests, the browser edition's sizes): no cell raises, the exercises still check, and every
claim the prose makes in words holds, each checked as a predicate on the run's fetched values."""

from __future__ import annotations

import re

import nbformat
import pytest

from tests.lessonrun import errors, exercise_outputs, lesson_path, run_lesson, tags

S00, A, B, C = "00_start_here", "01a_2048_merge", "01b_2048_chance", "01c_2048_bugs"


def browser(stem: str) -> str:
    """An override that runs the lesson's parameters cell again as the browser edition would (IN_BROWSER true:
    the cell's own import of it is left out). The package's checkers keep their laptop sizes: 06a's and 06b's
    parameters cells import it with no comment, so their browser sizes are not tried here (06a's optional
    tuple-shape check cannot pass on the browser's 10 games, an open problem)."""
    nb = nbformat.read(lesson_path(stem), as_version=4)
    source = next(c.source for c in nb.cells if "parameters" in tags(c))
    return "IN_BROWSER = True\n" + source.replace(
        "from tilelab import IN_BROWSER   # true in the browser edition (JupyterLite)\n", "")


def solution_outputs(nb) -> list[str]:
    out = []
    for cell in nb.cells:
        if cell.cell_type == "code" and "solution" in tags(cell):
            out.append("".join(o.get("text", "") or "".join(o.get("data", {}).get("text/plain", ""))
                               for o in cell.get("outputs", [])))
    return out


def run_at(stem: str, setting, fetch: list[str]):
    """The lesson run at ``setting``: None (its defaults), "browser" (the browser edition's sizes) or overrides."""
    return run_lesson(stem, overrides=browser(stem) if setting == "browser" else setting, fetch=fetch)


def checks_still_work(ran, exercises: int, solutions: int | None = None) -> None:
    """No cell raised (an older tilelab name raises: tests/lessonrun.py); every exercise stub says "not yet" and
    every solution (one per exercise unless told) passes."""
    assert errors(ran.notebook) == []
    shown = exercise_outputs(ran.notebook)
    assert len(shown) == exercises and all("[NOT YET]" in s for s in shown), shown
    solved = solution_outputs(ran.notebook)
    assert len(solved) == (exercises if solutions is None else solutions), solved
    assert all("[PASSED]" in s for s in solved), solved


# ------------------------------------------------------------------------------------------ 00
FETCH_00 = [
    "course_map()", "SEED", "len(find_matches(candies))", "len(legal_moves(candies))",
    "[after.score, len({m.destination for m in after.moves if m.merged})]", "is_solvable(swapped)",
    "result.passed",
]
SETTINGS_00 = [None, {"SEED": 1}, {"SEED": 7}]


@pytest.mark.parametrize("overrides", SETTINGS_00, ids=["defaults", "seed1", "seed7"])
def test_00_claims_hold_at_every_setting(overrides):
    ran = run_at(S00, overrides, FETCH_00)
    checks_still_work(ran, exercises=1)
    # "A new board is dealt with no ready-made run of three, and with at least one swap that makes one"
    assert ran["len(find_matches(candies))"] == 0 and ran["len(legal_moves(candies))"] >= 1
    # "three merges (2 + 2, 8 + 8 and 2 + 2), and the move reports the points they earned"
    assert ran[FETCH_00[4]] == [4 + 16 + 4, 3]
    assert ran["is_solvable(swapped)"] is False
    assert ran["result.passed"] is True  # the fixed largest_tile passes
    for p in sorted(lesson_path(S00).parent.glob("[0-9][0-9]*_*.ipynb")):
        if not p.name.startswith("00"):
            assert f"]({p.name})" in ran["course_map()"]


# ------------------------------------------------------------------------------------------ 1a
FETCH_A = [
    "len(every_row)", "len(pipeline_wrong)", "len(two_phase_wrong)", "disagreements", "len(random_boards)",
    "RANDOM_BOARDS", "len(mismatch)", "numpy_disagreements", "tally", "row4.values",
    "{str(n): a for n, a in work.items()}", "list(ROW_LENGTHS)",
    "[pipeline_slide(r) for r in ([2, 0, 2, 4], [2, 2, 2, 2], [4, 4, 8, 0])]",
    "[list(slide_row(r).row) for r in ([2, 0, 2, 0], [2, 2, 2, 0], [2, 2, 2, 2], [4, 4, 8, 0])]",
]
SETTINGS_A = [None, {"SEED": 7, "ROW_LENGTHS": (3, 8, 32), "RANDOM_BOARDS": 40},
              {"SEED": 1, "ROW_LENGTHS": (5, 50, 500)}]


@pytest.mark.parametrize("overrides", SETTINGS_A, ids=["defaults", "seed7-small", "seed1-suggested"])
def test_01a_claims_hold_at_every_setting(overrides):
    ran = run_at(A, overrides, FETCH_A)
    checks_still_work(ran, exercises=3)  # Exercise A on the core path, B and C in Going deeper
    # the exhaustive check: 1296 rows, no design disagrees; every random board in all four directions agrees
    assert ran["len(every_row)"] == 6**4 == 1296
    assert ran["len(pipeline_wrong)"] == ran["len(two_phase_wrong)"] == 0
    assert ran["disagreements"] == 0 and ran["len(random_boards)"] == ran["RANDOM_BOARDS"]
    assert ran["len(mismatch)"] == 0 and ran["numpy_disagreements"] == 0
    assert ran[FETCH_A[-2]] == [[4, 4, 0, 0], [4, 4, 0, 0], [8, 8, 0, 0]]
    # "the two 4s make an 8, and that new 8 does not merge again with the 8 beside it"
    assert ran[FETCH_A[-1]][-1] == [8, 8, 0, 0]
    # "A step at the last cell makes no access ...; a step on a tile reads one cell; ... two; ... five"
    assert set(ran["tally"]) == {"0", "1", "2", "5"} and ran["row4.values"] == [2, 4, 0, 0]
    # "Every step but those at the last cell reads at least once, so the accesses grow like the steps: like n²,
    # and the accesses per cell grow with the row"
    work = {int(n): a for n, a in ran[FETCH_A[10]].items()}
    assert sorted(work) == sorted(ran["list(ROW_LENGTHS)"])
    for n, accesses in work.items():
        assert n * (n - 1) <= accesses <= 5 * n * n
    per_cell = [work[n] / n for n in sorted(work)]
    assert per_cell == sorted(per_cell) and per_cell[-1] > per_cell[0]


def test_01a_move_figure_keeps_arrows_off_the_tile_numbers():
    """The lesson's board swiped up: no arrow passes through a number, and numbers sit above arrows."""
    import matplotlib

    matplotlib.use("Agg")
    import numpy as np

    from tilelab.game2048 import Board
    from tilelab.plots.game2048 import move_arrows, plot_move

    board = Board.parse(".  4  .  .\n.  .  4  .\n2  .  2  2\n2  .  .  .")
    for direction in ("up", "down", "left", "right"):
        fig = plot_move(board, direction)
        ax = fig.axes[0]
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        boxes = [t.get_window_extent(renderer) for t in ax.texts if t.get_text().strip().isdigit()]
        assert boxes
        for arrow in move_arrows(ax):
            assert arrow.get_zorder() < min(t.get_zorder() for t in ax.texts)
            path = arrow.get_path().transformed(arrow.get_transform())
            points = path.interpolated(50).vertices
            for box in boxes:
                inside = ((points[:, 0] > box.x0) & (points[:, 0] < box.x1)
                          & (points[:, 1] > box.y0) & (points[:, 1] < box.y1))
                assert not np.any(inside), f"an arrow crosses a number swiping {direction}"


# ------------------------------------------------------------------------------------------ 1b
B_PAIRS = "[int(diff.min()), int(diff.max()), float(diff.mean())]"  # section 3: single pairs and their mean
# "each seed gives a pair of games that differ only in the rule": the first pair played again, by hand
B_FIRST_PAIR = ("[int(diff[0]), play_game(CornerPlayer(), rng=SEED, p_four=0.1).score"
                " - play_game(CornerPlayer(), rng=SEED, p_four=0.25).score]")
B_LOST = "{str(p): float(v) for p, v in lost.items()}"
B_MOVES = "[float(population[p].moves_played.mean()) for p in (0.1, 0.25)]"
# the re-runs: section 3's corner-player pairs, then section 4's random play in small and in large re-runs
B_GAPS = ("(rerun_means(diff, GAMES // RUNS),"
          " rerun_means(population[0.1].scores, GAMES // RUNS) - rerun_means(population[0.25].scores, GAMES // RUNS),"
          " rerun_means(population[0.1].scores, BATCH // RUNS) - rerun_means(population[0.25].scores, BATCH // RUNS))")
B_RERUNS = f"[[float(g) for g in gaps] for gaps in {B_GAPS}]"
B_VERDICTS = f"[verdict(gaps) for gaps in {B_GAPS}]"
# "deals the values, in order, into RUNS re-runs of n": the last re-run is values (RUNS - 1) * n to RUNS * n - 1
B_IN_ORDER = ("[float(rerun_means(diff, GAMES // RUNS)[-1]),"
              " float(np.mean(diff[(RUNS - 1) * (GAMES // RUNS):RUNS * (GAMES // RUNS)]))]")
#: (most, runs) for luck(): the counts it gives are checked against the exact chance of fair coins
B_LUCK_CASES = ((8, 8), (7, 8), (6, 8), (5, 8), (4, 4), (17, 20), (14, 20), (0, 8))
B_LUCK = f"[int(luck(m, n)) for m, n in {B_LUCK_CASES!r}]"
#: made-up re-run gaps and the verdict's branch each must take: 8 of 8 (about 78 in 10,000), 7 of 8 (703),
#: 5 of 8 (7,266), 4 of 4 (1,250), 17 of 20 (26), no re-run ahead
B_MADE_UP_GAPS = ([3] * 8, [-3] * 8, [3] * 7 + [-1], [-3] * 7 + [1], [3] * 5 + [-1] * 3, [3] * 4, [0] * 8,
                  [3] * 17 + [-1] * 3)
B_MADE_UP_BRANCHES = [("real", "90/10"), ("real", "75/25"), ("hint", "90/10"), ("hint", "75/25"), ("cannot", None),
                      ("cannot", None), ("cannot", None), ("real", "90/10")]
B_MADE_UP = f"[verdict(g) for g in {B_MADE_UP_GAPS!r}]"
B_FAST = "[float(4 * fours_spawned_fast(population[p]).mean()) for p in (0.1, 0.25)]"
#: "Leave out p_four and it uses 0.1"
B_DEFAULT_P_FOUR = ("[(s.cell, s.value, p) for s, p in spawn_outcomes(small)]"
                    " == [(s.cell, s.value, p) for s, p in spawn_outcomes(small, 0.1)]")
#: the exercise: "On a full board the loop never runs and the dict stays empty" (the skeleton and the solution)
B_FULL_BOARD = "[len(f(Board.parse('2 4\\n8 16'), 0.1)) for f in (my_spawn_outcomes, solution_spawn_outcomes)]"
B_STARTS = "[float(share), float(half), float(tries.mean()), float(1.96 * tries.std(ddof=1) / np.sqrt(tries.size))]"
FETCH_B = [
    "GAMES", "BATCH", "REPEATS", "RUNS", "ENGINE", "identity == record.score", "tile_points(8)",
    "[tile_points(2 ** k) for k in range(1, 18)]", "[len(record.spawns), record.moves_played, len(record.start.tile_map())]",
    "[len(spawn_outcomes(small)), len(small.empty_cells())]", "int(covered)", B_PAIRS, B_FIRST_PAIR, B_LOST, B_MOVES,
    "len(population[0.1].scores)", B_RERUNS, B_VERDICTS, B_IN_ORDER, B_LUCK, B_MADE_UP, "float(gap)", B_FAST, B_STARTS,
    "[callable(f) for f in (rerun_means, verdict, interval)]", B_DEFAULT_P_FOUR, B_FULL_BOARD,
]
SETTINGS_B = [None, "browser", {"SEED": 300, "GAMES": 60, "BATCH": 4_000, "RUNS": 4},
              {"SEED": 1000, "GAMES": 400, "BATCH": 4_000, "RUNS": 20}]


def coin_chance(most: int, runs: int) -> float:
    """The exact chance that ``runs`` fair coins land ``most`` or more the same way (heads or tails)."""
    from math import comb

    return sum(comb(runs, h) for h in range(runs + 1) if max(h, runs - h) >= most) / 2 ** runs


def luck_is_near(count: int, most: int, runs: int, tries: int = 10_000) -> bool:
    """A count of ``tries`` simulated tries lies within four standard deviations (and 5) of the exact chance."""
    p = coin_chance(most, runs)
    return abs(count - tries * p) <= 4 * (tries * p * (1 - p)) ** 0.5 + 5


def verdict_parts(verdict: str) -> tuple[int, int, int, str, str | None]:
    """(re-runs 90/10 ahead, 75/25 ahead, the coin count, the branch, the rule it names): the numbers the verdict
    prints and which of its three conclusions it draws, "real", "hint" or "cannot" (the rule names are labels)."""
    ahead, behind = map(int, re.search(r"ahead in (\d+) re-runs, 75/25 in (\d+)", verdict).groups())
    count = int(re.search(r"in ([\d,]+) of 10,000", verdict).group(1).replace(",", ""))
    if m := re.search(r"(90/10|75/25) really scores more", verdict):
        return ahead, behind, count, "real", m.group(1)
    if m := re.search(r"a hint that (90/10|75/25) scores more", verdict):
        return ahead, behind, count, "hint", m.group(1)
    assert "cannot tell" in verdict, verdict
    return ahead, behind, count, "cannot", None


def verdict_fits(gaps: list[float], verdict: str) -> None:
    """The verdict counts the re-runs each rule is ahead in, prints luck's count for that split, and draws the
    conclusion that count calls for: under 100 in 10,000 real, under 1,000 a hint, else cannot tell."""
    ahead, behind, count, branch, rule = verdict_parts(verdict)
    assert (ahead, behind) == (sum(g > 0 for g in gaps), sum(g < 0 for g in gaps)), (gaps, verdict)
    assert luck_is_near(count, max(ahead, behind), len(gaps)), (gaps, verdict)
    assert branch == ("real" if count < 100 else "hint" if count < 1000 else "cannot"), (gaps, verdict)
    if branch != "cannot":  # the rule it names is the one ahead in more re-runs
        assert rule == ("90/10" if ahead > behind else "75/25"), (gaps, verdict)


@pytest.mark.parametrize("overrides", SETTINGS_B, ids=["defaults", "browser", "seed300-4runs", "seed1000-400games-20runs"])
def test_01b_claims_hold_at_every_setting(overrides):
    ran = run_at(B, overrides, FETCH_B)
    checks_still_work(ran, exercises=1)
    if overrides == "browser":
        assert (ran["GAMES"], ran["BATCH"], ran["ENGINE"]) == (40, 5_000, "numpy")
    assert ran["identity == record.score"] is True  # the score identity of section 2
    # "an 8 (two 4s merged) 4 + 4 + 8 = 16", and each doubling the same way: (k - 1) * 2**k (Going deeper)
    assert ran["tile_points(8)"] == 16
    assert ran["[tile_points(2 ** k) for k in range(1, 18)]"] == [(k - 1) * 2 ** k for k in range(1, 18)]
    # "Every move spawns one tile (the start, two)"
    spawned, moves, start_tiles = ran["[len(record.spawns), record.moves_played, len(record.start.tile_map())]"]
    assert spawned == moves and start_tiles == 2
    # "The 2x2 board below has one blank": two outcomes
    assert ran["[len(spawn_outcomes(small)), len(small.empty_cells())]"] == [2, 1]
    # "Leave out p_four and it uses 0.1"; the exercise: "On a full board ... the dict stays empty"
    assert ran[B_DEFAULT_P_FOUR] is True
    assert ran[B_FULL_BOARD] == [0, 0]
    # "each seed gives a pair of games that differ only in the rule"
    first, by_hand = ran[B_FIRST_PAIR]
    assert first == by_hand
    # "Single pairs swing much further, both ways, than their mean"
    smallest, largest, mean = ran[B_PAIRS]
    assert smallest < 0 < largest and min(-smallest, largest) > 2 * abs(mean)
    # "deals the values, in order, into RUNS re-runs": RUNS gaps each time, the last one its own share
    corner, small, large = ran[B_RERUNS]
    assert len(corner) == len(small) == len(large) == ran["RUNS"]
    assert ran[B_IN_ORDER][0] == pytest.approx(ran[B_IN_ORDER][1])
    # luck(): "counts the tries where most or more land the same way", near the exact chance of fair coins
    for (most, runs), count in zip(B_LUCK_CASES, ran[B_LUCK]):
        assert luck_is_near(count, most, runs), (most, runs, count)
    # the verdict fits its re-runs at every count, on the lesson's re-runs and on made-up ones
    for gaps, verdict in zip(ran[B_RERUNS], ran[B_VERDICTS]):
        verdict_fits(gaps, verdict)
    for gaps, verdict, (branch, rule) in zip(B_MADE_UP_GAPS, ran[B_MADE_UP], B_MADE_UP_BRANCHES):
        verdict_fits(gaps, verdict)
        assert verdict_parts(verdict)[3:] == (branch, rule), (gaps, verdict)
    # Check yourself: "Eight fair coins split 5 to 3 or more unevenly in about 7 tries of 10"
    assert 6_500 <= ran[B_LUCK][B_LUCK_CASES.index((5, 8))] <= 7_500
    # "Re-runs of many games average out more of their luck: compare the two ranges"
    assert max(small) - min(small) > max(large) - min(large)
    assert ran["len(population[0.1].scores)"] == ran["BATCH"]
    # "90/10 scores {gap} points per game: ... as fewer 4s spawn": more 4s spawn at 75/25; the gap is the mean
    # difference of the large re-runs (they share out all the games)
    lost = ran[B_LOST]
    assert lost["0.25"] > lost["0.1"] > 0
    assert ran["float(gap)"] == pytest.approx(sum(large) / len(large), abs=1e-6)
    # "about p_four of them are 4s": the estimate is close to the exact count the final boards give (Going deeper)
    assert ran[B_FAST] == pytest.approx([lost["0.1"], lost["0.25"]], rel=0.03)
    # Going deeper: "close to 95 in 100 cover the truth" (the count is printed; binomial spread allowed)
    assert abs(ran["int(covered)"] / ran["REPEATS"] - 0.95) <= 0.08
    # Going deeper: start boards hold a 4 with probability 0.19; the C# loop needs 16 draws on average
    share, half, tries, tries_half = ran[B_STARTS]
    assert abs(share - 0.19) <= 2 * half and abs(tries - 16) <= 2 * tries_half
    # the open task names the lesson's own tools
    assert ran["[callable(f) for f in (rerun_means, verdict, interval)]"] == [True, True, True]


def test_01b_open_task_names_what_the_package_has():
    import tilelab.game2048 as g

    assert all(hasattr(g, name) for name in ("CornerPlayer", "Expectimax", "play_game"))


def test_interval_coverage_picture_counts_what_it_draws():
    import matplotlib

    matplotlib.use("Agg")
    from tilelab.plots.game2048 import plot_interval_coverage

    fig = plot_interval_coverage([0, 1, 2, 3.5], [2, 3, 4, 5], truth=2.5)
    ax = fig.axes[0]
    assert re.findall(r"\d+(?:\.\d+)?", ax.get_title())[:3] == ["2", "4", "2.5"]  # the counts, not the words
    assert sorted(len(c.get_segments()) for c in ax.collections) == [2, 2]  # two cover, two miss
    with pytest.raises(ValueError):
        plot_interval_coverage([1, 2], [3], truth=2)


def test_paired_differences_legend_stays_off_the_bars():
    import matplotlib

    matplotlib.use("Agg")
    from tilelab.plots.game2048 import plot_paired_differences

    fig = plot_paired_differences([-300, -50, 20, 40, 400, 900], interval=(-150, 500))
    fig.canvas.draw()
    ax = fig.axes[0]
    assert ax.get_legend().get_window_extent().y1 <= ax.get_window_extent().y0  # under the axes


# ------------------------------------------------------------------------------------------ 1c
FETCH_C = [
    "[swift_alerts, swift_spawns, len(keys), ours_alerts, ours_spawns]", "agree", "len(boards)",
    "sum(map(is_over, final_boards))", "sum(map(is_over, positions))", "[len(final_boards), len(positions)]",
    "available_moves_names_fixed(witness) != [d.value for d in legal_moves(witness)]",
    "[sum(available_moves_as_published(b) != [d.value.capitalize() for d in legal_moves(b)] for b in g) "
    "for g in (final_boards, positions)]",
    "all((not available_moves_as_published(b)) == is_over(b) for b in boards)",
    "sorted(set(late))", "[GAMES, POSITIONS]",
    "[available_moves_names_fixed(corner), [d.value for d in legal_moves(corner)]]",
    "[game_over(stuck), is_over(stuck), legal_moves(stuck)]", "[len(swift.board.tile_map()), len(start.tile_map())]",
]
SETTINGS_C = [None, "browser", {"SEED": 5, "GAMES": 10, "POSITIONS": 30}, {"SEED": 3, "GAMES": 200}]


@pytest.mark.parametrize("overrides", SETTINGS_C, ids=["defaults", "browser", "seed5-small", "seed3-200games"])
def test_01c_claims_hold_at_every_setting(overrides):
    ran = run_at(C, overrides, FETCH_C)
    checks_still_work(ran, exercises=2)
    # "one exercise included" in the core path (the second sits under Going deeper)
    assert sum("exercise" in tags(c) and "deeper" not in tags(c) for c in ran.notebook.cells) == 1
    games, positions = ran["[GAMES, POSITIONS]"]
    assert ran["[len(final_boards), len(positions)]"] == [games, positions]
    # "a won game freezes: an alert after every move, no new tiles"; tilelab: "announce the win once, always spawn"
    swift_alerts, swift_spawns, moves, ours_alerts, ours_spawns = ran[FETCH_C[0]]
    assert swift_alerts == moves == 13 and swift_spawns == 0 and ours_alerts == 1 and ours_spawns >= 10
    # "the tiles can only merge away" (no spawn, so never more tiles than at the start)
    left, at_start = ran[FETCH_C[13]]
    assert left < at_start
    # the stuck board of section 2 is over for both game_over and is_over, with no legal move
    assert ran[FETCH_C[12]] == [True, True, []]
    # "On . 2 over . . the tile cannot move right, but the shared copy ... by then its tile can"
    shared, truth = ran[FETCH_C[11]]
    assert "right" in shared and "right" not in truth and shared != truth
    # section 3: "the final boards ... (every one dead) and ... start boards (none dead)"; deeper: the two agree
    assert ran["sum(map(is_over, final_boards))"] == games and ran["sum(map(is_over, positions))"] == 0
    assert ran["agree"] == ran["len(boards)"] == games + positions
    # deeper: "the first seeded start board where the names fixed, shared copy list is still wrong"
    assert ran[FETCH_C[6]] is True
    # "wrong on every start board ... right on every final board"; "some move exists always comes out right"
    assert ran[FETCH_C[7]] == [0, positions] and ran[FETCH_C[8]] is True
    # deeper: "Every game's Game Over comes exactly one key late"
    assert ran["sorted(set(late))"] == [1]
