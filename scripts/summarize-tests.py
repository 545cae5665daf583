"""Adds up the JUnit XML reports of every suite and prints one closing line.

Exits non-zero when a suite wrote no report or ran no test, so an empty suite never passes.
"""
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

EXPECTED = ["ctest.xml", "pytest.xml", "vitest.xml", "e2e.xml"]


def count(path: Path) -> tuple[int, int, int]:
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else root.iter("testsuite")
    total = failed = skipped = 0
    for s in suites:
        cases = list(s.iter("testcase"))
        total += len(cases)
        failed += sum(1 for c in cases if c.find("failure") is not None or c.find("error") is not None)
        skipped += sum(1 for c in cases if c.find("skipped") is not None)
    return total, failed, skipped


def main() -> int:
    reports = Path(sys.argv[1])
    ok = True
    passed = failed = skipped = 0
    for name in EXPECTED:
        path = reports / name
        if not path.exists():
            print(f"{name}: no report written", file=sys.stderr)
            ok = False
            continue
        t, f, s = count(path)
        print(f"  {name:12s} {t - f - s:5d} passed {f:4d} failed {s:4d} skipped")
        if t == 0:
            print(f"{name}: ran no test", file=sys.stderr)
            ok = False
        passed += t - f - s
        failed += f
        skipped += s
    line = f"tests: {passed} passed, {failed} failed"
    print(line + (f", {skipped} skipped" if skipped else ""))
    return 0 if ok and failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
