"""The course as a website, on the Jupyter Book 1 stack: Sphinx, MyST-NB and sphinx-book-theme, built offline.

``python -m tilelab.teach site OUT`` (``make site``) builds two sites from the lessons' stored outputs (nothing is
executed):

* ``OUT/student/``: the student editions (no solutions, no teacher's notes), launch links to the student
  repository (``--student-repo``: ``make student``'s folder pushed as a repository) and the student lite site;
* ``OUT/teacher/``: the teacher edition, every solution folded under "Show the solution", launch links to the
  course repository (``--repo``) and its lite site.

Each site has full-text search, the lessons in a sidebar, each page's contents, previous and next lesson, a
download of each notebook, launch buttons (Binder, a JupyterHub through nbgitpuller, the lite site), "Going
deeper" sections marked as optional, math typeset by the site's own MathJax, each board's stored picture with
a note saying where to play it (and, when the site has a lite site's address, a button that plays the board in the
page: :func:`board_code` run by the lite site's REPL in a frame made only when the reader asks), and each stepper
stepping through its frames in the page (the stepper's stored ``text/html``: :mod:`tilelab.widgets.frames`).
Nothing is fetched at build or view time: every script, style, font and MathJax file is in the site.

The Sphinx project is written to a scratch folder: ``conf.py`` (``templates/site/conf.py.in``, which reads the
build's settings from ``site.json`` beside it), the lessons as prepared notebooks and an ``index.md``.
"""

from __future__ import annotations

import copy
import html
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import nbformat

from tilelab.teach.lessons import (  # noqa: F401  (Lesson and describe: also imported from here by lite.py)
    DEEPER_TAG,
    SOLUTION_TAG,
    Lesson,
    default_notebook_dir,
    describe,
    lesson_paths,
    minutes,
    readme_lessons,
    tags,
)
from tilelab.teach.links import (
    HUB_PLACEHOLDER,
    check_branch,
    check_repo,
    hub_base,
    lesson_links,
    lesson_url,
    relative_base,
)

TEMPLATE = Path(__file__).resolve().parent / "templates" / "site"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
EDITIONS = ("student", "teacher")
TITLE = "tilelab: the algorithms inside tile puzzles"


def _mathjax_source() -> Path:
    import jupyter_server_mathjax

    source = Path(jupyter_server_mathjax.__file__).resolve().parent / "static"
    if not (source / "MathJax.js").is_file():
        raise ValueError(f"{source} has no MathJax.js: reinstall jupyter-server-mathjax (make lab does)")
    return source


def _play_note(kind: str, has_picture: bool, here: bool = False) -> dict[str, Any]:
    """The note under a board or stepper: what it is and where to play it (an HTML output)."""
    what = "the stored picture of this " + kind if has_picture else "This " + kind
    where = ("Play it in this page with the button below, or in JupyterLab: " if here else "It plays in JupyterLab: ")
    text = (f"&#9654; {what.capitalize() if not has_picture else 'Above: ' + what}. {where}launch "
            "this lesson with the rocket button at the top of the page (Binder, your JupyterHub or the browser "
            "site) and run the cell.")
    return nbformat.v4.new_output("display_data", data={"text/html": f'<p class="tl-play">{text}</p>'})


#: The tag of a lesson's settings cell (papermill's word): the only cell a board cell may rely on.
PARAMETERS_TAG = "parameters"
#: What a board's "Play here" iframe opens: the lite site's REPL, which runs the code it is given (its input
#: hidden, no banner) and then takes more Python typed by the reader.
REPL_OPTIONS = {"kernel": "python", "toolbar": "1", "showBanner": "0", "hideCodeInput": "1", "execute": "1"}


def _free_names(source: str) -> set[str]:
    """Names a cell reads that it neither assigns, imports nor defines, and that are not built-ins.

    >>> sorted(_free_names("from x import W\\nb = W(rng=SEED)\\nprint(len(b), net)"))
    ['SEED', 'net']
    """
    import ast
    import builtins

    tree = ast.parse(source)
    bound, read = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    return read - bound - set(dir(builtins))


