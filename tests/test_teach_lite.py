"""The lite build's parts (tilelab.teach.lite): checked downloads, the lock, the tilelab wheel, the
index page, launch links; and, where Node.js is installed, every tilelab module imported in Pyodide.
The whole site in Chromium is tests/browser/test_browser_lite.py."""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import shutil
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import pytest

from tilelab.teach import links, lite, lite_fetch, wheels
from tilelab.teach.__main__ import main

ROOT = Path(__file__).resolve().parents[1]


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ------------------------------------------------------------------------------ checked downloads
def test_cached_file_fetches_again_when_the_cache_is_damaged(tmp_path: Path) -> None:
    good = b"the real bytes"
    target = tmp_path / "f.whl"
    target.write_bytes(b"the real byt")  # a cut-off download
    calls = []

    def fetch(dest: Path) -> None:
        calls.append(dest)
        dest.write_bytes(good)

    assert lite_fetch.cached_file(target, _sha(good), fetch, "f") == target and target.read_bytes() == good
    assert len(calls) == 1
    lite_fetch.cached_file(target, _sha(good), fetch, "f")  # intact now: no second fetch
    assert len(calls) == 1


def test_cached_file_refuses_a_download_whose_digest_differs(tmp_path: Path) -> None:
    target = tmp_path / "f.whl"
    with pytest.raises(lite_fetch.LiteBuildError, match="SHA-256 of f.whl .* refusing"):
        lite_fetch.cached_file(target, _sha(b"expected"), lambda dest: dest.write_bytes(b"tampered"), "f")
    assert not target.exists(), "a file that failed its check must not stay in the cache"


def _fake_lock(entries: dict[str, bytes]) -> dict:
    return {"info": {"version": lite_fetch.PYODIDE_VERSION}, "packages": {
        name: {"name": name, "version": "1", "file_name": f"{name}-1-cp312-cp312-pyodide_2024_0_wasm32.whl",
               "sha256": _sha(data), "depends": [], "imports": [name], "install_dir": "site",
               "package_type": "package", "unvendored_tests": False} for name, data in entries.items()}}


def _fake_transport(path: Path, files: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in files.items():
            zf.writestr(lite_fetch.TRANSPORT_FOLDER + name, data)
    return path


def test_lock_files_takes_the_official_bytes_and_caches_them(tmp_path: Path, monkeypatch) -> None:
    lock = _fake_lock({"numpy": b"numpy wasm", "pillow": b"pillow wasm"})
    transport = _fake_transport(tmp_path / "t.whl", {e["file_name"]: data for e, data in
                                                     zip(lock["packages"].values(), [b"numpy wasm", b"pillow wasm"])})
    monkeypatch.setattr(lite_fetch, "fetch_wheel", lambda wheel, cache: transport)
    cache = tmp_path / "cache"
    files = lite_fetch.lock_files(lock, ["numpy", "pillow"], cache, source="transport")
    assert files["numpy"].read_bytes() == b"numpy wasm"

    def no_network(wheel, cache):
        raise AssertionError("a checked cache must not be fetched again")

    monkeypatch.setattr(lite_fetch, "fetch_wheel", no_network)
    assert lite_fetch.lock_files(lock, ["numpy", "pillow"], cache) == files  # checked cache: no source needed at all
    files["numpy"].write_bytes(b"bit rot")  # a damaged cache file is taken again from the transport
    monkeypatch.setattr(lite_fetch, "fetch_wheel", lambda wheel, cache: transport)
    assert lite_fetch.lock_files(lock, ["numpy"], cache, source="transport")["numpy"].read_bytes() == b"numpy wasm"


def test_lock_files_fails_loudly_when_the_transport_differs_from_the_lock(tmp_path: Path, monkeypatch) -> None:
    lock = _fake_lock({"numpy": b"numpy wasm"})
    name = lock["packages"]["numpy"]["file_name"]
    transport = _fake_transport(tmp_path / "t.whl", {name: b"numpy wasm, altered"})
    monkeypatch.setattr(lite_fetch, "fetch_wheel", lambda wheel, cache: transport)
    with pytest.raises(lite_fetch.LiteBuildError, match=f"{name} in .* has SHA-256 .* the official .* refusing"):
        lite_fetch.lock_files(lock, ["numpy"], tmp_path / "cache", source="transport")


def test_lock_files_names_a_file_no_source_has(tmp_path: Path, monkeypatch) -> None:
    lock = _fake_lock({"scipy": b"scipy wasm"})
    monkeypatch.setattr(lite_fetch, "fetch_wheel", lambda wheel, cache: _fake_transport(tmp_path / "t.whl", {}))
    with pytest.raises(lite_fetch.LiteBuildError, match="no source for .*scipy"):
        lite_fetch.lock_files(lock, ["scipy"], tmp_path / "cache", source="transport")


class _Release:
    """A folder laid out as the official release's package files (``<base URL><file name>``), served on 127.0.0.1;
    counts the requests."""

    def __init__(self, folder: Path) -> None:
        self.requests: list[str] = []
        release = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args) -> None:
                release.requests.append(self.path)

        handler = functools.partial(Handler, directory=str(folder))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/pyodide/v{lite_fetch.PYODIDE_VERSION}/full/"
        (folder / "pyodide" / f"v{lite_fetch.PYODIDE_VERSION}").mkdir(parents=True, exist_ok=True)
        self.files = folder / "pyodide" / f"v{lite_fetch.PYODIDE_VERSION}" / "full"
        self.files.mkdir(exist_ok=True)

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def release(tmp_path: Path):
    served = _Release(tmp_path / "release")
    yield served
    served.close()


