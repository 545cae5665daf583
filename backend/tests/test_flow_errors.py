"""The error a flow-level run carries (backend/app/runs/flow-errors.json) is docs/validation-flow.md's:
every case it lists is a row of the doc's table with the same error, every judged row of a case
in the targets' scope is listed, and each figure's largest error is its cases' largest. The file
and the doc are written together by `python -m validation.flow_vs_packet` (`--check` reruns both
engines and says when either is stale); this test reads files only. A flow run's summary carries
the entry of its kind (tests/runs/test_flow_error.py)."""

import json
import re
from pathlib import Path

from app.runs.flow_errors import ERRORS, fabric_oversubscription, flow_error, kind_of
from validation import flow_vs_packet as fvp

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(
    r"^\| (?P<case>[^|]+) \| (?P<figure>[^|]+) \| [^|]+ \| [^|]+ \| (?P<error>[^|]+) \| "
    r"(?P<target>[^|]+) \| (?P<verdict>[^|]+) \|$"
)


def _doc_rows() -> dict[tuple[str, str], dict[str, str]]:
    text = (ROOT / "docs" / "validation-flow.md").read_text()
    figures = text.split("## Figures", 1)[1].split("## Speed", 1)[0]
    rows = {}
    for line in figures.splitlines():
        match = ROW.match(line)
        if match and match["case"] != "scenario":
            rows[(match["case"], match["figure"])] = match.groupdict()
    return rows


def test_the_errors_file_is_the_docs_table():
    rows = _doc_rows()
    assert len(rows) > 100
    measured = json.loads(ERRORS.read_text())
    listed = set()
    for kind in measured["kinds"].values():
        for name, figure in kind["figures"].items():
            assert figure["cases"], name
            for case in figure["cases"]:
                row = rows.get((case["case"], case["figure"]))
                assert row is not None, f"{case} is not in docs/validation-flow.md"
                assert row["error"] == f"{100 * case['error']:+.1f} %", (case, row)
                assert not row["target"].startswith("("), f"{case}: out of the targets' scope"
                listed.add((case["case"], case["figure"]))
            assert figure["max_abs_error"] == max(abs(c["error"]) for c in figure["cases"])
    judged = {key for key, row in rows.items() if row["verdict"] in ("PASS", "FAIL")}
    assert judged <= listed, judged - listed


def _result(engine: str, jobs: bool, features: list[str]) -> dict:
    return {
        "perf": {"engine": engine},
        "jobs": [{"name": "j"}] if jobs else [],
        "caveats": [{"feature": f, "field": "x", "message": "y"} for f in features],
    }


def test_a_flow_result_carries_its_kinds_error():
    measured = json.loads(ERRORS.read_text())["kinds"]
    ring = flow_error(_result("flow", True, ["queues", "pfc"]), 1.0)
    assert ring.kind == "collective_nonblocking" and ring.applies and ring.outside == []
    assert ring.figures["jct_us"].max_abs_error == measured[ring.kind]["figures"]["jct_us"]["max_abs_error"]
    assert flow_error(_result("flow", True, []), 2.0).kind == "collective_oversubscribed"
    lossy = flow_error(_result("flow", False, ["queues", "fault", "dci_accelerator"]), 1.0)
    assert lossy.kind == "flows" and not lossy.applies
    assert lossy.outside == ["dci_accelerator", "fault"]
    assert flow_error(_result("packet", True, []), 1.0) is None


def test_the_backend_and_the_validation_classify_alike():
    for jobs in (True, False):
        for over in (0.5, 1.0, 1.5):
            assert kind_of(jobs, over) == fvp.kind_of(jobs, over)


def test_the_fabrics_oversubscription_comes_from_the_result():
    """A result records its fabric (run_info.fabric, `fabricsim expand`'s stats); one written
    before it did says nothing (the run page then expands the scenario's fabric)."""
    stats = {"hosts": 4, "switches": 3, "links": 6}
    assert fabric_oversubscription({"run_info": {"fabric": dict(stats, oversubscription=2.0)}}) == 2.0
    assert fabric_oversubscription({"run_info": {"fabric": stats}}) == 1.0  # an explicit topology
    assert fabric_oversubscription({"run_info": {"seed": 1}}) is None
    ring = _result("flow", True, [])
    assert (
        flow_error(dict(ring, run_info={"fabric": dict(stats, oversubscription=2.0)})).kind
        == "collective_oversubscribed"
    )
    assert flow_error(dict(ring, run_info={"seed": 1})).kind == "collective_nonblocking"  # none recorded: 1
