"""``python -m tilelab.teach student|site|grade ...``: the teacher's kit on the command line."""

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

            pages = build_site(args.out, args.notebooks)
            print(f"{len(pages)} pages in {args.out}/ ({time.perf_counter() - start:.1f} s); open {args.out}/index.html")
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
