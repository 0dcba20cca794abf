"""``make site``: the course as a static website, built with nbconvert and opened in Chromium."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from urllib.parse import unquote, urlparse

import nbformat
import pytest

from tilelab.teach import lesson_paths
from tilelab.teach.site import binder_url, build_site, github_url

ROOT = Path(__file__).resolve().parents[1]
LESSONS = lesson_paths(ROOT / "notebooks")
REQUIRE_BROWSER = os.environ.get("TILELAB_REQUIRE_BROWSER", "") not in ("", "0")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    start = time.perf_counter()
    build_site(out, ROOT / "notebooks", quiet=True, repo=REPO)
    print(f"site built in {time.perf_counter() - start:.1f} s")
    return out


#: A teacher's copy of the course (the site's Binder and GitHub links are configuration, never fixed).
REPO = "myschool/tilelab-copy"


def test_every_lesson_has_a_page_and_an_index_entry(site: Path) -> None:
    index = (site / "index.html").read_text()
    for path in LESSONS:
        page = site / f"{path.stem}.html"
        assert page.is_file()
        assert f'href="{path.stem}.html"' in index
        assert binder_url(path.stem, REPO) in index
        text = page.read_text()
        assert binder_url(path.stem, REPO) in text and 'href="index.html"' in text
        assert "tilelab/tilelab" not in text


def test_launch_links_follow_the_repo_given_and_none_without(tmp_path: Path) -> None:
    """No repository named: no Binder/GitHub link (not a dead one); --repo OWNER/NAME --branch B: its links."""
    from tilelab.teach.__main__ import main

    one = tmp_path / "notebooks"
    one.mkdir()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# A lesson\n\nSee [the code](../tool.py)."),
                                         nbformat.v4.new_code_cell("1")])
    nbformat.write(nb, str(one / "00_start_here.ipynb"))
    (tmp_path / "tool.py").write_text("x = 1\n")
    build_site(tmp_path / "plain", one, quiet=True)
    for page in (tmp_path / "plain").glob("*.html"):
        text = page.read_text()
        links = re.findall(r'href="(https?://[^"]+)"', text)
        assert not [u for u in links if re.match(r"https://(mybinder\.org|github\.com)/", u)], (page.name, links)
        assert "tilelab/tilelab" not in text, page.name
        assert "localhost:8888/lab/tree/00_start_here.ipynb" in text
    assert main(["site", str(tmp_path / "mine"), "--notebooks", str(one), "--repo", "school/course",
                 "--branch", "spring"]) == 0
    text = (tmp_path / "mine" / "00_start_here.html").read_text()
    assert "https://mybinder.org/v2/gh/school/course/spring?urlpath=lab/tree/notebooks/00_start_here.ipynb" in text
    assert 'href="https://github.com/school/course/blob/spring/tool.py"' in text
    assert github_url("tool.py", "school/course", "spring") == "https://github.com/school/course/blob/spring/tool.py"


@pytest.mark.parametrize("repo, branch, message", [
    ("https://github.com/a/b", "main", "OWNER/NAME"), ("tilelab", "main", "OWNER/NAME"),
    ("a/b", "no spaces", "branch name"), ("a/b", "../x", "branch name")])
def test_site_refuses_a_repo_or_branch_it_cannot_link(tmp_path: Path, repo: str, branch: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        build_site(tmp_path / "out", ROOT / "notebooks", quiet=True, repo=repo, branch=branch)
    assert not (tmp_path / "out" / "index.html").exists()


def test_prev_next_navigation(site: Path) -> None:
    names = [p.stem for p in LESSONS]
    for i, name in enumerate(names):
        text = (site / f"{name}.html").read_text()
        prev = re.findall(r'href="([^"]+)" rel="prev"', text)
        nxt = re.findall(r'href="([^"]+)" rel="next"', text)
        assert prev == ([f"{names[i - 1]}.html"] * 2 if i else [])
        assert nxt == ([f"{names[i + 1]}.html"] * 2 if i + 1 < len(names) else [])


def test_stored_figures_are_in_the_pages(site: Path) -> None:
    for path in LESSONS:
        nb = nbformat.read(path, as_version=4)
        pngs = sum("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code" for o in c.outputs)
        shown = (site / f"{path.stem}.html").read_text().count("data:image/png;base64,")
        assert shown >= pngs, f"{path.name}: {pngs} stored pictures, {shown} on the page"


def test_pages_load_nothing_from_the_internet(site: Path) -> None:
    """Scripts come from the site itself; math pages use its own MathJax copy (jupyter-server-mathjax)."""
    with_math = 0
    for page in site.glob("*.html"):
        sources = re.findall(r'<script[^>]*src="([^"]+)"', page.read_text())
        assert not [s for s in sources if re.match(r"^(https?:)?//", s)], (page.name, sources)
        local = [s for s in sources if s.startswith("mathjax/MathJax.js")]
        with_math += bool(local)
        for src in local:
            assert (site / src.split("?")[0]).is_file()
    assert with_math >= 2  # lessons 02 and 06 write math


def _browser():
    import sys

    sys.path.insert(0, str(ROOT / "tests" / "browser"))
    import browserlab as bl

    chromium = bl.find_chromium()
    reason = None
    if chromium is None:
        reason = "Chromium is not installed (Debian: apt-get install chromium)"
    else:
        try:
            from playwright.sync_api import sync_playwright
        except ImportError as exc:
            reason = f"Python Playwright is not installed ({exc})"
    if reason:
        if REQUIRE_BROWSER:
            pytest.fail(f"TILELAB_REQUIRE_BROWSER=1 but the site test cannot run: {reason}", pytrace=False)
        pytest.skip(f"BROWSER TEST SKIPPED: {reason}")
    return bl, chromium, sync_playwright


@pytest.mark.browser
def test_site_in_chromium(site: Path) -> None:
    """Every page loads, every picture decodes (naturalWidth > 0), every relative link resolves."""
    bl, chromium, sync_playwright = _browser()
    problems: list[str] = []
    with sync_playwright() as pw:
        browser = bl.launch_chromium(pw, chromium)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            # Offline: only the site's own files load (MathJax included).
            page.route(re.compile(r"^https?://"), lambda route: route.abort())
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            pages = sorted(site.glob("*.html"))
            assert len(pages) == len(LESSONS) + 1
            for html_file in pages:
                errors.clear()
                response = page.goto(html_file.as_uri(), wait_until="load", timeout=60_000)
                assert response is None or response.ok
                title = page.title()
                if not title:
                    problems.append(f"{html_file.name}: no title")
                images = page.eval_on_selector_all(
                    "img", "els => els.map(e => [e.complete && e.naturalWidth > 0, (e.src || '').slice(0, 60)])")
                problems += [f"{html_file.name}: picture does not show: {src}" for ok, src in images if not ok]
                if html_file.stem != "index":
                    nb = nbformat.read(ROOT / "notebooks" / f"{html_file.stem}.ipynb", as_version=4)
                    if any("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code"
                           for o in c.outputs) and not images:
                        problems.append(f"{html_file.name}: the lesson has pictures, the page shows none")
                hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))")
                for href in hrefs:
                    if re.match(r"^([a-z][a-z0-9+.-]*:|#|//)", href, re.I):
                        continue
                    target = (html_file.parent / unquote(urlparse(href).path)).resolve()
                    if not target.is_file():
                        problems.append(f"{html_file.name}: broken link {href!r}")
                if "mathjax/MathJax.js" in html_file.read_text():
                    try:  # the math is typeset by the site's own MathJax, with no network
                        page.wait_for_selector(".MathJax_CHTML, .MathJax, .MathJax_Display", timeout=30_000)
                    except Exception:
                        problems.append(f"{html_file.name}: math not typeset offline")
                problems += [f"{html_file.name}: script error {e}" for e in errors]
        finally:
            browser.close()
    assert not problems, "\n".join(problems)
