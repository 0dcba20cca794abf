"""Drive a real JupyterLab in Debian's Chromium: server, browser, notebook and board helpers.

Used by ``tests/browser`` (pytest fixtures in ``conftest.py``) and by ``benchmarks/bench_browser.py``.
Every wait is on a condition with a bounded timeout; nothing here sleeps blindly.

Flow: :class:`LabServer` serves a temporary copy of ``notebooks/`` on 127.0.0.1 with a random token;
:func:`launch_chromium` starts the system Chromium through Playwright (never a downloaded build);
:class:`LabPage` opens a notebook in JupyterLab, waits for a kernel that really answers, runs cells
through JupyterLab's own commands, evaluates code in the notebook's kernel and reads the canvas pixels.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
ARTIFACTS = ROOT / "test-artifacts"

#: Where Debian puts Chromium; TILELAB_CHROMIUM overrides.
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
CHROMIUM_ARGS = (
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-gpu",
    "--no-first-run",
    "--disable-quic",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-dev-shm-usage",
    "--mute-audio",
)

SERVER_START_TIMEOUT_S = 90.0
KERNEL_READY_TIMEOUT_S = 120.0
PAGE_LOAD_TIMEOUT_MS = 90_000
RUN_ALL_TIMEOUT_S = 240.0
KERNEL_EVAL_TIMEOUT_S = 60.0
POLL_S = 0.05

#: Console messages JupyterLab prints in a healthy session (no network, fresh settings).
BENIGN_CONSOLE = (
    re.compile(r"Failed to load resource.*(favicon|/lab/api/(news|update)|translations)", re.I),
    re.compile(r"/api/(kernels|sessions)/[^ ]*.*404"),
)
#: Console/DOM text that means a widget failed to load, render or handle a message.
WIDGET_ERROR = re.compile(
    r"(Error displaying widget|Failed to load model class|Could not create (a )?(model|view)|"
    r"Error (rendering|setting state|creating widget|handling)|Class [\w]+ not found in module|"
    r"Model not found|Error while sending|Click to show javascript error|No version of module|"
    r"jupyter-widgets/jupyterlab-manager/.*\n?.*Error|Error: .*ipycanvas)",
    re.I,
)


class BrowserUnavailable(RuntimeError):
    """Chromium or Playwright is missing on this machine."""


# --------------------------------------------------------------------------------------- chromium
def find_chromium() -> str | None:
    """Path of the system Chromium (TILELAB_CHROMIUM, then Debian's paths, then PATH), or None."""
    override = os.environ.get("TILELAB_CHROMIUM")
    if override:
        return override if os.access(override, os.X_OK) else None
    for candidate in CHROMIUM_CANDIDATES:
        if os.access(candidate, os.X_OK):
            return candidate
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def chromium_args() -> list[str]:
    """Command-line flags: quiet (no background traffic), and ``--no-sandbox`` only when root."""
    args = list(CHROMIUM_ARGS)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")
    return args


def launch_chromium(playwright: Any, executable: str) -> Any:
    """Launch headless system Chromium through Playwright (``executable_path``; no downloads)."""
    return playwright.chromium.launch(executable_path=executable, headless=True, args=chromium_args(),
                                      timeout=60_000)


# ----------------------------------------------------------------------------------- jupyterlab
def local_only(page: Any, served: str, *, allow_data: bool = False) -> tuple[list[str], list[str]]:
    """Keep ``page`` on the site at ``served``: every other request is aborted and listed; page errors are listed.

    Returns ``(outside, errors)``, the two lists the page fills as it runs (``data:`` URLs pass with ``allow_data``).
    """
    outside: list[str] = []
    errors: list[str] = []

    def route(r: Any) -> None:
        url = r.request.url
        if url.startswith(served) or (allow_data and url.startswith("data:")):
            r.continue_()
        else:
            outside.append(url)
            r.abort()

    page.route("**/*", route)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return outside, errors


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


#: Written to the test server's config dir when ``nodelay=True``: send kernel websocket frames
#: at once (TCP_NODELAY). Stock jupyter_server leaves Nagle's algorithm on, which on loopback adds
#: ~40 ms (delayed ACK) to every kernel round trip; the benchmark measures with and without.
NODELAY_CONFIG = """
from jupyter_server.services.kernels.websocket import KernelWebsocketHandler as _Handler
_open = _Handler.open
async def _open_nodelay(self, *args, **kwargs):
    self.set_nodelay(True)
    return await _open(self, *args, **kwargs)
_Handler.open = _open_nodelay
"""


def _extension_installed() -> bool:
    """Is tilelab's server extension (TCP_NODELAY) enabled in this environment's Jupyter config?"""
    path = Path(sys.prefix) / "etc" / "jupyter" / "jupyter_server_config.d" / "tilelab.json"
    return path.exists()


@dataclass
class LabServer:
    """A JupyterLab server on 127.0.0.1 serving ``root`` (a scratch directory), with a random token."""

    root: Path
    port: int = 0
    token: str = field(default_factory=lambda: secrets.token_hex(16))
    process: subprocess.Popen | None = None
    log_path: Path | None = None
    #: True: what a student gets (tilelab's server extension sends kernel messages at once);
    #: False: the stock server (TILELAB_NODELAY=0 switches the extension off), for comparison.
    nodelay: bool = True

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str) -> str:
        """Browser URL for ``path`` (e.g. ``lab/tree/x.ipynb``) with the token attached."""
        sep = "&" if "?" in path else "?"
        return f"{self.base_url}/{path.lstrip('/')}{sep}token={self.token}"

    def start(self, timeout: float = SERVER_START_TIMEOUT_S) -> "LabServer":
        """Start ``python -m jupyterlab`` and wait until its API answers (bounded by ``timeout``)."""
        self.root = Path(self.root)
        state = self.root / ".lab-state"
        for sub in ("runtime", "config", "data-unused", "workspaces", "settings"):
            (state / sub).mkdir(parents=True, exist_ok=True)
        write_lab_settings(state / "settings")
        server_config = state / "config" / "jupyter_server_config.py"
        # the extension does it where tilelab is installed; this file only stands in where it is not
        server_config.write_text(NODELAY_CONFIG if self.nodelay and not _extension_installed() else "")
        self.port = self.port or free_port()
        self.log_path = state / "jupyterlab.log"
        env = dict(os.environ)
        env.update({
            "JUPYTER_RUNTIME_DIR": str(state / "runtime"),
            "JUPYTER_CONFIG_DIR": str(state / "config"),  # no user config leaks into the test
            "JUPYTER_PLATFORM_DIRS": "1",
            "PYDEVD_DISABLE_FILE_VALIDATION": "1",
            "TILELAB_BROWSER_TEST": "1",
            "TILELAB_NODELAY": "1" if self.nodelay else "0",
        })
        cmd = [
            sys.executable, "-m", "jupyterlab",
            "--no-browser",
            "--ip=127.0.0.1",
            f"--port={self.port}",
            "--port-retries=0",
            f"--IdentityProvider.token={self.token}",
            "--ServerApp.password=",
            f"--ServerApp.root_dir={self.root}",
            "--ServerApp.open_browser=False",
            "--ServerApp.disable_check_xsrf=False",
            "--LabApp.expose_app_in_browser=True",
            f"--LabApp.workspaces_dir={state / 'workspaces'}",
            f"--LabApp.user_settings_dir={state / 'settings'}",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.news_url=",
            "--LabApp.extension_manager=readonly",
            "--ServerApp.terminals_enabled=False",
        ]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.append("--allow-root")
        log = open(self.log_path, "wb")
        try:
            self.process = subprocess.Popen(cmd, cwd=self.root, env=env, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, start_new_session=True,
                                            preexec_fn=_die_with_parent)
        finally:
            log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"JupyterLab exited with {self.process.returncode}; log: {self.log_path}\n"
                                   + self.log_tail())
            try:
                with urllib.request.urlopen(self.url("api/status"), timeout=5) as response:
                    if response.status == 200 and "started" in json.loads(response.read()):
                        return self
            except (urllib.error.URLError, ConnectionError, OSError, ValueError):
                pass
            time.sleep(0.25)
        self.stop()
        raise TimeoutError(f"JupyterLab did not answer within {timeout:.0f}s; log: {self.log_path}\n"
                           + self.log_tail())

    def api(self, method: str, path: str, body: Any = None, timeout: float = 30) -> Any:
        """Call the Jupyter REST API (JSON in, JSON out)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url(path), data=data, method=method,
                                         headers={"Authorization": f"token {self.token}",
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=timeout) as response:
            raw = response.read()
        return json.loads(raw) if raw else None

    def kernel_ids(self) -> set[str]:
        """Ids of the kernels running now."""
        try:
            return {k["id"] for k in self.api("GET", "api/kernels") or []}
        except (urllib.error.URLError, OSError, ValueError):
            return set()

    def shutdown_kernels(self, keep: Iterable[str] = ()) -> None:
        """Stop the running kernels except ``keep`` (and their sessions); keeps memory flat between tests."""
        keep = set(keep)
        try:
            for session in self.api("GET", "api/sessions") or []:
                if (session.get("kernel") or {}).get("id") not in keep:
                    self.api("DELETE", f"api/sessions/{session['id']}")
            for kernel in self.api("GET", "api/kernels") or []:
                if kernel["id"] not in keep:
                    self.api("DELETE", f"api/kernels/{kernel['id']}")
        except (urllib.error.URLError, OSError, ValueError):
            pass

    def log_tail(self, lines: int = 40) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def stop(self, timeout: float = 20.0) -> None:
        """Shut the server (and its kernels) down: polite API shutdown, then SIGTERM, then SIGKILL."""
        proc = self.process
        if proc is None or proc.poll() is not None:
            return
        try:
            self.api("POST", "api/shutdown", timeout=5)
        except (urllib.error.URLError, OSError, ValueError):
            pass
        try:
            proc.wait(timeout=timeout / 2)
            return
        except subprocess.TimeoutExpired:
            pass
        import signal

        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(proc.pid, sig)  # the server's own process group: it and its kernels
            except (ProcessLookupError, PermissionError):
                return
            try:
                proc.wait(timeout=timeout / 4)
                return
            except subprocess.TimeoutExpired:
                continue


#: JupyterLab user settings for the test: every cell in the DOM (no virtual scrolling, so every
#: board renders), no news/update prompts.
LAB_SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false",
                                                                         "checkForUpdates": False},
}


def write_lab_settings(settings_dir: Path) -> None:
    for relative, values in LAB_SETTINGS.items():
        path = settings_dir / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))


def _die_with_parent() -> None:
    """In the server's child process (Linux): get SIGTERM if the test run dies, even by SIGKILL."""
    try:
        import ctypes
        import signal

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # not Linux: the finally/atexit clean-up still applies
        pass


