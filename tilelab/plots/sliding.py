"""Pictures for the sliding-puzzle lessons; every function returns a matplotlib ``Figure``.

>>> from tilelab.sliding import Board
>>> fig = plot_board(Board.goal(3, 3), title="goal")
>>> fig.axes[0].get_title()
'goal'
"""

from __future__ import annotations

from typing import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Arc, FancyBboxPatch, Rectangle

from tilelab.sliding import Board, distance_histogram, inversion_pairs, inversions, play

__all__ = [
    "draw_board",
    "plot_distance_histogram",
    "plot_inversions",
    "plot_move_effect",
    "plot_neighbourhood",
    "plot_board",
    "plot_boards",
    "plot_blank_cells",
    "plot_shuffle_comparison",
]

TILE_COLOUR = "#4ac2fb"
TILE_EDGE = "#1f6f99"
HIGHLIGHT = "#f6a623"
BLANK_COLOUR = "#e9edf0"
TEXT_COLOUR = "white"
CELL_INCHES = 0.55  # size of one cell in the figure
GAP = 0.06  # gap between tiles, in cells


def draw_board(
    ax: Axes,
    board: Board,
    *,
    highlight: Sequence[int] = (),
    image: np.ndarray | None = None,
    numbers: bool = True,
    title: str | None = None,
) -> Axes:
    """Draw ``board`` on ``ax``: tiles as rounded squares (or pieces of ``image``), blank empty."""
    rows, cols = board.shape
    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.add_patch(Rectangle((0, 0), cols, rows, color=BLANK_COLOUR, zorder=0))
    goal_cell = {t: divmod(t - 1, cols) for t in range(1, board.cell_count)}
    for (r, c), tile in ((divmod(i, cols), t) for i, t in enumerate(board.tiles)):
        if tile == 0:
            continue
        x, y, side = c + GAP, r + GAP, 1 - 2 * GAP
        if image is not None:
            gr, gc = goal_cell[tile]
            h, w = image.shape[0] / rows, image.shape[1] / cols
            piece = image[int(gr * h) : int((gr + 1) * h), int(gc * w) : int((gc + 1) * w)]
            ax.imshow(piece, extent=(x, x + side, y + side, y), zorder=1)
            if tile in highlight:
                ax.add_patch(Rectangle((x, y), side, side, fill=False, lw=3, ec=HIGHLIGHT, zorder=2))
        else:
            colour = HIGHLIGHT if tile in highlight else TILE_COLOUR
            ax.add_patch(
                FancyBboxPatch(
                    (x + 0.04, y + 0.04), side - 0.08, side - 0.08,
                    boxstyle="round,pad=0.04", fc=colour, ec=TILE_EDGE, lw=1, zorder=1,
                )
            )
        if numbers:
            size = 15 if board.cell_count <= 16 else 11
            style = dict(color=TEXT_COLOUR, fontweight="bold", fontsize=size, zorder=3)
            if image is not None:
                style.update(color="black", bbox=dict(boxstyle="round", fc="white", alpha=0.7, lw=0))
            ax.text(c + 0.5, r + 0.5, str(tile), ha="center", va="center", **style)
    if title is not None:
        ax.set_title(title)
    return ax


def plot_board(
    board: Board,
    *,
    title: str | None = None,
    highlight: Sequence[int] = (),
    image: np.ndarray | None = None,
    numbers: bool = True,
) -> Figure:
    """One board as a picture (``image``: an RGB array to cut into tiles, picture mode)."""
    fig, ax = plt.subplots(
        figsize=(CELL_INCHES * board.cols + 0.4, CELL_INCHES * board.rows + (0.7 if title else 0.3))
    )
    draw_board(ax, board, highlight=highlight, image=image, numbers=numbers, title=title)
    fig.tight_layout()
    return fig


