"""``make site``: the course as two websites (student and teacher editions) on Sphinx + MyST-NB +
sphinx-book-theme, built from stored outputs, checked as files and in Chromium."""

from __future__ import annotations

import functools
import html
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

import nbformat
import pytest

from tilelab.teach import lesson_paths
from tilelab.teach.__main__ import main as teach_main
from tilelab.teach.lessons import DEEPER_TAG, SOLUTION_TAG, TEACHER_TAG, tags
from tilelab.teach.links import lesson_links
from tilelab.teach.site import WIDGET_VIEW, board_code, build_site, site_notebook
from tilelab.widgets.frames import FRAMES_MIME

ROOT = Path(__file__).resolve().parents[1]
LESSONS = lesson_paths(ROOT / "notebooks")
NAMES = [p.stem for p in LESSONS]
REQUIRE_BROWSER = os.environ.get("TILELAB_REQUIRE_BROWSER", "") not in ("", "0")
#: A teacher's copies of the course and of the student editions, a hub with a port and a path prefix, lite sites.
REPO, STUDENT_REPO, HUB = "myschool/tilelab-copy", "myschool/tilelab-student", "https://hub.school.example:8443/c9/"
LITE, STUDENT_LITE = "../lite/", "https://myschool.example/tilelab/student-lite/"


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Both sites, built with no network at all where this machine can take it away (a network namespace with
    only loopback, as root in CI): nothing is fetched at build time."""
    out = tmp_path_factory.mktemp("site")
    argv = ["site", str(out), "--notebooks", str(ROOT / "notebooks"), "--repo", REPO, "--student-repo", STUDENT_REPO,
            "--hub", HUB, "--lite-url", LITE, "--student-lite-url", STUDENT_LITE]
    start = time.perf_counter()
    offline = shutil.which("unshare") and subprocess.run(["unshare", "-n", "true"], capture_output=True).returncode == 0
    if offline:
        done = subprocess.run(["unshare", "-n", sys.executable, "-m", "tilelab.teach", *argv], capture_output=True,
                              text=True, timeout=1800)
        assert done.returncode == 0, done.stderr[-3000:]
    else:
        assert teach_main(argv) == 0
    seconds = time.perf_counter() - start
    print(f"both sites built in {seconds:.1f} s" + (" with no network" if offline else ""))
    return {"student": out / "student", "teacher": out / "teacher", "seconds": seconds}


def _page(site: Path, name: str) -> str:
    return (site / f"{name}.html").read_text(encoding="utf-8")


def _solution_lines(path: Path) -> list[str]:
    """Lines of a lesson's solution cells that appear nowhere else in it (what would give an answer away)."""
    nb = nbformat.read(path, as_version=4)
    others = "\n".join(c.source for c in nb.cells if SOLUTION_TAG not in tags(c))
    return [line.strip() for c in nb.cells if SOLUTION_TAG in tags(c) for line in c.source.splitlines()
            if len(line.strip()) > 24 and line.strip() not in others]


# ------------------------------------------------------------------------------ as files
def test_every_lesson_has_a_page_in_both_sites(sites: dict) -> None:
    for edition in ("student", "teacher"):
        index = (sites[edition] / "index.html").read_text(encoding="utf-8")
        for name in NAMES:
            assert f'href="{name}.html"' in index, (edition, name)
            assert (sites[edition] / "_sources" / f"{name}.ipynb").is_file(), "the download button's notebook"
        assert (sites[edition] / "search.html").is_file() and (sites[edition] / "searchindex.js").is_file()


def test_the_student_site_has_no_solution_and_the_teacher_site_folds_them(sites: dict) -> None:
    for path in LESSONS:
        lines = _solution_lines(path)
        if not lines:
            continue
        student = _page(sites["student"], path.stem) + (sites["student"] / "_sources" / path.name).read_text()
        assert not [line for line in lines if html.escape(line, quote=False) in student or line in student], path.name
        teacher = _page(sites["teacher"], path.stem)
        folded = re.findall(r'<details class="[^"]*hide[^"]*above-input">.*?</details>', teacher, re.S)
        assert folded and "Show the solution" in teacher, path.name
        assert "tag_solution" in teacher