def test_official_source_takes_each_file_from_the_release_and_checks_it(tmp_path: Path, release, monkeypatch) -> None:
    lock = _fake_lock({"numpy": b"numpy wasm", "pillow": b"pillow wasm"})
    for entry, data in zip(lock["packages"].values(), [b"numpy wasm", b"pillow wasm"]):
        (release.files / entry["file_name"]).write_bytes(data)
    monkeypatch.setattr(lite_fetch, "fetch_wheel", lambda wheel, cache: pytest.fail("the transport is not used"))
    monkeypatch.delenv("TILELAB_PYODIDE_SOURCE", raising=False)
    files = lite_fetch.lock_files(lock, ["numpy", "pillow"], tmp_path / "cache", url=release.url)  # official by default
    assert files["pillow"].read_bytes() == b"pillow wasm" and len(release.requests) == 2
    assert lite_fetch.lock_files(lock, ["numpy"], tmp_path / "file-cache",  # the release tarball unpacked: a file URL
                           url=release.files.as_uri())["numpy"].read_bytes() == b"numpy wasm"
    (release.files / lock["packages"]["numpy"]["file_name"]).write_bytes(b"numpy wasm, altered")
    with pytest.raises(lite_fetch.LiteBuildError, match="SHA-256 .* refusing"):
        lite_fetch.lock_files(lock, ["numpy"], tmp_path / "cache2", url=release.url)


def test_official_source_out_of_reach_says_how_to_build_offline(tmp_path: Path) -> None:
    lock = _fake_lock({"numpy": b"numpy wasm"})
    with pytest.raises(lite_fetch.LiteBuildError, match="PYODIDE_SOURCE=transport"):
        lite_fetch.lock_files(lock, ["numpy"], tmp_path / "cache", source="official", url=(tmp_path / "none").as_uri())
    with pytest.raises(lite_fetch.LiteBuildError, match="official.*transport"):
        lite_fetch.pyodide_source("cdn")
    with pytest.raises(lite_fetch.LiteBuildError, match="http"):
        lite_fetch.pyodide_url("ftp://mirror.example/pyodide/")


