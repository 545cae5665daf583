"""API shapes of the tunings resource."""

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.core.validation import error_at, raise_errors
from app.sweeps.schemas import PathStr
from app.tunings.objectives import COMPOSITE, JOB_METRICS, SINGLE_METRICS
from app.runs.models import RunStatus
from app.runs.screening import SCREEN_METRICS, Screening, refuse_unmodelled
from app.scenarios import limits
from app.tunings.space import UNITS

Name = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,31}$", examples=["kmin"])]
UnitName = Literal["model", "bytes", "cells", "percent", "alpha_direct", "alpha_broadcom_index",
                   "alpha_sai_exponent"]
MetricName = Literal[tuple(SINGLE_METRICS)]
JobName = Annotated[str, Field(min_length=1, max_length=64, examples=["ring"])]  # type: ignore[valid-type]
StrategyName = Literal["vendor", "experience", "grid", "random", "annealing", "tpe", "nsga2"]
TuningStatus = RunStatus  # a tuning goes through the states of a run
assert set(UnitName.__args__) == set(UNITS)  # one list of units


class Range(BaseModel):
    """start, start + step, ... up to stop (inclusive)."""

    model_config = ConfigDict(extra="forbid")
    start: float
    stop: float
    step: float = Field(gt=0, description="must be > 0 (0:5000:0 would give no values)")



class SpaceParameterIn(BaseModel):
    """One axis: a scenario path, its values (a list or a range) in `unit`."""

    model_config = ConfigDict(extra="forbid")
    name: Name
    path: PathStr
    values: list[float] | None = Field(None, min_length=1, max_length=5000)
    range: Range | None = None
    unit: UnitName = "model"

class LinkedIn(BaseModel):
    """A path set from a parameter: scale x value(from) + offset, converted with `unit`."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    name: Name
    path: PathStr
    from_: Name = Field(alias="from")
    scale: float = 1.0
    offset: float = 0.0
    unit: UnitName = "model"


class SpaceIn(BaseModel):
    """A named space (`bytetuning`, optionally with other units) or explicit parameters."""

    model_config = ConfigDict(extra="forbid")
    named: Literal["bytetuning"] | None = None
    units: dict[Name, UnitName] = Field(default_factory=dict, max_length=8,
                                        description="named spaces: unit per parameter name")
    parameters: list[SpaceParameterIn] = Field(default_factory=list, max_length=8)
    linked: list[LinkedIn] = Field(default_factory=list, max_length=8)

class ObjectiveIn(BaseModel):
    """A ByteTuning objective (maximised) or one metric to minimise or maximise."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["bytetuning_throughput", "bytetuning_latency", "metric"]
    metric: MetricName | None = None
    goal: Literal["max", "min"] | None = Field(None, description="default: the metric's sense")
    beta: float = Field(0.5, ge=0, le=1)
    gamma: float = Field(1.0, ge=0, le=1e6)
    job: JobName | None = Field(None, description="job metrics only (jct_us, busbw_gbps, iteration_us, "
                                "tokens_per_s, exposed_dp_us, exposed_tp_us): the job they are read "
                                "from (a job of every scenario); default the first that has it")

    @property
    def sense(self) -> Literal["max", "min"]:
        if self.kind in COMPOSITE:
            return "max"
        return self.goal or SINGLE_METRICS[self.metric or ""]


class ConstraintIn(BaseModel):
    """metric op value, e.g. {"metric": "drops_total", "op": "<=", "value": 0}."""

    model_config = ConfigDict(extra="forbid")
    metric: MetricName
    op: Literal["<=", "<", ">=", ">"]
    value: float
    job: JobName | None = Field(None, description="job metrics only: the job (default the first that has the metric)")


class StrategyOptions(BaseModel):
    """Strategy constants (docs/tuning.md); unset ones take the strategy's defaults."""

    model_config = ConfigDict(extra="forbid")
    batch: int | None = Field(None, ge=1, le=256)
    t0: float | None = Field(None, gt=0, le=100)
    t_end: float | None = Field(None, gt=0, le=100)
    restarts: int | None = Field(None, ge=1, le=50)
    polish: float | None = Field(None, ge=0, lt=1)
    parallel: int | None = Field(None, ge=1, le=64)
    fidelities: list[Annotated[float, Field(gt=0, le=1)]] | None = Field(None, min_length=1,
                                                                          max_length=4)
    settings: dict[PathStr, float | int | str | bool] | None = Field(
        None, max_length=16, description="fixed strategies: model values by path")


class StrategyIn(BaseModel):
    """One strategy, its budget (in full-duration evaluations) and seed."""

    model_config = ConfigDict(extra="forbid")
    name: StrategyName
    budget: int = Field(50, ge=1, le=100_000)
    seed: int = Field(0, ge=0, le=limits.MAX_SEED)
    options: StrategyOptions = Field(default_factory=StrategyOptions)