def plot_boards(
    boards: Sequence[Board],
    titles: Sequence[str] | None = None,
    *,
    highlight: Sequence[int] = (),
) -> Figure:
    """Several boards side by side (e.g. before and after a move).

    >>> from tilelab.sliding import Board
    >>> g = Board.goal(2, 3)
    >>> len(plot_boards([g, g.slide(4)], ["before", "after"]).axes)
    2
    """
    if not boards:
        raise ValueError("give at least one board to draw")
    titles = list(titles) if titles is not None else [None] * len(boards)
    if len(titles) != len(boards):
        raise ValueError(f"{len(boards)} boards but {len(titles)} titles")
    width = sum(CELL_INCHES * p.cols + 0.4 for p in boards)
    height = max(CELL_INCHES * p.rows for p in boards) + 0.8
    fig, axes = plt.subplots(1, len(boards), figsize=(width, height), squeeze=False)
    for ax, p, t in zip(axes[0], boards, titles):
        draw_board(ax, p, title=t, highlight=highlight)
    fig.tight_layout()
    return fig


STRIP_TILE_INCHES = 0.6  # width of one tile in an inversion strip: readable up to 24 tiles
STRIP_FONT = 13


def _arc_height(span: int) -> float:
    """Height of the arc joining two tiles ``span`` places apart (grows slowly, so long strips stay flat)."""
    return 0.25 + 0.12 * span


def _strip_height(length: int) -> float:
    """Height (in tile widths) a strip of ``length`` tiles needs for its tiles and its tallest arc."""
    return 0.75 + _arc_height(max(length - 1, 1)) + 0.1


def _draw_sequence(
    ax: Axes,
    seq: Sequence[int],
    pairs: Sequence[tuple[int, int]],
    *,
    highlight: Sequence[int] = (),
    arcs_of: Sequence[int] | None = None,
) -> None:
    """The tiles in reading order on a line, each inversion an arc above it.

    Tiles in ``highlight`` are coloured; arcs touching a tile of ``arcs_of`` (default: the
    highlighted tiles) are drawn thick and orange, the others thin and grey.
    """
    where = {t: i for i, t in enumerate(seq)}
    marked_arcs = set(highlight if arcs_of is None else arcs_of)
    for a, b in pairs:
        i, j = sorted((where[a], where[b]))
        touched = a in marked_arcs or b in marked_arcs
        ax.add_patch(
            Arc(((i + j) / 2, 0.38), j - i, 2 * _arc_height(j - i), theta1=0, theta2=180,
                color=HIGHLIGHT if touched else "#8a97a3", lw=2.4 if touched else 1.0,
                zorder=3 if touched else 1)
        )
    for i, t in enumerate(seq):
        colour = HIGHLIGHT if t in highlight else TILE_COLOUR
        ax.add_patch(FancyBboxPatch((i - 0.36, -0.36), 0.72, 0.72, boxstyle="round,pad=0.02",
                                    fc=colour, ec=TILE_EDGE, zorder=4))
        ax.text(i, 0, str(t), ha="center", va="center", color=TEXT_COLOUR, fontweight="bold",
                fontsize=STRIP_FONT, zorder=5)
    ax.set_xlim(-0.6, max(len(seq), 1) - 0.4)
    ax.set_ylim(-0.45, _strip_height(len(seq)) - 0.45)
    ax.set_aspect("equal")
    ax.axis("off")


def plot_inversions(board: Board, *, highlight: Sequence[int] = ()) -> Figure:
    """The board and its tiles read row by row, every inversion drawn as an arc.

    The strip gets a fixed width per tile, so a 4x4 board's 15 tiles stay readable.

    >>> from tilelab.sliding import Board
    >>> fig = plot_inversions(Board.parse('2 4\\n3 1\\n5 .'))
    >>> fig.axes[1].get_title()
    '4 inversions (even)'
    """
    seq = [t for t in board.tiles if t != 0]
    pairs = inversion_pairs(board)
    strip_w = STRIP_TILE_INCHES * max(len(seq), 1)
    board_w = CELL_INCHES * 1.3 * board.cols
    height = max(CELL_INCHES * 1.3 * board.rows, STRIP_TILE_INCHES * _strip_height(len(seq))) + 0.7
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(board_w + strip_w + 0.6, height),
        gridspec_kw={"width_ratios": [board_w, strip_w]},
    )
    draw_board(left, board, highlight=highlight, title="board")
    _draw_sequence(right, seq, pairs, highlight=highlight)
    count = len(pairs)
    right.set_title(
        f"{count} inversion{'s' if count != 1 else ''} ({'even' if count % 2 == 0 else 'odd'})", fontsize=12
    )
    fig.tight_layout()
    return fig


