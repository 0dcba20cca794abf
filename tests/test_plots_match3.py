"""The match-3 figures: each returns a Figure that shows what it says."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, Polygon, Rectangle

from tilelab.match3 import EMPTY, Board, find_matches, new_board, swap
from tilelab.match3.candies import CANDIES, candy_style
from tilelab.plots.match3 import (
    MATCH_COLOUR,
    REFILL_COLOUR,
    plot_board,
    plot_boards,
    plot_cascade,
    plot_cascade_lengths,
    plot_dead_heatmap,
    plot_four_directions,
)

CASCADE_BOARD = Board.parse("21003\n32213\n30302\n03211\n00322", kinds=4)



def candies(ax):
    return [p for p in ax.patches if isinstance(p, Polygon)]


def outlined(ax, colour):
    want = matplotlib.colors.to_rgba(colour)
    return [p for p in ax.patches if isinstance(p, Rectangle) and not p.get_fill() and p.get_edgecolor() == want]


def test_every_kind_has_its_own_colour_and_shape():
    assert len({s.colour for s in CANDIES}) == len(CANDIES)
    assert len({s.outline for s in CANDIES}) == len(CANDIES)
    with pytest.raises(ValueError):
        candy_style(EMPTY)


def test_plot_board_draws_one_candy_per_full_cell_in_the_kinds_colour():
    board = Board.parse("01.\n234\n5.6", kinds=7)
    fig = plot_board(board, title="t")
    ax = fig.axes[0]
    assert isinstance(fig, Figure) and ax.get_title() == "t"
    drawn = candies(ax)
    assert len(drawn) == 7
    colours = sorted(matplotlib.colors.to_hex(p.get_facecolor()) for p in drawn)
    assert colours == sorted(candy_style(k).colour.lower() for k in range(7))


def test_matched_groups_are_outlined():
    board = Board.parse("0001\n1021\n2012")
    fig = plot_board(board, groups=find_matches(board))
    assert len(outlined(fig.axes[0], MATCH_COLOUR)) == 5


def test_plot_boards_side_by_side_and_rejects_nothing():
    fig = plot_boards([new_board(4, 4, 4, rng=0), new_board(4, 4, 4, rng=1)], ["a", "b"])
    assert [ax.get_title() for ax in fig.axes] == ["a", "b"]
    with pytest.raises(ValueError):
        plot_boards([])


def test_cascade_storyboard_has_four_panels_per_step_and_the_data_of_each():
    result = swap(CASCADE_BOARD, (3, 1), (3, 2), rng=0)
    fig = plot_cascade(result)
    boards = [ax for ax in fig.axes if ax.patches]
    assert len(boards) == 1 + 4 * result.cascades
    for i, step in enumerate(result.steps):
        matched, cleared, fallen, refilled = boards[1 + 4 * i: 5 + 4 * i]
        assert matched.get_title().startswith(f"step {step.index}:")
        assert len(outlined(matched, MATCH_COLOUR)) == sum(len(g.cells) for g in step.groups)
        assert len(candies(cleared)) == sum(k != EMPTY for row in step.cleared.grid for k in row)
        assert sum(isinstance(p, FancyArrowPatch) for p in fallen.patches) == len(step.falls)
        assert len(outlined(refilled, REFILL_COLOUR)) == len(step.refills)
        assert f"+{step.score}" in refilled.get_title()
    assert len(plot_cascade(result, max_steps=1).axes) == 6


def test_an_invalid_swap_storyboard_says_swapped_back():
    result = swap(Board.parse("0120\n1201\n0012\n2102"), (0, 0), (0, 1), rng=0)
    assert "swapped back" in plot_cascade(result).axes[0].get_title()


def test_four_directions_shows_the_counts():
    fig = plot_four_directions(Board.parse("1021\n0001\n2012"), (1, 1))
    ax = fig.axes[0]
    assert sorted(t.get_text() for t in ax.texts) == ["1", "1", "1", "1"]
    assert "a run" in ax.get_title()


def test_dead_heatmap_labels_cells_and_checks_shape():
    table = np.array([[0.1, 0.2], [0.0, 0.05]])
    fig = plot_dead_heatmap(table, [5, 9], [4, 7], samples=10)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.texts] == ["10.00%", "20.00%", "0.00%", "5.00%"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["5x5", "9x9"]
    with pytest.raises(ValueError, match="does not match"):
        plot_dead_heatmap(table, [5], [4, 7])


def test_cascade_histogram_bars_are_shares():
    fig = plot_cascade_lengths([1, 1, 1, 2, 4])
    heights = [p.get_height() for p in fig.axes[0].patches]
    assert heights == pytest.approx([0.6, 0.2, 0.0, 0.2])
    with pytest.raises(ValueError):
        plot_cascade_lengths([])


def _title_boxes(fig):
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    return [ax.title.get_window_extent(renderer) for ax in fig.axes if ax.get_title()]


@pytest.mark.parametrize("titles", [["after the swap: two runs", "lowest first: the 0s torn apart"],
                                    ["the cross: CheckDispel takes the 3 in black", "after the fall: the rest (black) stays"]])
def test_long_titles_of_small_boards_do_not_overlap(titles):
    from tilelab.match3.special_board import SpecialBoard
    from tilelab.plots.match3 import plot_special_boards

    small = Board.parse("0120\n1201\n0012\n2102")
    for fig in (plot_boards([small, small], titles),
                plot_special_boards([SpecialBoard.from_board(small)] * 2, titles)):
        left, right = _title_boxes(fig)
        assert left.x1 <= right.x0, (left, right)
        assert all(box.x0 >= 0 and box.x1 <= fig.bbox.width for box in (left, right))
