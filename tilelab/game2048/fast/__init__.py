"""The fast twin of the 2048 rules: the board in one 64-bit integer, and the compiled search.

A copy, not the rule: each module here imports the rule's constants from the readable modules one floor up
(:mod:`tilelab.game2048.chance` for the spawn, :mod:`tilelab.game2048.expectimax` for the search deadline), and
the tests check that it plays exactly as they do.

- :mod:`~tilelab.game2048.fast.bitrows` -- the layout, the row tables and one compiled move;
- :mod:`~tilelab.game2048.fast.bitboard` -- the checked Python API on bitboards: moves, spawns, random games;
- :mod:`~tilelab.game2048.fast.kernels` -- the compiled primitives under public names and the expectimax kernel.
"""
