"""Pictures for the 2048 AI lesson; every function returns a matplotlib ``Figure``.

- :func:`plot_max_tiles`: for each player, the share of games reaching each max tile (stacked bars);
- :func:`plot_scores`: each player's final scores (box plot with every game as a dot);
- :func:`plot_depth_tradeoff`: search depth against strength (median score) and speed (ms per move);
- :func:`plot_values`: one decision's expected value per direction (the "thinking" panel as a chart);
- :func:`plot_reach`: share of games reaching 2048, 4096, 8192... per player;
- :func:`plot_tuples`: the cells of n-tuples on the 4x4 grid, one tuple per panel (lessons 6a, 6b).

Inputs are plain data (``{player: [max tiles]}``, ``{player: [scores]}``, rows of numbers), so the
lesson can plot saved benchmark results as easily as fresh games.

>>> fig = plot_max_tiles({"random": [64, 128, 128], "corner": [256, 512, 256]})
>>> [t.get_text() for t in fig.axes[0].get_xticklabels()]
['random', 'corner']
"""

from __future__ import annotations

from typing import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from tilelab.game2048 import Direction

__all__ = ["plot_max_tiles", "plot_scores", "plot_depth_tradeoff", "plot_values", "plot_reach", "tile_shares",
           "plot_expectimax_tree", "tree_layout", "plot_tuples"]

ARROWS = {Direction.UP: "↑ up", Direction.DOWN: "↓ down", Direction.LEFT: "← left", Direction.RIGHT: "→ right"}
BEST_COLOUR, OTHER_COLOUR = "#1b7f3b", "#bbada0"
SCORE_COLOUR, SPEED_COLOUR = "#1f77b4", "#d62728"
LABELS_BEFORE_TILT = 5  # more bars than this: tilt the player names so they do not overlap


def tile_shares(max_tiles: Sequence[int]) -> dict[int, float]:
    """Share of games ending with each max tile, smallest tile first.

    >>> tile_shares([256, 512, 512, 1024])
    {256: 0.25, 512: 0.5, 1024: 0.25}
    """
    if len(max_tiles) == 0:
        raise ValueError("no games to count: pass at least one max tile")
    values, counts = np.unique(np.asarray(max_tiles, dtype=np.int64), return_counts=True)
    return {int(v): float(c) / len(max_tiles) for v, c in zip(values, counts)}


def _tile_colours(tiles: Sequence[int]) -> dict[int, tuple]:
    cmap = plt.get_cmap("viridis")
    ordered = sorted(tiles)
    return {t: cmap(i / max(1, len(ordered) - 1)) for i, t in enumerate(ordered)}


def plot_max_tiles(results: Mapping[str, Sequence[int]], *, title: str = "Largest tile reached") -> Figure:
    """Stacked bars: for each player the share of its games that ended with each max tile."""
    if not results:
        raise ValueError("no players to plot: pass {player name: [max tile of each game]}")
    shares = {name: tile_shares(tiles) for name, tiles in results.items()}
    tiles = sorted({t for s in shares.values() for t in s})
    colours = _tile_colours(tiles)
    fig, ax = plt.subplots(figsize=(min(12.0, 1.6 + 1.0 * len(results)), 3.8))
    names = list(results)
    bottom = np.zeros(len(names))
    for tile in tiles:
        heights = np.array([100 * shares[n].get(tile, 0.0) for n in names])
        ax.bar(names, heights, bottom=bottom, color=colours[tile], label=str(tile), edgecolor="white")
        bottom += heights
    ax.set_ylabel("% of games")
    ax.set_ylim(0, 100)
    ax.set_title(title)
    if len(names) > LABELS_BEFORE_TILT:
        ax.tick_params(axis="x", labelrotation=35)
        for label in ax.get_xticklabels():
            label.set_horizontalalignment("right")
    ax.legend(title="max tile", bbox_to_anchor=(1.02, 1), loc="upper left", fontsize=8)
    counts = "games per player: " + ", ".join(f"{n} {len(results[n])}" for n in names)
    sizes = {len(t) for t in results.values()}
    counts = f"{sizes.pop()} games per player" if len(sizes) == 1 else counts
    _fit_footnote(fig, ax.set_xlabel(counts, fontsize=8, color="#666"))
    return fig


