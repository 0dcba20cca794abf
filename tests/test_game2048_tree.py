"""The expectimax tree as data, its picture and its stepper (headless)."""

from __future__ import annotations

import math

import pytest

from tilelab.game2048 import Board, ai
from tilelab.game2048.tree import ExpectimaxTree, expectimax_tree
from tilelab.exercises.game2048_ai import game_boards

LESSON_BOARD = Board.parse("8 4\n2 .")


def alive(board):
    return 1.0


def test_root_children_agree_with_the_readable_expectimax():
    for board in [LESSON_BOARD, *game_boards(2, 6), *game_boards(3, 2)]:
        for depth in (1, 2):
            if len(board.empty_cells()) > 2 and depth == 2 and board.size == 3:
                continue  # keep the test quick: 3x3 boards at depth 1 only when crowded
            tree = expectimax_tree(board, depth, evaluate=ai.evaluate)
            want = {d.value: v for d, v in ai.expectimax_values(board, depth).items()}
            got = {tree.nodes[c].label: tree.nodes[c].value for c in tree.root.children}
            assert got.keys() == want.keys()
            assert all(math.isclose(got[k], want[k], rel_tol=1e-12) for k in want)


def test_node_kinds_values_and_probabilities_fit_together():
    tree = expectimax_tree(LESSON_BOARD, 2, evaluate=alive)
    assert {tree.nodes[c].label: round(tree.nodes[c].value, 12) for c in tree.root.children} == {"down": 0.1, "right": 0.9}
    assert tree.best.value == "right" and tree.root.value == pytest.approx(0.9)
    for node in tree.nodes:
        kids = [tree.nodes[c] for c in node.children]
        if node.kind == "chance":
            assert sum(k.probability for k in kids) == pytest.approx(1.0)
            assert node.value == pytest.approx(sum(k.probability * k.value for k in kids))
        elif node.kind == "max":
            assert all(k.kind == "chance" for k in kids)
            assert node.value == (max(k.value for k in kids) if kids else 0.0)
        else:
            assert node.kind == "leaf" and not kids and node.value == 1.0
    lost = [n for n in tree.nodes if n.kind == "max" and not n.children and n.parent is not None]
    assert [str(n.board) for n in lost] == ["8 2\n2 4", "8 4\n4 2"]  # the two dead boards of the hand example


def test_steps_visit_before_value_and_children_before_parents():
    tree = expectimax_tree(LESSON_BOARD, 2, evaluate=alive)
    order = {(s.node, s.event): i for i, s in enumerate(tree.steps)}
    assert len(order) == len(tree.steps) == 2 * len(tree.nodes)
    for node in tree.nodes:
        assert order[(node.id, "visit")] < order[(node.id, "value")]
        for c in node.children:
            assert order[(node.id, "visit")] < order[(c, "visit")] and order[(c, "value")] < order[(node.id, "value")]
    visited, known = tree.state(len(tree.steps))
    assert visited == set(range(len(tree.nodes))) and len(known) == len(tree.nodes)
    assert "0.9" in tree.describe(len(tree.steps)) and "root" in tree.describe(1)


def test_bad_input_is_a_clear_error():
    with pytest.raises(TypeError, match="Board.parse"):
        expectimax_tree("8 4\n2 .", 1)
    with pytest.raises(ValueError, match="depth"):
        expectimax_tree(LESSON_BOARD, 0)
    with pytest.raises(ValueError, match="smaller"):
        expectimax_tree(Board.empty(4).with_tile((0, 0), 2), 2, evaluate=alive, max_nodes=50)
    with pytest.raises(ValueError, match="step"):
        expectimax_tree(LESSON_BOARD, 1, evaluate=alive).state(99)


def test_picture_shows_only_known_values_and_highlights_the_current_node():
    from tilelab.plots.game2048_ai import plot_expectimax_tree

    tree = expectimax_tree(LESSON_BOARD, 2, evaluate=alive)
    ax = plot_expectimax_tree(tree, 0).axes[0]
    assert not [t for t in ax.texts if t.get_gid() == "node-value"]
    ax = plot_expectimax_tree(tree).axes[0]
    assert len([t for t in ax.texts if t.get_gid() == "node-value"]) == len(tree.nodes)
    kinds = sorted(c.get_gid() for c in ax.collections if (c.get_gid() or "").startswith("node-"))
    assert kinds.count("node-chance") == sum(n.kind == "chance" for n in tree.nodes)
    w, h = plot_expectimax_tree(tree).get_size_inches()
    assert w >= 8 and h >= 5  # readable on a laptop


def test_stepper_moves_with_buttons_and_slider():
    from tilelab.widgets.expectimax_tree import TreeStepper

    tree = expectimax_tree(LESSON_BOARD, 2, evaluate=alive)
    stepper = TreeStepper(tree, step=0)
    assert stepper.step == 0 and "before the search" in stepper.caption.value
    first = stepper.image.value
    stepper.forward.click()
    assert stepper.step == 1 and "visit the max node" in stepper.caption.value
    assert stepper.image.value != first and stepper.image.value[:4] == b"\x89PNG"
    stepper.back.click()
    stepper.back.click()  # clamped at 0
    assert stepper.step == 0
    stepper.slider.value = len(tree.steps)
    assert "0.9" in stepper.caption.value
    with pytest.raises(TypeError):
        TreeStepper("not a tree")
    assert isinstance(stepper.tree, ExpectimaxTree)


def test_stepper_output_carries_its_picture_for_viewers_without_a_kernel():
    import base64

    from tilelab.widgets.expectimax_tree import TreeStepper

    stepper = TreeStepper(expectimax_tree(LESSON_BOARD, 2, evaluate=alive), step=3)
    bundle = stepper._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert "application/vnd.jupyter.widget-view+json" in data
    assert base64.b64decode(data["image/png"]) == stepper.image.value
    assert "run this cell" in data["text/plain"] and "VBox" not in data["text/plain"]
