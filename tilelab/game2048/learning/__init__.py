"""Learning to play 2048: n-tuple networks trained by temporal-difference learning (see :mod:`tilelab.game2048.ntuple`)."""
