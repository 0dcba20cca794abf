"""Additive pattern databases: exact distances of small sub-puzzles, used as a heuristic.

Split the tiles into disjoint *patterns* (groups), e.g. 6-6-3 on the 15-puzzle. For one
pattern, forget the other tiles' numbers: the board is then only "where are my 6 tiles and the
blank". Breadth-first search from the goal over those abstract boards finds, for every
placement of the 6 tiles, the fewest moves *of pattern tiles* needed to bring them home
(moves of the blank through other tiles are free). Because each move slides exactly one tile,
which belongs to exactly one pattern, the numbers of the different patterns add up and the sum
is still a lower bound: the additive pattern-database heuristic (Korf and Felner, 2002).

Layout: a pattern's table is indexed by the cells of its tiles written as digits in base
``n = rows * cols`` (``index = sum(cell(tile_j) * n**j)``). That wastes entries on impossible
placements (two tiles on one cell) but makes an update after a move a single addition, which
is what the IDA* inner loop wants. 6 tiles on 16 cells: 16**6 bytes = 16 MiB per table.

Building runs breadth-first search with numba (through :mod:`tilelab.jit`) over
``placements x blank cells`` states, one BFS layer per call so a progress callback can report.
Tables are cached on disk (see :func:`cache_dir`) with a format version and a SHA-256 checksum,
and rebuilt when the file is missing or does not verify.

>>> db = PatternDatabase.build(2, 3, [(1, 2), (3, 4, 5)])
>>> from tilelab.sliding import Board
>>> p = Board.parse('4 1 2\\n. 5 3')
>>> db.value(p), db.values(p)     # tiles 1, 2 need 2 moves; 3, 4, 5 need 2
(4, (2, 2))
"""

from __future__ import annotations

import hashlib
import json
import os
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Literal, Sequence, overload

import numpy as np
import numpy.typing as npt

from tilelab.inputs import short_repr, as_int
from tilelab.files import DamagedFileError, header_field, one_line, read_npz
from tilelab.jit import njit
from tilelab.sliding.core import Board, check_shape

__all__ = [
    "DEFAULT_PATTERNS",
    "FORMAT_VERSION",
    "PatternDatabase",
    "cache_dir",
    "cache_path",
    "forget_memory",
    "is_cached",
    "pattern_database",
    "transpose_tiles",
]

FORMAT_VERSION = 1
UNSEEN = 0x7F  # a BFS state not reached yet (distances stay below this)
CLOSED = 0x80  # flag bit: the state's neighbours have been generated
NO_ENTRY = 0xFF  # table entry of an impossible placement (two tiles on one cell)
MAX_CELLS = 16  # tables grow as cells ** pattern size; beyond the 15-puzzle use other heuristics
MAX_PATTERN = 7  # 16**7 bytes = 256 MiB would be too big for a laptop

# The 15-puzzle split the lessons use (goal 1..15, blank bottom-right):
#    A  C  C  C          A = 1 5 6 9 10 13      (six tiles, left side)
#    A  A  B  B          B = 7 8 11 12 14 15    (six tiles, bottom right)
#    A  A  B  B          C = 2 3 4              (three tiles, top row)
#    A  B  B  .
DEFAULT_PATTERNS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {
    (4, 4): ((1, 5, 6, 9, 10, 13), (7, 8, 11, 12, 14, 15), (2, 3, 4)),
    (3, 3): ((1, 2, 3, 4), (5, 6, 7, 8)),
}
# A smaller split for quick builds (e.g. a fresh notebook with no cache): 5-5-5.
SMALL_PATTERNS_4X4 = ((1, 2, 5, 6, 9), (3, 4, 7, 8, 12), (10, 11, 13, 14, 15))

ProgressCallback = Callable[[int, int, str], None]  # (done, total, message)


# ------------------------------------------------------------------ ranking of placements
@njit
def _rank_placement(cells: npt.NDArray[Any], n: int) -> int:
    """Index of an ordered placement of k distinct cells among n, in 0 .. n!/(n-k)! - 1."""
    k = cells.shape[0]
    r = 0
    for i in range(k):
        smaller = 0
        for j in range(i):
            if cells[j] < cells[i]:
                smaller += 1
        r = r * (n - i) + (cells[i] - smaller)
    return r


