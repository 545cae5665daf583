"""The lab format: markdown with YAML front matter (docs/labs/README.md)."""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

CheckKind = Literal["preset_opened", "param_changed", "run_finished", "prediction_saved"]


class StepCheck(BaseModel):
    """What the app watches for to tick a step itself."""

    model_config = ConfigDict(extra="forbid")
    kind: CheckKind
    preset: str | None = Field(None, description="preset_opened: the preset key; run_finished "
                               "without a path: the run's scenario is this preset unchanged")
    path: str | None = Field(None, description="param_changed / run_finished: a dotted scenario path")
    value: Any = Field(None, description="the value the path must have (omitted: any change)")
    prediction: str | None = Field(None, description="prediction_saved: the prediction id")
    also: dict[str, Any] | None = Field(
        None, description="run_finished: further dotted paths the run's scenario must have at "
        "these values (null: unset, 0 or false), e.g. to tell lab 5's runs with and without the "
        "accelerator apart")


class LabStep(BaseModel):
    """One checklist item."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[a-z0-9-]{1,40}$")
    text: str = Field(min_length=1, max_length=300)
    check: StepCheck | None = None


class LabPrediction(BaseModel):
    """A predict-before-you-run question; the answer is compared with a result metric."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[a-z0-9-]{1,40}$")
    question: str = Field(min_length=1, max_length=500)
    unit: str = ""
    metric: str | None = Field(None, description="what the run gave, shown beside the prediction: "
                               "a dotted path in the run summary (throughput_gbps, fct_us.p99), "
                               "jobs.<job name>.<field> (a collective job of GET /runs/{id}/jobs) "
                               "or pingmesh.<field> (the result's pingmesh)")
    run: StepCheck | None = Field(None, description="the run the question is about (a run_finished "
                                  "check); its metric is the one shown beside the answer. Omitted: "
                                  "the latest run")
    answer: str = Field("", max_length=1000, description="shown once the student has saved a "
                        "prediction (markdown), with the lab's fenced `answer <id>` blocks (the "
                        "text hides those until then)")

    @model_validator(mode="after")
    def _run_is_a_run(self) -> "LabPrediction":
        """A prediction is compared with a finished run."""
        if self.run is not None and self.run.kind != "run_finished":
            raise ValueError("run must be a run_finished check")
        return self


class LabMeta(BaseModel):
    """Front matter of a lab file."""

    model_config = ConfigDict(extra="forbid")
    title: str = Field(min_length=1, max_length=200)
    preset: str
    time: str = ""
    steps: list[LabStep] = Field(min_length=1)
    predictions: list[LabPrediction] = []
    questions: list[str] = []


class LabSummary(BaseModel):
    """A lab in the list."""

    slug: str
    title: str
    preset: str
    time: str


class LabsPublic(BaseModel):
    """GET /labs."""

    data: list[LabSummary]
    count: int


class LabPublic(LabMeta):
    """GET /labs/{slug}: front matter, the student text and the instructor notes (markdown)."""

    model_config = ConfigDict(extra="forbid")
    slug: str
    body: str
    instructor: str
