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
from tilelab.teach.site import BINDER, build_site

ROOT = Path(__file__).resolve().parents[1]
LESSONS = lesson_paths(ROOT / "notebooks")
REQUIRE_BROWSER = os.environ.get("TILELAB_REQUIRE_BROWSER", "") not in ("", "0")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    start = time.perf_counter()
    build_site(out, ROOT / "notebooks", quiet=True)
    print(f"site built in {time.perf_counter() - start:.1f} s")
    return out


def test_every_lesson_has_a_page_and_an_index_entry(site: Path) -> None:
    index = (site / "index.html").read_text()
    for path in LESSONS:
        page = site / f"{path.stem}.html"
        assert page.is_file()
        assert f'href="{path.stem}.html"' in index
        assert BINDER.format(name=path.stem) in index
        text = page.read_text()
        assert BINDER.format(name=path.stem) in text and 'href="index.html"' in text


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
    assert with_math >= 3  # lessons 02, 05a, 05b and 06 write math


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
