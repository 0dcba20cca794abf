"""Every lesson ends the same way (issue 41): "## What you learned" (three to five points), "## Check yourself"
(two or three questions, each answer folded in a <details> block), then a **Next:** link to a lesson that exists,
named by that lesson's real title (its first heading). The wording is the lesson's own; only the shape is checked."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
LESSONS = sorted(NOTEBOOKS.glob("[0-9]*.ipynb"))
LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def title(path: Path) -> str:
    """A lesson's first heading, without its hashes."""
    first = nbformat.read(path, as_version=4).cells[0].source
    return first.splitlines()[0].lstrip("#").strip()


def ending(path: Path) -> tuple[str, str, str]:
    """(What you learned, Check yourself, Next) cell sources, in that order, or an AssertionError naming what is off."""
    cells = [c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown"]
    learned = [i for i, s in enumerate(cells) if s.startswith("## What you learned")]
    check = [i for i, s in enumerate(cells) if s.startswith("## Check yourself")]
    nxt = [i for i, s in enumerate(cells) if s.startswith("**Next:**")]
    assert len(learned) == len(check) == len(nxt) == 1, f"{path.name}: one of each ending cell, got {learned, check, nxt}"
    assert learned[0] < check[0] < nxt[0], f"{path.name}: What you learned, then Check yourself, then Next"
    return cells[learned[0]], cells[check[0]], cells[nxt[0]]


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_every_lesson_ends_with_a_summary_questions_and_the_next_lesson(path: Path) -> None:
    learned, check, nxt = ending(path)
    points = [line for line in learned.splitlines() if line.startswith(("* ", "- "))]
    assert 3 <= len(points) <= 5, f"{path.name}: 'What you learned' has {len(points)} points, not 3 to 5"
    questions = re.findall(r"^\d+\.\s", check, re.M)
    answers = re.findall(r"<details>.*?</details>", check, re.S)
    assert 2 <= len(questions) <= 3, f"{path.name}: {len(questions)} questions, not 2 or 3"
    assert len(answers) == len(questions), f"{path.name}: every question has its answer folded in <details>"
    links = LINK.findall(nxt)
    assert links, f"{path.name}: the Next cell links the next lesson"
    for text, target in links:
        linked = NOTEBOOKS / target
        assert linked.is_file() and linked != path, f"{path.name}: {target} is not another lesson"
        assert text == title(linked), f"{path.name}: link text {text!r} is not {target}'s title {title(linked)!r}"


def test_the_tracks_follow_the_course_order() -> None:
    """Each lesson's first Next link is the following lesson of its track; a track's last lesson leaves the track."""
    tracks = [["01a", "01b", "01c", "02a", "02b", "06a", "06b"], ["03a", "03b", "03c", "04a", "04b", "04c", "04d"],
              ["05a", "05b", "05c", "05d"]]
    by_number = {p.name.split("_")[0]: p for p in LESSONS}
    for track in tracks:
        for here, there in zip(track, track[1:] + [None]):
            target = LINK.findall(ending(by_number[here])[2])[0][1]
            if there is None:
                assert not any(target.startswith(t) for t in track), f"{here} ends its track: it leaves it"
            else:
                assert target == by_number[there].name, f"{here} leads to {target}, not {by_number[there].name}"


def test_a_link_to_a_missing_lesson_or_a_stale_title_is_caught(tmp_path: Path) -> None:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Lesson 9 · A test")])
    stale = "**Next:** [Lesson 1a · an old title](01a_2048_merge.ipynb)."
    text, target = LINK.findall(stale)[0]
    assert text != title(NOTEBOOKS / target)
    nbformat.write(nb, tmp_path / "x.ipynb")
    with pytest.raises(AssertionError):
        ending(tmp_path / "x.ipynb")
