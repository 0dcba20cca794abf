"""The README and the pages it links: every relative link resolves, and the README stays a teacher's first page."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "benchmarks" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _anchors(markdown: str) -> set[str]:
    """GitHub's anchors for the headings of a markdown page (lower case, punctuation dropped, spaces to '-')."""
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
            for h in re.findall(r"^#+ (.+)$", markdown, re.M)}


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_relative_links_resolve(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    broken = []
    for target in LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
            continue  # an address on the web
        path, _, anchor = target.partition("#")
        file = (page.parent / unquote(path)).resolve() if path else page
        if not file.exists():
            broken.append(target)
        elif anchor and file.suffix == ".md" and anchor not in _anchors(file.read_text(encoding="utf-8")):
            broken.append(target)
    assert not broken, f"{page.relative_to(ROOT)}: broken links {broken}"


def test_the_readme_is_a_teachers_first_page() -> None:
    """About 150 lines: the course, the lessons, the two commands and the quick start; the rest is linked."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 160
    for command in ("make lab", "make test"):
        assert command in text
    for page in PAGES[1:]:
        assert str(page.relative_to(ROOT)) in text or page.name.startswith("hub"), f"the README never links {page.name}"


TEACHER_PAGES = [ROOT / "README.md", ROOT / "docs" / "teaching.md", ROOT / "docs" / "grading.md"]
LESSON_NAMES = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("page", TEACHER_PAGES, ids=[p.name for p in TEACHER_PAGES])
def test_a_teachers_page_names_only_lessons_that_exist_and_counts_them_right(page: Path) -> None:
    """A lesson named as `lesson 02`, `(02b)` or `02b_2048_heuristics` is one of the lessons; a count of lessons
    is their number (the hunt found "15 lessons" and "lesson 02" after lessons were split)."""
    text = page.read_text(encoding="utf-8")
    named = set(re.findall(r"\blessons? (\d\d[a-z]?)\b", text)) | set(re.findall(r"\((\d\d[a-z]?)\)", text))
    named |= set(re.findall(r"\b(\d\d[a-z]?)_[a-z0-9]+(?:_[a-z0-9]+)*\b", text))
    unknown = [n for n in named if not any(stem == n or stem.startswith(n + "_") for stem in LESSON_NAMES)]
    assert not unknown, f"{page.name} names lessons that do not exist: {sorted(unknown)}"
    counts = {int(n) for n in re.findall(r"\b(\d+) (?:lessons|student editions)\b", text)}
    assert counts <= {len(LESSON_NAMES)}, f"{page.name} counts {counts} lessons; there are {len(LESSON_NAMES)}"
