"""The engines type-check: mypy, strict on tilelab.sliding/match3/game2048 and their shared helpers.

The configuration is ``[tool.mypy]`` in pyproject.toml (``python -m mypy`` from the repository
root checks the same files). mypy is in the ``test`` extra, so CI always runs this; without it
the test is skipped with a message saying how to install it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
ENGINES = {"tilelab/sliding", "tilelab/match3", "tilelab/game2048"}
STRICT_MODULES = {"tilelab.sliding.*", "tilelab.match3.*", "tilelab.game2048.*",
                  "tilelab.randomness", "tilelab.inputs", "tilelab.files"}


def _config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]


def test_mypy_is_configured_strict_on_the_engines():
    config = _config()
    assert config["strict"] is True
    assert ENGINES <= set(config["files"])
    assert {"tilelab/randomness.py", "tilelab/inputs.py", "tilelab/files.py"} <= set(config["files"])
    # the only escape hatches: numba's missing stubs, tooling followed silently, and modules listed as unfinished
    for override in config.get("overrides", []):
        modules = {override["module"]} if isinstance(override["module"], str) else set(override["module"])
        loosened = {k for k in override if k != "module"}
        if modules <= {"numba", "numba.*"}:
            assert loosened == {"ignore_missing_imports"}
        elif loosened == {"follow_imports"}:
            assert not modules & STRICT_MODULES and not any(m.startswith(("tilelab.sliding", "tilelab.match3",
                                                                          "tilelab.game2048")) for m in modules)
        else:
            assert not any(m.startswith("tilelab.sliding") for m in modules), "the sliding engine is fully strict"
            assert not modules & {"tilelab.randomness", "tilelab.inputs", "tilelab.files"}


def test_the_engines_type_check():
    pytest.importorskip("mypy", reason="mypy is not installed: pip install -e '.[test]' (it is in the test extra)")
    out = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary", "--show-error-codes"],
                         cwd=ROOT, capture_output=True, text=True, timeout=900)
    errors = [line for line in out.stdout.splitlines() if re.search(r": error: ", line)]
    assert out.returncode == 0 and not errors, (
        f"mypy found {len(errors)} type error(s) in the engines:\n" + "\n".join(errors[:40]) + out.stderr[-2000:])
