"""API shapes of POST /estimate."""

from typing import Any, Literal

from pydantic import BaseModel, Field

from app.runs.schemas import FlowError


class JobEstimate(BaseModel):
    """One collective job's headline figures (the result's jobs[])."""

    name: str
    op: str
    algorithm: str
    jct_us: float | None = Field(description="first start to last completion (null: not done in the duration)")
    busbw_gbps: float | None
    iteration_us: float | None = Field(description="mean time of its completed iterations")
    ideal_busbw_gbps: float


class PacketRunPrediction(BaseModel):
    """How long a packet-level run of the scenario would take on this instance, from the events
    per second and per delivered frame its recent packet-level runs measured (app/runs/speed.py)."""

    seconds: float = Field(description="predicted wall time of a packet-level run on one thread")
    events: float = Field(description="predicted simulator events: frames x events_per_frame")
    frames: float = Field(description="payload frames the estimate delivers after the warm-up")
    events_per_s: float = Field(description="median over the runs measured")
    events_per_frame: float = Field(description="median over the runs measured")
    runs: int = Field(description="recent packet-level runs measured")


class EstimateResult(BaseModel):
    """The flow-level engine's headline figures of a scenario, answered synchronously."""

    engine: Literal["flow"] = "flow"
    status: Literal["ok", "limit"] = Field(description="limit: the estimate's time or memory bound stopped it")
    wall_s: float = Field(description="what the estimate took, end to end")
    throughput_gbps: float
    fct_p50_us: float | None
    fct_p99_us: float | None
    slowdown_p50: float | None
    slowdown_p99: float | None
    flows_total: int
    flows_completed: int
    jobs: list[JobEstimate]
    caveats: list[dict[str, Any]] = Field(description="what the flow-level engine leaves out ({feature, field, message})")
    flow_error: FlowError | None = Field(
        None, description="the error docs/validation-flow.md measured for the scenario's kind "
                          "(as a flow-level run's summary carries it)")
    packet_run: PacketRunPrediction | None = Field(
        None, description="how long a packet-level run would take here; null until this instance "
                          "has run one at packet level (on one thread)")
