"""A scenario field's range is written once: in its declaration (backend/app/scenarios, the
Pydantic models and limits.py), from which scripts/gen-contracts.sh generates the C++ and
TypeScript tables (issue 39 §1). This test reads the three code bases for the ways a range gets
copied by hand, and fails naming file, line and text:

- simcore/scenario (the simulator's readers): a numeric literal other than 0 in a
  Range::Closed/AboveTo/Above/AtLeast(...) call (a field's range is Range::Of(schema::k...), a
  limit is a generated k... constant; 0 is every quantity's origin, not a rule), one other than
  0 and 1 as a string's or a list's length (String, ReadString, RequireArray), and an
  enumeration listed by hand in an Enum(...) call (`{"a", "b"}`: schema::k...options instead);
- frontend/src (the editor): a numeric literal other than 0 as an input's min={...}/max={...} or
  an object's min:/max:, and a range written into a string ("0..6");
- backend/app outside the declaration: a numeric literal bound (ge=, le=, gt=, lt=) on a field or
  parameter named like a field of the scenario document (seed, seeds, duration_us, priority...):
  limits.MAX_SEED, not 2**31 - 1.

A literal that is no field's range (a chart's buckets, a progress bar) is listed in ALLOWED with
the reason; an ALLOWED entry that no longer matches fails too, so the list cannot go stale.
Generated files and tests are not read.
"""

import ast
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SIMCORE = ROOT / "simcore" / "scenario"
FRONTEND = ROOT / "frontend" / "src"
BACKEND = ROOT / "backend" / "app"
DECLARATION = BACKEND / "scenarios"  # the declaration itself may write its numbers
GENERATED_CPP = "scenario-contract.h"

# (path from the repository root, the offending text as reported) -> why it is no field's range
ALLOWED: dict[tuple[str, str], str] = {
    ("backend/app/tunings/schemas.py", "parallel: ge=1"): "a tuning strategy's parallel evaluations "
    "(the tuning request's own field, declared there once), not the training generator's `parallel`",
    ("backend/app/tunings/schemas.py", "parallel: le=64"): "the same field's maximum",
    (
        "simcore/scenario/traffic-generator.cc",
        'Range::Closed(1, kMaxSizeBytes, "bytes")',
    ): "a custom CDF point's size: the first item of a [size, percent] pair, which the schema "
    "names no field for (traffic.py Workload.cdf declares the same bounds)",
    (
        "simcore/scenario/traffic-generator.cc",
        'Range::Closed(0, 100, "%")',
    ): "a custom CDF point's cumulative percent (the pair's second item, as above)",
    (
        "frontend/src/features/results/utils/cdf.ts",
        "max: 10_000",
    ): "the flow-size buckets of the result charts, not an input's range",
    (
        "frontend/src/features/results/utils/cdf.ts",
        "max: 100_000",
    ): "the flow-size buckets of the result charts, not an input's range",
    (
        "frontend/src/features/results/utils/cdf.ts",
        "max: 1_000_000",
    ): "the flow-size buckets of the result charts, not an input's range",
    ("frontend/src/app/routes/SweepPages.tsx", "aria-valuemax={100}"): "a progress bar's percent",
    ("frontend/src/features/runs/components/RunProgress.tsx", "aria-valuemax={100}"): "a progress bar's percent",
    (
        "frontend/src/features/tuning/components/TuningForm.tsx",
        "max={1}",
    ): "the tuning request's beta (tunings/schemas.py, not the scenario document); the OpenAPI "
    "document states it, the generated client types carry no ranges yet",
    (
        "frontend/src/features/tuning/components/TuningForm.tsx",
        "min={1}",
    ): "a tuning strategy's budget (tunings/schemas.py, not the scenario document), as above",
    (
        "frontend/src/lib/glossary/glossary.ts",
        '"1/16 (0.0625) to 1; ByteTuning tries 1/128..8"',
    ): "typical values: the alphas the ByteTuning paper searched, not this field's range",
    (
        "frontend/src/features/runs/components/RunLauncher.tsx",
        "min={1}",
    ): "the run request's threads (1 to MAX_RUN_THREADS, served by GET /runs/limits)",
}

