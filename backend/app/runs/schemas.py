"""API shapes of the runs resource."""

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from app.core.config import get_settings, max_run_threads
from app.core.validation import error_at, raise_errors
from app.runs.metrics import COLUMN_METRICS
from app.runs.models import RunStatus
from app.runs.threads import range_message
from app.scenarios import limits

METRIC_NAMES = COLUMN_METRICS  # the summary columns, in RunMetrics' order (app/runs/metrics.py)

MAX_SEEDS = 64


class RunCreate(BaseModel):
    """Body of POST /runs: one run per seed."""

    model_config = ConfigDict(extra="forbid")
    scenario_id: str = Field(min_length=1, max_length=64)
    seeds: list[Annotated[int, Field(ge=0, le=limits.MAX_SEED)]] = Field(
        default=[1], min_length=1, max_length=MAX_SEEDS)
    threads: int | None = Field(
        None, ge=1, description="simulator threads of each run: 1 to MAX_RUN_THREADS (the "
        "workers' cores unless configured); absent: chosen from the fabric's size (1 below 128 "
        "hosts, else hosts / 64 up to the maximum) and 1 for a scenario the simulator runs on one "
        "thread only (the DCI accelerator: 422 when asked for more). Results are the same for "
        "every value; a cached result serves any.")

    engine: Literal["packet", "flow"] = Field(
        "packet", description="the engine that answers: \"packet\" (the packet-level model, the "
        "default) or \"flow\" (the flow-level engine: flows share links max-min fair, answers in "
        "a second at any size, with the result's caveats saying what it leaves out; "
        "docs/model.md, Flow-level engine). A cached result serves only the same engine; flow "
        "runs use one thread.")

    @field_validator("threads", mode="before")
    @classmethod
    def _threads_in_range(cls, value: object) -> object:
        """An integer from 1 to the configured maximum (the message names the range)."""
        maximum = max_run_threads(get_settings())
        if value is None:
            return value
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= maximum:
            raise PydanticCustomError("threads_range", range_message(maximum))
        return value

    @model_validator(mode="after")
    def _distinct(self) -> "RunCreate":
        """No seed twice in one request."""
        if len(set(self.seeds)) != len(self.seeds):
            raise_errors("RunCreate", [error_at(("seeds",), "seeds must be distinct", self.seeds)])
        return self


class RunMetrics(BaseModel):
    """Summary columns (filterable and sortable); null until SUCCEEDED."""

    throughput_gbps: float | None = None
    fct_p50_us: float | None = None
    fct_p99_us: float | None = None
    slowdown_p99: float | None = None
    max_queue_bytes: float | None = None
    ecn_marked_packets: int | None = None
    cnps_sent: int | None = None
    pfc_pauses_sent: int | None = None
    drops_total: int | None = None
    jct_us: float | None = Field(None, description="the first collective job's completion time (result.jobs[0])")
    busbw_gbps: float | None = Field(None, description="the first collective job's bus bandwidth (NCCL-tests')")
    iteration_us: float | None = Field(None, description="the first training job's mean iteration time")
    tokens_per_s: float | None = Field(None, description="the first training job's tokens per second")
    exposed_dp_us: float | None = Field(None, description="the first training job's exposed DP time per iteration")
    exposed_tp_us: float | None = Field(None, description="the first training job's exposed TP time per iteration")
    jobs: dict[str, dict[str, float | None]] | None = Field(
        None, description="every job's metrics by job name: jct_us and busbw_gbps, and for a "
        "training job iteration_us, tokens_per_s, exposed_dp_us and exposed_tp_us (null without a job)")


class RunPublic(BaseModel):
    """State of one run."""

    id: str
    scenario_id: str
    seed: int
    status: RunStatus
    progress: float = Field(description="0..1, simulated time / duration")
    sim_time_ns: int
    duration_ns: int
    events: int
    wall_s: float
    attempts: int
    error: str | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    cached: bool = Field(False, description="true when POST /runs returned an existing result")
    threads: int = Field(1, description="simulator threads the run asked for (perf.parallel.threads)")
    partitions: int | None = Field(
        None, description="partitions the simulator made (fewer than threads on small fabrics); "
        "null until SUCCEEDED")
    engine: Literal["packet", "flow"] = Field("packet", description="the engine that answers the run")
    summary: RunMetrics | None


class RunLimits(BaseModel):
    """What POST /runs accepts on this instance (the run form's ranges)."""

    max_seeds: int = Field(description="seeds per request")
    max_threads: int = Field(description="simulator threads per run (MAX_RUN_THREADS)")
    hosts_per_thread: int = Field(description="the default: 1 thread below 2 x this many hosts, "
                                              "else hosts / this, up to max_threads")


class RunsPublic(BaseModel):
    """A page of runs."""

    data: list[RunPublic]
    count: int


class RunsCreated(RunsPublic):
    """The runs of POST /runs with the owner token the new ones are owned by (the one the
    request sent first in X-Owner-Token, else a fresh one): needed to cancel and list them."""

    owner_token: str


class FigureError(BaseModel):
    """One figure's error measured against the packet model (docs/validation-flow.md)."""

    max_abs_error: float = Field(description="the largest |flow - packet| / packet measured (0.05: 5 %)")
    target: float | None = Field(description="issue 36's target for the figure (null: reported only)")
    cases: int = Field(description="scenarios measured")


class FlowError(BaseModel):
    """The error measured for a flow-level run's kind of scenario (docs/validation-flow.md)."""

    kind: Literal["collective_nonblocking", "collective_oversubscribed", "flows"]
    label: str = Field(description="the kind in words: \"collectives on non-blocking fabrics\"")
    applies: bool = Field(description="false when the run has a caveat none of the measured "
                                      "scenarios had: its error is then unmeasured")
    outside: list[str] = Field(description="those caveats' features")
    figures: dict[str, FigureError] = Field(
        description="by figure: jct_us, busbw_gbps, iteration_us, throughput_gbps, goodput_gbps, "
                    "slowdown_p50, slowdown_p95, slowdown_p99")


class RunSummary(BaseModel):
    """run_info and summary of the result JSON (docs/result-format.md)."""

    run_info: dict[str, Any]
    summary: dict[str, Any]
    warnings: list[dict[str, Any]] = Field(
        default_factory=list,
        description="settings that are valid but will likely give results nobody wants "
                    "({code, field, message}; e.g. rto_below_base_rtt)")
    caveats: list[dict[str, Any]] = Field(
        default_factory=list,
        description="what the flow-level engine left out ({feature, field, message}; empty for a "
                    "packet-level run): docs/result-format.md, caveats")
    flow_error: FlowError | None = Field(
        None, description="a flow-level run: the error measured for its kind of scenario against "
                          "the packet model (docs/validation-flow.md); null for a packet-level run")


class RunDiagnostics(BaseModel):
    """The result's optional objects: faults (events, drops, watchdogs, deadlocks), Pingmesh RTT
    percentiles, port counters, the DCI accelerators' counters; null when the run has none."""

    faults: dict[str, Any] | None
    pingmesh: dict[str, Any] | None
    port_counters: dict[str, Any] | None
    dci_accelerator: dict[str, Any] | None = None
    transport: dict[str, Any] | None = Field(
        None, description="QP accounting per NIC (QPs needed, contexts used, QP-cache misses); "
        "null when every NIC is RC with one process and an unlimited QP cache")


class FlowsPublic(BaseModel):
    """A page of per-flow records."""

    data: list[dict[str, Any]]
    count: int