@pytest.mark.parametrize("source", ["official", "transport"])
def test_a_bad_pyodide_url_is_refused_before_the_build_even_with_a_full_cache(tmp_path: Path, source: str) -> None:
    """The hunt's D15 kin: an address the build would never use (every file cached) was silently ignored."""
    with pytest.raises(lite_fetch.LiteBuildError, match="--pyodide-url must be"):
        lite.build_lite(tmp_path / "out", cache=tmp_path / "cache", quiet=True, pyodide_source=source,
                        pyodide_url="javascript:alert(1)")
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_official_path_builds_the_real_runtime_from_a_copy_laid_out_as_the_release(tmp_path: Path, release) -> None:
    """The real lock and the real files: the copy of the release is made from the transport's files (the same bytes,
    checked), then a build from the official source against it fetches every file over HTTP and checks it."""
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed (Debian: apt-get install npm): the runtime comes from the npm registry")
    lock = lite_fetch.official_lock(lite_fetch.fetch_pyodide_npm(lite_fetch.cache_dir()))
    shipped = lite_fetch.closure(lock, lite_fetch.LOCK_PACKAGES)
    for path in lite_fetch.lock_files(lock, shipped, lite_fetch.cache_dir(), source="transport").values():
        shutil.copy2(path, release.files / path.name)
    cache = tmp_path / "empty-cache"  # no package file of Pyodide's yet: all must come from the release
    cache.mkdir()
    shutil.copy2(lite_fetch.fetch_pyodide_npm(lite_fetch.cache_dir()), cache / f"pyodide-{lite_fetch.PYODIDE_VERSION}.tgz")  # npm's
    shutil.copytree(lite_fetch.cache_dir() / "wheels", cache / "wheels")  # the pure wheels from PyPI, as fetched
    lock_back, shipped_back, _ = lite.pyodide_runtime(tmp_path / "site", cache, source="official", url=release.url)
    assert shipped_back == shipped
    assert len(release.requests) == len(shipped)  # every package file came from the release copy
    for name in shipped:
        entry = lock["packages"][name]
        assert lite_fetch.sha256_file(tmp_path / "site" / entry["file_name"]) == entry["sha256"]


def test_closure_refuses_a_package_the_lock_lacks() -> None:
    with pytest.raises(lite_fetch.LiteBuildError, match="'numba' is not in the Pyodide"):
        lite_fetch.closure({"packages": {"a": {"depends": ["numba"]}}}, ["a"])


def test_site_lock_refuses_an_entry_whose_dependency_is_not_shipped() -> None:
    lock = {"info": {}, "packages": {"numpy": {"depends": []}}}
    with pytest.raises(lite_fetch.LiteBuildError, match=r"depends on \['ipywidgets'\]"):
        lite.site_lock(lock, ["numpy"], {"tilelab": {"depends": ["numpy", "ipywidgets"]}})


def test_pinned_pure_wheels_have_lock_dependencies_the_site_ships() -> None:
    """Every extra entry's dependencies are shipped (official closure or another extra)."""
    extra = {lite_fetch.canonical(p.wheel.name) for p in lite_fetch.PURE_WHEELS} | {"tilelab"}
    for pure in lite_fetch.PURE_WHEELS:
        assert all(lite_fetch.canonical(d) in extra or d in lite_fetch.LOCK_PACKAGES for d in pure.depends), pure
    assert "numba" not in lite_fetch.TILELAB_DEPENDS


