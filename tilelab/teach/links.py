"""Launch links for a hosted course: Binder, nbgitpuller (a JupyterHub) and the lite site, per lesson.

``python -m tilelab.teach links --repo OWNER/NAME`` prints them; nothing here guesses a repository. Every value
that ends up in a link is checked whole (a trailing newline, ``..``, a ``javascript:`` address are refused), so a
link printed or written into a page is the one the teacher meant.

Two layouts: the course repository (lessons in ``notebooks/``, the teacher edition) and a student repository
(``make student``'s folder pushed as a repository of its own: the student editions at its root).
"""

from __future__ import annotations

import os
import re
from typing import Callable, Sequence
from urllib.parse import quote, unquote, urlsplit

from tilelab.teach.lessons import lesson_paths

# ---------------------------------------------------------------------------------- launch links
BINDER_LINK = "https://mybinder.org/v2/gh/{repo}/{branch}?urlpath={urlpath}"
PULLER_LINK = "{hub}/hub/user-redirect/git-pull?repo={repo_url}&urlpath={urlpath}&branch={branch}"
HUB_PLACEHOLDER = "HUB"
_OWNER = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})"
_NAME = r"[A-Za-z0-9._-]{1,100}"
_HOST_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST = rf"(?:{_HOST_LABEL}\.)*{_HOST_LABEL}"
_SEGMENT = r"[A-Za-z0-9._~!$&'()*+,;=:@%-]+"
LAYOUTS = {"course": "notebooks/", "student": ""}  #: where the lessons sit in each kind of repository


def lesson_url(name: str) -> str:
    """URL (relative to the site's root) that opens lesson ``name`` in JupyterLite.

    >>> lesson_url("00_start_here")
    'lab/index.html?path=00_start_here.ipynb'
    >>> lesson_url('x" onmouseover="alert(1)')
    'lab/index.html?path=x%22%20onmouseover%3D%22alert%281%29.ipynb'
    """
    return f"lab/index.html?path={quote(name + '.ipynb', safe='')}"


def check_repo(repo: str) -> str:
    """``repo`` if it reads as GitHub's ``OWNER/NAME``, else a ValueError saying what to give.

    >>> check_repo("school/tilelab")
    'school/tilelab'
    >>> check_repo("https://github.com/school/tilelab")
    Traceback (most recent call last):
    ...
    ValueError: --repo takes OWNER/NAME as GitHub spells it (e.g. myschool/tilelab), got 'https://github.com/school/tilelab'
    >>> check_repo("school/..")
    Traceback (most recent call last):
    ...
    ValueError: --repo takes OWNER/NAME as GitHub spells it (e.g. myschool/tilelab), got 'school/..'
    """
    if (not isinstance(repo, str) or not re.fullmatch(f"{_OWNER}/{_NAME}", repo) or repo.endswith((".git", "/"))
            or repo.split("/")[1] in (".", "..")):
        raise ValueError(f"--repo takes OWNER/NAME as GitHub spells it (e.g. myschool/tilelab), got {repo!r}")
    return repo


def check_branch(branch: str) -> str:
    """``branch`` if git takes it as a branch name (the rules of ``git check-ref-format --branch``) and it needs
    no quoting in a link, else a ValueError saying what to give.

    >>> check_branch("spring-2026/week.1")
    'spring-2026/week.1'
    >>> check_branch("a/.b")
    Traceback (most recent call last):
    ...
    ValueError: --branch takes a branch name git accepts, such as main, got 'a/.b'
    """
    fail = ValueError(f"--branch takes a branch name git accepts, such as main, got {branch!r}")
    if not isinstance(branch, str) or not re.fullmatch(r"[A-Za-z0-9._/-]+", branch):
        raise fail  # git also takes some other characters; a link would have to quote them
    components = branch.split("/")
    if (branch.startswith("-") or branch.endswith(".") or ".." in branch or branch == "HEAD"
            or any(not c or c.startswith(".") or c.endswith(".lock") for c in components)):
        raise fail  # git-check-ref-format(1) rules 1, 3, 6 and 7; --branch: no "-" first, not HEAD
    return branch