def plot_move_effect(board: Board) -> Figure:
    """Why a horizontal move keeps the inversions and a vertical one changes them.

    Top: the board, and two *alternative* moves from it (each panel starts from "before"): a
    horizontal one and a vertical one. Below, one full-width strip per board: its reading order
    with its inversions; the vertical move lifts one tile over
    ``cols - 1`` others (highlighted), so the count changes by an odd number when the width is
    even and an even number when it is odd. ``fig.axes[:3]`` are the boards, ``fig.axes[3:]``
    the strips.

    >>> from tilelab.sliding import Board
    >>> fig = plot_move_effect(Board.parse('1 5 2\\n4 . 3\\n7 8 6'))
    >>> [ax.get_title() for ax in fig.axes[3:]]
    ['before: 6 inversions', 'either: 6 inversions (same)', 'or: 8 inversions (+2)']
    """
    horizontal = next(d for d in ("left", "right") if board.tile_for(d) is not None)
    vertical = next(d for d in ("up", "down") if board.tile_for(d) is not None)
    h_tile, v_tile = board.tile_for(horizontal), board.tile_for(vertical)
    after_h, after_v = play(board, horizontal).after, play(board, vertical).after
    # the tiles the vertical move jumps over in reading order: between the two cells
    a, b = sorted((board.blank_index, board.tiles.index(v_tile)))
    jumped = [t for t in board.tiles[a + 1 : b] if t != 0]
    n = len([t for t in board.tiles if t])
    board_h = CELL_INCHES * 1.2 * board.rows + 0.5
    strip_h = STRIP_TILE_INCHES * _strip_height(n) + 0.35
    width = max(9.0, STRIP_TILE_INCHES * n + 0.8)
    fig = plt.figure(figsize=(width, board_h + 3 * strip_h))
    grid = fig.add_gridspec(4, 3, height_ratios=[board_h, strip_h, strip_h, strip_h])
    board_axes = [fig.add_subplot(grid[0, k]) for k in range(3)]
    strip_axes = [fig.add_subplot(grid[k + 1, :]) for k in range(3)]
    boards = [
        (board, "before", (), ()),
        (after_h, f"either: {h_tile} moves {horizontal}", (h_tile,), (h_tile,)),
        (after_v, f"or: {v_tile} moves {vertical}, jumps {len(jumped)}", (v_tile, *jumped), (v_tile,)),
    ]
    base = inversions(board)
    for k, (board, title, marked, arcs_of) in enumerate(boards):
        draw_board(board_axes[k], board, highlight=marked, title=title)
        seq = [t for t in board.tiles if t != 0]
        _draw_sequence(strip_axes[k], seq, inversion_pairs(board), highlight=marked, arcs_of=arcs_of)
        count = inversions(board)
        change = "" if k == 0 else (" (same)" if count == base else f" ({count - base:+d})")
        strip_axes[k].set_title(f"{['before', 'either', 'or'][k]}: {count} inversions{change}", fontsize=12)
    fig.suptitle("two different moves from the same board (not one after the other)", fontsize=12)
    fig.tight_layout()
    return fig