@njit
def _unrank_placement(r: int, n: int, k: int, out: npt.NDArray[Any], used: npt.NDArray[Any]) -> None:
    """Inverse of :func:`_rank_placement`, written into ``out``; ``used`` is scratch (length n)."""
    digits = np.empty(k, np.int64)
    for i in range(k - 1, -1, -1):
        base = n - i
        digits[i] = r % base
        r //= base
    for c in range(n):
        used[c] = 0
    for i in range(k):
        skip = digits[i]
        for c in range(n):
            if used[c] == 0:
                if skip == 0:
                    out[i] = c
                    used[c] = 1
                    break
                skip -= 1


@njit
def _neighbour_cells(rows: int, cols: int) -> npt.NDArray[Any]:
    """``nb[cell, k]`` = the k-th neighbouring cell (up, down, left, right) or -1 off the board."""
    n = rows * cols
    nb = np.full((n, 4), -1, np.int64)
    for cell in range(n):
        r = cell // cols
        c = cell % cols
        if r > 0:
            nb[cell, 0] = cell - cols
        if r < rows - 1:
            nb[cell, 1] = cell + cols
        if c > 0:
            nb[cell, 2] = cell - 1
        if c < cols - 1:
            nb[cell, 3] = cell + 1
    return nb


@njit
def _bfs_layer(dist: npt.NDArray[Any], depth: int, n: int, k: int, nb: npt.NDArray[Any]) -> int:
    """Close every state at ``depth``; return how many were closed.

    State index = placement rank * n + blank cell. Moving the blank onto a non-pattern cell
    costs 0 (the state joins this layer, handled by a small stack); swapping it with a pattern
    tile costs 1 (the state is marked ``depth + 1`` for the next layer).
    """
    total = dist.shape[0]
    cells = np.empty(k, np.int64)
    moved = np.empty(k, np.int64)
    used = np.empty(n, np.int64)
    owner = np.empty(n, np.int64)
    stack = np.empty(n * 4 + 4, np.int64)
    closed = 0
    for start in range(total):
        if dist[start] != depth:  # only open states of this layer (closed ones carry the flag)
            continue
        top = 0
        stack[top] = start
        top += 1
        while top > 0:
            top -= 1
            s = stack[top]
            if dist[s] & CLOSED:
                continue
            dist[s] = dist[s] | CLOSED
            closed += 1
            place = s // n
            blank = s % n
            _unrank_placement(place, n, k, cells, used)
            for c in range(n):
                owner[c] = -1
            for j in range(k):
                owner[cells[j]] = j
            for d in range(4):
                c = nb[blank, d]
                if c < 0:
                    continue
                j = owner[c]
                if j < 0:  # the blank wanders through anonymous tiles: free
                    t = place * n + c
                    if (dist[t] & 0x7F) > depth:
                        dist[t] = depth
                        stack[top] = t
                        top += 1
                else:  # pattern tile j slides into the blank: one move
                    for i in range(k):
                        moved[i] = cells[i]
                    moved[j] = blank
                    t = _rank_placement(moved, n) * n + c
                    if (dist[t] & 0x7F) > depth + 1:
                        dist[t] = depth + 1
    return closed


@njit
def _compress(dist: npt.NDArray[Any], n: int, k: int, table: npt.NDArray[Any]) -> None:
    """``table[placement digits]`` = min over blank cells of the BFS distance."""
    places = dist.shape[0] // n
    cells = np.empty(k, np.int64)
    used = np.empty(n, np.int64)
    for place in range(places):
        best = 0x7F
        for blank in range(n):
            v = dist[place * n + blank] & 0x7F
            if v < best:
                best = v
        if best == 0x7F:
            continue
        _unrank_placement(place, n, k, cells, used)
        index = 0
        weight = 1
        for j in range(k):
            index += cells[j] * weight
            weight *= n
        table[index] = best


