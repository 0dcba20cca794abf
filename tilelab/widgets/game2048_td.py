"""The AI board with a *learned* player: an n-tuple network trained by TD learning plays 2048.

Built on :class:`~tilelab.widgets.game2048_ai.Game2048AIWidget` (same buttons, ticker and thinking
panel). The panel shows, for each move, ``reward + V(afterstate)``: the points the move makes now plus
the points the network expects to come after it. Below it: the net, how long it trained, and ``V`` of
the afterstate of the chosen move.
"""

from __future__ import annotations

import html
from typing import Any

from tilelab.game2048 import Board, Direction, move
from tilelab.game2048.ntuple import NTupleNetwork, TDExpectimax, TDPlayer, lesson_network
from tilelab.widgets.game2048_ai import Game2048AIWidget

__all__ = ["Game2048TDWidget", "value_note"]


def value_note(net: NTupleNetwork, board: Board, chosen: Direction | None) -> str:
    """One HTML line: the net, its training, and ``V`` of the chosen move's afterstate.

    >>> from tilelab.game2048.ntuple import NTupleNetwork
    >>> note = value_note(NTupleNetwork([(0, 1)]), Board.parse("2 2 . .\\n. . . .\\n. . . .\\n. . . ."), Direction.LEFT)
    >>> "V(afterstate) = 0" in note and "reward 4" in note
    True
    """
    trained = f"{net.training['games']:,} training games"
    if chosen is None:
        return f'<div style="font-family:sans-serif;font-size:12px;color:#666">net {html.escape(net.name)}, {trained}</div>'
    result = move(board, chosen)
    v = net.value(result.board)
    return ('<div style="font-family:sans-serif;font-size:12px;color:#666">'
            f"net {html.escape(net.name)}, {trained}<br>{chosen.name.lower()}: reward {result.score:,} "
            f"+ V(afterstate) = {v:,.0f} &rarr; {result.score + v:,.0f}</div>")


class Game2048TDWidget(Game2048AIWidget):
    """A 2048 board played by a learned value: 1-ply greedy (``TDPlayer``) or expectimax on it.

    ``net`` defaults to the lesson's classroom net; ``search_ms`` (a wall-clock budget) switches from
    1-ply play to :class:`~tilelab.game2048.ntuple.TDExpectimax`.
    """

    def __init__(self, seed: int | None = None, net: NTupleNetwork | None = None, *,
                 search_ms: float | None = None, **options: Any) -> None:
        self.net = net if net is not None else lesson_network()
        player = TDPlayer(self.net) if search_ms is None else TDExpectimax(self.net, ms_per_move=search_ms)
        super().__init__(seed, player=player, **options)
        self.last_note = ""

    def think(self) -> Direction | None:
        """The learned player's view of the board: each move's value, plus ``V`` of the chosen afterstate."""
        board = self.game.board
        choice = super().think()
        self.last_note = value_note(self.net, board, choice)
        self.thinking.value = self.thinking.value + self.last_note
        return choice
