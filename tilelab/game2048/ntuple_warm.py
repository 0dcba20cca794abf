"""Warm task for the learned 2048 player (``python -m tilelab.warm``): check the shipped net, compile its kernels."""

from __future__ import annotations

from tilelab.warm import warm_task


@warm_task("2048-td", "lesson 6: check the shipped classroom n-tuple net, compile TD training and search")
def warm_td() -> str:
    """Load (and checksum) the lesson's net, then run each numba kernel once so it is cached."""
    from tilelab.game2048 import Board
    from tilelab.game2048.ntuple import NTupleNetwork, TDExpectimax, TDPlayer, lesson_network

    net = lesson_network()
    board = Board.parse("2 2 . .\n. . . .\n. . . .\n. . . 4")
    TDPlayer(net)(board)
    TDExpectimax(net, depth=2, table_bits=10)(board)
    NTupleNetwork([(0, 1, 2, 3)]).train(2, seed=0)
    return f"{net.name} net OK ({net.memory_bytes / 2**20:.2f} MiB, {net.training['games']:,} training games)"