def _placements(n: int, k: int) -> int:
    count = 1
    for i in range(k):
        count *= n - i
    return count


def build_table(
    rows: int,
    cols: int,
    pattern: Sequence[int],
    progress: ProgressCallback | None = None,
) -> npt.NDArray[Any]:
    """Breadth-first search for one pattern; returns its ``n ** k`` uint8 table.

    >>> t = build_table(2, 2, (1,))          # tile 1 alone on a 2x2 board
    >>> [int(t[cell]) for cell in range(4)]  # its distance home from each cell
    [0, 1, 1, 2]
    """
    n = rows * cols
    k = len(pattern)
    goal_cells = np.array([t - 1 for t in pattern], np.int64)
    dist = np.full(_placements(n, k) * n, UNSEEN, np.uint8)
    dist[_rank_placement(goal_cells, n) * n + (n - 1)] = 0
    nb = _neighbour_cells(rows, cols)
    reachable = _placements(n, k) * (n - k)
    done, depth = 0, 0
    while done < reachable:
        closed = _bfs_layer(dist, depth, n, k, nb)
        if closed == 0:
            break
        done += closed
        if progress is not None:
            progress(done, reachable, f"pattern {tuple(pattern)}: depth {depth}")
        depth += 1
    table = np.full(n**k, NO_ENTRY, np.uint8)
    _compress(dist, n, k, table)
    return table


# ------------------------------------------------------------------ the database
def transpose_tiles(rows: int, cols: int) -> npt.NDArray[Any] | None:
    """``mirror[t]``: the tile whose goal cell is tile t's goal cell reflected in the diagonal.

    Only square boards have this symmetry (the goal maps to itself); ``None`` otherwise.

    >>> transpose_tiles(3, 3).tolist()
    [0, 1, 4, 7, 2, 5, 8, 3, 6]
    """
    if rows != cols:
        return None
    n = rows * cols
    mirror = np.zeros(n, np.int64)
    for t in range(1, n):
        r, c = divmod(t - 1, cols)
        mirror[t] = c * cols + r + 1
    return mirror


def _check_patterns(rows: int, cols: int, patterns: Iterable[Iterable[int]]) -> tuple[tuple[int, ...], ...]:
    n = rows * cols
    if isinstance(patterns, (str, bytes)) or not isinstance(patterns, Iterable):
        raise TypeError(f"patterns must be a list of tile groups such as [(1, 2, 3), (4, 5, 6, 7, 8)], got {short_repr(patterns)}")
    groups = []
    for g in patterns:
        if isinstance(g, (str, bytes)) or not isinstance(g, Iterable):
            raise TypeError(f"each pattern must be a group of tiles such as (1, 2, 3), got {short_repr(g)}")
        groups.append(tuple(as_int(t, "a pattern's tile") for t in g))
        if len(groups) > n:
            break
    split = tuple(groups)
    flat = [t for g in split for t in g]
    if sorted(flat) != list(range(1, n)):
        raise ValueError(
            f"the patterns must split the tiles 1..{n - 1} into disjoint groups, each tile once; "
            f"got {split}"
        )
    if any(len(g) > MAX_PATTERN for g in split) or any(not g for g in split):
        raise ValueError(f"each pattern needs 1..{MAX_PATTERN} tiles, got sizes {[len(g) for g in split]}")
    return split