def board_code(nb: Any, index: int) -> str:
    """The code that brings back the board of cell ``index`` on its own: the lesson's parameters cell, then the
    board's cell (a board cell may read nothing else, so that it runs after a restart and in a page).

    >>> v4 = nbformat.v4
    >>> nb = v4.new_notebook(cells=[v4.new_code_cell("SEED = 1", metadata={"tags": ["parameters"]}),
    ...                             v4.new_code_cell("x = 2"), v4.new_code_cell("W(rng=SEED)")])
    >>> board_code(nb, 2)
    Traceback (most recent call last):
    ...
    ValueError: the board in cell 2 reads W, which neither its cell nor the parameters cell defines: a board cell must run after the parameters cell alone (make or import what it uses in the cell)
    >>> nb.cells[2].source = "from w import W\\nW(rng=SEED)"
    >>> print(board_code(nb, 2))
    SEED = 1
    <BLANKLINE>
    from w import W
    W(rng=SEED)
    """
    cells = [c for c in nb.cells[:index] if c.cell_type == "code" and PARAMETERS_TAG in tags(c)]
    parts = [c.source for c in cells[:1]] + [nb.cells[index].source]
    if cells and _free_names(parts[0]):
        raise ValueError(f"the parameters cell reads {', '.join(sorted(_free_names(parts[0])))}, which it does not "
                         "define: it must run on its own, first after a restart (import what it uses in the cell)")
    missing = _free_names(nb.cells[index].source) - (_bound_names(parts[0]) if cells else set())
    if missing:
        raise ValueError(f"the board in cell {index} reads {', '.join(sorted(missing))}, which neither its cell nor "
                         "the parameters cell defines: a board cell must run after the parameters cell alone (make or "
                         "import what it uses in the cell)")
    return "\n\n".join(parts)


def _bound_names(source: str) -> set[str]:
    """Names a cell assigns, imports or defines at its top level."""
    import ast

    names = set()
    for node in ast.parse(source).body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        for target in filter(None, targets):
            names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


def _play_here(code: str, repl: str) -> dict[str, Any]:
    """The button under a board's stored picture that starts Python in the page (the lite site's REPL in an
    iframe, made only when the reader asks: ``tilelab-play.js``) and plays the board there."""
    from urllib.parse import urlencode

    src = html.escape(f"{repl}?{urlencode({**REPL_OPTIONS, 'code': code})}", quote=True)
    text = ('<div class="tl-live" data-src="{src}"><button type="button" class="tl-live-start">&#9654; Play this '
            'board here</button> <span class="tl-live-say">Python starts in this page (about 20 seconds the first '
            "time, nothing is installed); the board appears below.</span></div>").format(src=src)
    return nbformat.v4.new_output("display_data", data={"text/html": text})


def _step_note() -> dict[str, Any]:
    """The note under a stepper whose frames step in the page."""
    text = ("&#9654; Above: frames of this stepper, stored when the lesson ran; step with its buttons (or the arrow "
            "keys). To step through every step or another board, launch this lesson with the rocket button at the "
            "top of the page and run the cell.")
    return nbformat.v4.new_output("display_data", data={"text/html": f'<p class="tl-play">{text}</p>'})


def _widget_kind(output: dict[str, Any]) -> str:
    text = str(output.get("data", {}).get("text/plain", "")).lower()
    return "stepper" if "stepper" in text or "step" in text else "board"


def site_notebook(nb: Any, edition: str, repl: str | None = None) -> Any:
    """A copy of a lesson prepared for the site: the edition's cells, each widget replaced by its stored picture
    and a note, solutions folded (teacher), "Going deeper" markdown wrapped as optional. With ``repl`` (the lite
    site's REPL page), each board also gets a button that plays it in the page (:func:`board_code`).

    >>> v4 = nbformat.v4
    >>> nb = v4.new_notebook(cells=[
    ...     v4.new_markdown_cell("## Going deeper (optional)\\n\\nA proof.", metadata={"tags": ["deeper"]}),
    ...     v4.new_code_cell("board", outputs=[v4.new_output("display_data", data={
    ...         "application/vnd.jupyter.widget-view+json": {"model_id": "x"}, "image/png": "iVBO",
    ...         "text/plain": "Game2048Widget()"})]),
    ...     v4.new_code_cell("answer()", metadata={"tags": ["solution"]})])
    >>> out = site_notebook(nb, "teacher")
    >>> print(out.cells[0].source)
    ## Going deeper (optional)
    <BLANKLINE>
    :::{container} tl-deeper
    A proof.
    :::
    >>> [sorted(o.data) for o in out.cells[1].outputs]
    [['image/png', 'text/plain'], ['text/html']]
    >>> out.cells[2].metadata.tags, len(site_notebook(nb, "student").cells)
    (['solution', 'hide-cell'], 2)
    """
    if edition not in EDITIONS:
        raise ValueError(f"edition is one of {EDITIONS}, got {edition!r}")
    if edition == "student":
        from tilelab.teach.student import student_edition

        from tilelab.teach.assignments import TEST_TAG

        nb = student_edition(nb)
        nb.cells = [cell for cell in nb.cells if TEST_TAG not in tags(cell)]  # the grader's cells: not for reading
    else:
        nb = nbformat.from_dict(copy.deepcopy(nb))
    nb.metadata.pop("widgets", None)  # no widget state: the page never loads the widget scripts
    from tilelab.widgets.frames import FRAMES_MIME, stepper_html  # a stepper's frames, made when its cell ran

    for index, cell in enumerate(nb.cells):
        t = tags(cell)
        if cell.cell_type == "markdown" and DEEPER_TAG in t:
            cell.source = _wrap_deeper(cell.source)
        if cell.cell_type != "code":
            continue
        if SOLUTION_TAG in t:
            cell.metadata["tags"] = [*t, "hide-cell"]  # folded, its "passed" too
            cell.metadata.setdefault("mystnb", {}).update(code_prompt_show="Show the solution",
                                                           code_prompt_hide="Hide the solution")
        outputs = []
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_VIEW not in data:
                outputs.append(output)
                continue
            kind = _widget_kind(output)
            rest = {k: v for k, v in data.items() if k != WIDGET_VIEW}
            if FRAMES_MIME in rest:  # a stepper with its stored frames: they step in the page
                page = {"text/html": stepper_html(rest[FRAMES_MIME]), "text/plain": rest.get("text/plain", "")}
                outputs += [nbformat.from_dict({**output, "data": page}), _step_note()]
                continue
            if "image/png" in rest:
                outputs.append(nbformat.from_dict({**output, "data": rest}))
            outputs.append(_play_note(kind, "image/png" in rest, here=repl is not None))
            if repl is not None:
                outputs.append(_play_here(board_code(nb, index), repl))
        cell.outputs = outputs
    return nb


