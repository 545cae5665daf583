"""API shapes of the presets resource."""

from pydantic import BaseModel, ConfigDict, Field

from app.scenarios.document import Scenario
from app.sweeps.schemas import LinkedParameter, SweepParameter


class PresetComparison(BaseModel):
    """A sweep shipped with a preset: the comparison its paper makes, run with POST /sweeps
    (scenario_id = the preset's, parameters and linked as here)."""

    model_config = ConfigDict(extra="forbid")
    title: str = Field(min_length=1, max_length=200)
    parameters: list[SweepParameter] = Field(min_length=1, max_length=8)
    linked: list[LinkedParameter] = Field(default_factory=list, max_length=8)


class PresetFile(BaseModel):
    """A preset as shipped in app/presets/data/<key>.json."""

    model_config = ConfigDict(extra="forbid")
    key: str
    title: str
    description: str
    source: str = ""
    comparison: PresetComparison | None = None
    scenario: Scenario


class PresetPublic(BaseModel):
    """A preset in the list."""

    key: str
    title: str
    description: str
    source: str
    scenario_id: str
    topology_kind: str
    hosts: int
    switches: int
    comparison: PresetComparison | None = Field(
        None, description="the paper's comparison, run with POST /sweeps; absent when none")


class PresetDetail(PresetPublic):
    """A preset with its scenario document and, when it has one, its comparison sweep."""

    scenario: Scenario


class PresetsPublic(BaseModel):
    """All presets."""

    data: list[PresetPublic]
    count: int