def _web_address(url: str, what: str, example: str, *, bare_host: bool = False) -> tuple[str, str, str]:
    """(scheme, host[:port], path) of an http(s) address checked whole, else a ValueError naming ``what``;
    ``bare_host``: a host name alone means https."""
    fail = ValueError(f"{what} takes an address such as {example}, got {url!r}")
    if not isinstance(url, str) or not re.fullmatch(r"[\x21-\x7e]+", url):
        raise fail  # spaces, newlines, quotes' cousins beyond ASCII, control characters
    if "://" not in url and bare_host:
        url = "https://" + url
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or parts.query or parts.fragment or parts.username or parts.password:
        raise fail
    host, _, port = parts.netloc.partition(":")
    if not re.fullmatch(_HOST, host) or not re.search(r"[A-Za-z]", host) and not re.fullmatch(r"[\d.]+", host):
        raise fail
    if port and not (port.isdigit() and 0 < int(port) < 65536):
        raise fail
    segments = [s for s in parts.path.split("/") if s]
    if (any(unquote(s) in (".", "..") or not re.fullmatch(_SEGMENT, s) for s in segments) or "'" in parts.path
            or re.search(r"%2f|%5c", parts.path, re.I)):  # a browser reads %2e%2e as "..", %2f as "/"
        raise fail
    return parts.scheme, parts.netloc, "/".join(segments)


def hub_base(hub: str) -> str:
    """The JupyterHub's base address, from what a teacher would paste: a host name, or the hub's URL with its
    scheme, port and path prefix (a trailing ``/hub/...`` part is dropped).

    >>> hub_base("hub.school.example")
    'https://hub.school.example'
    >>> hub_base("http://hub.school.example:8443/course/hub/home")
    'http://hub.school.example:8443/course'
    >>> hub_base("..")
    Traceback (most recent call last):
    ...
    ValueError: --hub takes an address such as https://hub.school.example/ (a host name, or the hub's URL with its port and path prefix), got '..'
    """
    if hub == HUB_PLACEHOLDER:
        return f"https://{HUB_PLACEHOLDER}"
    scheme, netloc, path = _web_address(
        hub, "--hub", "https://hub.school.example/ (a host name, or the hub's URL with its port and path prefix)",
        bare_host=True)
    segments = path.split("/") if path else []
    if "hub" in segments:
        segments = segments[: segments.index("hub")]
    return f"{scheme}://{netloc}" + "".join(f"/{s}" for s in segments)


def lite_base(url: str) -> str:
    """The lite site's root URL with one trailing slash (an ``index.html`` at its end is dropped).

    >>> lite_base("https://school.example/tilelab/lite/index.html")
    'https://school.example/tilelab/lite/'
    >>> lite_base("javascript:alert(1)//")
    Traceback (most recent call last):
    ...
    ValueError: --lite-url takes an address such as https://school.example/tilelab/lite/ (with http:// or https://), got 'javascript:alert(1)//'
    """
    scheme, netloc, path = _web_address(url, "--lite-url", "https://school.example/tilelab/lite/ (with http:// or "
                                                           "https://)")
    if path.endswith("index.html"):
        path = path[: -len("index.html")].rstrip("/")
    return f"{scheme}://{netloc}/" + (f"{path}/" if path else "")


def relative_base(url: str) -> str:
    """A lite site's address for a web page: an http(s) address (:func:`lite_base`) or a path relative to the
    page's folder, such as ``../lite/`` (letters, digits, ``._~-`` and ``/``).

    >>> relative_base("../lite")
    '../lite/'
    >>> relative_base("javascript:alert(1)")
    Traceback (most recent call last):
    ...
    ValueError: --lite-url takes an address such as https://school.example/tilelab/lite/ or a relative path such as ../lite/, got 'javascript:alert(1)'
    """
    if isinstance(url, str) and re.match(r"^https?://", url):
        return lite_base(url)
    if (not isinstance(url, str) or not re.fullmatch(r"[A-Za-z0-9._~-]+(?:/[A-Za-z0-9._~-]+)*/?", url)
            or url.startswith(("/", "-"))):
        raise ValueError("--lite-url takes an address such as https://school.example/tilelab/lite/ or a relative "
                         f"path such as ../lite/, got {url!r}")
    if url.endswith("index.html"):
        url = url[: -len("index.html")]
    return url.rstrip("/") + "/"


