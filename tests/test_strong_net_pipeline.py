"""benchmarks/strong_net_pipeline.py: the strong player's whole recipe as one resumable command, run small."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "strong_net_pipeline.py"


def _script():
    spec = importlib.util.spec_from_file_location("strong_net_pipeline", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["strong_net_pipeline"] = module
    spec.loader.exec_module(module)
    return module


pipeline = _script()


def small_args(folder: Path) -> list[str]:
    """The recipe at toy size: the classroom net, 300 games with a restart at 200, 3 seeds over 2 processes."""
    return ["--full", str(folder / "full.npz"), "--net", "classroom", "--games", "300", "--block", "100",
            "--restart-at", "200", "--expect", "none", "--out", str(folder / "compact.npz"), "--positions", "40",
            "--results", str(folder), "--seeds", "1000:1003", "--jobs", "2", "--depth", "1", "--deep", "2",
            "--max-moves", "30", "--readme", "none"]


def run_pipeline(args: list[str]) -> str:
    done = subprocess.run([sys.executable, str(SCRIPT), *args], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout


def seeds_in(path: Path) -> list[int]:
    return sorted(json.loads(line)["seed"] for line in path.read_text().splitlines())


@pytest.mark.parametrize("seeds, jobs, ranges", [
    ("1000:1100", 2, ["1000:1050", "1050:1100"]),
    ("1000:1101", 2, ["1000:1050", "1050:1101"]),
    ("5:8", 1, ["5:8"]),
    ("1000:1003", 4, ["1000:1001", "1001:1002", "1002:1003"]),
])
def test_seed_ranges_cover_every_seed_once(seeds, jobs, ranges):
    assert pipeline.seed_ranges(seeds, jobs) == ranges
    first, end = map(int, seeds.split(":"))
    covered = [s for r in ranges for s in range(*map(int, r.split(":")))]
    assert covered == list(range(first, end))


@pytest.mark.parametrize("seeds, jobs", [("1000", 2), ("a:b", 2), ("1100:1000", 2), ("5:5", 1), ("1:9", 0)])
def test_seed_ranges_refuse_what_cannot_be_split(seeds, jobs):
    with pytest.raises(ValueError, match="--seeds"):
        pipeline.seed_ranges(seeds, jobs)


def test_the_whole_recipe_runs_small_and_a_second_run_goes_on_where_it_was(tmp_path):
    out = run_pipeline(small_args(tmp_path))
    summary = json.loads((tmp_path / "full.json").read_text())
    assert summary["games"] == 300 and summary["restarts"] == [200]
    assert (tmp_path / "compact.npz").exists()
    records = {name: tmp_path / f"bench_2048_strong_{name}.jsonl" for name in ("full-depth1", "compact-depth1",
                                                                                "compact-depth2")}
    for path in records.values():
        assert seeds_in(path) == [1000, 1001, 1002]  # both processes' seeds, each once
    assert "--seeds 1000:1001 --out" in out and "--seeds 1001:1003 --out" in out  # split over two processes
    depth1 = json.loads((tmp_path / "bench_2048_strong_depth1.json").read_text())
    assert set(depth1["players"]) == {"full-depth1", "compact-depth1"} and "paired" in depth1
    assert set(json.loads((tmp_path / "bench_2048_strong_depth2.json").read_text())["players"]) == {"compact-depth2"}

    before = {path: path.read_bytes() for path in records.values()}
    stamp = (tmp_path / "compact.npz").stat().st_mtime_ns
    again = run_pipeline(small_args(tmp_path))
    assert "300 of 300 games" in again and "train_2048_td.py" not in again
    assert "up to date" in again and "make_strong_net.py" not in again
    assert (tmp_path / "compact.npz").stat().st_mtime_ns == stamp
    assert {path: path.read_bytes() for path in records.values()} == before  # no game played twice

    more = run_pipeline([*small_args(tmp_path), "--games", "400", "--dry-run"])  # train on: the README's command
    assert "300 of 400 games" in more and "--games 400" in more and "--resume" in more
    assert "compact.npz: to make" in more and "make_strong_net.py" in more


def test_games_of_another_net_are_moved_aside_not_mixed(tmp_path):
    jsonl = tmp_path / "bench_2048_strong_compact-depth3.jsonl"
    assert pipeline.set_aside_other_nets(jsonl, "ab" * 32) is None  # nothing there yet
    jsonl.write_text(json.dumps({"seed": 1000, "net_sha256": "ab" * 32}) + "\n")
    assert pipeline.set_aside_other_nets(jsonl, "ab" * 32) is None and jsonl.exists()  # the same net: kept
    moved = pipeline.set_aside_other_nets(jsonl, "cd" * 32)
    assert moved == tmp_path / "bench_2048_strong_compact-depth3.jsonl.abababab"
    assert not jsonl.exists() and json.loads(moved.read_text())["seed"] == 1000


def test_the_dry_run_prints_the_91_percent_recipe_and_runs_nothing(tmp_path):
    full = tmp_path / "rebuild.npz"
    out = run_pipeline(["--dry-run", "--full", str(full)])
    assert not full.exists() and not full.with_suffix(".json").exists()
    train = next(line for line in out.splitlines() if "train_2048_td.py" in line)
    for part in ("--net wu-yeh", "--method tc", "--games 643000", "--resume", "--restart-at 348000",
                 "--expect " + str(ROOT / "benchmarks" / "results" / "td_wu-yeh_tc-long.json")):
        assert part in train
    assert "--bits 14 --prune small --prune-max 80" in out and "tilelab/data/ntuple-strong.npz" in out
    for depth, kind in ((3, "full"), (3, "compact"), (4, "compact")):
        assert f"measure the {kind} net at depth {depth}" in out
        assert f"--depth {depth} --seeds 1000:1050" in out and f"--depth {depth} --seeds 1050:1100" in out
    assert "0 of 643,000 games" in out and "bench_2048_strong.py --readme" in out  # the shipped file's row


def test_make_and_the_readme_name_the_one_command():
    makefile = (ROOT / "Makefile").read_text()
    assert "strong-net: $(STAMP)\n\t$(PY) benchmarks/strong_net_pipeline.py $(STRONG_ARGS)" in makefile
    readme = (ROOT / "benchmarks" / "README.md").read_text()
    assert "make strong-net" in readme and "STRONG_ARGS=--dry-run" in readme


def test_the_readme_states_the_saved_runs_training_time():
    hours = json.loads((ROOT / "benchmarks" / "results" / "td_wu-yeh_tc-long.json").read_text())["training_seconds"] / 3600
    assert f"The saved 91% run trained for {hours:.1f} hours on one core" in (ROOT / "benchmarks" / "README.md").read_text()


def test_the_rebuild_hint_in_error_messages_is_the_pipelines_recipe(tmp_path):
    """The dry run as on a fresh clone (no full net yet, wherever this test runs), then the default --full path."""
    from tilelab.game2048.learning.ntuple_compact import STRONG_BUILD

    full = tmp_path / "td_wu-yeh_tc-rebuild.npz"
    out = run_pipeline(["--dry-run", "--full", str(full)]).replace(str(tmp_path), "benchmarks/results")
    out = out.replace(str(ROOT) + "/", "")
    assert pipeline.FULL == ROOT / "benchmarks" / "results" / "td_wu-yeh_tc-rebuild.npz"  # the default --full
    assert STRONG_BUILD.startswith("make strong-net (benchmarks/strong_net_pipeline.py")
    for part in ("--games 643000", "--restart-at 348000", "--out benchmarks/results/td_wu-yeh_tc-rebuild.npz",
                 "--out tilelab/data/ntuple-strong.npz --bits 14 --prune small --prune-max 80"):
        assert part in STRONG_BUILD and part in out, part


def test_the_readme_states_the_rebuilds_training_time():
    rebuild = ROOT / "benchmarks" / "results" / "td_wu-yeh_tc-rebuild.json"
    hours = json.loads(rebuild.read_text())["training_seconds"] / 3600
    readme = (ROOT / "benchmarks" / "README.md").read_text().replace("\n", " ")
    assert "the rebuild, with the faster trainer (the table's training row) on this VM" in readme
    assert f"in {hours:.1f} hours. The 300 games at depths 3 and 4" in readme
