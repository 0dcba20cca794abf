"""Pictures for lesson 4 (solving the sliding puzzle); every function returns a ``Figure``.

>>> from tilelab.sliding import shuffle
>>> fig = plot_heuristic_values(shuffle(3, 3, rng=0).rows, 3, sample=200)
>>> len(fig.axes)
1
"""

from __future__ import annotations

from typing import Callable, Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from tilelab.randomness import RngLike, as_generator
from tilelab.plots.sliding import CELL_INCHES, draw_board
from tilelab.sliding import Board
from tilelab.sliding.heuristics import HEURISTICS
from tilelab.sliding.space import distance_table, unrank

__all__ = [
    "plot_heuristic_values",
    "plot_human_storyboard",
    "plot_nodes_by_heuristic",
    "plot_pattern_database",
    "plot_blank_routes",
    "plot_search_step",
    "plot_search_tree",
    "search_levels",
    "plot_weighted_tradeoff",
]

COLOURS = {"misplaced": "#b3261e", "manhattan": "#f6a623", "linear-conflict": "#1f6f99", "pdb": "#1b7f3b"}
PATTERN_COLOURS = ("#4ac2fb", "#f6a623", "#7bc67b", "#c58be0", "#f28e8e")
SEED = 0


def plot_nodes_by_heuristic(nodes: Mapping[str, Sequence[int]], *, title: str | None = None) -> Figure:
    """Nodes expanded per board for each heuristic, on a log scale (dots) with the mean (bar).

    ``nodes`` maps a heuristic's name to the node counts of the same boards, e.g. from
    ``{h: [solve(b, heuristic=h).nodes for b in boards] for h in ...}``.

    >>> fig = plot_nodes_by_heuristic({"manhattan": [100, 300], "pdb": [5, 9]})
    >>> fig.axes[0].get_yscale()
    'log'
    """
    if not nodes:
        raise ValueError("give at least one heuristic's node counts")
    fig, ax = plt.subplots(figsize=(1.6 + 1.5 * len(nodes), 3.6))
    rng = np.random.default_rng(SEED)
    for i, (name, counts) in enumerate(nodes.items()):
        counts = np.maximum(np.asarray(counts, float), 1)
        colour = COLOURS.get(name, "#555555")
        ax.bar(i, counts.mean(), width=0.6, color=colour, alpha=0.3)
        ax.scatter(i + rng.uniform(-0.2, 0.2, len(counts)), counts, s=14, color=colour, zorder=3)
        ax.text(i, counts.mean() * 1.15, f"{counts.mean():,.0f}", ha="center", va="bottom", fontsize=9)
    ax.set_xticks(range(len(nodes)), list(nodes))
    ax.set_yscale("log")
    ax.set_ylabel("nodes expanded, log scale")
    ax.set_title(title or "Nodes expanded per board (bar = mean)")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


def plot_heuristic_values(
    rows: int = 3,
    cols: int = 3,
    heuristics: Mapping[str, Callable[[Board], int]] | None = None,
    *,
    sample: int = 3000,
    rng: RngLike = None,
) -> Figure:
    """Mean heuristic value against the true distance (from the BFS table), with ``h = d``.

    An admissible heuristic stays on or under the diagonal; the closer to it, the fewer
    boards the search has to expand. ``rng`` (a seed, ``SEED`` when none is given, or a
    Generator) picks the sampled boards.
    """
    rng = SEED if rng is None else rng
    heuristics = dict(HEURISTICS) if heuristics is None else dict(heuristics)
    table = distance_table(rows, cols)
    ranks = np.flatnonzero(table >= 0)
    chosen = as_generator(rng).choice(ranks, size=min(sample, len(ranks)), replace=False)
    boards = [Board(unrank(int(r), rows * cols), rows, cols) for r in chosen]
    truth = table[chosen].astype(int)
    fig, ax = plt.subplots(figsize=(6, 4))
    top = int(truth.max())
    ax.plot([0, top], [0, top], color="black", lw=1, ls="--", label="true distance (h = d)")
    for name, h in heuristics.items():
        values = np.array([h(b) for b in boards])
        ds = np.unique(truth)
        means = [values[truth == d].mean() for d in ds]
        ax.plot(ds, means, marker="o", ms=3, color=COLOURS.get(name), label=f"{name} (mean {values.mean():.1f})")
    ax.set_xlabel("true distance to the goal (moves)")
    ax.set_ylabel("mean heuristic value")
    ax.set_title(f"Heuristics on {len(boards):,} random {rows}x{cols} boards")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def plot_weighted_tradeoff(rows: Sequence[tuple[float, float, float]]) -> Figure:
    """Weighted A*: for each weight, mean solution length over optimal, and mean nodes.

    ``rows`` holds ``(weight, mean length / optimal length, mean nodes expanded)``.

    >>> fig = plot_weighted_tradeoff([(1, 1.0, 900), (2, 1.1, 90)])
    >>> len(fig.axes)
    2
    """
    if not rows:
        raise ValueError("give at least one (weight, length ratio, nodes) row")
    weights, ratio, nodes = (np.array(x, float) for x in zip(*rows))
    fig, ax = plt.subplots(figsize=(6, 3.6))
    ax.plot(weights, ratio, marker="o", color="#b3261e", label="length / optimal")
    ax.set_xlabel("weight w in f = g + w h")
    ax.set_ylabel("solution length / optimal", color="#b3261e")
    ax.axhline(1, color="#b3261e", lw=0.8, ls=":")
    other = ax.twinx()
    other.plot(weights, nodes, marker="s", color="#1f6f99", label="nodes expanded")
    other.set_yscale("log")
    other.set_ylabel("nodes expanded, log scale", color="#1f6f99")
    ax.set_title("Weighted A*: shorter searches, longer solutions")
    fig.tight_layout()
    return fig


