"""python -m validation.figures [--write | --check] [--only PREFIX] [--jobs N]

--write  runs every case and rewrites each tagged number in the documents
--check  runs every case and fails (exit 1) on a stated number off by more than 1 %
--only   restricts to figures whose id starts with PREFIX (checks then skip unlisted figures)
"""

from __future__ import annotations

import argparse
import sys
import time

from validation.figures import core, documents


def main() -> int:
    ap = argparse.ArgumentParser(prog="python -m validation.figures")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--list", action="store_true", help="print every figure and its case")
    ap.add_argument("--only", default="")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    figs = [f for f in core.FIGURES.values() if f.id.startswith(args.only)]
    if args.list:
        for f in figs:
            print(f"{f.id}\t{','.join(f.cases)}\t{f.what}")
        return 0
    t0 = time.time()
    cases = sorted({c for f in figs for c in f.cases})
    values = documents.measure(cases, jobs=args.jobs)
    print(f"{len(values)} figures from {len(cases)} runs in "
          f"{time.time() - t0:.0f} s", file=sys.stderr)
    if args.write:
        print(f"{documents.write(values)} stated numbers changed", file=sys.stderr)
        return 0
    findings = [f for f in documents.check(values)
                if f.fid.startswith(args.only) and not (args.only and f.line == 0)]
    for f in findings:
        print(f)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
