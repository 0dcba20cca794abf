"""Input-to-redraw latency of every playable board, measured in a real Chromium on JupyterLab.

For each board: open a notebook that shows it, then 100 times: wait until the canvas is still,
do one input that must change the picture (a legal key for 2048 and the sliding puzzle, a click
that selects/deselects a candy for match-3), and time from the input event's ``timeStamp`` in
the page to the first draw call that changes the canvas pixels (drawImage/putImageData hooked,
checked against a pixel checksum; rAF polling as a fallback). Prints p50 / p95 / max per board.

Side by side in the same run:
  * ``echo`` -- a bare ipycanvas canvas that repaints itself on every key: the floor set by the
    browser -> server -> kernel -> browser round trip, no tilelab code at all;
  * each board on the stock JupyterLab server (tilelab's extension switched off with
    TILELAB_NODELAY=0), and on the server a student gets with tilelab installed: its server
    extension ``tilelab.server_nodelay`` sends kernel websocket frames at once (TCP_NODELAY; stock
    jupyter_server leaves Nagle's algorithm on, which on loopback costs ~40 ms per round trip);
  * with ``--lite``, each board in the JupyterLite site (``make lite``): the kernel is Pyodide in a
    web worker of the same tab, no server and no socket (the site is built once, or taken from
    ``--lite-site DIR``, and served on 127.0.0.1; requests to any other host are blocked).

Usage: .venv/bin/python benchmarks/bench_browser.py [--presses 100] [--boards echo,2048,...] [--stock-only]
       [--lite [--lite-site lite/]]
Needs Debian's Chromium (/usr/bin/chromium); never downloads a browser.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import browserlab as bl  # noqa: E402

TARGET_P95_MS = 50.0  #: the goal for a 4x4 2048 board
KEY_OF = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}

ECHO = """
import ipycanvas
presses = [0]
board = ipycanvas.MultiCanvas(3, width=400, height=400)
board.layout.width = board.layout.height = '400px'
def on_key(key, *modifiers):
    presses[0] += 1
    layer = board[1]
    layer.clear()
    layer.fill_style = '#%02x8040' % (presses[0] % 256)
    layer.fill_rect(0, 0, 400, 400)
board.on_key_down(on_key)
for i, colour in enumerate(('#bbada0', '#cdc1b4', '#eee4da')):  # a frame to start from
    board[0].fill_style = colour
    board[0].fill_rect(0, 0, 400 - 40 * i, 400 - 40 * i)
board
"""

GAME2048 = """
from tilelab.widgets.game2048 import Game2048Widget
board = Game2048Widget(rng=7)
def next_key():
    if board.game.over or board.banner is not None:
        board.new_game()
    legal = {d.value for d in board.game.legal_moves()}
    return next(d for d in ("down", "left", "right", "up") if d in legal)
board
"""

SLIDING = """
from tilelab.widgets.sliding import SlidingWidget
board = SlidingWidget(4, rng=7, px=400)
_turn = [0]
def next_key():
    if board.board.is_goal() or board.finished is not None:
        board.shuffle_board()
    legal = [d for d in ("up", "left", "down", "right") if board.board.tile_for(d) is not None]
    _turn[0] += 1
    return legal[_turn[0] % len(legal)]
board
"""

GAME2048_AI = """
from tilelab.widgets.game2048_ai import Game2048AIWidget
ai = Game2048AIWidget(rng=7)
board = ai.board
def next_key():
    if board.game.over or board.banner is not None:
        board.new_game()
    legal = {d.value for d in board.game.legal_moves()}
    return next(d for d in ("down", "left", "right", "up") if d in legal)
