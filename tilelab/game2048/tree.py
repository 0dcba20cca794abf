"""The expectimax tree as data: every max, chance and leaf node of a small search, and the order the
search visits them, so a lesson can step through it (pure: no drawing here). The search is the
readable one of :mod:`tilelab.game2048.ai`, watched through its ``observer`` hook: one recursion, traced.

A **max node** is a board where we move (its value is the best child's); a **chance node** is the
board right after our move, before the spawn (its value is the probability-weighted average of its
children); a **leaf** is a board scored by the evaluation function. A max node with no legal move is
a lost game (value 0). ``steps`` lists the search's events in order: ``"visit"`` when it enters a
node, ``"value"`` when the node's value is known (children first, as the recursion returns).

>>> from tilelab.game2048 import Board
>>> tree = expectimax_tree(Board.parse("8 4\\n2 ."), depth=1, evaluate=lambda b: 1.0)
>>> [(n.kind, n.label) for n in tree.nodes[:3]]
[('max', 'root'), ('chance', 'down'), ('leaf', '2 at (0, 1)')]
>>> tree.best, round(tree.root.value, 3), len(tree.steps) == 2 * len(tree.nodes)
(Direction.DOWN, 1.0, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from tilelab.game2048.board import DEFAULT_P_FOUR, Board, Direction

__all__ = ["TreeNode", "TreeStep", "ExpectimaxTree", "expectimax_tree", "MAX_TREE_NODES"]

MAX_TREE_NODES = 2000  #: a tree bigger than this is refused (it could not be drawn or read anyway)
LOST = 0.0  #: value of a board where no move is left
KINDS = ("max", "chance", "leaf")


@dataclass(frozen=True)
class TreeNode:
    """One node: its kind, board, the edge that leads to it, and its value once searched."""

    id: int
    parent: int | None
    kind: str  # "max", "chance" or "leaf"
    board: Board
    label: str  # the edge from the parent: "down", "2 at (0, 1)", or "root"
    probability: float  # probability of that edge (1.0 below a max node)
    level: int  # 0 for the root, +1 per edge
    value: float
    children: tuple[int, ...]


@dataclass(frozen=True)
class TreeStep:
    """One event of the search: ``"visit"`` (entered ``node``) or ``"value"`` (its value is known)."""

    node: int
    event: str


@dataclass(frozen=True)
class ExpectimaxTree:
    """A whole search: its nodes (root first, depth-first order), its events, and the chosen move."""

    nodes: tuple[TreeNode, ...]
    steps: tuple[TreeStep, ...]
    best: Direction | None
    depth: int

    @property
    def root(self) -> TreeNode:
        """The max node the search started from."""
        return self.nodes[0]

    def state(self, step: int) -> tuple[set[int], dict[int, float]]:
        """After the first ``step`` events: the nodes visited so far and the values known so far.

        >>> from tilelab.game2048 import Board
        >>> t = expectimax_tree(Board.parse("8 4\\n2 ."), depth=1, evaluate=lambda b: 1.0)
        >>> t.state(0), t.state(1)
        ((set(), {}), ({0}, {}))
        """
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= len(self.steps):
            raise ValueError(f"step must be an int in 0..{len(self.steps)}, got {step!r}")
        visited: set[int] = set()
        known: dict[int, float] = {}
        for s in self.steps[:step]:
            if s.event == "visit":
                visited.add(s.node)
            else:
                known[s.node] = self.nodes[s.node].value
        return visited, known

    def describe(self, step: int) -> str:
        """One sentence on event number ``step`` (1-based: the event that ``state(step)`` just applied)."""
        if step == 0:
            return "before the search: nothing visited yet"
        s = self.steps[step - 1]
        node = self.nodes[s.node]
        name = {"max": "max node (we move)", "chance": "chance node (the game spawns)", "leaf": "leaf"}[node.kind]
        where = "the root" if node.parent is None else f"'{node.label}'"
        if s.event == "visit":
            return f"step {step}: visit the {name} reached by {where}"
        kids = [self.nodes[c] for c in node.children]
        if node.kind == "leaf":
            how = "scored by the evaluation function"
        elif node.kind == "max":
            how = "best child" if kids else "no legal move: the game is lost"
        else:
            how = " + ".join(f"{k.probability:.3g}×{k.value:,.4g}" for k in kids)
        return f"step {step}: value of the {name} at {where} = {node.value:,.4g} ({how})"


def _check_depth(depth: object) -> int:
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 4:
        raise ValueError(f"depth must be an int in 1..4 (our moves to look ahead), got {depth!r}")
    return depth


def expectimax_tree(board: Board, depth: int = 1, evaluate: Callable[[Board], float] | None = None,
                    p_four: float = DEFAULT_P_FOUR, *, max_nodes: int = MAX_TREE_NODES) -> ExpectimaxTree:
    """Search ``board`` with :func:`tilelab.game2048.ai.best_value` and keep every node as data (its observer).

    ``depth`` counts our moves; the leaves (boards after the last spawn) are scored by ``evaluate``
    (default: the lesson's heuristic, :func:`tilelab.game2048.ai.evaluate`). The root's children's
    values are exactly ``expectimax_values(board, depth, evaluate, p_four)``.

    >>> t = expectimax_tree(Board.parse("8 4\\n2 ."), depth=2, evaluate=lambda b: 1.0)
    >>> {t.nodes[c].label: round(t.nodes[c].value, 3) for c in t.root.children}
    {'down': 0.1, 'right': 0.9}
    """
    if not isinstance(board, Board):
        raise TypeError(f"board must be a tilelab.game2048.Board, got {type(board).__name__}; use Board.parse(...)")
    depth = _check_depth(depth)
    from tilelab.game2048 import ai  # loads the fast engine only when a tree is asked for

    recorder = _TreeRecorder(max_nodes)
    recorder.enter("max", board, "root", 1.0)
    recorder.leave(ai.best_value(board, depth, ai.evaluate if evaluate is None else evaluate, p_four,
                                 observer=recorder))
    nodes = tuple(
        TreeNode(i, r["parent"], r["kind"], r["board"], r["label"], r["p"], r["level"], r["value"], tuple(r["children"]))
        for i, r in enumerate(recorder.records)
    )
    kids = [nodes[c] for c in nodes[0].children]
    best = Direction(max(kids, key=lambda n: n.value).label) if kids else None
    return ExpectimaxTree(nodes, tuple(recorder.steps), best, depth)


class _TreeRecorder:
    """A :class:`tilelab.game2048.ai.SearchObserver` that keeps every node and event of the search."""

    def __init__(self, max_nodes: int) -> None:
        self.max_nodes = max_nodes
        self.records: list[dict[str, Any]] = []
        self.steps: list[TreeStep] = []
        self.path: list[int] = []  # the nodes entered and not yet left, root first

    def enter(self, kind: str, board: Board, label: str, probability: float) -> None:
        """A new node under the one entered last: a ``"visit"`` event."""
        if len(self.records) >= self.max_nodes:
            raise ValueError(f"the tree has more than {self.max_nodes} nodes; use a smaller board, fewer tiles "
                             f"to place, or a smaller depth (or raise max_nodes)")
        parent = self.path[-1] if self.path else None
        level = 0 if parent is None else self.records[parent]["level"] + 1
        self.records.append({"parent": parent, "kind": kind, "board": board, "label": label, "p": probability,
                             "level": level, "value": LOST, "children": []})
        node = len(self.records) - 1
        if parent is not None:
            self.records[parent]["children"].append(node)
        self.steps.append(TreeStep(node, "visit"))
        self.path.append(node)

    def leave(self, value: float) -> None:
        """The node entered last has its value: a ``"value"`` event."""
        node = self.path.pop()
        self.records[node]["value"] = float(value)
        self.steps.append(TreeStep(node, "value"))
