"""The flow-level estimate of a scenario (docs/model.md, "Flow-level engine"): `fabricsim run
--engine flow` on a temporary copy, bounded in hosts, time and memory, synchronously."""

import json
import re
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from app.core import simulator
from app.estimate.schemas import EstimateResult, JobEstimate, PacketRunPrediction
from app.runs.flow_errors import flow_error
from app.runs.speed import PacketSpeed, payload_frames
from app.scenarios import limits

# The simulator's own bounds for one estimate (it writes a partial result past them, status
# "limit"), and the process's, a little later.
ESTIMATE_WALL_S = 2
ESTIMATE_MEMORY_MB = 1024
ESTIMATE_PROCESS_TIMEOUT_S = 10
# `fabricsim run --max-hosts`'s refusal (simcore/doc/fabricsim.md)
_HOSTS_REFUSED = re.compile(r"expands to (\d+) hosts, .*\(--max-hosts\)$")


class TooLarge(ValueError):
    """The scenario is beyond what an estimate takes; the message says why and what to do."""


def estimate(document: dict[str, Any], speed: PacketSpeed | None = None) -> EstimateResult:
    """Raises TooLarge, simulator.SimulatorRejected (-> 422 at the path) or SimulatorUnavailable.
    With `speed` (this instance's packet-level speed) it predicts a packet-level run's time."""
    start = time.perf_counter()
    # The simulator refuses a fabric of more hosts than an estimate takes (--max-hosts) once its
    # topology is built, before its traffic; the result records the fabric's oversubscription.
    with tempfile.TemporaryDirectory() as directory:
        scenario = Path(directory) / "scenario.json"
        out = Path(directory) / "result.json"
        scenario.write_text(json.dumps(document))
        proc = subprocess.run([str(simulator.binary()), "run", str(scenario), "--out", str(out),
                               "--engine", "flow", "--max-wall-s", str(ESTIMATE_WALL_S),
                               "--max-memory-mb", str(ESTIMATE_MEMORY_MB),
                               "--max-hosts", str(limits.ESTIMATE_MAX_HOSTS), "--result", "headline"],
                              capture_output=True, text=True, timeout=ESTIMATE_PROCESS_TIMEOUT_S,
                              check=False)
        if proc.returncode == 2:
            path, message = simulator.parse_error_line(proc.stderr)
            too_large = _HOSTS_REFUSED.match(message) if path == "topology" else None
            if too_large:
                raise TooLarge(f"{int(too_large.group(1)):,} hosts: an estimate takes fabrics of at most "
                               f"{limits.ESTIMATE_MAX_HOSTS:,} hosts; start a run with engine \"flow\" instead")
            raise simulator.SimulatorRejected(path, message)
        if proc.returncode not in (0, 3):
            raise simulator.SimulatorUnavailable(f"fabricsim exited {proc.returncode}: {proc.stderr.strip()[:500]}")
        result = json.loads(out.read_text())
    summary = result["summary"]
    jobs = []
    for job in result.get("jobs", []):
        times = [it["time_us"] for it in job["iterations"] if it["time_us"] is not None]
        jobs.append(JobEstimate(name=job["name"], op=job["op"], algorithm=job["algorithm"],
                                jct_us=job["jct_us"], busbw_gbps=job["busbw_gbps"],
                                iteration_us=sum(times) / len(times) if times else None,
                                ideal_busbw_gbps=job["ideal_busbw_gbps"]))
    return EstimateResult(status=result["status"], wall_s=round(time.perf_counter() - start, 4),
                          throughput_gbps=summary["throughput_gbps"],
                          fct_p50_us=summary["fct_us"]["p50"], fct_p99_us=summary["fct_us"]["p99"],
                          slowdown_p50=summary["slowdown"]["p50"], slowdown_p99=summary["slowdown"]["p99"],
                          flows_total=summary["flows_total"], flows_completed=summary["flows_completed"],
                          jobs=jobs, caveats=result.get("caveats", []),
                          flow_error=flow_error(result),
                          packet_run=_packet_run(document, result, speed))


def _packet_run(document: dict[str, Any], result: dict[str, Any],
                speed: PacketSpeed | None) -> PacketRunPrediction | None:
    """The packet-level run's predicted time: the frames the estimate delivers, times the events
    per frame and over the events per second measured here."""
    if speed is None:
        return None
    frames = payload_frames(document, result["summary"]["throughput_gbps"],
                            result["run_info"]["duration_ns"])
    events = frames * speed.events_per_frame
    return PacketRunPrediction(seconds=round(events / speed.events_per_s, 3), events=round(events),
                               frames=round(frames), events_per_s=round(speed.events_per_s),
                               events_per_frame=round(speed.events_per_frame, 2), runs=speed.runs)
