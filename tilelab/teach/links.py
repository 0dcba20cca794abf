"""Launch links for a hosted course: Binder, nbgitpuller (a JupyterHub) and the lite site, per lesson.

``python -m tilelab.teach links --repo OWNER/NAME`` prints them; nothing here guesses a repository.
"""

from __future__ import annotations

import os
import re
from typing import Callable, Sequence
from urllib.parse import quote

from tilelab.teach.lessons import lesson_paths

# ---------------------------------------------------------------------------------- launch links
BINDER_LINK = "https://mybinder.org/v2/gh/{repo}/{branch}?urlpath={urlpath}"
PULLER_LINK = "https://{hub}/hub/user-redirect/git-pull?repo={repo_url}&urlpath={urlpath}&branch={branch}"
_REPO = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}$")


def lesson_url(name: str) -> str:
    """URL (relative to the site's root) that opens lesson ``name`` in JupyterLite.

    >>> lesson_url("00_start_here")
    'lab/index.html?path=00_start_here.ipynb'
    """
    return f"lab/index.html?path={quote(name)}.ipynb"


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
