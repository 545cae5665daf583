"""API shapes of measurements (NCCL-tests, perftest) and their comparison with the simulation."""

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.core.textfile import MAX_TEXT_CHARS
from app.runs.schemas import RunStatus
from app.scenarios import limits

MeasurementKind = Literal["nccl_tests", "perftest"]


class MeasurementCreate(BaseModel):
    """Body of POST /measurements: a benchmark's text output, attached to a scenario."""

    model_config = ConfigDict(extra="forbid")
    scenario_id: str = Field(min_length=1, max_length=64)
    kind: MeasurementKind
    text: str = Field(min_length=1, max_length=MAX_TEXT_CHARS, description=(
        "the tool's output as printed (NCCL-tests: from the '# nThread' line to '# Avg bus "
        "bandwidth'; perftest: from the test's title to the results' closing dashes)"))
    tool: str | None = Field(None, max_length=32, description=(
        "which tool printed it (all_reduce_perf, ib_write_bw, ...); default: read from the text"))
    name: str = Field("", max_length=200)


class MeasuredPoint(BaseModel):
    """One row of the measurement, in the simulator's units (Gbit/s, us)."""

    line: int
    size_bytes: int
    iterations: int | None = None
    busbw_gbps: float | None = Field(None, description="NCCL-tests out of place, GB/s x 8")
    busbw_in_place_gbps: float | None = None
    algbw_gbps: float | None = None
    time_us: float | None = None
    wrong: int | None = None
    bw_average_gbps: float | None = Field(None, description="perftest BW average")
    bw_peak_gbps: float | None = None
    t_typical_us: float | None = None
    t_avg_us: float | None = None
    t_min_us: float | None = None
    t_max_us: float | None = None
    p99_us: float | None = None
    p999_us: float | None = None


class MeasurementSummary(BaseModel):
    id: str
    scenario_id: str
    kind: MeasurementKind
    tool: str
    name: str
    created_at: datetime
    points: int
    sweep_id: str | None
    run_id: str | None


class MeasurementPublic(MeasurementSummary):
    """A measurement as read: its header (ranks, settings), rows and notes, and its simulation."""

    header: dict[str, Any] = Field(description="nThread/nGpus/minBytes/maxBytes/iters and the "
                                               "ranks (NCCL-tests), or the test's settings "
                                               "(perftest)")
    rows: list[MeasuredPoint]
    notes: list[str]
    sim_scenario_id: str | None
    generator: int | None


class MeasurementCreated(MeasurementPublic):
    owner_token: str


class MeasurementsPublic(BaseModel):
    data: list[MeasurementSummary]
    count: int


class SimulateRequest(BaseModel):
    """Body of POST /measurements/{id}/simulate."""

    model_config = ConfigDict(extra="forbid")
    seed: int = Field(1, ge=0, le=limits.MAX_SEED)
    generator: int | None = Field(None, ge=0, le=limits.MAX_GENERATORS - 1, description=(
        "index of the scenario's generator to drive (default: the first collective of the "
        "measured op, or the first perftest)"))


class SimulationStarted(BaseModel):
    measurement_id: str
    kind: Literal["sweep", "run"]
    sweep_id: str | None
    run_id: str | None
    sim_scenario_id: str
    generator: int
    notes: list[str]


class ComparedPoint(BaseModel):
    size_bytes: int
    measured: float | None
    measured_in_place: float | None = None
    simulated: float | None
    ratio: float | None = Field(description="simulated / measured")
    differs: bool = Field(description="|ratio - 1| > threshold")
    reasons: list[str] = Field(description="ids of `reasons` that may explain the difference")
    run_id: str | None
    status: RunStatus | None
    measured_p99: float | None = None
    measured_p999: float | None = None


class Comparison(BaseModel):
    """Measured against simulated, per size."""

    measurement_id: str
    tool: str
    metric: Literal["busbw_gbps", "bw_gbps", "latency_us"]
    unit: str
    threshold: float
    status: RunStatus | None = Field(description="the simulation's (null: not simulated yet)")
    done: int
    total: int
    points: list[ComparedPoint]
    reasons: dict[str, str] = Field(description="what the model leaves out, by id")
    measured_ranks: int | None = None
    simulated_ranks: int | None = None
    notes: list[str]
