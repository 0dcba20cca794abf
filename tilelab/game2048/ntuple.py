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

Two implementations, tested to agree exactly: the readable reference (:func:`value_ref`,
:func:`td_update_ref`, :func:`learn_game_ref`) and the numba fast path on the bitboard
(:meth:`NTupleNetwork.value_bits`, :meth:`NTupleNetwork.train`). Training is seeded, deterministic
and resumable (the random state is saved with the weights): same seed, same weights.

Weights are saved as ``.npz`` (never pickled) with a JSON header: format version, tuple shapes,
training state and a SHA-256 of the weights; a damaged file raises ``ValueError``. The pure engine
imports only the standard library and numpy; the progress bar (tqdm) is loaded only when asked for.

This module gathers the n-tuple package-internal modules under one name (import from here):
:mod:`~tilelab.game2048.learning.ntuple_net` (the network, its training and its files),
:mod:`~tilelab.game2048.learning.ntuple_ref` (the readable reference), :mod:`~tilelab.game2048.learning.ntuple_kernels`
(the compiled kernels), :mod:`~tilelab.game2048.learning.ntuple_players` (the players and the lesson's net) and
:mod:`~tilelab.game2048.learning.ntuple_compact` (a trained net in a small file, and kept small in memory:
:class:`CompactNetwork`; :func:`strong_player` plays the strong net shipped with tilelab).
"""

from __future__ import annotations

from tilelab._deprecation import moved
from tilelab.game2048.learning.ntuple_compact import (
    COMPACT_FORMAT, COMPACT_VERSION, compact_weights, CompactNetwork, ENCODINGS, load_compact, load_network, save_compact, STRONG_NET,
)
from tilelab.game2048.learning.ntuple_net import (
    cache_dir, cached_network, CLASSROOM_TUPLES, CurvePoint, Evaluation, FORMAT, FORMAT_VERSION, NTupleNetwork, symmetric_tuples, SYMMETRIES, WU_YEH_TUPLES,
)
from tilelab.game2048.learning.ntuple_players import (
    LESSON_NET, lesson_network, strong_network, strong_player, TDExpectimax, TDPlayer,
)
from tilelab.game2048.learning.ntuple_ref import feature_indices_ref, learn_game_ref, td_update_ref, value_ref

__all__ = [
    "NTupleNetwork", "CLASSROOM_TUPLES", "WU_YEH_TUPLES", "SYMMETRIES", "symmetric_tuples", "value_ref",
    "feature_indices_ref", "td_update_ref", "learn_game_ref", "CurvePoint", "Evaluation", "TDPlayer", "TDExpectimax",
    "cache_dir", "cached_network", "FORMAT", "FORMAT_VERSION", "lesson_network", "LESSON_NET",
    "strong_player", "strong_network", "STRONG_NET", "CompactNetwork", "save_compact", "load_compact", "load_network",
    "compact_weights", "COMPACT_FORMAT", "COMPACT_VERSION", "ENCODINGS",
]

# The names these objects had when they lived in this module (and the kernels' names it once gave them).
__getattr__, __dir__ = moved(__name__, {
    "_index": "tilelab.game2048.learning.ntuple_kernels:tuple_index", "_value": "tilelab.game2048.learning.ntuple_kernels:net_value",
    "_update": "tilelab.game2048.learning.ntuple_kernels:update_weights",
    "_update_tc": "tilelab.game2048.learning.ntuple_kernels:update_weights_tc",
    "_learn": "tilelab.game2048.learning.ntuple_kernels:learn_step", "_train_games": "tilelab.game2048.learning.ntuple_kernels:train_games",
    "_greedy_values": "tilelab.game2048.learning.ntuple_kernels:greedy_values",
    "_batch_values": "tilelab.game2048.learning.ntuple_kernels:batch_values",
    "_grid": "tilelab.game2048.learning.ntuple_ref:grid_exponents", "_check_tuples": "tilelab.game2048.learning.ntuple_net:check_tuples",
    "_U": "tilelab.game2048.fast.bitrows:U64", "_move": "tilelab.game2048.fast.bitrows:apply_move",
    "_spawn_random": "tilelab.game2048.fast.bitboard:spawn_xorshift", "_seed_state": "tilelab.game2048.fast.bitboard:seed_state",
    "_max_exponent": "tilelab.game2048.fast.bitrows:max_exponent", "_count_empty": "tilelab.game2048.fast.bitrows:count_empty",
    "_slot": "tilelab.game2048.fast.kernels:table_slot", "_count_node": "tilelab.game2048.fast.kernels:count_node",
    "_check_limit": "tilelab.game2048.stopping:check_node_limit",
    "_check_deadline": "tilelab.game2048.stopping:check_deadline",
})
