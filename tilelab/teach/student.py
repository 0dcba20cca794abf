"""Student editions: every lesson without its solutions and teacher's notes, exercise outputs cleared.

Built with nbconvert's own :class:`~nbconvert.preprocessors.TagRemovePreprocessor`: cells tagged ``solution`` or
``teacher`` are removed, cells tagged ``exercise`` lose their outputs (and execution count); everything else --
prose, pictures, stored outputs, widget state -- is kept.

The folder is the students' own: a file a student changed is never written over. :func:`build_student_editions`
keeps a record (``.tilelab-student.json``) of what it wrote; a file that still matches the record is the kit's
and is brought up to date, a file that does not is the student's and stays as it is, the new version written
beside it (``NAME.updated.ipynb``) and named in the output. With the course's repository (``repo``) the folder
also carries what Binder and a JupyterHub need to run it as a repository of its own: an ``environment.yml`` that
installs tilelab from that repository, and a ``postBuild`` start-up step.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any, Callable

import nbformat
from nbconvert.preprocessors import TagRemovePreprocessor

from tilelab.teach.lessons import (
    EXERCISE_TAG,
    SOLUTION_TAG,
    TEACHER_TAG,
    default_notebook_dir,
    lesson_paths,
    untagged_solutions,
)
from tilelab.teach.links import check_branch, check_repo, lesson_links

RECORD = ".tilelab-student.json"
#: Sentences a student edition must not say (the solutions and the teacher's note are not in it).
TEACHER_TALK = re.compile(r"(solutions?\b[^.]{0,60}\b(collapsed|hidden|folded)|(collapsed|hidden|folded)"
                          r"[^.]{0,30}\bsolution|\bteacher'?s note|for the teacher\b)", re.I)

POSTBUILD = """#!/usr/bin/env bash
# Binder (repo2docker) runs this once the environment is built: tilelab's server extension sends each key of a
# board to the kernel at once (TCP_NODELAY).
set -euo pipefail
python -m tilelab.server_nodelay --install
"""


def student_edition(nb: Any) -> Any:
    """Return ``nb`` without ``solution`` and ``teacher`` cells and with the outputs of ``exercise`` cells cleared.

    >>> import nbformat
    >>> v4 = nbformat.v4
    >>> nb = v4.new_notebook(cells=[
    ...     v4.new_code_cell("stub()", metadata={"tags": ["exercise"]},
    ...                      outputs=[v4.new_output("stream", text="not yet")], execution_count=3),
    ...     v4.new_code_cell("answer()", metadata={"tags": ["solution"]})])
    >>> out = student_edition(nb)
    >>> [c.source for c in out.cells], out.cells[0].outputs, out.cells[0].execution_count
    (['stub()'], [], None)
    """
    nb = nbformat.from_dict(copy.deepcopy(nb))  # never change the teacher edition
    pre = TagRemovePreprocessor(remove_cell_tags={SOLUTION_TAG, TEACHER_TAG}, remove_all_outputs_tags={EXERCISE_TAG})
    nb, _ = pre.preprocess(nb, {})
    return nb


def teacher_talk(nb: Any) -> list[tuple[int, str]]:
    """Cells of a student edition that speak of hidden solutions or to the teacher: ``(index, the words)``.

    >>> v4 = nbformat.v4
    >>> teacher_talk(v4.new_notebook(cells=[v4.new_markdown_cell("Solutions are in the collapsed cells; try first!")]))
    [(0, 'Solutions are in the collapsed')]
    """
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            match = TEACHER_TALK.search(cell.source)
            if match:
                found.append((i, match.group(0)))
    return found


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class _Folder:
    """Writes into a student's folder without ever replacing a file the student changed."""

    def __init__(self, out: Path, say: Callable[[str], None]) -> None:
        self.out, self.say = out, say
        self.record_path = out / RECORD
        try:
            self.record: dict[str, str] = json.loads(self.record_path.read_text(encoding="utf-8"))
            if not isinstance(self.record, dict):
                raise ValueError
        except (OSError, ValueError):
            self.record = {}
        self.kept: list[Path] = []

    def write(self, relative: str, data: bytes, executable: bool = False) -> Path:
        target = self.out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.exists():
            current = target.read_bytes()
            if current == data:
                self.record[relative] = _digest(data)
                return target
            last = self.record.get(relative)  # the digest of what the kit wrote there last time
            if last == _digest(data):
                return target  # the same version as handed out, changed by the student: theirs, nothing new
            if last != _digest(current):  # not what the kit wrote: the student's file, and a new version
                beside = target.with_name(f"{target.stem}.updated{target.suffix}")
                beside.write_bytes(data)
                self.kept.append(target)
                self.say(f"{target}: kept (changed since it was handed out); the new version is {beside.name}")
                return beside
        target.write_bytes(data)
        if executable:
            target.chmod(target.stat().st_mode | 0o111)
        self.record[relative] = _digest(data)
        return target

    def close(self) -> None:
        self.record_path.write_text(json.dumps(self.record, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def readme(names: list[str], repo: str | None, branch: str, student_repo: str | None) -> str:
    """The student folder's README: what it is, and commands that work to open it."""
    course = f"https://github.com/{repo}" if repo else "https://github.com/OWNER/NAME"
    where = ("" if repo else " (`OWNER/NAME`: the course's repository, which your teacher gives you)")
    lines = [
        "# tilelab: student edition", "",
        "The tilelab lessons for students: read, run the cells, play the boards and do the exercises. Each",
        "exercise cell runs as it is, and its `check(...)` answers \"not yet\" until your code is right, with the",
        "smallest example it gets wrong. These notebooks are yours: the course never writes over one you changed.", "",
        "## Open the lessons", "",
        "- **In a copy of the course** (the repository with the `Makefile`): `make lab` opens this folder.",
        f"- **Anywhere with Python 3.10 or newer**{where}:", "",
        "  ```bash",
        "  python3 -m venv .venv",
        f"  .venv/bin/pip install \"tilelab[lab] @ git+{course}@{branch}\"",
        "  .venv/bin/jupyter lab",
        "  ```", "",
    ]
    if student_repo:
        binder = lesson_links(student_repo, names[:1], branch=branch, layout="student")[0]["binder"]
        lines += [f"- **On Binder** (nothing to install; download your notebooks before you close the tab): {binder}",
                  ""]
    lines += [
        "Start with `00_start_here.ipynb`. Click a board once to give it the keyboard; **Escape** gives the",
        "keyboard back to the notebook.", "",
        "## Handing in", "",
        "Save the notebook (Ctrl+S) and hand in the `.ipynb` file the way your teacher asks (on Binder or in the",
        "browser site: *File → Download* first).", "",
    ]
    return "\n".join(lines)


def environment_yml(course_environment: Path, repo: str, branch: str) -> str:
    """The student repository's ``environment.yml``: the course's own, plus tilelab from the course repository."""
    lines = ["# Binder / conda environment for the tilelab student editions (written by python -m tilelab.teach "
             "student).", "# It installs tilelab from the course's repository; ./postBuild finishes the set-up."]
    body = course_environment.read_text(encoding="utf-8").splitlines()
    lines += [line for line in body if line.strip() and not line.lstrip().startswith("#")]
    lines += ["  - pip:", f"      - \"tilelab @ git+https://github.com/{repo}@{branch}\""]
    return "\n".join(lines) + "\n"


def build_student_editions(
    out: str | os.PathLike, notebooks: str | os.PathLike | None = None, *, quiet: bool = False,
    repo: str | None = None, branch: str = "main", student_repo: str | None = None,
) -> list[Path]:
    """Write the student edition of every lesson in ``notebooks`` into ``out``; return the lessons' paths there.

    A file the student changed is kept, and a new version of it written beside it (see the module docstring).
    ``quiet`` prints only the files kept (no progress, no warnings for the lessons' authors).
    ``repo`` (``OWNER/NAME``, the course's GitHub repository) adds ``environment.yml`` and ``postBuild``, so the
    folder runs on Binder or a hub as a repository of its own (``student_repo``, named in its README).
    """
    if repo is not None:
        check_repo(repo)
    if student_repo is not None:
        check_repo(student_repo)
    check_branch(branch)
    out = Path(out)
    folder = Path(notebooks) if notebooks is not None else default_notebook_dir()
    paths = lesson_paths(folder)
    if not paths:
        raise ValueError(f"no lessons (*.ipynb) in {folder}")
    out.mkdir(parents=True, exist_ok=True)
    say = (lambda text: None) if quiet else print
    files = _Folder(out, lambda text: print(text, file=sys.stderr))
    written = []
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        suspicious = untagged_solutions(nb)
        if suspicious and not quiet:
            print(f"warning: {path.name}: code cells {suspicious} start with '# Solution' but are not tagged "
                  f"'{SOLUTION_TAG}'; they stay in the student edition (tag them to remove them)", file=sys.stderr)
        student = student_edition(nb)
        for index, words in [] if quiet else teacher_talk(student):
            print(f"warning: {path.name}: a cell students see speaks of solutions or to the teacher "
                  f"({words!r}, cell {index} of the student edition): tag it '{TEACHER_TAG}'", file=sys.stderr)
        target = files.write(path.name, (nbformat.writes(student) + "\n").encode("utf-8"))
        written.append(out / path.name)
        removed = len(nb.cells) - len(student.cells)
        say(f"{target}: {removed} solution or teacher cell(s) removed")
    names = [p.stem for p in paths]
    files.write("README.md", readme(names, repo, branch, student_repo).encode("utf-8"))
    course_environment = folder.resolve().parent / "environment.yml"
    if repo is not None and course_environment.is_file():
        files.write("environment.yml", environment_yml(course_environment, repo, branch).encode("utf-8"))
        files.write("postBuild", POSTBUILD.encode("utf-8"), executable=True)
    copied = copy_saved_results(folder, files)
    files.close()
    if copied:
        say(f"{out / 'benchmarks' / 'results'}: {len(copied)} saved benchmark file(s) the lessons plot")
    if files.kept:
        print(f"{len(files.kept)} file(s) changed by the student kept as they were", file=sys.stderr)
    return written


def copy_saved_results(notebooks: Path, out: Any) -> list[Path]:
    """Copy the repository's saved benchmark results (``*.json``, ``*.jsonl``) into ``benchmarks/results`` of the
    student folder (``out``: a folder, or the writer :func:`build_student_editions` uses).

    The lessons find them there through :func:`tilelab.results.results_dir` (they search the working
    directory and its parents), so a student edition handed out as a folder plots the same data.
    """
    source = Path(notebooks).resolve().parent / "benchmarks" / "results"
    if not source.is_dir():
        return []
    files = sorted(p for p in source.iterdir() if p.is_file() and p.suffix in (".json", ".jsonl"))
    if isinstance(out, _Folder):  # a student's folder: nothing of theirs written over
        return [out.write(f"benchmarks/results/{path.name}", path.read_bytes()) for path in files]
    target = Path(out) / "benchmarks" / "results"  # a build's output folder (the lite site's contents)
    target.mkdir(parents=True, exist_ok=True)
    for path in files:
        shutil.copy2(path, target / path.name)
    return [target / path.name for path in files]