def copy_notebooks(dest: Path, source: Path = NOTEBOOKS) -> list[str]:
    """Copy the lesson notebooks (and any data next to them) into ``dest``; return notebook names."""
    dest.mkdir(parents=True, exist_ok=True)
    if source.is_dir():
        shutil.copytree(source, dest, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    return sorted(p.name for p in dest.glob("*.ipynb"))


def lesson_notebooks(source: Path = NOTEBOOKS) -> list[str]:
    """Lesson notebooks in the repository (``NN_name.ipynb``), sorted."""
    if not source.is_dir():
        return []
    return sorted(p.name for p in source.glob("[0-9][0-9]*_*.ipynb"))


def close_previous(name: str) -> str:
    """Kernel code that closes the board the previous test left in variable ``name`` (if any)."""
    return f"try:\n    {name}.close()  # the previous test's board\nexcept NameError:\n    pass\n"


def write_notebook(path: Path, cells: Sequence[str]) -> Path:
    """Write a python3 notebook whose code cells are ``cells``."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(src) for src in cells]
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(path))
    return path


# --------------------------------------------------------------------------------- the lab page
_KERNEL_EVAL_JS = r"""
async ([code, timeoutMs]) => {
  const panel = window.__tilelabPanel;
  const kernel = panel.sessionContext.session.kernel;
  const future = kernel.requestExecute({code, silent: false, store_history: false, allow_stdin: false});
  let out = '', err = null;
  future.onIOPub = (msg) => {
    const t = msg.header.msg_type, c = msg.content;
    if (t === 'stream') out += c.text;
    else if (t === 'execute_result') out += (c.data['text/plain'] || '');
    else if (t === 'error') err = c.ename + ': ' + c.evalue + '\n' + (c.traceback || []).join('\n');
  };
  const timer = new Promise((_, reject) => setTimeout(() => reject(new Error('kernel eval timed out')), timeoutMs));
  const reply = await Promise.race([future.done, timer]);
  return {out, err, status: reply.content.status};
}
"""

_OPEN_NOTEBOOK_JS = r"""
async ([path, timeoutMs]) => {
  const app = window.jupyterapp;
  const deadline = Date.now() + timeoutMs;
  const open = async () => {
    await app.started; await app.restored;
    const panel = await app.commands.execute('docmanager:open', {path, factory: 'Notebook'});
    await panel.context.ready;
    await panel.sessionContext.ready;
    while (!(panel.sessionContext.session && panel.sessionContext.session.kernel)) {
      if (Date.now() > deadline) throw new Error('no kernel session for ' + path);
      await new Promise(r => setTimeout(r, 50));
    }
    await panel.revealed;
    app.shell.activateById(panel.id);
    window.__tilelabPanel = panel;
    return panel.id;
  };
  const timer = new Promise((_, reject) => setTimeout(() => reject(new Error('opening ' + path + ' timed out')), timeoutMs));
  return await Promise.race([open(), timer]);
}
"""

_RUN_ALL_JS = r"""
async ([timeoutMs]) => {
  const app = window.jupyterapp, panel = window.__tilelabPanel;
  app.shell.activateById(panel.id);
  const timer = new Promise((_, reject) => setTimeout(() => reject(new Error('run-all timed out')), timeoutMs));
  const ok = await Promise.race([app.commands.execute('notebook:run-all-cells'), timer]);
  return ok;
}
"""

_CLEAR_OUTPUTS_JS = r"""
() => {
  for (const cell of window.__tilelabPanel.content.widgets) {
    if (cell.model.type === 'code') { cell.model.outputs.clear(); cell.model.executionCount = null; }
  }
}
"""

_NOTEBOOK_STATE_JS = r"""
() => {
  const panel = window.__tilelabPanel;
  const cells = panel.content.widgets.map((cell, index) => {
    const m = cell.model;
    if (m.type !== 'code') return {index, type: m.type};
    return {index, type: 'code', count: m.executionCount, state: m.executionState || null,
            empty: m.sharedModel.getSource().trim() === '', outputs: m.outputs.toJSON()};
  });
  return {cells, status: panel.sessionContext.kernelDisplayStatus,
          active: panel.content.activeCellIndex, mode: panel.content.mode,
          ncells: panel.content.widgets.length};
}
"""


def _strip_ansi(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


class KernelError(AssertionError):
    """Code evaluated in the notebook's kernel raised."""


class LabPage:
    """One JupyterLab tab: open a notebook, talk to its kernel, run cells, read its boards."""

    def __init__(self, page: Any, server: LabServer, name: str = "test") -> None:
        self.page = page
        self.server = server
        self.name = name
        self.console: list[str] = []
        self.page_errors: list[str] = []
        page.on("console", self._on_console)
        page.on("pageerror", lambda exc: self.page_errors.append(str(exc)))
        page.set_default_timeout(30_000)

    # ------------------------------------------------------------------ console
    def _on_console(self, msg: Any) -> None:
        try:
            location = msg.location or {}
            where = f" ({location.get('url', '')}:{location.get('lineNumber', '')})" if location else ""
        except Exception:  # pragma: no cover - location is best effort
            where = ""
        self.console.append(f"[{msg.type}] {msg.text}{where}")

    def console_errors(self, since: int = 0) -> list[str]:
        """Console errors (and uncaught page errors) that are not on the benign list."""
        errors = [line for line in self.console[since:] if line.startswith("[error]")]
        errors = [e for e in errors if not any(p.search(e) for p in BENIGN_CONSOLE)]
        return errors + [f"[pageerror] {e}" for e in self.page_errors]

    def widget_errors(self, since: int = 0) -> list[str]:
        """Console lines (any level) and output-area text saying a widget failed."""
        lines = [line for line in self.console[since:] if WIDGET_ERROR.search(line)
                 or (line.startswith("[error]") and re.search(r"jupyter-widgets|ipycanvas", line))]
        dom = self.page.evaluate(
            "() => Array.from(document.querySelectorAll('.jp-OutputArea-output, .jupyter-widgets'))"
            ".map(e => e.innerText).filter(t => t)")
        lines += [f"[output] {t.strip()[:300]}" for t in dom if WIDGET_ERROR.search(t)]
        return lines

    # ------------------------------------------------------------------ notebook
    def open_notebook(self, path: str, timeout: float = KERNEL_READY_TIMEOUT_S) -> None:
        """Open ``path`` in a fresh JupyterLab workspace and wait until its kernel runs code."""
        workspace = f"t{secrets.token_hex(4)}"
        self.page.goto(self.server.url(f"lab/workspaces/{workspace}?reset"), timeout=PAGE_LOAD_TIMEOUT_MS,
                       wait_until="domcontentloaded")
        self.page.wait_for_function("() => window.jupyterapp && window.jupyterapp.commands",
                                    timeout=PAGE_LOAD_TIMEOUT_MS)
        self.page.evaluate(_OPEN_NOTEBOOK_JS, [path, int(timeout * 1000)])
        self.wait_kernel_ready(timeout)

    def wait_kernel_ready(self, timeout: float = KERNEL_READY_TIMEOUT_S) -> None:
        """The idle badge can show before the kernel answers: wait until it really runs code."""
        deadline = time.monotonic() + timeout
        nonce = secrets.token_hex(4)
        last: Exception | None = None
        while time.monotonic() < deadline:
            try:
                out = self.kernel_eval(f"print('ready-{nonce}')", timeout=min(20.0, deadline - time.monotonic()))
                if f"ready-{nonce}" in out:
                    return
            except Exception as exc:  # kernel still starting / restarting
                last = exc
            self.page.wait_for_timeout(250)
        raise TimeoutError(f"kernel not ready after {timeout:.0f}s: {last}")

    def kernel_eval(self, code: str, timeout: float = KERNEL_EVAL_TIMEOUT_S) -> str:
        """Run ``code`` in the notebook's own kernel (same objects as its cells); return stdout."""
        result = self.page.evaluate(_KERNEL_EVAL_JS, [code, int(max(timeout, 1) * 1000)])
        if result["err"] or result["status"] != "ok":
            raise KernelError(f"kernel raised while running:\n{code}\n{_strip_ansi(result['err'] or result['status'])}")
        return result["out"]

    def kernel_json(self, expression: str, setup: str = "", timeout: float = KERNEL_EVAL_TIMEOUT_S) -> Any:
        """Evaluate a Python ``expression`` in the kernel and return it decoded from JSON."""
        marker = "@@JSON@@"
        code = f"{setup}\nimport json as _json\nprint({marker!r} + _json.dumps({expression}))"
        out = self.kernel_eval(code, timeout)
        for line in out.splitlines():
            if line.startswith(marker):
                return json.loads(line[len(marker):])
        raise KernelError(f"no JSON printed by {expression!r}; stdout was:\n{out}")

    def run_all(self, timeout: float = RUN_ALL_TIMEOUT_S) -> dict[str, Any]:
        """Run every cell through JupyterLab's ``notebook:run-all-cells``; wait until all finished.

        Saved outputs and execution counts are cleared first (in the page only), so a cell counts as
        done only when this run executed it -- also on a second run in the same kernel.
        """
        self.page.evaluate(_CLEAR_OUTPUTS_JS)
        self.page.evaluate(_RUN_ALL_JS, [int(timeout * 1000)])
        self.wait_for(self._all_executed, timeout, "every code cell executed and kernel idle")
        return self.notebook_state()

    def _all_executed(self) -> bool:
        state = self.notebook_state()
        code = [c for c in state["cells"] if c["type"] == "code" and not c.get("empty")]  # empty cells never run
        busy = any(c.get("state") == "running" for c in code)
        return state["status"] == "idle" and not busy and all(c["count"] is not None for c in code)

    def wait_widgets_rendered(self, timeout: float = 60.0) -> int:
        """Wait until every widget output in the notebook has a rendered view (or an error); return count."""
        js = """() => {
          const outs = Array.from(document.querySelectorAll(
            '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.widget-view+json"]'));
          const done = outs.filter(o => o.querySelector('.jupyter-widgets, .lm-Widget, canvas') ||
                                        /Error displaying widget|model not found|javascript error/i.test(o.innerText));
          return [outs.length, done.length];
        }"""
        total, done = self.wait_for(lambda: (lambda t: t if t[0] == t[1] else None)(self.page.evaluate(js)),
                                    timeout, "every widget output rendered")
        return int(total)

    def notebook_state(self) -> dict[str, Any]:
        return self.page.evaluate(_NOTEBOOK_STATE_JS)

    def error_outputs(self) -> list[str]:
        """Every error output of every cell, as 'cell N: Ename: message' (traceback tail included)."""
        found = []
        for cell in self.notebook_state()["cells"]:
            for out in cell.get("outputs", []):
                if out.get("output_type") == "error":
                    tb = _strip_ansi("\n".join(out.get("traceback", [])[-3:]))
                    found.append(f"cell {cell['index']}: {out.get('ename')}: {out.get('evalue')}\n{tb}")
        return found

    # ------------------------------------------------------------------ waiting
    def wait_for(self, condition: Any, timeout: float, what: str, poll: float = POLL_S) -> Any:
        """Poll ``condition()`` until truthy (returned) or raise TimeoutError naming ``what``."""
        deadline = time.monotonic() + timeout
        last: Any = None
        while True:
            last = condition()
            if last:
                return last
            if time.monotonic() > deadline:
                raise TimeoutError(f"timed out after {timeout:.1f}s waiting for: {what} (last: {last!r})")
            self.page.wait_for_timeout(int(poll * 1000))

    # ------------------------------------------------------------------ canvas
    def canvas_locator(self, index: int = 0) -> Any:
        """The ``index``-th ipycanvas element in the notebook's outputs (a MultiCanvas is one element)."""
        return self.page.locator(".jp-OutputArea-output canvas").nth(index)

    def wait_canvas(self, index: int = 0, timeout: float = 60.0) -> Any:
        loc = self.canvas_locator(index)
        loc.wait_for(state="visible", timeout=int(timeout * 1000))
        loc.scroll_into_view_if_needed(timeout=int(timeout * 1000))
        return loc

    def canvas_pixels(self, index: int = 0) -> tuple[int, int, bytes]:
        """(width, height, RGBA bytes) of the ``index``-th canvas, read exactly (no screenshot scaling)."""
        return read_pixels(self.canvas_locator(index))

    def screenshot(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(path), full_page=False, timeout=15_000)
        return path

_CHECKSUM_FN = """
function checksum(c) {
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let h = 2166136261 >>> 0;
  for (let i = 0; i < d.length; i += 4) {
    h = Math.imul(h ^ (d[i] | (d[i + 1] << 8) | (d[i + 2] << 16)), 16777619) >>> 0;
  }
  return h;
}
"""

_CHECKSUM_JS = "(c) => {" + _CHECKSUM_FN + " return checksum(c); }"

_SETTLE_JS = "async (c, args) => {" + _CHECKSUM_FN + """
  const [quiet, timeoutMs] = args;
  const t0 = performance.now(); let last = checksum(c), same = 0;
  while (same < quiet) {
    await new Promise(r => requestAnimationFrame(r));
    const now = checksum(c);
    same = (now === last) ? same + 1 : 0; last = now;
    if (performance.now() - t0 > timeoutMs) throw new Error('canvas never settled');
  }
  return last;
}
"""
# ------------------------------------------------------------------------------------- pixels
_READ_PIXELS_JS = """(c) => {
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let s = ''; const CHUNK = 0x8000;
  for (let i = 0; i < d.length; i += CHUNK) s += String.fromCharCode.apply(null, d.subarray(i, i + CHUNK));
  return [c.width, c.height, btoa(s)];
}"""


def read_pixels(canvas: Any) -> tuple[int, int, bytes]:
    """(width, height, RGBA bytes) of a canvas element (a Playwright locator), read exactly."""
    import base64

    width, height, data = canvas.evaluate(_READ_PIXELS_JS)
    return int(width), int(height), base64.b64decode(data)


def pixel(pixels: tuple[int, int, bytes], x: float, y: float) -> tuple[int, int, int, int]:
    """RGBA at canvas coordinate (x, y)."""
    width, height, data = pixels
    xi, yi = min(max(int(x), 0), width - 1), min(max(int(y), 0), height - 1)
    i = 4 * (yi * width + xi)
    return tuple(data[i:i + 4])  # type: ignore[return-value]


def distinct_colours(pixels: tuple[int, int, bytes], step: int = 7) -> int:
    """How many different opaque colours a sparse grid of samples finds (blank canvas -> 0 or 1)."""
    width, height, data = pixels
    seen = set()
    for y in range(0, height, step):
        for x in range(0, width, step):
            i = 4 * (y * width + x)
            seen.add(tuple(data[i:i + 4]))
    return len(seen)


def parse_colour(css: str) -> tuple[int, int, int]:
    """'#rrggbb', '#rgb' or 'rgb(r, g, b)' / 'rgba(...)' -> (r, g, b)."""
    css = css.strip()
    if css.startswith("#"):
        hexa = css[1:]
        if len(hexa) in (3, 4):
            hexa = "".join(ch * 2 for ch in hexa[:3])
        return int(hexa[0:2], 16), int(hexa[2:4], 16), int(hexa[4:6], 16)
    match = re.match(r"rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)", css)
    if match:
        return tuple(int(float(v)) for v in match.groups())  # type: ignore[return-value]
    raise ValueError(f"cannot parse colour {css!r}; give '#rrggbb' or 'rgb(r, g, b)'")


def colour_close(a: Iterable[int], b: Iterable[int], tolerance: int = 6) -> bool:
    return all(abs(int(x) - int(y)) <= tolerance for x, y in zip(a, b))


# ------------------------------------------------------------------------------- input latency
_INSTALL_DRAW_HOOK_JS = "(c) => {" + _CHECKSUM_FN + """
  window.__tlChecksum = checksum;
  const proto = CanvasRenderingContext2D.prototype;
  if (!proto.__tlHooked) {
    for (const name of ['drawImage', 'putImageData']) {
      const original = proto[name];
      proto[name] = function (...args) {
        const result = original.apply(this, args);
        const watch = window.__tlWatch;
        if (watch && this.canvas === watch.canvas) watch.onDraw();
        return result;
      };
    }
    proto.__tlHooked = true;
  }
  return true;
}
"""

_ARM_WATCH_JS = """(c, timeoutMs) => {
  const before = window.__tlChecksum(c);
  let keyTime = null, done = false, resolveIt;
  const promise = new Promise(r => { resolveIt = r; });
  const finish = (value) => { if (!done) { done = true; window.__tlWatch = null;
      c.removeEventListener('keydown', onInput, true); c.removeEventListener('mousedown', onInput, true);
      resolveIt(value); } };
  const onInput = (e) => { if (keyTime === null) keyTime = e.timeStamp; };
  c.addEventListener('keydown', onInput, true);
  c.addEventListener('mousedown', onInput, true);
  const check = () => {
    if (keyTime === null || done) return;
    if (window.__tlChecksum(c) !== before) finish(performance.now() - keyTime);
  };
  window.__tlWatch = {canvas: c, onDraw: check};
  const frame = () => { if (done) return; check(); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  setTimeout(() => finish(null), timeoutMs);
  window.__tlWatchPromise = promise;
  return before;
}"""


def timed_input(lab: LabPage, act: Any, timeout: float = 5.0, index: int = 0, canvas: Any = None) -> float | None:
    """Milliseconds from the input event (its ``timeStamp``) to the first canvas change, or None.

    ``act()`` performs the input (a real key press or click through Playwright). The change is seen
    at the draw call itself (hooked) or at the next animation frame, whichever comes first.
    """
    loc = canvas if canvas is not None else lab.canvas_locator(index)
    loc.evaluate(_ARM_WATCH_JS, int(timeout * 1000))
    act()
    value = lab.page.evaluate("() => window.__tlWatchPromise")
    return None if value is None else float(value)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) by linear interpolation."""
    if not values:
        raise ValueError("no values: nothing was measured")
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    lo, hi = int(pos), min(int(pos) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


# ---------------------------------------------------------------------------------- board views
class BoardView:
    """One board (a MultiCanvas inside a VBox) in the open notebook, addressed by its output area."""

    def __init__(self, lab: LabPage, index: int = 0) -> None:
        self.lab = lab
        self.page = lab.page
        self.scope = lab.page.locator(".jp-OutputArea-output").filter(has=lab.page.locator("canvas")).nth(index)
        self.canvas = self.scope.locator("canvas").first

    def wait_drawn(self, timeout: float = 60.0) -> "BoardView":
        """Wait until the canvas is visible, painted (not blank) and no longer animating."""
        self.canvas.wait_for(state="visible", timeout=int(timeout * 1000))
        self.canvas.scroll_into_view_if_needed(timeout=int(timeout * 1000))
        self.lab.wait_for(lambda: distinct_colours(self.pixels()) > 2, timeout, "the board painted on its canvas")
        self.settle()
        self.canvas.evaluate(_INSTALL_DRAW_HOOK_JS)  # for timed_input / record_frames
        return self

    def pixels(self) -> tuple[int, int, bytes]:
        return read_pixels(self.canvas)

    def checksum(self) -> int:
        return int(self.canvas.evaluate(_CHECKSUM_JS))

    def settle(self, timeout: float = 15.0, quiet_frames: int = 6) -> int:
        """Wait until the canvas has not changed for ``quiet_frames`` frames (animation finished)."""
        return int(self.canvas.evaluate(_SETTLE_JS, [quiet_frames, int(timeout * 1000)]))

    def click(self, x: float, y: float) -> None:
        """Click at canvas coordinates (x, y) with the real mouse."""
        self.canvas.click(position={"x": float(x), "y": float(y)}, timeout=15_000)

    def drag(self, x0: float, y0: float, x1: float, y1: float, steps: int = 6) -> None:
        box = self.canvas.bounding_box(timeout=15_000)
        assert box is not None, "the board's canvas has no box on screen"
        self.page.mouse.move(box["x"] + x0, box["y"] + y0)
        self.page.mouse.down()
        self.page.mouse.move(box["x"] + x1, box["y"] + y1, steps=steps)
        self.page.mouse.up()

    def focus(self) -> None:
        """Give the canvas keyboard focus the way a student does: click it (on its margin)."""
        self.canvas.click(position={"x": 2, "y": 2}, timeout=15_000)
        self.lab.wait_for(lambda: self.canvas.evaluate("c => document.activeElement === c"), 10,
                          "the canvas to take keyboard focus")

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)

    def button(self, label: str) -> Any:
        """The toolbar button labelled ``label`` (its icon glyph is not part of the label)."""
        return self.scope.locator("button").filter(has_text=re.compile(rf"^\s*{re.escape(label)}\s*$"))

    def click_button(self, label: str) -> None:
        self.button(label).click(timeout=15_000)

    def status_text(self) -> str:
        return str(self.scope.locator(".widget-html-content").first.inner_text(timeout=15_000))

    def screenshot(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.canvas.screenshot(path=str(path), timeout=15_000)
        return path


def board_on_tab(tab: dict, notebook_dir: Path, name: str, cells: Sequence[str]) -> BoardView:
    """Like :func:`open_board` on a tab shared by a test module: the first call opens the notebook,
    later calls re-run it in the same kernel (a brand-new board each time)."""
    lab: LabPage = tab["lab"]
    if tab.get("opened") != name:
        board = open_board(lab, notebook_dir, name, cells)
        tab["opened"] = name
        return board
    lab.run_all()
    errors = lab.error_outputs()
    if errors:
        raise AssertionError("the board notebook raised:\n" + "\n".join(errors))
    return BoardView(lab).wait_drawn()


def open_board(lab: LabPage, notebook_dir: Path, name: str, cells: Sequence[str]) -> BoardView:
    """Write a notebook of ``cells`` (the last displays the board), open it, run it, wait for the board."""
    write_notebook(notebook_dir / name, cells)
    lab.open_notebook(f"{notebook_dir.name}/{name}")
    lab.run_all()
    errors = lab.error_outputs()
    if errors:
        raise AssertionError("the board notebook raised:\n" + "\n".join(errors))
    return BoardView(lab).wait_drawn()


_RECORD_FRAMES_JS = "async (c, args) => {" + _CHECKSUM_FN + """
  const [quiet, timeoutMs, startedFlag, minDistinct] = args;
  // resolves once the canvas changed (showing at least `minDistinct` pictures, the start included)
  // and then stayed still for `quiet` frames
  const seen = new Set([checksum(c)]);
  const t0 = performance.now();
  let last = checksum(c), same = 0, changed = false;
  window.__tlWatch = {canvas: c, onDraw: () => { const h = checksum(c); if (!seen.has(h)) seen.add(h); }};
  window[startedFlag] = true;
  try {
    while (!changed || same < quiet || seen.size < minDistinct) {
      await new Promise(r => requestAnimationFrame(r));
      const now = checksum(c);
      seen.add(now);
      if (now !== last) { changed = true; same = 0; } else same += 1;
      last = now;
      if (performance.now() - t0 > timeoutMs) break;
    }
  } finally { window.__tlWatch = null; }
  return {distinct: seen.size, changed, ms: performance.now() - t0};
}
"""


def record_frames(view: "BoardView", act: Any, timeout: float = 20.0, quiet_frames: int = 10,
                  min_distinct: int = 0) -> dict[str, Any]:
    """Do ``act()`` and count the distinct pictures the canvas shows until it is still again.

    A board that gives feedback at once (a ring on mouse-down) and animates after a kernel round trip
    shows a still gap between the two; ``min_distinct`` keeps recording through that gap until that
    many pictures were seen (or ``timeout``), so a slow round trip cannot end the recording early.

    Needs the draw hook :meth:`BoardView.wait_drawn` installs (every draw call is sampled, not only frames).
    Returns ``{"distinct": n, "changed": bool, "ms": elapsed}``; ``distinct`` includes the start picture.
    """
    flag = f"__tlRec{secrets.token_hex(3)}"
    handle = view.canvas.evaluate_handle(
        "(c, args) => { const f = " + _RECORD_FRAMES_JS + "; return {p: f(c, args)}; }",
        [quiet_frames, int(timeout * 1000), flag, min_distinct])
    view.lab.wait_for(lambda: view.page.evaluate(f"() => !!window['{flag}']"), 10, "the frame recorder")
    act()
    result = view.page.evaluate("(h) => h.p", handle)
    handle.dispose()
    return result
