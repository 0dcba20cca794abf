"""Pictures for the 2048 lessons; every function returns a matplotlib ``Figure``.

- :func:`plot_board`: a board in the classic colours;
- :func:`plot_slide_stages`: one row through condense -> collapse -> convert (the move orders);
- :func:`plot_move`: a whole board before and after a swipe, with each tile's path;
- :func:`plot_spawn_map`: where the next tile may appear, and how likely each spawn is;
- :func:`plot_score_comparison`: final scores of two rule sets side by side;
- :func:`plot_paired_differences`: one difference per seed (a paired comparison) with its interval;
- :func:`plot_interval_coverage`: many repeated experiments, each with its interval, against the truth.

>>> from tilelab.game2048 import Board
>>> fig = plot_move(Board.parse("2 2\\n. 4"), "left")
>>> len(fig.axes), len(move_arrows(fig.axes[0]))
(2, 2)
"""

from __future__ import annotations

from collections import defaultdict
from typing import Mapping, Sequence

import matplotlib.pyplot as plt
from matplotlib import patheffects
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Rectangle

from tilelab.game2048 import Board, Direction, play, slide_row, spawn_outcomes
from tilelab.game2048.board import DEFAULT_P_FOUR
from tilelab.game2048.palette import BOARD_COLOR, font_fraction, tile_style

__all__ = [
    "draw_board",
    "move_arrows",
    "plot_board",
    "plot_interval_coverage",
    "plot_move",
    "plot_paired_differences",
    "plot_score_comparison",
    "plot_slide_stages",
    "plot_spawn_map",
    "slide_stages",
]

CELL_INCHES = 0.75  #: one cell's side in the figure
GAP = 0.06  #: gap around a tile, in cells
POINTS_PER_INCH = 72
ARROW_GID = "tile-path"  #: every source -> destination arrow carries this gid (tests count them)
STAY_EDGE, MOVE_EDGE, MERGE_EDGE = "#8f8579", "#1f77b4", "#d62728"
STAGE_GAP = 0.9  #: vertical space between two stages of a row, in cells
LANE = 0.36  #: plot_move draws a path this far off the tile's centre line (clear of its number)


def _font_points(value: int, label: str | None = None, cell_inches: float = CELL_INCHES) -> float:
    return font_fraction(value, label) * cell_inches * POINTS_PER_INCH


def _draw_tile(
    ax: Axes, x: float, y: float, value: int, *, label: str | None = None, edge: str | None = None,
    cell_inches: float = CELL_INCHES, alpha: float = 1.0,
) -> None:
    background, text_colour = tile_style(value)
    side = 1 - 2 * GAP
    ax.add_patch(
        FancyBboxPatch(
            (x + GAP, y + GAP), side, side, boxstyle="round,pad=0,rounding_size=0.08",
            facecolor=background, edgecolor=edge or background, linewidth=2.5 if edge else 0,
            alpha=alpha, zorder=2,
        )
    )
    if value:
        text = str(value) if label is None else label
        ax.text(x + 0.5, y + 0.5, text, ha="center", va="center", color=text_colour, fontweight="bold",
                fontsize=_font_points(value, label, cell_inches), zorder=3)


def draw_board(
    ax: Axes, board: Board, *, words: Mapping[int, str] | None = None, title: str | None = None,
    outline: Mapping[tuple[int, int], str] | None = None, cell_inches: float = CELL_INCHES,
) -> Axes:
    """Draw ``board`` on ``ax`` (cell (r, c) spans x in [c, c+1], y in [r, r+1], row 0 on top)."""
    n = board.size
    ax.set_xlim(-GAP, n + GAP)
    ax.set_ylim(n + GAP, -GAP)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.add_patch(Rectangle((-GAP, -GAP), n + 2 * GAP, n + 2 * GAP, color=BOARD_COLOR, zorder=0))
    outline = outline or {}
    for r, row in enumerate(board.grid):
        for c, value in enumerate(row):
            label = None if not words or value not in words else words[value]
            _draw_tile(ax, c, r, value, label=label, edge=outline.get((r, c)), cell_inches=cell_inches)
    if title:
        ax.set_title(title)
    return ax


def plot_board(board: Board, *, title: str | None = None, words: Mapping[int, str] | None = None) -> Figure:
    """One board in the classic colours (``words`` maps tile values to labels, e.g. {2: "我"})."""
    fig, ax = plt.subplots(figsize=(board.size * CELL_INCHES, board.size * CELL_INCHES + (0.4 if title else 0)))
    draw_board(ax, board, words=words, title=title)
    fig.tight_layout()
    return fig