@dataclass(frozen=True, eq=False)
class PatternDatabase:
    """Disjoint patterns and their tables; ``value(board)`` is the additive heuristic.

    With ``reflect=True`` (square boards) the value is the larger of the plain lookup and the
    lookup of the board mirrored in its main diagonal -- both are lower bounds.
    """

    rows: int
    cols: int
    patterns: tuple[tuple[int, ...], ...]
    tables: tuple[npt.NDArray[Any], ...] = field(repr=False)
    reflect: bool = False
    build_seconds: float = 0.0

    @classmethod
    def build(
        cls,
        rows: int,
        cols: int,
        patterns: Iterable[Iterable[int]],
        progress: ProgressCallback | None = None,
        reflect: bool = False,
    ) -> PatternDatabase:
        """Build every table by breadth-first search (no disk cache; see :func:`pattern_database`)."""
        rows, cols = check_shape(rows, cols)
        if rows * cols > MAX_CELLS:
            raise ValueError(
                f"pattern databases are built for boards of at most {MAX_CELLS} cells, not "
                f"{rows}x{cols}; use the 'manhattan' or 'linear-conflict' heuristic there"
            )
        groups = _check_patterns(rows, cols, patterns)
        start = time.perf_counter()
        tables = tuple(build_table(rows, cols, g, progress) for g in groups)
        seconds = time.perf_counter() - start
        return cls(rows, cols, groups, tables, reflect and rows == cols, seconds)

    @property
    def nbytes(self) -> int:
        """Memory used by the tables."""
        return sum(t.nbytes for t in self.tables)

    def pattern_values(self, tiles: Sequence[int], mirrored: bool = False) -> tuple[int, ...]:
        n = self.rows * self.cols
        where = [0] * n
        for cell, t in enumerate(tiles):
            where[t] = cell
        mirror = transpose_tiles(self.rows, self.cols) if mirrored else None
        values = []
        for group, table in zip(self.patterns, self.tables):
            index, weight = 0, 1
            for t in group:
                cell = where[t]
                if mirror is not None:  # play tile t as its mirror image, on the mirrored cell
                    cell = where[int(mirror[t])]
                    r, c = divmod(cell, self.cols)
                    cell = c * self.cols + r
                index += cell * weight
                weight *= n
            values.append(int(table[index]))
        return tuple(values)

    def values(self, board: Board) -> tuple[int, ...]:
        """Each pattern's exact distance (the plain lookup, before any reflection)."""
        self._check_board(board)
        return self.pattern_values(board.tiles)

    def value(self, board: Board) -> int:
        """The heuristic: the sum over patterns (maximised with the mirrored board if ``reflect``)."""
        self._check_board(board)
        h = sum(self.pattern_values(board.tiles))
        if self.reflect:
            h = max(h, sum(self.pattern_values(board.tiles, mirrored=True)))
        return h

    __call__ = value

    def _check_board(self, board: Board) -> None:
        if (board.rows, board.cols) != (self.rows, self.cols):
            raise ValueError(
                f"this pattern database is for {self.rows}x{self.cols} boards, "
                f"not {board.rows}x{board.cols}"
            )

    def histogram(self, pattern: int = 0) -> npt.NDArray[Any]:
        """How many placements of pattern ``pattern`` lie at each distance."""
        table = self.tables[pattern]
        return np.bincount(table[table != NO_ENTRY].astype(np.intp))  # intp: 32-bit in Pyodide

    # -------------------------------------------------------------- disk cache
    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the tables with a JSON header (version, shape, patterns, SHA-256 per table)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        header = {
            "format": FORMAT_VERSION,
            "rows": self.rows,
            "cols": self.cols,
            "patterns": [list(g) for g in self.patterns],
            "sha256": [hashlib.sha256(t.tobytes()).hexdigest() for t in self.tables],
            "build_seconds": self.build_seconds,
        }
        arrays: dict[str, Any] = {f"table{i}": t for i, t in enumerate(self.tables)}  # Any: savez's **kwds stub
        arrays["header"] = np.frombuffer(json.dumps(header).encode(), np.uint8)
        tmp = path.with_name(path.name + f".tmp{os.getpid()}")
        with open(tmp, "wb") as handle:
            np.savez_compressed(handle, **arrays)
        os.replace(tmp, path)  # atomic: a reader never sees half a file
        return path

    @classmethod
    def load(
        cls,
        path: str | os.PathLike[str],
        reflect: bool = False,
        *,
        rows: int | None = None,
        cols: int | None = None,
        patterns: Iterable[Iterable[int]] | None = None,
    ) -> PatternDatabase:
        """Read a saved database; ``ValueError`` if it is damaged, foreign, of another version or fails its checksum.

        With ``rows``/``cols``/``patterns`` the file must also be the database for that shape and split
        (a 2x4 database copied to the 3x3 path is refused, not used).
        """
        path = Path(path)
        header, arrays = read_npz(path, "pattern database", _table_sizes)
        where = f"pattern database {path}"
        try:
            if header_field(header, "format", int) != FORMAT_VERSION:
                raise DamagedFileError(f"it has format {header['format']}, expected {FORMAT_VERSION}")
            file_rows, file_cols = header_field(header, "rows", int), header_field(header, "cols", int)
            groups = _check_patterns(*check_shape(file_rows, file_cols), header["patterns"])
            sums = header_field(header, "sha256", list)
            if len(sums) != len(groups) or not all(isinstance(h, str) for h in sums):
                raise DamagedFileError(f"it lists {len(sums)} checksums for {len(groups)} patterns")
            seconds = float(header_field(header, "build_seconds", (int, float))) if "build_seconds" in header else 0.0
        except DamagedFileError as exc:
            raise DamagedFileError(f"{where} is damaged or not a tilelab file: {one_line(exc)}") from None
        except (TypeError, ValueError) as exc:
            raise DamagedFileError(f"{where} has a damaged header: {one_line(exc)}") from None
        n = file_rows * file_cols
        tables = []
        for i, g in enumerate(groups):
            table = arrays[f"table{i}"]
            if table.dtype != np.uint8 or table.shape != (n ** len(g),):
                raise DamagedFileError(f"{where}: table {i} is {table.dtype} {table.shape}, expected uint8 ({n ** len(g)},)")
            if hashlib.sha256(table.tobytes()).hexdigest() != sums[i]:
                raise DamagedFileError(f"{where}: table {i} fails its SHA-256 checksum (damaged file)")
            tables.append(table)
        wanted_shape = None if rows is None and cols is None else check_shape(rows, cols)
        if wanted_shape is not None and wanted_shape != (file_rows, file_cols):
            raise DamagedFileError(f"{where} is for {file_rows}x{file_cols} boards, not "
                                   f"{wanted_shape[0]}x{wanted_shape[1]} (a file copied to the wrong name?)")
        if patterns is not None:
            expected = _check_patterns(file_rows, file_cols, patterns)
            if expected != groups:
                raise DamagedFileError(f"{where} holds the patterns {groups}, not {expected}")
        return cls(file_rows, file_cols, groups, tuple(tables), reflect and file_rows == file_cols, seconds)


