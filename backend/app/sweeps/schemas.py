"""API shapes of the sweeps resource."""

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.core.validation import error_at, raise_errors

from app.runs.schemas import RunMetrics, RunStatus
from app.runs.screening import SCREEN_METRICS, ScreenMetric, Screening, refuse_unmodelled
from app.scenarios import limits

PathStr = Annotated[str, Field(min_length=1, max_length=300, pattern=r"^[A-Za-z0-9_.:\-]+$",
                               examples=["switch.ecn.kmin_bytes", "traffic.0.size_bytes"])]
Value = int | float | str | bool


class SweepParameter(BaseModel):
    """One axis of the grid: a dotted scenario path and its values."""

    model_config = ConfigDict(extra="forbid")
    path: PathStr
    values: list[Value] = Field(min_length=1, max_length=5000)


class LinkedParameter(BaseModel):
    """A path set from another: value = scale x value(from) + offset (Kmax = Kmin + 500)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    path: PathStr
    from_: PathStr = Field(alias="from")
    scale: float = 1.0
    offset: float = 0.0


class SweepScreening(Screening):
    """Screening of a sweep: every point at flow level, ranked by `metric`; the best `keep` run
    again at packet level (docs/api.md, "Sweeps")."""

    metric: ScreenMetric = Field("jct_us", description="the figure the points are ranked by")
    goal: Literal["min", "max"] | None = Field(
        None, description="better is lower (min) or higher (max); default the metric's sense")
    job: str | None = Field(None, min_length=1, max_length=64,
                            description="jct_us and busbw_gbps: the collective job they are read "
                                        "from (default the first)")

    @property
    def sense(self) -> Literal["min", "max"]:
        return self.goal or SCREEN_METRICS[self.metric]


class SweepCreate(BaseModel):
    """Body of POST /sweeps."""

    model_config = ConfigDict(extra="forbid")
    scenario_id: str = Field(min_length=1, max_length=64)
    seed: int = Field(1, ge=0, le=limits.MAX_SEED)
    parameters: list[SweepParameter] = Field(min_length=1, max_length=8)
    linked: list[LinkedParameter] = Field(default_factory=list, max_length=8)
    screening: SweepScreening | None = Field(
        None, description="run every point at flow level first and the best `keep` at packet "
        "level; refused (422 at the parameter) when a swept path is one the flow engine does not "
        "model (ECN, PFC, congestion control, buffers, trimming, ...)")

    @model_validator(mode="after")
    def _screened_paths_modelled(self) -> "SweepCreate":
        """Screening ranks points by what the flow engine answers: every swept path must be one
        it models."""
        if self.screening is not None:
            paths = [(("parameters", i, "path"), p.path) for i, p in enumerate(self.parameters)]
            paths += [(("linked", i, "path"), link.path) for i, link in enumerate(self.linked)]
            raise_errors("SweepCreate", refuse_unmodelled(paths))
        return self

    @model_validator(mode="after")
    def _paths_unique(self) -> "SweepCreate":
        """A path is swept or linked once: two values for one field at one point is ambiguous."""
        seen: set[str] = set()
        errors = []
        entries = [("parameters", i, p.path) for i, p in enumerate(self.parameters)]
        entries += [("linked", i, link.path) for i, link in enumerate(self.linked)]
        for group, i, path in entries:
            if path in seen:
                errors.append(error_at((group, i, "path"),
                                       f"path {path} is already swept or linked; use it once", path))
            seen.add(path)
        raise_errors("SweepCreate", errors)
        return self


SweepStatus = RunStatus  # a sweep goes through the states of a run


class SweepPointPublic(BaseModel):
    """One grid point and its run's metrics (with screening: the flow-level run's, and the
    packet-level run's beside them for the points kept)."""

    index: int
    params: dict[str, Any]
    scenario_id: str | None
    run_id: str | None
    status: RunStatus
    metrics: RunMetrics | None
    engine: Literal["packet", "flow"] = Field("packet", description="the engine of `run_id`")
    packet_run_id: str | None = Field(None, description="screening: the packet-level run of a "
                                      "point kept (null for the others)")
    packet_status: RunStatus | None = None
    packet_metrics: RunMetrics | None = None


class SweepProgress(BaseModel):
    """Counts over all points (SSE payload)."""

    id: str
    status: SweepStatus
    total: int
    done: int
    failed: int


class SweepPublic(SweepProgress):
    """A sweep with its aggregated table (params -> metrics), ready for a heatmap."""

    scenario_id: str
    seed: int
    created_at: datetime
    parameters: list[SweepParameter]
    linked: list[LinkedParameter]
    screening: SweepScreening | None = None
    kept: list[int] | None = Field(
        None, description="screening: the indexes of the points run at packet level, best first "
                          "(null until every point has its flow-level answer)")
    points: list[SweepPointPublic] = Field(
        description="One page of the points table in index order: `limit` points from `offset`")
    points_count: int = Field(description="Points stored so far (`total` once expanded)")
    offset: int = Field(description="Index of this page's first point")
    next_offset: int | None = Field(
        description="`offset` of the next page, null when this page holds the last point")


class SweepSummary(SweepProgress):
    """A sweep without its points (list rows)."""

    scenario_id: str
    created_at: datetime


class SweepsPublic(BaseModel):
    """A page of sweeps."""

    data: list[SweepSummary]
    count: int


class SweepCreated(SweepPublic):
    """A new sweep with the owner token it is owned by (the one the request sent first in
    X-Owner-Token, else a fresh one): needed to cancel and list it."""

    owner_token: str
