"""Lessons 1a and 1b: every number the prose states is what the lesson computes, exploring with other
parameters never crashes, the exercises still check, and the solutions pass without delegating."""

from __future__ import annotations

import pytest

from tests.lessonrun import errors, exercise_outputs, prose, run_lesson, tags

A, B = "01a_2048_merge", "01b_2048_chance"

A_FETCH = [
    "SEED", "len(every_row)", "len(pipeline_wrong)", "len(two_phase_wrong)", "disagreements", "len(random_boards)",
    "len(mismatch)", "numpy_disagreements",
    # steps and accesses of the published phase 2, per row length (the prose: both grow like n squared)
    "[(n, (lambda l: (bubble_compact(l), l.accesses)[1])(CountingLine(([2, 0] * n)[:n]))) for n in (4, 16, 64)]",
    "[pipeline_slide(r) for r in ([2, 0, 2, 4], [2, 2, 2, 2], [4, 4, 8, 0])]",
]
B_FETCH = [
    "round(float(mean), 1)", "round(float(standard_error))", "round(float(mean / standard_error), 2)",
    "round(float(low), -1)", "round(float(high), -1)", "GAMES", "BATCH", "round(float(gap))", "round(float(gap_half))",
    "identity == record.score", "swift_alerts", "swift_spawns", "ours_spawns", "len(keys) - 1",
    "[sum(available_moves_as_published(b) != [d.value.capitalize() for d in legal_moves(b)] for b in g) "
    "for g in (final_boards, positions)]",
    "len(final_boards)", "len(positions)", "[bool(is_over(b)) for b in final_boards].count(True)",
    "sorted(set(late))", "round(float(share), 2)", "round(float(tries.mean()))",
    "len(outcomes)", "[len(spawn_outcomes(b)) for b in (small,)]",
]


@pytest.fixture(scope="module")
def lesson_a():
    return run_lesson(A, fetch=A_FETCH)


@pytest.fixture(scope="module")
def lesson_b():
    return run_lesson(B, fetch=B_FETCH)


def _solution_outputs(nb) -> list[str]:
    out = []
    for cell in nb.cells:
        if cell.cell_type == "code" and "solution" in tags(cell):
            out.append("".join(o.get("text", "") or "".join(o.get("data", {}).get("text/plain", ""))
                               for o in cell.get("outputs", [])))
    return out


# ------------------------------------------------------------------------------------------ 1a
def test_01a_exhaustive_checks_find_no_disagreement(lesson_a):
    text = prose(A)
    assert lesson_a["len(every_row)"] == 6**4 == 1296 and "1296" in text
    assert lesson_a["len(pipeline_wrong)"] == lesson_a["len(two_phase_wrong)"] == 0
    assert lesson_a["disagreements"] == 0 and lesson_a["len(mismatch)"] == 0 and lesson_a["numpy_disagreements"] == 0
    assert lesson_a["[pipeline_slide(r) for r in ([2, 0, 2, 4], [2, 2, 2, 2], [4, 4, 8, 0])]"] == [
        [4, 4, 0, 0], [4, 4, 0, 0], [8, 8, 0, 0]]


def test_01a_published_phase_two_is_quadratic(lesson_a):
    counts = dict(lesson_a[A_FETCH[8]])
    assert "4 × 4 = 16 steps" in prose(A)
    for n, accesses in counts.items():
        assert n * (n - 1) // 2 <= accesses  # at least one access for each step that looks at a pair
    per_cell = [counts[n] / n for n in sorted(counts)]
    assert per_cell == sorted(per_cell) and per_cell[-1] > 8 * per_cell[0]  # grows with the row: n squared


def test_01a_exercises_check_and_solutions_pass(lesson_a):
    shown = exercise_outputs(lesson_a.notebook)
    assert len(shown) == 3 and all("NOT YET" in s for s in shown)
    solutions = _solution_outputs(lesson_a.notebook)
    assert len(solutions) == 3 and all("[PASSED]" in s for s in solutions), solutions
    assert errors(lesson_a.notebook) == []
    assert lesson_a.seconds < 120  # about 15 s alone on this machine; generous for a loaded one


def test_01a_exploring_other_parameters_never_crashes():
    ran = run_lesson(A, overrides={"SEED": 7, "ROW_LENGTHS": (3, 8, 32), "RANDOM_BOARDS": 40}, fetch=["SEED"])
    assert ran["SEED"] == 7 and errors(ran.notebook) == []
    assert all("NOT YET" in s or "PASSED" in s for s in exercise_outputs(ran.notebook))


