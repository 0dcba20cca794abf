"""Pictures for the match-3 lesson; every function returns a matplotlib ``Figure``.

Candies are drawn with a colour *and* a shape per kind (:mod:`tilelab.match3.candies`).

>>> from tilelab.match3 import new_board
>>> fig = plot_board(new_board(6, 6, 5, rng=0), title="a new board")
>>> fig.axes[0].get_title()
'a new board'
"""

from __future__ import annotations

from typing import Iterable, Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, Polygon, Rectangle

from tilelab.match3 import EMPTY, Board, Cell, Group, SwapResult
from tilelab.match3.candies import OUTLINE_COLOUR, candy_style
from tilelab.match3.matches import DIRECTIONS, four_direction_counts

__all__ = [
    "draw_board",
    "plot_board",
    "plot_boards",
    "plot_cascade",
    "plot_cascade_lengths",
    "plot_dead_heatmap",
    "plot_four_directions",
    "draw_special_board",
    "plot_special_boards",
    "plot_special_swap",
]

BOARD_COLOUR = "#f3efe6"
GRID_COLOUR = "#d9d2c3"
MATCH_COLOUR = "#d62728"
REFILL_COLOUR = "#1f77b4"
MOVE_COLOUR = "#444444"
CELL_INCHES = 0.42
TITLE_INCHES_PER_CHAR = 0.08  # a 10-point title character, with room to spare
CANDY_SCALE = 0.4  # half-size of a candy, in cells


def _centre(cell: Cell) -> tuple[float, float]:
    return cell[1] + 0.5, cell[0] + 0.5


def draw_candy(ax: Axes, cell: Cell, kind: int, *, alpha: float = 1.0) -> None:
    """One candy: its kind's polygon in its kind's colour, centred in ``cell``."""
    style = candy_style(kind)
    x, y = _centre(cell)
    points = [(x + CANDY_SCALE * px, y + CANDY_SCALE * py) for px, py in style.outline]
    ax.add_patch(Polygon(points, closed=True, facecolor=style.colour, edgecolor=OUTLINE_COLOUR,
                         linewidth=0.8, alpha=alpha, zorder=2))


def _outline(ax: Axes, cells: Iterable[Cell], colour: str, style: str = "-", width: float = 2.2) -> None:
    for r, c in cells:
        ax.add_patch(Rectangle((c + 0.06, r + 0.06), 0.88, 0.88, fill=False, edgecolor=colour,
                               linewidth=width, linestyle=style, zorder=3))


def _arrow(ax: Axes, a: Cell, b: Cell, colour: str, *, both: bool = False, width: float = 1.4) -> None:
    (x0, y0), (x1, y1) = _centre(a), _centre(b)
    ax.add_patch(FancyArrowPatch((x0, y0), (x1, y1), arrowstyle="<|-|>" if both else "-|>",
                                 mutation_scale=10, color=colour, linewidth=width, zorder=4,
                                 shrinkA=6, shrinkB=6))


def _draw_grid(ax: Axes, rows: int, cols: int) -> None:
    """The empty board both pictures (plain and special) start from: background and grid lines."""
    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.add_patch(Rectangle((0, 0), cols, rows, color=BOARD_COLOUR, zorder=0))
    for r in range(rows + 1):
        ax.plot([0, cols], [r, r], color=GRID_COLOUR, linewidth=0.6, zorder=1)
    for c in range(cols + 1):
        ax.plot([c, c], [0, rows], color=GRID_COLOUR, linewidth=0.6, zorder=1)


def draw_board(
    ax: Axes,
    board: Board,
    *,
    groups: Sequence[Group] = (),
    falls: Sequence[tuple[Cell, Cell]] = (),
    refills: Sequence[tuple[Cell, int]] = (),
    move: tuple[Cell, Cell] | None = None,
    highlight: Iterable[Cell] = (),
    title: str | None = None,
) -> Axes:
    """Draw ``board`` on ``ax``; matched groups outlined red, falls as arrows, refills dashed blue."""
    _draw_grid(ax, board.rows, board.cols)
    for cell in board.cells():
        if board[cell] != EMPTY:
            draw_candy(ax, cell, board[cell])
    for group in groups:
        _outline(ax, group.cells, MATCH_COLOUR)
    _outline(ax, highlight, MOVE_COLOUR, width=2.6)
    _outline(ax, (cell for cell, _ in refills), REFILL_COLOUR, style="--", width=1.6)
    for src, dst in falls:
        _arrow(ax, src, dst, MOVE_COLOUR, width=1.0)
    if move is not None:
        _arrow(ax, move[0], move[1], MOVE_COLOUR, both=True, width=2.0)
    if title:
        ax.set_title(title, fontsize=10)
    return ax