# ---------------------------------------------------------------------------------- tilelab wheel
@pytest.mark.slow
def test_tilelab_wheel_is_built_by_pip_reproducibly_with_no_build_warning(tmp_path: Path) -> None:
    """The standard tools build it (pip wheel, from a copy: nothing written into the checkout), the same bytes twice;
    the project's metadata makes setuptools warn about nothing (the license as an SPDX string)."""
    a = wheels.build_tilelab_wheel(tmp_path / "a", repo_root=ROOT)
    b = wheels.build_tilelab_wheel(tmp_path / "b", repo_root=ROOT)
    assert a.name == "tilelab-0.3.0-py3-none-any.whl" and a.read_bytes() == b.read_bytes()
    with zipfile.ZipFile(a) as zf:
        names = zf.namelist()
        assert "tilelab/__init__.py" in names and "tilelab/sliding/__init__.py" in names
        assert not [n for n in names if "__pycache__" in n or n.endswith((".pyc", ".nbi", ".nbc"))]
        assert "tilelab/data/ntuple-strong.npz" in names, "the package data ships"
        metadata = zf.read("tilelab-0.3.0.dist-info/METADATA").decode()
        assert "License-Expression: MIT" in metadata
    stage = wheels.stage_tilelab(tmp_path / "stage", ROOT)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", str(tmp_path / "c"),
                           str(stage)], capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "BuildBackendWarning" not in done.stdout + done.stderr, (done.stdout + done.stderr)[-3000:]


@pytest.mark.slow
def test_results_wheel_puts_the_saved_results_beside_the_package(tmp_path: Path) -> None:
    results = {"benchmarks/results/bench.json": tmp_path / "bench.json",
               "benchmarks/results/games.jsonl": tmp_path / "games.jsonl"}
    results["benchmarks/results/bench.json"].write_text('{"x": 1}')
    results["benchmarks/results/games.jsonl"].write_text('{"seed": 1}\n')
    wheel = lite.build_results_wheel(tmp_path / "w", results)
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    assert {"benchmarks/results/bench.json", "benchmarks/results/games.jsonl"} <= names
    assert not [n for n in names if n.endswith(".py")]  # data only: nothing to import


def test_lock_entry_describes_the_file(tmp_path: Path) -> None:
    path = tmp_path / "comm-0.2.3-py3-none-any.whl"
    path.write_bytes(b"wheel")
    entry = lite.lock_entry("comm", "0.2.3", path, ["comm"], ["Traitlets"])
    assert entry["sha256"] == _sha(b"wheel") and entry["depends"] == ["traitlets"]
    assert entry["file_name"] == path.name and entry["imports"] == ["comm"]


def test_labextensions_are_taken_from_the_wheels_data(tmp_path: Path) -> None:
    wheel = tmp_path / "w.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        base = "w-1.data/data/share/jupyter/labextensions/@org/ext/"
        zf.writestr(base + "package.json", "{}")
        zf.writestr(base + "static/remoteEntry.js", "//")
        zf.writestr("w/__init__.py", "")
    assert lite.extract_labextensions([wheel], tmp_path / "ext") == ["@org/ext"]
    assert (tmp_path / "ext" / "@org" / "ext" / "static" / "remoteEntry.js").is_file()
    empty = tmp_path / "e.whl"
    with zipfile.ZipFile(empty, "w") as zf:
        zf.writestr("e/__init__.py", "")
    with pytest.raises(lite_fetch.LiteBuildError, match="no JupyterLab extension"):
        lite.extract_labextensions([empty], tmp_path / "ext2")


# ------------------------------------------------------------------------------ config and pages
def _site(tmp_path: Path, settings: dict) -> Path:
    out = tmp_path / "site"
    (out / "static" / "pyodide").mkdir(parents=True)
    config = lite.lite_config(fontlist=False)
    config["jupyter-config-data"]["litePluginSettings"][lite_fetch.KERNEL_PLUGIN].update(settings)
    (out / "jupyter-lite.json").write_text(json.dumps(config))
    (out / "static" / "pyodide" / "pyodide-lock.json").write_text(json.dumps({"packages": {}}))
    for app in ("lab", "repl"):
        (out / app).mkdir()
        (out / app / "index.html").write_text(_APP_PAGE)
    lite.add_page_script(out)
    return out


_APP_PAGE = '<!DOCTYPE html><html><head><link id="jupyter-lite-main" rel="preload"></head><body></body></html>'