def test_launch_links_are_the_links_commands(sites: dict) -> None:
    """Each edition opens its own repository: the course (lessons in notebooks/) or the student repository."""
    for edition, repo, layout, lite in (("teacher", REPO, "course", "../lite/"),
                                        ("student", STUDENT_REPO, "student", STUDENT_LITE)):
        for row in lesson_links(repo, NAMES, hub=HUB, layout=layout):
            page = _page(sites[edition], row["lesson"])
            hrefs = {html.unescape(h) for h in re.findall(r'href="([^"]+)"', page)}
            assert {row["binder"], row["nbgitpuller"], f"{lite}lab/index.html?path={row['lesson']}.ipynb"} <= hrefs
        assert "https://hub.school.example:8443/c9/hub/user-redirect/git-pull?" in page


def test_titles_keep_their_asterisks(sites: dict) -> None:
    for name in NAMES:
        heading = next(line for line in nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
                       .cells[0].source.splitlines() if line.startswith("# "))
        if "*" not in heading:
            continue
        title = re.search(r"<title>(.*?)</title>", _page(sites["student"], name), re.S).group(1)
        assert title.count("*") == heading.count("*"), (title, heading)
        index = (sites["student"] / "index.html").read_text(encoding="utf-8")
        assert re.sub(r"[*_`]{2}", "", heading[2:]).strip() in html.unescape(re.sub(r"<[^>]+>", "", index))


def test_every_board_shows_its_picture_and_where_to_play_it(sites: dict) -> None:
    for path in LESSONS:
        nb = nbformat.read(path, as_version=4)
        widgets = [o for c in nb.cells if c.cell_type == "code" and SOLUTION_TAG not in tags(c)
                   for o in c.outputs if WIDGET_VIEW in o.get("data", {})]
        pictures = [o for o in widgets if "image/png" in o["data"]]
        boards = [o for o in widgets if FRAMES_MIME not in o["data"]]
        page = _page(sites["student"], path.stem)
        assert page.count('class="tl-play"') >= len(widgets), path.name
        assert page.count("<img") >= len(pictures), path.name
        assert "widget-view+json" not in page and "@jupyter-widgets" not in page
        # a lite site beside it: each board (not a stepper: it steps in the page) can be played in the page
        live = re.findall(r'<div class="tl-live" data-src="([^"]+)"', page)
        assert len(live) == len(boards), path.name
        assert all(html.unescape(src).startswith(STUDENT_LITE + "repl/index.html?") for src in live), live


def _boards() -> list[tuple[str, int, str]]:
    """(lesson, cell, the code the site plays it with) for every board of every lesson."""
    found = []
    for path in LESSONS:
        nb = nbformat.read(path, as_version=4)
        for index, cell in enumerate(nb.cells):
            if cell.cell_type == "code" and any(WIDGET_VIEW in o.get("data", {}) and FRAMES_MIME not in o["data"]
                                                for o in cell.outputs):
                found.append((path.stem, index, board_code(nb, index)))
    return found


_RUN_BOARD = """
import ast, sys
import ipywidgets
code = sys.stdin.read()
tree = ast.parse(code)
last = ast.Expression(tree.body.pop().value)
ns = {}
exec(compile(tree, "<board>", "exec"), ns)
board = eval(compile(last, "<board>", "eval"), ns)
bundle = board._repr_mimebundle_() if hasattr(board, "_repr_mimebundle_") else {}
assert isinstance(board, ipywidgets.DOMWidget) or "application/vnd.jupyter.widget-view+json" in bundle, type(board)
print(type(board).__name__)
"""


def test_every_board_cell_runs_after_the_parameters_cell_alone() -> None:
    """What the site plays and what a student runs after a restart: the parameters cell, then the board's cell,
    in a fresh Python, ends with the board (a widget)."""
    boards = _boards()
    assert len(boards) >= 9
    for lesson, index, code in boards:
        done = subprocess.run([sys.executable, "-c", _RUN_BOARD], input=code, capture_output=True, text=True,
                              timeout=300, env={**os.environ, "MPLBACKEND": "Agg"})
        assert done.returncode == 0, f"{lesson} cell {index}:\n{done.stderr[-2000:]}"
        assert done.stdout.strip().endswith("Widget"), (lesson, index, done.stdout)


def test_a_board_cell_that_needs_an_earlier_cell_is_refused() -> None:
    v4 = nbformat.v4
    nb = v4.new_notebook(cells=[v4.new_code_cell("SEED = 1", metadata={"tags": ["parameters"]}),
                                v4.new_code_cell("net = make()"), v4.new_code_cell("Board(net, rng=SEED)")])
    with pytest.raises(ValueError, match=r"cell 2 reads Board, net.*parameters cell alone"):
        board_code(nb, 2)
    nb.cells[0].source = "SEED = 1 if IN_BROWSER else 2"
    with pytest.raises(ValueError, match=r"parameters cell reads IN_BROWSER.*on its own"):
        board_code(nb, 2)


