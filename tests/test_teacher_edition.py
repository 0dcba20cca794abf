"""The teacher edition that `make lab` opens keeps every solution folded away (source and outputs)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from tilelab.teach import lesson_paths
from tilelab.teach.lessons import collapse_solutions

FOLD = (
    "python -c \"import glob, nbformat; from tilelab.teach.lessons import collapse_solutions as fold; "
    "[nbformat.write(nb, p) for p in glob.glob('notebooks/*.ipynb') if fold(nb := nbformat.read(p, 4))]\""
)
LESSONS = lesson_paths(Path(__file__).resolve().parents[1] / "notebooks")


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_solution_cells_are_collapsed(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    assert collapse_solutions(nb) == 0, (
        f"{path.name}: some solution cells are not collapsed; fold them with\n" + FOLD
    )


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_kernelspec_is_ipykernels_own(path: Path) -> None:
    """JupyterLab rewrites any other display name on open, which marks an untouched lesson modified."""
    spec = nbformat.read(path, as_version=4).metadata.get("kernelspec", {})
    assert spec.get("name") == "python3" and spec.get("display_name") == "Python 3 (ipykernel)", path.name
