"""Boards every student can use, in a real JupyterLab in Chromium.

* a move is announced: the board's ``aria-live="polite"`` region (``.tilelab-announce``) says what it did;
* the keyboard alone plays, with a visible focus ring, and Tab / Shift+Tab move the focus on and back (ipycanvas
  keeps every other key; the page script in ``tilelab.widgets.base`` lets Tab through);
* axe-core (``axe-playwright-python``) finds no serious or critical violation in what the course puts on the page
  (cell outputs, boards, lesson text) of a lesson after Run All. Violations in JupyterLab's own interface are
  listed, not failed: they are JupyterLab's. Every result is written to ``test-artifacts/axe/``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import browserlab as bl

pytestmark = pytest.mark.browser

SETUP = "from tilelab.widgets import Game2048Widget\nboard = Game2048Widget(size=4, rng=3)"

LIVE_TEXT_JS = """o => { const r = o.querySelector('[aria-live="polite"]'); return r ? r.textContent : null; }"""

ACTIVE_JS = """o => { const a = document.activeElement; if (!a) return 'none';
  return (o.contains(a) ? 'board:' : 'outside:') + a.tagName + (a.textContent ? ':' + a.textContent.trim() : ''); }"""


def _moves(lab: bl.LabPage) -> int:
    return int(lab.kernel_json("board.game.moves_played"))


def test_a_move_is_announced_in_the_live_region(lab: bl.LabPage, notebook_dir: Path) -> None:
    view = bl.open_board(lab, notebook_dir, "a11y_announce.ipynb", [SETUP, "board"])
    view.focus()
    canvas = view.scope.locator("canvas").last
    described = canvas.evaluate("c => [c.getAttribute('role'), c.getAttribute('aria-describedby'),"
                                " !!document.getElementById(c.getAttribute('aria-describedby'))]")
    assert described[0] == "application" and described[2], described
    legal = lab.kernel_json("[d.value for d in board.game.legal_moves()]")
    view.press({"left": "ArrowLeft", "up": "ArrowUp", "right": "ArrowRight", "down": "ArrowDown"}[legal[0]])
    lab.wait_for(lambda: _moves(lab) or None, 20, "the key to make a move")
    said = lab.wait_for(lambda: (view.scope.evaluate(LIVE_TEXT_JS) or "").strip() or None, 20,
                        "the move's announcement in the aria-live region")
    score = lab.kernel_json("board.game.score")
    assert said.startswith("slid ") and f"score {score}" in said and "row 4:" in said, said
    region = view.scope.locator('[aria-live="polite"]')
    assert region.get_attribute("role") == "status"
    box = region.bounding_box()
    assert box is not None and box["width"] <= 2 and box["height"] <= 2  # for screen readers, not the eye
    # sound: none until the Sound toggle is on; then the next move's tone reaches an <audio> element
    assert view.scope.locator("audio").count() == 0
    view.click_button("Sound")
    lab.wait_for(lambda: lab.kernel_json("board.sound_on") or None, 20, "the Sound toggle on")
    moves = _moves(lab)
    view.focus()
    legal = lab.kernel_json("[d.value for d in board.game.legal_moves()]")
    view.press({"left": "ArrowLeft", "up": "ArrowUp", "right": "ArrowRight", "down": "ArrowDown"}[legal[0]])
    lab.wait_for(lambda: _moves(lab) > moves or None, 20, "a move with sound on")
    audio = view.scope.locator("audio")
    lab.wait_for(lambda: audio.count() and (audio.first.get_attribute("src") or "").startswith("blob:") or None, 20,
                 "the move's tone loaded in the board's audio element")
    assert lab.kernel_json("board.last_sound") in ("move", "merge")
    assert lab.widget_errors() == []


def test_tab_leaves_the_board_and_shift_tab_comes_back(lab: bl.LabPage, notebook_dir: Path) -> None:
    view = bl.open_board(lab, notebook_dir, "a11y_tab.ipynb", [SETUP, "board"])
    view.focus()
    canvas = view.canvas
    ring = canvas.evaluate("c => { const s = getComputedStyle(c); return [s.outlineStyle, s.outlineWidth]; }")
    assert ring[0] == "solid" and float(ring[1].rstrip("px")) >= 2, ring  # the focus is visible
    before = _moves(lab)
    view.press("Tab")
    lab.wait_for(lambda: not canvas.evaluate("c => document.activeElement === c") or None, 10,
                 "Tab to move the focus off the canvas")
    where = view.scope.evaluate(ACTIVE_JS)
    assert where.startswith("board:BUTTON"), where  # the next control: the board's first button
    view.press("Shift+Tab")
    lab.wait_for(lambda: canvas.evaluate("c => document.activeElement === c") or None, 10,
                 "Shift+Tab to bring the focus back to the board")
    assert _moves(lab) == before  # Tab and Shift+Tab moved no tile
    legal = lab.kernel_json("[d.value for d in board.game.legal_moves()]")
    view.press({"left": "ArrowLeft", "up": "ArrowUp", "right": "ArrowRight", "down": "ArrowDown"}[legal[0]])
    lab.wait_for(lambda: _moves(lab) > before or None, 20, "the keys to play again after Tab and back")
    lab.page.wait_for_timeout(500)
    assert lab.widget_errors() == []


# --------------------------------------------------------------------------------------------- axe-core
OURS_JS = """targets => targets.map(t => {
  const sel = Array.isArray(t) ? t[t.length - 1] : t;
  let el = null;
  try { el = document.querySelector(sel); } catch (e) { return 'unknown'; }
  if (!el) return 'unknown';
  return el.closest('.jp-OutputArea, .jp-RenderedMarkdown, .jp-MarkdownOutput, .tilelab-board') ? 'ours' : 'jupyterlab';
})"""


def axe_report(page, name: str) -> dict:
    """Run axe-core on ``page``; sort each violation's nodes into ours (course content) and JupyterLab's."""
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright",
                                     reason="axe-playwright-python is in the test extra")
    results = axe_module.Axe().run(page).response
    report = {"page": name, "url": page.url, "violations": []}
    for v in results.get("violations", []):
        owners = page.evaluate(OURS_JS, [n["target"] for n in v["nodes"]])
        report["violations"].append({
            "id": v["id"], "impact": v["impact"], "help": v["help"],
            "ours": [n["html"][:200] for n, o in zip(v["nodes"], owners) if o == "ours"],
            "unknown": [n["html"][:200] for n, o in zip(v["nodes"], owners) if o == "unknown"],  # counted as ours
            "jupyterlab": len([o for o in owners if o == "jupyterlab"]),
        })
    folder = bl.ARTIFACTS / "axe"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps({"summary": report, "raw": results.get("violations", [])},
                                                    indent=1))
    return report


def _serious_ours(report: dict) -> list[dict]:
    return [v for v in report["violations"] if v["impact"] in ("serious", "critical") and (v["ours"] or v["unknown"])]


def test_axe_finds_no_serious_violation_of_ours_in_a_lesson(lab: bl.LabPage) -> None:
    lab.open_notebook("00_start_here.ipynb")
    lab.run_all()
    assert lab.error_outputs() == []
    lab.wait_widgets_rendered()
    bl.BoardView(lab).wait_drawn()
    lab.page.locator(".jp-OutputArea-output canvas").first.click(position={"x": 2, "y": 2})  # boards made ready
    lab.page.wait_for_timeout(1000)
    report = axe_report(lab.page, "jupyterlab-00_start_here")
    print(json.dumps(report, indent=1))
    assert _serious_ours(report) == [], _serious_ours(report)


# ------------------------------------------------------------------- axe-core on the course's web site
SITE_PAGES = ("index", "00_start_here", "04a_sliding_search")  # the front page, a page with a board, one with a stepper


@pytest.fixture(scope="module")
def student_site(tmp_path_factory: pytest.TempPathFactory):
    """The student site built by ``python -m tilelab.teach site`` and served on 127.0.0.1."""
    import functools
    import http.server
    import threading

    from tilelab.teach.__main__ import main as teach_main

    out = tmp_path_factory.mktemp("site")
    # with a lite site's address: the board's page also has its "Play this board here" button
    assert teach_main(["site", str(out), "--notebooks", str(bl.NOTEBOOKS), "--edition", "student",
                       "--student-lite-url", "../lite/"]) == 0

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/student/"
    finally:
        server.shutdown()


def test_axe_finds_no_serious_violation_on_site_pages(lab_session, student_site: str) -> None:
    """Every element of a site page is the course's own: any serious or critical violation counts."""
    context = lab_session.browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        failures = {}
        for name in SITE_PAGES:
            page.goto(student_site + f"{name}.html", wait_until="load", timeout=bl.PAGE_LOAD_TIMEOUT_MS)
            report = axe_report(page, f"site-{name}")
            print(json.dumps(report, indent=1))
            serious = [v for v in report["violations"] if v["impact"] in ("serious", "critical")]
            if serious:
                failures[name] = serious
        assert failures == {}, failures
    finally:
        context.close()
