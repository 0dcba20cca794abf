"""One student edition, the one that is graded: every route a student opens a lesson by hands out its nbgrader
release, so a notebook solved there gets its marks from the real ``nbgrader autograde``; the course folder and its
rebuilds; the kit's refusals of values that would break a link, a page or a command.
"""

from __future__ import annotations

import copy
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import nbformat
import pytest

from tilelab.teach.__main__ import main as teach_main
from tilelab.teach.assignments import (
    OPTIONAL_POINTS,
    POINTS,
    BEGIN,
    END,
    TEST_TAG,
    assignment_notebook,
    build_course,
    default_course_dir,
)
from tilelab.teach.lessons import DEEPER_TAG, EXERCISE_TAG, lesson_paths, tags
from tilelab.teach.links import check_branch, hub_base, lesson_links, print_links
from tilelab.teach.site import download, launch_settings

pytest.importorskip("nbgrader", reason="nbgrader is installed by make test (pyproject's teach extra)")

ROOT = Path(__file__).resolve().parents[1]
LESSONS = lesson_paths(ROOT / "notebooks")
GRADED = "00_start_here"  # the lesson every route is graded on: one core exercise, quick to run
ROUTES = ("make lab", "make student", "nbgitpuller", "site download", "lite")


def nbgrader(course: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course, env=env, capture_output=True,
                          text=True, timeout=1800)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout


