"""API shapes of settings import (SONiC, NIC sysfs) and export (SONiC, NVUE, NIC sysfs)."""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.fabricsettings.sonic import MAX_FILES
from app.fabricsettings.sonic_import import MAX_FILE_CHARS
from app.core.textfile import MAX_TEXT_CHARS
from app.scenarios.schemas import ScenarioSummary
from app.scenarios.topology import NodeId

ExportFormat = Literal["sonic", "nvue", "nic_sysfs"]


class SonicFile(BaseModel):
    """One switch's config_db.json as text (its name is the switch's unless DEVICE_METADATA's
    hostname says otherwise)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=200, examples=["leaf0.config_db.json"])
    text: str = Field(max_length=MAX_FILE_CHARS)


class SettingsImport(BaseModel):
    """Body of POST /scenarios/{id}/settings/import."""

    model_config = ConfigDict(extra="forbid")
    sonic: list[SonicFile] = Field(default_factory=list, max_length=MAX_FILES, description=(
        "config_db.json of one switch, or one per switch"))
    nic_sysfs: str | None = Field(None, max_length=MAX_TEXT_CHARS, description=(
        "a dump of /sys/class/net/<if>/ecn/roce_rp/* and roce_np/* (grep . prints 'path:value'; "
        "'name value' lines are read too)"))
    nic_host: NodeId | None = Field(None, description=(
        "apply the NIC settings to this host only (nic_overrides), not to every host (nic)"))
    draw_topology: bool = Field(True, description=(
        "with one file per switch, redraw the topology from DEVICE_NEIGHBOR and PORT"))
    dry_run: bool = Field(True, description=(
        "true: return the report and the resulting scenario, store nothing; false: store the "
        "result as a new scenario whose parent is this one"))
    name: str | None = Field(None, max_length=200, description="the new scenario's name")


class ReportEntry(BaseModel):
    """One line of the field-by-field report."""

    status: Literal["read", "mapped", "ignored", "kept"] = Field(description=(
        "read: used to group ports or draw links; mapped: set `parameter`; ignored: not "
        "modelled (note says why); kept: a parameter the files did not set, left as it was"))
    source: str | None
    value: str | None
    parameter: str | None
    converted: Any = None
    conversion: str | None = None
    note: str | None = None


class SettingsImported(BaseModel):
    report: list[ReportEntry]
    counts: dict[str, int]
    scenario: dict[str, Any] = Field(description="the resulting scenario document")
    saved: ScenarioSummary | None = Field(None, description="the stored scenario (dry_run false)")
    owner_token: str | None = None


class ExportFile(BaseModel):
    name: str
    media_type: str
    content: str


class SettingsExport(BaseModel):
    """Settings converted to a device format, each file with a header naming its origin."""

    format: ExportFormat
    source: dict[str, Any] = Field(description="what the settings came from: scenario, run, "
                                               "tuning pick")
    files: list[ExportFile]
    approximations: list[str] = Field(description="values the device format cannot hold exactly")
    not_exported: list[str] = Field(description="settings the format has no place for")