def test_page_script_goes_into_every_app_page_once(tmp_path: Path) -> None:
    """Each app page gets the course's script (a focused board's keys, the starting line, the lesson kept in the
    address) and an icon of its own, once; the site's own index page (no JupyterLite) is left alone."""
    for folder in ("lab", "lab/tree", "doc"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / "index.html").write_text(_APP_PAGE)
    (tmp_path / "index.html").write_text("<html><head></head><body>lessons</body></html>")
    pages = lite.add_page_script(tmp_path)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in pages) == ["doc/index.html", "lab/index.html",
                                                                         "lab/tree/index.html"]
    lite.add_page_script(tmp_path)  # a second pass adds nothing
    text = (tmp_path / "lab" / "index.html").read_text()
    assert text.count(lite.PAGE_SCRIPT) == 1 and text.index(lite.PAGE_SCRIPT) < text.index("</head>")
    assert text.count('rel="icon"') == 1 and 'href="../static/favicons/favicon.ico"' in text
    assert 'href="../../static/favicons/favicon.ico"' in (tmp_path / "lab" / "tree" / "index.html").read_text()
    assert "script" not in (tmp_path / "index.html").read_text()


def test_page_script_refused_without_a_lab_page(tmp_path: Path) -> None:
    (tmp_path / "tree").mkdir()
    (tmp_path / "tree" / "index.html").write_text(_APP_PAGE)
    with pytest.raises(lite_fetch.LiteBuildError, match="lab/index.html"):
        lite.add_page_script(tmp_path)


def test_check_site_refuses_a_lab_page_without_the_page_script(tmp_path: Path) -> None:
    out = _site(tmp_path, {"pyodideUrl": "./static/pyodide/pyodide.js"})
    (out / "lab" / "index.html").write_text(_APP_PAGE)
    with pytest.raises(lite_fetch.LiteBuildError, match="page script"):
        lite.check_site(out)
    lite.add_page_script(out)
    (out / "repl" / "index.html").unlink()  # a site built without the REPL: the website's boards could not play
    with pytest.raises(lite_fetch.LiteBuildError, match="repl/index.html is missing"):
        lite.check_site(out)


def test_check_site_refuses_a_site_that_could_reach_pypi_or_a_cdn(tmp_path: Path) -> None:
    lite.check_site(_site(tmp_path / "ok", {"pyodideUrl": "./static/pyodide/pyodide.js"}))
    with pytest.raises(lite_fetch.LiteBuildError, match="disablePyPIFallback"):
        lite.check_site(_site(tmp_path / "pypi", {"disablePyPIFallback": False, "pyodideUrl": "./static/x.js"}))
    with pytest.raises(lite_fetch.LiteBuildError, match="not the site's own copy"):
        lite.check_site(_site(tmp_path / "cdn", {"pyodideUrl": "https://cdn.example/pyodide.js"}))
    startup = {"pyodideUrl": "./static/pyodide/pyodide.js", "loadPyodideOptions": {"packages": ["tilelab-mplfonts"]}}
    with pytest.raises(lite_fetch.LiteBuildError, match="tilelab-mplfonts"):  # a package the kernel loads must be there
        lite.check_site(_site(tmp_path / "startup", startup))


def test_an_app_page_that_names_its_icon_keeps_it(tmp_path: Path) -> None:
    (tmp_path / "lab").mkdir()
    page = _APP_PAGE.replace("</head>", '<link rel="icon" href="mine.ico"></head>')
    (tmp_path / "lab" / "index.html").write_text(page)
    lite.add_page_script(tmp_path)
    text = (tmp_path / "lab" / "index.html").read_text()
    assert text.count('rel="icon"') == 1 and "mine.ico" in text and text.count(lite.PAGE_SCRIPT) == 1