def _arrow(
    ax: Axes, start: tuple[float, float], end: tuple[float, float], colour: str, rad: float = 0.0,
    zorder: float = 4,
) -> None:
    ax.add_patch(
        FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=14, color=colour, linewidth=1.8,
                        connectionstyle=f"arc3,rad={rad}", shrinkA=2, shrinkB=2, zorder=zorder, gid=ARROW_GID)
    )


def move_arrows(ax: Axes) -> list[FancyArrowPatch]:
    """The source -> destination arrows drawn on ``ax`` (for tests and for restyling)."""
    return [p for p in ax.patches if isinstance(p, FancyArrowPatch) and p.get_gid() == ARROW_GID]


# ------------------------------------------------------------------ one row, three stages
def slide_stages(row: Sequence[int]) -> dict:
    """The Swift walkthrough's three stages of one row, read off :func:`slide_row`'s move orders.

    ``condense``: the tiles without gaps as (source, value, must_move); ``collapse``: one token per
    tile of the result as (sources, value, kind) with kind "stay", "move", "merge into a still
    tile" or "both move and merge"; ``convert``: the orders for the tiles that move, as
    (sources, destination, value, merged).

    >>> s = slide_stages([2, 0, 2, 4])
    >>> s["condense"]
    [(0, 2, False), (2, 2, True), (3, 4, True)]
    >>> s["collapse"]
    [((0, 2), 4, 'merge into a still tile'), ((3,), 4, 'move')]
    >>> s["convert"]
    [((2,), 0, 4, True), ((3,), 1, 4, False)]
    """
    result = slide_row(row)
    condense = [(m.source, m.start_value, m.source != k) for k, m in enumerate(result.moves)]
    groups: dict[int, list] = defaultdict(list)
    for m in result.moves:
        groups[m.destination].append(m)
    collapse, convert = [], []
    for dest in sorted(groups):
        ms = groups[dest]
        sources = tuple(m.source for m in ms)
        value = ms[0].value
        if len(ms) == 2:
            still = [m.source == dest for m in ms]
            kind = "merge into a still tile" if any(still) else "both move and merge"
            movers = tuple(m.source for m in ms if m.source != dest)
            convert.append((movers, dest, value, True))
        else:
            kind = "stay" if sources[0] == dest else "move"
            if kind == "move":
                convert.append((sources, dest, value, False))
        collapse.append((sources, value, kind))
    return {"row": tuple(row), "condense": condense, "collapse": collapse, "convert": convert,
            "result": result.row, "score": result.score}


_KIND_EDGE = {"stay": STAY_EDGE, "move": MOVE_EDGE, "merge into a still tile": MERGE_EDGE,
              "both move and merge": MERGE_EDGE}


def plot_slide_stages(row: Sequence[int], *, words: Mapping[int, str] | None = None) -> Figure:
    """One row slid left through condense -> collapse -> convert, with arrows from source to destination.

    Edges: grey = stays, blue = must move, red = merges. The bottom line lists the move orders.
    """
    s = slide_stages(row)
    n = len(s["row"])
    levels = [0.0, 1 + STAGE_GAP, 2 * (1 + STAGE_GAP), 3 * (1 + STAGE_GAP)]
    fig, ax = plt.subplots(figsize=((n + 2.6) * CELL_INCHES, (4 + 3 * STAGE_GAP + 1.2) * CELL_INCHES))
    ax.set_xlim(-2.6, n + 0.1)
    ax.set_ylim(levels[-1] + 2.1, -0.2)
    ax.set_aspect("equal")
    ax.axis("off")
    names = ["the row", "1 condense", "2 collapse", "3 convert"]
    for y, name in zip(levels, names):
        ax.text(-0.15, y + 0.5, name, ha="right", va="center", fontsize=11)
        for c in range(n):
            ax.add_patch(Rectangle((c, y), 1, 1, facecolor=BOARD_COLOR, edgecolor="white", linewidth=1, zorder=1))

    def label(v: int) -> str | None:
        return words.get(v) if words else None

    for c, v in enumerate(s["row"]):
        _draw_tile(ax, c, levels[0], v, label=label(v))
    for k, (source, v, must_move) in enumerate(s["condense"]):
        _draw_tile(ax, k, levels[1], v, label=label(v), edge=MOVE_EDGE if must_move else STAY_EDGE)
        _arrow(ax, (source + 0.5, levels[0] + 1), (k + 0.5, levels[1]), MOVE_EDGE if must_move else STAY_EDGE)
    slot_of_source = {source: k for k, (source, _, _) in enumerate(s["condense"])}
    for j, (sources, v, kind) in enumerate(s["collapse"]):
        _draw_tile(ax, j, levels[2], v, label=label(v), edge=_KIND_EDGE[kind])
        for source in sources:
            _arrow(ax, (slot_of_source[source] + 0.5, levels[1] + 1), (j + 0.5, levels[2]), _KIND_EDGE[kind])
    for c, v in enumerate(s["result"]):
        _draw_tile(ax, c, levels[3], v, label=label(v))
    for j, (sources, v, kind) in enumerate(s["collapse"]):
        _arrow(ax, (j + 0.5, levels[2] + 1), (j + 0.5, levels[3]), _KIND_EDGE[kind])
    orders = [
        f"{'+'.join(map(str, srcs))} -> {dest}" + (f" merge = {v}" if merged else f" ({v})")
        for srcs, dest, v, merged in s["convert"]
    ] or ["none: nothing moves"]
    ax.text(-2.5, levels[3] + 1.35, "move orders: " + ";  ".join(orders) + f"   score +{s['score']}",
            ha="left", va="top", fontsize=10, family="monospace")
    fig.tight_layout()
    return fig