def plot_board(board: Board, *, title: str | None = None, **marks) -> Figure:
    """One board as a figure; ``marks`` as in :func:`draw_board` (groups, move, highlight...)."""
    fig, ax = plt.subplots(figsize=(max(2.0, board.cols * CELL_INCHES), max(2.0, board.rows * CELL_INCHES) + 0.3))
    draw_board(ax, board, title=title, **marks)
    fig.tight_layout()
    return fig


def _panel_inches(cols: int, titles: Sequence[str] | None, least: float) -> float:
    """Width of one panel in a strip: the board's, or wider when a title needs it (titles never overlap)."""
    longest = max((len(t) for t in titles or () if t), default=0)
    return max(least, cols * CELL_INCHES, TITLE_INCHES_PER_CHAR * longest)


def plot_boards(boards: Sequence[Board], titles: Sequence[str] | None = None, *,
                marks: Sequence[dict] | None = None, suptitle: str | None = None) -> Figure:
    """Several boards side by side (a before/after strip)."""
    n = len(boards)
    if n == 0:
        raise ValueError("plot_boards needs at least one board")
    rows, cols = boards[0].rows, boards[0].cols
    fig, axes = plt.subplots(1, n, figsize=(n * _panel_inches(cols, titles, 1.8), max(1.8, rows * CELL_INCHES) + 0.4),
                             squeeze=False)
    for i, (ax, board) in enumerate(zip(axes[0], boards)):
        draw_board(ax, board, title=titles[i] if titles else None, **(marks[i] if marks else {}))
    if suptitle:
        fig.suptitle(suptitle)
    fig.tight_layout()
    return fig


def plot_cascade(result: SwapResult, *, max_steps: int | None = None) -> Figure:
    """Storyboard of one swap: per cascade step, matched -> cleared -> fallen -> refilled.

    >>> from tilelab.match3 import Board, swap
    >>> result = swap(Board.parse("0120\\n1201\\n0012\\n2102"), (2, 2), (3, 2), rng=1)
    >>> fig = plot_cascade(result)
    >>> len(fig.axes), fig.axes[0].get_title()
    (6, 'swap (2, 2) <-> (3, 2)')
    """
    steps = result.steps[:max_steps] if max_steps else result.steps
    n_rows = 1 + len(steps)
    board = result.board
    size = max(1.7, board.cols * CELL_INCHES)
    fig = plt.figure(figsize=(4 * size, n_rows * (max(1.7, board.rows * CELL_INCHES) + 0.45)))
    grid = fig.add_gridspec(n_rows, 4)
    ax = fig.add_subplot(grid[0, 0])
    verdict = "" if result.legal else " (no match: swapped back)"
    before = result.swapped.swapped(result.a, result.b)
    draw_board(ax, before, move=(result.a, result.b), title=f"swap {result.a} <-> {result.b}{verdict}")
    info = fig.add_subplot(grid[0, 1:])
    info.axis("off")
    info.text(0.02, 0.5, f"score {result.score} in {result.cascades} cascade step(s)\n"
              "red: matched   arrows: falls   dashed blue: new candies", va="center", fontsize=10)
    for i, step in enumerate(steps, start=1):
        points = " + ".join(f"{g.shape}" for g in step.groups)
        panels = [
            (step.before, {"groups": step.groups}, f"step {step.index}: {points}"),
            (step.cleared, {}, "cleared"),
            (step.fallen, {"falls": step.falls}, "fallen"),
            (step.board, {"refills": step.refills}, f"refilled: +{step.score} (x{step.index})"),
        ]
        for j, (b, marks, title) in enumerate(panels):
            draw_board(fig.add_subplot(grid[i, j]), b, title=title, **marks)
    fig.tight_layout()
    return fig


def plot_four_directions(board: Board, cell: Cell) -> Figure:
    """The article's count from one cell: same-kind neighbours up, down, left and right."""
    counts = four_direction_counts(board, cell)
    fig, ax = plt.subplots(figsize=(max(3.2, board.cols * CELL_INCHES * 1.4), max(3.0, board.rows * CELL_INCHES * 1.4)))
    seen = [(cell[0] + dr * i, cell[1] + dc * i) for name, (dr, dc) in DIRECTIONS.items()
            for i in range(1, counts[name] + 1)]
    draw_board(ax, board, highlight=[cell])
    _outline(ax, seen, MATCH_COLOUR, style="--")
    for name, (dr, dc) in DIRECTIONS.items():
        x, y = _centre(cell)
        ax.text(x + 0.36 * dc, y + 0.36 * dr, str(counts[name]),
                ha="center", va="center", fontsize=9, color="white", zorder=6,
                bbox={"boxstyle": "circle,pad=0.15", "facecolor": MATCH_COLOUR, "edgecolor": "none"})
    across, along = counts["left"] + counts["right"], counts["up"] + counts["down"]
    verdict = "a run" if max(across, along) >= 2 else "no run"
    ax.set_title(f"from {cell}: left+right = {across}\nup+down = {along} -> {verdict}", fontsize=10)
    fig.tight_layout()
    return fig


