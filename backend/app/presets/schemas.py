"""API shapes of the presets resource."""

from pydantic import BaseModel, ConfigDict

from app.scenarios.schema import Scenario


class PresetFile(BaseModel):
    """A preset as shipped in app/presets/data/<key>.json."""

    model_config = ConfigDict(extra="forbid")
    key: str
    title: str
    description: str
    source: str = ""
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


class PresetDetail(PresetPublic):
    """A preset with its scenario document."""

    scenario: Scenario


class PresetsPublic(BaseModel):
    """All presets."""

    data: list[PresetPublic]
    count: int
