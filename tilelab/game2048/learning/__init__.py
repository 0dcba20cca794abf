"""Learning to play 2048: n-tuple networks trained by temporal-difference (TD) learning on afterstates.

**Afterstate**: the board right after our move and *before* the random spawn. Its value ``V(after)`` is
"how many more points will come from here", and it is all a player needs: pick the move with the
best ``reward + V(afterstate)``. No model of the spawn is needed to choose (Szubert & Jaskowski 2014).

**n-tuple network**: ``V`` is a sum of table lookups. A *tuple* is a fixed list of cells (e.g. the
bottom row); the exponents found in those cells form an index into that tuple's weight table
(``16**len`` entries, one per possible content). Every tuple is also read in the 8 symmetric positions
of the board (4 rotations x mirror) sharing one table, so the net learns "a 2x2 square in a corner"
once, for every corner. Cell ``i`` is ``(row, col) = divmod(i, 4)``, as in the bitboard.

**TD(0) on afterstates**: play greedily on the current ``V``; after each move, nudge the previous
afterstate's value toward ``reward + V(this afterstate)`` (the value one move later):
``V(prev) += alpha * (reward + V(after) - V(prev))``; at game over, toward 0. Each of the network's
``F`` looked-up weights moves by ``alpha * error / F``. **Temporal coherence** (TC, Jaskowski 2018)
gives every weight its own step: ``alpha * |E| / A`` where ``E`` sums the weight's past errors and
``A`` their sizes -- weights whose errors keep the same sign learn fast, noisy ones slow down.

Two implementations, tested to agree exactly: the readable reference (:func:`~tilelab.game2048.learning.ntuple_ref.value_ref`,
:func:`~tilelab.game2048.learning.ntuple_ref.td_update_ref`, :func:`~tilelab.game2048.learning.ntuple_ref.learn_game_ref`) and the numba fast path on the bitboard
(:meth:`~tilelab.game2048.learning.ntuple_net.NTupleNetwork.value_bits`, :meth:`~tilelab.game2048.learning.ntuple_net.NTupleNetwork.train`). Training is seeded, deterministic
and resumable (the random state is saved with the weights): same seed, same weights.

Weights are saved as ``.npz`` (never pickled) with a JSON header: format version, tuple shapes,
training state and a SHA-256 of the weights; a damaged file raises ``ValueError``. The pure engine
imports only the standard library and numpy; the progress bar (tqdm) is loaded only when asked for.

The modules of this part, each imported from where it is defined:
:mod:`~tilelab.game2048.learning.ntuple_net` (the network, its training and its files),
:mod:`~tilelab.game2048.learning.ntuple_ref` (the readable reference: the rule),
:mod:`~tilelab.game2048.learning.ntuple_kernels` (the compiled kernels: its fast twin),
:mod:`~tilelab.game2048.learning.ntuple_players` (the players and the lesson's net) and
:mod:`~tilelab.game2048.learning.ntuple_compact` (a trained net in a small file, and kept small in memory:
:class:`~tilelab.game2048.learning.ntuple_compact.CompactNetwork`;
:func:`~tilelab.game2048.learning.ntuple_players.strong_player` plays the strong net shipped with tilelab).
"""