def plot_dead_heatmap(table: np.ndarray, sizes: Sequence[int], kinds: Sequence[int], *,
                      samples: int | None = None) -> Figure:
    """Heatmap of dead-board frequency: rows = board size (n x n), columns = number of kinds."""
    table = np.asarray(table, dtype=float)
    if table.shape != (len(sizes), len(kinds)):
        raise ValueError(f"table shape {table.shape} does not match {len(sizes)} sizes x {len(kinds)} kinds")
    fig, ax = plt.subplots(figsize=(1.2 * len(kinds) + 2.2, 0.7 * len(sizes) + 1.6))
    image = ax.imshow(table, cmap="magma_r", vmin=0, vmax=max(0.05, float(table.max())), aspect="auto")
    ax.set_xticks(range(len(kinds)), [str(k) for k in kinds])
    ax.set_yticks(range(len(sizes)), [f"{n}x{n}" for n in sizes])
    ax.set_xlabel("kinds of candy")
    ax.set_ylabel("board size")
    for i in range(len(sizes)):
        for j in range(len(kinds)):
            v = table[i, j]
            ax.text(j, i, f"{100 * v:.2f}%", ha="center", va="center", fontsize=9,
                    color="white" if v > 0.5 * table.max() else "black")
    fig.colorbar(image, ax=ax, label="share of no-run boards with no move")
    how = f" ({samples} boards per cell)" if samples else ""
    ax.set_title(f"How often a new no-run board is already dead{how}", fontsize=10)
    fig.tight_layout()
    return fig


def plot_cascade_lengths(lengths: Sequence[int] | np.ndarray, *, title: str | None = None) -> Figure:
    """Histogram of cascade steps per move (1 = only the swap's own match)."""
    lengths = np.asarray(lengths, dtype=int)
    if lengths.size == 0:
        raise ValueError("no cascade lengths to plot")
    top = int(lengths.max())
    counts = np.bincount(lengths, minlength=top + 1)[1:]
    fig, ax = plt.subplots(figsize=(6, 3.2))
    ax.bar(range(1, top + 1), counts / lengths.size, color="#0072B2")
    ax.set_yscale("log")
    ax.set_xticks(range(1, top + 1))
    ax.set_xlabel("cascade steps in one move")
    ax.set_ylabel("share of moves (log)")
    ax.set_title(title or f"{lengths.size} random moves: mean {lengths.mean():.2f} steps", fontsize=10)
    fig.tight_layout()
    return fig


# ----------------------------------------------------------------------------- special candies

BLAST_COLOUR = "#E69F00"


def draw_special_candy(ax: Axes, cell: Cell, kind: int, special: str) -> None:
    """A candy with its special's pattern: stripes, a dashed wrapper, or a sprinkled colour bomb."""
    from matplotlib.patches import Circle
    from matplotlib.patches import Rectangle as Rect

    from tilelab.match3 import specials_style as look

    x, y = _centre(cell)
    h = CANDY_SCALE
    if special == "colour-bomb":
        ax.add_patch(Circle((x, y), look.BOMB_RADIUS * h, facecolor=look.BOMB_COLOUR, edgecolor=OUTLINE_COLOUR, zorder=2))
        for dx, dy in look.BOMB_SPRINKLES:
            ax.add_patch(Circle((x + dx * h, y + dy * h), 0.12 * h, facecolor=look.SPRINKLE_COLOUR, zorder=2.5))
        return
    draw_candy(ax, cell, kind)
    for (x0, y0), (x1, y1) in look.stripe_lines(special):
        ax.plot([x + x0 * h, x + x1 * h], [y + y0 * h, y + y1 * h], color=look.STRIPE_EDGE, linewidth=3.2, zorder=2.6,
                solid_capstyle="round")
        ax.plot([x + x0 * h, x + x1 * h], [y + y0 * h, y + y1 * h], color=look.STRIPE_COLOUR, linewidth=1.6, zorder=2.7,
                solid_capstyle="round")
    if special.startswith("wrapped"):
        w = look.WRAPPER_HALF * h
        ax.add_patch(Rect((x - w, y - w), 2 * w, 2 * w, fill=False, edgecolor=look.WRAPPER_COLOUR, linewidth=1.6,
                          linestyle="--", zorder=2.6))
        if special == "wrapped-primed":
            ax.add_patch(Rect((x - 0.8 * w, y - 0.8 * w), 1.6 * w, 1.6 * w, fill=False,
                              edgecolor=look.WRAPPER_COLOUR, linewidth=1.2, zorder=2.6))


