"""``python -m tilelab.teach student|site|lite|links|grade ...``: the teacher's kit on the command line."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run one command; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m tilelab.teach", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("student", help="write student editions (solution cells removed, exercise outputs cleared)")
    p.add_argument("out", nargs="?", default="student", help="output folder (default: student)")
    p.add_argument("--notebooks", default=None, help="folder of lessons (default: notebooks)")

    p = sub.add_parser("site", help="build the course as a static website with nbconvert")
    p.add_argument("out", nargs="?", default="site", help="output folder (default: site)")
    p.add_argument("--notebooks", default=None, help="folder of lessons (default: notebooks)")
    p.add_argument("--lite-url", default=None,
                   help="the lite site (make lite), relative to this one (e.g. lite/) or a URL: adds 'Run in your browser'")
    p.add_argument("--repo", default=None,
                   help="the course's GitHub repository, OWNER/NAME: adds 'Launch on Binder' and GitHub links")
    p.add_argument("--branch", default="main", help="its branch (default: main)")

    p = sub.add_parser("lite", help="build the course as a JupyterLite site: every lesson runs in the browser")
    p.add_argument("out", nargs="?", default="lite", help="output folder (default: lite)")
    p.add_argument("--notebooks", default=None, help="folder of lessons (default: notebooks)")
    p.add_argument("--student", action="store_true", help="student editions (solutions removed)")
    p.add_argument("--cache", default=None, help="download cache (default: $XDG_CACHE_HOME/tilelab/lite)")

    p = sub.add_parser("links", help="print the Binder, nbgitpuller and lite links of every lesson")
    p.add_argument("--repo", required=True, help="the course's GitHub repository, OWNER/NAME")
    p.add_argument("--branch", default="main", help="branch (default: main)")
    p.add_argument("--lite-url", default=None, help="where the lite site is hosted (its index URL)")
    p.add_argument("--hub", default="HUB", help="your JupyterHub's address for the nbgitpuller link (default: HUB)")
    p.add_argument("--notebooks", default=None, help="folder of lessons (default: notebooks)")

    p = sub.add_parser("grade", help="run every student notebook in a folder and write a CSV of exercise results")
    p.add_argument("folder", help="folder of student notebooks (searched recursively)")
    p.add_argument("--out", default="results.csv", help="CSV file to write (default: results.csv)")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per notebook (default: 300)")
    p.add_argument("--kernel", default="python3", help="kernel name (default: python3)")

    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        if args.command == "student":
            from tilelab.teach.student import build_student_editions

            paths = build_student_editions(args.out, args.notebooks)
            print(f"{len(paths)} student editions in {args.out}/ ({time.perf_counter() - start:.1f} s)")
        elif args.command == "site":
            from tilelab.teach.site import build_site

            pages = build_site(args.out, args.notebooks, lite_url=args.lite_url, repo=args.repo, branch=args.branch)
            print(f"{len(pages)} pages in {args.out}/ ({time.perf_counter() - start:.1f} s); open {args.out}/index.html")
        elif args.command == "lite":
            from tilelab.teach.lite_fetch import LiteBuildError
            from tilelab.teach.lite import build_lite

            try:
                summary = build_lite(args.out, args.notebooks, student=args.student, cache=args.cache)
            except LiteBuildError as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 1
            print(f"{len(summary['lessons'])} lessons in {args.out}/ ({summary['bytes'] / 1e6:.1f} MB, "
                  f"{time.perf_counter() - start:.1f} s); serve the folder, e.g. "
                  f"python -m http.server -d {args.out} 8000, and open http://127.0.0.1:8000/")
        elif args.command == "links":
            from tilelab.teach.links import print_links

            print_links(args.repo, branch=args.branch, lite_url=args.lite_url, hub=args.hub,
                        notebooks=args.notebooks)
        else:
            from tilelab.teach.grade import grade_folder

            rows = grade_folder(args.folder, args.out, timeout=args.timeout, kernel_name=args.kernel)
            print(f"{len(rows)} rows written to {args.out} ({time.perf_counter() - start:.1f} s)")
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