# ------------------------------------------------------------------------------------------ 1b
def test_01b_paired_comparison_matches_the_prose(lesson_b):
    text = prose(B)
    assert lesson_b["GAMES"] == 120 and "120 games" in text
    assert lesson_b["round(float(mean), 1)"] == 169.5 and "169.5" in text
    assert lesson_b["round(float(standard_error))"] == 158 and "standard error of 158" in text
    assert lesson_b["round(float(mean / standard_error), 2)"] == 1.07 and "t ≈ 1.07" in text
    low, high = lesson_b["round(float(low), -1)"], lesson_b["round(float(high), -1)"]
    assert (low, high) == (-140, 480) and "from about −140 to +480" in text
    assert low < 0 < high and "contains zero" in text


def test_01b_big_batch_matches_the_prose(lesson_b):
    text = prose(B)
    assert lesson_b["BATCH"] == 20_000 and "20,000" in text
    gap, half = lesson_b["round(float(gap))"], lesson_b["round(float(gap_half))"]
    assert (gap, half) == (112, 10) and "112 ± 10" in text
    assert gap - half > 0  # "real": the interval excludes zero


def test_01b_game_facts_match_the_prose(lesson_b):
    text = prose(B)
    assert lesson_b["identity == record.score"]
    assert lesson_b["len(keys) - 1"] == 12 and "12 more moves" in text
    assert lesson_b["swift_alerts"] == 13 and lesson_b["swift_spawns"] == 0  # an alert after every move, no spawn
    assert lesson_b["ours_spawns"] >= 10
    final_wrong, start_wrong = lesson_b[B_FETCH[14]]
    assert lesson_b["len(final_boards)"] == 240 and lesson_b["[bool(is_over(b)) for b in final_boards].count(True)"] == 240
    assert final_wrong == 0 and start_wrong == lesson_b["len(positions)"] == 200
    assert "wrong on **every** start board" in text and "right on every final board" in text
    assert lesson_b["sorted(set(late))"] == [1] and "Always exactly one key late" in text
    assert lesson_b["round(float(share), 2)"] == 0.19 and "0.19" in text
    assert lesson_b["round(float(tries.mean()))"] == 16 and "16 draws on average" in text
    assert lesson_b["len(outcomes)"] == 6 and lesson_b["[len(spawn_outcomes(b)) for b in (small,)]"] == [2]


def test_01b_exercises_check_and_solutions_pass(lesson_b):
    shown = exercise_outputs(lesson_b.notebook)
    assert len(shown) == 3 and all("NOT YET" in s for s in shown)
    solutions = _solution_outputs(lesson_b.notebook)
    assert len(solutions) == 3 and all("[PASSED]" in s for s in solutions), solutions
    assert errors(lesson_b.notebook) == []
    assert lesson_b.seconds < 120  # about 30 s alone on this machine; generous for a loaded one


def test_01b_open_task_imports_what_it_names():
    text = prose(B)
    task = text[text.index("### Open task"):]
    assert "from tilelab.game2048 import CornerPlayer, Expectimax, play_game" in task
    import tilelab.game2048 as g

    assert all(hasattr(g, name) for name in ("CornerPlayer", "Expectimax", "play_game"))


def test_01b_exploring_other_parameters_never_crashes():
    ran = run_lesson(B, overrides={"SEED": 7, "GAMES": 30, "BATCH": 2_000}, fetch=["SEED", "GAMES"])
    assert (ran["SEED"], ran["GAMES"]) == (7, 30) and errors(ran.notebook) == []
    assert all("NOT YET" in s or "PASSED" in s for s in exercise_outputs(ran.notebook))


def test_01b_browser_branch_plays_fewer_games_and_uses_the_numpy_engine():
    """The parameters cell itself, run as the browser kernel would (IN_BROWSER True) and natively."""
    import nbformat

    from tests.lessonrun import lesson_path

    nb = nbformat.read(lesson_path(B), as_version=4)
    source = next(c.source for c in nb.cells if "parameters" in tags(c))
    for in_browser, want in ((True, (40, 5_000, "numpy")), (False, (120, 20_000, "numba"))):
        scope = {"IN_BROWSER": in_browser}
        exec(source, scope)
        assert (scope["GAMES"], scope["BATCH"], scope["ENGINE"]) == want
    text = prose(B)
    assert "40 paired games per rule instead of 120" in text and "5,000\ngames per rule with the numpy engine" in text


# ------------------------------------------------------------------------------------------ figures
def test_01a_move_figure_keeps_arrows_off_the_tile_numbers():
    """The lesson's board swiped up: no arrow passes through a number, and numbers sit above arrows."""
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