def test_index_page_links_every_lesson_and_says_how_to_hand_in() -> None:
    from tilelab.teach.lessons import Lesson

    lessons = [Lesson("00_start_here", "Start <here>", "The map.", Path("x")),
               Lesson("01a_2048_merge", "Merge", "Slide.", Path("y"))]
    page = lite.index_page(lessons, student=True)
    assert 'href="lab/index.html?path=00_start_here.ipynb"' in page
    assert 'href="lab/index.html?path=01a_2048_merge.ipynb"' in page
    assert "Start &lt;here&gt;" in page and "student edition" in page
    assert "File &rarr; Download" in page and "autograde" in page and "browser" in page
    # JupyterLite's pages read every index.html above them for their configuration
    assert '<script id="jupyter-config-data" type="application/json" data-jupyter-lite-root=".">' in page


# ---------------------------------------------------------------------------------- launch links
def test_links_for_every_lesson(capsys) -> None:
    assert main(["links", "--repo", "myschool/tilelab", "--lite-url", "https://myschool.example/lite/"]) == 0
    out = capsys.readouterr().out
    lessons = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb"))
    for name in lessons:
        assert f"https://mybinder.org/v2/gh/myschool/tilelab/main?urlpath=lab/tree/notebooks/{name}.ipynb" in out
        assert f"https://myschool.example/lite/lab/index.html?path={name}.ipynb" in out
        assert f"urlpath=lab%2Ftree%2Ftilelab%2Fnotebooks%2F{name}.ipynb&branch=main" in out
    assert "repo=https%3A%2F%2Fgithub.com%2Fmyschool%2Ftilelab" in out and "replace HUB" in out


def test_links_branch_and_hub(capsys) -> None:
    rows = links.lesson_links("a-b/c.d", ["00_start_here"], branch="spring-2026", hub="hub.school.example")
    assert rows[0]["binder"].startswith("https://mybinder.org/v2/gh/a-b/c.d/spring-2026?")
    assert rows[0]["nbgitpuller"].startswith("https://hub.school.example/hub/user-redirect/git-pull?")
    assert rows[0]["nbgitpuller"].endswith("&branch=spring-2026") and "lite" not in rows[0]


@pytest.mark.parametrize("argv, message", [
    (["links", "--repo", "tilelab"], "OWNER/NAME"),
    (["links", "--repo", "https://github.com/a/b"], "OWNER/NAME"),
    (["links", "--repo", "a/b", "--lite-url", "lite/"], "http"),
    (["links", "--repo", "a/b", "--branch", "x y"], "branch"),
])
def test_links_refuse_bad_input_with_the_fix(capsys, argv: list[str], message: str) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_readme_shows_placeholders_not_dead_links() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "github.com/tilelab/tilelab" not in readme and "gh/tilelab/tilelab" not in readme
    assert "OWNER/NAME" in readme and "python -m tilelab.teach links --student-repo" in readme
    assert "No install: the course in the browser" in readme and "make lite" in readme


# --------------------------------------------------------------------------- Pyodide, in Node.js
IMPORT_ALL = r"""
const path = require("path");
const { loadPyodide } = require(path.join(process.argv[2], "pyodide.js"));
(async () => {
  const py = await loadPyodide({ indexURL: process.argv[2] + "/" });
  await py.loadPackage(["tilelab-mplfonts", "tilelab"], { messageCallback: () => {} });
  console.log(await py.runPythonAsync(`
import contextlib, io
err = io.StringIO()
with contextlib.redirect_stderr(err):  # the font list made at build time: matplotlib builds nothing, says nothing
    import matplotlib.pyplot
import importlib, pkgutil, sys, tilelab
failed = [f"importing matplotlib said {err.getvalue()!r}"] if err.getvalue() else []
names = [m.name for m in pkgutil.walk_packages(tilelab.__path__, "tilelab.")]
for name in names:
    try:
        importlib.import_module(name)
    except ImportError as exc:
        if not name.startswith("tilelab.teach") and name != "tilelab.server_nodelay":
            failed.append(f"{name}: {exc!r}")
    except Exception as exc:
        failed.append(f"{name}: {exc!r}")
from tilelab.jit import HAVE_NUMBA
from tilelab.results import results_path
from tilelab.sliding import walk_distribution
for rule in ("puzzle8", "lazy", "no-return"):  # numpy is 32-bit there: bincount took int64 indices and raised
    try:
        walk_distribution(2, 3, 3, rule)
    except Exception as exc:
        failed.append(f"walk_distribution(2, 3, 3, {rule!r}): {exc!r}")
"|".join([sys.platform, str(HAVE_NUMBA), str(len(names)), str(results_path("bench_match3.json") is not None)] + failed)
`));
})().catch((e) => { console.error(e); process.exit(1); });
"""


