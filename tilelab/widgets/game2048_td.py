"""The AI board with a *learned* player: an n-tuple network trained by TD learning plays 2048.

Built on :class:`~tilelab.widgets.game2048_ai.Game2048AIWidget` (same buttons, ticker and thinking
panel). The panel shows, for each move, ``reward + V(afterstate)``: the points the move makes now plus
the points the network expects to come after it. Below it: the net, how long it trained, and ``V`` of
the afterstate of the chosen move.
"""

from __future__ import annotations

import html
from typing import Any

from tilelab.jit import HAVE_NUMBA
from tilelab.randomness import RngLike
from tilelab.game2048 import Board, Direction, play
from tilelab.game2048.learning.ntuple_compact import CompactNetwork
from tilelab.game2048.learning.ntuple_net import NTupleNetwork
from tilelab.game2048.learning.ntuple_players import TDExpectimax, TDPlayer, lesson_network, strong_network, strong_player
from tilelab.widgets.game2048_ai import Game2048AIWidget

__all__ = ["Game2048TDWidget", "value_note", "NETS", "STRONG_DEPTH"]

NETS = ("lesson", "strong")  # the nets a board can name: the classroom net, the shipped strong net
#: The strong board's search depth: 3 moves, as :func:`~tilelab.game2048.learning.ntuple_players.strong_player`, where the search is
#: compiled; 1 (the 1-ply player) in the browser (JupyterLite has no numba: plain Python is too slow for 3 at a
#: game's pace).
STRONG_DEPTH = 3 if HAVE_NUMBA else 1


def value_note(net: NTupleNetwork | CompactNetwork, board: Board, chosen: Direction | None) -> str:
    """One HTML line: the net, its training, and ``V`` of the chosen move's afterstate.

    >>> from tilelab.game2048.learning.ntuple_net import NTupleNetwork
    >>> note = value_note(NTupleNetwork([(0, 1)]), Board.parse("2 2 . .\\n. . . .\\n. . . .\\n. . . ."), Direction.LEFT)
    >>> "V(afterstate) = 0" in note and "reward 4" in note
    True
    """
    trained = f"{net.training['games']:,} training games"
    if chosen is None:
        return f'<div style="font-family:sans-serif;font-size:12px;color:#666">net {html.escape(net.name)}, {trained}</div>'
    result = play(board, chosen)
    v = net.value(result.board)
    return ('<div style="font-family:sans-serif;font-size:12px;color:#666">'
            f"net {html.escape(net.name)}, {trained}<br>{chosen.name.lower()}: reward {result.score:,} "
            f"+ V(afterstate) = {v:,.0f} &rarr; {result.score + v:,.0f}</div>")


class Game2048TDWidget(Game2048AIWidget):
    """A 2048 board played by a learned value: 1-ply greedy (``TDPlayer``) or expectimax on it.

    ``net`` defaults to the lesson's classroom net; ``net="strong"`` (or :meth:`strong`) watches the strong
    player shipped with tilelab (:func:`~tilelab.game2048.learning.ntuple_players.strong_player`: the 4 x 6-tuple net,
    searching :data:`STRONG_DEPTH` moves deep). ``search_ms`` (a wall-clock budget) or ``depth`` (fixed) switch from 1-ply
    play to :class:`~tilelab.game2048.learning.ntuple_players.TDExpectimax`.
    """

    def __init__(self, *, rng: RngLike = None,
                 net: NTupleNetwork | CompactNetwork | str | None = None,
                 search_ms: float | None = None, depth: int | None = None, **options: Any) -> None:
        if search_ms is not None and depth is not None:
            raise ValueError("give search_ms (a wall-clock budget per move) or depth (a fixed search depth), not both")
        self.net = _named_net(net)
        if net == "strong":
            player: Any = strong_player(STRONG_DEPTH if depth is None else depth, net=self.net,
                                        **({} if search_ms is None else {"ms_per_move": search_ms}))
        elif search_ms is not None:
            player = TDExpectimax(self.net, ms_per_move=search_ms)
        elif depth is not None:
            player = TDExpectimax(self.net, depth=depth)
        else:
            player = TDPlayer(self.net)
        super().__init__(rng=rng, player=player, **options)
        self.last_note = ""

    @classmethod
    def strong(cls, *, rng: RngLike = None, depth: int | None = None,
               search_ms: float | None = None, **options: Any) -> "Game2048TDWidget":
        """A board played by the strong learned player (``net="strong"``); ValueError if its file is missing."""
        return cls(rng=rng, net="strong", depth=depth,
                   search_ms=search_ms, **options)

    def think(self) -> Direction | None:
        """The learned player's view of the board: each move's value, plus ``V`` of the chosen afterstate."""
        board = self.game.board
        choice = super().think()
        self.last_note = value_note(self.net, board, choice)
        self.thinking.value = self.thinking.value + self.last_note
        return choice


def _named_net(net: NTupleNetwork | CompactNetwork | str | None) -> NTupleNetwork | CompactNetwork:
    """The net a board plays with: a net, ``None``/``"lesson"`` (the classroom net) or ``"strong"``."""
    if isinstance(net, (NTupleNetwork, CompactNetwork)):
        return net
    if net is None or net == "lesson":
        return lesson_network()
    if net == "strong":
        try:
            return strong_network()
        except ValueError as exc:
            raise ValueError(f"cannot watch the strong player: {exc}") from None
    raise ValueError(f"net must be an NTupleNetwork or one of {NETS}, got {net!r}")