_NUMBER = re.compile(r"(?<![\w.])(\d[\d_']*(?:\.\d+)?(?:[eE][+-]?\d+)?)(?![\w.])")
_RANGE_CALL = re.compile(r"Range::(?:Closed|AboveTo|Above|AtLeast)\(")
# A string's or a list's length: String(key, def, maxLen), ReadString(v, path, maxLen),
# RequireArray(v, path, minItems, maxItems); 0 and 1 (empty, non-empty) are no rule's number.
_LENGTH_CALL = re.compile(r"\b(?:String|ReadString|RequireArray)\(")
_ENUM_LIST = re.compile(r"\bEnum\(\s*\"[a-z_]+\"\s*,[^;]*?\{\s*\"", re.S)
_TS_BOUND = re.compile(r"\b((?:aria-value)?(?:min|max)=\{\s*-?[\d_.]+\s*\}|(?<![\w.])(?:min|max):\s*-?\d[\d_.]*)")
_TS_RANGE_STRING = re.compile(r"([\"'`])[^\"'`\n]*?\b\d+ ?\.\. ?\d+\b[^\"'`\n]*?\1")


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _balanced(text: str, start: int) -> str:
    """The text from `start` (just after an opening parenthesis) to its closing one."""
    depth, i = 1, start
    while depth and i < len(text):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    return text[start : i - 1]


def _strip_comments(text: str) -> str:
    """C++/TypeScript comments blanked out (offsets and line numbers kept)."""

    def blank(m: re.Match) -> str:
        return re.sub(r"[^\n]", " ", m.group(0))

    return re.sub(r"//[^\n]*|/\*.*?\*/", blank, text, flags=re.S)


def cpp_findings(path: Path, text: str) -> list[tuple[int, str]]:
    """(line, text) of each range literal and hand-listed enumeration in a simulator reader."""
    text = _strip_comments(text)
    out = []
    for m in _RANGE_CALL.finditer(text):
        args = _balanced(text, m.end())
        args_no_strings = re.sub(r"\"[^\"]*\"", '""', args)
        if any(n.group(1) != "0" for n in _NUMBER.finditer(args_no_strings)):
            out.append((_line(text, m.start()), f"{m.group(0)}{args})"))
    for m in _LENGTH_CALL.finditer(text):
        args = re.sub(r'"[^"]*"', '""', _balanced(text, m.end()))
        if any(n.group(1) not in ("0", "1") for n in _NUMBER.finditer(args)):
            out.append((_line(text, m.start()), f"{m.group(0)}{args})"))
    for m in _ENUM_LIST.finditer(text):
        out.append((_line(text, m.start()), " ".join(m.group(0).split())))
    return out


def ts_findings(path: Path, text: str) -> list[tuple[int, str]]:
    """(line, text) of each literal min/max and range string in an editor source file."""
    text = _strip_comments(text)
    out = []
    for m in _TS_BOUND.finditer(text):
        number = re.search(r"-?\d[\d_.]*", m.group(1)).group(0)
        if float(number.replace("_", "")) != 0:
            out.append((_line(text, m.start()), m.group(1)))
    for m in _TS_RANGE_STRING.finditer(text):
        out.append((_line(text, m.start()), m.group(0)))
    return out


def _scenario_field_names() -> set[str]:
    schema = json.loads((ROOT / "docs" / "scenario.schema.json").read_text())
    names = set(schema["properties"])
    for node in schema["$defs"].values():
        names |= set(node.get("properties", {}))
    return names


def _is_literal(node: ast.expr) -> bool:
    """A number written out (2**31 - 1 too), not one read from a name."""
    return not any(isinstance(n, (ast.Name, ast.Attribute, ast.Call)) for n in ast.walk(node))


def _value(node: ast.expr) -> float:
    """A literal's value: numbers and operators only (_is_literal), so eval runs no code."""
    return eval(compile(ast.Expression(node), "<bound>", "eval"), {"__builtins__": {}})


