"""The packet model's hand-computed tests (simcore/test/model-*-test.cc): each asserts its figures
itself; this target runs them through ctest and reports each one's verdict beside the figures
(validation/model_tests_table.md, written by hand from the tests' expectations)."""

from __future__ import annotations

import re
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

from validation.registry import Row, Section, target

REPO = Path(__file__).resolve().parent.parent
TABLE = Path(__file__).with_name("model_tests_table.md")


def run_ctest(pattern: str, build_dir: Path) -> dict[str, bool]:
    """Runs ctest -R pattern; returns test name -> passed."""
    with tempfile.TemporaryDirectory(prefix="ft-ctest-") as tmp:
        junit = Path(tmp) / "ctest.xml"
        subprocess.run(["ctest", "--test-dir", str(build_dir), "-R", pattern, "--no-tests=error",
                        "--output-junit", str(junit)], capture_output=True, text=True, timeout=900)
        if not junit.exists():
            raise RuntimeError(f"ctest wrote no report for {pattern}")
        verdicts = {}
        for case in ET.parse(junit).getroot().iter("testcase"):
            verdicts[case.get("name")] = case.get("status") == "run" and case.find("failure") is None
        return verdicts


@target("model-tests")
def model_tests(quick: bool) -> Section:
    verdicts = run_ctest("^model-", REPO / "simcore" / "build")
    sec = Section("Packet model tests with hand-computed figures")
    lines = TABLE.read_text().splitlines()
    out = []
    for line in lines:
        if line.startswith("| # |"):
            out.append(line + " verdict |")
        elif line.startswith("|---"):
            out.append(line + "---|")
        elif line.startswith("|"):
            names = re.findall(r"`(model-[a-z-]+-test)`", line)
            ok = all(verdicts.get(n, False) for n in names) if names else None
            out.append(line + f" {'-' if ok is None else ('PASS' if ok else 'FAIL')} |")
        else:
            out.append(line)
    for name in sorted(verdicts):
        sec.rows.append(Row(f"ctest {name}", f"simcore/test/{name}.cc", "figures in the table below",
                            "as the test states", "all assertions hold" if verdicts[name]
                            else "an assertion failed (ctest output)", verdicts[name]))
    sec.extra_markdown = "\n".join(out)
    return sec