def test_going_deeper_is_marked_optional(sites: dict) -> None:
    for path in LESSONS:
        nb = nbformat.read(path, as_version=4)
        seen = [c for c in nb.cells if DEEPER_TAG in tags(c) and not {SOLUTION_TAG, TEACHER_TAG} & set(tags(c))]
        deeper_md = sum(c.cell_type == "markdown" and any(not line.startswith("#") and line.strip()
                                                          for line in c.source.splitlines()) for c in seen)
        deeper_code = sum(c.cell_type == "code" for c in seen)
        page = _page(sites["student"], path.stem)
        assert page.count("tl-deeper") >= deeper_md and page.count("tag_deeper") >= deeper_code, path.name


def test_pages_load_nothing_from_elsewhere(sites: dict) -> None:
    """Scripts, styles, pictures and fonts come from the site (MathJax included): no CDN, no web font."""
    for edition in ("student", "teacher"):
        for page in sites[edition].glob("*.html"):
            text = page.read_text(encoding="utf-8")
            loads = re.findall(r'<(?:script|img|link|iframe|source)\b[^>]*?(?:src|href)="([^"]+)"', text)
            outside = [u for u in loads if re.match(r"^(https?:)?//", u)]
            assert not outside, (edition, page.name, outside)
        for css in sites[edition].rglob("*.css"):
            imports = re.findall(r"url\(\s*['\"]?((?:https?:)?//[^)'\"]+)", css.read_text(errors="replace"))
            assert not imports, (css, imports)
        assert (sites[edition] / "_static" / "mathjax" / "MathJax.js").is_file()


def test_the_edition_is_chosen_and_teachers_notes_stay_out_of_the_student_site(tmp_path: Path) -> None:
    v4 = nbformat.v4
    folder = tmp_path / "notebooks"
    folder.mkdir()
    nb = v4.new_notebook(cells=[
        v4.new_markdown_cell("# Lesson 9 · IDA*, A* and *weighted* A*\n\nA lesson about searching graphs of puzzle "
                             "boards with a heuristic that guides the search toward the goal."),
        v4.new_markdown_cell("Ask the class to predict first: PSSTTEACHERNOTE.", metadata={"tags": [TEACHER_TAG]}),
        v4.new_code_cell("def my_f(x):\n    return 0\n\ncheck('f', my_f)", metadata={"tags": ["exercise"]}),
        v4.new_code_cell("def solution_f(x):\n    return 'PSSTSOLUTION'", metadata={"tags": [SOLUTION_TAG]}),
        v4.new_markdown_cell("## Going deeper (optional)\n\nA proof by induction on the depth.",
                             metadata={"tags": [DEEPER_TAG]}),
        v4.new_markdown_cell("Math: $f = g + h$ and $$\\sum_i p_i V_i$$"),
    ])
    nbformat.write(nb, folder / "09_demo.ipynb")
    student = build_site(tmp_path / "s", folder, edition="student", quiet=True).parent
    teacher = build_site(tmp_path / "t", folder, edition="teacher", quiet=True).parent
    s, t = _page(student, "09_demo"), _page(teacher, "09_demo")
    assert "PSSTTEACHERNOTE" not in s and "PSSTSOLUTION" not in s and "PSSTSOLUTION" not in (
        student / "_sources" / "09_demo.ipynb").read_text()
    assert "PSSTTEACHERNOTE" in t and "PSSTSOLUTION" in t
    assert "IDA*, A* and weighted A*" in re.search(r"<title>(.*?)</title>", s).group(1)
    assert 'class="tl-deeper' in s and "mathjax/MathJax.js" in s and 'class="math' in s
    assert "launch-buttons" not in s, "no repository, no lite site: no launch menu (not a dead link)"


@pytest.mark.parametrize("option, value", [
    ("--lite-url", "javascript:alert(document.cookie)//"), ("--lite-url", "https://x.example/a'b\"c<script>/"),
    ("--lite-url", "https://x.example/\nevil/"), ("--repo", "school/tilelab\n"), ("--repo", "school/.."),
    ("--hub", ".."), ("--hub", "hub.example\n"), ("--hub", "javascript:alert(1)"), ("--branch", "main\n")])
