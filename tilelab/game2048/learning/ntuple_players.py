"""Players on a learned value: :class:`TDPlayer` (1-ply greedy) and :class:`TDExpectimax` (the one expectimax
kernel of :mod:`tilelab.game2048.fast.kernels` with ``V`` at its leaves), and the two nets shipped with tilelab: the
classroom net (:func:`lesson_network`) and the strong net (:func:`strong_network`, played by :func:`strong_player`).
Part of :mod:`tilelab.game2048.learning`, which exports every name here.
"""

from __future__ import annotations

import math
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

from tilelab.files import one_line
from tilelab.game2048.ai import Thought
from tilelab.game2048.fast.bitrows import DIRECTION_NAMES, row_tables
from tilelab.game2048.fast.bitboard import to_bitboard
from tilelab.game2048.board import DEFAULT_P_FOUR, Board, Direction
from tilelab.game2048.expectimax import (
    Budget, SearchResult, TranspositionTable, check_search_settings, deepen, result_of,
)
from tilelab.game2048.stopping import check_deadline, check_node_limit
from tilelab.game2048.fast.kernels import NO_MOVE, search_rows
from tilelab.game2048.fast.bitrows import U64
from tilelab.game2048.learning import ntuple_compact
from tilelab.game2048.learning.ntuple_compact import STRONG_BUILD, CompactNetwork
from tilelab.game2048.learning.ntuple_kernels import TD_SEARCH, Weights, greedy_values
from tilelab.game2048.learning.ntuple_net import NTupleNetwork

__all__ = ["TDPlayer", "TDExpectimax", "MAX_TD_NODES", "LESSON_NET", "lesson_network", "strong_network",
           "strong_player"]

_CODE_TO_DIRECTION = tuple(Direction[name] for name in DIRECTION_NAMES)
Net = NTupleNetwork | CompactNetwork  #: the nets a player takes: float32 tables, or kept compact in memory


def _checked_net(net: object, player: str) -> Net:
    if not isinstance(net, (NTupleNetwork, CompactNetwork)):
        raise TypeError(f"{player} needs an NTupleNetwork or a CompactNetwork, got {type(net).__name__}")
    return net


def _weights(net: Net) -> Weights:
    """What the kernels read: the float32 weights, or a compact net's tables."""
    return net.tables if isinstance(net, CompactNetwork) else net.weights


class TDPlayer:
    """1-ply greedy player on a learned value: the move with the best ``reward + V(afterstate)``.

    ``last_values`` holds each legal move's ``reward + V(afterstate)`` (points expected from here).

    >>> player = TDPlayer(NTupleNetwork([(0, 1, 2, 3)]))
    >>> player(Board.parse("2 2 . .\\n. . . .\\n. . . .\\n. . . 4")) in (Direction.LEFT, Direction.RIGHT)
    True
    """

    name = "td-1ply"

    def __init__(self, net: Net) -> None:
        self.net = _checked_net(net, "TDPlayer")
        self.last_values: dict[Direction, float] = {}

    def think(self, board: Board) -> Thought:
        """Every legal move's ``reward + V(afterstate)`` and the choice, as a :class:`Thought` (depth 1)."""
        start = time.perf_counter()
        t = row_tables()
        values = np.full(4, np.nan)
        best = greedy_values(U64(to_bitboard(board)), _weights(self.net), *self.net.layout, t.left, t.right, t.score, values)
        self.last_values = {_CODE_TO_DIRECTION[c]: float(v) for c, v in enumerate(values) if not math.isnan(v)}
        direction = None if best < 0 else _CODE_TO_DIRECTION[best]
        return Thought(direction, dict(self.last_values), 1, len(self.last_values), 0,
                       1e3 * (time.perf_counter() - start))

    def __call__(self, board: Board) -> Direction:
        thought = self.think(board)
        if thought.direction is None:
            raise ValueError("the game is over: no move changes this board, so there is nothing to choose")
        return thought.direction


_WARM_UP_BOARD = 0x1  # one tile of 2: a depth-2 search is a few dozen nodes
MAX_TD_NODES = 250_000  # no single TDExpectimax search goes past this (about a second: a node is 4 lookups of V)


