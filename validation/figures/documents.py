"""The operations over every declared figure: run their cases (`measure`), compare the numbers
the documents state with them (`check`), rewrite those numbers (`write`). Importing this module
imports every declaration (declarations.py), which register their figures in core.py: core
knows no declaration, the declarations know core, this module knows both."""

from __future__ import annotations

import math
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from validation.figures import declarations  # noqa: F401  (registers every figure)
from validation.figures import core
from validation.figures.core import REL_TOLERANCE, ROOT, TAG, run_case


def measure(cases: list[str] | None = None, jobs: int = 2) -> dict[str, float]:
    """Runs the cases (all by default) and returns every figure of them: id -> value."""
    keys = sorted(cases if cases is not None else {c for f in core.FIGURES.values() for c in f.cases})
    with tempfile.TemporaryDirectory(prefix="figures-") as tmp:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            results = dict(zip(keys, pool.map(lambda k: run_case(core.CASES[k], Path(tmp)), keys)))
    return {f.id: float(f.value(*(results[c] for c in f.cases))) for f in core.FIGURES.values()
            if all(c in results for c in f.cases)}


# -- documents ---------------------------------------------------------------------------------

def fmt(value: float, digits: int) -> str:
    """As stated: `digits` decimals; 0 or fewer, a whole number (-2: rounded to hundreds)."""
    if digits <= 0:
        whole = round(round(value, digits))
        return f"{whole:,}" if abs(whole) >= 10_000 else f"{whole}"
    text = f"{value:,.{digits}f}" if abs(value) >= 10_000 else f"{value:.{digits}f}"
    return text


def parse(text: str) -> float:
    return float(text.replace(",", ""))


def tolerance(value: float, digits: int) -> float:
    return max(REL_TOLERANCE * abs(value), 0.5 * 10.0 ** (-digits)) + 1e-9


@dataclass
class Finding:
    doc: str
    line: int
    fid: str
    stated: str
    message: str

    def __str__(self) -> str:
        return f"{self.doc}:{self.line}: {self.fid} = {self.stated}: {self.message}"


def tags(docs: list[Path] | None = None):
    for doc in docs or core.DOCS:
        for n, line in enumerate(doc.read_text().splitlines(), 1):
            for m in TAG.finditer(line):
                yield doc, n, m


def check(values: dict[str, float]) -> list[Finding]:
    findings: list[Finding] = []
    stated: set[str] = set()
    for doc, n, m in tags():
        rel = str(doc.relative_to(ROOT)) if doc.is_relative_to(ROOT) else str(doc)
        fid = m["id"]
        stated.add(fid)
        if fid not in core.FIGURES:
            findings.append(Finding(rel, n, fid, m["num"], "no such figure is declared"))
            continue
        if fid not in values:
            continue
        f, v = core.FIGURES[fid], values[fid]
        if not math.isfinite(v) or abs(parse(m["num"]) - v) > tolerance(v, f.digits):
            findings.append(Finding(rel, n, fid, m["num"],
                                    f"the simulator gives {fmt(v, f.digits)} ({v:.6g})"))
    for fid in sorted(set(core.FIGURES) - stated):
        findings.append(Finding("-", 0, fid, "", "declared but stated in no document"))
    return findings


def write(values: dict[str, float]) -> int:
    """Rewrites every tagged number from values; returns how many changed."""
    changed = 0
    for doc in core.DOCS:
        text = doc.read_text()

        def sub(m: re.Match) -> str:
            nonlocal changed
            f = core.FIGURES.get(m["id"])
            if f is None or f.id not in values:
                return m.group(0)
            new = fmt(values[f.id], f.digits)
            if new != m["num"]:
                changed += 1
            return f"{new}<!--fig {f.id}-->"

        new_text = TAG.sub(sub, text)
        if new_text != text:
            doc.write_text(new_text)
    return changed
