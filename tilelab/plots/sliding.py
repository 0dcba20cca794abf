"""Pictures for the sliding-puzzle lessons; every function returns a matplotlib ``Figure``.

>>> from tilelab.sliding import Puzzle
>>> fig = plot_puzzle(Puzzle.goal(3, 3), title="goal")
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

from tilelab.sliding import Puzzle, distance_histogram, inversion_pairs, inversions

__all__ = [
    "draw_puzzle",
    "plot_distance_histogram",
    "plot_inversions",
    "plot_move_effect",
    "plot_puzzle",
    "plot_puzzles",
    "plot_shuffle_comparison",
]

TILE_COLOUR = "#4ac2fb"
TILE_EDGE = "#1f6f99"
HIGHLIGHT = "#f6a623"
BLANK_COLOUR = "#e9edf0"
TEXT_COLOUR = "white"
CELL_INCHES = 0.55  # size of one cell in the figure
GAP = 0.06  # gap between tiles, in cells


def draw_puzzle(
    ax: Axes,
    puzzle: Puzzle,
    *,
    highlight: Sequence[int] = (),
    image: np.ndarray | None = None,
    numbers: bool = True,
    title: str | None = None,
) -> Axes:
    """Draw ``puzzle`` on ``ax``: tiles as rounded squares (or pieces of ``image``), blank empty."""
    rows, cols = puzzle.shape
    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.add_patch(Rectangle((0, 0), cols, rows, color=BLANK_COLOUR, zorder=0))
    goal_cell = {t: divmod(t - 1, cols) for t in range(1, puzzle.size)}
    for (r, c), tile in ((divmod(i, cols), t) for i, t in enumerate(puzzle.tiles)):
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
            size = 15 if puzzle.size <= 16 else 11
            style = dict(color=TEXT_COLOUR, fontweight="bold", fontsize=size, zorder=3)
            if image is not None:
                style.update(color="black", bbox=dict(boxstyle="round", fc="white", alpha=0.7, lw=0))
            ax.text(c + 0.5, r + 0.5, str(tile), ha="center", va="center", **style)
    if title is not None:
        ax.set_title(title)
    return ax


def plot_puzzle(
    puzzle: Puzzle,
    *,
    title: str | None = None,
    highlight: Sequence[int] = (),
    image: np.ndarray | None = None,
    numbers: bool = True,
) -> Figure:
    """One board as a picture (``image``: an RGB array to cut into tiles, picture mode)."""
    fig, ax = plt.subplots(
        figsize=(CELL_INCHES * puzzle.cols + 0.4, CELL_INCHES * puzzle.rows + (0.7 if title else 0.3))
    )
    draw_puzzle(ax, puzzle, highlight=highlight, image=image, numbers=numbers, title=title)
    fig.tight_layout()
    return fig


def plot_puzzles(
    puzzles: Sequence[Puzzle],
    titles: Sequence[str] | None = None,
    *,
    highlight: Sequence[int] = (),
) -> Figure:
    """Several boards side by side (e.g. before and after a move).

    >>> from tilelab.sliding import Puzzle
    >>> g = Puzzle.goal(2, 3)
    >>> len(plot_puzzles([g, g.slide(4)], ["before", "after"]).axes)
    2
    """
    if not puzzles:
        raise ValueError("give at least one puzzle to draw")
    titles = list(titles) if titles is not None else [None] * len(puzzles)
    if len(titles) != len(puzzles):
        raise ValueError(f"{len(puzzles)} puzzles but {len(titles)} titles")
    width = sum(CELL_INCHES * p.cols + 0.4 for p in puzzles)
    height = max(CELL_INCHES * p.rows for p in puzzles) + 0.8
    fig, axes = plt.subplots(1, len(puzzles), figsize=(width, height), squeeze=False)
    for ax, p, t in zip(axes[0], puzzles, titles):
        draw_puzzle(ax, p, title=t, highlight=highlight)
    fig.tight_layout()
    return fig


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
    highlighted tiles) too.
    """
    where = {t: i for i, t in enumerate(seq)}
    marked_arcs = set(highlight if arcs_of is None else arcs_of)
    for a, b in pairs:
        i, j = sorted((where[a], where[b]))
        touched = a in marked_arcs or b in marked_arcs
        ax.add_patch(
            Arc(((i + j) / 2, 0.35), j - i, 0.45 * (j - i), theta1=0, theta2=180,
                color=HIGHLIGHT if touched else "#7a8a99", lw=2 if touched else 1)
        )
    for i, t in enumerate(seq):
        colour = HIGHLIGHT if t in highlight else TILE_COLOUR
        ax.add_patch(FancyBboxPatch((i - 0.35, -0.35), 0.7, 0.7, boxstyle="round,pad=0.02",
                                    fc=colour, ec=TILE_EDGE))
        ax.text(i, 0, str(t), ha="center", va="center", color=TEXT_COLOUR, fontweight="bold")
    span = max(len(seq) - 1, 1)
    ax.set_xlim(-0.7, len(seq) - 0.3)
    ax.set_ylim(-0.6, 0.45 + 0.25 * span)
    ax.set_aspect("equal")
    ax.axis("off")