def lesson_links(repo: str, names: Sequence[str], *, branch: str = "main", lite_url: str | None = None,
                 hub: str = HUB_PLACEHOLDER, layout: str = "course") -> list[dict[str, str]]:
    """Binder, nbgitpuller and (with ``lite_url``) lite links for each lesson in ``names``.

    ``layout`` is ``"course"`` (this repository: lessons in ``notebooks/``) or ``"student"`` (a repository
    holding ``make student``'s folder: lessons at its root).

    >>> links = lesson_links("school/tilelab", ["00_start_here"], lite_url="https://x.example/lite")
    >>> links[0]["binder"]
    'https://mybinder.org/v2/gh/school/tilelab/main?urlpath=lab/tree/notebooks/00_start_here.ipynb'
    >>> links[0]["nbgitpuller"]  # doctest: +NORMALIZE_WHITESPACE
    'https://HUB/hub/user-redirect/git-pull?repo=https%3A%2F%2Fgithub.com%2Fschool%2Ftilelab&urlpath=lab%2Ftree%2Ftilelab%2Fnotebooks%2F00_start_here.ipynb&branch=main'
    >>> links[0]["lite"]
    'https://x.example/lite/lab/index.html?path=00_start_here.ipynb'
    >>> lesson_links("school/tl-student", ["00_start_here"], layout="student", hub="hub.x.example")[0]["nbgitpuller"]
    'https://hub.x.example/hub/user-redirect/git-pull?repo=https%3A%2F%2Fgithub.com%2Fschool%2Ftl-student&urlpath=lab%2Ftree%2Ftl-student%2F00_start_here.ipynb&branch=main'
    """
    check_repo(repo)
    check_branch(branch)
    if layout not in LAYOUTS:
        raise ValueError(f"layout is one of {sorted(LAYOUTS)}, got {layout!r}")
    base = hub_base(hub)
    lite = lite_base(lite_url) if lite_url else None
    folder = repo.split("/", 1)[1]
    rows = []
    for name in names:
        notebook = f"{LAYOUTS[layout]}{name}.ipynb"
        row = {
            "lesson": name,
            "binder": BINDER_LINK.format(repo=repo, branch=quote(branch, safe=""),
                                         urlpath=quote(f"lab/tree/{notebook}", safe="/")),
            "nbgitpuller": PULLER_LINK.format(hub=base, repo_url=quote(f"https://github.com/{repo}", safe=""),
                                              urlpath=quote(f"lab/tree/{folder}/{notebook}", safe=""),
                                              branch=quote(branch, safe="")),
        }
        if lite is not None:
            row["lite"] = lite + lesson_url(name)
        rows.append(row)
    return rows


def print_links(repo: str | None = None, *, branch: str = "main", lite_url: str | None = None,
                hub: str = HUB_PLACEHOLDER, notebooks: str | os.PathLike | None = None,
                student_repo: str | None = None, student_lite_url: str | None = None,
                out: Callable[[str], None] = print) -> list[dict]:
    """Print every lesson's launch links (``python -m tilelab.teach links``); return them.

    The student edition's links come first, each labelled ``student``: its repository (``student_repo``,
    ``make student``'s folder pushed as a repository) on Binder and a hub, and its lite site
    (``student_lite_url``). The course repository's (``repo``) and its lite site's (``lite_url``) open the
    teacher edition, with the solutions: they are labelled ``teacher``, never handed to students.
    """
    if repo is None and student_repo is None:
        raise ValueError("links needs --student-repo OWNER/NAME (the student editions' repository: the links for "
                         "students) or --repo OWNER/NAME (the course repository: the teacher's links), or both")
    if lite_url is not None and repo is None:
        raise ValueError("--lite-url is the teacher edition's lite site: give it with --repo (the students' lite "
                         "site is --student-lite-url)")
    names = [p.stem for p in lesson_paths(notebooks)]
    if not names:
        raise ValueError("no lessons found (looked in the notebooks folder)")
    rows: list[dict] = [{"lesson": name} for name in names]
    editions = [("student", student_repo, student_lite_url, "student"), ("teacher", repo, lite_url, "course")]
    for edition, where, lite, layout in editions:
        if where is None:
            continue
        for row, extra in zip(rows, lesson_links(where, names, branch=branch, lite_url=lite, hub=hub, layout=layout)):
            row.update({f"{edition} {key}": value for key, value in extra.items() if key != "lesson"})
    if student_repo is not None:
        out(f"Student links (student edition: the notebooks students solve and hand in): github.com/{student_repo} "
            f"(branch {branch}, make student's folder at its root)"
            + (f", lite site {lite_base(student_lite_url)}" if student_lite_url else
               "; add --student-lite-url URL for the students' lite site"))
    else:
        out("No student links: pass --student-repo OWNER/NAME (make student's folder pushed as a repository). "
            "Students who work elsewhere hand in notebooks nbgrader cannot grade.")
    if repo is not None:
        out(f"Teacher links (teacher edition, with the solutions: not for students): github.com/{repo} "
            f"(branch {branch})" + (f", lite site {lite_base(lite_url)}" if lite_url else ""))
    if hub == HUB_PLACEHOLDER:
        out("nbgitpuller links: replace HUB with your JupyterHub's address (or pass --hub).")
    keys = [f"{edition} {key}" for edition in ("student", "teacher") for key in ("binder", "nbgitpuller", "lite")]
    for row in rows:
        out("")
        out(row["lesson"])
        for key in keys:
            if key in row:
                out(f"  {key + ':':21s}{row[key]}")
    return rows
