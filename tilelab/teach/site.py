"""The course as a static website: every lesson rendered by nbconvert, an index, launch links.

Each lesson becomes ``NAME.html`` (nbconvert's JupyterLab template with its stored outputs:
figures, board pictures, printed results) with a navigation bar (contents, previous, next) and
launch links (a local JupyterLab; Binder with ``repo``; the lite site with ``lite_url``). ``index.html``
is the table of contents. Links between lessons point at their pages; links to other files of the
repository point at GitHub (with ``repo``). Widgets cannot run without a kernel: a board shows its stored
picture, or a note with the launch links.

The course's GitHub repository is the teacher's own copy, so it is configuration, never a fixed name:
``python -m tilelab.teach site --repo OWNER/NAME`` (``make site REPO=OWNER/NAME``). Without it the
pages have no Binder or GitHub links rather than links to a repository that may not exist.
"""

from __future__ import annotations

import copy
import html
import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import nbformat

from tilelab.teach.lessons import lesson_paths

#: Binder and GitHub addresses; ``{repo}`` is ``OWNER/NAME`` (see :func:`binder_url`, :func:`github_url`).
BINDER = "https://mybinder.org/v2/gh/{repo}/{branch}?urlpath=lab/tree/notebooks/{name}.ipynb"
LOCAL_LAB = "http://localhost:8888/lab/tree/{name}.ipynb"
GITHUB = "https://github.com/{repo}/blob/{branch}/{path}"
TEMPLATES = Path(__file__).resolve().parent / "templates"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

CSS = """
.tl-nav{display:flex;flex-wrap:wrap;gap:6px 18px;align-items:center;font-family:sans-serif;font-size:15px;
 padding:8px 12px;margin:0 0 12px 0;background:#f3f5f8;border:1px solid #d8dde5;border-radius:6px}
.tl-nav a{text-decoration:none;color:#174ea6}.tl-nav a:hover{text-decoration:underline}
.tl-nav .tl-launch{margin-left:auto}
.tl-board-note{font-family:sans-serif;padding:8px 12px;border:1px dashed #aab;border-radius:6px;background:#fafbfd}
"""
INDEX_CSS = """
body{font-family:sans-serif;max-width:56rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#222}
h1{margin-bottom:.2rem} ol{padding-left:1.4rem} li{margin:0 0 1rem 0}
li a.tl-title{font-weight:bold;font-size:1.1rem;text-decoration:none;color:#174ea6}
.tl-launch{font-size:.9rem} .tl-launch a{color:#555}
"""


@dataclass(frozen=True)
class Lesson:
    """One page of the site."""

    name: str
    title: str
    summary: str
    path: Path


def _plain(markdown: str) -> str:
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", markdown)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[*_`#>]", "", text)
    return " ".join(text.split())


def describe(path: Path, nb: Any) -> Lesson:
    """Title (first ``#`` heading) and summary (first paragraph after it) of a lesson.

    >>> import nbformat
    >>> text = "# 01 · Merge\\n\\nYou can:\\n\\n- slide\\n\\nHow *tiles* slide and merge when you swipe a 2048 board left."
    >>> lesson = describe(Path("01_merge.ipynb"), nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(text)]))
    >>> lesson.title, lesson.summary
    ('01 · Merge', 'How tiles slide and merge when you swipe a 2048 board left.')
    """
    title, summary = path.stem.replace("_", " "), ""
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        lines = cell.source.strip().splitlines()
        if title == path.stem.replace("_", " ") and lines and lines[0].startswith("# "):
            title = _plain(lines[0][2:])
            lines = lines[1:]
        for block in "\n".join(lines).strip().split("\n\n"):
            if re.match(r"\s*([-*+]|\d+\.)\s", block):
                continue  # a list (e.g. the goals): not a summary
            paragraph = _plain(block)
            if len(paragraph.split()) >= 12:  # skip lead-ins such as "By the end of this lesson you can"
                summary = paragraph if len(paragraph) <= 300 else paragraph[:297].rsplit(" ", 1)[0] + " ..."
                return Lesson(path.stem, title, summary, path)
    return Lesson(path.stem, title, summary, path)


def binder_url(name: str, repo: str, branch: str = "main") -> str:
    """Binder's address for lesson ``name`` of the course in GitHub repository ``repo`` (``OWNER/NAME``).

    >>> binder_url("00_start_here", "myschool/tilelab")
    'https://mybinder.org/v2/gh/myschool/tilelab/main?urlpath=lab/tree/notebooks/00_start_here.ipynb'
    """
    from tilelab.teach.links import check_branch, check_repo

    return BINDER.format(repo=check_repo(repo), branch=quote(check_branch(branch), safe=""), name=quote(name))


def github_url(path: str, repo: str, branch: str = "main") -> str:
    """GitHub's page for the repository file ``path`` (relative to the repository's root).

    >>> github_url("benchmarks/bench_2048.py", "myschool/tilelab", "spring")
    'https://github.com/myschool/tilelab/blob/spring/benchmarks/bench_2048.py'
    """
    from tilelab.teach.links import check_branch, check_repo

    return GITHUB.format(repo=check_repo(repo), branch=quote(check_branch(branch), safe="/"),
                         path=quote(path, safe="/"))