def plot_pattern_database(db) -> Figure:
    """The split of the tiles into patterns (goal board coloured by pattern) and, for each
    pattern, how many placements lie at each distance."""
    rows, cols = db.rows, db.cols
    fig, axes = plt.subplots(1, 1 + len(db.patterns), figsize=(3 + 2.6 * len(db.patterns), 2.8),
                             gridspec_kw={"width_ratios": [1.1] + [1] * len(db.patterns)})
    board = axes[0]
    board.set_xlim(0, cols)
    board.set_ylim(rows, 0)
    board.set_aspect("equal")
    board.axis("off")
    for g, pattern in enumerate(db.patterns):
        colour = PATTERN_COLOURS[g % len(PATTERN_COLOURS)]
        for t in pattern:
            r, c = divmod(t - 1, cols)
            board.add_patch(Rectangle((c + 0.05, r + 0.05), 0.9, 0.9, fc=colour, ec="white"))
            board.text(c + 0.5, r + 0.5, str(t), ha="center", va="center", fontweight="bold", color="white")
    board.set_title("the patterns")
    for g, (ax, pattern) in enumerate(zip(axes[1:], db.patterns)):
        hist = db.histogram(g)
        ax.bar(range(len(hist)), hist, color=PATTERN_COLOURS[g % len(PATTERN_COLOURS)])
        ax.set_title(f"{len(pattern)} tiles: {int(hist.sum()):,} placements", fontsize=9)
        ax.set_xlabel("moves of the pattern's tiles")
        ax.set_yscale("log")
    axes[1].set_ylabel("placements, log scale")
    fig.tight_layout()
    return fig


def plot_human_storyboard(board: Board, moves: Sequence[int], stages: Sequence[tuple[str, int]]) -> Figure:
    """The human strategy as a strip of boards: the start, then the board after each line
    (tiles of finished lines highlighted).

    >>> from tilelab.sliding import shuffle
    >>> from tilelab.sliding.human import human_moves, human_stages
    >>> p = shuffle(3, 3, rng=1)
    >>> len(plot_human_storyboard(p, human_moves(p), human_stages(p)).axes)
    4
    """
    frames = [(board, "start", ())]
    shown, done, top, left = board, 0, 0, 0
    for name, upto in stages:
        shown = shown.play_all(moves[done:upto])
        done = upto
        kind, _, number = name.partition(" ")
        if kind == "row":
            top = int(number)
        elif kind == "column":
            left = int(number)
        else:  # the last block: everything is placed
            top = board.rows
        placed = [t for i, t in enumerate(shown.tiles)
                  if t and (divmod(t - 1, board.cols)[0] < top or divmod(t - 1, board.cols)[1] < left)]
        frames.append((shown, f"{name}\nafter {upto} moves", placed))
    width = CELL_INCHES * board.cols + 0.5
    fig, axes = plt.subplots(1, len(frames), figsize=(width * len(frames), CELL_INCHES * board.rows + 1.0),
                             squeeze=False)
    for ax, (b, title, placed) in zip(axes[0], frames):
        draw_board(ax, b, highlight=placed, title=title)
    fig.tight_layout()
    return fig


