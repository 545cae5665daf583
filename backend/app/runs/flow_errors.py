"""The error measured for a flow-level run's kind of scenario (issue 36: "the error beside the
answer"). backend/app/runs/flow-errors.json is written by `python -m validation.flow_vs_packet`
from docs/validation-flow.md's cases (backend/tests/test_flow_errors.py holds the two together):
per kind of scenario, the largest error of each figure over the cases in the targets' scope, and
the caveats those cases ran with. A run with a caveat none of them had (DCQCN on a fabric of
flows, faults, the DCI accelerator, ...) is outside what was measured: it says so instead."""

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from app.runs.schemas import FlowError

ERRORS = Path(__file__).with_name("flow-errors.json")


@lru_cache(maxsize=1)
def measured() -> dict[str, Any]:
    return json.loads(ERRORS.read_text())


def kind_of(has_jobs: bool, oversubscription: float) -> str:
    """As validation/flow_vs_packet.kind_of classifies its cases."""
    if has_jobs:
        return "collective_nonblocking" if oversubscription <= 1.0 else "collective_oversubscribed"
    return "flows"


def fabric_oversubscription(result: dict[str, Any]) -> float | None:
    """The fabric's oversubscription as the result records it (run_info.fabric; 1 where its
    topology states none, an explicit one); None in a result of an earlier version."""
    fabric = (result.get("run_info") or {}).get("fabric")
    if fabric is None:
        return None
    return float(fabric.get("oversubscription", 1.0))


def flow_error(result: dict[str, Any], oversubscription: float | None = None) -> FlowError | None:
    """What was measured for a flow-level result's kind of scenario; None for a packet-level one.
    The fabric's oversubscription is the result's own (fabric_oversubscription) unless given (a
    result of an earlier version records none: 1 then)."""
    if (result.get("perf") or {}).get("engine") != "flow":
        return None
    if oversubscription is None:
        oversubscription = fabric_oversubscription(result)
    if oversubscription is None:
        oversubscription = 1.0
    kind = kind_of(bool(result.get("jobs")), oversubscription)
    entry = measured()["kinds"].get(kind)
    if entry is None:
        return FlowError(kind=kind, label=kind, applies=False, outside=[], figures={})
    features = {c["feature"] for c in result.get("caveats", [])}
    outside = sorted(features - set(entry["measured_with"]))
    figures = {
        name: {"max_abs_error": f["max_abs_error"], "target": f["target"], "cases": len(f["cases"])}
        for name, f in entry["figures"].items()
    }
    return FlowError(kind=kind, label=entry["label"], applies=not outside, outside=outside, figures=figures)
