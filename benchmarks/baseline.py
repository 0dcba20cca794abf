"""Git for the benchmarks: a tilelab module as it was at another revision (to time old and new side by side), and
the commit a figure was measured at."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def module_at(rev: str, path: str, name: str) -> ModuleType | None:
    """The file ``path`` (in the repository) as it was at git revision ``rev``, imported as module ``name``.

    None, with a note, if git cannot give it (no git, a shallow clone, an unknown revision). The module
    imports today's tilelab for everything else, and is registered in ``sys.modules`` (dataclasses look
    their module up there).
    """
    try:
        text = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{path}"], check=True, capture_output=True,
                              text=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"baseline {rev}:{path} not available ({exc}); comparing with nothing", flush=True)
        return None
    file = Path(tempfile.mkdtemp(prefix="tilelab-baseline-")) / f"{name}.py"
    file.write_text(text)
    spec = importlib.util.spec_from_file_location(name, file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def head_commit() -> str:
    """The checkout's commit, short (``unknown`` without git): printed and saved beside every figure."""
    try:
        return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