def search_levels(board: Board, depth: int = 2) -> list[list[tuple[Board, int | None, int | None]]]:
    """Every board within ``depth`` moves, once each, by level: ``(board, tile slid, parent index)``.

    A board already drawn on an earlier level (such as the start, one move back) is not repeated.

    >>> from tilelab.sliding import Board
    >>> [len(level) for level in search_levels(Board.parse('1 2 3\\n4 . 6\\n7 5 8'), 2)]
    [1, 4, 8]
    """
    from tilelab.sliding.search import children

    levels: list[list[tuple[Board, int | None, int | None]]] = [[(board, None, None)]]
    seen = {board}
    for _ in range(depth):
        nxt = []
        for i, (board, _, _) in enumerate(levels[-1]):
            for tile, child in children(board):
                if child not in seen:
                    seen.add(child)
                    nxt.append((child, tile, i))
        levels.append(nxt)
    return levels


def plot_search_tree(board: Board, depth: int = 2) -> Figure:
    """Every board within ``depth`` moves of ``board``, each drawn once, joined by the moves.

    Each edge is one slide, labelled with the tile that moves; every slide can be undone, so the
    edges go both ways (the way back to a board already drawn is not drawn again).

    >>> from tilelab.sliding import Board
    >>> fig = plot_search_tree(Board.parse('1 2 3\\n4 . 6\\n7 5 8'), depth=2)
    >>> len(fig.axes), sum(isinstance(a, plt.Line2D) for a in fig.artists)  # 1 + 4 + 8 boards, 12 edges
    (13, 12)
    """
    levels = search_levels(board, depth)
    widest = max(len(level) for level in levels)
    fig = plt.figure(figsize=(max(min(1.05 * widest + 1, 14), 6), 2.0 * (depth + 1)))
    box_w, box_h = 0.8 / widest, 0.62 / (depth + 1)
    centres = []
    for k, level in enumerate(levels):
        row = []
        for i, (board, tile, _) in enumerate(level):
            x = (i + 0.5) / len(level)
            y = 1 - (k + 0.55) / (depth + 1)
            ax = fig.add_axes([x - box_w / 2, y - box_h / 2, box_w, box_h])
            draw_board(ax, board, highlight=[tile] if tile else ())
            row.append((x, y))
        centres.append(row)
    for k in range(1, len(levels)):
        for i, (_, tile, parent) in enumerate(levels[k]):
            (x0, y0), (x1, y1) = centres[k - 1][parent], centres[k][i]
            top, bottom = y0 - box_h / 2 - 0.01, y1 + box_h / 2 + 0.01
            fig.add_artist(plt.Line2D([x0, x1], [top, bottom], color="#777777", lw=1, transform=fig.transFigure))
            fig.text((x0 + x1) / 2, (top + bottom) / 2, str(tile), ha="center", va="center", fontsize=10,
                     bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="#777777", lw=0.5))
    sizes = " + ".join(str(len(level)) for level in levels)
    fig.suptitle(f"Every board within {depth} moves, each drawn once ({sizes} boards)\n"
                 "an edge is one slide (label: the tile that moves); every slide can be undone", fontsize=11)
    return fig


SEARCH_NAMES = {"bfs": "BFS", "astar": "A*", "weighted-astar": "weighted A*", "idastar": "IDA*"}
NEXT_BOARDS = 4  # boards of the open set drawn after the one being expanded


