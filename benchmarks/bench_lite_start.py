"""The browser edition's first minute: seconds from opening a lesson's address to its first output, first visit
and second (cached) visit, on a quiet machine and with every core busy.

    TILELAB_PYODIDE_SOURCE=transport python benchmarks/bench_lite_start.py        # builds the site (offline here)
    python benchmarks/bench_lite_start.py --lite-site lite/ --runs 3 --lesson 01a_2048_merge --conditions quiet

What a student does: open ``lab/index.html?path=LESSON.ipynb`` (the site's index links each lesson so), press Run
All as soon as the notebook has a kernel (pressed before that, JupyterLab asks which kernel to use and runs
nothing), and wait for the first output. The lesson's stored outputs are cleared first (only this run's count).
The clock starts when the browser starts loading the address (``performance.now()`` counts from there). Each run is
a fresh browser profile: its first visit fetches everything, its second (a new tab in the same profile, as next
week's class) finds what the browser cached. Busy: one process per core spinning for the whole measurement (the
lecture hall's laptop running other things). Medians of the runs, each run too; the date and commit head the figures.
Debian's Chromium; every request to another host fails (a resolver rule; routing requests through Playwright
would switch the browser's cache off) and is counted.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT))

import browserlab as bl  # noqa: E402
from baseline import head_commit  # noqa: E402  (benchmarks/baseline.py)
from test_browser_lite import StaticServer  # noqa: E402

_RUN_ALL_WHEN_READY_JS = r"""
async () => {
  const app = window.jupyterapp;
  await app.started; await app.restored;
  let panel = null;
  while (!(panel = app.shell.currentWidget) || !panel.content || !panel.sessionContext) {
    await new Promise(resolve => setTimeout(resolve, 20));
  }
  await panel.context.ready; await panel.revealed;
  window.__tilelabPanel = panel;
  const shownAt = performance.now();
  await app.commands.execute('notebook:clear-all-cell-outputs');  // the stored outputs: only this run's count
  while (!(panel.sessionContext.session && panel.sessionContext.session.kernel)) {
    await new Promise(resolve => setTimeout(resolve, 20));
  }
  window.__runAllAt = performance.now();
  app.commands.execute('notebook:run-all-cells');
  return {shown: shownAt / 1000, run_all: window.__runAllAt / 1000};
}
"""

_PROGRESS_JS = r"""
() => {
  const panel = window.__tilelabPanel;
  const cells = panel.content.widgets.filter(c => c.model.type === 'code' && c.model.sharedModel.getSource().trim());
  const outputs = cells.some(c => c.model.outputs.length > 0);
  const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
  const done = cells.every(c => c.model.executionCount !== null) && kernel && kernel.status === 'idle';
  return {now: performance.now() / 1000, outputs, done};
}
"""


def _spin() -> None:  # pragma: no cover - runs in a child process until terminated
    while True:
        pass


class Busy:
    """One spinning process per core while the block runs (``on=False``: nothing)."""

    def __init__(self, on: bool) -> None:
        self.on = on
        self.procs: list[multiprocessing.Process] = []

    def __enter__(self) -> "Busy":
        if self.on:
            self.procs = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(os.cpu_count() or 1)]
            for proc in self.procs:
                proc.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            proc.join()


def one_visit(context: Any, server: StaticServer, lesson: str, timeout: float, foreign: list[str]) -> dict[str, float]:
    """Open the lesson's address in a new tab of ``context``, Run All when it can; seconds from the address."""
    page = context.new_page()

    def count(request: Any) -> None:
        parts = urlsplit(request.url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.port != server.port:
            foreign.append(request.url)

    page.on("request", count)
    try:
        page.goto(server.url(f"lab/index.html?path={lesson}.ipynb"), wait_until="domcontentloaded",
                  timeout=bl.PAGE_LOAD_TIMEOUT_MS)
        page.wait_for_function("() => window.jupyterapp && window.jupyterapp.commands",
                               timeout=bl.PAGE_LOAD_TIMEOUT_MS)
        marks = page.evaluate(_RUN_ALL_WHEN_READY_JS)
        first = None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = page.evaluate(_PROGRESS_JS)
            if first is None and state["outputs"]:
                first = state["now"]
            if state["done"]:
                return {"shown_s": marks["shown"], "run_all_s": marks["run_all"],
                        "first_output_s": first or state["now"], "last_cell_s": state["now"]}
            page.wait_for_timeout(50)
        raise TimeoutError(f"{lesson} did not finish within {timeout:.0f} s of opening")
    finally:
        page.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lite-site", type=Path, default=None, help="an already built site (make lite)")
    parser.add_argument("--lesson", default="00_start_here")
    parser.add_argument("--runs", type=int, default=3, help="fresh browser profiles per condition (default 3)")
    parser.add_argument("--conditions", default="quiet,busy", help="quiet, busy or both (default quiet,busy)")
    parser.add_argument("--timeout", type=float, default=400)
    args = parser.parse_args(argv)
    conditions = [c.strip() for c in args.conditions.split(",") if c.strip()]
    if not conditions or set(conditions) - {"quiet", "busy"}:
        parser.error(f"--conditions takes quiet, busy or quiet,busy, not {args.conditions!r}")
    chromium = bl.find_chromium()
    if chromium is None:
        parser.error("Chromium is not installed (Debian: apt-get install chromium)")
    site = args.lite_site
    if site is None:
        from tilelab.teach.lite import build_lite

        site = Path(tempfile.mkdtemp(prefix="tilelab-bench-lite-")) / "lite"
        tick = time.monotonic()
        summary = build_lite(site, quiet=True, pyodide_source=os.environ.get("TILELAB_PYODIDE_SOURCE"))
        print(f"site built in {time.monotonic() - tick:.0f} s ({summary['bytes'] / 1e6:.1f} MB)", flush=True)
    from playwright.sync_api import sync_playwright

    server = StaticServer(site)
    foreign: list[str] = []
    results: dict[tuple[str, str], list[dict[str, float]]] = {}
    print(f"{time.strftime('%Y-%m-%d %H:%M')}, commit {head_commit()}, {os.cpu_count()} cores; {args.lesson}: seconds "
          "from opening its address", flush=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, headless=True, timeout=60_000,
            args=bl.chromium_args() + ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"])
        try:
            for condition in conditions:
                with Busy(condition == "busy"):
                    for run in range(args.runs):
                        context = browser.new_context(viewport={"width": 1280, "height": 800})
                        try:
                            for visit in ("first visit", "second visit"):
                                got = one_visit(context, server, args.lesson, args.timeout, foreign)
                                results.setdefault((condition, visit), []).append(got)
                                print(f"  {condition:>5}, {visit}: notebook shown {got['shown_s']:5.1f}, Run All "
                                      f"{got['run_all_s']:5.1f}, first output {got['first_output_s']:5.1f}, last "
                                      f"cell {got['last_cell_s']:5.1f}", flush=True)
                        finally:
                            context.close()
        finally:
            browser.close()
            server.stop()
    for (condition, visit), runs in results.items():
        med = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
        print(f"{condition:>5}, {visit:>12}: median first output {med['first_output_s']:5.1f} s (notebook shown "
              f"{med['shown_s']:4.1f}, Run All {med['run_all_s']:4.1f}, last cell {med['last_cell_s']:5.1f}; "
              f"{len(runs)} runs)")
    print(f"requests to other hosts: {len(foreign)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
