"""POST /scenarios/check: the configuration check of a scenario (not stored)."""

import json

from fastapi import APIRouter, HTTPException

from app.configcheck.schemas import CheckResult
from app.core import simulator
from app.scenarios import service
from app.scenarios.schemas import ScenarioValidate

router = APIRouter(prefix="/scenarios", tags=["scenarios"])


@router.post("/check", response_model=CheckResult)
def check(body: ScenarioValidate) -> CheckResult:
    """Lint the effective configuration: headroom, QP depth vs BDP, RTO vs RTT, buffer vs
    headroom, Kmax vs buffer, PFC along paths, alpha under incast, DCQCN vs link rate."""
    try:
        output = simulator.config_check(service.to_document(body.scenario))
    except simulator.SimulatorUnavailable as exc:
        raise HTTPException(503, f"the configuration check needs the simulator: {exc}") from exc
    return CheckResult.model_validate(json.loads(output))
