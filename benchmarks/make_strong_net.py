"""Make the shipped strong net: a trained n-tuple net file (full, float32) -> a compact file, and check it.

    python benchmarks/make_strong_net.py --full benchmarks/results/td_wu-yeh_tc-long.npz
    python benchmarks/make_strong_net.py --full NET.npz --out /tmp/strong.npz --compare   # every encoding side by side
    python benchmarks/make_strong_net.py --full NET.npz --bits 14 --prune small --prune-max 80  # if 16 bits is over 25 MB

Prints the two files' sizes, how many weights training touched (the compact file keeps only those),
the largest quantisation error (per weight, and on ``V`` of the sampled positions), the load time, and
how often the compact net chooses the same move as the full one on ``--positions`` positions sampled from
seeded 1-ply games of the full net, at each search depth of ``--depths``. ``--compare`` measures every
encoding (int16 at each of ``--compare-bits``, float16; with and without ``--prune``) before writing the chosen
one. ``--prune one-sided`` also drops the weights whose every training update had the same sign (read from the
temporal-coherence accumulators) of size at most ``--prune-max`` points: mostly patterns training met once or
twice (on a 32,000-game snapshot: 30% of the touched weights are one-sided, 19% also at most 50 in size);
``--prune small`` drops every weight that small (65% there).
A file over ``--max-mb`` (25) is refused. A net trained to 643,000 games touches a third of its weights, and
its 16-bit file is 34.3 MB: ``--bits 14 --prune small --prune-max 60`` made the twin's 24.4 MB (the full net's move at
depth 3 on 97.9% of the positions, ``benchmarks/results/make_strong_net_compare_twin643k.txt``) but the rebuilt 91%
net's 25.8 MB; ``--prune-max 80`` makes that one 24.45 MB (96.95%, ``benchmarks/results/rebuild643k/``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from tilelab.game2048 import Board, Direction, play_game
from tilelab.game2048.fast.bitboard import to_bitboard
from tilelab.game2048.learning.ntuple_compact import STRONG_NET, compact_weights, load_compact, save_compact
from tilelab.game2048.learning.ntuple_net import NTupleNetwork
from tilelab.game2048.learning.ntuple_players import TDExpectimax, TDPlayer

PRUNES = ("none", "small", "one-sided")
POSITION_SEED = 50_000  # seeds of the games the positions come from (not the benchmark's 1000..1099)


def sample_positions(net: NTupleNetwork, count: int, stride: int, seed: int = POSITION_SEED) -> list[Board]:
    """``count`` boards: every ``stride``-th position of seeded 1-ply games played by ``net``."""
    boards: list[Board] = []
    player = TDPlayer(net)

    def recording(board: Board) -> Direction:
        boards.append(board)
        return player(board)

    positions: list[Board] = []
    game = 0
    while len(positions) < count:
        boards.clear()
        play_game(recording, rng=seed + game)
        positions.extend(boards[::stride])
        game += 1
    return positions[:count]


def chooser(net: NTupleNetwork, depth: int):
    """The move ``net`` picks at ``depth`` (1 = greedy on ``V``), as a function of a board."""
    return TDPlayer(net) if depth <= 1 else TDExpectimax(net, depth=depth)


def agreement(full: NTupleNetwork, compact: NTupleNetwork, positions: list[Board], depth: int) -> tuple[int, float]:
    """How many positions both nets choose the same move on at ``depth``, and the largest loss of a differing
    choice in the full net's eyes (its value of its own move minus its value of the compact net's, in points)."""
    a, b = chooser(full, depth), chooser(compact, depth)
    same, worst = 0, 0.0
    for board in positions:
        mine, theirs = a(board), b(board)
        if mine == theirs:
            same += 1
        else:
            worst = max(worst, a.last_values[mine] - a.last_values[theirs])
    return same, worst


def measure(full: NTupleNetwork, weights: np.ndarray, positions: list[Board], depths: list[int]) -> dict:
    """Quantisation error and move agreement of ``weights`` (the compact file's) against ``full``."""
    compact = NTupleNetwork(full.tuples, weights, name=full.name)
    error = np.abs(weights.astype(np.float64) - full.weights)
    bits = np.array([to_bitboard(b) for b in positions], dtype=np.uint64)
    v_error = np.abs(compact.values_bits(bits) - full.values_bits(bits))
    out = {"max_error": float(error.max()), "mean_error": float(error[full.weights != 0].mean()),
           "max_v_error": float(v_error.max()), "dropped": int(np.count_nonzero((full.weights != 0) & (weights == 0)))}
    for depth in depths:
        out[f"agree_depth{depth}"] = agreement(full, compact, positions, depth)
    return out


def report(label: str, size: int | None, m: dict, n: int, depths: list[int]) -> None:
    cells = "  ".join(f"depth {d}: {m[f'agree_depth{d}'][0]}/{n} = {100 * m[f'agree_depth{d}'][0] / n:.2f}% "
                      f"(others lose <= {m[f'agree_depth{d}'][1]:.1f} points)" for d in depths)
    where = f"{size / 1e6:6.2f} MB" if size is not None else "         "
    print(f"  {label:<36} {where}  max |w error| {m['max_error']:8.2f}  mean {m['mean_error']:.3f}  "
          f"max |V error| {m['max_v_error']:8.2f}  zeroed {m['dropped']:>10,}  same move {cells}", flush=True)


def one_sided(net: NTupleNetwork) -> np.ndarray:
    """Weights whose every temporal-coherence update had the same sign (``|E| == A``): mostly weights updated
    once or a few times, for patterns training rarely met (needs the accumulators of a TC training file)."""
    if net.e_sum is None or net.a_sum is None:
        raise SystemExit("--prune one-sided needs the temporal-coherence accumulators: give the training file "
                         "(saved with them, as benchmarks/train_2048_td.py --method tc does)")
    return (net.weights != 0) & (np.abs(net.e_sum) == net.a_sum)


def pruned(net: NTupleNetwork, prune: str, limit: float) -> NTupleNetwork:
    """``net`` itself (``prune="none"``) or a copy without its weights of size at most ``limit`` points:
    all of them (``"small"``) or only the one-sided ones (``"one-sided"``)."""
    if prune == "none":
        return net
    weights = net.weights.copy()
    drop = np.abs(weights) <= limit
    if prune == "one-sided":
        drop &= one_sided(net)
    weights[drop] = 0
    out = NTupleNetwork(net.tuples, weights, name=net.name)
    out.training = net.training
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", type=Path, required=True, help="the trained net (benchmarks/train_2048_td.py)")
    parser.add_argument("--out", type=Path, default=STRONG_NET)
    parser.add_argument("--encoding", choices=("int16", "float16"), default="int16")
    parser.add_argument("--bits", type=int, default=16, help="int16 steps: max |w| / (2**(bits-1) - 1)")
    parser.add_argument("--prune", choices=PRUNES, default="none",
                        help="also drop weights of size <= --prune-max: all (small) or those whose every training "
                             "update had the same sign (one-sided)")
    parser.add_argument("--prune-max", type=float, default=50.0, help="the largest |weight| --prune drops (points)")
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--stride", type=int, default=25, help="keep every stride-th position of each game")
    parser.add_argument("--depths", default="1,3", help="search depths at which to compare the chosen moves")
    parser.add_argument("--compare", action="store_true", help="measure every encoding before writing")
    parser.add_argument("--compare-bits", default="16,14,12,10", help="int16 step sizes --compare measures")
    parser.add_argument("--max-mb", type=float, default=25.0, help="refuse to write a file larger than this (10**6 B)")
    args = parser.parse_args(argv)
    depths = [int(d) for d in args.depths.split(",") if d.strip()]
    tick = time.perf_counter()
    full = NTupleNetwork.load(args.full)
    print(f"{full} from {args.full}: {args.full.stat().st_size / 1e6:.1f} MB on disk, loaded in "
          f"{time.perf_counter() - tick:.1f} s", flush=True)
    touched = int(np.count_nonzero(full.weights))
    print(f"weights training touched (not 0): {touched:,} of {full.weights.size:,} = {touched / full.weights.size:.1%}")
    if full.e_sum is not None:
        sided = int(np.count_nonzero(one_sided(full)))
        small = int(np.count_nonzero(one_sided(full) & (np.abs(full.weights) <= args.prune_max)))
        print(f"  of which one-sided (every update the same sign): {sided:,} = {sided / max(touched, 1):.1%}; "
              f"also at most {args.prune_max:g} in size (--prune one-sided drops them): {small / max(touched, 1):.1%}")
    small = int(np.count_nonzero((full.weights != 0) & (np.abs(full.weights) <= args.prune_max)))
    print(f"  of size at most {args.prune_max:g} (--prune small drops them): {small / max(touched, 1):.1%}")
    positions = sample_positions(full, args.positions, args.stride)
    print(f"{len(positions)} positions from seeded 1-ply games of the full net (seeds {POSITION_SEED}..); "
          f"max tile among them {max(b.max_tile for b in positions)}", flush=True)
    if args.compare:
        print("encodings (file sizes written to a temporary folder; errors against the full net):")
        prunes = PRUNES if full.e_sum is not None else PRUNES[:2]
        bits_list = [int(b) for b in args.compare_bits.split(",") if b.strip()]
        with tempfile.TemporaryDirectory() as folder:
            for prune in prunes:
                source = pruned(full, prune, args.prune_max)
                for encoding, bits in [("int16", b) for b in bits_list] + [("float16", 16)]:
                    how = prune if prune == "none" else f"{prune} <= {args.prune_max:g}"
                    try:
                        path = save_compact(source, Path(folder) / "net.npz", encoding=encoding, bits=bits)
                    except ValueError as exc:  # float16 cannot hold a weight over 65504 (a long-trained net has them)
                        print(f"  {encoding} {bits} bits, prune {how}: not possible: {exc}", flush=True)
                        continue
                    report(f"{encoding} {bits} bits, prune {how}", path.stat().st_size,
                           measure(full, compact_weights(source, encoding, bits=bits), positions, depths),
                           len(positions), depths)
    source = pruned(full, args.prune, args.prune_max)
    new = args.out.with_name(args.out.name + ".new")  # replaces --out only once it is checked
    tick = time.perf_counter()
    save_compact(source, new, encoding=args.encoding, bits=args.bits)
    saved = time.perf_counter() - tick
    tick = time.perf_counter()
    compact = load_compact(new)
    loaded = time.perf_counter() - tick
    size = new.stat().st_size
    print(f"compact file ({args.encoding}, {args.bits} bits, prune {args.prune}): {size / 1e6:.2f} MB ({size:,} bytes; "
          f"the full file is {args.full.stat().st_size / size:.0f}x larger), written in {saved:.1f} s, loads in "
          f"{loaded:.2f} s", flush=True)
    if not np.array_equal(compact.weights, compact_weights(source, args.encoding, bits=args.bits)):
        new.unlink()
        print("ERROR: the file does not load back as the weights it was made from", file=sys.stderr)
        return 1
    report(f"{args.encoding} {args.bits} bits, prune {args.prune}", size,
           measure(full, compact.weights, positions, depths), len(positions), depths)
    if size > args.max_mb * 1e6:
        new.unlink()
        print(f"ERROR: {size / 1e6:.2f} MB is more than --max-mb {args.max_mb:g}; nothing written. Try "
              "--bits 14 --prune small --prune-max 80 (the 643,000-game net: 24.45 MB; 34.3 MB at 16 bits), or see "
              "--compare", file=sys.stderr)
        return 1
    new.replace(args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
