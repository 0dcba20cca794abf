"""A stepper on a built site page steps in Chromium with no server behind it: "next" clicks reach its last frame,
the keys and the play button work, the search menu switches, and no request leaves the site.

The lesson here holds what running a stepper cell stores (the stepper's mimebundle as the cell's result), so the
page is built exactly as ``make site`` builds a lesson's, without executing anything."""

from __future__ import annotations

import functools
import http.server
import os
import sys
import threading
from pathlib import Path
from typing import Any, Iterator

import matplotlib

matplotlib.use("Agg")

import nbformat  # noqa: E402
import pytest  # noqa: E402

from tilelab.sliding import manhattan, shuffle  # noqa: E402
from tilelab.sliding.trace import astar_trace, bfs_trace  # noqa: E402
from tilelab.teach.site import build_site  # noqa: E402
from tilelab.widgets.access import plain_text  # noqa: E402
from tilelab.widgets.frames import shown_steps  # noqa: E402
from tilelab.widgets.search_stepper import SearchStepper, step_summary  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
REQUIRE_BROWSER = os.environ.get("TILELAB_REQUIRE_BROWSER", "") not in ("", "0")
PER_SEARCH = 5  # frames kept per search (MAX_FRAMES patched: a quick build, and BFS has more steps than this)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    import tilelab.widgets.search_stepper as module

    board = shuffle(3, 3, rng=4, method="walk", steps=6)
    traces = {"BFS": bfs_trace(board), "A*": astar_trace(board, manhattan)}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(module, "MAX_FRAMES", PER_SEARCH * len(traces))
        mp.setenv("TILELAB_PAGE_FRAMES", "1")  # as when the lessons are executed for the website
        bundle = SearchStepper(traces)._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    v4 = nbformat.v4
    nb = v4.new_notebook(cells=[
        v4.new_markdown_cell("# Lesson 9 · watching searches\n\nBFS and A* on one board, step by step."),
        v4.new_code_cell("stepper = SearchStepper(traces)\nstepper",
                         outputs=[v4.new_output("execute_result", data=data, execution_count=1)])])
    folder = tmp_path_factory.mktemp("lessons")
    nbformat.write(nb, folder / "09_watch.ipynb")
    out = tmp_path_factory.mktemp("site")
    build_site(out / "teacher", folder, edition="teacher", quiet=True)
    return {"root": out, "traces": traces}


@pytest.fixture(scope="module")
def served(site: dict) -> Iterator[str]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(Quiet, directory=str(site["root"])))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()


def test_the_page_keeps_the_stepper_and_says_so(site: dict) -> None:
    page = (site["root"] / "teacher" / "09_watch.html").read_text(encoding="utf-8")
    frames = sum(len(shown_steps(len(t.steps), PER_SEARCH)[0]) for t in site["traces"].values())
    assert page.count('class="tl-stepper"') == 1 and page.count("<figure data-seq=") == frames
    assert 'class="tl-play"' in page and "widget-view+json" not in page


@pytest.mark.browser
def test_a_stepper_reaches_its_last_frame_by_clicks_in_chromium(site: dict, served: str) -> None:
    sys.path.insert(0, str(ROOT / "tests" / "browser"))
    import browserlab as bl

    chromium = bl.find_chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        chromium, reason = None, f"Python Playwright is not installed ({exc})"
    else:
        reason = "Chromium is not installed (Debian: apt-get install chromium)"
    if chromium is None:
        if REQUIRE_BROWSER:
            pytest.fail(f"TILELAB_REQUIRE_BROWSER=1 but the stepper test cannot run: {reason}", pytrace=False)
        pytest.skip(f"BROWSER TEST SKIPPED: {reason}")
    bfs, astar = site["traces"]["BFS"], site["traces"]["A*"]
    bfs_steps, _ = shown_steps(len(bfs.steps), PER_SEARCH)
    astar_steps, _ = shown_steps(len(astar.steps), PER_SEARCH)
    with sync_playwright() as pw:
        browser = bl.launch_chromium(pw, chromium)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            outside, errors = bl.local_only(page, served, allow_data=True)
            page.goto(f"{served}teacher/09_watch.html", wait_until="load", timeout=90_000)
            stepper = page.locator(".tl-stepper")
            shown = stepper.locator("figure:not([hidden]) img")

            def alt() -> str:
                assert shown.count() == 1, "exactly one frame shows"
                return shown.get_attribute("alt")

            assert alt() == plain_text(step_summary("BFS", bfs, 0))
            nxt = stepper.get_by_role("button", name="next")
            for _ in range(len(bfs_steps) - 1):
                nxt.click()
            assert alt() == plain_text(step_summary("BFS", bfs, bfs_steps[-1]))
            assert "goal" in alt() or "moves" in alt()  # the last frame: the search has found the goal
            nxt.click()  # past the last frame: it stays there
            assert alt() == plain_text(step_summary("BFS", bfs, bfs_steps[-1]))
            assert stepper.locator(".tl-live").inner_text().endswith(alt())  # announced to a screen reader
            # keyboard alone: the buttons take focus, arrows step
            stepper.get_by_role("button", name="back").focus()
            page.keyboard.press("Enter")
            assert alt() == plain_text(step_summary("BFS", bfs, bfs_steps[-2]))
            page.keyboard.press("Home")
            assert alt() == plain_text(step_summary("BFS", bfs, 0))
            page.keyboard.press("ArrowRight")
            assert alt() == plain_text(step_summary("BFS", bfs, bfs_steps[1]))
            # the other search, played to its end
            stepper.get_by_label("search").select_option(label="A*")
            assert alt() == plain_text(step_summary("A*", astar, 0))
            play = stepper.get_by_role("button", name="play")
            play.click()
            last = plain_text(step_summary("A*", astar, astar_steps[-1]))
            page.wait_for_function("want => { const i = document.querySelector('.tl-stepper figure:not([hidden]) "
                                   "img'); return i && i.alt === want; }", arg=last, timeout=60_000)
            assert play.get_attribute("aria-pressed") == "false", "play stops at the last frame"
            assert not errors, errors
            assert not outside, f"requests left the site: {outside[:10]}"
        finally:
            browser.close()
