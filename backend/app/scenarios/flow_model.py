"""What the flow-level engine leaves out, by scenario field: the one declaration the API reads.

The flow engine (simcore/flow/, docs/model.md "Flow-level engine") shares links max-min fair and
keeps no queues; what a scenario sets beyond that it reports in the result's `caveats`, one per
feature, each naming the scenario field it comes from (simcore/flow/flow-caveats.cc). Here each
of those features lists the scenario paths that only the packet model answers. The API uses it to
refuse a flow-level screening (sweeps and tunings, app/runs/screening.py) whose swept parameters
the flow engine would ignore: every point would get the same answer.

backend/tests/scenarios/test_flow_model.py holds this list and the simulator's caveats together:
every feature and field the flow engine reports is declared here.
"""

import re

# feature (the result's caveats[].feature) -> why, and the scenario paths it covers (a path
# covers itself and everything below it). Per-switch and per-NIC overrides are read as the
# `switch.` and `nic.` paths they override.
FLOW_UNMODELLED: dict[str, tuple[str, tuple[str, ...]]] = {
    "queues": (
        "the flow engine keeps no queues: buffers and queue depths are not modelled",
        ("switch.buffer_bytes", "switch.cell_bytes"),
    ),
    "pfc": ("PFC pauses are not modelled", ("switch.pfc",)),
    "ecn": (
        "ECN marking is not modelled",
        ("switch.ecn", "switch.ecn_by_priority", "switch.ecn_by_rate", "switch.ecn_mark_point"),
    ),
    "congestion_control": (
        "DCQCN's dynamics are not modelled: flows get their max-min fair rates at once",
        ("nic.cc", "nic.cnp_interval_us", "nic.cnp_mode", "nic.ecn_feedback"),
    ),
    "loss": ("loss and retransmission are not modelled", ("nic.rto_us", "nic.nack_enabled")),
    "trimming": ("packet trimming acts on full buffers, which the flow engine does not have", ("switch.trimming",)),
    "dci_accelerator": ("the DCI accelerator's pseudo-ACKs are not modelled", ("topology.accelerator",)),
    "fault": ("faults' lost frames and their recovery are not modelled", ("faults",)),
    "watchdogs": ("PFC watchdogs act on pauses, which the flow engine does not model", ("watchdogs",)),
    "qp_cache": ("QP-context cache misses are not modelled", ("nic.qp_cache_entries", "nic.qp_cache_miss_ns")),
    # Pingmesh probes run as flows; only their RTTs (queueing delays) are missing: sweeping the
    # traffic is still modelled.
    "pingmesh": ("probe RTTs are queueing delays, which the flow engine does not have", ()),
}


def _canonical(path: str) -> str:
    """`switch_overrides.leaf0.pfc.enabled` -> `switch.pfc.enabled` (likewise nic_overrides);
    `faults[0]` (the simulator's notation) -> `faults.0`."""
    parts = re.sub(r"\[(\d+)\]", r".\1", path).split(".")
    if parts[0] in ("switch_overrides", "nic_overrides") and len(parts) > 2:
        parts = [parts[0].removesuffix("_overrides"), *parts[2:]]
    return ".".join(parts)


def _covers(prefix: str, path: str) -> bool:
    return path == prefix or path.startswith(prefix + ".")


def unmodelled(path: str) -> tuple[str, str] | None:
    """(feature, why) when the flow engine does not model the scenario field at `path`."""
    canonical = _canonical(path)
    for feature, (why, prefixes) in FLOW_UNMODELLED.items():
        if any(_covers(prefix, canonical) for prefix in prefixes):
            return feature, why
    return None