def _wrap_deeper(source: str) -> str:
    """A "Going deeper" markdown cell: its headings as they are (the page's contents keep them), the rest in
    a ``tl-deeper`` container styled as optional."""
    out, block = [], []

    def flush() -> None:
        body = "\n".join(block).strip()
        if body:
            out.append(f":::{{container}} tl-deeper\n{body}\n:::")
        block.clear()

    fence = False
    for line in source.split("\n"):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        if not fence and line.startswith("#"):
            flush()
            out.append(line)
        else:
            block.append(line)
    flush()
    return "\n\n".join(out)


def _index(lessons: list[Lesson], times: dict[str, str | None], edition: str) -> str:
    rows = "\n".join(
        f"| [{lesson.title.replace('|', '/')}]({lesson.name}.ipynb) | {lesson.summary.replace('|', '/')} | "
        f"{times[lesson.name] + ' min' if times[lesson.name] else ''} |" for lesson in lessons)
    toc = "\n".join(lesson.name for lesson in lessons)
    who = ("the student edition: every exercise checks itself, and no solution is shown" if edition == "student"
           else "the teacher edition: each solution is folded under *Show the solution*")
    return f"""# {TITLE}

A course on the algorithms inside three tile puzzles: how 2048 slides and merges and how an AI and a learned
player play it, why half of all sliding-puzzle shuffles can never be solved and how solvers from breadth-first
search to IDA* find the shortest solution, and how match-3 games match, cascade, deal and reshuffle. This is
{who}.

Each lesson shows its stored figures and board pictures. To run a lesson and play its boards, open it with the
rocket button at the top of its page, or download it (the arrow button) and open it in JupyterLab.

| lesson | what you learn | time |
|---|---|---|
{rows}

```{{toctree}}
:hidden:
:maxdepth: 1

{toc}
```
"""


def write_project(src: Path, notebooks: str | os.PathLike | None, edition: str,
                  settings: dict[str, Any]) -> list[Lesson]:
    """Write the Sphinx project of one edition into ``src``; return its lessons."""
    folder = Path(notebooks) if notebooks is not None else default_notebook_dir()
    paths = lesson_paths(folder)
    if not paths:
        raise ValueError(f"no lessons (*.ipynb) in {folder}")
    src.mkdir(parents=True, exist_ok=True)
    lessons, times, originals = [], {}, {}
    what = readme_lessons(folder.resolve().parent / "README.md")  # the README's "what students learn", if any
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        lesson = describe(path, nb)
        if what.get(lesson.name):
            lesson = Lesson(lesson.name, lesson.title, what[lesson.name], lesson.path)
        lessons.append(lesson)
        times[lesson.name] = minutes(nb)
        nbformat.write(site_notebook(nb, edition, settings.get("repl")), src / path.name)
        originals[lesson.name] = path
    (src / "index.md").write_text(_index(lessons, times, edition), encoding="utf-8")
    shutil.copy2(TEMPLATE / "conf.py.in", src / "conf.py")
    static = src / "_static"
    static.mkdir(exist_ok=True)
    for name in ("tilelab.css", "tilelab-play.js"):
        shutil.copy2(TEMPLATE / name, static / name)
    shutil.copytree(_mathjax_source(), static / "mathjax", dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("localization"))
    (src / "site.json").write_text(json.dumps({**settings, "title": TITLE, "edition": edition,
                                               "lessons": [lesson.name for lesson in lessons]}, indent=1),
                                   encoding="utf-8")
    return lessons