def draw_special_board(ax: Axes, board, *, blast: Iterable[Cell] = (), groups: Sequence[Group] = (),
                       move: tuple[Cell, Cell] | None = None, title: str | None = None) -> Axes:
    """Draw a :class:`~tilelab.match3.special_board.SpecialBoard`; ``blast`` cells shaded orange and hatched."""
    _draw_grid(ax, board.rows, board.cols)
    for r, c in blast:
        ax.add_patch(Rectangle((c, r), 1, 1, facecolor=BLAST_COLOUR, alpha=0.45, hatch="///", edgecolor="#8a5a00",
                               linewidth=0, zorder=0.5))
    for cell in board.cells():
        if board[cell] != EMPTY:
            draw_special_candy(ax, cell, board[cell], board.special(cell))
    for group in groups:
        _outline(ax, group.cells, MATCH_COLOUR)
    if move is not None:
        _arrow(ax, move[0], move[1], MOVE_COLOUR, both=True, width=2.0)
    if title:
        ax.set_title(title, fontsize=10)
    return ax


def plot_special_boards(boards: Sequence, titles: Sequence[str] | None = None, *,
                        marks: Sequence[dict] | None = None, suptitle: str | None = None) -> Figure:
    """Several special boards side by side; ``marks[i]`` as in :func:`draw_special_board`.

    >>> from tilelab.match3 import SpecialBoard
    >>> fig = plot_special_boards([SpecialBoard.parse("0- 1| 2+\\n* 0 1")], ["specials"])
    >>> fig.axes[0].get_title()
    'specials'
    """
    if not boards:
        raise ValueError("plot_special_boards needs at least one board")
    rows, cols = boards[0].rows, boards[0].cols
    size = max(_panel_inches(cols, titles, 2.2), cols * 0.5)
    fig, axes = plt.subplots(1, len(boards), figsize=(len(boards) * size, max(2.2, rows * 0.5) + 0.5), squeeze=False)
    for i, (ax, board) in enumerate(zip(axes[0], boards)):
        draw_special_board(ax, board, title=titles[i] if titles else None, **(marks[i] if marks else {}))
    if suptitle:
        fig.suptitle(suptitle)
    fig.tight_layout()
    return fig


def plot_special_swap(result, *, max_steps: int | None = 3) -> Figure:
    """Storyboard of a swap with specials: per step, matches + blasts -> cleared -> refilled.

    >>> from tilelab.match3 import SpecialBoard, swap_specials
    >>> r = swap_specials(SpecialBoard.parse("0 1- 2\\n1 2| 0\\n2 0 1"), (0, 1), (1, 1), rng=0)
    >>> len(plot_special_swap(r).axes) >= 4
    True
    """
    steps = result.steps[:max_steps] if max_steps else result.steps
    board = result.board
    size = max(2.0, board.cols * 0.45)
    fig, axes = plt.subplots(1 + len(steps), 3, figsize=(3 * size, (1 + len(steps)) * (max(2.0, board.rows * 0.45) + 0.5)),
                             squeeze=False)
    draw_special_board(axes[0, 0], result.swapped.swapped(result.a, result.b), move=(result.a, result.b),
                       title=f"swap {result.a} <-> {result.b}")
    axes[0, 1].axis("off")
    axes[0, 2].axis("off")
    axes[0, 1].text(0.0, 0.5, f"{result.combo if result.combo != 'none' else 'ordinary swap'}\n"
                    f"score {result.score} in {result.cascades} step(s)\n"
                    "red: matched  orange: blasts", va="center", fontsize=10)
    for i, step in enumerate(steps, start=1):
        blast = set().union(*(a.cells for a in step.activations)) if step.activations else set()
        fired = f"{len(step.activations)} blast(s)" if step.activations else "matches"
        draw_special_board(axes[i, 0], step.before, groups=step.groups, blast=blast,
                           title=f"step {step.index}: {fired}")
        draw_special_board(axes[i, 1], step.cleared, title=f"cleared {len(step.cleared_cells)}")
        draw_special_board(axes[i, 2], step.board, title=f"fallen + refilled: +{step.score}")
    fig.tight_layout()
    return fig
