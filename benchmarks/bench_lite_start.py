"""The browser edition's first minute: open a lesson, press Run All, time the first output and the last cell.

    TILELAB_PYODIDE_SOURCE=transport python benchmarks/bench_lite_start.py        # builds the site (offline here)
    python benchmarks/bench_lite_start.py --lite-site lite/ --runs 3 --lesson 01a_2048_merge

A student's first minute in the JupyterLite site: a fresh browser (nothing cached), the lesson opened from the
index, its stored outputs cleared (only this run counts), Run All pressed as soon as the notebook has a kernel
(starting): pressed before that, JupyterLab asks which kernel to use and runs nothing. Seconds from the notebook
showing to its kernel existing, and from Run All to the first output of any cell and to the last cell finished. Two ways, taking turns run by run on the same site (only the kernel's start-up settings
differ, read from ``jupyter-lite.json``): as built (the kernel loads matplotlib's font list made at build time as it
starts) and without that (the kernel starts bare; matplotlib makes its font list in the lesson, and says so).
Medians printed, each run too. Debian's Chromium; every request to another host is blocked.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT))

import browserlab as bl  # noqa: E402
from test_browser_lite import StaticServer  # noqa: E402

KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"

_OPEN_AND_RUN_JS = r"""
async ([path]) => {
  const app = window.jupyterapp;
  await app.started; await app.restored;
  const panel = await app.commands.execute('docmanager:open', {path, factory: 'Notebook'});
  await panel.context.ready; await panel.revealed;
  app.shell.activateById(panel.id);
  window.__tilelabPanel = panel;
  const shownAt = performance.now();
  await app.commands.execute('notebook:clear-all-cell-outputs');  // the stored outputs: only this run's count
  // Run All before the session has a kernel (starting) opens JupyterLab's "Select Kernel" dialog and runs nothing:
  // press it the moment the kernel exists, as a student does who waits for the kernel name in the toolbar
  while (!(panel.sessionContext.session && panel.sessionContext.session.kernel)) {
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  window.__runAllAt = performance.now();
  app.commands.execute('notebook:run-all-cells');
  return (window.__runAllAt - shownAt) / 1000;
}
"""

_PROGRESS_JS = r"""
() => {
  const panel = window.__tilelabPanel;
  const cells = panel.content.widgets.filter(c => c.model.type === 'code' && c.model.sharedModel.getSource().trim());
  const outputs = cells.some(c => c.model.outputs.length > 0);
  const done = cells.every(c => c.model.executionCount !== null) && panel.sessionContext.session &&
               panel.sessionContext.session.kernel && panel.sessionContext.session.kernel.status === 'idle';
  return {now: performance.now() - window.__runAllAt, outputs, done};
}
"""


_STUCK_JS = r"""
() => {
  const panel = window.__tilelabPanel;
  const cells = panel.content.widgets.filter(c => c.model.type === 'code' && c.model.sharedModel.getSource().trim());
  const session = panel.sessionContext.session;
  const dialog = document.querySelector('.jp-Dialog');
  return {cells: cells.length, ran: cells.filter(c => c.model.executionCount !== null).length,
          kernel: session && session.kernel ? session.kernel.status : null,
          dialog: dialog ? dialog.innerText.slice(0, 300) : null};
}
"""


def one_run(browser, server: StaticServer, lesson: str, bare: bool, timeout: float) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})

    def route(r):
        parts = urlsplit(r.request.url)
        if parts.hostname != "127.0.0.1" or parts.port != server.port:
            return r.abort()
        if parts.path != "/jupyter-lite.json":
            return r.continue_()
        response = r.fetch()
        config = response.json()
        data = config.setdefault("jupyter-config-data", {})
        data["exposeAppInBrowser"] = True
        if bare:
            data["litePluginSettings"][KERNEL_PLUGIN].pop("loadPyodideOptions", None)
        return r.fulfill(response=response, body=json.dumps(config),
                         headers={**response.headers, "content-type": "application/json"})

    context.route("**/*", route)
    page = context.new_page()
    try:
        page.goto(server.url("lab/index.html"), wait_until="domcontentloaded", timeout=bl.PAGE_LOAD_TIMEOUT_MS)
        page.wait_for_function("() => window.jupyterapp && window.jupyterapp.commands",
                               timeout=bl.PAGE_LOAD_TIMEOUT_MS)
        waited = page.evaluate(_OPEN_AND_RUN_JS, [f"{lesson}.ipynb"])
        first = None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = page.evaluate(_PROGRESS_JS)
            if first is None and state["outputs"]:
                first = state["now"] / 1000
            if state["done"]:
                return {"session_s": waited, "first_output_s": first or state["now"] / 1000,
                        "last_cell_s": state["now"] / 1000}
            page.wait_for_timeout(100)
        raise TimeoutError(f"{lesson} did not finish within {timeout:.0f} s: {page.evaluate(_STUCK_JS)}")
    finally:
        context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lite-site", type=Path, default=None, help="an already built site (make lite)")
    parser.add_argument("--lesson", default="00_start_here")
    parser.add_argument("--runs", type=int, default=2, help="runs of each way (default 2)")
    parser.add_argument("--timeout", type=float, default=400)
    args = parser.parse_args(argv)
    chromium = bl.find_chromium()
    if chromium is None:
        parser.error("Chromium is not installed (Debian: apt-get install chromium)")
    site = args.lite_site
    if site is None:
        from tilelab.teach.lite import build_lite

        site = Path(tempfile.mkdtemp(prefix="tilelab-bench-lite-")) / "lite"
        tick = time.monotonic()
        summary = build_lite(site, quiet=True)
        print(f"site built in {time.monotonic() - tick:.0f} s ({summary['bytes'] / 1e6:.1f} MB, Pyodide packages from "
              f"{summary['pyodide_source']})", flush=True)
    from playwright.sync_api import sync_playwright

    server = StaticServer(site)
    results: dict[str, list[dict[str, float]]] = {"as built": [], "bare kernel": []}
    print(f"{time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores; {args.lesson}, Run All as soon as its kernel exists",
          flush=True)
    with sync_playwright() as playwright:
        browser = bl.launch_chromium(playwright, chromium)
        try:
            for run in range(args.runs):
                for way in (("as built", "bare kernel") if run % 2 == 0 else ("bare kernel", "as built")):
                    got = one_run(browser, server, args.lesson, way == "bare kernel", args.timeout)
                    results[way].append(got)
                    print(f"  {way:>11}: kernel after {got['session_s']:4.1f} s; from Run All: first output "
                          f"{got['first_output_s']:5.1f} s, last cell "
                          f"{got['last_cell_s']:5.1f} s", flush=True)
        finally:
            browser.close()
            server.stop()
    for way, runs in results.items():
        print(f"{way:>11}: median first output {statistics.median(r['first_output_s'] for r in runs):5.1f} s, "
              f"last cell {statistics.median(r['last_cell_s'] for r in runs):5.1f} s ({len(runs)} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