# ------------------------------------------------------------------ a whole board
def plot_move(board: Board, direction: Direction | str, *, words: Mapping[int, str] | None = None) -> Figure:
    """The board before a swipe with every moving tile's path, and the board after it.

    Blue arrows: a tile slides; red arrows: it slides into a merge (the new tile is outlined red).
    """
    board = Board(board)
    result = play(board, direction)
    n = board.size
    fig, (before, after) = plt.subplots(1, 2, figsize=(2 * n * CELL_INCHES + 0.6, n * CELL_INCHES + 0.5))
    draw_board(before, board, words=words, title="before")
    merged_cells = {m.destination: MERGE_EDGE for m in result.moves if m.merged}
    title = f"after {result.direction.value}" + (f" (+{result.score})" if result.score else "")
    if not result.changed:
        title += ": nothing moves"
    draw_board(after, result.board, words=words, title=title, outline=merged_cells)
    for k, m in enumerate(result.moves):
        if m.moved:
            (sr, sc), (dr, dc) = m.source, m.destination
            # each path runs in a lane along the tile's edge, never through a number; neighbours
            # in a line alternate lanes, so the two tiles of a merge get one lane each
            side = LANE if k % 2 else -LANE
            dx, dy = (side, 0.0) if sc == dc else (0.0, side)
            _arrow(before, (sc + 0.5 + dx, sr + 0.5 + dy), (dc + 0.5 + dx, dr + 0.5 + dy),
                   MERGE_EDGE if m.merged else MOVE_EDGE, zorder=2.5)
    for text in before.texts:  # numbers sit above the paths, ringed in their tile's colour
        x, y = text.get_position()
        text.set_path_effects([patheffects.withStroke(linewidth=4, foreground=tile_style(board[int(y), int(x)])[0])])
    fig.tight_layout()
    return fig


# ------------------------------------------------------------------ chance
def plot_spawn_map(board: Board, p_four: float = DEFAULT_P_FOUR) -> Figure:
    """Where the next tile may appear: P(a 2 here) and P(a 4 here) for every empty cell."""
    board = Board(board)
    n = board.size
    grids = {2: np.full((n, n), np.nan), 4: np.full((n, n), np.nan)}
    for spawn, p in spawn_outcomes(board, p_four):
        grids[spawn.value][spawn.cell] = p
    top = max((np.nanmax(g) for g in grids.values() if not np.all(np.isnan(g))), default=1.0)
    fig, axes = plt.subplots(1, 2, figsize=(2 * n * CELL_INCHES + 1.4, n * CELL_INCHES + 0.6))
    image = None
    for ax, value in zip(axes, (2, 4)):
        ax.set_title(f"P(a {value} spawns here)")
        image = ax.imshow(grids[value], cmap="Blues", vmin=0, vmax=top, extent=(0, n, n, 0))
        ax.set_xticks([])
        ax.set_yticks([])
        for (r, c), v in board.tile_map().items():
            _draw_tile(ax, c, r, v, alpha=0.55)
        for r in range(n):
            for c in range(n):
                p = grids[value][r, c]
                if not np.isnan(p):
                    ax.text(c + 0.5, r + 0.5, f"{p:.3f}", ha="center", va="center", fontsize=9,
                            color="white" if p > top / 2 else "black", gid="spawn-p")
    fig.colorbar(image, ax=list(axes), shrink=0.8, label="probability")
    fig.suptitle(f"{len(board.empty_cells())} empty cells, p_four = {p_four}")
    return fig


