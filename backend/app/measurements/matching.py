"""The simulation that matches a measurement (pure: the service stores and starts it).

- NCCL-tests: a sweep of the scenario's collective of the measured op over exactly the measured
  sizes (`traffic.<i>.message_bytes`).
- perftest: the scenario's perftest generator at the measured message size, iterations, TX
  depth and QPs: one run for one size, a sweep for several (`-a`). A latency test runs one message
  (TX depth 1): the model is deterministic and its window counts packets, not messages
  (docs/model.md, "Window"), so one message's round trip stands for the mean of the measured
  ping-pongs.

Each point's duration grows with its size (a linked parameter): `duration_us` = base + iterations
x (size x 8 / host rate x SAFETY + per-iteration latency), capped at the scenario limit; the
sample interval grows with it so a run never exceeds MAX_SAMPLES samples."""

from dataclasses import dataclass, field
from typing import Any

from app.core.textfile import TextFileError
from app.measurements.nccl_tests import TOOLS
from app.scenarios import limits

SAFETY = 4.0                     # simulated time allowed per byte over the ideal (congestion)
COLLECTIVE_STEP_US = 100.0       # per iteration, for the ring's 2(n-1) steps' latencies
PERFTEST_MESSAGE_US = 20.0       # per message, a round trip with margin


class MatchError(ValueError):
    """The scenario cannot simulate this measurement (a 422 naming the field)."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass
class Plan:
    kind: str                             # "sweep" or "run"
    generator: int
    fork: dict[str, Any] = field(default_factory=dict)      # path -> value for the snapshot
    parameters: list[dict[str, Any]] = field(default_factory=list)
    linked: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _generator(document: dict[str, Any], asked: int | None, kind: str, op: str | None,
               what: str) -> int:
    traffic = document.get("traffic", [])
    if asked is not None:
        if asked >= len(traffic):
            raise MatchError("generator", f"the scenario has {len(traffic)} generators (0 .. "
                                          f"{len(traffic) - 1})")
        gen = traffic[asked]
        if gen.get("kind") != kind or (op is not None and gen.get("op") != op):
            raise MatchError("generator", f"traffic[{asked}] is not {what}")
        return asked
    for i, gen in enumerate(traffic):
        if gen.get("kind") == kind and (op is None or gen.get("op") == op):
            return i
    raise MatchError("generator", f"the scenario has no {what}: add one to its traffic")


def _duration_links(document: dict[str, Any], path: str, sizes: list[int], iterations: int,
                    rate_gbps: float, per_iteration_us: float, notes: list[str]) -> list[dict]:
    """duration_us and monitor.sample_interval_us linked to the swept size."""
    base = float(document.get("duration_us", 10_000))
    offset = base + iterations * per_iteration_us
    scale = iterations * 8 * SAFETY / (rate_gbps * 1000)   # us per byte
    largest = max(sizes)
    if offset >= limits.MAX_DURATION_US:
        raise MatchError("generator", f"{iterations} iterations need more than the "
                                      f"{limits.MAX_DURATION_US:g} us a run may simulate")
    if offset + scale * largest > limits.MAX_DURATION_US:
        scale = (limits.MAX_DURATION_US - offset) / largest
        notes.append(f"the largest sizes get at most {limits.MAX_DURATION_US:g} us of simulated "
                     "time and may not complete")
    sample = float(document.get("monitor", {}).get("sample_interval_us", 10))
    return [{"path": "duration_us", "from": path, "scale": scale, "offset": offset},
            {"path": "monitor.sample_interval_us", "from": path,
             "scale": scale / limits.MAX_SAMPLES,
             "offset": max(sample, offset / limits.MAX_SAMPLES)}]


def nccl_plan(document: dict[str, Any], parsed: dict[str, Any], asked: int | None,
              rate_gbps: float) -> Plan:
    tool = parsed["tool"]
    op = TOOLS[tool]
    if op is None:
        raise MatchError("generator", f"{tool}: the model has no send/receive collective; "
                                      "compare it with a pairs or stride generator")
    index = _generator(document, asked, "collective", op, f"collective generator with op {op}")
    gen = document["traffic"][index]
    notes: list[str] = []
    sizes = [r["size_bytes"] for r in parsed["rows"] if r["size_bytes"] >= 1]
    if len(sizes) < len(parsed["rows"]):
        notes.append("rows of size 0 are not simulated")
    if not sizes:
        raise TextFileError(0, "no row has a size of at least 1 byte")
    path = f"traffic.{index}.message_bytes"
    iterations = int(gen.get("iterations", 1))
    linked = _duration_links(document, path, sizes, iterations, rate_gbps, COLLECTIVE_STEP_US,
                             notes)
    measured_iters = parsed.get("header", {}).get("iters")
    if measured_iters and measured_iters != iterations:
        notes.append(f"NCCL-tests averaged {measured_iters} iterations; the simulation runs the "
                     f"generator's {iterations}")
    return Plan("sweep", index, parameters=[{"path": path, "values": sizes}], linked=linked,
                notes=notes)


def perftest_plan(document: dict[str, Any], parsed: dict[str, Any], asked: int | None,
                  rate_gbps: float) -> Plan:
    index = _generator(document, asked, "perftest", None, "perftest generator")
    rows = parsed["rows"]
    settings = parsed["settings"]
    notes: list[str] = []
    iterations = rows[0]["iterations"]
    if any(r["iterations"] != iterations for r in rows):
        notes.append(f"rows differ in #iterations: every size runs {iterations}")
    tx_depth = settings.get("tx_depth")
    if parsed["kind"] == "lat":
        notes.append(f"one message per size stands for the {iterations} measured ping-pongs: the "
                     "model has no noise, and its window counts packets, not messages")
        iterations, tx_depth = 1, 1
    prefix = f"traffic.{index}"
    fork: dict[str, Any] = {f"{prefix}.iterations": iterations}
    if isinstance(tx_depth, int):
        fork[f"{prefix}.tx_depth"] = tx_depth
    qps = settings.get("qps")
    if isinstance(qps, int):
        fork[f"{prefix}.qps"] = qps
    sizes = [r["size_bytes"] for r in rows]
    path = f"{prefix}.message_bytes"
    linked = _duration_links(document, path, sizes, iterations, rate_gbps, PERFTEST_MESSAGE_US,
                             notes)
    if len(sizes) == 1:
        fork[path] = sizes[0]
        for link in linked:
            fork[link["path"]] = link["scale"] * sizes[0] + link["offset"]
        return Plan("run", index, fork=fork, notes=notes)
    return Plan("sweep", index, fork=fork, parameters=[{"path": path, "values": sizes}],
                linked=linked, notes=notes)
