"""Fast path for special candies: the rules of :mod:`tilelab.match3.special_rules` on two int8 arrays.

``g`` holds kinds (EMPTY -1, colour bomb -2), ``s`` the special codes (NONE, ROW, COL, WRAPPED,
PRIMED, BOMB). One compiled kernel runs a whole cascade step (primed candies, the swap's
combination, groups, chain reactions, new specials, gravity); the Python loop refills the holes
with the very same random draws as the reference, so both reach the same boards and scores
(tested on thousands of seeded boards). Like :mod:`tilelab.match3.fast.plain`, it returns the outcome,
not the story.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tilelab.jit import njit
from tilelab.randomness import RngLike, as_generator
from tilelab.match3.board import EMPTY, SHAPE_POINTS, Board, Cell, Move
from tilelab.match3.cascade import cascade_until_settled
from tilelab.match3.fast.plain import group_root  # union-find root with path halving: one compiled copy for both kernels
from tilelab.match3.special_board import (
    ACTIVATION_BONUS,
    BLAST_POINTS,
    BOMB,
    COL,
    COMBOS,
    NONE,
    PRIMED,
    ROW,
    WRAPPED,
    SpecialBoard,
    check_special_swap,
)
from tilelab.match3.board import NO_COLOUR

P3, P4, P5 = SHAPE_POINTS["line3"], SHAPE_POINTS["line4"], SHAPE_POINTS["line5"]
B_WRAPPED = ACTIVATION_BONUS["wrapped"]
B_BOMB = ACTIVATION_BONUS["colour-bomb"]
COMBO_CODE = {name: i for i, name in enumerate(COMBOS)}
COMBO_BONUS = np.array([0] + [ACTIVATION_BONUS[name] for name in COMBOS[1:]], np.int64)
C_SS, C_SW, C_WW, C_BP, C_BS, C_BW, C_BB = range(1, 8)


@njit
def _matchable(g: npt.NDArray[Any], s: npt.NDArray[Any], i: int, cols: int) -> bool:
    return bool(g[i // cols, i % cols] >= 0 and s[i // cols, i % cols] != PRIMED)


@njit
def _push(cell: int, code: int, queue: npt.NDArray[Any], qn: int, fired: npt.NDArray[Any]) -> int:
    fired[cell] = 1
    queue[qn, 0] = cell
    queue[qn, 1] = code
    return qn + 1


@njit
def _cover(cell: int, s: npt.NDArray[Any], rows: int, cols: int, blast: npt.NDArray[Any], fired: npt.NDArray[Any], queue: npt.NDArray[Any],
           qn: int, flat_s: npt.NDArray[Any]) -> int:
    """Mark ``cell`` blasted; a special there not yet fired joins the queue."""
    blast[cell] = 1
    if fired[cell] == 0 and flat_s[cell] != NONE:
        qn = _push(cell, flat_s[cell], queue, qn, fired)
    return qn


@njit
def special_step_kernel(g: npt.NDArray[Any], s: npt.NDArray[Any], first: bool, ar: int, ac: int, br: int, bc: int,
                        combo: int) -> tuple[bool, int, int, int]:
    """One cascade step in place (no refill). Returns (active, holes, group_points, blast_points)."""
    rows, cols = g.shape
    size = rows * cols
    flat_s = np.empty(size, np.int64)
    counts = np.zeros(64, np.int64)
    any_primed = False
    for i in range(size):
        flat_s[i] = s[i // cols, i % cols]
        k = g[i // cols, i % cols]
        if k >= 0:
            counts[k] += 1
        if flat_s[i] == PRIMED:
            any_primed = True
    colour = NO_COLOUR
    top = 0
    for k in range(64):
        if counts[k] > top:
            top = counts[k]
            colour = k
    # ---- runs and groups
    hlen = np.zeros(size, np.int64)
    hpos = np.zeros(size, np.int64)
    vlen = np.zeros(size, np.int64)
    vpos = np.zeros(size, np.int64)
    parent = np.arange(size)
    found = False
    for r in range(rows):
        start = 0
        for c in range(1, cols + 1):
            if c == cols or not _matchable(g, s, r * cols + c, cols) or not _matchable(g, s, r * cols + start, cols) \
                    or g[r, c] != g[r, start]:
                if c - start >= 3 and _matchable(g, s, r * cols + start, cols):
                    found = True
                    for i in range(start, c):
                        hlen[r * cols + i] = c - start
                        hpos[r * cols + i] = i - start
                        if i > start:
                            parent[group_root(parent, r * cols + i)] = group_root(parent, r * cols + start)
                start = c
    for c in range(cols):
        start = 0
        for r in range(1, rows + 1):
            if r == rows or not _matchable(g, s, r * cols + c, cols) or not _matchable(g, s, start * cols + c, cols) \
                    or g[r, c] != g[start, c]:
                if r - start >= 3 and _matchable(g, s, start * cols + c, cols):
                    found = True
                    for i in range(start, r):
                        vlen[i * cols + c] = r - start
                        vpos[i * cols + c] = i - start
                        if i > start:
                            parent[group_root(parent, i * cols + c)] = group_root(parent, start * cols + c)
                start = r
    if not found and not any_primed and combo == 0:
        return False, 0, 0, 0
    blast = np.zeros(size, np.int64)
    fired = np.zeros(size, np.int64)
    survivor = np.zeros(size, np.int64)
    in_group = np.zeros(size, np.int64)
    queue = np.zeros((size + 4, 2), np.int64)
    qn = 0
    bonus = 0
    a = ar * cols + ac
    b = br * cols + bc
    # ---- the swap's combination
    if combo != 0:
        bonus += COMBO_BONUS[combo]
        if combo == C_BS or combo == C_BW:
            bomb = a if flat_s[a] == BOMB else b
            other = b if bomb == a else a
            fired[bomb] = 1
            flat_s[bomb] = NONE
            want = g[other // cols, other % cols]
            turned = 0  # bomb+striped: the stripes alternate ROW, COL, ... in reading order
            for i in range(size):
                if g[i // cols, i % cols] == want and flat_s[i] == NONE:
                    if combo == C_BS:
                        flat_s[i] = ROW if turned % 2 == 0 else COL
                        turned += 1
                    else:
                        flat_s[i] = WRAPPED
        else:
            fired[a] = 1
            fired[b] = 1
            flat_s[a] = NONE
            flat_s[b] = NONE
        for i in range(size):
            r, c = i // cols, i % cols
            hit = False
            if combo == C_SS:
                hit = r == br or c == bc
            elif combo == C_SW:
                hit = abs(r - br) <= 1 or abs(c - bc) <= 1
            elif combo == C_WW:
                hit = abs(r - br) <= 2 and abs(c - bc) <= 2
            elif combo == C_BB:
                hit = True
            else:
                bomb = a if s[ar, ac] == BOMB else b
                other = b if bomb == a else a
                hit = i == bomb or g[r, c] == g[other // cols, other % cols]
            if hit:
                qn = _cover(i, s, rows, cols, blast, fired, queue, qn, flat_s)
    # ---- primed wrapped candies go off again; matched specials go off
    for i in range(size):
        if flat_s[i] == PRIMED and fired[i] == 0:
            qn = _push(i, PRIMED, queue, qn, fired)
    for i in range(size):
        if hlen[i] > 0 or vlen[i] > 0:
            in_group[i] = 1
            if fired[i] == 0 and flat_s[i] != NONE:
                qn = _push(i, flat_s[i], queue, qn, fired)
    # ---- chain reactions, breadth first
    q = 0
    while q < qn:
        cell = queue[q, 0]
        code = queue[q, 1]
        q += 1
        r0, c0 = cell // cols, cell % cols
        if code == ROW:
            for c in range(cols):
                qn = _cover(r0 * cols + c, s, rows, cols, blast, fired, queue, qn, flat_s)
        elif code == COL:
            for r in range(rows):
                qn = _cover(r * cols + c0, s, rows, cols, blast, fired, queue, qn, flat_s)
        elif code == WRAPPED or code == PRIMED:
            if code == WRAPPED:
                flat_s[cell] = PRIMED
                survivor[cell] = 1
                bonus += B_WRAPPED
            for r in range(max(0, r0 - 1), min(rows, r0 + 2)):
                for c in range(max(0, c0 - 1), min(cols, c0 + 2)):
                    qn = _cover(r * cols + c, s, rows, cols, blast, fired, queue, qn, flat_s)
        elif code == BOMB:
            bonus += B_BOMB
            qn = _cover(cell, s, rows, cols, blast, fired, queue, qn, flat_s)
            for i in range(size):
                if g[i // cols, i % cols] == colour:
                    qn = _cover(i, s, rows, cols, blast, fired, queue, qn, flat_s)
    # ---- groups: shape, points, new specials
    points = 0
    created_at = np.full(size, -1, np.int64)  # root -> cell
    created_code = np.zeros(size, np.int64)
    longest = np.zeros(size, np.int64)
    crossing = np.zeros(size, np.int64)
    first_cross = np.full(size, -1, np.int64)
    first_cell = np.full(size, -1, np.int64)
    has_a = np.zeros(size, np.int64)
    has_b = np.zeros(size, np.int64)
    for i in range(size):
        if in_group[i] == 0:
            continue
        root = group_root(parent, i)
        longest[root] = max(longest[root], hlen[i], vlen[i])
        if first_cell[root] < 0:
            first_cell[root] = i
        if hlen[i] > 0 and vlen[i] > 0:
            crossing[root] = 1
            if first_cross[root] < 0:
                first_cross[root] = i
        if first and i == a:
            has_a[root] = 1
        if first and i == b:
            has_b[root] = 1
    for i in range(size):
        if in_group[i] == 0 or group_root(parent, i) != i:
            continue
        code = NONE
        if longest[i] >= 5:
            points += P5
            code = BOMB
        elif crossing[i] > 0:
            points += P5
            code = WRAPPED
        elif longest[i] == 4:
            points += P4
            player = has_a[i] > 0 or has_b[i] > 0
            if player:
                code = ROW if ar == br else COL
            else:
                code = COL if hlen[first_cell[i]] > 0 else ROW
        else:
            points += P3
        if code == NONE:
            continue
        if has_b[i] > 0:
            where = b
        elif has_a[i] > 0:
            where = a
        elif first_cross[i] >= 0:
            where = first_cross[i]
        else:
            start = first_cell[i]
            if hlen[start] > 0:
                where = start + (longest[i] - 1) // 2
            else:
                where = start + ((longest[i] - 1) // 2) * cols
        created_at[i] = where
        created_code[i] = code
    keep = np.zeros(size, np.int64)  # 1: survivor, 2: new special
    for i in range(size):
        if created_at[i] >= 0:
            keep[created_at[i]] = 2
    for i in range(size):
        if survivor[i] == 1 and keep[i] == 0:
            keep[i] = 1
    holes = 0
    blasted_only = 0
    for i in range(size):
        r, c = i // cols, i % cols
        if keep[i] == 1:
            s[r, c] = PRIMED
        elif keep[i] == 0 and (in_group[i] == 1 or blast[i] == 1):
            g[r, c] = EMPTY
            s[r, c] = NONE
            holes += 1
            if in_group[i] == 0:
                blasted_only += 1
    for root in range(size):
        where = created_at[root]
        if where >= 0:
            r, c = where // cols, where % cols
            s[r, c] = created_code[root]
            if created_code[root] == BOMB:
                g[r, c] = NO_COLOUR
            else:
                g[r, c] = g[(first_cell[root]) // cols, first_cell[root] % cols] if g[r, c] < 0 else g[r, c]
    # ---- gravity (specials ride along)
    for c in range(cols):
        target = rows - 1
        for r in range(rows - 1, -1, -1):
            k = g[r, c]
            if k != EMPTY:
                if r != target:
                    g[target, c] = k
                    s[target, c] = s[r, c]
                    g[r, c] = EMPTY
                    s[r, c] = NONE
                target -= 1
    return True, holes, points, bonus + BLAST_POINTS * blasted_only


@njit
def refill_holes(g: npt.NDArray[Any], s: npt.NDArray[Any], u: npt.NDArray[Any], kinds: int) -> int:
    """Fill EMPTY cells (not bombs) in reading order with plain kinds drawn from the uniforms ``u``."""
    rows, cols = g.shape
    n = 0
    for r in range(rows):
        for c in range(cols):
            if g[r, c] == EMPTY:
                g[r, c] = min(int(u[n] * kinds), kinds - 1)
                s[r, c] = NONE
                n += 1
    return n


def swap_specials_array(g: npt.NDArray[Any], s: npt.NDArray[Any], a: Cell, b: Cell, kinds: int, *,
                        rng: np.random.Generator, combo: int) -> tuple[int, int]:
    """Resolve a legal swap on the arrays in place. Returns (score, cascades)."""
    (r1, c1), (r2, c2) = a, b
    g[r1, c1], g[r2, c2] = g[r2, c2], g[r1, c1]
    s[r1, c1], s[r2, c2] = s[r2, c2], s[r1, c1]

    def step(index: int) -> int | None:  # one compiled cascade step; its points, or None once nothing is active
        first = index == 1
        active, holes, group_points, blast_points = special_step_kernel(
            g, s, first, r1, c1, r2, c2, combo if first else 0)
        if not active:
            return None
        if holes:
            refill_holes(g, s, rng.random(holes), kinds)
        return index * group_points + blast_points

    scores = cascade_until_settled(step)
    return sum(scores), len(scores)


@njit
def _run_through(g: npt.NDArray[Any], s: npt.NDArray[Any], r: int, c: int) -> bool:
    kind = g[r, c]
    if kind < 0 or s[r, c] == PRIMED:
        return False
    rows, cols = g.shape
    n = 1
    i = c - 1
    while i >= 0 and g[r, i] == kind and s[r, i] != PRIMED:
        n += 1
        i -= 1
    i = c + 1
    while i < cols and g[r, i] == kind and s[r, i] != PRIMED:
        n += 1
        i += 1
    if n >= 3:
        return True
    n = 1
    i = r - 1
    while i >= 0 and g[i, c] == kind and s[i, c] != PRIMED:
        n += 1
        i -= 1
    i = r + 1
    while i < rows and g[i, c] == kind and s[i, c] != PRIMED:
        n += 1
        i += 1
    return n >= 3


@njit
def combo_code(s: npt.NDArray[Any], r1: int, c1: int, r2: int, c2: int) -> int:
    """The combination code (index into COMBOS) of swapping two cells; 0 for none."""
    x = s[r1, c1]
    y = s[r2, c2]
    if x == BOMB or y == BOMB:
        other = y if x == BOMB else x
        if other == BOMB:
            return C_BB
        if other == ROW or other == COL:
            return C_BS
        if other == WRAPPED or other == PRIMED:
            return C_BW
        return C_BP
    xs = x == ROW or x == COL
    ys = y == ROW or y == COL
    xw = x == WRAPPED or x == PRIMED
    yw = y == WRAPPED or y == PRIMED
    if xs and ys:
        return C_SS
    if (xs and yw) or (xw and ys):
        return C_SW
    if xw and yw:
        return C_WW
    return 0


@njit
def valid_special_swap(g: npt.NDArray[Any], s: npt.NDArray[Any], r1: int, c1: int, r2: int, c2: int) -> bool:
    """True when the swap sets off a combination or makes a run through one of the two cells."""
    if combo_code(s, r1, c1, r2, c2) != 0:
        return True
    if g[r1, c1] == g[r2, c2]:
        return False
    ka, kb, sa, sb = g[r1, c1], g[r2, c2], s[r1, c1], s[r2, c2]
    g[r1, c1], g[r2, c2], s[r1, c1], s[r2, c2] = kb, ka, sb, sa
    ok = _run_through(g, s, r1, c1) or _run_through(g, s, r2, c2)
    g[r1, c1], g[r2, c2], s[r1, c1], s[r2, c2] = ka, kb, sa, sb
    return ok


@njit
def list_special_moves(g: npt.NDArray[Any], s: npt.NDArray[Any], out: npt.NDArray[Any]) -> int:
    """Write every legal swap (specials on) as (r1, c1, r2, c2) rows into ``out``; return how many."""
    rows, cols = g.shape
    n = 0
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols and valid_special_swap(g, s, r, c, r, c + 1):
                out[n, 0], out[n, 1], out[n, 2], out[n, 3] = r, c, r, c + 1
                n += 1
            if r + 1 < rows and valid_special_swap(g, s, r, c, r + 1, c):
                out[n, 0], out[n, 1], out[n, 2], out[n, 3] = r, c, r + 1, c
                n += 1
    return n


# ----------------------------------------------------------------------------- wrappers


def swap_specials_fast(board: SpecialBoard, a: Cell, b: Cell, *, rng: RngLike) -> tuple[bool, SpecialBoard, int, int]:
    """Same rules and random draws as :func:`tilelab.match3.special_rules.swap_specials`, compiled.

    Returns ``(legal, board, score, cascades)``.

    >>> from tilelab.match3 import swap_specials
    >>> board = SpecialBoard.parse("0 1 0 0 2\\n1 0 2 1 1\\n2 2 1 2 0")
    >>> legal, after, score, cascades = swap_specials_fast(board, (0, 1), (1, 1), rng=0)
    >>> slow = swap_specials(board, (0, 1), (1, 1), rng=0)
    >>> (legal, after, score, cascades) == (slow.legal, slow.board, slow.score, slow.cascades)
    True
    """
    a, b = check_special_swap(board, a, b)
    g, s = board.to_arrays()
    if not valid_special_swap(g, s, a[0], a[1], b[0], b[1]):
        return False, board, 0, 0
    score, cascades = swap_specials_array(g, s, a, b, board.kinds, rng=as_generator(rng),
                                          combo=combo_code(s, a[0], a[1], b[0], b[1]))
    return True, SpecialBoard.trusted(tuple(map(tuple, g.tolist())), tuple(map(tuple, s.tolist())), board.kinds), \
        score, cascades


def legal_moves_specials_fast(board: SpecialBoard) -> list[Move]:
    """Every legal swap with specials on, compiled (same list as the reference).

    >>> legal_moves_specials_fast(SpecialBoard.parse("0 1 2\\n1| 2+ 0"))
    [((1, 0), (1, 1))]
    """
    if not isinstance(board, SpecialBoard) or not board.is_full:
        raise ValueError("legal moves need a full SpecialBoard")
    g, s = board.to_arrays()
    out = np.empty((2 * board.rows * board.cols, 4), np.int64)
    n = list_special_moves(g, s, out)
    return [((int(m[0]), int(m[1])), (int(m[2]), int(m[3]))) for m in out[:n]]


def is_dead_specials_fast(board: SpecialBoard) -> bool:
    """True when no swap is legal with specials on (compiled)."""
    return not legal_moves_specials_fast(board)


def play_random(rows: int, cols: int, kinds: int, n_moves: int, *, rng: RngLike, specials: bool = True,
                seek: bool = False) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """Play ``n_moves`` random legal swaps (fast path); cascade steps and score of each move.

    With ``specials=False`` the plain rules (:mod:`tilelab.match3.fast.plain`) play the same way, so the
    two can be compared. ``seek=True`` is a player who uses specials: a random move that swaps or
    moves a special candy when there is one, else any random move. Dead boards are reshuffled
    (not counted as moves).

    >>> steps, points = play_random(8, 8, 6, 50, rng=0)
    >>> len(steps), bool(steps.min() >= 1), bool(points.min() >= 60)
    (50, True, True)
    """
    from tilelab.match3.fast.plain import list_moves, swap_array
    from tilelab.match3.generate import new_board, reshuffle_report
    from tilelab.match3.special_reshuffle import reshuffle_specials

    rng = as_generator(rng)
    board = new_board(rows, cols, kinds, rng=rng)
    g = board.to_array()
    s = np.zeros_like(g)
    out = np.empty((2 * rows * cols, 4), np.int64)
    cascades = np.empty(n_moves, np.int64)
    scores = np.empty(n_moves, np.int64)
    i = 0
    while i < n_moves:
        n = list_special_moves(g, s, out) if specials else list_moves(g, out)
        if n == 0:
            if specials:
                g, s = reshuffle_specials(SpecialBoard.from_arrays(g, s, kinds), rng=rng).to_arrays()
            else:
                g = reshuffle_report(Board.from_array(g, kinds), rng=rng).board.to_array()
            continue
        pick = int(rng.integers(n))
        if specials and seek:
            hot = [j for j in range(n) if s[out[j, 0], out[j, 1]] != NONE or s[out[j, 2], out[j, 3]] != NONE]
            if hot:
                pick = hot[int(rng.integers(len(hot)))]
        r1, c1, r2, c2 = (int(v) for v in out[pick])
        if specials:
            scores[i], cascades[i] = swap_specials_array(g, s, (r1, c1), (r2, c2), kinds, rng=rng,
                                                         combo=combo_code(s, r1, c1, r2, c2))
        else:
            _, scores[i], cascades[i] = swap_array(g, (r1, c1), (r2, c2), kinds, rng=rng)
        i += 1
    return cascades, scores
