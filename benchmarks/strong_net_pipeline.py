"""The strong 2048 player from nothing, in one resumable command: train, make compact, measure, write its row in
benchmarks/README.md.

    python benchmarks/strong_net_pipeline.py             # the 91% net's recipe; hours (benchmarks/README.md)
    python benchmarks/strong_net_pipeline.py --dry-run   # only print the steps it would run now
    make strong-net                                      # the same, after the usual set-up

Steps, each skipped when its result is already there, so a stopped run started again goes on where it was:

1. **train** ``--full`` (``train_2048_td.py --resume``) to ``--games``, restarting the learning rates at
   ``--restart-at`` and comparing each block with ``--expect``; skipped once its ``.json`` says it is there;
2. **compact** it into ``--out`` (``make_strong_net.py --bits 14 --prune small --prune-max 80``); skipped while
   ``--out`` is newer than ``--full`` and no training was due;
3. **measure** on the seeds ``--seeds``, split over ``--jobs`` processes (``bench_2048_strong.py``): the full net
   and the compact file at ``--depth``, the compact file at ``--deep``. Result files of another net are moved
   aside first (to ``NAME.jsonl.<its sha-256, 8 digits>``), since one file holds the games of one net;
4. **summarise** both depths into ``bench_2048_strong_depth<d>.json`` and, with ``--readme``, rewrite the
   table row of benchmarks/README.md from them (only for the default ``--results`` and ``--out``, which that row describes).
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Sequence

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"
RESULTS = BENCH / "results"
FULL = RESULTS / "td_wu-yeh_tc-rebuild.npz"  # the full net with its TC sums (gitignored)
SHIPPED = ROOT / "tilelab" / "data" / "ntuple-strong.npz"
Command = list[str]


def seed_ranges(seeds: str, jobs: int) -> list[str]:
    """``A:B`` cut into at most ``jobs`` contiguous ``--seeds`` ranges of nearly equal size.

    >>> seed_ranges("1000:1100", 2)
    ['1000:1050', '1050:1100']
    >>> seed_ranges("1000:1003", 4)
    ['1000:1001', '1001:1002', '1002:1003']
    """
    try:
        first, end = (int(part) for part in seeds.split(":"))
    except ValueError:
        raise ValueError(f"--seeds {seeds!r}: give A:B, the seeds A..B-1 (for example 1000:1100)") from None
    if end <= first or jobs < 1:
        raise ValueError(f"--seeds {seeds!r} with --jobs {jobs}: need A < B and at least one job")
    jobs = min(jobs, end - first)
    cuts = [first + (end - first) * k // jobs for k in range(jobs + 1)]
    return [f"{a}:{b}" for a, b in zip(cuts, cuts[1:])]


def trained_games(full: Path) -> int:
    """How many games the training run behind ``full`` has finished (0 before it starts), from its ``.json``."""
    summary = full.with_suffix(".json")
    if not full.exists() or not summary.exists():
        return 0
    try:
        return int(json.loads(summary.read_text())["games"])
    except (ValueError, KeyError, TypeError):
        return 0  # a damaged summary: let the trainer resume from the net file itself


def net_sha(path: Path) -> str:
    """The SHA-256 the benchmark records for the net in ``path`` (of its weights as loaded)."""
    sys.path.insert(0, str(BENCH))
    try:
        from bench_2048_strong import load_network, weights_sha256
    finally:
        sys.path.pop(0)
    return weights_sha256(load_network(path))


def set_aside_other_nets(jsonl: Path, sha: str) -> Path | None:
    """Move ``jsonl`` to ``jsonl.<sha8>`` when its games were played by a net other than ``sha``; where it went."""
    if not jsonl.exists():
        return None
    shas = set()
    for line in jsonl.read_text(encoding="utf-8").splitlines():
        try:
            shas.add(json.loads(line).get("net_sha256"))
        except ValueError:
            continue  # a half-written last line: the benchmark mends it
    if shas <= {sha}:
        return None
    old = sorted(s for s in shas if s and s != sha)
    target = jsonl.with_name(f"{jsonl.name}.{(old[0] if old else 'unknown')[:8]}")
    jsonl.replace(target)
    return target


def run(commands: Sequence[Command], dry_run: bool) -> None:
    """Run ``commands`` side by side (one process each) and wait; stop everything if one fails."""
    for command in commands:
        print("  $ " + shlex.join(command) + (" &" if len(commands) > 1 else ""), flush=True)
    if dry_run:
        return
    processes = [subprocess.Popen(command, cwd=ROOT) for command in commands]
    codes = [process.wait() for process in processes]
    failed = [shlex.join(c) for c, code in zip(commands, codes) if code != 0]
    if failed:
        raise SystemExit("stopped: this step failed (its output is above); fix it and run the pipeline again, "
                         "it goes on from here:\n  " + "\n  ".join(failed))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", type=Path, default=FULL,
                        help="the full net with its TC sums (805 MB at 643,000 games; gitignored)")
    parser.add_argument("--net", default="wu-yeh", help="train_2048_td.py --net")
    parser.add_argument("--games", type=int, default=643_000)
    parser.add_argument("--restart-at", type=int, action="append", default=None, metavar="GAMES",
                        help="restart the learning rates here (default 348000, as the 91%% run; 0: never)")
    parser.add_argument("--expect", type=Path, default=RESULTS / "td_wu-yeh_tc-long.json",
                        help="a saved run's curve to compare each block with ('none': do not compare)")
    parser.add_argument("--block", type=int, default=1000, help="train_2048_td.py --block")
    parser.add_argument("--out", type=Path, default=SHIPPED, help="the compact file (default: the shipped one)")
    parser.add_argument("--bits", type=int, default=14)
    parser.add_argument("--prune-max", type=float, default=80.0)
    parser.add_argument("--positions", type=int, default=2000, help="make_strong_net.py --positions")
    parser.add_argument("--results", type=Path, default=RESULTS, help="where the game records and summaries go")
    parser.add_argument("--seeds", default="1000:1100")
    parser.add_argument("--jobs", type=int, default=2, help="processes per measurement (one per core)")
    parser.add_argument("--depth", type=int, default=3, help="the depth of the full-against-compact comparison")
    parser.add_argument("--deep", type=int, default=4, help="the compact file also at this depth (0: not)")
    parser.add_argument("--max-moves", type=int, default=None, help="stop each measured game here (tests)")
    parser.add_argument("--readme", type=Path, default=ROOT / "benchmarks" / "README.md",
                        help="'none': leave the README alone")
    parser.add_argument("--dry-run", action="store_true", help="print the steps still to run; run nothing")
    args = parser.parse_args(argv)
    restarts = [at for at in (args.restart_at if args.restart_at is not None else [348_000]) if at > 0]
    try:
        ranges = seed_ranges(args.seeds, args.jobs)
    except ValueError as exc:
        parser.error(str(exc))
    py = sys.executable
    dry = args.dry_run

    done = trained_games(args.full)
    print(f"1. train {args.full}: {done:,} of {args.games:,} games", flush=True)
    if done < args.games:
        train = [py, str(BENCH / "train_2048_td.py"), "--net", args.net, "--method", "tc", "--games", str(args.games),
                 "--block", str(args.block), "--resume", "--out", str(args.full)]
        train += [part for at in restarts for part in ("--restart-at", str(at))]
        if str(args.expect) != "none":
            train += ["--expect", str(args.expect)]
        run([train], dry)

    fresh = (done >= args.games and args.out.exists() and args.full.exists()  # more training: a new compact file
             and args.out.stat().st_mtime > args.full.stat().st_mtime)
    print(f"2. compact {args.out}: {'up to date' if fresh else 'to make'}", flush=True)
    if not fresh:
        run([[py, str(BENCH / "make_strong_net.py"), "--full", str(args.full), "--out", str(args.out),
              "--bits", str(args.bits), "--prune", "small", "--prune-max", f"{args.prune_max:g}",
              "--positions", str(args.positions)]], dry)

    plays = [("full", args.full, args.depth), ("compact", args.out, args.depth)]
    plays += [("compact", args.out, args.deep)] if args.deep > 0 else []
    files: dict[tuple[str, int], Path] = {}
    for kind, net, depth in plays:
        jsonl = files[kind, depth] = args.results / f"bench_2048_strong_{kind}-depth{depth}.jsonl"
        print(f"3. measure the {kind} net at depth {depth}, seeds {args.seeds}: {jsonl}", flush=True)
        if not dry:
            moved = set_aside_other_nets(jsonl, net_sha(net))
            if moved:
                print(f"  games of another net moved aside to {moved}", flush=True)
        extra = ["--max-moves", str(args.max_moves)] if args.max_moves else []
        run([[py, str(BENCH / "bench_2048_strong.py"), "--net", str(net), "--depth", str(depth), "--seeds", seeds,
              "--out", str(jsonl), *extra] for seeds in ranges], dry)

    print("4. summarise", flush=True)
    summaries = [(args.depth, [files["full", args.depth], files["compact", args.depth]])]
    summaries += [(args.deep, [files["compact", args.deep]])] if args.deep > 0 else []
    for depth, jsonls in summaries:
        run([[py, str(BENCH / "bench_2048_strong.py"), "--summary", *map(str, jsonls),
              "--save-summary", str(args.results / f"bench_2048_strong_depth{depth}.json")]], dry)
    shipped = args.results.resolve() == RESULTS.resolve() and args.out.resolve() == SHIPPED.resolve()
    if str(args.readme) != "none" and shipped and (args.depth, args.deep) == (3, 4):
        run([[py, str(BENCH / "bench_2048_strong.py"), "--readme", str(args.readme)]], dry)
    elif str(args.readme) != "none":
        print("  (README row left alone: it describes the shipped file measured at depths 3 and 4)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
