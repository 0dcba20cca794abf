"""The sliding-puzzle figures: each returns a Figure that shows what it says."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure

from tilelab.plots.sliding import (
    draw_board,
    plot_distance_histogram,
    plot_inversions,
    plot_move_effect,
    plot_neighbourhood,
    plot_board,
    plot_boards,
    plot_shuffle_comparison,
)
from tilelab.sliding import Board, distance_histogram, inversions



def _texts(ax):
    return [t.get_text() for t in ax.texts]


def test_board_picture_numbers_every_tile_but_the_blank():
    p = Board.parse("3 1 2\n4 . 5\n6 7 8")
    fig = plot_board(p, title="a board")
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert sorted(_texts(ax), key=int) == [str(t) for t in range(1, 9)]
    assert ax.get_title() == "a board"
    # the label of tile 3 sits in the top-left cell
    label = next(t for t in ax.texts if t.get_text() == "3")
    assert label.get_position() == (0.5, 0.5)


def test_picture_mode_draws_image_pieces():
    image = np.random.default_rng(0).random((60, 90, 3))
    fig = plot_board(Board.goal(2, 3), image=image, numbers=False)
    ax = fig.axes[0]
    assert len(ax.images) == 5 and not ax.texts
    # tile 1 shows the top-left piece of the picture
    np.testing.assert_array_equal(ax.images[0].get_array(), image[:30, :30])


def test_plot_puzzles_side_by_side_and_errors():
    g = Board.goal(3, 3)
    fig = plot_boards([g, g.slide(8), g.slide(6)], ["goal", "left", "up"])
    assert [ax.get_title() for ax in fig.axes] == ["goal", "left", "up"]
    with pytest.raises(ValueError, match="titles"):
        plot_boards([g], ["a", "b"])
    with pytest.raises(ValueError, match="at least one"):
        plot_boards([])


def test_inversion_diagram_draws_one_arc_per_inversion():
    p = Board.parse("2 4 3\n1 . 5")
    fig = plot_inversions(p)
    arcs = [a for a in fig.axes[1].patches if type(a).__name__ == "Arc"]
    assert len(arcs) == inversions(p) == 4
    assert fig.axes[1].get_title() == "4 inversions (even)"


def test_move_effect_titles_tell_the_rule_for_odd_and_even_widths():
    odd = plot_move_effect(Board.parse("1 5 2\n4 . 3\n7 8 6"))
    titles = [ax.get_title() for ax in odd.axes]
    assert titles[1] == "either: 3 moves left" and titles[2].startswith("or: 8 moves up, jumps 2")
    assert odd._suptitle.get_text()  # a heading says the two moves are alternatives
    assert titles[4].endswith("(same)")
    even = plot_move_effect(Board.parse("1 5 2 9\n4 . 3 10\n7 8 6 11\n12 13 14 15"))
    change = int(even.axes[5].get_title().split("(")[1].rstrip(")"))
    assert change % 2 == 1  # width 4: a vertical move jumps 3 tiles, odd change


def test_distance_histogram_bars_match_the_table():
    fig = plot_distance_histogram(2, 3)
    ax = fig.axes[0]
    heights = [int(b.get_height()) for b in ax.patches if type(b).__name__ == "Rectangle"]
    assert heights[: len(distance_histogram(2, 3))] == distance_histogram(2, 3).tolist()
    assert "360" in ax.get_title()
    assert plot_distance_histogram(2, 2, log=True).axes[0].get_yscale() == "log"


def test_shuffle_comparison_one_panel_per_method():
    fig = plot_shuffle_comparison(
        {"walk": [1, 3, 3, 5], "uniform": [2, 4, 6]}, reference=np.array([1, 2, 2, 2, 2, 2, 1])
    )
    assert [ax.get_title() for ax in fig.axes] == ["walk (mean 3.00)", "uniform (mean 4.00)"]
    assert all(ax.get_legend() is not None for ax in fig.axes)
    with pytest.raises(ValueError, match="at least one"):
        plot_shuffle_comparison({})


def test_draw_board_on_a_given_axes():
    fig, ax = plt.subplots()
    assert draw_board(ax, Board.goal(2, 2), highlight=(3,)) is ax
    assert len(ax.texts) == 3


def test_neighbourhood_draws_each_board_once_with_every_move_as_an_edge():
    from matplotlib.collections import LineCollection

    start = Board.parse("1 2 3\n4 . 5\n6 7 8")
    fig = plot_neighbourhood(start, depth=2)
    data = fig.neighbourhood
    boards = [b for layer in data["layers"] for b in layer]
    assert len(boards) == len(set(boards)) == 1 + 4 + 8  # no board drawn twice (no way back to start)
    assert len(fig.axes) == 1 + len(boards)  # the edge layer + one small axes per board
    lines = [c for c in fig.axes[0].collections if isinstance(c, LineCollection)]
    assert len(lines) == 1 and len(lines[0].get_segments()) == len(data["edges"]) == 12
    for a, b in data["edges"]:  # every edge is a legal move
        assert b in [child for _, child in a.successors("single")]
    # the multi-tile metric has moves inside a layer (touch 7, or touch 8 then 7)
    multi = plot_neighbourhood(Board.goal(3, 3), depth=2, metric="multi").neighbourhood
    layer = {b: k for k, level in enumerate(multi["layers"]) for b in level}
    assert [len(level) for level in multi["layers"]] == [1, 4, 8]
    assert any(layer[a] == layer[b] for a, b in multi["edges"])
    with pytest.raises(ValueError, match="depth"):
        plot_neighbourhood(start, depth=9)


def test_inversion_strips_stay_readable_on_4x4():
    p = Board.parse("1 5 2 9\n4 . 3 10\n7 8 6 11\n12 13 14 15")
    for fig, strip in ((plot_inversions(p), 1), (plot_move_effect(p), 3)):
        ax = fig.axes[strip]
        width_inches = ax.get_position().width * fig.get_figwidth()
        assert width_inches / 15 >= 0.45  # at least ~0.45 inch per tile
        assert min(t.get_fontsize() for t in ax.texts) >= 12
    effect = plot_move_effect(p)
    assert all(ax.get_position().width > 0.8 for ax in effect.axes[3:])  # strips span the figure


def test_shuffle_comparison_names_its_axis():
    fig = plot_shuffle_comparison({"walk": [30, 31]}, xlabel="Manhattan distance")
    assert fig.axes[0].get_xlabel() == "Manhattan distance"
    assert plot_shuffle_comparison({"walk": [3]}).axes[0].get_xlabel() == "optimal moves to the goal"


def test_blank_cell_heatmap_shows_chances_never_clips_and_keeps_numbers_readable():
    from tilelab.plots.sliding import plot_blank_cells

    skewed = np.array([[0.0, 0.318, 0.0], [0.2, 0.0, 0.2], [0.0, 0.282, 0.0]])
    fig = plot_blank_cells([np.full((3, 3), 1 / 9), skewed], ["fair", "skewed"])
    norm = fig.axes[1].images[0].norm
    assert norm.vmin == 0 and norm.vmax == pytest.approx(0.318)      # the scale runs over chances: every value fits
    assert norm.vcenter == pytest.approx(1 / 9)                       # fair is the middle (white)
    assert "chance" in fig.axes[-1].get_ylabel()                      # the colour bar says what it shows
    image = fig.axes[1].images[0]
    assert image.get_array().min() == 0 and image.get_array().max() == pytest.approx(0.318)  # the chances themselves
    colours = {t.get_text(): t.get_color() for t in fig.axes[1].texts}
    assert colours["0.318"] == "white" and colours["0.000"] in ("white", "black")  # dark red cell: white text
    assert {t.get_color() for t in fig.axes[0].texts} == {"black"}  # fair cells are pale
    plt.close(fig)