def _launch_links(name: str, lite_url: str | None, repo: str | None, branch: str) -> str:
    """The launch links of lesson ``name``: the lite site, Binder (with ``repo``), a local JupyterLab."""
    binder = (f'<a href="{html.escape(binder_url(name, repo, branch))}">Launch on Binder</a> &middot; '
              if repo else "")
    return (f"{_lite_link(name, lite_url)}{binder}"
            f'<a href="{LOCAL_LAB.format(name=quote(name))}" title="after make lab">Open in local JupyterLab</a>')


def site_notebook(nb: Any, name: str, repo: str | None = None, branch: str = "main",
                  lite_url: str | None = None) -> Any:
    """A copy of ``nb`` for the static site: widget views replaced by their stored picture or a note.

    >>> import nbformat
    >>> v4 = nbformat.v4
    >>> out = v4.new_output("execute_result", data={WIDGET_VIEW: {"model_id": "x"}, "text/plain": "VBox()"})
    >>> nb = site_notebook(v4.new_notebook(cells=[v4.new_code_cell("board", outputs=[out])]), "00_start_here")
    >>> sorted(nb.cells[0].outputs[0].data)
    ['text/html']
    """
    nb = copy.deepcopy(nb)
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            data = output.get("data")
            if not data or WIDGET_VIEW not in data:
                continue
            del data[WIDGET_VIEW]
            if "text/html" not in data and "image/png" not in data:
                data.clear()
                data["text/html"] = _board_note(name, repo, branch, lite_url)
    return nb


def _board_note(name: str, repo: str | None, branch: str, lite_url: str | None) -> str:
    """What a page shows where a lesson has a board and no stored picture of it: where to play it."""
    ways = []
    if lite_url:
        base = lite_url if lite_url.endswith("/") else lite_url + "/"
        ways.append(f'<a href="{html.escape(base)}lab/index.html?path={quote(name)}.ipynb">run this lesson in '
                    "your browser</a>")
    if repo:
        ways.append(f'<a href="{html.escape(binder_url(name, repo, branch))}">launch it on Binder</a>')
    ways.append("open it in JupyterLab (<code>make lab</code>)")
    return ('<div class="tl-board-note">&#9654; An interactive board is here: ' + ", or ".join(ways)
            + " to play.</div>")


def _lite_link(name: str, lite_url: str | None) -> str:
    """A "Run in your browser" link to lesson ``name`` on the lite site (``make lite``), or nothing.

    >>> _lite_link("00_start_here", "lite/")
    '<a href="lite/lab/index.html?path=00_start_here.ipynb" title="JupyterLite: nothing to install">Run in your browser</a> &middot; '
    """
    if not lite_url:
        return ""
    base = lite_url if lite_url.endswith("/") else lite_url + "/"
    url = f"{base}lab/index.html?path={quote(name)}.ipynb"
    return f'<a href="{html.escape(url)}" title="JupyterLite: nothing to install">Run in your browser</a> &middot; '


def _nav(lessons: list[Lesson], i: int, lite_url: str | None = None, repo: str | None = None,
         branch: str = "main") -> str:
    lesson = lessons[i]
    parts = ['<nav class="tl-nav">', '<a href="index.html">&#9776; Contents</a>']
    if i > 0:
        parts.append(f'<a href="{lessons[i - 1].name}.html" rel="prev">&larr; {html.escape(lessons[i - 1].title)}</a>')
    if i + 1 < len(lessons):
        parts.append(f'<a href="{lessons[i + 1].name}.html" rel="next">{html.escape(lessons[i + 1].title)} &rarr;</a>')
    parts.append(f'<span class="tl-launch">{_launch_links(lesson.name, lite_url, repo, branch)}</span>')
    parts.append("</nav>")
    return "".join(parts)


_LINK = re.compile(r'(?P<attr>href|src)="(?P<url>[^"]*)"')


def _fix_links(page: str, notebook_dir: Path, repo_root: Path, lesson_names: set[str], out: Path,
               repo: str | None = None, branch: str = "main") -> str:
    """Lesson links -> their pages; other repository files -> GitHub (with ``repo``); local images copied.

    A link to a file that does not exist, or to a repository file when no ``repo`` is given, is left as
    it is (the site test reports it as broken).
    """

    def fix(match: re.Match) -> str:
        attr, url = match.group("attr"), html.unescape(match.group("url"))
        if not url or re.match(r"^([a-z][a-z0-9+.-]*:|#|//)", url, re.I):
            return match.group(0)  # absolute, data: or in-page
        path, _, fragment = url.partition("#")
        path = path.split("?")[0]
        if attr == "href" and path.endswith(".ipynb") and "/" not in path and path[:-6] in lesson_names:
            new = path[:-6] + ".html" + ("#" + fragment if fragment else "")
            return f'{attr}="{html.escape(new)}"'
        if path == "index.html" or (path.endswith(".html") and path[:-5] in lesson_names):
            return match.group(0)  # a page of this site
        target = (notebook_dir / path).resolve()
        if attr == "src" and target.is_file() and target.is_relative_to(notebook_dir.resolve()):
            copied = out / target.relative_to(notebook_dir.resolve())
            copied.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(target, copied)
            return match.group(0)
        if repo and target.exists() and target.is_relative_to(repo_root.resolve()):
            new = github_url(target.relative_to(repo_root.resolve()).as_posix(), repo, branch)
            return f'{attr}="{html.escape(new + ("#" + fragment if fragment else ""))}"'
        return match.group(0)

    return _LINK.sub(fix, page)