class TDExpectimax(TranspositionTable):
    """Expectimax whose evaluation is a learned n-tuple value: search ``depth`` of our moves, then ``V``.

    Depth 1 is exactly :class:`TDPlayer`. Budgets as in :class:`tilelab.game2048.Expectimax`:
    ``nodes_per_move`` (deterministic, default), ``ms_per_move`` (wall clock: the compiled search
    reads the clock and drops a level the deadline stops, so a move takes about ``T`` also on a busy
    machine) or ``depth`` (bounded by ``max_nodes`` like every search). 4x4 boards only. Its transposition
    table (``tt``, ``tt_board``, ``tt_tag``, ``tt_value``) is a :class:`tilelab.game2048.expectimax.TranspositionTable`.

    >>> ai = TDExpectimax(NTupleNetwork([(0, 1, 2, 3)]), depth=2)
    >>> ai(Board.parse("2 2 . .\\n. . . .\\n. . . .\\n. . . 4")) in (Direction.LEFT, Direction.RIGHT)
    True
    """

    name = "td-expectimax"

    def __init__(self, net: Net, ms_per_move: float | None = None, *, nodes_per_move: int | None = None,
                 depth: int | None = None, max_depth: int = 8, cutoff: float = 1e-3, p_four: float = DEFAULT_P_FOUR,
                 table_bits: int = 20, max_nodes: int = MAX_TD_NODES) -> None:
        net = _checked_net(net, "TDExpectimax")
        if ms_per_move is None and nodes_per_move is None and depth is None:
            nodes_per_move = 20_000
        _, cutoff, p_four = check_search_settings(1, cutoff, p_four)
        super().__init__(table_bits)
        self.net = net
        self.budget = Budget(depth=depth, nodes_per_move=nodes_per_move, ms_per_move=ms_per_move,
                             max_depth=max_depth, nodes_per_ms=500.0, max_nodes=max_nodes)
        self.cutoff, self.p_four = cutoff, p_four
        self.last: Thought | None = None
        self.last_values: dict[Direction, float] = {}
        self.search(_WARM_UP_BOARD, 2)  # load the compiled search now, not in the first move

    def __repr__(self) -> str:
        return f"TDExpectimax({self.net.name!r}, {self.budget.describe()}, cutoff={self.cutoff:g})"

    def search(self, bits: int, depth: int, node_limit: int = 0, deadline: float | None = None) -> SearchResult:
        """One fixed-depth search from a bitboard (``depth`` = our moves, 1 = greedy on ``V``).

        Stops (``complete=False``) past ``node_limit`` nodes or the ``deadline`` (a perf_counter time).
        """
        node_limit = check_node_limit(node_limit)
        deadline = check_deadline(deadline)
        tick = time.perf_counter()
        t = row_tables()
        tag_base = self.next_tag_base()
        counters, values = self.counters, self.values  # reused: the kernels reset them
        n = self.net
        if depth <= 1:  # our move, then V of its afterstate: no chance node
            counters.fill(0)
            best = greedy_values(U64(bits), _weights(n), *n.layout, t.left, t.right, t.score, values)
        else:  # our move, then the one expectimax kernel from its afterstate, one of our moves fewer
            leaf_data = (_weights(n), *n.layout, t.left, t.right, t.score)
            r = search_rows()  # the same slides in 16 bits a row
            best = TD_SEARCH.root_values(U64(bits), depth - 1, self.p_four, self.cutoff, r.left, r.right, r.score,
                                         leaf_data, self.tt, self.tt_f, tag_base, counters, values, node_limit,
                                         deadline)
        return result_of(best, values, depth, counters, tick)

    def think(self, board: Board) -> Thought:
        """Search ``board`` under the budget: the choice and each legal move's value, as a :class:`Thought`."""
        start = time.perf_counter()
        bits = to_bitboard(board)
        result = deepen(lambda depth, limit, deadline=None: self.search(bits, depth, limit, deadline), self.budget,
                        start=start)
        self.last_values = {_CODE_TO_DIRECTION[c]: v for c, v in enumerate(result.values) if not math.isnan(v)}
        direction = None if result.best == NO_MOVE else _CODE_TO_DIRECTION[result.best]
        self.last = Thought(direction, dict(self.last_values), result.depth, result.nodes, result.table_hits,
                            1e3 * (time.perf_counter() - start))
        return self.last

    def __call__(self, board: Board) -> Direction:
        thought = self.think(board)
        if thought.direction is None:
            raise ValueError("the game is over: no move changes this board, so there is nothing to choose")
        return thought.direction


# ---------------------------------------------------------------------------------- the lesson's net
LESSON_NET = Path(__file__).resolve().parents[2] / "data" / "ntuple-classroom.npz"


def lesson_network() -> NTupleNetwork:
    """The classroom net shipped with tilelab (trained by ``benchmarks/train_2048_td.py``; checked on load).

    >>> from tilelab.game2048.learning.ntuple_net import CLASSROOM_TUPLES
    >>> net = lesson_network()
    >>> net.tuples == CLASSROOM_TUPLES and net.training["games"] > 0
    True
    """
    try:
        return NTupleNetwork.load(LESSON_NET)
    except FileNotFoundError:
        raise ValueError(f"the shipped net {LESSON_NET} is missing: reinstall tilelab (pip install --force-reinstall "
                         "tilelab) or rebuild it with benchmarks/train_2048_td.py --net classroom --ship "
                         f"{LESSON_NET}") from None
    except ValueError as exc:
        raise ValueError(f"the shipped net is damaged ({one_line(exc)}): reinstall tilelab (pip install "
                         "--force-reinstall tilelab, or git checkout tilelab/data/ntuple-classroom.npz in a clone) "
                         f"or rebuild it with benchmarks/train_2048_td.py --net classroom --ship {LESSON_NET}") from None


# ---------------------------------------------------------------------------------- the strong net
def strong_network(path: str | os.PathLike[str] | None = None) -> CompactNetwork:
    """The strong net shipped with tilelab (``tilelab/data/ntuple-strong.npz``, checked on load), kept compact in
    memory (:class:`~tilelab.game2048.learning.ntuple_compact.CompactNetwork`: 48 MiB).

    A missing or damaged file raises ``ValueError`` naming the commands that build it.
    """
    where = Path(path) if path is not None else ntuple_compact.STRONG_NET
    try:
        return CompactNetwork.load(where)
    except FileNotFoundError:
        raise ValueError(f"the strong net {where} is missing: in a clone, git pull (or git checkout "
                         "tilelab/data/ntuple-strong.npz); else build it (about 3 hours of one core): "
                         f"{STRONG_BUILD}") from None


def strong_player(depth: int = 3, *, net: Net | None = None, **options: Any) -> TDExpectimax:
    """The strong learned player: expectimax ``depth`` moves deep on the shipped 4 x 6-tuple net.

    ``options`` go to :class:`TDExpectimax` (e.g. ``ms_per_move=50`` instead of a fixed depth, which
    then is ignored); ``net`` replaces the shipped net (a net already loaded).
    """
    net = strong_network() if net is None else net
    if "ms_per_move" in options or "nodes_per_move" in options:
        return TDExpectimax(net, **options)
    return TDExpectimax(net, depth=depth, **options)