def plot_score_comparison(
    results: Mapping[str, Sequence[float]], *, xlabel: str = "final score", bins: int = 20
) -> Figure:
    """Overlaid histograms of one number per game (score, moves, max tile) for each rule set."""
    fig, ax = plt.subplots(figsize=(7, 3.4))
    everything = np.concatenate([np.asarray(v, dtype=float) for v in results.values()])
    edges = np.histogram_bin_edges(everything, bins=bins)
    for name, values in results.items():
        values = np.asarray(values, dtype=float)
        ax.hist(values, bins=edges, alpha=0.55, label=f"{name}: mean {values.mean():.0f}")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    ax.legend()
    fig.tight_layout()
    return fig


def plot_paired_differences(
    differences: Sequence[float], *, interval: tuple[float, float] | None = None,
    xlabel: str = "score difference on the same seed", bins: int = 20,
) -> Figure:
    """One bar per range of paired differences (same seed, two rules), zero marked, and the interval.

    A paired comparison looks at these differences, not at two overlaid histograms: the question
    is where their mean lies relative to 0.

    >>> fig = plot_paired_differences([-30, 10, 40, 55], interval=(-20, 70))
    >>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()][:1]
    ['mean 19, 95% interval -20 to 70']
    """
    values = np.asarray(differences, dtype=float)
    fig, ax = plt.subplots(figsize=(7, 3.2))
    ax.hist(values, bins=bins, color="#9ecae1", edgecolor="white")
    label = f"mean {values.mean():.0f}"
    if interval is not None:
        low, high = interval
        label += f", 95% interval {low:.0f} to {high:.0f}"
        ax.axvspan(low, high, color=MERGE_EDGE, alpha=0.18, linewidth=0)
    ax.axvline(values.mean(), color=MERGE_EDGE, linewidth=2, label=label)
    ax.axvline(0, color="#444444", linewidth=1.2, linestyle="--", label="0: no difference")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("seeds")
    # the legend goes under the axes, where it can hide neither the bars nor the interval band
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=2, fontsize=9, frameon=False)
    fig.tight_layout()
    return fig


def plot_interval_coverage(
    lows: Sequence[float], highs: Sequence[float], truth: float, *, xlabel: str = "value", title: str | None = None,
) -> Figure:
    """One horizontal line per repeated experiment, from its interval's low end to its high end, and the truth.

    An interval that covers the truth is drawn blue, one that misses it red; the title counts them.

    >>> fig = plot_interval_coverage([1.0, 2.5, 1.8], [3.0, 2.9, 2.6], truth=2.2)
    >>> fig.axes[0].get_title()
    '2 of 3 intervals cover the truth (2.2): blue covers it, red misses it'
    """
    lows, highs = np.asarray(lows, dtype=float), np.asarray(highs, dtype=float)
    if lows.shape != highs.shape or lows.ndim != 1 or lows.size == 0:
        raise ValueError(f"give one low and one high end per experiment (got {lows.size} lows, {highs.size} highs)")
    covers = (lows <= truth) & (truth <= highs)
    fig, ax = plt.subplots(figsize=(7, min(6.0, 0.05 * lows.size + 1.8)))
    rows = np.arange(1, lows.size + 1)
    ax.hlines(rows[covers], lows[covers], highs[covers], color=MOVE_EDGE, linewidth=1.4)
    ax.hlines(rows[~covers], lows[~covers], highs[~covers], color=MERGE_EDGE, linewidth=2.6)  # thicker: not by colour only
    ax.axvline(truth, color="#444444", linewidth=1.2, linestyle="--")
    ax.set_xlabel(xlabel + " (dashed: the truth)")
    ax.set_ylabel("experiment")
    ax.set_ylim(0, lows.size + 1)
    ax.set_title(title if title is not None else
                 f"{covers.sum()} of {covers.size} intervals cover the truth ({truth:.4g}): blue covers it, red misses it")
    fig.tight_layout()
    return fig