class TuningCreate(BaseModel):
    """Body of POST /tunings."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field("", max_length=200)
    scenario_ids: list[Annotated[str, Field(min_length=1, max_length=64)]] = Field(
        min_length=1, max_length=4)
    seeds: list[Annotated[int, Field(ge=0, le=limits.MAX_SEED)]] = Field([1], min_length=1, max_length=10)
    space: SpaceIn
    objectives: list[ObjectiveIn] = Field(min_length=1, max_length=2)
    constraints: list[ConstraintIn] = Field(default_factory=list, max_length=8)
    aggregate: Literal["mean", "worst"] = "mean"
    strategies: list[StrategyIn] = Field(min_length=1, max_length=7)
    screening: Screening | None = Field(
        None, description="evaluate every point at flow level, then the best `keep` "
        "full-duration points again at packet level (docs/tuning.md, \"Screening at flow "
        "level\"); refused (422 at the field) over settings the flow engine does not model and "
        "for objectives it does not answer")

    @model_validator(mode="after")
    def _consistent(self) -> "TuningCreate":
        errors = _screening_errors(self) if self.screening is not None else []
        names = [s.name for s in self.strategies]
        for i, name in enumerate(names):
            if names.index(name) != i:
                errors.append(error_at(("strategies", i, "name"), f"{name} is listed twice", name))
            if name == "nsga2" and len(self.objectives) != 2:
                errors.append(error_at(("strategies", i, "name"),
                                       "nsga2 needs two objectives", name))
        errors += _space_errors(self.space)
        for i, objective in enumerate(self.objectives):
            if objective.kind == "metric" and objective.metric is None:
                # located at `kind`: the error renderer reads a key equal to `kind` as a union tag
                errors.append(error_at(("objectives", i, "kind"), "kind 'metric' needs `metric` "
                                       f"(one of {', '.join(SINGLE_METRICS)})", objective.kind))
            elif objective.kind != "metric" and objective.metric is not None:
                errors.append(error_at(("objectives", i, "metric"), f"only for kind 'metric' "
                                       f"({objective.kind} is a composite)", objective.metric))
            if objective.job is not None and objective.metric not in JOB_METRICS:
                errors.append(error_at(("objectives", i, "job"), "names a job: only "
                                       f"for metric {', '.join(JOB_METRICS)}", objective.job))
        for i, constraint in enumerate(self.constraints):
            if constraint.job is not None and constraint.metric not in JOB_METRICS:
                errors.append(error_at(("constraints", i, "job"), "names a job: only "
                                       f"for metric {', '.join(JOB_METRICS)}", constraint.job))
        if len(set(self.seeds)) != len(self.seeds):
            errors.append(error_at(("seeds",), "seeds must be distinct", self.seeds))
        if len(set(self.scenario_ids)) != len(self.scenario_ids):
            errors.append(error_at(("scenario_ids",), "scenarios must be distinct",
                                   self.scenario_ids))
        raise_errors("TuningCreate", errors)
        return self


def _screening_errors(body: "TuningCreate") -> list:
    """Screening ranks by the flow engine's answers: a space over what it models, objectives
    among the figures it answers."""
    space = body.space
    errors = []
    if space.named is not None:
        errors.append(error_at(("space", "named"), f"screening at flow level cannot rank over the "
                               f"{space.named} space: its ECN and PFC settings are not modelled by "
                               "the flow engine; tune it without screening", space.named,
                               kind="screening_unmodelled"))
    paths = [(("space", "parameters", i, "path"), p.path) for i, p in enumerate(space.parameters)]
    paths += [(("space", "linked", i, "path"), link.path) for i, link in enumerate(space.linked)]
    errors += refuse_unmodelled(paths)
    for i, objective in enumerate(body.objectives):
        if objective.kind != "metric" or objective.metric not in SCREEN_METRICS:
            where = "metric" if objective.kind == "metric" else "kind"
            errors.append(error_at(("objectives", i, where), "screening at flow level ranks by "
                                   f"what the flow engine answers: one of {', '.join(SCREEN_METRICS)}",
                                   objective.metric or objective.kind, kind="screening_unmodelled"))
    return errors


def _space_errors(space: SpaceIn) -> list:
    """Cross-field rules of the space, located at the field (nested validators lose the loc)."""
    errors = []
    if (space.named is None) == (not space.parameters):
        errors.append(error_at(("space", "parameters"), "give either named or parameters",
                               None))
    for i, p in enumerate(space.parameters):
        if (p.values is None) == (p.range is None):
            errors.append(error_at(("space", "parameters", i, "values"),
                                   "give exactly one of values and range", p.values))
        elif p.range is not None and p.range.stop < p.range.start:
            errors.append(error_at(("space", "parameters", i, "range", "stop"),
                                   f"must be >= start ({p.range.start:g})", p.range.stop))
        elif p.range is not None and (p.range.stop - p.range.start) / p.range.step > 100_000:
            errors.append(error_at(("space", "parameters", i, "range", "step"),
                                   "gives more than 100000 values; use a larger step",
                                   p.range.step))
    return errors


class Estimate(BaseModel):
    """Mean over seeds and the half-width of its 95% confidence interval."""

    mean: float
    ci: float


class StrategyProgress(BaseModel):
    """Per strategy: evaluations asked and done, cost so far, best objective so far."""

    strategy: str
    evaluations: int
    done: int
    cost: float
    finished: bool
    best: Estimate | None


class TuningProgress(BaseModel):
    """SSE payload."""

    id: str
    status: TuningStatus
    error: str | None
    strategies: list[StrategyProgress]


class SpaceParameterOut(BaseModel):
    name: str
    path: str
    values: list[float]
    unit: str


class LinkedOut(BaseModel):
    name: str
    path: str
    source: str
    scale: float
    offset: float
    unit: str


class SpaceOut(BaseModel):
    """The expanded space (what the heatmap axes show)."""

    parameters: list[SpaceParameterOut]
    linked: list[LinkedOut]
    size: int


class TuningPublic(TuningProgress):
    name: str
    scenario_ids: list[str]
    spec: TuningCreate
    space: SpaceOut
    created_at: datetime
    finished_at: datetime | None


class TuningCreated(TuningPublic):
    """A new tuning with the owner token it is owned by (the one the request sent first in
    X-Owner-Token, else a fresh one): needed to cancel it, apply its picks and list it."""

    owner_token: str


class TuningSummary(TuningProgress):
    name: str
    scenario_ids: list[str]
    created_at: datetime


class TuningsPublic(BaseModel):
    data: list[TuningSummary]
    count: int


class EvaluationPublic(BaseModel):
    """One evaluation: settings, runs, metrics (means over runs) and objective estimates."""

    id: int
    strategy: str
    seq: int
    batch: int
    point: list[int] | None
    fidelity: float
    params: dict[str, Any]
    overrides: dict[str, Any]
    status: str
    feasible: bool | None
    objectives: list[Estimate] | None
    metrics: dict[str, float | None] | None
    run_ids: list[str]
    error: str | None
    packet_run_ids: list[str] | None = Field(
        None, description="screening: the packet-level runs of an evaluation kept (run_ids are "
                          "then flow-level)")
    packet_objectives: list[Estimate] | None = Field(
        None, description="screening: the objectives at packet level, beside `objectives`")
    packet_metrics: dict[str, float | None] | None = None


class Pick(BaseModel):
    """A strategy's best feasible full-duration evaluation; `beats` lists the strategies whose
    pick it is better than with non-overlapping 95% intervals (first objective)."""

    strategy: str
    evaluation_id: int
    params: dict[str, Any]
    overrides: dict[str, Any]
    objectives: list[Estimate]
    beats: list[str]
    settings: dict[str, Any] = Field(default_factory=dict, description=(
        "every setting of the pick in the scenario's own units (bytes, 0..1), by scenario path: "
        "grid points converted from the space's cells and percent, overrides as given"))


class TableRow(BaseModel):
    """The slides' comparison table: one row per strategy's pick, means and 95% CIs over runs."""

    strategy: str
    evaluation_id: int | None
    evaluations: int
    objective: Estimate | None
    throughput_gbps: Estimate | None
    fct_p99_us: Estimate | None
    queue_p99_bytes: Estimate | None
    max_queue_bytes: Estimate | None
    ecn_marked_packets: Estimate | None


class ObjectiveOut(BaseModel):
    """An objective as the page explains it: its weights and its formula (docs/tuning.md)."""

    label: str
    kind: str
    metric: str | None
    goal: Literal["max", "min"]
    beta: float
    gamma: float
    formula: str = Field(description="how the score is computed; a single metric's name")
    job: str | None = Field(None, description="a job metric: the job named (null: the first that has it)")


class TuningResults(BaseModel):
    id: str
    status: TuningStatus
    objectives: list[str]
    goals: list[Literal["max", "min"]]
    space: SpaceOut
    evaluations: list[EvaluationPublic]
    picks: list[Pick]
    pareto: list[int] = Field(description="evaluation ids on the front (two objectives)")
    table: list[TableRow]
    paths: dict[str, list[int]] = Field(description="annealing: evaluation ids of accepted moves")
    kept: list[int] | None = Field(None, description=(
        "screening: the evaluation ids run again at packet level, best first (null until every "
        "strategy has finished at flow level)"))
    objective_specs: list[ObjectiveOut] = Field(default_factory=list, description=(
        "each objective's weights and formula; a composite objective's picks carry its score "
        "split into `term_throughput_part`, `term_queue_part` and `term_fairness_penalty` in "
        "their metrics (score = (throughput + queue) / (1 + fairness))"))


class ApplyPick(BaseModel):
    """Body of POST /tunings/{id}/apply: fork a base scenario with an evaluation's settings."""

    model_config = ConfigDict(extra="forbid")
    evaluation_id: int = Field(ge=1, le=2**31 - 1)
    scenario_index: int = Field(0, ge=0, le=3)
