"""2048 search work against the recorded figures: node counts, table hits and values, today beside the record.

``tests/data/game2048_search_values.json`` holds, for fixed positions, what the compiled searches found when it was
recorded (before the two chance-node kernels became one): the best move, each move's value (as ``float.hex``), the
nodes searched and the transposition-table hits. The tests check the searches against the readable rule instead
(``tests/test_game2048_kernels.py``), so a better pruning or move order passes them; this script shows what such a
change did to the work, and whether the values stayed bit for bit:

    python benchmarks/bench_2048_search_record.py          # heuristic search and player
    python benchmarks/bench_2048_search_record.py --td     # also the TD search and player (trains the small net)
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

from tilelab.game2048 import ai
from tilelab.game2048.learning.ntuple_net import CLASSROOM_TUPLES, NTupleNetwork
from tilelab.game2048.learning.ntuple_players import TDExpectimax
from tilelab.game2048.fast.bitboard import from_bitboard
from tilelab.game2048.expectimax import SearchTables, search_bits

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "game2048_search_values.json"


def _hex(values) -> list:
    return [None if math.isnan(v) else float(v).hex() for v in values]


def _row(label: str, want: dict, nodes: int, hits: int | None, same_values: bool, same_best: bool) -> str:
    change = nodes - want["nodes"]
    hits_text = "" if hits is None else f"  hits {hits:>6} (recorded {want.get('hits', '-'):>6})"
    return (f"{label:<34} nodes {nodes:>8} (recorded {want['nodes']:>8}, {change:+d}){hits_text}  "
            f"values {'same bits' if same_values else 'CHANGED'}  move {'same' if same_best else 'CHANGED'}")


def searches(data: dict, kind: str, run) -> tuple[int, int]:
    total_now = total_then = 0
    for want in data[kind]:
        got = run(want)
        total_now, total_then = total_now + got.nodes, total_then + want["nodes"]
        label = f"{kind} {want['bits']} d{want['depth']} c{want['cutoff']:g}"
        print(_row(label, want, got.nodes, got.table_hits, _hex(got.values) == want["values"], got.best == want["best"]))
    return total_now, total_then


def thinking(data: dict, kind: str, player) -> tuple[int, int]:
    total_now = total_then = 0
    for want in data[kind]:
        thought = player.think(from_bitboard(int(want["bits"], 16)))
        total_now, total_then = total_now + thought.nodes, total_then + want["nodes"]
        values = {d.value: float(v).hex() for d, v in thought.values.items()}
        print(_row(f"{kind} {want['bits']} depth {thought.depth}", want, thought.nodes, None,
                   values == want["values"], thought.direction.value == want["direction"]))
    return total_now, total_then


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--td", action="store_true", help="also the TD search (trains the small recorded net)")
    args = parser.parse_args()
    data = json.loads(DATA.read_text())
    totals = [searches(data, "heuristic", lambda w: search_bits(
        int(w["bits"], 16), w["depth"], SearchTables(table_bits=16), p_four=w["p_four"], cutoff=w["cutoff"],
        node_limit=w["limit"]))]
    totals.append(thinking(data, "heuristic_think", ai.Expectimax(nodes_per_move=20_000)))
    if args.td:
        net = NTupleNetwork(CLASSROOM_TUPLES)
        net.train(data["td_net"]["games"], rng=data["td_net"]["seed"])
        totals.append(searches(data, "td", lambda w: TDExpectimax(
            net, depth=w["depth"], cutoff=w["cutoff"], p_four=w["p_four"], table_bits=16).search(
            int(w["bits"], 16), w["depth"], w["limit"])))
        totals.append(thinking(data, "td_think", TDExpectimax(net, nodes_per_move=20_000)))
    now, then = sum(t[0] for t in totals), sum(t[1] for t in totals)
    print(f"\nnodes in all: {now} now, {then} recorded ({100 * (now - then) / then:+.1f}%)")


if __name__ == "__main__":
    main()