@pytest.mark.slow
def test_every_module_imports_in_pyodide_without_numba(tmp_path: Path) -> None:
    """The site's own Pyodide (runtime, checked wheels, lock, tilelab wheel), run by Node.js."""
    node = shutil.which("node")
    if node is None or shutil.which("npm") is None:
        pytest.skip("Node.js/npm not installed (Debian: apt-get install nodejs npm); the browser test covers this")
    pyodide = tmp_path / "pyodide"
    lock, shipped, extra = lite.pyodide_runtime(pyodide, lite_fetch.cache_dir(), source="transport")
    fontlist = lite.cached_fontlist(pyodide, lite_fetch.cache_dir(), lock)
    lite.add_course_wheels(pyodide, lock, shipped, extra, wheels.build_tilelab_wheel(tmp_path / "wheel"),
                           lite.build_results_wheel(tmp_path / "results", lite.results_files(None)),
                           lite.build_mplfonts_wheel(tmp_path / "fonts", fontlist))
    script = tmp_path / "import_all.js"
    script.write_text(IMPORT_ALL)
    done = subprocess.run([node, str(script), str(tmp_path / "pyodide")], capture_output=True, text=True,
                          timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    fields = done.stdout.strip().splitlines()[-1].split("|")
    platform, have_numba, count, found_results, failed = fields[0], fields[1], int(fields[2]), fields[3], fields[4:]
    assert platform == "emscripten" and have_numba == "False"
    assert count > 30 and not failed, "modules that fail to import (or calls that fail) in Pyodide:\n" + "\n".join(failed)
    assert found_results == "True", "the saved results ship beside the package in the browser"


# ------------------------------------------------------------------- browser sizes of the checkers
BROWSER_CHECKS = r"""
import numpy, sys
sys.platform = "emscripten"  # what the Pyodide kernel reports: tilelab.IN_BROWSER
import tilelab
from tilelab.exercises import check
from tilelab.exercises import game2048_ai, game2048_learning
assert tilelab.IN_BROWSER
print(game2048_ai.CONTEST_DEPTH, game2048_learning.MIN_TEST_GAMES)
r = check("2048learn.tuple_shape", [(0, 1, 4, 5), (1, 2, 5, 6)], games=400)  # two squares: the two lines' size
print(r.message)
r = check("2048ai.heuristic_contest", game2048_ai.DEFAULT_WEIGHTS, games=2)
print(r.message)
"""


@pytest.mark.slow
def test_checkers_play_fewer_games_in_the_browser_kernel_and_say_so() -> None:
    """The open tasks' checkers (hours of games without a compiler) shrink when IN_BROWSER, and say so."""
    import sys

    done = subprocess.run([sys.executable, "-c", BROWSER_CHECKS], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    sizes, shape, contest = done.stdout.strip().splitlines()[-3:]
    assert sizes.split() == ["1", "10"]
    assert shape.startswith("In the browser kernel each net learns for 10 games and is tested on 10") and \
        ("After 10 training games each, on 10 fresh games" in shape or "verdict in JupyterLab" in shape), shape
    assert "depth-1 search in the browser kernel" in contest, contest
    from tilelab.exercises import game2048_ai, game2048_learning

    assert (game2048_ai.CONTEST_DEPTH, game2048_learning.MIN_TEST_GAMES) == (2, 200)