def _fit_footnote(fig: Figure, label) -> None:
    """Lay the figure out, breaking the footnote ``label`` into lines (at its commas) until it fits inside the
    figure: a long list of players, centred under axes pushed left by the legend, would be cut off at the edge.
    """
    parts = label.get_text().split(", ")
    for lines in range(1, len(parts) + 1):
        per_line = -(-len(parts) // lines)  # ceiling division: parts per line
        label.set_text(",\n".join(", ".join(parts[i:i + per_line]) for i in range(0, len(parts), per_line)))
        fig.tight_layout()
        box = label.get_window_extent(fig.canvas.get_renderer())
        if box.x0 >= 0 and box.x1 <= fig.bbox.x1:
            return


def plot_scores(results: Mapping[str, Sequence[float]], *, title: str = "Final score", log: bool = True) -> Figure:
    """Each player's final scores: a box plot with every game as a dot (log scale by default)."""
    if not results:
        raise ValueError("no players to plot: pass {player name: [score of each game]}")
    names = list(results)
    data = [np.asarray(results[n], dtype=float) for n in names]
    fig, ax = plt.subplots(figsize=(1.6 + 1.3 * len(names), 3.8))
    ax.boxplot(data, showfliers=False)
    ax.set_xticks(range(1, len(names) + 1), names)
    rng = np.random.default_rng(0)  # fixed jitter: the same picture every run
    for i, values in enumerate(data, start=1):
        ax.scatter(i + rng.uniform(-0.15, 0.15, len(values)), values, s=10, alpha=0.6, color=SCORE_COLOUR)
        if len(values):
            ax.annotate(f"{np.median(values):,.0f}", (i + 0.27, np.median(values)), xytext=(2, 0),
                        textcoords="offset points", ha="left", va="center", fontsize=7)
    if log:
        ax.set_yscale("log")
    ax.set_ylabel("score (median written beside each box)")
    ax.set_title(title)
    fig.tight_layout()
    return fig


def plot_depth_tradeoff(depths: Sequence[int], scores: Sequence[float], ms_per_move: Sequence[float], *,
                        title: str = "Deeper search: stronger, slower") -> Figure:
    """Two panels side by side, both with depth on x and plain (not log) axes: median score, and ms per move.

    Each bar has its value written on it, so a small bar still reads.
    """
    if not (len(depths) == len(scores) == len(ms_per_move)) or not depths:
        raise ValueError("depths, scores and ms_per_move must be equally long and not empty")
    fig, (left, right) = plt.subplots(1, 2, figsize=(8.5, 3.4))
    labels = [str(d) for d in depths]
    for ax, values, colour, name, fmt in ((left, scores, SCORE_COLOUR, "median score", "{:,.0f}"),
                                          (right, ms_per_move, SPEED_COLOUR, "milliseconds per move", "{:.2g}")):
        bars = ax.bar(labels, values, color=colour)
        for bar, value in zip(bars, values):
            ax.annotate(fmt.format(value), (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                        xytext=(0, 2), textcoords="offset points", ha="center", va="bottom", fontsize=9)
        ax.set_xlabel("search depth (our moves looked ahead)")
        ax.set_ylabel(name)
        ax.set_ylim(0, max(values) * 1.18)
        ax.set_title(name)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def plot_values(values: Mapping[Direction, float], chosen: Direction | None = None, *,
                title: str = "Each move's expected value, minus the best one") -> Figure:
    """Horizontal bars: how far each direction's expected value falls behind the best (the axis starts at 0).

    Expected values of a strong heuristic are large and close together (e.g. 882,000 against 913,000),
    so the bars show the *difference* to the best move, and the absolute value is written beside each bar.

    >>> fig = plot_values({Direction.LEFT: 900.0, Direction.UP: 870.0})
    >>> bool(fig.axes[0].get_xlim()[1] >= 0.0), [round(p.get_width()) for p in fig.axes[0].patches]
    (True, [-30, 0])
    """
    if not values:
        raise ValueError("no values to plot (the game is over: no legal move)")
    best = chosen if chosen is not None else max(values, key=values.get)
    order = [d for d in (Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT) if d in values]
    fig, ax = plt.subplots(figsize=(6.5, 0.9 + 0.5 * len(order)))
    top = values[best]
    gaps = [values[d] - top for d in order]
    ax.barh([ARROWS[d] for d in order], gaps, color=[BEST_COLOUR if d == best else OTHER_COLOUR for d in order])
    low = min(gaps)
    span = -low or abs(top) * 0.01 or 1.0
    ax.set_xlim(low - 0.25 * span, 0.9 * span)
    ax.axvline(0, color="#333", lw=1)
    for y, (d, gap) in enumerate(zip(order, gaps)):
        text = f" {values[d]:,.0f}" + (" (chosen)" if d == best else f"  ({gap:+,.0f})")
        ax.text(max(gap, 0.0), y, text, va="center", ha="left", fontsize=9)
    ax.set_xlabel("expected value minus the chosen move's")
    ax.invert_yaxis()
    ax.set_title(title)
    fig.tight_layout()
    return fig


def plot_reach(reach: Mapping[str, Mapping[int, float]], *, title: str = "Share of games reaching a tile") -> Figure:
    """Grouped bars: for each player, % of games reaching each tile (``{player: {tile: share}}``)."""
    if not reach:
        raise ValueError("nothing to plot: pass {player name: {tile: share of games 0..1}}")
    tiles = sorted({t for r in reach.values() for t in r})
    names = list(reach)
    width = 0.8 / len(names)
    fig, ax = plt.subplots(figsize=(3.5 + 1.1 * len(tiles), 3.6))
    x = np.arange(len(tiles))
    for i, name in enumerate(names):
        heights = [100 * reach[name].get(t, 0.0) for t in tiles]
        ax.bar(x + (i - (len(names) - 1) / 2) * width, heights, width, label=name)
    ax.set_xticks(x, [str(t) for t in tiles])
    ax.set_xlabel("tile")
    ax.set_ylabel("% of games reaching it")
    ax.set_ylim(0, 105)
    # beside the axes, not over them: the strong players' bars reach nearly 100% at 4096 and 8192
    ax.legend(fontsize=9, bbox_to_anchor=(1.01, 1), loc="upper left", borderaxespad=0)
    ax.set_title(title)
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------------------------- the expectimax tree
TREE_TEXT = 10  #: points: edge labels and boards stay readable when the notebook shrinks the figure
EDGE_LABEL_AT = 0.62  #: where along an edge its label sits (0 = parent, 1 = child)
NODE_STYLE = {"max": ("s", "#f2b179"), "chance": ("o", "#8fb8de"), "leaf": ("D", "#cdc1b4")}
CURRENT_COLOUR = "#d62728"


def tree_layout(tree) -> dict[int, tuple[float, float]]:
    """(x, y) of every node: leaves evenly spaced left to right, a parent centred over its children.

    >>> from tilelab.game2048 import Board
    >>> from tilelab.game2048.tree import expectimax_tree
    >>> pos = tree_layout(expectimax_tree(Board.parse("8 4\\n2 ."), 1, evaluate=lambda b: 1.0))
    >>> pos[0], pos[2], pos[3]
    ((1.5, 0.0), (0.0, -2.0), (1.0, -2.0))
    """
    pos: dict[int, tuple[float, float]] = {}
    next_x = [0.0]

    def place(i: int) -> float:
        node = tree.nodes[i]
        if node.children:
            x = float(np.mean([place(c) for c in node.children]))
        else:
            x, next_x[0] = next_x[0], next_x[0] + 1.0
        pos[i] = (x, -float(node.level) if node.level else 0.0)
        return x

    place(0)
    return pos


def _board_text(board) -> str:
    return "\n".join(" ".join(f"{v}" if v else "." for v in row) for row in board.grid)


def plot_expectimax_tree(tree, step: int | None = None, *, title: str | None = None) -> Figure:
    """The expectimax tree after ``step`` events of the search (all of it when ``step`` is None).

    Squares are max nodes (we move), circles chance nodes (the game spawns), diamonds leaves (scored
    by the evaluation). Each node shows its board; a value appears once the search has computed it;
    the node of the current event is outlined red. Edges carry the move or the spawn and its probability.
    """
    step = len(tree.steps) if step is None else step
    visited, known = tree.state(step)
    current = tree.steps[step - 1].node if step else None
    pos = tree_layout(tree)
    leaves = sum(1 for n in tree.nodes if not n.children)
    levels = max(n.level for n in tree.nodes) + 1
    fig, ax = plt.subplots(figsize=(min(16.0, 2.0 + 1.25 * leaves), 1.0 + 1.6 * levels), dpi=100)
    ax.set_xlim(-0.7, leaves - 0.3)
    ax.set_ylim(-(levels - 1) - 0.75, 0.55)
    ax.axis("off")
    for node in tree.nodes:
        if node.parent is None:
            continue
        (x0, y0), (x1, y1) = pos[node.parent], pos[node.id]
        seen = node.id in visited
        ax.plot([x0, x1], [y0, y1], color="#555" if seen else "#ddd", lw=1.2, zorder=1)
        label = node.label if node.probability == 1.0 else f"{node.label}\np={node.probability:.3g}"
        lx, ly = x0 + EDGE_LABEL_AT * (x1 - x0), y0 + EDGE_LABEL_AT * (y1 - y0)  # near the child: siblings apart
        ax.text(lx, ly, label, fontsize=TREE_TEXT, ha="center", va="center",
                color="#333" if seen else "#bbb", bbox=dict(fc="white", ec="none", pad=0.5, alpha=0.85), zorder=2)
    for node in tree.nodes:
        x, y = pos[node.id]
        marker, colour = NODE_STYLE[node.kind]
        seen = node.id in visited
        ax.scatter([x], [y], s=2300, marker=marker, color=colour if seen else "#f3f3f3",
                   edgecolors=CURRENT_COLOUR if node.id == current else ("#555" if seen else "#ccc"),
                   linewidths=3 if node.id == current else 1, zorder=3, gid=f"node-{node.kind}")
        ax.text(x, y, _board_text(node.board), fontsize=TREE_TEXT, ha="center", va="center", family="monospace",
                color="black" if seen else "#bbb", zorder=4)
        if node.id in known:
            ax.text(x, y - 0.36, f"{known[node.id]:,.4g}", fontsize=TREE_TEXT + 1, ha="center", va="top", fontweight="bold",
                    color="#1b7f3b" if node.kind != "leaf" else "#333", zorder=4, gid="node-value")
    ax.set_title(title or f"expectimax, depth {tree.depth}: {len(known)} of {len(tree.nodes)} values known "
                 f"(square = max, circle = chance, diamond = leaf)", fontsize=TREE_TEXT + 2)
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------------------------- n-tuples (lessons 6a, 6b)
def _ordinal(n: int) -> str:
    """1 -> "1st", 2 -> "2nd", 3 -> "3rd", 4 -> "4th", ... (up to 20)."""
    return str(n) + {1: "st", 2: "nd", 3: "rd"}.get(n, "th")


TUPLE_COLOURS = ("#e15759", "#4e79a7", "#59a14f", "#f28e2b", "#b07aa1", "#76b7b2", "#edc948", "#ff9da7")


def plot_tuples(tuples: Sequence[Sequence[int]], titles: Sequence[str] | None = None, *,
                title: str | None = None, order: bool = False) -> Figure:
    """One 4x4 grid per tuple: its cells shaded and labelled with their numbers ``4 * row + col`` (the
    numbering the lesson uses); the panel's title lists them in the order the tuple reads them. With
    ``order=True`` each cell also shows, small in its top-left corner, its place in that order ("1st", "2nd",
    ...): the 1st cell's exponent is the units digit of the tuple's index, the 2nd's the 16s digit.

    Every tuple gets a panel of its own, so even four 6-cell tuples that share cells stay readable.

    >>> fig = plot_tuples([(0, 1, 2, 3, 4, 5), (4, 5, 6, 8, 9, 10)])
    >>> len(fig.axes), [t.get_text() for t in fig.axes[1].texts][:3]
    (2, ['4', '5', '6'])
    >>> [t.get_text() for t in plot_tuples([(5, 1)], order=True).axes[0].texts]
    ['5', '1st', '1', '2nd']
    """
    tuples = [tuple(int(c) for c in t) for t in tuples]
    if not tuples or any(not t or not all(0 <= c < 16 for c in t) for t in tuples):
        raise ValueError("pass a non-empty list of tuples of cells 0..15 (cell = 4 * row + col)")
    if titles is not None and len(titles) != len(tuples):
        raise ValueError(f"got {len(titles)} titles for {len(tuples)} tuples")
    fig, axes = plt.subplots(1, len(tuples), figsize=(0.3 + 2.3 * len(tuples), 2.9), squeeze=False)
    for i, (ax, cells) in enumerate(zip(axes[0], tuples)):
        colour = TUPLE_COLOURS[i % len(TUPLE_COLOURS)]
        ax.set_xlim(0, 4)
        ax.set_ylim(4, 0)
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
        for k in range(5):
            ax.plot([0, 4], [k, k], color="#bbb", lw=1)
            ax.plot([k, k], [0, 4], color="#bbb", lw=1)
        for place, cell in enumerate(cells, start=1):
            row, col = divmod(cell, 4)
            ax.add_patch(plt.Rectangle((col + 0.06, row + 0.06), 0.88, 0.88, color=colour, alpha=0.35))
            ax.text(col + 0.5, row + 0.55, str(cell), ha="center", va="center", fontsize=13,
                    fontweight="bold", color="#1f1f1f")
            if order:
                ax.text(col + 0.12, row + 0.1, _ordinal(place), ha="left", va="top", fontsize=7.5, color="#333",
                        gid="reading-order")
        ax.set_title(titles[i] if titles is not None else str(cells), fontsize=10)
    if title:
        fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig
