"""The course states one time and one name per lesson: its first cell, the map in 00 and the README agree; the map's
tracks (which lessons build on which) are read from the lessons, so a new or split lesson appears by itself."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LESSONS = sorted(NOTEBOOKS.glob("[0-9]*.ipynb"))
TIME = re.compile(r"\*\*Time:\*\*\s*about\s+(\d+)(?:\s*[-–]\s*(\d+))?\s*min", re.I)
MAX_MINUTES = 60


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
        assert int(minutes.split("-")[-1]) <= MAX_MINUTES, path.name


def test_the_map_in_00_agrees_with_the_lessons() -> None:
    from tilelab.exercises.start import course_map

    nb = nbformat.read(NOTEBOOKS / "00_start_here.ipynb", as_version=4)
    assert any("course_map(" in c.source for c in nb.cells if c.cell_type == "code"), "00 shows the course map"
    lessons = {p.stem: stated(p) for p in LESSONS if not p.name.startswith("00")}
    assert table_times(course_map(NOTEBOOKS)) == lessons


def test_the_readme_table_agrees_with_the_lessons() -> None:
    readme = table_times((ROOT / "README.md").read_text(encoding="utf-8"))
    assert readme == {p.stem: stated(p) for p in LESSONS}


def builds_on(text: str) -> dict[str, list[str]]:
    """``{stem: [lesson numbers it builds on]}`` from the map's rows."""
    out = {}
    for line in text.splitlines():
        link = re.search(r"\]\((\d\d[a-z]?_[a-z0-9_]+)\.ipynb\)", line)
        if line.startswith("|") and link:
            cell = [c.strip() for c in line.strip("|").split("|")][2]
            out[link.group(1)] = [] if cell == "nothing" else cell.split(", ")
    return out


def test_the_map_reads_which_lessons_build_on_which() -> None:
    from tilelab.exercises.start import course_map

    text = course_map(NOTEBOOKS)
    needs = builds_on(text)
    assert set(needs) == {p.stem for p in LESSONS if not p.name.startswith("00")}
    numbers = {stem: stem.split("_")[0] for stem in needs}
    for stem, before in needs.items():
        game = stem.split("_")[1]
        assert all(b in numbers.values() and b < numbers[stem] for b in before), (stem, before)
        if any(s.split("_")[1] == game and numbers[s] < numbers[stem] for s in needs):
            assert before, f"{stem} names no earlier lesson of its game in its 'You need' sentence"
    for game in {s.split("_")[1] for s in needs}:
        track = [numbers[s] for s in sorted(needs) if s.split("_")[1] == game]
        assert " → ".join(track) in text


def _lesson(folder: Path, stem: str, first: str) -> None:
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(first)]), str(folder / f"{stem}.ipynb"))


def test_a_split_lesson_shows_up_in_the_map(tmp_path: Path) -> None:
    """04a split in three: the map and its track follow the files, with no list to update."""
    from tilelab.exercises.start import course_map

    _lesson(tmp_path, "00_start_here", "# 00 · Start here\n**Time:** about 30 minutes")
    _lesson(tmp_path, "03a_sliding_parity", "# Lesson 3a · Parity\n**Time:** about 50 minutes\n**You need:** "
                                            "Python. Lesson 3b builds on this one.")
    _lesson(tmp_path, "04a_sliding_bfs", "# Lesson 4a · BFS\n**Time:** about 40 minutes\n**You need:** lesson 3a.")
    _lesson(tmp_path, "04b_sliding_astar", "# Lesson 4b · A*\n**Time:** about 45 minutes\n\n**You need:** lesson 4a "
                                           "(BFS) and lesson 03a.\n\nNext: lesson 4c.")
    _lesson(tmp_path, "04c_sliding_ida", "# Lesson 4c · IDA*\n**Time:** about 35 minutes\n**You need:** lessons "
                                         "4a and 4b, or lesson 4 in full.")
    _lesson(tmp_path, "05a_match3_dispel", "# Lesson 5a · Runs\n**Time:** about 55 minutes\n**You need:** lesson 4.")
    text = course_map(tmp_path)
    assert table_times(text) == {"03a_sliding_parity": "50", "04a_sliding_bfs": "40", "04b_sliding_astar": "45",
                                 "04c_sliding_ida": "35", "05a_match3_dispel": "55"}
    assert builds_on(text) == {"03a_sliding_parity": [], "04a_sliding_bfs": ["03a"], "04b_sliding_astar": ["03a", "04a"],
                               "04c_sliding_ida": ["04a", "04b"], "05a_match3_dispel": ["04a", "04b", "04c"]}
    assert "| [04b · A*](04b_sliding_astar.ipynb) |" in text
    assert "**sliding puzzle:** 03a → 04a → 04b → 04c" in text and "**match-3:** 05a" in text


def test_table_times_reads_a_row() -> None:
    row = "| [`01a_2048_merge`](notebooks/01a_2048_merge.ipynb) | slide and merge | 50 min |"
    assert table_times(row) == {"01a_2048_merge": "50"}
    assert table_times("| [01b](01b_2048_chance.ipynb) | 2048 | chance | about 60 minutes |") == {"01b_2048_chance": "60"}
    with pytest.raises(AssertionError):
        assert table_times("| no link | 5 min |")
