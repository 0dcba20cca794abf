"""``python -m tilelab.warm``: the registry of caches, and a real build into a temporary cache dir."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tilelab import warm


@pytest.fixture
def scratch_task():
    names = []

    def add(name, build, slow=False):
        warm.warm_task(name, f"test task {name}", slow=slow)(build)
        names.append(name)

    yield add
    for name in names:
        warm.TASKS.pop(name, None)


def test_builtin_tasks_are_registered() -> None:
    names = [t.name for t in warm.list_tasks()]
    assert {"pdb-3x3", "pdb-4x4", "numba-sliding", "numba-2048", "numba-match3"} <= set(names)
    assert warm.TASKS["pdb-4x4"].slow and not warm.TASKS["pdb-3x3"].slow


def test_a_failing_task_is_reported_and_the_others_run(scratch_task) -> None:
    scratch_task("t-boom", lambda: 1 / 0)
    scratch_task("t-ok", lambda: "built nothing")
    lines: list[str] = []
    results = warm.warm(["t-boom", "t-ok"], out=lines.append)
    assert [(r.name, r.ok) for r in results] == [("t-boom", False), ("t-ok", True)]
    assert "FAILED: ZeroDivisionError" in lines[0] and "built nothing" in lines[1]
    assert all(r.peak_rss_mib > 0 and r.seconds >= 0 for r in results)


def test_quick_skips_slow_tasks(scratch_task, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(warm, "TASKS", {})
    scratch_task("t-fast", lambda: "fast")
    scratch_task("t-slow", lambda: "slow", slow=True)
    assert [r.name for r in warm.warm(quick=True, out=None)] == ["t-fast"]
    assert [r.name for r in warm.warm(out=None)] == ["t-fast", "t-slow"]


def test_two_tasks_with_one_name_are_refused(scratch_task) -> None:
    scratch_task("t-dup", lambda: "a")
    with pytest.raises(ValueError, match="two warm tasks"):
        warm.warm_task("t-dup", "again")(lambda: "b")


def test_unknown_task_name() -> None:
    with pytest.raises(ValueError, match="unknown warm task"):
        warm.warm(["no-such-cache"], out=None)
    assert warm.main(["no-such-cache"]) == 2


def test_command_line_sees_every_registered_task() -> None:
    """``python -m tilelab.warm`` runs as __main__: tasks registered by other modules must still show."""
    listed = subprocess.run([sys.executable, "-m", "tilelab.warm", "--list"], capture_output=True, text=True,
                            timeout=120)
    assert listed.returncode == 0
    names = [line.split()[0] for line in listed.stdout.splitlines()]
    assert names == [t.name for t in warm.list_tasks()]
    assert names[-1] == "pdb-4x4" or warm.TASKS[names[-1]].slow, "slow tasks run last"


def test_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert warm.main(["--list"]) == 0
    out = capsys.readouterr().out
    assert "pdb-4x4" in out and "(slow)" in out


@pytest.mark.slow
def test_warm_builds_into_the_cache_dirs(tmp_path: Path) -> None:
    """A fresh cache dir is filled (8-puzzle database, match-3 machine code); a second run finds it."""
    env = {**os.environ, "TILELAB_CACHE_DIR": str(tmp_path / "tilelab"), "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    env.pop("TILELAB_NO_JIT", None)
    cmd = [sys.executable, "-m", "tilelab.warm", "pdb-3x3", "numba-match3"]
    first = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert first.returncode == 0, first.stdout + first.stderr
    assert f"tilelab cache dir: {tmp_path / 'tilelab'}" in first.stdout
    assert "built 3x3 pattern database" in first.stdout
    assert list((tmp_path / "tilelab").glob("pdb-3x3-*.npz"))
    assert list((tmp_path / "numba").rglob("*.nbi")), "numba wrote its cache index files"
    assert "peak memory" in first.stdout
    second = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert second.returncode == 0 and "found 3x3 pattern database" in second.stdout
    assert " 0 new numba cache files" in second.stdout
