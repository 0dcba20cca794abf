"""Fixtures for the browser tests: one JupyterLab server + one Chromium for the whole run.

* No Chromium (or no Playwright) -> every browser test is skipped with a loud banner at the end of
  the run; with ``TILELAB_REQUIRE_BROWSER=1`` (set by ``make test-browser`` and ``.ci/run``) they fail.
* The server serves a temporary copy of ``notebooks/``; tests write their own small notebooks there.
* A failed test leaves a screenshot, the browser console log and the server log tail under
  ``test-artifacts/<test name>/``; the paths are printed in the run's summary.
* Server and browser are shut down right after the last browser test in a row (and at exit, also on
  failure), so the rest of ``make test`` (nbval) runs without them; with ``pytest -n`` a worker that gets
  browser tests again starts them again.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import browserlab as bl  # noqa: E402

REQUIRE_BROWSER = os.environ.get("TILELAB_REQUIRE_BROWSER", "") not in ("", "0")
HERE = Path(__file__).resolve().parent

_skipped_because: list[str] = []
_artifacts: list[str] = []


class _Session:
    """Lazily started JupyterLab server + Chromium, closed after the last browser test."""

    def __init__(self) -> None:
        self.root: Path | None = None
        self.server: bl.LabServer | None = None
        self.playwright: Any = None
        self.browser: Any = None
        self.error: BaseException | None = None

    def start(self) -> None:
        chromium = bl.find_chromium()
        if chromium is None:
            raise bl.BrowserUnavailable("Chromium is not installed (Debian: apt-get install chromium)")
        try:
            from playwright.sync_api import sync_playwright
        except ImportError as exc:
            raise bl.BrowserUnavailable(f"Python Playwright is not installed ({exc}); pip install -e '.[test]'")
        self.root = Path(tempfile.mkdtemp(prefix="tilelab-browser-"))
        bl.copy_notebooks(self.root)
        self.server = bl.LabServer(self.root).start()
        self.playwright = sync_playwright().start()
        self.browser = bl.launch_chromium(self.playwright, chromium)

    def close(self) -> None:
        for step in (lambda: self.browser and self.browser.close(),
                     lambda: self.playwright and self.playwright.stop(),
                     lambda: self.server and self.server.stop()):
            try:
                step()
            except Exception as exc:  # keep closing the rest
                print(f"[browser tests] cleanup step failed: {exc!r}", file=sys.stderr)
        self.browser = self.playwright = self.server = None
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None


_SESSION = _Session()
atexit.register(_SESSION.close)


def _browser_unavailable(reason: str) -> None:
    if REQUIRE_BROWSER:
        pytest.fail(f"TILELAB_REQUIRE_BROWSER=1 but the browser tests cannot run: {reason}", pytrace=False)
    if reason not in _skipped_because:
        _skipped_because.append(reason)
    pytest.skip(f"BROWSER TESTS SKIPPED: {reason}")


def _started() -> _Session:
    """The shared server + browser, started on first use, and again after :func:`pytest_runtest_teardown` closed
    them (with ``pytest -n``, a worker may get browser tests again after running others)."""
    if _SESSION.error is not None:
        if isinstance(_SESSION.error, bl.BrowserUnavailable):
            _browser_unavailable(str(_SESSION.error))
        raise _SESSION.error
    if _SESSION.server is None:
        try:
            _SESSION.start()
        except bl.BrowserUnavailable as exc:
            _SESSION.error = exc
            _SESSION.close()
            _browser_unavailable(str(exc))
        except BaseException as exc:
            _SESSION.error = exc
            _SESSION.close()
            raise
    return _SESSION


@pytest.fixture
def lab_session() -> _Session:
    """The shared server + browser (started on first use)."""
    return _started()


@pytest.fixture
def lab_server(lab_session: _Session) -> bl.LabServer:
    assert lab_session.server is not None
    return lab_session.server


def _new_tab(lab_session: _Session, name: str) -> tuple[Any, bl.LabPage]:
    context = lab_session.browser.new_context(viewport={"width": 1280, "height": 1000}, device_scale_factor=1)
    return context, bl.LabPage(context.new_page(), lab_session.server, name=name)


def _failed(node: pytest.Item) -> bool:
    return any(getattr(node, f"rep_{when}", None) is not None and getattr(node, f"rep_{when}").failed
               for when in ("setup", "call"))


@pytest.fixture
def lab(request: pytest.FixtureRequest, lab_session: _Session) -> Iterator[bl.LabPage]:
    """A fresh browser tab (and kernel) on the shared JupyterLab; artifacts kept if the test fails."""
    already = lab_session.server.kernel_ids()  # e.g. a module's shared tab: leave its kernel alone
    context, labpage = _new_tab(lab_session, request.node.name)
    try:
        yield labpage
    finally:
        if _failed(request.node):
            _save_artifacts(request.node, labpage, lab_session.server)
        try:
            context.close()
        finally:
            lab_session.server.shutdown_kernels(keep=already)


@pytest.fixture(scope="module")
def _module_tab() -> Iterator[dict]:
    lab_session = _started()
    context, labpage = _new_tab(lab_session, "module")
    holder = {"lab": labpage, "opened": None}
    try:
        yield holder
    finally:
        try:
            context.close()
        finally:
            if lab_session.server is not None:
                lab_session.server.shutdown_kernels()


@pytest.fixture
def board_lab(request: pytest.FixtureRequest, _module_tab: dict, lab_session: _Session) -> Iterator[dict]:
    """One tab and kernel shared by a test module (boards are rebuilt per test by re-running the
    notebook: saves a page load and a kernel start per test); artifacts kept if a test fails."""
    labpage: bl.LabPage = _module_tab["lab"]
    labpage.name = request.node.name
    mark = len(labpage.console)
    try:
        yield _module_tab
    finally:
        if _failed(request.node):
            _save_artifacts(request.node, labpage, lab_session.server, since=mark)
            _module_tab["opened"] = None  # start the next test from a fresh notebook and kernel


@pytest.fixture
def notebook_dir(lab_session: _Session) -> Path:
    """Folder (inside the served root) where a test writes its own notebooks."""
    assert lab_session.root is not None
    path = lab_session.root / "browser-tests"
    path.mkdir(exist_ok=True)
    return path


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:120]


def _save_artifacts(item: pytest.Item, labpage: bl.LabPage, server: bl.LabServer, since: int = 0) -> None:
    folder = bl.ARTIFACTS / _safe(item.name)
    folder.mkdir(parents=True, exist_ok=True)
    saved = []
    try:
        saved.append(str(labpage.screenshot(folder / "screenshot.png")))
    except Exception as exc:
        (folder / "screenshot-error.txt").write_text(repr(exc))
    try:
        for index in range(labpage.page.locator(".jp-OutputArea-output canvas").count()):
            shot = folder / f"canvas-{index}.png"
            labpage.canvas_locator(index).screenshot(path=str(shot), timeout=10_000)
            saved.append(str(shot))
    except Exception:
        pass
    console = folder / "console.log"
    console.write_text("\n".join(labpage.console[since:] + [f"[pageerror] {e}" for e in labpage.page_errors]) + "\n")
    saved.append(str(console))
    server_log = folder / "jupyterlab.log"
    server_log.write_text(server.log_tail(400) + "\n")
    saved.append(str(server_log))
    _artifacts.append(f"{item.nodeid}:\n    " + "\n    ".join(saved))
    print("\n[browser tests] failure artifacts:\n    " + "\n    ".join(saved), file=sys.stderr)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


def _is_browser_item(item: pytest.Item | None) -> bool:
    return item is not None and Path(str(item.fspath)).resolve().parent == HERE


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test in this folder is a browser test (marked, so ``-m 'not browser'`` drops them)."""
    for item in items:
        if _is_browser_item(item) and "browser" not in item.keywords:
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(trylast=True)  # after the fixtures' own teardown
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Close server and browser as soon as the last browser test is done (the run goes on)."""
    if _is_browser_item(item) and not _is_browser_item(nextitem):
        _SESSION.close()


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    if _skipped_because:
        bar = "!" * 78
        terminalreporter.write_line(bar, red=True, bold=True)
        terminalreporter.write_line("BROWSER TESTS SKIPPED -- the boards were NOT played in a browser:", red=True,
                                    bold=True)
        for reason in _skipped_because:
            terminalreporter.write_line(f"  {reason}", red=True)
        terminalreporter.write_line("  Install Chromium (apt-get install chromium) or set TILELAB_REQUIRE_BROWSER=1 "
                                    "to make this a failure.", red=True)
        terminalreporter.write_line(bar, red=True, bold=True)
    if _artifacts:
        terminalreporter.section("browser test artifacts (screenshots, console logs)")
        for entry in _artifacts:
            terminalreporter.write_line(entry)
