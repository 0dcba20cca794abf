"""The course states one time and one name per lesson: its first cell, the map in 00 and the README agree."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LESSONS = sorted(NOTEBOOKS.glob("[0-9]*.ipynb"))
TIME = re.compile(r"\*\*Time:\*\*\s*about\s+(\d+)(?:\s*[-–]\s*(\d+))?\s*min", re.I)
MAX_MINUTES = 75  # 06 may state 75; every other lesson at most 60


def stated(path: Path) -> str:
    """The lesson's ``**Time:** about N minutes`` from its first cell, as ``"N"`` or ``"N-M"``."""
    first = nbformat.read(path, as_version=4).cells[0].source
    match = TIME.search(first)
    assert match, f"{path.name}: the first cell must state '**Time:** about N minutes'"
    return "-".join(g for g in match.groups() if g)


def table_times(text: str) -> dict[str, str]:
    """``{stem: "N" or "N-M"}`` from a markdown table whose rows link a lesson and end with its minutes."""
    times = {}
    for line in text.splitlines():
        link = re.search(r"\(?(?:notebooks/)?(\d\d[a-z]?_[a-z0-9_]+)\.ipynb", line)
        minutes = re.search(r"(\d+(?:\s*[-–]\s*\d+)?)\s*min(?:utes)?\s*\|\s*$", line)
        if line.startswith("|") and link and minutes:
            times[link.group(1)] = re.sub(r"\s*[-–]\s*", "-", minutes.group(1))
    return times


def test_every_lesson_states_its_time_in_its_first_cell() -> None:
    for path in LESSONS:
        minutes = stated(path)
        assert int(minutes.split("-")[-1]) <= (MAX_MINUTES if path.name.startswith("06") else 60), path.name


def test_the_map_in_00_agrees_with_the_lessons() -> None:
    from tilelab.exercises.start import course_map

    nb = nbformat.read(NOTEBOOKS / "00_start_here.ipynb", as_version=4)
    assert any("course_map(" in c.source for c in nb.cells if c.cell_type == "code"), "00 shows the course map"
    lessons = {p.stem: stated(p) for p in LESSONS if not p.name.startswith("00")}
    assert table_times(course_map(NOTEBOOKS)) == lessons


def test_the_readme_table_agrees_with_the_lessons() -> None:
    readme = table_times((ROOT / "README.md").read_text(encoding="utf-8"))
    assert readme == {p.stem: stated(p) for p in LESSONS}


def test_table_times_reads_a_row() -> None:
    row = "| [`01a_2048_merge`](notebooks/01a_2048_merge.ipynb) | slide and merge | 50 min |"
    assert table_times(row) == {"01a_2048_merge": "50"}
    assert table_times("| [01b](01b_2048_chance.ipynb) | 2048 | chance | about 60 minutes |") == {"01b_2048_chance": "60"}
    with pytest.raises(AssertionError):
        assert table_times("| no link | 5 min |")