def test_site_refuses_an_address_it_would_write_into_a_page(tmp_path: Path, option: str, value: str,
                                                              capsys: pytest.CaptureFixture) -> None:
    assert teach_main(["site", str(tmp_path / "out"), "--notebooks", str(ROOT / "notebooks"), "--repo", REPO,
                       option, value]) == 2
    assert option in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_site_notebook_leaves_the_lesson_alone() -> None:
    nb = nbformat.read(LESSONS[0], as_version=4)
    before = nbformat.writes(nb)
    site_notebook(nb, "teacher")
    site_notebook(nb, "student")
    assert nbformat.writes(nb) == before


# ------------------------------------------------------------------------------ in Chromium
def _browser() -> tuple[Any, str, Any]:
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


@pytest.fixture(scope="module")
def served(sites: dict) -> Iterator[str]:
    """Both sites on a web server at 127.0.0.1 (as a school's server would serve them)."""
    root = sites["student"].parent

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()


def _distinctive_words() -> dict[str, str]:
    """A word of each lesson's prose that no other lesson's prose uses (for the search test)."""
    words = {}
    for path in LESSONS:
        text = " ".join(c.source for c in nbformat.read(path, as_version=4).cells
                        if c.cell_type == "markdown" and not {SOLUTION_TAG, TEACHER_TAG} & set(tags(c)))
        words[path.stem] = Counter(w.lower() for w in re.findall(r"\b[A-Za-z]{8,}\b", text))
    from sphinx.search.en import SearchEnglish  # the site's search ignores its stop words ("themselves")

    found = {}
    for name, counts in words.items():
        others = set().union(*(set(c) for n, c in words.items() if n != name))
        unique = sorted((w for w in counts if w not in others and w not in SearchEnglish.stopwords),
                        key=lambda w: (-counts[w], w))
        if unique:
            found[name] = unique[0]
    return found


@pytest.mark.browser
def test_both_sites_in_chromium(sites: dict, served: str) -> None:
    """Every page loads with no script error, every picture decodes, no request leaves the site, every lesson
    links the previous and next lesson, math is typeset, and search finds a lesson by a word of its prose."""
    bl, chromium, sync_playwright = _browser()
    problems: list[str] = []
    shots = bl.ARTIFACTS / "site"
    shots.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = bl.launch_chromium(pw, chromium)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            outside, errors = bl.local_only(page, served)
            for edition in ("student", "teacher"):
                for name in ["index", *NAMES]:
                    errors.clear()
                    response = page.goto(f"{served}{edition}/{name}.html", wait_until="load", timeout=90_000)
                    if response is None or not response.ok:
                        problems.append(f"{edition}/{name}: {response and response.status}")
                        continue
                    images = page.eval_on_selector_all(
                        "article img", "els => els.map(e => [e.complete && e.naturalWidth > 0, e.src.slice(-60)])")
                    problems += [f"{edition}/{name}: picture does not show {src}" for ok, src in images if not ok]
                    if name != "index":
                        i = NAMES.index(name)
                        prev = page.eval_on_selector_all("a.left-prev", "els => els.map(e => e.getAttribute('href'))")
                        nxt = page.eval_on_selector_all("a.right-next", "els => els.map(e => e.getAttribute('href'))")
                        want_prev = [f"{NAMES[i - 1]}.html"] if i else ["index.html"]
                        want_next = [f"{NAMES[i + 1]}.html"] if i + 1 < len(NAMES) else []
                        if prev != want_prev or nxt != want_next:
                            problems.append(f"{edition}/{name}: previous {prev}, next {nxt}")
                    if "mathjax/MathJax.js" in (sites[edition] / f"{name}.html").read_text(encoding="utf-8") and \
                            re.search(r'class="math', (sites[edition] / f"{name}.html").read_text(encoding="utf-8")):
                        try:
                            page.wait_for_selector(".MathJax_CHTML, .MathJax, .MathJax_Display", timeout=30_000)
                        except Exception:
                            problems.append(f"{edition}/{name}: math not typeset")
                    problems += [f"{edition}/{name}: script error {e}" for e in errors]
                    if name in ("index", "03a_sliding_parity") and edition == "student":
                        page.screenshot(path=str(shots / f"{edition}_{name}.png"))
            for name, word in sorted(_distinctive_words().items())[:4]:
                page.goto(f"{served}student/search.html?q={word}", wait_until="load")
                try:
                    page.wait_for_selector(f'#search-results a[href*="{name}.html"]', timeout=30_000)
                except Exception:
                    problems.append(f"search for {word!r} did not find {name}")
            page.screenshot(path=str(shots / "student_search.png"))
            assert not outside, f"requests left the site: {outside[:10]}"
        finally:
            browser.close()
    assert not problems, "\n".join(problems)
