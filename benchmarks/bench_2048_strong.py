"""Benchmark: the strong learned 2048 player on N seeded games, resumable per game, split across cores.

One player per run: a net file (full float32, or the compact shipped one) searched at a fixed ``--depth``
or a wall-clock ``--ms`` budget. Every finished game is appended at once as one JSON line to ``--out``;
a stopped run started again skips the seeds already there. ``--seeds A:B`` plays seeds A..B-1 only,
so two processes (one per core) share one 100-game run; both may append to the same file.
``--summary`` reads one or more such files: the share of games reaching 8192 / 16384 / 32768 with 95%
Wilson intervals, median score, ms per move; for two players, their paired difference on the seeds
both played (games only one of them won, an exact McNemar p-value and a 95% interval).

    # the full net and the shipped compact one at depth 3, seeds 1000..1099, two processes each:
    python benchmarks/bench_2048_strong.py --net benchmarks/results/td_wu-yeh_tc-long.npz --depth 3 --seeds 1000:1050 &
    python benchmarks/bench_2048_strong.py --net benchmarks/results/td_wu-yeh_tc-long.npz --depth 3 --seeds 1050:1100
    python benchmarks/bench_2048_strong.py --depth 3 --seeds 1000:1050 &   # default --net: the shipped compact net
    python benchmarks/bench_2048_strong.py --depth 3 --seeds 1050:1100
    python benchmarks/bench_2048_strong.py --summary benchmarks/results/bench_2048_strong_full-depth3.jsonl \\
        benchmarks/results/bench_2048_strong_compact-depth3.jsonl
    python benchmarks/bench_2048_strong.py --readme benchmarks/README.md   # its table row, from the saved summaries

Seeds 1000.. are those of ``benchmarks/bench_2048_ai.py`` and ``bench_2048_learning.py`` (same spawns).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from tilelab.files import read_npz
from tilelab.game2048 import play_game
from tilelab.game2048.learning.ntuple_compact import COMPACT_FORMAT, STRONG_NET, load_network
from tilelab.game2048.learning.ntuple_players import TDExpectimax
from tilelab.match3.stats import wilson_interval

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
SEED_BASE = 1000
TILES = (8192, 16384, 32768)


# ------------------------------------------------------------------------------ the records file
def read_records(path: Path) -> list[dict[str, Any]]:
    """The game records of a JSONL file (a line cut short by a stopped run is skipped, with a note)."""
    if not path.exists():
        return []
    records, broken = [], 0
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            broken += 1
            continue
        if isinstance(record, dict) and "seed" in record and "setting" in record:
            if "moves" in record and "moves_played" not in record:  # files written before 0.3 named the count "moves"
                record["moves_played"] = record.pop("moves")
            records.append(record)
        else:
            broken += 1
    if broken:
        print(f"note: {path} has {broken} unreadable line(s) (a run stopped mid-write?); skipped", file=sys.stderr)
    return records


def append_record(path: Path, record: dict[str, Any]) -> None:
    """Append one record as one line in one write (two processes may append to the same file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    line = (json.dumps(record) + "\n").encode()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        if os.fstat(fd).st_size and _last_byte(path) != b"\n":
            line = b"\n" + line  # a line cut short before: end it, so this record stays readable
        os.write(fd, line)
        os.fsync(fd)
    finally:
        os.close(fd)


def _last_byte(path: Path) -> bytes:
    with open(path, "rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1)


def parse_seeds(text: str | None, games: int) -> range:
    """``"A:B"`` -> seeds A..B-1; None -> the ``games`` seeds from 1000."""
    if text is None:
        return range(SEED_BASE, SEED_BASE + games)
    try:
        first, last = (int(part) for part in text.split(":"))
    except ValueError:
        raise SystemExit(f"--seeds must be A:B (seeds A to B-1), e.g. 1000:1050; got {text!r}") from None
    if not 0 <= first < last:
        raise SystemExit(f"--seeds A:B needs 0 <= A < B, got {text!r}")
    return range(first, last)


# ------------------------------------------------------------------------------ playing
def net_kind(path: Path) -> str:
    """``"compact"`` or ``"full"``, from the file's header."""
    header, _ = read_npz(path, "n-tuple network", lambda header: {})
    return "compact" if header.get("format") == COMPACT_FORMAT else "full"


def net_label(path: Path) -> str:
    """How a record names its net: the path inside the repository, or only the file name outside it (a
    machine's own folders mean nothing in a clone; the SHA-256 beside it says which weights played)."""
    path = Path(path).resolve()
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name


def weights_sha256(net: Any) -> str:
    """The SHA-256 of a net's float32 weights, as loaded: what a record's ``net_sha256`` says played."""
    return hashlib.sha256(net.weights.data).hexdigest()


def setting_name(kind: str, depth: int | None, ms: float | None) -> str:
    return f"{kind}-{ms:g}ms" if ms is not None else f"{kind}-depth{depth}"


def play_one(player: TDExpectimax, seed: int, spec: dict[str, Any], max_moves: int | None) -> dict[str, Any]:
    """One seeded game as a record: the spec, then score, max tile, moves and the time each move took."""
    tick = time.perf_counter()
    record = play_game(player, rng=seed, max_moves=max_moves)
    ms = 1e3 * np.asarray(record.seconds) if record.seconds else np.zeros(1)
    return {**spec, "seed": seed, "score": record.score, "max_tile": record.max_tile,
            "moves_played": record.moves_played,
            "think_seconds": float(np.sum(record.seconds)), "ms_per_move": float(ms.mean()),
            "ms_p50": float(np.percentile(ms, 50)), "ms_p95": float(np.percentile(ms, 95)), "ms_max": float(ms.max()),
            "seconds": time.perf_counter() - tick, "load_average": os.getloadavg()[0],
            "finished": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")}


SPEC_KEYS = ("setting", "net_sha256", "depth", "ms", "max_moves")


def run(args: argparse.Namespace) -> int:
    if (args.depth is None) == (args.ms is None):
        raise SystemExit("give exactly one of --depth D and --ms T")
    kind = net_kind(args.net)
    setting = setting_name(kind, args.depth, args.ms)
    out = args.out or RESULTS / f"bench_2048_strong_{setting}.jsonl"
    tick = time.perf_counter()
    net = load_network(args.net)
    net.e_sum = net.a_sum = None  # a full training file's accumulators: not needed to play
    loaded = time.perf_counter() - tick
    spec = {"setting": setting, "net": net_label(args.net), "net_sha256": weights_sha256(net),
            "trained_games": net.training["games"], "kind": kind, "depth": args.depth, "ms": args.ms,
            "max_moves": args.max_moves}
    old = read_records(out)
    for record in old:
        if any(record.get(key) != spec[key] for key in SPEC_KEYS):
            raise SystemExit(f"{out} holds games of another player ({', '.join(f'{k}={record.get(k)!r}' for k in SPEC_KEYS)}); "
                             "give another --out")
    done = {record["seed"] for record in old}
    seeds = [seed for seed in parse_seeds(args.seeds, args.games) if seed not in done]
    print(f"{setting}: {net} loaded in {loaded:.1f} s; {len(seeds)} games to play -> {out}", flush=True)
    for seed in seeds:
        player = TDExpectimax(net, ms_per_move=args.ms) if args.ms is not None else TDExpectimax(net, depth=args.depth)
        record = play_one(player, seed, spec, args.max_moves)
        append_record(out, record)
        print(f"  seed {seed}: score {record['score']:>7} max {record['max_tile']:>5} moves {record['moves_played']:>5} "
              f"{record['ms_per_move']:.2f} ms/move (p95 {record['ms_p95']:.2f}, max {record['ms_max']:.1f})", flush=True)
    return 0


# ------------------------------------------------------------------------------ summary
def by_setting(paths: Iterable[Path]) -> dict[str, dict[int, dict[str, Any]]]:
    """Records grouped by player, one per seed: named by setting, or file:setting when files share a setting."""
    found = [(path, record) for path in paths for record in read_records(path)]
    players = {(path, record["setting"]) for path, record in found}
    clash = len({setting for _, setting in players}) < len(players)
    groups: dict[str, dict[int, dict[str, Any]]] = {}
    for path, record in found:
        name = f"{path.stem}:{record['setting']}" if clash else record["setting"]
        games = groups.setdefault(name, {})
        if record["seed"] in games:
            print(f"note: seed {record['seed']} twice in {name}; the first is kept", file=sys.stderr)
            continue
        games[record["seed"]] = record
    return groups


def summarise(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Reach rates with 95% Wilson intervals, scores and time per move of one player's games."""
    n = len(games)
    moves_played = sum(g["moves_played"] for g in games)
    out: dict[str, Any] = {"games": n, "median_score": statistics.median(g["score"] for g in games),
                           "mean_score": statistics.fmean(g["score"] for g in games),
                           "ms_per_move": 1e3 * sum(g["think_seconds"] for g in games) / max(moves_played, 1),
                           "ms_p95_median": statistics.median(g["ms_p95"] for g in games),
                           "ms_max": max(g["ms_max"] for g in games), "moves_played": moves_played}
    for tile in TILES:
        k = sum(g["max_tile"] >= tile for g in games)
        lo, hi = wilson_interval(k, n)
        out[f"reach_{tile}"] = {"count": k, "rate": k / n, "wilson95": [lo, hi]}
    return out


def mcnemar_p(b: int, c: int) -> float:
    """Exact two-sided McNemar p-value: of ``b + c`` games only one player won, ``b`` went to the first."""
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(b, c) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def paired(a: dict[int, dict[str, Any]], b: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """Two players on the seeds both played: per tile, rate difference, discordant games, p-value, 95% interval."""
    seeds = sorted(set(a) & set(b))
    n = len(seeds)
    out: dict[str, Any] = {"games": n}
    if not n:
        return out
    diffs = [a[s]["score"] - b[s]["score"] for s in seeds]
    out["mean_score_difference"] = statistics.fmean(diffs)
    for tile in TILES:
        only_a = sum(a[s]["max_tile"] >= tile > b[s]["max_tile"] for s in seeds)
        only_b = sum(b[s]["max_tile"] >= tile > a[s]["max_tile"] for s in seeds)
        diff = (only_a - only_b) / n
        half = 1.96 * math.sqrt(max(only_a + only_b - (only_a - only_b) ** 2 / n, 0.0)) / n
        out[f"reach_{tile}"] = {"difference": diff, "only_first": only_a, "only_second": only_b,
                                "mcnemar_p": mcnemar_p(only_a, only_b), "interval95": [diff - half, diff + half]}
    return out


def summary(paths: list[Path], save: Path | None) -> int:
    groups = by_setting(paths)
    if not groups:
        raise SystemExit(f"no game records in {', '.join(map(str, paths))}")
    table = {name: summarise(list(games.values())) for name, games in groups.items()}
    width = max(len(name) for name in table)
    print(f"{'player':<{width}} {'games':>5} {'median':>8} " + " ".join(f"{t:>19}" for t in TILES)
          + "  ms/move  max ms")
    for name, s in table.items():
        cells = " ".join(f"{100 * s[f'reach_{t}']['rate']:5.1f}% [{100 * s[f'reach_{t}']['wilson95'][0]:4.1f},"
                         f"{100 * s[f'reach_{t}']['wilson95'][1]:5.1f}]" for t in TILES)
        print(f"{name:<{width}} {s['games']:>5} {s['median_score']:>8.0f} {cells} {s['ms_per_move']:8.2f} "
              f"{s['ms_max']:7.1f}")
    result: dict[str, Any] = {"players": table}
    if len(groups) == 2:
        (first, a), (second, b) = groups.items()
        pair = paired(a, b)
        result["paired"] = {"first": first, "second": second, **pair}
        print(f"paired on the {pair['games']} seeds both played: {first} minus {second}")
        for tile in TILES if pair["games"] else ():
            p = pair[f"reach_{tile}"]
            print(f"  {tile:>5}: {100 * p['difference']:+5.1f} points [{100 * p['interval95'][0]:+5.1f}, "
                  f"{100 * p['interval95'][1]:+5.1f}]  only first {p['only_first']}, only second {p['only_second']}, "
                  f"McNemar p = {p['mcnemar_p']:.3f}")
        if pair["games"]:
            print(f"  mean score difference {pair['mean_score_difference']:+,.0f}")
    if save is not None:
        save.write_text(json.dumps(result, indent=1))
        print(f"saved {save}")
    return 0


# ------------------------------------------------------------------------------ the README's row
README_ROW_START = "| the strong learned player shipped in every clone"
README_ROW_AFTER = "| the TC net trained on to 643,000 games"


def _rate(s: dict[str, Any], tile: int) -> str:
    r = s[f"reach_{tile}"]
    if s["games"] < 100:
        return f"{tile} in {r['count']} of {s['games']} [{100 * r['wilson95'][0]:.0f}%, {100 * r['wilson95'][1]:.0f}%]"
    return f"{tile} in {100 * r['rate']:.0f}% [{100 * r['wilson95'][0]:.0f}, {100 * r['wilson95'][1]:.0f}]"


def readme_row(results: Path = RESULTS, net: Path = STRONG_NET) -> str:
    """The README's table row for the shipped player, from the saved depth-3 and depth-4 summaries, the
    records' training games and the shipped file's size (``--readme`` writes it; a test checks the README has it)."""
    d3 = json.loads((results / "bench_2048_strong_depth3.json").read_text())
    d4 = json.loads((results / "bench_2048_strong_depth4.json").read_text())
    trained = {r["trained_games"] for r in read_records(results / "bench_2048_strong_compact-depth3.jsonl")}
    if len(trained) != 1:
        raise ValueError(f"the compact depth-3 records come from nets trained on {sorted(trained)} games: "
                         "play one net per file (fresh JSONL files for a new net)")
    full, comp, four = d3["players"]["full-depth3"], d3["players"]["compact-depth3"], d4["players"]["compact-depth4"]
    when = max(r["finished"] for s in ("full-depth3", "compact-depth3", "compact-depth4")
               for r in read_records(results / f"bench_2048_strong_{s}.jsonl"))[:10]
    p = d3["paired"]["reach_16384"]
    return (f"{README_ROW_START} (`strong_player()`, `Game2048TDWidget.strong()`: the TC 4 × 6-tuple net at "
            f"{trained.pop():,} training games in a {net.stat().st_size / 1e6:.1f} MB compact file, "
            f"`tilelab/data/ntuple-strong.npz`), seeds from 1000 (`bench_2048_strong.py`) | depth 3, "
            f"{comp['games']} games, {comp['ms_per_move']:.1f} ms/move: {_rate(comp, 8192)}, {_rate(comp, 16384)}, "
            f"{_rate(comp, 32768)}; median score {comp['median_score']:,.0f}. The full float32 net on the same seeds: "
            f"{_rate(full, 8192)}, {_rate(full, 16384)}; compact minus full at 16384 {-100 * p['difference']:+.0f} "
            f"points [{-100 * p['interval95'][1]:+.0f}, {-100 * p['interval95'][0]:+.0f}] on the same seeds "
            f"({p['only_second']} games only the compact net took there, {p['only_first']} only the full one; "
            f"McNemar p = {p['mcnemar_p']:.2f}: noise). Depth 4, {four['games']} games"
            f"{' (the time allowed)' if four['games'] < 100 else ''}, {four['ms_per_move']:.1f} ms/move on a busy "
            f"machine: {_rate(four, 8192)}, {_rate(four, 16384)}, {_rate(four, 32768)} | "
            f"{when}, `bench_2048_strong.py` (`results/bench_2048_strong_depth3.json`, `_depth4.json`) |")


def write_readme_row(readme: Path) -> int:
    """Put :func:`readme_row` in ``readme`` (replacing the old row, below the 643,000-game net's row)."""
    lines = [line for line in readme.read_text(encoding="utf-8").split("\n") if not line.startswith(README_ROW_START)]
    after = next((k for k, line in enumerate(lines) if line.startswith(README_ROW_AFTER)), None)
    if after is None:
        raise ValueError(f"{readme} has no row starting {README_ROW_AFTER!r} to put the strong player's row after")
    row = readme_row()
    lines.insert(after + 1, row)
    readme.write_text("\n".join(lines), encoding="utf-8")
    print(row)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--net", type=Path, default=STRONG_NET, help="a full or compact net file")
    parser.add_argument("--depth", type=int, default=None, help="fixed search depth (our moves)")
    parser.add_argument("--ms", type=float, default=None, help="wall-clock budget per move instead of a depth")
    parser.add_argument("--games", type=int, default=100, help="seeds 1000 .. 1000+games-1 (unless --seeds)")
    parser.add_argument("--seeds", default=None, help="A:B plays seeds A..B-1 (split a run across processes)")
    parser.add_argument("--out", type=Path, default=None,
                        help="JSONL of game records (default benchmarks/results/bench_2048_strong_<setting>.jsonl)")
    parser.add_argument("--max-moves", type=int, default=None, help="stop each game after this many moves (tests)")
    parser.add_argument("--summary", type=Path, nargs="+", default=None, help="summarise these JSONL files instead")
    parser.add_argument("--save-summary", type=Path, default=None, help="with --summary: also write it as JSON")
    parser.add_argument("--readme", type=Path, default=None,
                        help="rewrite this README's strong-player row from the saved summaries, then stop")
    args = parser.parse_args(argv)
    if args.readme:
        return write_readme_row(args.readme)
    if args.summary:
        return summary(args.summary, args.save_summary)
    if args.depth is None and args.ms is None:
        args.depth = 3
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