def _index(lessons: list[Lesson], lite_url: str | None = None, repo: str | None = None,
           branch: str = "main") -> str:
    items = "".join(
        f'<li><a class="tl-title" href="{l.name}.html">{html.escape(l.title)}</a><br>{html.escape(l.summary)}<br>'
        f'<span class="tl-launch">{_launch_links(l.name, lite_url, repo, branch)}</span></li>'
        for l in lessons
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1.0">'
        f"<title>tilelab: the course</title><style>{INDEX_CSS}</style></head><body>"
        "<h1>tilelab</h1><p>A course, in Jupyter notebooks, on the algorithms inside 2048, the sliding-tile "
        "puzzle and match-3 games. These pages show each lesson with its stored results; launch a lesson to "
        "run it and play its boards (" + ("in your browser or on Binder: nothing to install"
                                          if lite_url and repo else "in your browser: nothing to install"
                                          if lite_url else "on Binder: nothing to install" if repo else
                                          "JupyterLab") + "; locally, <code>make lab</code> first).</p>"
        f"<h2>Lessons</h2><ol>{items}</ol>"
        f'<p class="tl-launch">Built {time.strftime("%Y-%m-%d")} with nbconvert.</p></body></html>\n'
    )


def _has_math(nb: Any) -> bool:
    return any(c.cell_type == "markdown" and "$" in c.source for c in nb.cells)


def copy_mathjax(out: Path) -> str | None:
    """Copy MathJax (from the ``jupyter-server-mathjax`` package) into ``out/mathjax``; its relative URL.

    ``None`` when that package is missing: the pages then load MathJax from nbconvert's CDN address.
    """
    try:
        import jupyter_server_mathjax
    except ImportError:
        return None
    source = Path(jupyter_server_mathjax.__file__).resolve().parent / "static"
    if not (source / "MathJax.js").is_file():
        return None
    shutil.copytree(source, Path(out) / "mathjax", dirs_exist_ok=True)
    return "mathjax"


def build_site(
    out: str | os.PathLike, notebooks: str | os.PathLike | None = None, *, quiet: bool = False,
    lite_url: str | None = None, repo: str | None = None, branch: str = "main",
) -> list[Path]:
    """Render every lesson in ``notebooks`` to ``out/NAME.html`` plus ``out/index.html``; return the pages.

    ``lite_url``: where the lite site (``make lite``) is hosted, relative to the site (``lite/``) or a full
    URL; each page then links "Run in your browser" to its lesson there. ``repo``: the course's GitHub
    repository as ``OWNER/NAME`` (and its ``branch``): pages link "Launch on Binder" and repository files
    to it; without it they have neither.
    """
    if repo is not None:
        from tilelab.teach.links import check_branch, check_repo

        check_repo(repo)
        check_branch(branch)
    from nbconvert import HTMLExporter

    paths = lesson_paths(notebooks)
    if not paths:
        raise ValueError("no notebooks to build a site from")
    notebook_dir = paths[0].parent.resolve()
    repo_root = notebook_dir.parent
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    books = [nbformat.read(p, as_version=4) for p in paths]
    lessons = [describe(p, nb) for p, nb in zip(paths, books)]
    names = {l.name for l in lessons}
    exporter = HTMLExporter(template_name="tilelab_site", extra_template_basedirs=[str(TEMPLATES)])
    local = copy_mathjax(out) if any(_has_math(nb) for nb in books) else None
    if local is not None:  # offline: the pages load MathJax from the site itself
        exporter.mathjax_url = f"{local}/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full,Safe"
    pages = []
    for i, (lesson, nb) in enumerate(zip(lessons, books)):
        start = time.perf_counter()
        has_math = _has_math(nb)
        resources = {
            "metadata": {"name": lesson.title, "path": str(notebook_dir)},
            "tilelab": {"nav_top": _nav(lessons, i, lite_url, repo, branch),
                        "nav_bottom": _nav(lessons, i, lite_url, repo, branch), "css": CSS, "has_math": has_math,
                        "local_mathjax": local is not None},
        }
        body, _ = exporter.from_notebook_node(site_notebook(nb, lesson.name, repo, branch, lite_url),
                                              resources=resources)
        page = out / f"{lesson.name}.html"
        page.write_text(_fix_links(body, notebook_dir, repo_root, names, out, repo, branch), encoding="utf-8")
        pages.append(page)
        if not quiet:
            print(f"{page} ({time.perf_counter() - start:.1f} s)")
    index = out / "index.html"
    index.write_text(_index(lessons, lite_url, repo, branch), encoding="utf-8")
    return [index, *pages]
