"""Response of POST /scenarios/check: what `fabricsim check` prints (docs/config-check.md)."""

from typing import Literal

from pydantic import BaseModel


class Finding(BaseModel):
    """One problem: how bad, which ports or nodes, the numbers behind it and the fix."""

    severity: Literal["error", "warning", "info"]
    rule: str
    where: list[str]
    numbers: dict[str, float]
    message: str
    fix: str


class Counts(BaseModel):
    """Findings per severity."""

    error: int
    warning: int
    info: int


class EffectiveChange(BaseModel):
    """A parameter a timed `set` fault changes: intended (configured) vs effective value."""

    node: str
    param: str
    intended: float
    effective: float
    from_us: float
    until_us: float | None


class CheckResult(BaseModel):
    """Findings of the configuration check and the effective configuration changes."""

    findings: list[Finding]
    counts: Counts
    effective: list[EffectiveChange]