def python_findings(path: Path, text: str, fields: set[str]) -> list[tuple[int, str]]:
    """(line, text) of each literal bound on a field or parameter named like a scenario field."""
    out = []
    tree = ast.parse(text)
    owners: list[tuple[str, ast.AST]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            owners.append((node.target.id, node))
        elif isinstance(node, ast.arg) and node.annotation is not None:
            owners.append((node.arg, node.annotation))
    for name, owner in owners:
        if name not in fields and name.removesuffix("s") not in fields:
            continue
        for call in ast.walk(owner):
            if not isinstance(call, ast.Call):
                continue
            for kw in call.keywords:
                if kw.arg in ("ge", "le", "gt", "lt") and _is_literal(kw.value):
                    if _value(kw.value) != 0:
                        out.append((kw.value.lineno, f"{name}: {kw.arg}={ast.unparse(kw.value)}"))
    return out


def _report(findings: dict[tuple[str, str], int]) -> list[str]:
    return [f"{path}:{line}: {text}" for (path, text), line in sorted(findings.items())]


def _scan() -> dict[tuple[str, str], int]:
    """(path, text) -> line of every finding in the three code bases."""
    found: dict[tuple[str, str], int] = {}

    def add(path: Path, hits: list[tuple[int, str]]) -> None:
        for line, text in hits:
            found.setdefault((str(path.relative_to(ROOT)), text), line)

    for path in sorted(SIMCORE.glob("*.[ch]*")):
        if path.name != GENERATED_CPP:
            add(path, cpp_findings(path, path.read_text()))
    for path in sorted(FRONTEND.rglob("*.ts*")):
        if ".gen." in path.name or ".test." in path.name or path.suffix not in (".ts", ".tsx"):
            continue
        add(path, ts_findings(path, path.read_text()))
    fields = _scenario_field_names()
    for path in sorted(BACKEND.rglob("*.py")):
        if DECLARATION in path.parents:
            continue
        add(path, python_findings(path, path.read_text(), fields))
    return found


def test_no_range_is_written_outside_its_declaration():
    found = _scan()
    copies = {k: v for k, v in found.items() if k not in ALLOWED}
    assert copies == {}, (
        "ranges written by hand; read them from the declaration (Range::Of("
        "schema::k...), SCHEMA_RANGES / LIMITS, app.scenarios.limits):\n" + "\n".join(_report(copies))
    )


def test_every_allowed_literal_is_still_there():
    found = _scan()
    stale = [f"{path}: {text}" for path, text in ALLOWED if (path, text) not in found]
    assert stale == [], "ALLOWED names literals no longer in the code:\n" + "\n".join(stale)


# ---- the checks can fail: each finds the copies that issue 39 found in main


def test_it_finds_a_hand_written_range_in_the_simulator():
    text = (
        'm_priority = r.Int("priority", ctx.dataPriority, Range::Closed(0, 6));\n'
        's.seed = r.Int("seed", 1, Range::Closed(0, 2147483647.0));\n'
        'double us = r.Number("start_us", 0, Range::AtLeast(0, "us")); // 0 is no rule\n'
        'auto scope = r.Enum("scope", "all", {"all", "tor", "podset", "fabric"});\n'
        'auto kind = r.Enum("kind", "", kTrafficKinds);\n'
        's.name = r.String("description", "", 5000);\n'
        "RequireArray(*v, path, 1, kMaxSetNodes);\n"
    )
    assert sorted(line for line, _ in cpp_findings(Path("x.cc"), text)) == [1, 2, 4, 6]


def test_it_finds_a_hand_written_range_in_the_editor():
    text = (
        'const RATES = [{ key: "host_rate_gbps", min: 1, max: 1600 }];\n'
        'priority: { label: "Priority", unit: "0..6" },\n'
        '<input type="range" min={1} max={20000} step={1} />\n'
        '<input type="number" min={0} max={R.max} />  // "0..6" in a comment is no copy\n'
        "const r = { min: LIMITS.MIN_RATE_GBPS };\n"
    )
    assert sorted(line for line, _ in ts_findings(Path("x.tsx"), text)) == [1, 1, 2, 3, 3]


def test_it_finds_a_hand_written_range_in_the_backend():
    text = (
        "class RunCreate(BaseModel):\n"
        "    seeds: list[Annotated[int, Field(ge=0, le=2**31 - 1)]] = Field(default=[1])\n"
        "    seed: int = Field(1, ge=0, le=limits.MAX_SEED)\n"
        "    batch: int = Field(1, ge=1, le=256)  # not a scenario field\n"
        "def read(priority: Annotated[int, Query(ge=0, le=6)] = 0): ...\n"
    )
    hits = python_findings(Path("x.py"), text, {"seed", "priority"})
    assert hits == [(2, "seeds: le=2 ** 31 - 1"), (5, "priority: le=6")]
