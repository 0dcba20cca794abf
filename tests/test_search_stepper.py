"""The search stepper, driven headless: buttons, slider and menu move through the traces."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from tilelab.plots.solvers import plot_search_step  # noqa: E402
from tilelab.sliding import manhattan, shuffle  # noqa: E402
from tilelab.sliding.trace import astar_trace, bfs_trace, idastar_trace  # noqa: E402
from tilelab.widgets.search_stepper import SearchStepper  # noqa: E402
from tilelab.widgets.testing import click_button, find_button  # noqa: E402

BOARD = shuffle(3, 3, rng=4, method="walk", steps=8)


@pytest.fixture(scope="module")
def traces():
    return {"BFS": bfs_trace(BOARD), "A*": astar_trace(BOARD, manhattan), "IDA*": idastar_trace(BOARD, manhattan)}


def test_buttons_step_and_clamp(traces):
    stepper = SearchStepper(traces)
    first = stepper.image.value
    click_button(stepper, "next ▶")
    click_button(stepper, "next ▶")
    assert stepper.step == 2 and stepper.image.value != first
    assert "step 3 of" in stepper.caption.value
    click_button(stepper, "◀ back")
    assert stepper.step == 1
    click_button(stepper, "⏮ first")
    click_button(stepper, "◀ back")  # cannot go before the first step
    assert stepper.step == 0 and stepper.image.value == first
    click_button(stepper, "last ⏭")
    assert stepper.step == len(traces["BFS"].steps) - 1
    click_button(stepper, "next ▶")
    assert stepper.step == len(traces["BFS"].steps) - 1
    assert "moves" in stepper.caption.value  # the last step says the goal is found


def test_slider_and_menu(traces):
    stepper = SearchStepper(traces)
    stepper.slider.value = 3
    assert "step 4 of" in stepper.caption.value
    stepper.menu.value = "IDA*"
    assert stepper.name == "IDA*" and stepper.step == 0
    assert stepper.slider.max == stepper.play.max == len(traces["IDA*"].steps) - 1
    assert "bound" in stepper.caption.value
    stepper.show(10**6)
    assert stepper.caption.value.count("goal reached") == 1  # IDA* expands the goal itself
    with pytest.raises(ValueError, match="no search called"):
        stepper.choose("DFS")


def test_one_trace_display_and_bad_input(traces):
    stepper = SearchStepper(traces["A*"])
    assert list(stepper.traces) == ["astar"]
    data = stepper._repr_mimebundle_()
    data = data[0] if isinstance(data, tuple) else data
    assert "image/png" in data and "run this cell" in data["text/plain"]
    assert find_button(stepper, "last ⏭") is stepper.buttons[3]
    with pytest.raises(TypeError):
        SearchStepper({"x": 3})
    from tilelab.sliding import Board

    with pytest.raises(ValueError, match="no steps"):
        SearchStepper(bfs_trace(Board.goal(3, 3)))


def test_no_figure_is_left_open(traces):
    before = len(plt.get_fignums())
    stepper = SearchStepper(traces)
    click_button(stepper, "next ▶")
    assert len(plt.get_fignums()) == before


@pytest.mark.parametrize("name", ["BFS", "A*", "IDA*"])
def test_step_picture_shows_the_sets(traces, name):
    trace = traces[name]
    step = len(trace.steps) // 2
    fig = plot_search_step(trace, step)
    board_ax, map_ax = fig.axes[:2]
    labels = [t.get_text() for t in map_ax.get_legend().get_texts()]
    assert any(label.startswith("open set") for label in labels)
    assert any(label.startswith("closed set") for label in labels)
    if name == "IDA*":
        assert any("bound" in label for label in labels) and "bound" in board_ax.get_title()
        assert any("path" in label for label in labels)
    assert fig.get_size_inches()[0] >= 12
    with pytest.raises(ValueError, match="step must be"):
        plot_search_step(trace, len(trace.steps))
    plt.close("all")