def launch_settings(edition: str, names: list[str], *, repo: str | None, branch: str, hub: str | None,
                    lite_url: str | None) -> dict[str, Any]:
    """Each lesson's launch links for one edition's pages (checked: see :mod:`tilelab.teach.links`)."""
    launch: dict[str, dict[str, str]] = {name: {} for name in names}
    if repo is not None:
        rows = lesson_links(repo, names, branch=branch, hub=hub or HUB_PLACEHOLDER,
                            layout="course" if edition == "teacher" else "student")
        for row in rows:
            launch[row["lesson"]]["Binder"] = row["binder"]
            if hub is not None:
                launch[row["lesson"]]["JupyterHub"] = row["nbgitpuller"]
    repl = None
    if lite_url is not None:
        base = relative_base(lite_url)
        repl = base + "repl/index.html"
        for name in names:
            launch[name]["JupyterLite"] = base + lesson_url(name)  # the name quoted: it goes into an attribute
    return {"launch": launch, "repository": f"https://github.com/{repo}" if repo else None, "branch": branch,
            "repl": repl}


def download(path: Path, edition: str) -> Any:
    """The notebook a page's download button hands out: the edition as it is opened in JupyterLab, not the copy
    prepared for the page (the student edition: the nbgrader release, the notebook students hand in)."""
    nb = nbformat.read(path, as_version=4)
    if edition == "student":
        from tilelab.teach.student import student_edition

        return student_edition(nb, path.stem)
    return nb


def build_site(out: str | os.PathLike, notebooks: str | os.PathLike | None = None, *, edition: str = "student",
               repo: str | None = None, branch: str = "main", hub: str | None = None, lite_url: str | None = None,
               quiet: bool = False) -> Path:
    """Build one edition's website into ``out``; return the path of its ``index.html``.

    ``repo`` is the GitHub repository (``OWNER/NAME``) the launch links open: the course repository for the
    teacher edition, the student repository for the student edition. ``hub`` is a JupyterHub's address (as a
    teacher would paste it), ``lite_url`` the lite site's address (or a path relative to ``out``).
    """
    if edition not in EDITIONS:
        raise ValueError(f"edition is one of {EDITIONS}, got {edition!r}")
    if repo is not None:
        check_repo(repo)
    check_branch(branch)
    if hub is not None:
        hub_base(hub)
    if lite_url is not None:
        relative_base(lite_url)
    out = Path(out)
    folder = Path(notebooks) if notebooks is not None else default_notebook_dir()
    names = [p.stem for p in lesson_paths(folder)]
    settings = launch_settings(edition, names, repo=repo, branch=branch, hub=hub, lite_url=lite_url)
    with tempfile.TemporaryDirectory(prefix="tilelab-site-") as scratch:
        src = Path(scratch) / "src"
        write_project(src, folder, edition, settings)
        build = Path(scratch) / "html"
        command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-d", str(Path(scratch) / "doctrees"),
                   str(src), str(build)]
        done = subprocess.run(command, capture_output=True, text=True)
        problems = [line for line in done.stderr.splitlines() if "WARNING" in line or "ERROR" in line]
        if done.returncode != 0:
            raise RuntimeError(f"sphinx could not build the {edition} site:\n{done.stderr[-4000:]}")
        if problems and not quiet:
            print("\n".join(problems[:20]), file=sys.stderr)
        for path in lesson_paths(folder):
            nbformat.write(download(path, edition), build / "_sources" / path.name)
        if out.exists():
            shutil.rmtree(out)
        shutil.copytree(build, out)
    return out / "index.html"


def build_sites(out: str | os.PathLike, notebooks: str | os.PathLike | None = None, *, repo: str | None = None,
                student_repo: str | None = None, branch: str = "main", hub: str | None = None,
                lite_url: str | None = None, student_lite_url: str | None = None,
                editions: tuple[str, ...] = EDITIONS, quiet: bool = False) -> dict[str, Path]:
    """Both editions' websites into ``out/student`` and ``out/teacher``, each with its own launch links."""
    for given in (repo, student_repo):  # every address is checked before anything is written
        if given is not None:
            check_repo(given)
    check_branch(branch)
    if hub is not None:
        hub_base(hub)
    for given in (lite_url, student_lite_url):
        if given is not None:
            relative_base(given)
    out = Path(out)
    built = {}
    for edition in editions:
        start = time.perf_counter()
        built[edition] = build_site(
            out / edition, notebooks, edition=edition, branch=branch, hub=hub, quiet=quiet,
            repo=student_repo if edition == "student" else repo,
            lite_url=student_lite_url if edition == "student" else lite_url)
        if not quiet:
            print(f"{edition} site: {built[edition]} ({time.perf_counter() - start:.1f} s)")
    return built
