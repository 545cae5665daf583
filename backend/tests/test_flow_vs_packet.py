"""The flow-level engine stays within its targets of the packet model (docs/validation-flow.md):
validation/flow_vs_packet.py's quick cases run on both engines (the real `fabricsim`), and each
figure with a target must pass it: collective JCT within 5 % on non-blocking fabrics and 10 % on
oversubscribed ones, long-lived flows' goodput within 5 %. A regression of either engine that
moves an error past its target fails here. No services needed; a few seconds of simulation.
"""

import pytest

from app.core.config import get_settings
from validation import flow_vs_packet as fvp

QUICK = [c for c in fvp.cases() if c.quick]


def test_the_quick_set_covers_collectives_and_long_flows():
    names = " ".join(c.name for c in QUICK)
    assert len(QUICK) >= 5, names
    assert "ring" in names and "alltoall" in names and "incast" in names, names


@pytest.mark.parametrize("case", QUICK, ids=lambda c: c.name)
def test_flow_engine_within_its_targets(case):
    rows, _ = fvp.compare(case, get_settings().FABRICSIM_BIN)
    judged = [r for r in rows if r.verdict != "-"]
    assert judged, f"{case.name}: no figure with a target"
    failed = [f"{r.metric}: packet {r.packet}, flow {r.flow} ({100 * r.error:+.1f} % against "
              f"+-{100 * r.target:.0f} %)" for r in judged if r.verdict != "PASS"]
    assert not failed, f"{case.name}: " + "; ".join(failed)
    # (no assertion on the engines' times: speed belongs in bench/ and docs/validation-flow.md)
