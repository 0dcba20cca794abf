"""The engine and lesson tests on every supported Python: the oldest and the newest (``make test-pythons``).

``pyproject.toml`` promises Python >= 3.10; :data:`PYTHONS` are the oldest and the newest CPython this
course is tested on. Each runs in its own virtual environment (``.nox/``), with what pip installs for
that Python (numpy 2.2 on 3.10, numpy 2.5 on 3.13, ...): the engines' tests, their doctests, the strict
type check and every lesson's tests. ``make test`` covers everything else on the default Python.

An interpreter is taken from PATH (``python3.10``) when it runs, else from pyenv's versions folder
(``~/.pyenv/versions/3.10.*``, as on this project's machines); none found is a failure when
``TILELAB_REQUIRE_PYTHONS=1`` (CI), else that session is skipped with a message saying what to install.

    python -m nox                  # both Pythons (or: make test-pythons)
    python -m nox -p 3.13          # one
    python -m nox -- -x -k slide   # arguments after -- go to pytest
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
from pathlib import Path

import nox

PYTHONS = ["3.10", "3.13"]  #: the oldest Python pyproject.toml allows, and the newest tested
ROOT = Path(__file__).resolve().parent

#: The engines (2048, sliding, match-3 and what they share, their save files included) and the lessons.
ENGINE_TESTS = ["test_game2048_*.py", "test_sliding_*.py", "test_match3_*.py", "test_game_protocol.py",
                "test_robustness_*.py", "test_types.py", "test_jit*.py"]
LESSON_TESTS = ["test_lessons_*.py"]
NOT_HERE = {"test_game2048_td_widget.py", "test_match3_specials_widget.py"}  # widgets: make test covers them
DOCTEST_MODULES = ["tilelab/game2048", "tilelab/sliding", "tilelab/match3", "tilelab/protocol.py",
                   "tilelab/randomness.py", "tilelab/inputs.py", "tilelab/files.py"]

nox.options.sessions = ["tests"]
nox.options.default_venv_backend = "venv"  # the standard library's: nothing downloaded


def _runs(python: str) -> bool:
    try:
        return subprocess.run([python, "-c", "pass"], capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def find_python(version: str) -> str | None:
    """The folder of a working ``python{version}``: on PATH, else in pyenv's versions folder (newest patch)."""
    found = shutil.which(f"python{version}")
    if found and _runs(found):
        return str(Path(found).parent)
    root = os.environ.get("PYENV_ROOT", str(Path.home() / ".pyenv"))
    candidates = sorted(glob.glob(os.path.join(root, "versions", f"{version}.*", "bin", f"python{version}")),
                        key=lambda p: [int(part) if part.isdigit() else 0 for part in Path(p).parts[-3].split(".")])
    for candidate in reversed(candidates):
        if _runs(candidate):
            return str(Path(candidate).parent)
    return None


# nox looks interpreters up on PATH: put each one found first on it (pyenv's shims answer only for the
# versions selected in the shell, so `python3.10` on PATH may exist and still fail)
for _version in PYTHONS:
    _folder = find_python(_version)
    if _folder and _folder not in os.environ.get("PATH", "").split(os.pathsep)[:1]:
        os.environ["PATH"] = _folder + os.pathsep + os.environ.get("PATH", "")


def test_files() -> list[str]:
    """The engine and lesson test files, in a stable order."""
    names = {Path(p).name for pattern in ENGINE_TESTS + LESSON_TESTS for p in glob.glob(str(ROOT / "tests" / pattern))}
    return [f"tests/{name}" for name in sorted(names - NOT_HERE)]


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    """The engine and lesson tests, doctests and the strict type check on this Python."""
    version = str(session.python)
    if find_python(version) is None:
        message = (f"Python {version} was not found (on PATH as python{version}, or in pyenv's versions folder); "
                   f"install it, e.g. `pyenv install {version}`")
        if os.environ.get("TILELAB_REQUIRE_PYTHONS") == "1":
            session.error(message)
        session.skip(message)
    session.install("--upgrade", "pip")
    session.install("-e", ".[lab,test]")
    session.run("python", "-c", "import sys, numpy; print('Python', sys.version.split()[0], '- numpy', numpy.__version__)")
    jobs = os.environ.get("TEST_JOBS", str(min(os.cpu_count() or 2, 4)))
    session.run("python", "-m", "pytest", *test_files(), *DOCTEST_MODULES, "--doctest-modules",
                "-n", jobs, "--dist", "loadfile", "--durations=10", *session.posargs)
