"""API shapes of POST /estimate."""

from typing import Any, Literal

from pydantic import BaseModel, Field


class JobEstimate(BaseModel):
    """One collective job's headline figures (the result's jobs[])."""

    name: str
    op: str
    algorithm: str
    jct_us: float | None = Field(description="first start to last completion (null: not done in the duration)")
    busbw_gbps: float | None
    iteration_us: float | None = Field(description="mean time of its completed iterations")
    ideal_busbw_gbps: float


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