def plot_neighbourhood(board: Board, depth: int = 2, metric: str = "single") -> Figure:
    """Every board within ``depth`` moves of ``board``, each drawn once, with a line for every move.

    Boards sit in rows by their distance from ``board`` (breadth-first layers); a line joins two
    boards one move apart, including moves inside a layer or back to a board with two parents
    (the multi-tile metric has such shortcuts). ``fig.neighbourhood`` holds the data drawn:
    ``{"layers": [[Board, ...], ...], "edges": [(Board, Board), ...]}``.

    >>> from tilelab.sliding import Board
    >>> fig = plot_neighbourhood(Board.goal(3, 3), depth=2)
    >>> [len(layer) for layer in fig.neighbourhood["layers"]], len(fig.neighbourhood["edges"])
    ([1, 2, 4], 6)
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 4:
        raise ValueError(f"depth must be an int from 1 to 4 (the picture doubles per level), got {depth!r}")
    layer_of = {board: 0}
    layers = [[board]]
    for k in range(1, depth + 1):
        fresh = []
        for board in layers[-1]:
            for _, child in board.successors(metric):
                if child not in layer_of:
                    layer_of[child] = k
                    fresh.append(child)
        layers.append(fresh)
    edges = []
    for board in layer_of:
        for _, child in board.successors(metric):
            if child in layer_of and (layer_of[board], board) < (layer_of[child], child):
                edges.append((board, child))
    widest = max(len(layer) for layer in layers)
    cell_w = 1.25
    fig = plt.figure(figsize=(max(6.0, cell_w * widest + 0.5), 1.75 * (depth + 1) + 0.4))
    box_w, box_h = 0.85 / max(widest, 1) * min(1.0, (fig.get_figwidth() - 0.5) / (cell_w * widest)), 0.7 / (depth + 1)
    centre = {}
    for k, layer in enumerate(layers):
        y = 1 - (k + 0.5) / (depth + 1) - 0.03
        for i, board in enumerate(layer):
            centre[board] = ((i + 0.5) / len(layer), y)
    back = fig.add_axes((0, 0, 1, 1), zorder=0)
    back.set_xlim(0, 1)
    back.set_ylim(0, 1)
    back.axis("off")
    from matplotlib.collections import LineCollection

    segments = [(centre[a], centre[b]) for a, b in edges]
    same_layer = [layer_of[a] == layer_of[b] for a, b in edges]
    back.add_collection(LineCollection(
        segments, colors=[HIGHLIGHT if s else "#5b6b7a" for s in same_layer], linewidths=1.6, label="moves",
    ))
    for board, (x, y) in centre.items():
        ax = fig.add_axes((x - box_w / 2, y - box_h / 2, box_w, box_h), zorder=2)
        moved = [t for t, child in board.successors(metric) if layer_of.get(child, -1) == layer_of[board] - 1]
        draw_board(ax, board, highlight=moved if layer_of[board] else ())
    fig.suptitle(
        f"Every board within {depth} {metric}-tile move{'s' if depth > 1 else ''}: "
        f"{len(layer_of)} boards joined by {len(edges)} lines, one per move (orange: touch it to go back one layer)",
        fontsize=11,
    )
    fig.neighbourhood = {"layers": layers, "edges": edges}
    return fig


def plot_distance_histogram(rows: int = 3, cols: int = 3, metric: str = "single", *, log: bool = False) -> Figure:
    """How many boards lie at each optimal distance from the goal (from the BFS table).

    >>> fig = plot_distance_histogram(2, 3)
    >>> fig.axes[0].get_xlabel()
    'optimal moves to the goal (single-tile metric)'
    """
    hist = distance_histogram(rows, cols, metric)
    moves = np.arange(len(hist))
    mean = float((moves * hist).sum() / hist.sum())
    fig, ax = plt.subplots(figsize=(8, 3.6))
    ax.bar(moves, hist, color=TILE_COLOUR, edgecolor=TILE_EDGE)
    ax.axvline(mean, color=HIGHLIGHT, lw=2, ls="--", label=f"mean {mean:.2f}")
    last = len(hist) - 1
    ax.annotate(f"{int(hist[last])} board{'s' if hist[last] != 1 else ''} at {last}",
                (last, hist[last]), xytext=(0, 25), textcoords="offset points", ha="center",
                arrowprops=dict(arrowstyle="->"))
    ax.set_xlabel(f"optimal moves to the goal ({metric}-tile metric)")
    ax.set_ylabel("boards")
    if log:
        ax.set_yscale("log")
    ax.set_title(f"{rows}x{cols}: {int(hist.sum()):,} solvable boards")
    ax.legend()
    fig.tight_layout()
    return fig


def plot_shuffle_comparison(
    samples: Mapping[str, Sequence[int]],
    reference: np.ndarray | None = None,
    *,
    title: str = "How far from the goal do shuffles land?",
    xlabel: str = "optimal moves to the goal",
) -> Figure:
    """One histogram per shuffle method of the optimal distances of the boards it made.

    ``reference`` (e.g. ``distance_histogram(3, 3)``) is drawn on every panel as the exact
    distribution of a uniform shuffle. ``xlabel`` names what the values are (e.g. a Manhattan distance).

    >>> fig = plot_shuffle_comparison({"a": [1, 2, 2], "b": [3, 3, 4]})
    >>> [ax.get_title() for ax in fig.axes]
    ['a (mean 1.67)', 'b (mean 3.33)']
    """
    if not samples:
        raise ValueError("give at least one method's distances")
    top = max(max(v) for v in samples.values() if len(v)) if any(len(v) for v in samples.values()) else 0
    if reference is not None:
        top = max(top, len(reference) - 1)
    bins = np.arange(top + 2) - 0.5
    fig, axes = plt.subplots(1, len(samples), figsize=(4 * len(samples), 3.2), sharey=True, squeeze=False)
    for ax, (name, values) in zip(axes[0], samples.items()):
        values = np.asarray(values)
        ax.hist(values, bins=bins, density=True, color=TILE_COLOUR, edgecolor=TILE_EDGE)
        if reference is not None:
            share = np.asarray(reference, dtype=float) / np.sum(reference)
            ax.step(np.arange(len(share)), share, where="mid", color=HIGHLIGHT, lw=2, label="uniform (exact)")
            ax.legend(loc="upper left", fontsize=8)
        ax.set_title(f"{name} (mean {values.mean():.2f})" if len(values) else name)
        ax.set_xlabel(xlabel)
    axes[0][0].set_ylabel("share of boards")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def plot_blank_cells(grids: Sequence[np.ndarray], titles: Sequence[str]) -> Figure:
    """Heatmaps of where the blank ends: each cell's chance, written in the cell and shown by its colour.

    Fair is ``1 / (rows * cols)`` per cell: white. Bluer cells get less than fair, down to 0 (dark blue);
    redder cells more, up to the largest chance in any grid or twice fair, whichever is larger (dark red), so
    the colour bar runs over chances, from 0, and every number written in a cell lies on it. Each number is
    written in white on dark cells and black on light ones, so every chance stays readable.

    >>> fig = plot_blank_cells([np.full((3, 3), 1 / 9), np.diag([0.5, 0.3, 0.2])], ["fair", "skewed"])
    >>> norm = fig.axes[0].images[0].norm
    >>> [ax.get_title() for ax in fig.axes[:2]], norm.vmin, round(norm.vcenter, 3), norm.vmax
    (['fair', 'skewed'], 0.0, 0.111, 0.5)
    """
    from matplotlib.colors import TwoSlopeNorm

    grids = [np.asarray(g, dtype=float) for g in grids]
    if not grids or len(grids) != len(titles):
        raise ValueError(f"give one title per grid: {len(grids)} grids, {len(titles)} titles")
    fair = 1 / grids[0].size
    top = max(2 * fair, *(float(g.max()) for g in grids))  # every chance fits: nothing is clipped
    norm = TwoSlopeNorm(vmin=0.0, vcenter=fair, vmax=top)
    cmap = plt.get_cmap("RdBu_r")
    fig, axes = plt.subplots(1, len(grids), figsize=(3.6 * len(grids) + 0.8, 3.4), squeeze=False)
    for ax, grid, title in zip(axes[0], grids, titles):
        image = ax.imshow(grid, cmap=cmap, norm=norm)
        for (r, c), v in np.ndenumerate(grid):
            red, green, blue, _ = cmap(norm(v))
            light = 0.299 * red + 0.587 * green + 0.114 * blue > 0.5  # perceived brightness of the cell
            ax.text(c, r, f"{v:.3f}", ha="center", va="center", fontsize=12, color="black" if light else "white")
        ax.set_xticks([]), ax.set_yticks([])
        ax.set_title(title, fontsize=11)
    fig.colorbar(image, ax=list(axes[0]), label=f"chance the blank ends there (white: fair, 1/{grids[0].size})",
                 shrink=0.8)
    return fig