def _counts(points: Sequence[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct (g, h) points and how many boards sit on each."""
    if not points:
        return np.empty(0), np.empty(0), np.empty(0)
    keys, counts = np.unique(np.asarray(points, int), axis=0, return_counts=True)
    return keys[:, 0], keys[:, 1], counts


def plot_search_step(trace, step: int, *, shown_h: Callable[[Board], int] | None = None) -> Figure:
    """One step of a search trace (:mod:`tilelab.sliding.trace`): the board being expanded, the
    open and closed sets on a map of ``g`` (moves from the start) against ``h`` (guess of the
    moves left), and the next boards waiting in the open set.

    On the map, every diagonal ``g + h = f`` is a line of equal ``f``: A* expands the open set's
    lowest diagonal first, IDA* never crosses its bound (dashed). BFS uses no ``h``; its map shows
    Manhattan distance (or ``shown_h``) only so that the picture has a second axis.

    >>> from tilelab.sliding import Board
    >>> from tilelab.sliding.heuristics import manhattan
    >>> from tilelab.sliding.trace import astar_trace
    >>> t = astar_trace(Board.parse('4 1 2\\n5 . 3'), manhattan)
    >>> fig = plot_search_step(t, 2)
    >>> fig.axes[0].get_title().splitlines()[0]
    'A*, step 3 of 6: expand'
    """
    from tilelab.sliding.heuristics import manhattan

    if not trace.steps:
        raise ValueError("this trace has no steps (the start was already the goal)")
    if not 0 <= step < len(trace.steps):
        raise ValueError(f"step must be between 0 and {len(trace.steps) - 1}, got {step}")
    s = trace.steps[step]
    uses_h = trace.method != "bfs"
    h_of = (lambda w: w.h) if uses_h else (lambda w: (shown_h or manhattan)(w.board))
    name = SEARCH_NAMES.get(trace.method, trace.method)

    fig = plt.figure(figsize=(12.5, 4.2))
    grid = fig.add_gridspec(2, 2 + NEXT_BOARDS // 2, width_ratios=[1.25, 2.3] + [0.8] * (NEXT_BOARDS // 2))
    board_ax = fig.add_subplot(grid[:, 0])
    map_ax = fig.add_subplot(grid[:, 1])
    previous = s.path[-2] if len(s.path) > 1 else None
    moved = [t for t, p in zip(s.board.tiles, previous.tiles) if t != p and t] if previous else []
    h_now = s.h if uses_h else (shown_h or manhattan)(s.board)
    title = f"{name}, step {step + 1} of {len(trace.steps)}: expand\ng = {s.g}, h = {h_now}"
    title += f", f = {s.g + h_now}" if uses_h else " (not used)"
    if s.bound is not None:
        title += f"\nbound = {s.bound} (round {s.round + 1})"
    if s.board.is_goal():
        title += "\nthe goal!"
    draw_board(board_ax, s.board, highlight=moved, title=title)
    board_ax.title.set_fontsize(11)

    closed = _closed_points(trace, s, h_of)
    waiting = [(w.g, h_of(w)) for w in s.open[1:]]  # open[0] is the board being expanded
    for points, colour, label in ((closed, "#9e9e9e", f"closed set: {s.closed_count:,}"),
                                  (waiting, "#f6a623", f"open set: {len(waiting):,} waiting")):
        gx, hy, n = _counts(points)
        if len(n):
            map_ax.scatter(gx, hy, s=18 + 60 * np.sqrt(n / n.max()), color=colour, alpha=0.85,
                           label=label, zorder=2, edgecolors="white", linewidths=0.5)
        else:
            map_ax.scatter([], [], color=colour, label=label)
    ph = [_h_on_path(trace, s, k, h_of) for k in range(len(s.path))] if trace.method == "idastar" else []
    if ph:
        map_ax.plot(range(len(s.path)), ph, color="#1f6f99", lw=2, marker="o", ms=4, zorder=3,
                    label="current path (all IDA* remembers)")
    map_ax.scatter([s.g], [h_now], s=160, marker="*", color="#b3261e", zorder=4, label="being expanded")
    top_g = max([s.g + 2] + [p[0] + 1 for p in closed + waiting])
    top_h = max([h_now + 2] + [p[1] + 1 for p in closed + waiting] + [h + 1 for h in ph])
    f_line = s.bound if s.bound is not None else (s.g + h_now if uses_h else None)
    if s.bound is not None:  # show where the bound meets both axes
        top_g, top_h = max(top_g, s.bound + 1), max(top_h, s.bound + 1)
    if f_line is not None:
        label = f"bound: g + h = {s.bound}" if s.bound is not None else f"g + h = {f_line} (this f)"
        map_ax.plot([0, f_line], [f_line, 0], color="black", ls="--", lw=1, label=label, zorder=1)
    map_ax.set_xlim(-0.5, top_g + 0.5)
    map_ax.set_ylim(-0.5, top_h + 0.5)
    map_ax.set_xlabel("g: moves from the start")
    map_ax.set_ylabel("h: heuristic (moves still needed, a guess)" if uses_h else "Manhattan h (BFS ignores it)")
    map_ax.set_title("open and closed sets (dot size: boards on that point)", fontsize=10)
    map_ax.grid(alpha=0.3)
    map_ax.legend(fontsize=8, loc="best", framealpha=0.9)

    upcoming = s.open[1 : 1 + NEXT_BOARDS]
    for k in range(NEXT_BOARDS):
        ax = fig.add_subplot(grid[k // (NEXT_BOARDS // 2), 2 + k % (NEXT_BOARDS // 2)])
        if k < len(upcoming):
            w = upcoming[k]
            label = f"g={w.g}, h={w.h}, f={w.f}" if uses_h else f"g={w.g}"
            draw_board(ax, w.board, title=f"next #{k + 1}\n{label}")
            ax.title.set_fontsize(9)
        else:
            ax.axis("off")
    fig.tight_layout()
    return fig


def _closed_points(trace, s, h_of) -> list[tuple[int, int]]:
    """(g, h) of every board in the step's closed set (the steps before it, in order)."""
    if s.closed_count == 0:
        return []
    from tilelab.sliding.search import Waiting

    points = []
    for earlier in trace.steps[: s.index]:
        points.append((earlier.g, h_of(Waiting(earlier.board, earlier.g, earlier.h))))
    return points


def _h_on_path(trace, s, k: int, h_of) -> int:
    """h of the k-th board on the current path (IDA* recomputes nothing: read it off the steps)."""
    for earlier in reversed(trace.steps[: s.index + 1]):
        if earlier.board == s.path[k] and earlier.g == k:
            return earlier.h
    return 0


def plot_blank_routes(
    rows: int,
    cols: int,
    avoid: Sequence[int],
    start: int,
    target: int,
    routes: Mapping[str, Sequence[int] | Sequence[tuple[int, int]]],
    *,
    max_arrows: int = 14,
) -> Figure:
    """Routes of the blank over the cells of a ``rows x cols`` board, one panel per route.

    Cells are numbered in reading order; ``avoid`` cells (placed tiles, the tile being moved) are
    dark; the blank starts at ``start`` (S) and must reach ``target`` (T). A route is either the
    list of cells the blank enters, in order, or a list of steps ``(from cell, to cell)``: a search
    that backs up from a dead end then starts its next step from an earlier cell, and each arrow
    is drawn from where it really starts. Only the first ``max_arrows`` steps are drawn
    (numbered), so a route that loops shows the loop.

    >>> fig = plot_blank_routes(3, 3, [0], 8, 1, {"a": [5, 2, 1], "b": [(8, 7), (8, 5), (5, 2), (2, 1)]})
    >>> [ax.get_title().splitlines()[0] for ax in fig.axes]
    ['a', 'b']
    """
    if not routes:
        raise ValueError("give at least one route (name -> list of cells)")
    fig, axes = plt.subplots(1, len(routes), figsize=(3.6 * len(routes), 3.6 * rows / cols + 0.8), squeeze=False)
    for ax, (name, route) in zip(axes[0], routes.items()):
        ax.set_xlim(0, cols)
        ax.set_ylim(rows, 0)
        ax.set_aspect("equal")
        ax.axis("off")
        for cell in range(rows * cols):
            r, c = divmod(cell, cols)
            colour = "#5f5f5f" if cell in avoid else "#e9edf0"
            ax.add_patch(Rectangle((c + 0.03, r + 0.03), 0.94, 0.94, fc=colour, ec="white"))
            label = "S" if cell == start else "T" if cell == target else str(cell)
            ax.text(c + 0.5, r + 0.5, label, ha="center", va="center", fontsize=13 if label in "ST" else 10,
                    fontweight="bold" if label in "ST" else "normal",
                    color="white" if cell in avoid else ("#b3261e" if label in "ST" else "#777777"))
        if route and isinstance(route[0], tuple):
            steps = [(int(a), int(b)) for a, b in route][:max_arrows]
        else:
            cells = [start, *route][: max_arrows + 1]
            steps = list(zip(cells, cells[1:]))
        for k, (a, b) in enumerate(steps):
            (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
            shift = 0.08 * ((k % 3) - 1)  # repeated steps of a loop do not sit on top of each other
            ax.annotate("", xy=(cb + 0.5 + shift, rb + 0.5 + shift), xytext=(ca + 0.5 + shift, ra + 0.5 + shift),
                        arrowprops=dict(arrowstyle="->", color="#1f6f99", lw=2))
            ax.text((ca + cb) / 2 + 0.5 + shift, (ra + rb) / 2 + 0.5 + shift - 0.12, str(k + 1), fontsize=8,
                    color="#1f6f99", ha="center")
        more = f" (first {max_arrows} drawn)" if len(route) > max_arrows else ""
        ax.set_title(f"{name}\n{len(route)} steps{more}", fontsize=10)
    fig.tight_layout()
    return fig
