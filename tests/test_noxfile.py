"""The Python-version runs (noxfile.py, ``make test-pythons``): they cover the promised floor and every engine
and lesson test file, and find this machine's interpreters."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

nox = pytest.importorskip("nox", reason="nox is in the test extra: pip install -e '.[test]'")

import noxfile  # noqa: E402  (the repository root is on sys.path under pytest)

ROOT = Path(__file__).resolve().parent.parent


def test_the_oldest_python_is_the_one_pyproject_promises() -> None:
    floor = re.search(r'requires-python = ">=(\d+\.\d+)"', (ROOT / "pyproject.toml").read_text()).group(1)
    assert noxfile.PYTHONS[0] == floor and len(noxfile.PYTHONS) >= 2
    assert [tuple(map(int, v.split("."))) for v in noxfile.PYTHONS] == sorted(
        tuple(map(int, v.split("."))) for v in noxfile.PYTHONS)


def test_every_engine_and_lesson_test_file_runs_there() -> None:
    chosen = {Path(name).name for name in noxfile.test_files()}
    every = {p.name for p in (ROOT / "tests").glob("test_*.py")}
    engines = {n for n in every if n.startswith(("test_game2048_", "test_sliding_", "test_match3_", "test_robustness_"))}
    lessons = {n for n in every if n.startswith("test_lessons_")}
    assert lessons <= chosen and engines - noxfile.NOT_HERE <= chosen
    assert not chosen & noxfile.NOT_HERE and chosen <= every
    assert {"test_types.py", "test_game_protocol.py"} <= chosen  # the strict type check with that numpy


@pytest.mark.parametrize("version", noxfile.PYTHONS)
def test_an_interpreter_found_runs_and_is_that_version(version: str) -> None:
    import subprocess

    folder = noxfile.find_python(version)
    if folder is None:
        pytest.skip(f"Python {version} is not on this machine (CI requires it: TILELAB_REQUIRE_PYTHONS=1)")
    out = subprocess.run([str(Path(folder) / f"python{version}"), "-c", "import sys; print(sys.version_info[:2])"],
                         capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == str(tuple(map(int, version.split("."))))
