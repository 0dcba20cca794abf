"""A class's hub can afford every lesson: each lesson's kernel stays within ``KERNEL_BUDGET_MIB`` (docs/hub.md).

The lessons themselves are measured where they run anyway: every lesson test's run at the lesson's own settings
(``tests/lessonrun.py``) reads its kernel's peak resident memory and fails past the budget. Here: that the
measurement measures (a notebook that holds 450 MiB is refused, one that holds little passes with a plausible
figure), and the two things that kept lessons 02 and 06 (now 06a and 06b) over it: the strong 2048 net expanded to float32 tables,
and transposition tables written in full when made.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from tests.lessonrun import KERNEL_BUDGET_MIB, LessonError, run_lesson

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads Linux's /proc")


def _notebook(folder: Path, name: str, *sources: str) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(s) for s in sources]
    path = folder / f"{name}.ipynb"
    nbformat.write(nb, path)
    return path


def test_a_kernel_over_the_budget_fails_its_lesson_run(tmp_path):
    heavy = _notebook(tmp_path, "heavy", "import numpy as np",
                      f"block = np.ones({KERNEL_BUDGET_MIB + 50} * 2**20 // 8)", "del block")
    with pytest.raises(LessonError, match=r"heavy.ipynb: its kernel peaked at \d+ MiB.*over the 400 MiB"):
        run_lesson(heavy)


def test_a_light_kernel_passes_and_its_peak_is_recorded(tmp_path):
    light = _notebook(tmp_path, "light", "import numpy as np", "block = np.ones(80 * 2**20 // 8)",
                      "total = block.sum()")
    ran = run_lesson(light, fetch=["int(total)"])
    assert ran["int(total)"] == 80 * 2**20 // 8
    assert 80 < ran.peak_mib < KERNEL_BUDGET_MIB  # the 80 MiB array and the kernel itself


def test_a_run_with_overrides_reports_its_peak_without_the_budget(tmp_path):
    """Exploring (bigger settings) may take more than the lesson's own run; it is measured, not refused."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("MIB = 1", metadata={"tags": ["parameters"]}),
                nbformat.v4.new_code_cell("import numpy as np\nblock = np.ones(MIB * 2**20 // 8)")]
    path = tmp_path / "explore.ipynb"
    nbformat.write(nb, path)
    ran = run_lesson(path, overrides={"MIB": KERNEL_BUDGET_MIB + 20})
    assert ran.peak_mib > KERNEL_BUDGET_MIB


def _resident_after(code: str) -> float:
    """MiB of resident memory ``code`` adds in a fresh process (after its imports)."""
    probe = ("def rss():\n    return next(int(l.split()[1]) for l in open('/proc/self/status') "
             "if l.startswith('VmRSS:')) / 1024\n")
    out = subprocess.run([sys.executable, "-c", probe + code + "\nprint(after - before)"], capture_output=True,
                         text=True, check=True)
    return float(out.stdout.split()[-1])


def test_a_new_transposition_table_takes_memory_only_as_it_is_used():
    """A 2**20-slot table is 32 MiB: made, it holds next to none (its free slots are zeros the system gives
    lazily); lessons make several (a player per search depth)."""
    added = _resident_after("from tilelab.game2048.expectimax import TranspositionTable\nbefore = rss()\n"
                            "t = TranspositionTable(20)\nafter = rss()")
    assert added < 4, added