def _table_sizes(header: dict[str, Any]) -> dict[str, int]:
    """The arrays a database file must hold (``table0`` ...) and the most bytes each may take."""
    rows, cols = header_field(header, "rows", int), header_field(header, "cols", int)
    patterns = header_field(header, "patterns", list)
    if not 0 < len(patterns) < MAX_CELLS or not 0 < rows * cols <= MAX_CELLS:
        raise DamagedFileError(f"it claims {len(patterns)} patterns on {rows}x{cols}")
    n = rows * cols
    sizes = {}
    for i, g in enumerate(patterns):
        if not isinstance(g, list) or not 0 < len(g) <= MAX_PATTERN:
            raise DamagedFileError(f"its pattern {i} is not a list of 1..{MAX_PATTERN} tiles")
        sizes[f"table{i}"] = n ** len(g)
    return sizes


# ------------------------------------------------------------------ cache location
def cache_dir() -> Path:
    """Where pattern databases are kept: ``$TILELAB_CACHE_DIR``, else ``$XDG_CACHE_HOME/tilelab``,
    else ``~/.cache/tilelab``."""
    explicit = os.environ.get("TILELAB_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "tilelab"


def cache_path(rows: int, cols: int, patterns: Iterable[Iterable[int]]) -> Path:
    """The cache file for one board shape and split, e.g. ``pdb-4x4-1.5.6.9.10.13_...-v1.npz``."""
    key = "_".join(".".join(str(t) for t in g) for g in patterns)
    return cache_dir() / f"pdb-{rows}x{cols}-{key}-v{FORMAT_VERSION}.npz"


_MEMORY: dict[tuple[int, int, tuple[tuple[int, ...], ...], bool], PatternDatabase] = {}


def _text_progress(done: int, total: int, message: str) -> None:
    """A one-line progress bar on stderr (the default while building)."""
    import sys

    width = 30
    filled = int(width * done / max(total, 1))
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {100 * done / max(total, 1):5.1f}% {message:40.40s}")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()


@overload
def pattern_database(
    rows: int = ..., cols: int = ..., patterns: Iterable[Iterable[int]] | None = ..., *, reflect: bool = ...,
    progress: ProgressCallback | None | bool = ..., build: Literal[True] = ...,
) -> PatternDatabase: ...
@overload
def pattern_database(
    rows: int = ..., cols: int = ..., patterns: Iterable[Iterable[int]] | None = ..., *, reflect: bool = ...,
    progress: ProgressCallback | None | bool = ..., build: bool,
) -> PatternDatabase | None: ...
def pattern_database(
    rows: int = 4,
    cols: int = 4,
    patterns: Iterable[Iterable[int]] | None = None,
    *,
    reflect: bool = True,
    progress: ProgressCallback | None | bool = True,
    build: bool = True,
) -> PatternDatabase | None:
    """The pattern database for ``rows x cols``: from memory, else the disk cache, else built.

    A missing, damaged or outdated cache file is rebuilt (with a warning when it was damaged)
    and saved. ``progress=True`` shows a text bar while building; pass a callable
    ``(done, total, message)`` for your own, or ``False`` for silence. ``build=False`` returns
    ``None`` instead of building (for a quick hint that must not wait).

    >>> db = pattern_database(3, 3, progress=False)   # the 8-puzzle's: built in seconds once, then cached
    >>> db(Board.parse("1 2 3\\n4 . 6\\n7 5 8")), db(Board.goal(3, 3))   # a lower bound on the moves left
    (2, 0)
    """
    rows, cols = check_shape(rows, cols)
    if patterns is None:
        if (rows, cols) not in DEFAULT_PATTERNS:
            raise ValueError(
                f"no default pattern split for {rows}x{cols}; pass patterns=[(...), ...] "
                f"(known defaults: {sorted(DEFAULT_PATTERNS)})"
            )
        patterns = DEFAULT_PATTERNS[(rows, cols)]
    groups = _check_patterns(rows, cols, patterns)
    key = (rows, cols, groups, reflect and rows == cols)
    if key in _MEMORY:
        return _MEMORY[key]
    path = cache_path(rows, cols, groups)
    db = None
    if path.exists():
        try:
            db = PatternDatabase.load(path, reflect=reflect, rows=rows, cols=cols, patterns=groups)
        except ValueError as exc:  # damaged, truncated, foreign or for another board: say so in one line, rebuild
            warnings.warn(f"rebuilding the pattern database: {one_line(exc)}", RuntimeWarning, stacklevel=2)
    if db is None:
        if not build:
            return None
        callback = _text_progress if progress is True else (progress or None)
        db = PatternDatabase.build(rows, cols, groups, callback, reflect=reflect)
        try:
            db.save(path)
        except OSError as exc:  # a read-only home still gets a working (in-memory) database
            warnings.warn(f"could not cache the pattern database at {path}: {exc}", RuntimeWarning, stacklevel=2)
    _MEMORY[key] = db
    return db


def is_cached(rows: int = 4, cols: int = 4, patterns: Iterable[Iterable[int]] | None = None) -> bool:
    """True when the database is in memory or a cache file exists (no build would be needed)."""
    patterns = DEFAULT_PATTERNS.get((rows, cols)) if patterns is None else patterns
    if patterns is None:
        return False
    groups = tuple(tuple(g) for g in patterns)
    if any(k[:3] == (rows, cols, groups) for k in _MEMORY):
        return True
    return cache_path(rows, cols, groups).exists()


def forget_memory() -> None:
    """Drop databases held in memory (tests use it to force a reload from disk)."""
    _MEMORY.clear()
