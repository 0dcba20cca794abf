"""2048 pictures: every figure builds, and draws the arrows and numbers the data says."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from tilelab.game2048 import Board, play, slide_row, spawn_outcomes  # noqa: E402
from tilelab.plots.game2048 import (  # noqa: E402
    move_arrows,
    plot_board,
    plot_move,
    plot_score_comparison,
    plot_slide_stages,
    plot_spawn_map,
    slide_stages,
)

SWIFT_BOARD = Board.parse(
    """
    . 4 . .
    . . 4 .
    2 . 2 2
    2 . . .
    """
)



def _texts(ax):
    return [t.get_text() for t in ax.texts]


def test_plot_board_draws_every_tile_number():
    fig = plot_board(SWIFT_BOARD, title="start")
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert sorted(_texts(ax)) == sorted(str(v) for v in SWIFT_BOARD.tile_map().values())
    assert ax.get_title() == "start"


def test_plot_board_word_tiles():
    fig = plot_board(Board.parse("2 4\n. 8"), words={2: "seed", 4: "leaf"})
    assert sorted(_texts(fig.axes[0])) == sorted(["seed", "leaf", "8"])


@pytest.mark.parametrize("row", [[2, 0, 2, 4], [2, 2, 2, 2], [0, 0, 0, 2], [4, 2, 0, 0], [0, 0, 0, 0]])
def test_slide_stages_arrows(row):
    fig = plot_slide_stages(row)
    ax = fig.axes[0]
    tiles = sum(1 for v in row if v)
    tokens = len(slide_stages(row)["collapse"])
    # row -> condense and condense -> collapse: one arrow per tile; collapse -> convert: one per token
    assert len(move_arrows(ax)) == 2 * tiles + tokens
    assert any(t.startswith("move orders") for t in _texts(ax))


def test_slide_stages_data_for_the_swift_kinds():
    s = slide_stages([2, 2, 2, 2])
    assert s["collapse"] == [((0, 1), 4, "merge into a still tile"), ((2, 3), 4, "both move and merge")]
    assert s["convert"] == [((1,), 0, 4, True), ((2, 3), 1, 4, True)]
    assert s["result"] == slide_row([2, 2, 2, 2]).row
    s = slide_stages([0, 2, 0, 0])
    assert s["condense"] == [(1, 2, True)] and s["collapse"] == [((1,), 2, "move")]
    assert slide_stages([4, 2, 0, 0])["convert"] == []  # nothing moves: no orders


@pytest.mark.parametrize("direction", ["up", "down", "left", "right"])
def test_plot_move_draws_one_arrow_per_moving_tile(direction):
    fig = plot_move(SWIFT_BOARD, direction)
    before, after = fig.axes
    result = play(SWIFT_BOARD, direction)
    assert len(move_arrows(before)) == sum(1 for m in result.moves if m.moved)
    assert sorted(_texts(after)) == sorted(str(v) for v in result.board.tile_map().values())
    assert before.get_title() == "before" and direction in after.get_title()


def test_plot_move_says_when_nothing_moves():
    fig = plot_move(Board.parse("2 4\n. ."), "up")
    assert "nothing moves" in fig.axes[1].get_title()
    assert move_arrows(fig.axes[0]) == []


def test_spawn_map_shows_every_probability():
    fig = plot_spawn_map(SWIFT_BOARD, p_four=0.25)
    ax2, ax4 = fig.axes[:2]
    empty = len(SWIFT_BOARD.empty_cells())
    probs2 = [float(t.get_text()) for t in ax2.texts if t.get_gid() == "spawn-p"]
    probs4 = [float(t.get_text()) for t in ax4.texts if t.get_gid() == "spawn-p"]
    assert len(probs2) == len(probs4) == empty
    assert sum(probs2) + sum(probs4) == pytest.approx(1.0, abs=0.01)
    expected = {s.value: p for s, p in spawn_outcomes(SWIFT_BOARD, 0.25)}
    assert probs2[0] == pytest.approx(expected[2], abs=1e-3)
    assert probs4[0] == pytest.approx(expected[4], abs=1e-3)


def test_score_comparison_has_one_histogram_per_rule_set():
    fig = plot_score_comparison({"90/10": [100, 200, 300], "75/25": [150, 260, 400]})
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels == ["90/10: mean 200", "75/25: mean 270"]
