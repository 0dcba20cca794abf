"""The strong net kept compact in memory against the same net expanded to float32 tables, side by side.

    python benchmarks/bench_2048_compact.py                    # 2,000 positions, depth 3
    python benchmarks/bench_2048_compact.py --positions 500 --depth 4

Loads ``tilelab/data/ntuple-strong.npz`` both ways: :func:`~tilelab.game2048.learning.ntuple_compact.load_compact` (float32 tables,
256 MiB: how tilelab loaded it before the hub work) and :func:`~tilelab.game2048.learning.ntuple_players.strong_network` (a
:class:`~tilelab.game2048.learning.ntuple_compact.CompactNetwork`, 48 MiB). Prints, for each, the memory a fresh process needs to
load it (peak and resident, measured in a child process), then plays both at ``--depth`` on the same
positions (every ``--stride``-th board of seeded 1-ply games, as ``make_strong_net.py`` samples them), the two
players taking turns position by position so both meet the same machine load: how often they choose the same
move (and the same values), the mean milliseconds per move of each (wall-clock and CPU time: on a busy machine the
CPU time is the steadier), and their ratio.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from make_strong_net import POSITION_SEED, sample_positions  # noqa: E402

from tilelab.game2048.learning.ntuple_compact import STRONG_NET, load_compact
from tilelab.game2048.learning.ntuple_players import TDExpectimax, strong_network

_MEMORY_CHILD = """
import json, sys
def status():
    lines = open('/proc/self/status').read().splitlines()
    return {l.split(':')[0]: int(l.split()[1]) / 1024 for l in lines if l.startswith(('VmHWM', 'VmRSS'))}
from tilelab.game2048.learning.ntuple_compact import load_compact, STRONG_NET
from tilelab.game2048.learning.ntuple_players import strong_network
before = status()
net = load_compact(STRONG_NET) if sys.argv[1] == 'float32' else strong_network()
after = status()
print(json.dumps({'peak': after['VmHWM'] - before['VmRSS'], 'resident': after['VmRSS'] - before['VmRSS'],
                  'tables': net.memory_bytes / 2**20}))
"""


def memory(kind: str) -> dict[str, float]:
    """MiB a fresh process takes to load the strong net as ``kind`` ("float32" or "compact"): peak and kept."""
    out = subprocess.run([sys.executable, "-c", _MEMORY_CHILD, kind], check=True, capture_output=True, text=True)
    return json.loads(out.stdout.splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--stride", type=int, default=5, help="every N-th board of a game (default 5)")
    parser.add_argument("--depth", type=int, default=3)
    args = parser.parse_args(argv)

    print(f"strong net {STRONG_NET.name} ({STRONG_NET.stat().st_size / 1e6:.2f} MB file)", flush=True)
    for kind in ("float32", "compact"):
        m = memory(kind)
        print(f"  {kind:>7}: tables {m['tables']:6.1f} MiB; a fresh process loading it: peak +{m['peak']:.0f} MiB, "
              f"then +{m['resident']:.0f} MiB resident", flush=True)

    tick = time.perf_counter()
    dense = load_compact(STRONG_NET)
    dense_load = time.perf_counter() - tick
    tick = time.perf_counter()
    compact = strong_network()
    compact_load = time.perf_counter() - tick
    print(f"load time: float32 {dense_load:.2f} s, compact {compact_load:.2f} s", flush=True)

    positions = sample_positions(compact, args.positions, args.stride)
    print(f"{len(positions)} positions (every {args.stride}th board of 1-ply games, seeds {POSITION_SEED}..), "
          f"depth {args.depth}", flush=True)
    players = {"float32": TDExpectimax(dense, depth=args.depth), "compact": TDExpectimax(compact, depth=args.depth)}
    seconds = dict.fromkeys(players, 0.0)
    cpu = dict.fromkeys(players, 0.0)
    same_move = same_values = 0
    for i, board in enumerate(positions):
        order = list(players) if i % 2 == 0 else list(reversed(players))  # each goes first half of the time
        thoughts = {}
        for name in order:
            tick, cpu_tick = time.perf_counter(), time.process_time()
            thoughts[name] = players[name].think(board)
            seconds[name] += time.perf_counter() - tick
            cpu[name] += time.process_time() - cpu_tick
        same_move += thoughts["float32"].direction == thoughts["compact"].direction
        same_values += thoughts["float32"].values == thoughts["compact"].values
    print(f"same move on {same_move:,} of {len(positions):,} positions; the same values on {same_values:,}")
    for label, spent in (("wall-clock", seconds), ("CPU", cpu)):
        ms = {name: 1e3 * s / len(positions) for name, s in spent.items()}
        print(f"{label} ms per move at depth {args.depth}: float32 {ms['float32']:.3f}, compact {ms['compact']:.3f}; "
              f"compact / float32 = {ms['compact'] / ms['float32']:.2f}")
    return 0 if same_move == len(positions) else 1


if __name__ == "__main__":
    sys.exit(main())
