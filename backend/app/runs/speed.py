"""How fast this instance runs the packet-level model, measured by its own runs: what the editor's
estimate panel turns into "a packet-level run of this would take about N s" (issue 36, section 3).

From the most recent successful packet-level runs on one thread: the median events per second
(the machine's speed) and the median events per payload frame delivered (the model's work per
frame, which the flow-level estimate's delivered bytes give for a scenario never run at packet
level). Nothing here is a constant: an instance with no packet-level run yet predicts nothing.
"""

from dataclasses import dataclass
from statistics import median
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.runs.models import Run, RunStatus
from app.scenarios.devices import Nic
from app.scenarios.models import ScenarioRow

RECENT_RUNS = 20
DEFAULT_MTU = Nic.model_fields["mtu_bytes"].default


@dataclass(frozen=True)
class PacketSpeed:
    """The medians over `runs` recent packet-level runs."""

    events_per_s: float
    events_per_frame: float
    runs: int


def payload_frames(document: dict[str, Any], throughput_gbps: float, duration_ns: float) -> float:
    """Payload frames delivered after the warm-up: throughput_gbps x (duration - warmup) / MTU
    (docs/result-format.md defines throughput_gbps that way)."""
    measured_ns = duration_ns - float(document.get("warmup_us", 0)) * 1000
    mtu = (document.get("nic") or {}).get("mtu_bytes", DEFAULT_MTU)
    return max(0.0, throughput_gbps * measured_ns / 8 / mtu)


def packet_speed(session: Session, limit: int = RECENT_RUNS) -> PacketSpeed | None:
    """This instance's packet-level speed from its recent runs; None before the first one."""
    rows = session.execute(
        select(Run.events, Run.wall_s, Run.throughput_gbps, Run.duration_ns, ScenarioRow.document)
        .join(ScenarioRow, ScenarioRow.id == Run.scenario_id)
        .where(
            Run.engine == "packet",
            Run.status == RunStatus.SUCCEEDED,
            Run.threads == 1,
            Run.events > 0,
            Run.wall_s > 0,
            Run.throughput_gbps > 0,
        )
        .order_by(Run.finished_at.desc())
        .limit(limit)
    ).all()
    per_s, per_frame = [], []
    for events, wall_s, throughput, duration_ns, document in rows:
        frames = payload_frames(document, throughput, duration_ns)
        if frames > 0:
            per_s.append(events / wall_s)
            per_frame.append(events / frames)
    if not per_s:
        return None
    return PacketSpeed(events_per_s=median(per_s), events_per_frame=median(per_frame), runs=len(per_s))