def solved(released: object, source: object) -> object:
    """``released`` with every answer cell holding the official answer (the stub, the teacher's solution, the
    check: the source notebook's cell without nbgrader's solution markers)."""
    official = {c.metadata["nbgrader"]["grade_id"]: "\n".join(line for line in c.source.split("\n")
                                                              if line not in (BEGIN, END))
                for c in source.cells if c.metadata.get("nbgrader", {}).get("solution")}
    released, answered = copy.deepcopy(released), 0
    for cell in released.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in official:
            cell.source = official[grade_id]
            answered += 1
    assert answered == len(official) > 0, "every answer cell of the route's notebook was found by its grade_id"
    return released


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A class graded by the real nbgrader in a course folder inside a git repository that ignores it (the
    project's .gitignore): one student per route, each handing in the route's notebook solved with the official
    answers, and one who handed in the teacher edition (no grading metadata)."""
    tmp = tmp_path_factory.mktemp("editions")
    lessons = tmp / "notebooks"
    lessons.mkdir()
    shutil.copy2(ROOT / "notebooks" / f"{GRADED}.ipynb", lessons)
    repo = tmp / "repo"
    repo.mkdir()
    shutil.copy2(ROOT / ".gitignore", repo / ".gitignore")
    git(repo, "init", "-q")
    git(repo, "add", ".gitignore")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@x", "commit", "-qm", "course")
    course = repo / "course"
    build_course(course, lessons, quiet=True)
    done = nbgrader(course, "generate_assignment", GRADED, "--force")
    assert done.returncode == 0, done.stderr[-3000:]
    release = nbformat.read(course / "release" / GRADED / f"{GRADED}.ipynb", as_version=4)
    source = nbformat.read(course / "source" / GRADED / f"{GRADED}.ipynb", as_version=4)

    notebook = f"{GRADED}.ipynb"
    assert teach_main(["student", str(tmp / "lab"), "--notebooks", str(lessons), "--quiet"]) == 0
    assert teach_main(["student", str(tmp / "student-repo"), "--notebooks", str(lessons), "--wheel", "--quiet"]) == 0
    link = lesson_links("school/tl-student", [GRADED], hub="hub.school.example", layout="student")[0]["nbgitpuller"]
    pulled = parse_qs(urlsplit(link).query)["urlpath"][0].split("/", 3)[3]  # lab/tree/<clone>/<file>
    from tilelab.teach.lite import write_contents

    lite = write_contents(tmp / "lite-files", lessons, student=True)
    routes = {
        "make lab": nbformat.read(tmp / "lab" / notebook, as_version=4),
        "make student": nbformat.read(tmp / "student-repo" / notebook, as_version=4),
        "nbgitpuller": nbformat.read(tmp / "student-repo" / pulled, as_version=4),
        "site download": download(lessons / notebook, "student"),
        "lite": nbformat.read(next(p for p in lite if p.name == notebook), as_version=4),
    }
    students = {route.replace(" ", "-"): nb for route, nb in routes.items()}
    students["teacher-copy"] = nbformat.read(lessons / notebook, as_version=4)
    for student, nb in students.items():
        target = course / "submitted" / student / GRADED / notebook
        target.parent.mkdir(parents=True)
        nbformat.write(solved(nb, source) if student != "teacher-copy" else nb, target)
    done = nbgrader(course, "autograde", GRADED, "--force")
    with sqlite3.connect(course / "gradebook.db") as db:
        scores = dict(db.execute(
            "select student.id, sum(grade.auto_score) from grade join submitted_notebook on grade.notebook_id = "
            "submitted_notebook.id join submitted_assignment on submitted_notebook.assignment_id = "
            "submitted_assignment.id join student on submitted_assignment.student_id = student.id group by student.id"))
        total = db.execute("select sum(max_score) from grade_cells").fetchone()[0]
    return {"routes": routes, "release": release, "scores": scores, "total": total, "log": done.stdout + done.stderr,
            "repo": repo}


def _graded_cells(nb: object) -> list:
    return [(c.cell_type, c.source, {k: v for k, v in c.metadata["nbgrader"].items()})
            for c in nb.cells if "nbgrader" in c.metadata]


@pytest.mark.parametrize("route", ROUTES)
def test_every_route_hands_out_the_nbgrader_release(graded: dict, route: str) -> None:
    """The same cells, grading metadata and checksums as the notebook `nbgrader generate_assignment` releases."""
    mine, release = graded["routes"][route], graded["release"]
    assert _graded_cells(mine) and _graded_cells(mine) == _graded_cells(release)
    assert [c.source for c in mine.cells] == [c.source for c in release.cells]
    assert all("checksum" in c.metadata["nbgrader"] for c in mine.cells if TEST_TAG in tags(c))


@pytest.mark.parametrize("route", ROUTES)
def test_a_notebook_solved_on_every_route_gets_full_marks(graded: dict, route: str) -> None:
    assert graded["total"] >= 1
    assert graded["scores"].get(route.replace(" ", "-")) == graded["total"], graded["log"][-3000:]


def test_a_notebook_without_grading_metadata_is_named_not_given_zero(graded: dict) -> None:
    assert "teacher-copy" not in graded["scores"] or graded["scores"]["teacher-copy"] is None
    assert f"submitted/teacher-copy/{GRADED}/{GRADED}.ipynb has no grading metadata" in graded["log"]


def test_a_full_grading_run_leaves_git_status_clean(graded: dict) -> None:
    assert (graded["repo"] / "course" / "gradebook.db").is_file()
    assert git(graded["repo"], "status", "--porcelain", "--untracked-files=all") == ""


# ------------------------------------------------------------------------------ the course folder
def test_the_course_folder_is_made_outside_the_repository_or_refused_inside(tmp_path: Path) -> None:
    assert ROOT.resolve() not in default_course_dir(ROOT / "notebooks").parents
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    lessons = tmp_path / "notebooks"
    lessons.mkdir()
    shutil.copy2(LESSONS[0], lessons)
    with pytest.raises(ValueError, match="publish"):
        build_course(repo / "marks", lessons, quiet=True)
    assert not (repo / "marks").exists()


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_core_exercises_carry_the_points_and_optional_ones_none(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    source, graded = assignment_notebook(nb, path.stem)
    deeper = {c.metadata["nbgrader"]["grade_id"] for c in source.cells
              if EXERCISE_TAG in tags(c) and DEEPER_TAG in tags(c) and "nbgrader" in c.metadata}
    for cell in source.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("grade"):
            optional = meta["grade_id"].removeprefix("test-") in deeper
            assert meta["points"] == (OPTIONAL_POINTS if optional else POINTS)
            if meta["grade_id"].startswith("test-"):  # an optional exercise's test is skipped with the deeper cells
                assert (DEEPER_TAG in tags(cell)) == optional, meta["grade_id"]
    core = [c for c in nb.cells if EXERCISE_TAG in tags(c) and DEEPER_TAG not in tags(c)]
    if core:
        assert sum(c.metadata["nbgrader"]["points"] for c in source.cells
                   if c.metadata.get("nbgrader", {}).get("grade")) >= 1


def test_rebuilding_updates_untouched_lessons_and_keeps_edited_ones(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture) -> None:
    lessons = tmp_path / "notebooks"
    lessons.mkdir()
    for path in LESSONS[:2]:
        shutil.copy2(path, lessons)
    first, second = (p.stem for p in LESSONS[:2])
    course = tmp_path / "course"
    build_course(course, lessons, quiet=True)
    before = {p: p.read_bytes() for p in course.glob("source/*/*.ipynb")}
    build_course(course, lessons, quiet=True)
    assert {p: p.read_bytes() for p in course.glob("source/*/*.ipynb")} == before, "the same build, byte for byte"
    assert "kept" not in capsys.readouterr().err

    edited_path = course / "source" / first / f"{first}.ipynb"
    edited = nbformat.read(edited_path, as_version=4)
    test = next(c for c in edited.cells if c.metadata.get("nbgrader", {}).get("grade"))
    test.metadata["nbgrader"]["points"] = 5
    nbformat.write(edited, edited_path)
    for path in lessons.glob("*.ipynb"):  # the lessons change: a new cell at the end
        nb = nbformat.read(path, as_version=4)
        nb.cells.append(nbformat.v4.new_markdown_cell("A new closing remark."))
        nbformat.write(nb, path)
    build_course(course, lessons, quiet=True)
    err = capsys.readouterr().err
    assert f"{first}.ipynb: kept" in err and f"{second}.ipynb: kept" not in err
    assert "A new closing remark." in (course / "source" / second / f"{second}.ipynb").read_text()
    assert "A new closing remark." not in edited_path.read_text()

    build_course(course, lessons, force=True, quiet=True)
    rebuilt = nbformat.read(edited_path, as_version=4)
    assert rebuilt.cells[-1].source == "A new closing remark."
    points = [c.metadata["nbgrader"]["points"] for c in rebuilt.cells if c.metadata.get("nbgrader", {}).get("grade")]
    assert points[0] == 5, "--force keeps the points the teacher gave"


# ------------------------------------------------------------------------------ links students are given
def test_links_label_the_teacher_edition_and_put_the_students_first(capsys: pytest.CaptureFixture) -> None:
    rows = print_links("school/tilelab", student_repo="school/tl-student", hub="hub.school.example",
                       lite_url="https://x.example/teacher-lite/", student_lite_url="https://x.example/lite/")
    out = capsys.readouterr().out
    for row in rows:
        keys = [k for k in row if k != "lesson"]
        assert keys[:3] == ["student binder", "student nbgitpuller", "student lite"]
        for key in keys:
            student = key.startswith("student ")
            assert key.startswith(("student ", "teacher ")), key
            assert (("tl-student" in row[key] or "/lite/" in row[key]) == student), (key, row[key])
    first_link = next(line for line in out.splitlines() if "https://" in line and line.startswith("  "))
    assert first_link.lstrip().startswith("student ")


def test_site_lite_link_quotes_the_file_name() -> None:
    name = 'x" onmouseover="alert(1)'
    url = launch_settings("student", [name], repo=None, branch="main", hub=None, lite_url="../lite")[
        "launch"][name]["JupyterLite"]
    assert url.startswith("../lite/lab/index.html?path=") and not set(url) & set('"<> \'&')
    assert parse_qs(urlsplit(url).query)["path"] == [name + ".ipynb"]


# ------------------------------------------------------------------------------ values the kit refuses
def test_a_hub_address_with_an_encoded_dot_dot_is_refused() -> None:
    for hub in ("https://hub.example/x/%2e%2e/", "https://hub.example/x/%2E./", "https://hub.example/a%2fb/"):
        with pytest.raises(ValueError, match="--hub"):
            hub_base(hub)
    assert hub_base("https://hub.example/x%20y/") == "https://hub.example/x%20y"


BRANCHES = ["main", "spring-2026/week.1", "a/.b", "a.lock/b", "x/y.lock", ".a", "a..b", "a/", "/a", "a//b", "a.",
            "-a", "HEAD", "v1.2", "feature/x_y"]


@pytest.mark.skipif(shutil.which("git") is None, reason="compares with git itself")
@pytest.mark.parametrize("branch", BRANCHES)
def test_a_branch_is_taken_only_when_git_takes_it(branch: str) -> None:
    git_takes = subprocess.run(["git", "check-ref-format", "--branch", branch], capture_output=True).returncode == 0
    try:
        check_branch(branch)
        taken = True
    except ValueError:
        taken = False
    assert taken == git_takes


@pytest.mark.parametrize("command", [["student"], ["site"], ["lite"], ["nbgrader"]])
def test_an_output_path_that_is_a_file_is_a_clear_error(tmp_path: Path, command: list[str],
                                                        capsys: pytest.CaptureFixture) -> None:
    target = tmp_path / "afile"
    target.write_text("mine")
    assert teach_main([*command, str(target)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and str(target) in err and "Traceback" not in err
    assert target.read_text() == "mine"


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS refuses file names that are not UTF-8")
def test_a_lesson_name_that_is_not_utf8_is_named(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    lessons = tmp_path / "nb"
    lessons.mkdir()
    shutil.copy2(LESSONS[0], lessons / os.fsdecode(b"bad\xff.ipynb"))
    assert teach_main(["links", "--repo", "a/b", "--notebooks", str(lessons)]) == 2
    err = capsys.readouterr().err
    assert "bad\\xff.ipynb" in err and "Traceback" not in err