def plot_inversions(puzzle: Puzzle, *, highlight: Sequence[int] = ()) -> Figure:
    """The board and its tiles read row by row, every inversion drawn as an arc.

    >>> from tilelab.sliding import Puzzle
    >>> fig = plot_inversions(Puzzle.parse('2 4\\n3 1\\n5 .'))
    >>> fig.axes[1].get_title()
    '4 inversions (even)'
    """
    seq = [t for t in puzzle.tiles if t != 0]
    pairs = inversion_pairs(puzzle)
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(CELL_INCHES * puzzle.cols + 0.6 * len(seq) + 1, max(2.2, 0.25 * len(seq) + 1)),
        gridspec_kw={"width_ratios": [puzzle.cols, max(len(seq), 1) * 1.1]},
    )
    draw_puzzle(left, puzzle, highlight=highlight, title="board")
    _draw_sequence(right, seq, pairs, highlight=highlight)
    count = len(pairs)
    right.set_title(f"{count} inversion{'s' if count != 1 else ''} ({'even' if count % 2 == 0 else 'odd'})")
    fig.tight_layout()
    return fig


def plot_move_effect(puzzle: Puzzle) -> Figure:
    """Why a horizontal move keeps the inversions and a vertical one changes them.

    Top: the board, after a horizontal move, after a vertical move. Bottom: each reading order
    with its inversions; the vertical move lifts one tile over ``cols - 1`` others (highlighted),
    so the count changes by an odd number when the width is even and an even number when it is odd.

    >>> from tilelab.sliding import Puzzle
    >>> fig = plot_move_effect(Puzzle.parse('1 5 2\\n4 . 3\\n7 8 6'))
    >>> [ax.get_title() for ax in fig.axes[3:]]
    ['6 inversions', '6 inversions (same)', '8 inversions (+2)']
    """
    horizontal = next(d for d in ("left", "right") if puzzle.tile_for(d) is not None)
    vertical = next(d for d in ("up", "down") if puzzle.tile_for(d) is not None)
    h_tile, v_tile = puzzle.tile_for(horizontal), puzzle.tile_for(vertical)
    after_h, after_v = puzzle.move(horizontal), puzzle.move(vertical)
    # the tiles the vertical move jumps over in reading order: between the two cells
    a, b = sorted((puzzle.blank_index, puzzle.tiles.index(v_tile)))
    jumped = [t for t in puzzle.tiles[a + 1 : b] if t != 0]
    n = len([t for t in puzzle.tiles if t])
    fig, axes = plt.subplots(
        2, 3, figsize=(max(9, 3 * 0.42 * n), CELL_INCHES * puzzle.rows + 0.25 * n + 2.2),
        gridspec_kw={"height_ratios": [puzzle.rows, 0.12 * n + 1.2]},
    )
    boards = [
        (puzzle, "before", (), ()),
        (after_h, f"{h_tile} moves {horizontal}", (h_tile,), (h_tile,)),
        (after_v, f"{v_tile} moves {vertical}: jumps {len(jumped)}", (v_tile, *jumped), (v_tile,)),
    ]
    base = inversions(puzzle)
    for k, (board, title, marked, arcs_of) in enumerate(boards):
        draw_puzzle(axes[0][k], board, highlight=marked, title=title)
        seq = [t for t in board.tiles if t != 0]
        _draw_sequence(axes[1][k], seq, inversion_pairs(board), highlight=marked, arcs_of=arcs_of)
        count = inversions(board)
        change = "" if k == 0 else (" (same)" if count == base else f" ({count - base:+d})")
        axes[1][k].set_title(f"{count} inversions{change}")
    fig.tight_layout()
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
) -> Figure:
    """One histogram per shuffle method of the optimal distances of the boards it made.

    ``reference`` (e.g. ``distance_histogram(3, 3)``) is drawn on every panel as the exact
    distribution of a uniform shuffle.

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
        ax.set_xlabel("optimal moves to the goal")
    axes[0][0].set_ylabel("share of boards")
    fig.suptitle(title)
    fig.tight_layout()
    return fig
