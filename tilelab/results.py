"""Find the saved benchmark results the lessons plot (``benchmarks/results/*.json``).

The benchmark scripts write their results into ``benchmarks/results`` of the repository. A lesson
opened from the repository finds them there; a student edition (``python -m tilelab.teach student``)
carries a copy in its own ``benchmarks/results``. Search order:

1. the folder named by the environment variable ``TILELAB_RESULTS``;
2. ``benchmarks/results`` in the working directory or any of its parents;
3. ``benchmarks/results`` beside the installed package (an editable install of the repository).

A lesson asks for a file by name and gets ``None`` when no copy is found, so it can say so instead of
failing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

__all__ = ["results_dir", "results_path", "load_results"]

_SUBDIR = Path("benchmarks") / "results"


def _candidates() -> list[Path]:
    found: list[Path] = []
    env = os.environ.get("TILELAB_RESULTS")
    if env:
        found.append(Path(env))
    cwd = Path.cwd().resolve()
    found.extend(p / _SUBDIR for p in (cwd, *cwd.parents))
    found.append(Path(__file__).resolve().parents[1] / _SUBDIR)
    return found


def results_dir() -> Path | None:
    """The first results folder found (see the module docstring), or ``None``.

    >>> d = results_dir()
    >>> d is None or d.is_dir()
    True
    """
    return next((p for p in _candidates() if p.is_dir()), None)


def results_path(name: str) -> Path | None:
    """The first saved file called ``name`` in the search order, or ``None``.

    >>> results_path("no-such-benchmark.json") is None
    True
    """
    if not isinstance(name, str) or not name or "/" in name or "\\" in name:
        raise ValueError(f"results_path takes a bare file name such as 'bench_match3.json', got {name!r}")
    return next((p / name for p in _candidates() if (p / name).is_file()), None)


def load_results(name: str) -> dict[str, Any] | None:
    """The parsed JSON of a saved benchmark file, or ``None`` when no copy is found.

    >>> load_results("no-such-benchmark.json") is None
    True
    """
    path = results_path(name)
    return None if path is None else json.loads(path.read_text())