ai
"""

MATCH3 = """
from tilelab.widgets.match3 import Match3Widget
board = Match3Widget(8, 8, 6, rng=7, idle_hint_s=1e9)
board
"""


@dataclass
class Spec:
    name: str
    cells: list[str]
    kind: str  # "key" (kernel function next_key() names a direction), "echo" (any key), "click"
    module: str | None = None


SPECS = {
    "echo": Spec("echo (bare ipycanvas)", [ECHO], "echo"),
    "2048": Spec("2048 4x4", [GAME2048], "key", "tilelab.widgets.game2048"),
    "sliding": Spec("sliding 4x4", [SLIDING], "key", "tilelab.widgets.sliding"),
    "match3": Spec("match-3 8x8 (click)", [MATCH3], "click", "tilelab.widgets.match3"),
    "2048ai": Spec("2048 + AI panel (keys)", [GAME2048_AI], "key", "tilelab.widgets.game2048_ai"),
}


def available(spec: Spec) -> bool:
    if spec.module is None:
        return True
    import importlib.util

    return importlib.util.find_spec(spec.module) is not None


def measure(lab: bl.LabPage, notebook_dir: Path | None, key: str, spec: Spec, presses: int) -> list[float]:
    """Latencies (ms) of ``presses`` inputs on board ``key``; ``notebook_dir`` None: a JupyterLite tab."""
    if notebook_dir is None:  # JupyterLite: the notebook lives in the browser's own storage
        lab.write_notebook(f"bench_{key}.ipynb", spec.cells)
        lab.open_notebook(f"bench_{key}.ipynb")
        lab.run_all()
        errors = lab.error_outputs()
        if errors:
            raise AssertionError("the board notebook raised:\n" + "\n".join(errors))
        view = bl.BoardView(lab).wait_drawn()
    else:
        view = bl.open_board(lab, notebook_dir, f"bench_{key}.ipynb", spec.cells)
    view.focus()
    view.settle()
    latencies: list[float] = []
    misses = 0
    for i in range(presses + 3):  # the first three warm up (JIT, caches) and are not counted
        view.settle(timeout=15, quiet_frames=4)
        act: Callable[[], None]
        if spec.kind == "echo":
            act = lambda: view.press("ArrowLeft")  # noqa: E731
        elif spec.kind == "key":
            direction = lab.kernel_json("next_key()")
            view.settle(timeout=15, quiet_frames=4)  # next_key() may have dealt a new board
            act = lambda d=direction: view.press(KEY_OF[d])  # noqa: E731
        else:
            act = lambda: view.click(125, 175)  # noqa: E731  -- select / deselect candy (3, 2)
        value = bl.timed_input(lab, act, timeout=5.0, canvas=view.canvas)
        if value is None:
            misses += 1
        elif i >= 3:
            latencies.append(value)
    if misses:
        print(f"    ({misses} inputs drew nothing within 5 s)")
    return latencies


def run(nodelay: bool, keys: list[str], presses: int, chromium: str) -> dict[str, list[float]]:
    from playwright.sync_api import sync_playwright

    root = Path(tempfile.mkdtemp(prefix="tilelab-bench-"))
    server = bl.LabServer(root, nodelay=nodelay)
    results: dict[str, list[float]] = {}
    try:
        server.start()
        if nodelay:
            log = server.log_path.read_text(errors="replace") if server.log_path else ""
            how = "tilelab's server extension" if "TCP_NODELAY" in log else "a test config file (extension not installed)"
            print(f"   TCP_NODELAY set by {how}", flush=True)
        with sync_playwright() as playwright:
            browser = bl.launch_chromium(playwright, chromium)
            try:
                for key in keys:
                    spec = SPECS[key]
                    context = browser.new_context(viewport={"width": 1280, "height": 1000})
                    lab = bl.LabPage(context.new_page(), server, name=key)
                    try:
                        results[key] = measure(lab, root / "bench", key, spec, presses)
                    finally:
                        context.close()
                        server.shutdown_kernels()
            finally:
                browser.close()
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
    return results


def run_lite(keys: list[str], presses: int, chromium: str, site: Path | None) -> dict[str, list[float]]:
    """Every board in a JupyterLite tab (Pyodide kernel): ``site`` served on 127.0.0.1, or built first."""
    from urllib.parse import urlsplit

    from playwright.sync_api import sync_playwright
    from test_browser_lite import LitePage, StaticServer, _patch_config

    tmp = None
    if site is None:
        from tilelab.teach.lite import build_lite

        tmp = Path(tempfile.mkdtemp(prefix="tilelab-bench-lite-"))
        t0 = time.monotonic()
        build_lite(tmp / "lite", quiet=True)
        site = tmp / "lite"
        print(f"   lite site built in {time.monotonic() - t0:.0f} s", flush=True)
    server = StaticServer(site)
    foreign: list[str] = []

    def route(r) -> None:
        parts = urlsplit(r.request.url)
        if parts.scheme in ("data", "blob") or (parts.hostname == "127.0.0.1" and parts.port == server.port):
            return _patch_config(r) if parts.path == "/jupyter-lite.json" else r.continue_()
        foreign.append(r.request.url)
        return r.abort()

    results: dict[str, list[float]] = {}
    try:
        with sync_playwright() as playwright:
            browser = bl.launch_chromium(playwright, chromium)
            try:
                for key in keys:
                    context = browser.new_context(viewport={"width": 1280, "height": 1000})
                    context.route("**/*", route)
                    lab = LitePage(context.new_page(), server, name=key)
                    try:
                        results[key] = measure(lab, None, key, SPECS[key], presses)
                    finally:
                        context.close()
            finally:
                browser.close()
    finally:
        server.stop()
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    if foreign:
        print(f"   WARNING: {len(foreign)} requests to other hosts were blocked, e.g. {foreign[0]}")
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=100)
    parser.add_argument("--boards", default=",".join(SPECS), help=f"comma-separated from {list(SPECS)}")
    parser.add_argument("--stock-only", action="store_true", help="skip the TCP_NODELAY comparison run")
    parser.add_argument("--lite", action="store_true", help="also measure every board in the JupyterLite site")
    parser.add_argument("--lite-site", type=Path, default=None,
                        help="an already built lite site (make lite) instead of building one")
    args = parser.parse_args()
    if args.lite_site is not None and not (args.lite_site / "jupyter-lite.json").is_file():
        parser.error(f"--lite-site {args.lite_site} has no jupyter-lite.json: build it with make lite OUT=...")
    chromium = bl.find_chromium()
    if chromium is None:
        print("SKIPPED: Chromium not found (apt-get install chromium); no browser latency measured")
        return 0
    keys = []
    for key in args.boards.split(","):
        if key not in SPECS:
            parser.error(f"unknown board {key!r}; choose from {list(SPECS)}")
        if available(SPECS[key]):
            keys.append(key)
        else:
            print(f"skipping {key}: {SPECS[key].module} is not in the package yet")
    runs: list[tuple[str, bool | None]] = [("stock server", False)]
    runs += [] if args.stock_only else [("TCP_NODELAY", True)]  # TCP_NODELAY = tilelab's
    runs += [("JupyterLite", None)] if args.lite or args.lite_site else []  # None: no server at all
    table: dict[str, dict[str, list[float]]] = {}
    for label, nodelay in runs:
        t0 = time.monotonic()
        print(f"== {label}: {args.presses} inputs per board ...", flush=True)
        if nodelay is None:
            table[label] = run_lite(keys, args.presses, chromium, args.lite_site)
        else:
            table[label] = run(nodelay, keys, args.presses, chromium)
        print(f"   ({time.monotonic() - t0:.0f} s)")
    print()
    print(f"input -> first redraw latency in Chromium, ms ({args.presses} inputs each; Chromium {chromium})")
    header = f"{'board':24s}" + "".join(f"{label + ' p50/p95/max':>30s}" for label, _ in runs)
    print(header)
    for key in keys:
        row = f"{SPECS[key].name:24s}"
        for label, _ in runs:
            values = table[label].get(key, [])
            if values:
                row += f"{bl.percentile(values, 50):>12.1f}{bl.percentile(values, 95):>9.1f}{max(values):>9.1f}"
            else:
                row += f"{'-':>30s}"
        print(row)
    if "echo" in keys:
        print()
        for label, _ in runs:
            if not table[label].get("echo"):
                continue
            floor = bl.percentile(table[label]["echo"], 50)
            ratios = ", ".join(f"{SPECS[k].name} x{bl.percentile(table[label][k], 50) / floor:.2f}"
                               for k in keys if k != "echo" and table[label].get(k))
            print(f"p50 relative to bare ipycanvas ({label}): {ratios}")
    label = [name for name, nodelay in runs if nodelay is not None][-1]
    print()
    for key in keys:
        if key == "echo" or not table[label].get(key):
            continue
        p95 = bl.percentile(table[label][key], 95)
        verdict = "meets" if p95 < TARGET_P95_MS else "MISSES"
        print(f"{SPECS[key].name} p95 ({label}): {p95:.1f} ms -- {verdict} the {TARGET_P95_MS:.0f} ms goal")
        if table.get("JupyterLite", {}).get(key):
            lite = table["JupyterLite"][key]
            print(f"{'':{len(SPECS[key].name)}s} in JupyterLite: p50 {bl.percentile(lite, 50):.1f} ms, p95 "
                  f"{bl.percentile(lite, 95):.1f} ms (x{bl.percentile(lite, 50) / bl.percentile(table[label][key], 50):.2f} "
                  f"the p50 on {label})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
