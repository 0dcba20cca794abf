"""Launch links and the addresses the kit writes into pages: what a teacher pastes works, anything else is refused.

The refusals are the hunt's reproductions of D15 (a trailing newline, ``school/..``, ``--hub ..``, quotes and a
``javascript:`` address) and their cousins.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from tilelab.teach.__main__ import main
from tilelab.teach.links import hub_base, lesson_links, lite_base, relative_base

ROOT = Path(__file__).resolve().parents[1]
NAMES = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("pasted, base", [
    ("hub.school.example", "https://hub.school.example"),
    ("https://hub.school.example/", "https://hub.school.example"),
    ("https://hub.school.example/hub/home", "https://hub.school.example"),
    ("http://hub.school.example:8000", "http://hub.school.example:8000"),
    ("https://jupyter.school.example:8443/course-7/hub/spawn", "https://jupyter.school.example:8443/course-7"),
    ("https://school.example/jupyter/", "https://school.example/jupyter"),
])
def test_a_hub_is_the_address_a_teacher_would_paste(pasted: str, base: str) -> None:
    assert hub_base(pasted) == base
    link = lesson_links("school/tilelab", ["00_start_here"], hub=pasted)[0]["nbgitpuller"]
    parts = urlsplit(link)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == f"{base}/hub/user-redirect/git-pull"
    query = parse_qs(parts.query)
    assert query == {"repo": ["https://github.com/school/tilelab"],
                     "urlpath": ["lab/tree/tilelab/notebooks/00_start_here.ipynb"], "branch": ["main"]}


def test_student_repository_links_open_the_lesson_at_its_root() -> None:
    row = lesson_links("school/tl-students", ["03a_sliding_parity"], hub="hub.x.example", layout="student",
                       lite_url="https://x.example/student-lite/")[0]
    assert row["binder"] == ("https://mybinder.org/v2/gh/school/tl-students/main?"
                             "urlpath=lab/tree/03a_sliding_parity.ipynb")
    assert parse_qs(urlsplit(row["nbgitpuller"]).query)["urlpath"] == ["lab/tree/tl-students/03a_sliding_parity.ipynb"]
    assert row["lite"] == "https://x.example/student-lite/lab/index.html?path=03a_sliding_parity.ipynb"


def test_links_prints_the_teacher_and_student_repositories(capsys: pytest.CaptureFixture) -> None:
    assert main(["links", "--repo", "school/tilelab", "--student-repo", "school/tl-students",
                 "--hub", "https://hub.school.example:8443/c/", "--student-lite-url", "https://x.example/s/"]) == 0
    out = capsys.readouterr().out
    for name in NAMES:
        assert f"urlpath=lab/tree/notebooks/{name}.ipynb" in out and f"tl-students/main?urlpath=lab/tree/{name}" in out
        assert f"https://x.example/s/lab/index.html?path={name}.ipynb" in out
    assert out.count("https://hub.school.example:8443/c/hub/user-redirect/git-pull?") == 2 * len(NAMES)
    assert "replace HUB" not in out


BAD = [
    (["--repo", "school/tilelab\n"], "--repo"), (["--repo", "school/.."], "--repo"), (["--repo", "school/."], "--repo"),
    (["--repo", "../etc"], "--repo"), (["--student-repo", "a/b\n"], "--repo"),
    (["--hub", "hub.example\n"], "--hub"), (["--hub", ".."], "--hub"), (["--hub", ":"], "--hub"),
    (["--hub", "-"], "--hub"), (["--hub", "javascript:alert(1)"], "--hub"), (["--hub", "hub example.org"], "--hub"),
    (["--hub", "https://hub.example/a/../b"], "--hub"), (["--hub", "https://hub.example:99999/"], "--hub"),
    (["--hub", "https://hub.example/?next=/x"], "--hub"), (["--hub", "https://user:pw@hub.example/"], "--hub"),
    (["--branch", "main\n"], "--branch"), (["--branch", "../x"], "--branch"), (["--branch=-x"], "--branch"),
    (["--lite-url", "https://x.example/a'b\"c<script>/"], "--lite-url"), (["--lite-url", "https://x.example/a b/"],
                                                                          "--lite-url"),
    (["--lite-url", "https://x.example/\nevil/"], "--lite-url"), (["--lite-url", "javascript:alert(1)//"], "--lite-url"),
    (["--lite-url", "lite/"], "--lite-url"),
]


@pytest.mark.parametrize("argv, option", BAD, ids=[repr(a[-1]) for a, _ in BAD])
def test_links_refuse_a_value_that_would_print_a_broken_or_hostile_link(
        argv: list[str], option: str, capsys: pytest.CaptureFixture) -> None:
    base = ["links", "--repo", "school/tilelab"]
    assert main(base + argv) == 2
    err = capsys.readouterr()
    assert option in err.err and err.out == ""


@pytest.mark.parametrize("value", ["../lite/", "lite", "https://school.example/lite/index.html", "sub/dir/lite/"])
def test_a_site_takes_a_lite_site_by_address_or_relative_path(value: str) -> None:
    assert relative_base(value).endswith("/") and "index.html" not in relative_base(value)


@pytest.mark.parametrize("value", ["javascript:alert(1)", "/etc/lite", "//evil.example/x", "lite/<b>", "a b",
                                   "data:text/html,x", "lite/\n", "-x"])
def test_a_site_refuses_any_other_lite_address(value: str) -> None:
    with pytest.raises(ValueError, match="--lite-url"):
        relative_base(value)


def test_lite_base_keeps_the_path_and_drops_index_html() -> None:
    assert lite_base("http://127.0.0.1:8000/index.html") == "http://127.0.0.1:8000/"
    assert lite_base("https://school.example/a/b") == "https://school.example/a/b/"
