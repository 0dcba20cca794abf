"""The AI lesson's figures: right content, clear errors on empty input."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from tilelab.game2048 import Direction  # noqa: E402
from tilelab.plots.game2048_ai import (  # noqa: E402
    plot_depth_tradeoff, plot_max_tiles, plot_reach, plot_scores, plot_values, tile_shares,
)



def test_max_tile_bars_stack_to_100_percent():
    fig = plot_max_tiles({"a": [64, 128, 128, 256], "b": [2048, 4096]})
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    heights = {}
    for patch in ax.patches:
        heights.setdefault(round(patch.get_x(), 3), 0.0)
        heights[round(patch.get_x(), 3)] += patch.get_height()
    assert sorted(round(h) for h in heights.values()) == [100, 100]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["64", "128", "256", "2048", "4096"]
    assert "games" in ax.get_xlabel()


def test_max_tile_footnote_fits_inside_the_figure():
    # six long player names with different game counts: the footnote is long, and the legend pushes the axes left
    names = ["random", "greedy", "corner", "monte-carlo-10", "expectimax-150k-nodes", "expectimax-450k-nodes"]
    fig = plot_max_tiles({n: [64 * 2 ** i] * (12 if i == 5 else 20 if i == 3 else 100) for i, n in enumerate(names)})
    fig.canvas.draw()
    label = fig.axes[0].xaxis.label
    box = label.get_window_extent()
    assert box.x0 >= 0 and box.x1 <= fig.bbox.x1  # nothing cut off at either edge
    assert all(f"{n} " in label.get_text().replace("\n", " ") for n in names)
    assert "\n" not in plot_max_tiles({"a": [64], "b": [128, 256]}).axes[0].get_xlabel()  # a short one stays one line


def test_tile_shares_counts_games():
    assert tile_shares([2048, 2048, 4096, 8192]) == {2048: 0.5, 4096: 0.25, 8192: 0.25}
    with pytest.raises(ValueError):
        tile_shares([])


def test_scores_depth_values_and_reach_figures():
    fig = plot_scores({"random": [1000, 1200, 900], "expectimax": [150000, 170000]})
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["random", "expectimax"]
    assert fig.axes[0].get_yscale() == "log"
    fig = plot_depth_tradeoff([1, 2, 3], [3000, 27000, 60000], [0.2, 0.3, 2.8])
    assert len(fig.axes) == 2 and [p.get_height() for p in fig.axes[0].patches] == [3000, 27000, 60000]
    assert [p.get_height() for p in fig.axes[1].patches] == [0.2, 0.3, 2.8]
    assert all(ax.get_yscale() == "linear" for ax in fig.axes)  # no log axis, no second axis on one panel
    assert [t.get_text() for t in fig.axes[1].texts] == ["0.2", "0.3", "2.8"]
    fig = plot_values({Direction.LEFT: 10.0, Direction.UP: 4.0, Direction.RIGHT: 7.0})
    colours = [p.get_facecolor() for p in fig.axes[0].patches]
    assert len(colours) == 3 and colours.count(colours[1]) == 1  # only the best (left) stands out
    fig = plot_reach({"corner": {2048: 0.0, 4096: 0.0}, "expectimax": {2048: 1.0, 4096: 0.9}})
    assert max(p.get_height() for p in fig.axes[0].patches) == pytest.approx(100)


@pytest.mark.parametrize("call", [
    lambda: plot_max_tiles({}), lambda: plot_scores({}), lambda: plot_values({}), lambda: plot_reach({}),
    lambda: plot_depth_tradeoff([1, 2], [3.0], [1.0, 2.0]),
])
def test_empty_or_ragged_input_is_a_clear_error(call):
    with pytest.raises(ValueError):
        call()


def test_values_chart_shows_differences_from_zero():
    values = {Direction.LEFT: 913_000.0, Direction.UP: 882_000.0, Direction.DOWN: 910_000.0}
    ax = plot_values(values).axes[0]
    widths = sorted(round(p.get_width()) for p in ax.patches)
    assert widths == [-31_000, -3_000, 0]  # gaps to the best move, not raw values near 882,000
    low, high = ax.get_xlim()
    assert low < -31_000 and high > 0
    assert any("913,000" in t.get_text() for t in ax.texts)
