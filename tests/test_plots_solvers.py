"""Lesson 4 plots return figures with the promised content."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from tilelab.plots.solvers import (  # noqa: E402
    plot_heuristic_values,
    plot_human_storyboard,
    plot_nodes_by_heuristic,
    plot_pattern_database,
    plot_search_tree,
    plot_weighted_tradeoff,
)
from tilelab.sliding import shuffle  # noqa: E402
from tilelab.sliding.human import human_moves, human_stages  # noqa: E402
from tilelab.sliding.pdb import PatternDatabase  # noqa: E402



def test_nodes_plot_is_log_scale_with_one_tick_per_heuristic():
    fig = plot_nodes_by_heuristic({"misplaced": [5000, 9000], "manhattan": [300, 200], "pdb": [9, 12]})
    ax = fig.axes[0]
    assert ax.get_yscale() == "log"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["misplaced", "manhattan", "pdb"]
    with pytest.raises(ValueError):
        plot_nodes_by_heuristic({})


def test_heuristic_values_plot_has_the_diagonal_and_each_heuristic():
    fig = plot_heuristic_values(2, 3, sample=100)
    labels = [line.get_label() for line in fig.axes[0].get_lines()]
    assert labels[0].startswith("true distance") and len(labels) == 4


def test_weighted_tradeoff_has_two_axes():
    fig = plot_weighted_tradeoff([(1.0, 1.0, 1000), (2.0, 1.1, 100), (4.0, 1.3, 30)])
    assert len(fig.axes) == 2 and fig.axes[1].get_yscale() == "log"


def test_pattern_database_picture():
    db = PatternDatabase.build(2, 3, [(1, 2, 4), (3, 5)])
    fig = plot_pattern_database(db)
    assert len(fig.axes) == 3


def test_storyboard_has_start_plus_one_frame_per_stage():
    board = shuffle(4, 4, rng=2)
    stages = human_stages(board)
    fig = plot_human_storyboard(board, human_moves(board), stages)
    assert len(fig.axes) == len(stages) + 1
    assert fig.axes[-1].get_title().startswith("last 2x2 block")


def test_search_tree_levels():
    fig = plot_search_tree(shuffle(3, 3, rng=0), depth=1)
    assert len(fig.axes) >= 3


def test_search_tree_draws_each_board_once_with_its_edges():
    from tilelab.plots.solvers import search_levels
    from tilelab.sliding import Board

    start = Board.parse("1 2 3\n4 . 6\n7 5 8")
    levels = search_levels(start, 3)
    boards = [b for level in levels for b, _, _ in level]
    assert len(boards) == len(set(boards)) and start not in boards[1:]
    fig = plot_search_tree(start, depth=2)
    import matplotlib.pyplot as plt

    edges = [a for a in fig.artists if isinstance(a, plt.Line2D)]
    assert len(fig.axes) == 13 and len(edges) == 12


def test_blank_routes_draw_one_arrow_per_step_up_to_the_limit():
    from tilelab.plots.solvers import plot_blank_routes

    fig = plot_blank_routes(4, 4, {0, 5}, 9, 1, {"loop": [8, 12, 13, 9] * 5, "fixed": [10, 6, 2, 1]}, max_arrows=8)
    loop, fixed = fig.axes
    assert len(loop.texts) == 16 + 2 * 8  # cell labels, then an arrow and its step number per step
    assert "first 8 drawn" in loop.get_title() and "4 steps" in fixed.get_title()
    assert len(fixed.patches) == 16
    with pytest.raises(ValueError):
        plot_blank_routes(4, 4, set(), 0, 1, {})


def test_blank_routes_given_as_steps_draw_each_arrow_from_where_it_starts():
    from tilelab.plots.solvers import plot_blank_routes

    # a dead end at 4: the search backs up to 8 and goes on to 12; the arrow to 12 starts at 8, not at 4
    steps = [(9, 8), (8, 4), (8, 12), (12, 13), (13, 9)]
    ax = plot_blank_routes(4, 4, {0, 5}, 9, 1, {"lap": steps}).axes[0]
    arrows = [(t.xyann, t.xy) for t in ax.texts if type(t).__name__ == "Annotation"]
    starts = [(round(x - 0.5), round(y - 0.5)) for (x, y), _ in arrows]   # (col, row) of each arrow's tail
    assert starts == [(1, 2), (0, 2), (0, 2), (0, 3), (1, 3)]              # cells 9, 8, 8, 12, 13
    assert "5 steps" in ax.get_title()
