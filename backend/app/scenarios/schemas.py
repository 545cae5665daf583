"""API shapes of the scenarios resource (the document itself is app.scenarios.document.Scenario)."""

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from app.scenarios.document import Scenario


class ScenarioCreate(BaseModel):
    """Body of POST /scenarios."""

    model_config = ConfigDict(extra="forbid")
    scenario: Scenario
    parent_id: str | None = Field(None, max_length=16)


class ScenarioFork(BaseModel):
    """Body of POST /scenarios/{id}/fork: the edited document."""

    model_config = ConfigDict(extra="forbid")
    scenario: Scenario


class ScenarioValidate(BaseModel):
    """Body of POST /scenarios/validate."""

    model_config = ConfigDict(extra="forbid")
    scenario: Scenario


class ValidateResult(BaseModel):
    """The document is valid for the API and the simulator."""

    ok: bool = True
    simulator_checked: bool = Field(description="false when the simulator binary is unavailable")


class ScenarioKind(StrEnum):
    """Which snapshots `GET /scenarios` lists (`kind=`)."""

    user = "user"  # saved by people: not a preset, nor a sweep point's or tuning's snapshot
    preset = "preset"  # shipped presets
    sweep_point = "sweep_point"  # the snapshots a sweep stores for its grid points
    tuning_point = "tuning_point"  # the snapshots a tuning stores for its evaluations
    all = "all"


class ScenarioSummary(BaseModel):
    """A scenario without its document (list rows)."""

    model_config = ConfigDict(from_attributes=True)
    id: str
    name: str
    description: str
    content_hash: str
    parent_id: str | None
    preset_key: str | None
    tuning_id: str | None = Field(
        default=None, description="the tuning whose evaluation this internal snapshot is")
    created_at: datetime
    share_url: str


class ScenarioPublic(ScenarioSummary):
    """A scenario with its document."""

    scenario: Scenario


class ScenarioCreated(ScenarioPublic):
    """Returned at creation: the owner token that owns it (the one the request sent first in
    X-Owner-Token, else a fresh one), needed to delete it and to list it."""

    owner_token: str


class ScenariosPublic(BaseModel):
    """A page of scenarios."""

    data: list[ScenarioSummary]
    count: int
